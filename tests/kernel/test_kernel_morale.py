"""The fight kernel's morale family (MOR) against the reference engine, and what of morale it refuses by name.

The CI differential run of the morale sets (the gang that breaks off the map, two sides cornered on a walled
map, the same at a gate where the NPC on the exit flees) is in ``test_kernel_matches_reference.py`` (kit
``FILES``); the large run is ``scripts/kernel_diff.py``. Here: the signature's morale column really is compared
and filled, kernels wrong on purpose (never checking morale, ignoring the leader, never cornering, never fleeing,
never surrendering) must diverge, random fights off the map with random morale match, and the notices name
their rule."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ashfall.content.schema import MoraleProfile
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_morale_lower import morale_problem
from ashfall.sim.kernel_run import KernelSetup, kernel_signature
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import BRAWL, CORNERED, GANG_BREAKS, GATE, seeds, setup_of
from tests.kernel.test_kernel_properties import Planned, fights


class WrongMorale:
    """The kernel with one morale table broken on purpose: a runner the harness must catch."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lowered = self.kernel.lowered
        m = lowered.morale
        if broken == "never-checks":  # nobody ever checks morale (MOR-3)
            conf = m.conf.copy()
            conf[0] = 0
            m = dataclasses.replace(m, conf=conf)
        elif broken == "ignores-the-leader":  # the leader's fall is only a casualty (MOR-8)
            m = dataclasses.replace(m, leader=np.zeros_like(m.leader))
        elif broken == "never-cornered":  # a fleeing NPC with no exit goes on as it was (MOR-23)
            conf = m.conf.copy()
            conf[1] = 0
            m = dataclasses.replace(m, conf=conf)
        elif broken == "never-flees":  # an NPC on the exit stays (MOR-20)
            m = dataclasses.replace(m, exits=np.zeros_like(m.exits))
        elif broken == "never-surrenders":  # a broken soldier does not lay down arms (MOR-24)
            rule = m.style_rule.copy()
            rule[:, 1] = 0
            m = dataclasses.replace(m, style_rule=rule)
        self.kernel.lowered = dataclasses.replace(lowered, morale=m)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("MOR-3", "MOR-8", "MOR-20", "MOR-23", "MOR-24")
@pytest.mark.parametrize(("broken", "path", "least"), [("never-checks", GANG_BREAKS, 10),
                                                    ("ignores-the-leader", GANG_BREAKS, 1),
                                                    ("never-cornered", CORNERED, 3),
                                                    ("never-flees", GATE, 2),
                                                    ("never-surrenders", GANG_BREAKS, 5)])
def test_morale__a_wrong_kernel_diverges(broken: str, path: Path, least: int) -> None:
    setup = setup_of(path, "ashfall-2")
    report = compare_engines(setup, seeds(60), reference_signature, WrongMorale(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation  # explained by the reference engine's own rows


@pytest.mark.rule("MOR-20", "MOR-23", "MOR-24", "G-03")
@pytest.mark.parametrize("path", [GANG_BREAKS, CORNERED, GATE])
def test_morale__signature_holds_every_combatants_final_morale(path: Path) -> None:
    setup = setup_of(path, "ashfall-2")
    seen: Counter[str | None] = Counter()
    for seed in seeds(40):
        fast, slow = kernel_signature(setup, seed), reference_signature(setup, seed)
        assert [c.morale for c in fast.combatants] == [c.morale for c in slow.combatants]
        seen.update(c.morale for c in fast.combatants)
    assert len([m for m in seen if m is not None]) >= 3  # the sets end in several morale states, not only None


@pytest.mark.rule("E-33")
def test_morale__edition_1_has_none_and_the_kernel_checks_nothing() -> None:
    kernel = KernelSetup(setup_of(GANG_BREAKS, "ashfall-1"))
    assert not kernel.lowered.morale.on
    assert all(c.morale is None for c in kernel.signature(seeds(1)[0]).combatants)


def _edited(tmp_path: Path, path: Path, *changes: tuple[str, str], ruleset: str | None = "ashfall-2") -> EncounterSetup:
    text = path.read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    out = tmp_path / path.name
    out.write_text(text)
    return EncounterSetup(out, ruleset)


@pytest.mark.rule("MOR-27")
def test_morale_notice__breaking_points_are_named(tmp_path: Path) -> None:
    setup = _edited(tmp_path, GANG_BREAKS, ("morale: {type: animal}", "morale: {type: animal, breaking_points: "
                                                                       "[hp-below-50%]}"))
    assert "Breaking Points (MOR-27, combatant kernel-hound)" in (check(setup) or "")




@pytest.mark.rule("MOR-17", "MOR-23")
def test_morale_notice__morale_on_the_move_is_named(tmp_path: Path) -> None:
    setup = _edited(tmp_path, CORNERED, ("position: [2, 3]", "position: [3, 3]"),
                    ("weapons: [combat-knife]", "weapons: [salvaged-sword]"))
    # on the move the kernel plays morale only where nobody surrenders (``moving_problem``)
    assert "surrendering when cornered on the move (MOR-19, MOR-23" in (check(setup) or "")


@pytest.mark.rule("MOR-8", "MOR-9")
def test_morale_notice__a_checker_that_falls_dying_is_named(tmp_path: Path) -> None:
    setup = _edited(tmp_path, GANG_BREAKS, ("options: {morale: {grouping: side-and-type}}",
                                            "options: {dying: {npcs_die_at_zero: false}}"), ruleset=None)
    assert "falls dying (MOR-8, MOR-9, combatant kernel-warden)" not in (check(setup) or "")  # morale off there
    assert "falls dying (MOR-8, MOR-9, combatant kernel-boss)" in (check(setup) or "")


@pytest.mark.rule("MOR-23", "MOR-24")
def test_morale_notice__the_tactical_ai_with_morale_names_what_it_lacks(tmp_path: Path) -> None:
    setup = _edited(tmp_path, GANG_BREAKS, ("    tactics: [all-out-attack]\n    target: nearest\n", ""))
    fight = setup.build_fight(0)
    # the AI's fights are on the move: this ruleset's cornered broken NPCs surrender, and the soldier surrenders at once
    assert "surrendering when cornered on the move (MOR-19, MOR-23" in (morale_problem(fight) or "")


@pytest.mark.rule("MOR-38")
def test_morale__a_side_without_morale_is_lowered_off() -> None:
    kernel = KernelSetup(setup_of(BRAWL, "ashfall-2"))
    assert not kernel.lowered.morale.on


PROFILES = (MoraleProfile(immune=True), MoraleProfile(type="bandit"), MoraleProfile(type="soldier", will=3),
            MoraleProfile(type="animal"), MoraleProfile(type="fanatic", will=0), MoraleProfile(type="elite"),
            MoraleProfile())
"""Morale of the random fights' creatures: immune, each type's break (MOR-24), stat-block Wills (MOR-6)."""


@st.composite
def morale_fights(draw: st.DrawFn) -> Planned:
    """The property tests' random fights off the map, with random morale profiles, leaders and groupings."""
    planned = draw(fights())
    inline = planned.inline
    members = tuple(dataclasses.replace(c, position=None, creature=c.creature.model_copy(update={
        "morale": draw(st.sampled_from(PROFILES)), "leader": draw(st.sampled_from([False, False, True]))}))
        for c in inline.combatants)
    ruleset = inline.ruleset
    if ruleset.morale.enabled and draw(st.booleans()):  # MOR-4's grouping, G-03's band, MOR-33 (options)
        ruleset = ruleset.with_options(morale={"grouping": draw(st.sampled_from(["side", "side-and-type"])),
                                               "fall_back_band": draw(st.integers(0, 10))})
    return dataclasses.replace(planned, inline=dataclasses.replace(inline, combatants=members, board=None,
                                                                   ruleset=ruleset))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(morale_fights())
@pytest.mark.rule("MOR-3", "MOR-4", "MOR-7", "MOR-8", "MOR-9", "MOR-12", "MOR-24", "G-03")
def test_random_fights_with_morale__kernel_matches_reference_or_names_what_it_lacks(setup: Planned) -> None:
    problem = check(setup)
    if problem is not None:
        event(f"not on the kernel: {problem.split(' (')[0]}")
        assert "MOR-" in problem or "morale" not in problem  # a morale notice names its rule
        return
    kernel = KernelSetup(setup)
    event("someone checks morale" if kernel.lowered.morale.on else "nobody checks morale")
    report = compare_engines(setup, seeds(6), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, (setup.inline.ruleset.name, report.first)
