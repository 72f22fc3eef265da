"""Intents are data in the log: every command is recorded with its answers next to its events, and replays.

``Engine.records`` holds one :class:`IntentRecord` per command resolved (the start, each intent, each turn
end) with the answers its decisions got and the span of events it produced; ``Engine.log`` stays the events
alone. ``dumps_log`` writes both as canonical JSON lines, ``loads_log`` reads them back refusing anything
malformed with its line and field, and ``replay`` rebuilds the fight from the seed and the records,
stopping at the first event that differs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.rng import ScriptedRng
from ashfall.engine import (
    EndTurn,
    Engine,
    FirstOption,
    IntentFormatError,
    IntentRecord,
    LogFormatError,
    NeedDecision,
    ReplayDivergence,
    StartCombat,
    Stride,
    Strike,
    apply_events,
    command_from_json,
    command_to_json,
    dumps,
    dumps_log,
    legal_intents,
    loads,
    loads_log,
    new_engine,
    new_state,
    replay,
)
from ashfall.grid.board import Board
from ashfall.ruleset import preset
from tests.engine.map_kit import fighter
from tests.engine.test_engine_invariants import CHAOS, PRESETS, Played, build, play
from tests.engine.test_golden import GOLDEN as DUEL_GOLDEN
from tests.engine.test_golden import duel, play_script

ROOT = Path(__file__).resolve().parents[2]


def melee_pair(seed: int = 11) -> Engine:
    roster = [fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")]
    return new_engine(new_state(roster, preset(), Board(6, 6)), seed)


def scripted_duel() -> Engine:
    engine = duel()
    play_script(engine)
    return engine


def test_records__each_command_keeps_its_answers_and_the_span_of_its_events() -> None:
    engine = melee_pair()
    started = engine.start()
    actor = engine.state.active_id or ""
    target = "r" if actor == "w" else "w"
    struck = engine.submit(Strike(actor, target))
    ended = engine.end_turn(actor)
    assert [type(r.intent) for r in engine.records] == [StartCombat, Strike, EndTurn]
    assert [r.step for r in engine.records] == [0, 1, 2]
    for record, produced in zip(engine.records, (started, struck, ended), strict=True):
        assert engine.log[record.first_event:record.end_event] == produced
    assert engine.records[1].intent == Strike(actor, target)
    assert engine.records[-1].end_event == len(engine.log)


@pytest.mark.rule("RX-3", "RX-21")
def test_records__a_resubmitted_intent_keeps_the_answer_given_for_its_decision() -> None:
    engine = melee_pair()
    engine.start()
    mover = engine.state.active_id or ""
    engine.controllers = {mover: FirstOption()}  # nobody answers for the other one
    away, further = ((0, 1), (0, 2)) if mover == "w" else ((3, 1), (3, 2))
    with pytest.raises(NeedDecision):
        engine.submit(Stride(mover, (away, further)))
    assert len(engine.records) == 1  # the refused attempt left no record
    engine.submit(Stride(mover, (away, further)), answers=[None])
    assert engine.records[-1].answers == (None,)


def test_records__controllers_answers_are_recorded_too() -> None:
    engine = scripted_duel()
    answered = [r for r in engine.records if r.answers]
    assert answered, "the scripted duel asks for the Raider's brace reaction (RX-12)"
    decisions = sum(len(r.answers) for r in engine.records)
    assert decisions == sum(1 for e in engine.log if type(e).__name__ == "DecisionMade")


def test_records__the_event_log_itself_is_unchanged_by_recording() -> None:
    engine = scripted_duel()
    assert dumps(engine.log) == DUEL_GOLDEN.read_text(encoding="utf-8")


def test_log_text__round_trips_byte_for_byte_with_sorted_keys() -> None:
    engine = scripted_duel()
    text = dumps_log(engine.fight_log({"example": "duel"}))
    lines = text.splitlines()
    header = json.loads(lines[0])
    assert header == {"type": "fight", "format": 1, "seed": 7, "ruleset": "ashfall-2", "setup": {"example": "duel"}}
    assert all(line == json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")) for line in lines)
    assert sum(1 for line in lines if '"type":"intent"' in line) == len(engine.records)
    back = loads_log(text)
    assert dumps_log(back) == text
    assert back.records == tuple(engine.records) and dumps(back.events) == dumps(engine.log)


def test_intent_json__every_legal_intent_round_trips() -> None:
    engine = scripted_duel()
    engine.undo(1)
    seen = 0
    for actor in engine.state.combatants:
        for intent in legal_intents(engine, actor):
            data = command_to_json(intent)
            assert command_from_json(json.loads(json.dumps(data))) == intent
            seen += 1
    assert seen > 10


@pytest.mark.parametrize(("data", "path"), [
    ({"type": "teleport", "actor": "w"}, "intent.type"),
    ({"type": "strike", "actor": "w"}, "intent.target"),
    ({"type": "strike", "actor": "w", "target": 3}, "intent.target"),
    ({"type": "strike", "actor": "w", "target": "r", "colour": "red"}, "intent.colour"),
    ({"type": "stride", "actor": "w", "path": [[1, "a"]]}, "intent.path.0.1"),
])
def test_intent_json__bad_data_is_refused_naming_the_field(data: dict[str, object], path: str) -> None:
    with pytest.raises(IntentFormatError) as bad:
        command_from_json(data)
    assert bad.value.path == path


def _duel_text() -> list[str]:
    return dumps_log(scripted_duel().fight_log()).splitlines()


@pytest.mark.parametrize(("edit", "line", "field"), [
    (lambda ls: [*ls[:1], "{nope", *ls[2:]], 2, "-"),
    (lambda ls: [ls[0].replace('"format":1', '"format":9'), *ls[1:]], 1, "format"),
    (lambda ls: [*ls[:1], ls[1].replace('"type":"start"', '"type":"warp"'), *ls[2:]], 2, "intent.type"),
    (lambda ls: [*ls[:1], ls[1].replace('"step":0', '"step":4'), *ls[2:]], 2, "step"),
    (lambda ls: ls[:-1], -1, "events"),  # -1: the last line left
    (lambda ls: [*ls[:2], ls[2].replace('"type":"combat-started"', '"type":"combat-begun"'), *ls[3:]], 3, "-"),
])
def test_log_text__malformed_lines_are_refused_with_line_and_field(edit: object, line: int, field: str) -> None:
    lines = edit(_duel_text())  # type: ignore[operator]
    with pytest.raises(LogFormatError) as bad:
        loads_log("\n".join(lines) + "\n")
    assert (bad.value.line, bad.value.field) == (line if line > 0 else len(lines), field)


@pytest.mark.rule("AE-1")
def test_replay__rebuilds_the_fight_from_seed_and_records_with_every_event_checked() -> None:
    engine = scripted_duel()
    again = replay(engine.fight_log(), engine.initial_state)
    assert dumps(again.log) == dumps(engine.log)
    assert again.records == engine.records
    assert again.state == engine.state and again.state.winner == "party"


def test_replay__the_stored_text_replays_and_can_be_played_on() -> None:
    engine = melee_pair(3)
    engine.start()
    actor = engine.state.active_id or ""
    engine.submit(Strike(actor, "r" if actor == "w" else "w"))
    again = replay(loads_log(dumps_log(engine.fight_log())), engine.initial_state)
    again.end_turn(actor)  # the replayed engine goes on from where the log stopped
    assert again.state.active_id != actor or again.state.ended


def test_replay__a_different_starting_state_diverges_at_the_first_different_event() -> None:
    engine = scripted_duel()
    closer = melee_pair().initial_state  # the same two creatures, already side by side
    with pytest.raises(ReplayDivergence) as diverged:
        replay(engine.fight_log(), closer)
    record = engine.records[diverged.value.step]
    assert diverged.value.step > 0 and record.first_event <= diverged.value.index <= record.end_event
    assert f"replay diverges at record {diverged.value.step}" in str(diverged.value)


def test_replay__an_unseeded_log_needs_its_dice_and_the_same_ruleset() -> None:
    roster = [fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")]
    faces = [(20, 20), (1_000_000, 1), (20, 1), (1_000_000, 1)]
    engine = Engine(new_state(roster, preset(), Board(6, 6)), ScriptedRng(list(faces)), {}, seed=None)
    engine.start()
    log = engine.fight_log()
    with pytest.raises(ValueError, match="no seed"):
        replay(log, engine.initial_state)
    assert replay(log, engine.initial_state, rng=ScriptedRng(list(faces))).log == engine.log
    with pytest.raises(ValueError, match="played under"):
        replay(log, new_state(roster, preset("ashfall-1"), Board(6, 6)), rng=ScriptedRng(list(faces)))


def test_records__an_intent_record_is_frozen_data() -> None:
    record = IntentRecord(0, StartCombat(), (), 0, 3)
    assert record.end_event == 3
    with pytest.raises(AttributeError):
        record.step = 1  # type: ignore[misc]


def test_loads__events_only_text_still_round_trips() -> None:
    text = DUEL_GOLDEN.read_text(encoding="utf-8")
    assert dumps(loads(text)) == text


@pytest.mark.rule("AE-1")
@pytest.mark.parametrize("edition", PRESETS)
@CHAOS
@given(data=st.data(), seed=st.integers(0, 2**31), uncontrolled=st.sampled_from([None, "w", "r"]),
       every=st.integers(1, 6))
def test_replay__random_legal_play_replays_from_its_records_and_undoes_exactly(
        edition: str, data: st.DataObject, seed: int, uncontrolled: str | None, every: int) -> None:
    engine = build(edition, seed, uncontrolled)
    engine.snapshot_every = every
    play(engine, data, Played())  # random intents, turn ends, answers to decisions, undos on the way
    log = engine.fight_log()
    text = dumps_log(log)
    assert dumps_log(loads_log(text)) == text
    again = replay(loads_log(text), engine.initial_state)
    assert dumps_log(again.fight_log()) == text and again.state == engine.state
    back_to = data.draw(st.integers(0, len(engine.records) - 1), label="undo to")
    engine.undo(back_to)
    point = log.records[back_to].first_event
    assert engine.state == apply_events(engine.initial_state, log.events[:point])
