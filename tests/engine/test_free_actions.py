"""Free-action bookkeeping (AE-3, FA-1, FA-3): free actions cost no action and are capped per turn by an option."""

from __future__ import annotations

import pytest

from ashfall.core.types import Condition
from ashfall.engine import Engine, FallProne, Refused, Speak, Stand
from ashfall.engine import events as ev
from ashfall.grid.board import Board
from ashfall.ruleset import preset
from tests.engine.map_kit import fighter, of_type, snapshot, started


def pair(cap: int | None = None, *, raider_down: bool = False) -> Engine:
    rs = preset() if cap is None else preset().with_options(turn={"free_actions_per_turn": cap})
    return started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (5, 5), "raider", down=raider_down),
                    fighter("r2", "raiders", (7, 7), "raider")], Board(10, 10), ruleset=rs)


def refused(engine: Engine, intent: object) -> str:
    before = snapshot(engine)
    with pytest.raises(Refused) as info:
        engine.submit(intent)
    assert snapshot(engine) == before
    return str(info.value.rule)


@pytest.mark.rule("AE-3", "FA-1")
def test_ae_3__free_actions_cost_no_action_and_are_counted() -> None:
    engine = pair()
    events = engine.submit(Speak("w", "Hold the line!"))
    assert not of_type(events, ev.ActionsSpent)
    assert [(e.resource, e.delta, e.rule) for e in of_type(events, ev.ResourceUsed)] == [("free-action", 1, "FA-1")]
    w = engine.state.get("w")
    assert w.turn.actions_left == 3 and w.turn.free_actions == 1


@pytest.mark.rule("AE-3", "FA-1")
@pytest.mark.parametrize("cap", [0, 1, 3])
def test_ae_3__the_cap_option_limits_free_actions_per_turn(cap: int) -> None:
    engine = pair(cap)
    for _ in range(cap):
        engine.submit(Speak("w"))
    assert refused(engine, Speak("w")) == "AE-3"
    assert engine.state.get("w").turn.actions_left == 3


@pytest.mark.rule("AE-3", "FA-3", "ACT-5")
def test_ae_3__falling_prone_is_free_standing_up_is_not() -> None:
    engine = pair()
    engine.submit(FallProne("w"))
    assert engine.state.get("w").has(Condition.PRONE)
    assert engine.state.get("w").turn.actions_left == 3
    assert refused(engine, FallProne("w")) == "FA-3"  # already prone
    engine.submit(Stand("w"))
    assert engine.state.get("w").turn.actions_left == 2


@pytest.mark.rule("AE-3", "FA-1")
def test_ae_3__speaking_off_turn_counts_against_the_speakers_own_budget_which_resets_on_its_turn() -> None:
    engine = pair(1)
    assert engine.state.active_id == "w"
    engine.submit(Speak("r2", "Get him!"))  # off its turn (FA-1 is allowed then)
    assert engine.state.get("r2").turn.free_actions == 1
    assert refused(engine, Speak("r2")) == "AE-3"
    engine.end_turn("w")
    while engine.state.active_id != "r2":
        engine.end_turn(engine.state.active_id)  # type: ignore[arg-type]
    assert engine.state.get("r2").turn.free_actions == 0
    engine.submit(Speak("r2"))


@pytest.mark.rule("AE-3", "DEATH-1", "FA-1")
def test_ae_3__a_downed_creature_takes_no_free_action() -> None:
    engine = pair(raider_down=True)
    assert refused(engine, Speak("r", "Help...")) == "DEATH-1"
