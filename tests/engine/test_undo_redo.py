"""Undo restores a snapshot plus the events since; redo plays undone records again, same dice, same events.

The engine snapshots the state every ``snapshot_every`` records. ``undo(n)`` restores the last snapshot at
or before record ``n`` and applies only the events after it, then rewinds the dice; the result must be
exactly the state the full event log gives (AE-1: the fight continues as if the undone intents never
happened). ``redo()`` resolves the earliest undone record again with its recorded answers.
"""

from __future__ import annotations

import pytest

from ashfall.engine import Engine, Refused, apply_events, dumps, dumps_log, replay
from ashfall.sim.fight import run_fight
from ashfall.sim.setups import EncounterSetup


def played(snapshot_every: int, path: str = "encounters/skirmish.yaml") -> Engine:
    fight = EncounterSetup(path).build_fight(3)
    fight.engine.snapshot_every = snapshot_every
    run_fight(lambda _: fight.engine, 3, fight.policies, ambushers=fight.ambushers, max_rounds=3)
    return fight.engine


def test_snapshots__are_taken_every_n_records() -> None:
    engine = played(4)
    count = len(engine.records)
    assert count > 12
    assert engine.snapshot_points == tuple(range(4, count + 1, 4))


@pytest.mark.rule("AE-1")
@pytest.mark.parametrize("back_to", [1, 3, 4, 5, 9, 13])
def test_undo__from_a_snapshot_gives_exactly_the_state_of_the_full_log(back_to: int) -> None:
    engine = played(4)
    initial = engine.initial_state
    full = engine.fight_log()
    engine.undo(back_to)
    point = full.records[back_to].first_event
    assert engine.state == apply_events(initial, full.events[:point])
    assert dumps(engine.log) == dumps(full.events[:point])
    assert len(engine.records) == back_to == engine.intents_done
    assert all(p <= back_to for p in engine.snapshot_points)


@pytest.mark.rule("AE-1")
def test_undo__then_playing_on_matches_a_replay_of_the_kept_records() -> None:
    engine = played(4)
    engine.undo(10)
    kept = engine.fight_log()
    assert dumps_log(replay(kept, engine.initial_state).fight_log()) == dumps_log(kept)


@pytest.mark.rule("AE-1")
def test_redo__plays_the_undone_records_again_with_the_same_events() -> None:
    engine = played(4)
    whole = dumps_log(engine.fight_log())
    engine.undo(len(engine.records) - 5)
    assert engine.redo_available == 5
    while engine.redo_available:
        engine.redo()
    assert dumps_log(engine.fight_log()) == whole


def test_redo__a_new_command_after_undo_drops_what_could_be_redone() -> None:
    engine = played(4)
    last_two = tuple(engine.records[-2:])
    engine.undo()
    engine.undo()
    assert engine.redo_available == 2 and engine.undone == last_two  # oldest first: a branch a front end may keep
    engine.redo()
    assert engine.redo_available == 1
    last = engine.records[-1]
    engine.undo()
    engine.perform(last.intent, last.answers)  # a command of its own, even if it is the same one
    assert engine.redo_available == 0
    with pytest.raises(Refused):
        engine.redo()
