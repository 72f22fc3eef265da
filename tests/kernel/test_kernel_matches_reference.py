"""The fight kernel plays the reference engine's fights, draw for draw: the differential harness in CI.

Each hand-written encounter of the kernel's slice, under both editions, over 100 trial seeds (the large set,
1,000 seeds each, is ``scripts/kernel_diff.py``): zero divergences in the steps (every action and die face),
the winner, the rounds and every combatant's end. The simulator's rows and reports are the same whichever
engine plays, and ``--trial i`` (the reference engine's replay) is the kernel's trial i. A deliberately wrong
kernel (MAP never applied, one damage table off by one) must be caught.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from ashfall.sim.kernel_run import KernelSetup, kernel_signature
from ashfall.sim.runner import play, replay_trial, simulate
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import BRAWL, ENCOUNTERS, HEROES_FALL, OWN, SET_IDS, SETS, TWO_ON_TWO, WALK_UP, seeds, setup_of

CI_SEEDS = 100


@pytest.mark.rule("INIT-1", "INIT-3", "AE-1", "ACT-7", "MAA-5", "MAA-7", "MAP-1", "MAP-5", "E-01", "ATK-4", "CRIT-1",
                  "CRIT-2", "CRIT-3", "DR-1", "RVI-1", "THP-1", "G-38", "G-39")
@pytest.mark.parametrize(("path", "edition"), SETS, ids=SET_IDS)
def test_kernel__plays_every_step_of_the_reference_fight(path: Path, edition: str) -> None:
    report = compare_engines(setup_of(path, edition), seeds(CI_SEEDS), reference_signature, kernel_signature)
    assert report.identical, report.first
    assert len(report.seeds) == CI_SEEDS


@pytest.mark.parametrize(("path", "edition"), SETS, ids=SET_IDS)
def test_kernel__simulator_rows_equal_the_reference_engine_rows(path: Path, edition: str) -> None:
    setup = setup_of(path, edition)
    kernel = KernelSetup(setup)
    for seed in seeds(25, sweep=9):
        assert kernel.result(seed) == play(setup, seed)


def test_kernel__sim_report_is_the_reference_report() -> None:
    setup = setup_of(TWO_ON_TWO, "ashfall-2")
    fast = simulate(setup, 60, 4, engine="kernel")
    slow = simulate(setup, 60, 4, engine="reference")
    assert fast.fights == slow.fights
    assert fast.to_jsonable() == slow.to_jsonable()


def test_kernel__workers_play_the_same_trials() -> None:
    setup = setup_of(TWO_ON_TWO, "ashfall-1")
    assert simulate(setup, 120, 2, workers=2, engine="kernel").fights == simulate(setup, 120, 2,
                                                                                  engine="kernel").fights


@pytest.mark.parametrize(("path", "trial"), [(TWO_ON_TWO, 0), (TWO_ON_TWO, 17), (TWO_ON_TWO, 123), (HEROES_FALL, 24),
                                             (WALK_UP, 5)])
def test_trial__the_reference_replay_is_the_kernels_trial(path: Path, trial: int) -> None:
    setup = setup_of(path, "ashfall-2")
    replayed, events = replay_trial(setup, 3, trial)
    counted = KernelSetup(setup).results(3, trial, trial + 1)[0]
    assert events and dataclasses.replace(replayed, log=None) == counted


class WrongKernel:
    """The kernel with one table broken on purpose: a runner the harness must catch."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lowered = self.kernel.lowered
        if broken == "no-map":
            lowered = dataclasses.replace(lowered, map_index=np.zeros_like(lowered.map_index))
        elif broken == "every-step-10-ft":  # every step priced as a costly diagonal (G-37)
            price = lowered.price.copy()
            price[price > 0] = 10
            lowered = dataclasses.replace(lowered, price=price)
        elif broken == "flanking-from-any-side":  # an ally beside the target flanks wherever the attacker is (POS-1)
            lowered = dataclasses.replace(lowered, flank_geo=np.ones_like(lowered.flank_geo))
        elif broken == "never-intercept":  # the AI's Intercept judged worthless every time (RX-26)
            lowered = dataclasses.replace(lowered, guard_hit=np.zeros_like(lowered.guard_hit))
        elif broken == "no-advantage-on-the-fallen":  # one d20 against a prone, dying target (C-PRO)
            lowered = dataclasses.replace(lowered, draws=np.ones_like(lowered.draws))
        else:
            dealt = lowered.dealt.copy()
            dealt[dealt > 0] += 1
            lowered = dataclasses.replace(lowered, dealt=dealt)
        self.kernel.lowered = lowered

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize(("broken", "path", "least"), [("no-map", TWO_ON_TWO, 5), ("damage-plus-one", TWO_ON_TWO, 5),
                                                    ("no-advantage-on-the-fallen", HEROES_FALL, 5),
                                                    ("every-step-10-ft", WALK_UP, 5),
                                                    ("flanking-from-any-side", BRAWL, 5),
                                                    ("never-intercept", BRAWL, 5)])
def test_compare_engines__a_wrong_kernel_diverges(broken: str, path: Path, least: int) -> None:
    setup = setup_of(path, "ashfall-2")
    report = compare_engines(setup, seeds(30), reference_signature, WrongKernel(setup, broken))
    assert len(report.divergences) >= least
    first = report.divergences[0]
    assert first.explanation  # explained by the reference engine's own rows


AI_PICKS = ENCOUNTERS / "scripted-two-on-two-the-ai-picks.yaml"
BREATH_TEMP = ENCOUNTERS / "ai-pc-catches-its-breath-with-temporary-hp.yaml"
EDITION_1_AND_OWN = [(path, edition) for path in (AI_PICKS, BREATH_TEMP) for edition in ("ashfall-1", OWN)]
"""Sets on the kernel under edition 1 and their own rulesets (edition 2 without Feint, Trip and Sweeping Strike,
which the kernel's AI does not weigh yet): the AI's target choice for plans without a target rule, and the AI's
Second Wind with edition 2's temporary HP."""


@pytest.mark.rule("POS-1", "RX-21", "HEAL-5", "THP-1", "THP-2", "THP-5", "E-30")
@pytest.mark.parametrize(("path", "edition"), EDITION_1_AND_OWN,
                         ids=[f"{path.stem}-{edition}" for path, edition in EDITION_1_AND_OWN])
def test_kernel__plays_every_step_of_the_reference_fight_where_the_ai_picks_or_catches_its_breath(
        path: Path, edition: str) -> None:
    setup = setup_of(path, edition)
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(CI_SEEDS), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "encounters").glob("*.yaml"))


def test_kernel__shipped_encounters_it_plays_play_every_step_of_the_reference_fight() -> None:
    """Every shipped encounter the kernel supports, under each edition, over 30 seeds (the duel under both: its
    default edition 2 with the AI's Trip alongside its greataxe and javelin, E-37, E-18)."""
    from ashfall.sim.kernel_lower import check
    from ashfall.sim.setups import EncounterSetup

    played = []
    for path in SHIPPED:
        for edition in ("ashfall-1", "ashfall-2"):
            setup = EncounterSetup(path, edition)
            if check(setup) is not None:
                continue
            report = compare_engines(setup, seeds(30), reference_signature, kernel_signature)
            assert report.identical, (path.name, edition, report.first)
            played.append((path.name, edition))
    assert ("duel.yaml", "ashfall-1") in played
    assert ("duel.yaml", "ashfall-2") in played


GUNS = [ENCOUNTERS / "ai-crossbow-against-a-brute.yaml", ENCOUNTERS / "ai-pistol-among-cover-on-high-ground.yaml",
        ENCOUNTERS / "ai-untrained-pistols-among-cover.yaml", ENCOUNTERS / "ai-gunners-fire-back-among-cover.yaml"]
"""The tactical AI with a melee weapon and a ranged weapon with ammunition, on the kernel under edition 1 (under
edition 2 a shot in reach provokes, E-18: named for guns): test_kernel_ranged_weapons."""


@pytest.mark.rule("G-31", "E-03", "ATK-2", "E-05", "X-01", "AMOD-2", "AMOD-3", "AMOD-7", "COV-1", "COV-2", "POS-4",
                  "RX-29", "RX-30", "RX-31")
@pytest.mark.parametrize("path", GUNS, ids=[path.stem for path in GUNS])
def test_kernel__plays_every_step_of_the_reference_fight_with_guns_that_reload(path: Path) -> None:
    setup = setup_of(path, "ashfall-1")
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(CI_SEEDS), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


AI_TEAMS = [(ENCOUNTERS / "ai-veterans-against-a-falling-gang.yaml", "ashfall-1"),
            (ENCOUNTERS / "ai-pack-against-a-lone-brute.yaml", "ashfall-1"),
            (ENCOUNTERS / "ai-pack-against-a-lone-brute.yaml", "ashfall-2"),
            (ENCOUNTERS / "ai-medic-stabilises-a-fallen-partner.yaml", "ashfall-1")]
"""Sets of creatures the tactical AI plays with allies (flanking with them, their withdrawal judged, dying raiders
around them, edition 1's Medicine check on a dying partner); edition 2 where no AI creature would Trip a creature
with allies (E-37)."""


@pytest.mark.rule("POS-1", "POS-3", "RX-21", "RX-26", "DOD-1", "DEATH-1", "DEATH-2", "E-37", "E-31", "DEATH-17")
@pytest.mark.parametrize(("path", "edition"), AI_TEAMS, ids=[f"{path.stem}-{edition}" for path, edition in AI_TEAMS])
def test_kernel__plays_every_step_of_the_reference_fight_where_ai_creatures_have_allies(path: Path,
                                                                                        edition: str) -> None:
    setup = setup_of(path, edition)
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(CI_SEEDS), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    for seed in seeds(10, sweep=9):
        assert kernel.result(seed) == play(setup, seed)
