"""Engine invariants under random legal play (hypothesis), and the undo / replay / refusal guarantees.

Random fights: 2v2 library creatures on a small map, each step a random intent from
``legal_intents(engine, actor)`` or ending the turn, under both presets and many seeds. After every
step: no 4th action (AE-1), no second reaction before the reactor's next turn (AE-2, RX-1), HP within
0..max and temporary HP >= 0, the dead and the downed never act. At the end: the log replays to the
same state, ``dumps`` / ``loads`` round-trips byte for byte, and the same seed with the same intents
gives the same log. On the way: ``undo`` restores state and dice, an illegal intent changes nothing,
and an unanswerable decision (a creature without a controller) rolls the intent back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ashfall.engine import (
    Controller,
    EncounterState,
    Engine,
    FirstOption,
    NeedDecision,
    Refused,
    Stride,
    Strike,
    clone_state,
    legal_intents,
    make_combatant,
    new_engine,
    new_state,
)
from ashfall.engine import apply_events as replay  # the state after some events
from ashfall.engine import events as ev
from ashfall.engine.apply import apply
from ashfall.grid.board import Board
from ashfall.ruleset import preset
from tests.engine.map_kit import LIB, fighter, started

PRESETS = ["ashfall-2", "ashfall-1"]
SIDES = {"party": [("warrior", "w", (0, 1)), ("gunslinger", "g", (0, 4))],
         "raiders": [("raider", "r", (5, 1)), ("bandit", "b", (5, 4))]}
MAX_STEPS = 45
CHAOS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                phases=[Phase.explicit, Phase.reuse, Phase.generate])  # shrinking a whole fight takes minutes


def build(edition: str, seed: int, without: str | None = None) -> Engine:
    """A fresh 2v2 engine; ``without`` names a creature whose decisions nobody answers."""
    rs = preset(edition)
    roster = [make_combatant(LIB, kind, cid, side, pos, ruleset=rs) for side, members in SIDES.items()
              for kind, cid, pos in members]
    controllers: dict[str, Controller] = {c.id: FirstOption() for c in roster if c.id != without}
    engine = new_engine(new_state(roster, rs, Board(6, 6)), seed, controllers)
    if without is not None:
        engine.controllers = controllers  # new_engine fills gaps with FirstOption: take it away again
    return engine


@dataclass
class Played:
    """What was submitted, to play it again: ("start" | "end" | intent, answers)."""

    steps: list[tuple[Any, tuple[str | None, ...]]] = field(default_factory=list)


def frozen_view(engine: Engine) -> tuple[EncounterState, str, object]:
    return clone_state(engine.state), ev.dumps(engine.log), engine.rng.getstate()


def run(engine: Engine, action: Callable[[tuple[str | None, ...]], list[Any]], played: Played, what: Any) -> list[Any]:
    """Do one step; on NeedDecision check the rollback, then answer by declining until it goes through."""
    answers: tuple[str | None, ...] = ()
    for _ in range(12):
        before = frozen_view(engine)
        try:
            events = action(answers)
        except NeedDecision:
            assert frozen_view(engine) == before, "NeedDecision left traces"
            answers = (*answers, None)
            continue
        played.steps.append((what, answers))
        return events
    raise AssertionError("a decision was asked for again and again")


def check_state(engine: Engine) -> None:
    rs = engine.state.ruleset
    for c in engine.state.combatants.values():
        assert 0 <= c.health.hp <= c.health.max_hp, c
        assert c.health.temp_hp >= 0, c
        assert 0 <= c.turn.actions_left <= rs.turn.actions_per_turn, c.turn


def check_log(engine: Engine) -> None:
    """Replay the log event by event: budgets, reactions and who acts (AE-1, AE-2, RX-1, DEATH-1)."""
    state = engine.initial_state
    spent: dict[str, int] = {}
    budget: dict[str, int] = {}
    reactions: dict[str, int] = {}
    limit = state.ruleset.turn.reactions_per_round
    for e in engine.log:
        kind = type(e)
        if kind is ev.TurnStarted:
            assert state.get(e.actor).is_active, f"{e.actor}'s turn started while it was down"
            spent[e.actor], budget[e.actor], reactions[e.actor] = 0, e.actions, 0
        elif kind is ev.ActionsSpent:
            spent[e.actor] = spent.get(e.actor, 0) + e.count
            assert spent[e.actor] <= budget.get(e.actor, 0) <= state.ruleset.turn.actions_per_turn, e
        elif kind is ev.ReactionSpent:
            reactions[e.actor] = reactions.get(e.actor, 0) + 1
            assert reactions[e.actor] <= limit, f"second reaction before {e.actor}'s next turn"
        if kind in (ev.ActionsSpent, ev.ReactionSpent, ev.AttackRolled) or (kind is ev.Moved and not e.forced):
            assert state.get(e.actor).is_active, f"{e.actor} acted while down: {e}"
        apply(state, e)
    assert state == engine.state


def illegal_attempt(engine: Engine, data: st.DataObject) -> None:
    """Submit a candidate the engine refuses (another creature's, or one that fails its check): nothing changes."""
    state = engine.state
    rejected = []
    for cid in state.combatants:
        for definition in engine.rulebook.actions.values():
            for intent in definition.candidates(state, cid):
                try:
                    engine.check(intent)
                except Refused:
                    rejected.append(intent)
                if len(rejected) > 40:
                    break
    if not rejected:
        return
    intent = data.draw(st.sampled_from(rejected), label="illegal intent")
    before = frozen_view(engine)
    with pytest.raises(Refused):
        engine.submit(intent)
    assert frozen_view(engine) == before


def play(engine: Engine, data: st.DataObject, played: Played) -> None:
    run(engine, lambda a: engine.start(), played, "start")
    for _ in range(MAX_STEPS):
        check_state(engine)
        if engine.state.ended:
            return
        actor = engine.state.active_id
        assert actor is not None
        options = legal_intents(engine, actor)
        pick = data.draw(st.integers(0, len(options)), label="intent index")
        if data.draw(st.integers(0, 9), label="try illegal") == 0:
            illegal_attempt(engine, data)
        if pick == len(options):
            run(engine, lambda a, who=actor: engine.end_turn(who, a), played, ("end", actor))
            continue
        intent = options[pick]
        undo_now = data.draw(st.integers(0, 5), label="undo") == 0
        before = frozen_view(engine)
        first = run(engine, lambda a, it=intent: engine.submit(it, a), played, intent)
        if undo_now:
            answers = played.steps[-1][1]
            engine.undo()
            assert frozen_view(engine) == before, "undo did not restore state, log and dice"
            again = engine.submit(intent, answers)
            assert ev.dumps(again) == ev.dumps(first), "the same intent after undo gave other events"


def replay_steps(engine: Engine, played: Played) -> None:
    for what, answers in played.steps:
        if what == "start":
            engine.start()
        elif isinstance(what, tuple) and what[0] == "end":
            engine.end_turn(what[1], answers)
        else:
            engine.submit(what, answers)


@pytest.mark.rule("AE-1", "AE-2", "RX-1", "DEATH-1", "ACT-1")
@pytest.mark.parametrize("edition", PRESETS)
@CHAOS
@given(data=st.data(), seed=st.integers(0, 2**31), uncontrolled=st.sampled_from([None, "w", "r"]))
def test_ae_1_ae_2__random_legal_play_keeps_every_invariant(edition: str, data: st.DataObject, seed: int,
                                                             uncontrolled: str | None) -> None:
    engine = build(edition, seed, uncontrolled)
    played = Played()
    play(engine, data, played)
    check_state(engine)
    check_log(engine)
    assert replay(engine.initial_state, engine.log) == engine.state
    text = ev.dumps(engine.log)
    assert ev.dumps(ev.loads(text)) == text
    twin = build(edition, seed, uncontrolled)
    replay_steps(twin, played)
    assert ev.dumps(twin.log) == text, "same seed and intents gave a different log"


# ----- the same guarantees, scripted -----


def melee_pair() -> Engine:
    roster = [fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")]
    engine = new_engine(new_state(roster, preset(), Board(6, 6)), 11)
    engine.start()
    return engine


@pytest.mark.rule("RX-3", "RX-21")
def test_need_decision__a_creature_without_a_controller_rolls_the_intent_back() -> None:
    engine = melee_pair()
    mover = engine.state.active_id
    assert mover is not None
    other = "r" if mover == "w" else "w"
    engine.controllers = {mover: FirstOption()}  # the one left in reach has nobody to answer for it
    away = (0, 1) if mover == "w" else (3, 1)
    further = (0, 2) if mover == "w" else (3, 2)
    before = frozen_view(engine)
    with pytest.raises(NeedDecision) as info:
        engine.submit(Stride(mover, (away, further)))
    decision = info.value.decision
    assert (decision.actor, decision.kind, decision.prompt) == (other, "reaction", "leaves-reach")
    assert decision.about == mover
    assert decision.describe() == f"leaves-reach by {mover}" and decision.describe() in str(info.value)
    assert frozen_view(engine) == before
    events = engine.submit(Stride(mover, (away, further)), answers=[None])  # declined
    assert not [e for e in events if isinstance(e, ev.ReactionSpent)]
    assert engine.state.get(mover).position == further


@pytest.mark.rule("AE-1")
def test_undo__restores_state_and_dice_so_the_same_intent_rolls_the_same() -> None:
    engine = melee_pair()
    actor = engine.state.active_id
    assert actor is not None
    target = "r" if actor == "w" else "w"
    before = frozen_view(engine)
    first = engine.submit(Strike(actor, target))
    engine.undo()
    assert frozen_view(engine) == before
    assert ev.dumps(engine.submit(Strike(actor, target))) == ev.dumps(first)
    engine.undo(0)  # back before start()
    assert engine.log == [] and not engine.state.started


@pytest.mark.rule("AE-1")
def test_undo__nothing_to_undo_is_refused() -> None:
    engine = started([fighter("w", "party", (0, 0)), fighter("r", "raiders", (3, 3), "raider")], Board(6, 6))
    engine.undo()
    with pytest.raises(Refused):
        engine.undo()


@pytest.mark.rule("AE-1", "DEATH-1")
def test_check__a_creature_that_drops_on_its_own_turn_cannot_act_on() -> None:
    engine = started([fighter("w", "party", (0, 0)), fighter("r", "raiders", (3, 3), "raider")], Board(6, 6))
    w = engine.state.get("w")
    w.health = w.health.evolve(hp=0, vitality=w.health.vitality.DYING)  # as if an AoO dropped it mid-turn
    assert w.turn.actions_left == 3
    assert legal_intents(engine, "w") == []
    with pytest.raises(Refused) as info:
        engine.submit(Strike("w", "r"))
    assert info.value.rule == "DEATH-1"


@pytest.mark.rule("AE-1")
def test_copy__look_ahead_does_not_move_the_original_dice() -> None:
    engine = melee_pair()
    actor = engine.state.active_id
    assert actor is not None
    target = "r" if actor == "w" else "w"
    dice, mark = engine.rng.getstate(), len(engine.log)
    ahead = engine.copy()
    foreseen = ahead.submit(Strike(actor, target))
    assert engine.rng.getstate() == dice and len(engine.log) == mark
    assert ev.dumps(engine.submit(Strike(actor, target))) == ev.dumps(foreseen)


@pytest.mark.rule("AE-1")
def test_submit__an_exception_inside_a_resolver_leaves_nothing_half_done() -> None:
    engine = melee_pair()
    actor = engine.state.active_id
    assert actor is not None
    before = frozen_view(engine)

    class Broken(Exception):
        pass

    def explode(state: EncounterState, e: Any) -> None:
        raise Broken

    from ashfall.engine import apply as apply_module

    saved = apply_module.APPLIERS[ev.AttackRolled]
    apply_module.APPLIERS[ev.AttackRolled] = explode
    try:
        with pytest.raises(Broken):
            engine.submit(Strike(actor, "r" if actor == "w" else "w"))
    finally:
        apply_module.APPLIERS[ev.AttackRolled] = saved
    assert frozen_view(engine) == before
