"""Typed state records change only by events, and clones and undo copy them (the battlefield's bookkeeping)."""

from __future__ import annotations

import pytest

from ashfall.engine import events as ev
from ashfall.engine.apply import apply
from ashfall.engine.engine import clone_state
from ashfall.engine.environment import Breath
from ashfall.engine.records import Keyed, Supplies, Tally, use_name
from ashfall.families.attacks.moves_gear import DrawStow
from ashfall.families.morale.rules import MoraleMark
from ashfall.grid.board import Board
from tests.engine.map_kit import fighter, started


@pytest.mark.rule("UW-1", "UW-9", "CHN-4", "G-51")
def test_uw_1__breath_depth_chains_and_hazard_marks_are_records_the_events_set_and_clones_keep_apart() -> None:
    engine = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (3, 1), "raider")], Board(6, 4))
    state = engine.state
    apply(state, ev.BreathChanged("w", 4, spent=1))
    apply(state, ev.BreathChanged("w", 3))
    apply(state, ev.DepthChanged("w", 10, 10))
    apply(state, ev.ChainPending("barrel", True))
    apply(state, ev.HazardTriggered("fire", "w", 1, "w", "G-51"))
    env = state.environment
    assert env.breath == {"w": Breath(3, state.round)}  # the round it last ran down is kept
    assert (env.depth_ft, env.chain_pending, env.hazard_marks) == ({"w": 10}, {"barrel"}, {("fire", "w"): (1, "w")})

    copy = clone_state(state)
    apply(copy, ev.BreathChanged("w", None))
    apply(copy, ev.DepthChanged("w", 0, -10))
    apply(copy, ev.ChainPending("barrel", False))
    apply(copy, ev.HazardTriggered("fire", "r", 1, "w", "G-51"))
    assert env.breath == {"w": Breath(3, state.round)} and env.depth_ft == {"w": 10}
    assert env.chain_pending == {"barrel"} and ("fire", "r") not in env.hazard_marks
    assert copy.environment.breath == {} and copy.environment.chain_pending == set()


@pytest.mark.rule("MOR-20", "G-31", "VEH-5")
def test_mor_20__a_combatants_supplies_are_set_by_events_kept_apart_by_clones_and_rewound_by_undo() -> None:
    engine = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (3, 1), "raider")], Board(6, 4))
    state = engine.state
    for name, delta in (("fled", 1), ("stim:2", 3), ("stowed:spear", 1), ("moving", 1), ("stealth-total", 14)):
        apply(state, ev.ResourceUsed("r", "uses:" + name, delta, "G-31"))
    r = state.get("r")
    assert r.supplies.has(MoraleMark.FLED) and r.supplies.of(Keyed.STIM, 2) == 3
    assert r.supplies.of(Keyed.STOWED, "spear") == 1 and r.supplies.count(Tally.MOVING) == 1
    assert dict(r.uses) == {"fled": 1, "stim:2": 3, "stowed:spear": 1, "moving": 1, "stealth-total": 14}
    with pytest.raises(ValueError, match="unknown uses key"):
        apply(state, ev.ResourceUsed("r", "uses:sentinal", 1, "G-31"))

    copy = clone_state(state)
    apply(copy, ev.ResourceUsed("r", use_name((Keyed.STIM, 2)), -1, "G-31"))
    apply(copy, ev.MoraleChanged("raiders", (("r", "broken"),), None, "broke", "MOR-21"))
    assert state.get("r").supplies.of(Keyed.STIM, 2) == 3 and not state.get("r").supplies.has(MoraleMark.BROKEN)
    assert copy.get("r").supplies.marks == {MoraleMark.FLED, MoraleMark.BROKEN}  # a status keeps the flight



@pytest.mark.rule("G-31")
def test_g_31__undo_rewinds_a_stowed_weapon() -> None:
    engine = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (4, 1), "raider")], Board(6, 4))
    weapon = engine.state.get("w").weapons[0].id
    engine.submit(DrawStow("w", weapon, stow=True))
    assert engine.state.get("w").supplies.of(Keyed.STOWED, weapon) == 1
    engine.undo()
    assert engine.state.get("w").supplies == Supplies()
