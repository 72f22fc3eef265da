"""Fleeing toward an exit on the move in the fight kernel: the tactical AI's broken NPCs Stride for the gate (MOR-20).

In a walled yard with a two-square gate (the battlefield's exits, MOR-20), a raider of the tactical AI's that breaks
(MOR-21) spends every action on a Stride toward the gate (``TacticalPolicy._flee``: ``flee_path``, ``first_stride``),
provoking Attacks of Opportunity as it goes (RX-21), and has fled as it steps onto the gate; a scripted one stands
where it is. The set's own ruleset makes every failed check a break (G-03's band 0): the AI's falling back, which may
Step or Dodge first (DOD-1), is named by ``check``, as is an animal's flight in its rolled direction (MOR-24). On an
open grid (every passable edge square an exit) a scripted brawl whose failed checks all break plays too: a broken
NPC stands where it is and flees if its turn starts on the edge.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ashfall.kernel import morale as kmor
from ashfall.sim.kernel_lower import Lowered, check, lowering
from ashfall.sim.kernel_morale_lower import moving_problem
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    OWN,
    Rewired,
    plays_like_the_reference,
    seeds,
    setup_of,
    variant,
    wrong_kernel_diverges,
)

GATE_YARD = ENCOUNTERS / "ai-raiders-flee-through-the-gate.yaml"
GATE = ((12, 2), (12, 3))
"""The gate's squares (the map's ``>``)."""


def flight_counts(setup: FightSetup, n: int) -> Counter[str]:
    """Flights in ``n`` reference fights: a broken raider's Strides, the Attacks of Opportunity they provoke, escapes,
    and what a falling-back one does first (Stride, Step, Dodge: MOR-17, DOD-1)."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        seen: Counter[str] = Counter()
        broken: set[str] = set()
        back: set[str] = set()
        fleeing = False
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "morale-changed":
                for cid, status in e.members:
                    if status == "broken":
                        broken.add(cid)
                    if status == "fall-back":
                        back.add(cid)
                    else:
                        back.discard(cid)
            elif kind == "actions-spent":
                label = e.label.lower()
                fleeing = label == "stride" and e.actor in broken
                seen["flight strides"] += fleeing
                seen[f"falling back: {label}"] += e.actor in back and label in ("stride", "step", "dodge")
            elif kind == "attack-rolled" and "Opportunity" in e.label and fleeing:
                seen["AoOs on a fleeing raider"] += 1
            elif kind == "resource-used" and "fled" in e.resource:
                seen["fled"] += 1
        for key, count in seen.items():
            found[key] += count
            found[f"fights with {key}"] += count > 0
    return found


@pytest.mark.rule("MOR-20", "MOR-21", "MOR-22", "RX-21", "E-33")
@pytest.mark.parametrize("edition", [OWN, "ashfall-1"])
def test_ai_raiders_flee_through_the_gate__every_step_as_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(GATE_YARD, edition), 150)


@pytest.mark.rule("MOR-20", "MOR-21", "RX-21")
def test_ai_raiders_flee_through_the_gate__flights_and_escapes_happen_in_the_reference() -> None:
    found = flight_counts(setup_of(GATE_YARD, OWN), 100)
    assert found["fights with flight strides"] >= 60  # 85 of 100
    assert found["fights with fled"] >= 40  # 60: a raider left the battlefield by the gate (MOR-20)
    assert found["fights with AoOs on a fleeing raider"] >= 25  # 46 (RX-21 on a broken mover, MOR-21)
    assert found["falling back: dodge"] == found["falling back: step"] == 0  # band 0: nobody falls back (G-03)


@pytest.mark.rule("MOR-17", "DOD-1", "G-03")
def test_ai_raiders_flee_through_the_gate__falling_back_steps_or_dodges_first_under_the_band(tmp_path: Path) -> None:
    setup = variant(tmp_path, GATE_YARD, ", fall_back_band: 0", "")
    found = flight_counts(setup, 60)
    assert found["fights with falling back: stride"] >= 5  # 24 of 100
    assert found["fights with falling back: step"] + found["fights with falling back: dodge"] >= 3  # 12 and 2 of 100
    assert check(setup) == ("the tactical AI's falling back toward an exit on the move (MOR-17, G-03: a Stride, or a "
                            "Step or a Dodge first, DOD-1; combatant kernel-ai-raider-1)")


def _rewired(change: str) -> Rewired:
    setup = setup_of(GATE_YARD, OWN)

    def broken(lowered: Lowered) -> Lowered:
        m = lowered.morale
        if change == "stands still":  # the AI's broken raider does nothing, as where there is no exit
            conf = m.conf.copy()
            conf[kmor.CONF_FLEE] = 0
            return dataclasses.replace(lowered, morale=dataclasses.replace(m, conf=conf))
        exits = np.zeros_like(m.exits)
        if change == "wrong exit":  # the north-east corner instead of the gate
            exits[11, 1] = 1
        return dataclasses.replace(lowered, morale=dataclasses.replace(m, exits=exits))

    return Rewired(setup, broken)


@pytest.mark.rule("MOR-20", "MOR-21")
@pytest.mark.parametrize(("change", "least"), [("stands still", 20), ("wrong exit", 20), ("no exit", 20)])
def test_ai_raiders_flee_through_the_gate__a_wrong_flight_diverges(change: str, least: int) -> None:
    wrong_kernel_diverges(setup_of(GATE_YARD, OWN), _rewired(change), 60, least)


@pytest.mark.rule("MOR-20")
def test_ai_raiders_flee_through_the_gate__the_lowered_exits_are_the_gate() -> None:
    lowered = lowering(setup_of(GATE_YARD, OWN)).lowered
    assert lowered is not None
    assert tuple(map(tuple, np.argwhere(lowered.morale.exits).tolist())) == GATE  # ``exits_of`` (MOR-20)
    assert lowered.morale.conf[kmor.CONF_FLEE] == 1


@pytest.mark.rule("MOR-24")
def test_ai_raiders_flee_through_the_gate__an_animals_rolled_direction_is_named(tmp_path: Path) -> None:
    setup = variant(tmp_path, GATE_YARD, "morale: {type: bandit}", "morale: {type: animal}")
    fight = setup.build_fight(seeds(1)[0])
    assert moving_problem(fight) == ("the tactical AI's flight in a rolled direction toward an exit (MOR-24, "
                                     "combatant kernel-ai-raider-1)")


@pytest.mark.rule("MOR-17", "MOR-20", "G-03")
def test_scripted_gang_in_a_yard_with_a_gate__falling_back_across_an_exit_is_named(tmp_path: Path) -> None:
    # the reference's scripted plan walks on and attacks after its Stride crossed an exit (it fled, MOR-20)
    setup = variant(tmp_path, ENCOUNTERS / "ai-brutes-break-a-gang-in-a-walled-yard.yaml", "    #A..........#\n",
                    "    >A..........#\n")
    assert check(setup) == ("a falling-back scripted NPC crossing an exit on the move (MOR-17, MOR-20, G-03: combatant "
                            "kernel-gang-cutter)")


OPEN_BRAWL = ENCOUNTERS / "scripted-brawl-breaks-on-an-open-grid.yaml"


@pytest.mark.rule("MOR-19", "MOR-20", "MOR-21", "MOR-23", "E-33")
@pytest.mark.parametrize("edition", [OWN, "ashfall-1"])
def test_scripted_brawl_breaks_on_an_open_grid__every_step_as_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(OPEN_BRAWL, edition), 120)


@pytest.mark.rule("MOR-20", "MOR-21")
def test_scripted_brawl_breaks_on_an_open_grid__broken_fighters_flee_by_the_edge_in_the_reference() -> None:
    found = flight_counts(setup_of(OPEN_BRAWL, OWN), 100)
    assert found["fights with fled"] >= 45  # about two fights in three: a broken NPC's turn starts on the edge
    assert found["flight strides"] == 0  # a scripted broken NPC stands where it is (MOR-21)


@pytest.mark.rule("MOR-20")
def test_scripted_brawl_breaks_on_an_open_grid__a_kernel_without_the_edge_as_exits_diverges() -> None:
    setup = setup_of(OPEN_BRAWL, OWN)

    def no_exit(lowered: Lowered) -> Lowered:
        m = lowered.morale
        return dataclasses.replace(lowered, morale=dataclasses.replace(m, exits=np.zeros_like(m.exits)))

    wrong_kernel_diverges(setup, Rewired(setup, no_exit), 60, 20)


RALLY_YARD = ENCOUNTERS / "ai-boss-rallies-raiders-at-the-gate.yaml"
BOSS = "kernel-gate-boss"


def rally_counts(setup: FightSetup, n: int) -> Counter[str]:
    """Rallies in ``n`` reference fights: tried, succeeded, and routs after one (G-04, MOR-25, MOR-26)."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "morale-checked" and e.kind == "rally":
                found["rallies"] += 1
                found["rallied"] += e.outcome == "rallied"
            elif kind == "morale-changed":
                found["routed"] += any(status == "routed" for _, status in e.members)
    return found


@pytest.mark.rule("G-04", "MOR-25", "MOR-26", "MOR-22", "E-33")
@pytest.mark.parametrize("edition", [OWN, "ashfall-1"])
def test_ai_boss_rallies_raiders_at_the_gate__every_step_as_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(RALLY_YARD, edition), 120)


@pytest.mark.rule("G-04", "MOR-25", "MOR-26")
def test_ai_boss_rallies_raiders_at_the_gate__rallies_happen_in_the_reference() -> None:
    found = rally_counts(setup_of(RALLY_YARD, OWN), 100)
    assert found["rallies"] >= 30  # 55 in 100 fights
    assert 5 <= found["rallied"] < found["rallies"]  # some succeed, some fail (G-04)


@pytest.mark.rule("G-04", "MOR-25")
def test_ai_boss_rallies_raiders_at_the_gate__a_kernel_whose_rallies_always_fail_diverges() -> None:
    setup = setup_of(RALLY_YARD, OWN)

    def failing(lowered: Lowered) -> Lowered:
        m = lowered.morale
        return dataclasses.replace(lowered, morale=dataclasses.replace(m, rally_ok=np.zeros_like(m.rally_ok)))

    wrong_kernel_diverges(setup, Rewired(setup, failing), 60, 5)


@pytest.mark.rule("MOR-25")
def test_ai_boss_rallies_raiders_at_the_gate__only_the_ai_leader_rallies() -> None:
    lowered = lowering(setup_of(RALLY_YARD, OWN)).lowered
    assert lowered is not None
    assert [i for i, r in enumerate(lowered.morale.rally) if r >= 0] == [lowered.ids.index(BOSS)]
    gate = lowering(setup_of(GATE_YARD, OWN)).lowered  # its Boss is scripted: it never rallies
    assert gate is not None and (gate.morale.rally < 0).all()
