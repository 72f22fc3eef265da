"""The tactical AI with allies, a thrown melee weapon and a gun in the fight kernel (edition 1): throws beside shots.

A creature the AI plays with allies may carry a melee weapon that can also be thrown (a Combat Knife, a Javelin)
beside its gun or crossbow (G-31): two ranged options, the throw and the shot, weighed as a lone creature weighs them
(from where it stands or a Step away, Aim first, E-05; cover, high ground, AMOD-7). A throw spends no round; the
thrown weapon stays in hand, as in the engine (no ruling yet). The enemies' throws weigh in the fire a square invites
beside their loaded guns and swings (``ranged_threat``), in the withdrawal (DOD-1: ``incoming``) and in the AI's
Intercept (RX-26: the better of the throw and the shot at any distance); a throw that hits sets off Return Fire with
the target's gun (RX-29), and under edition 1 a throw may be Intercepted as a shot may (E-19). Under edition 2 the
pair itself is played for a creature alone on its side (test_kernel_ai_throws_beside_guns_edition_2); these teams are
named by the AI's Trip among allies (E-37), as is a Spear's Brace on the move (a thrown bracing weapon, RX-15).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.runner import play
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import FightSignature
from tests.kernel.kit import ENCOUNTERS, OWN, log_counts, played_alike, seeds, setup_of, variant, wrong_kernel_diverges

PAIR = ENCOUNTERS / "ai-knife-and-crossbow-pair-against-a-brute.yaml"
BANDIT = ENCOUNTERS / "ai-javelin-and-pistol-pair-against-a-knife-and-crossbow-bandit.yaml"
SHIELD = ENCOUNTERS / "ai-knife-and-pistol-warden-intercepts-a-bandits-throws.yaml"


@pytest.mark.rule("G-31", "E-05", "POS-1", "AMOD-7", "ATK-2", "DOD-1")
def test_kernel_ai_knife_and_crossbow_pair__throws_shoots_and_swings_as_the_reference_does() -> None:
    setup = setup_of(PAIR, "ashfall-1")
    kernel = played_alike(setup, 30)
    counts = log_counts(setup, 10)
    assert counts["throws"] > 0 and counts["shots"] > 0 and counts["melee"] > 0
    options = kernel.lowered.ai.options
    assert list(options.ranged[0]) == [1, 1] and list(options.limit[0]) == [60, 320]  # the knife thrown, the bolt
    assert list(kernel.lowered.ai.ranged.slots[0]) == [-1, 1]  # only the bolt counts rounds (G-31)
    for seed in seeds(3, sweep=9):
        assert kernel.result(seed) == play(setup, seed)


@pytest.mark.rule("G-31", "RX-29", "RX-30", "RX-31", "E-20", "DOD-1", "ATK-2")
def test_kernel_ai_javelin_and_pistol_pair__trades_throws_shots_and_return_fire_with_a_bandit_as_the_reference_does(
) -> None:
    setup = setup_of(BANDIT, OWN)
    kernel = played_alike(setup, 30)
    counts = log_counts(setup, 10)
    assert counts["throws"] > 0 and counts["shots"] > 0 and counts["return fire"] > 0 and counts["reloads"] > 0
    lo = kernel.lowered
    bandit = 2
    # the bandit's bolt in the first slot (its rounds counted), its knife's throw beside it (``gun_first``)
    assert lo.ai.options.throw_ft[bandit] == 320 and lo.ai.options.throw2_ft[bandit] == 60
    # ``incoming``: its knife walking up, the knife's throw and the bolt from where it stands
    assert lo.ai.withdraw.way_ft[bandit, 1:3].tolist() == [60, 320] and lo.ai.withdraw.way_melee[bandit, 1:3].sum() == 0
    assert (lo.ai.ranged.fire_back >= 0).all()  # each fires back with its gun, never its thrown weapon (RX-31)


@pytest.mark.rule("E-19", "RX-26", "RX-27", "RX-29")
def test_kernel_ai_warden__intercepts_a_bandits_throws_shots_and_swings_as_the_reference_does() -> None:
    setup = setup_of(SHIELD, OWN)
    played_alike(setup, 30)
    assert log_counts(setup, 10)["intercepts"] > 0


class _Broken:
    """The kernel with one table of throws beside guns among allies broken on purpose: the harness must catch it."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        o = lo.ai.options
        if broken == "never-throws":  # the thrown option's plans never found (the first further option)
            first = o.first.copy()
            first[:, 0] = -1
            o = dataclasses.replace(o, first=first)
        elif broken == "throws-spend-the-guns-rounds":  # the knife's throw read as the crossbow (G-31)
            slots = lo.ai.ranged.slots.copy()
            slots[:, 0] = slots[:, 1]
            ranged = dataclasses.replace(lo.ai.ranged, slots=slots)
            self.kernel.lowered = lo = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=ranged))
        else:  # "intercept-blind-to-throws-and-shots": ``_worth_intercepting`` without the ranged options (RX-26)
            self.kernel.lowered = lo = dataclasses.replace(lo, guard_shot=np.zeros_like(lo.guard_shot))
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=o))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize(("broken", "path", "least"), [("never-throws", PAIR, 3),
                                                    ("throws-spend-the-guns-rounds", PAIR, 1),
                                                    ("intercept-blind-to-throws-and-shots", SHIELD, 1)])
def test_compare_engines__a_kernel_wrong_about_throws_beside_guns_among_allies_diverges(broken: str, path: Path,
                                                                                       least: int) -> None:
    setup = setup_of(path, OWN)
    wrong_kernel_diverges(setup, _Broken(setup, broken), 12, least)


@pytest.mark.rule("E-37", "RX-15")
def test_kernel_ai_teams_with_throws_and_guns__what_is_not_played_is_named(tmp_path: Path) -> None:
    # under edition 2 the AI's Trip among allies (E-37: prone interceptors); the pair itself is played there
    problem = check(setup_of(PAIR, "ashfall-2"))
    assert problem is not None and "Trip on a creature with allies" in problem
    # a Spear, the corridor raiders' weapon, can be braced on the move (RX-12)
    problem = check(variant(tmp_path, BANDIT, "weapons: [javelin, pistol]", "weapons: [spear, pistol]"))
    assert problem == "Brace with a thrown weapon (RX-15, combatant kernel-ai-warden-javelin)"
    # a thrown weapon without a gun, for a creature with allies
    problem = check(variant(tmp_path, BANDIT, "weapons: [javelin, pistol]", "weapons: [javelin]"))
    assert problem is not None and "a thrown weapon" in problem
