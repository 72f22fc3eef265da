"""Morale with the tactical AI in the fight kernel: morale on the move where nobody can flee or surrender (MOR).

In a yard walled all round (no exit, MOR-20) under a ruleset whose cornered broken NPCs fight on (MOR-23's option),
every drop of a group member or leader is a morale event then and there, an Attack of Opportunity's in the middle of
a Stride too (MOR-7..12); a raider that falls back is cornered back to Hold as its turn starts (MOR-19, MOR-20); one
that breaks stays where it is, doing nothing (MOR-21), and takes no reactions (MOR-22), which the AI's pricing of
its Strides knows. The rest of morale on the move is named: surrender, zealots, animals, two-handed weapons, guns, and
the leaders that may rally (MOR-25); exits are in ``test_kernel_ai_flight.py``.
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

WALLED = ENCOUNTERS / "ai-brutes-break-a-gang-in-a-walled-yard.yaml"


def morale_counts(setup: FightSetup, n: int) -> Counter[str]:
    """Morale checks (in the middle of a Stride too), falls back, breaks and reactions in ``n`` reference fights."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        striding = False
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "actions-spent":
                striding = e.label.lower() == "stride"
            elif kind == "morale-checked":
                found["checks"] += 1
                found["checks mid-Stride"] += striding
                found[f"outcome {e.outcome}"] += 1
                found["leader down"] += "leader-down" in e.triggers
            elif kind == "morale-changed":
                for _, status in e.members:
                    found[f"now {status}"] += 1
            elif kind == "reaction-spent":
                found["reactions"] += 1
    return found


@pytest.mark.rule("MOR-7", "MOR-8", "MOR-9", "MOR-12", "MOR-19", "MOR-20", "MOR-21", "MOR-22", "MOR-23", "E-33")
@pytest.mark.parametrize("edition", [OWN, "ashfall-1"])
def test_kernel_ai_morale__a_gang_breaking_in_a_walled_yard_plays_every_step_like_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(WALLED, edition), 100)


@pytest.mark.rule("MOR-7", "MOR-8", "MOR-9", "MOR-12", "MOR-20", "G-03")
def test_kernel_ai_morale__the_walled_yard_checks_falls_back_and_breaks_in_the_reference() -> None:
    found = morale_counts(setup_of(WALLED, OWN), 100)
    assert found["checks"] >= 100
    assert found["checks mid-Stride"] >= 2  # an Attack of Opportunity's drop is an event of its own (MOR-12)
    assert found["leader down"] >= 5  # MOR-8
    assert found["now fall-back"] >= 20 and found["now broken"] >= 50  # G-03
    assert found["now hold"] >= 10  # cornered back to Hold (MOR-19, MOR-20)
    assert found["reactions"] >= 10  # Attacks of Opportunity and Intercepts among them, none by a broken raider


@pytest.mark.rule("MOR-3", "MOR-12")
def test_kernel_ai_morale__a_kernel_that_never_checks_diverges() -> None:
    setup = setup_of(WALLED, OWN)

    def never(lowered: Lowered) -> Lowered:
        conf = lowered.morale.conf.copy()
        conf[kmor.CONF_ON] = 0
        return dataclasses.replace(lowered, morale=dataclasses.replace(lowered.morale, conf=conf))

    wrong_kernel_diverges(setup, Rewired(setup, never), 60, 20)


@pytest.mark.rule("MOR-22")
def test_kernel_ai_morale__a_kernel_whose_broken_raiders_still_react_diverges() -> None:
    setup = setup_of(WALLED, OWN)

    def reacting(lowered: Lowered) -> Lowered:
        acts = lowered.morale.acts.copy()
        acts[:, :, kmor.ACT_REACTS] = 1
        return dataclasses.replace(lowered, morale=dataclasses.replace(lowered.morale, acts=acts))

    wrong_kernel_diverges(setup, Rewired(setup, reacting), 60, 2)


@pytest.mark.rule("MOR-23", "MOR-24", "MOR-21", "MOR-20", "MOR-12")
@pytest.mark.parametrize(("old", "new", "named"), [
    ("broken_cornered_surrenders: false", "broken_cornered_surrenders: true",
     "surrendering when cornered on the move (MOR-19, MOR-23: combatant kernel-gang-cutter checks morale)"),
    ("type: other}", "type: soldier}", "a broken NPC that surrenders on the move (MOR-23, MOR-24, combatant "
                                       "kernel-gang-boss)"),
    ("type: other}", "type: fanatic}", "a broken NPC that makes a final charge on the move (MOR-23, MOR-24, "
                                        "combatant kernel-gang-boss)"),
    ("id: kernel-gang-runt\n      name: Runt\n      hp: 14\n      attributes: {MIG: 1, AGI: 2, END: 0}\n      weapons: "
     "[salvaged-sword]", "id: kernel-gang-runt\n      name: Runt\n      hp: 14\n      attributes: {MIG: 1, AGI: 2, "
     "END: 0}\n      weapons: [greataxe]", "a broken NPC dropping its two-handed weapon on the move (MOR-21, combatant "
                                          "kernel-gang-runt-1)"),
    ("weapons: [greataxe]", "weapons: [greataxe, crossbow]", "shots and Return Fire with morale on the move (MOR-12, "
                                                           "combatant kernel-ai-brute)"),
])
def test_kernel_ai_morale__what_it_does_not_play_on_the_move_is_named(tmp_path: Path, old: str, new: str,
                                                                      named: str) -> None:
    fight = variant(tmp_path, WALLED, old, new).build_fight(seeds(1)[0])
    assert moving_problem(fight) == named  # the morale part of ``check``, whatever else the variant lacks


@pytest.mark.rule("MOR-23")
def test_kernel_ai_morale__check_names_the_surrender_of_the_cornered_on_the_move(tmp_path: Path) -> None:
    setup = variant(tmp_path, WALLED, "broken_cornered_surrenders: false", "broken_cornered_surrenders: true")
    assert check(setup) == "surrendering when cornered on the move (MOR-19, MOR-23: combatant kernel-gang-cutter " \
                           "checks morale)"


@pytest.mark.rule("MOR-20", "MOR-21", "MOR-22")
def test_kernel_ai_morale__the_lowered_acts_say_who_attacks_and_who_reacts() -> None:
    lowered = lowering(setup_of(WALLED, OWN)).lowered
    assert lowered is not None
    acts = lowered.morale.acts
    assert np.array_equal(acts[kmor.HOLD, 0], [1, 1]) and np.array_equal(acts[kmor.FALL_BACK, 0], [1, 1])
    assert not acts[kmor.BROKEN, 1:, kmor.ACT_REACTS].any()  # a broken NPC takes no reactions, whatever it does
