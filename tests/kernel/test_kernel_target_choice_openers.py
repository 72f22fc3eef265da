"""The AI's target choice weighing edition 2's openers Trip and Feint, in the fight kernel (E-37).

A scripted plan without a target rule attacks whom the tactical AI would attack now (``target_choice``,
``TacticalPolicy.preferred_target``). Under edition 2 the AI's candidates where it stands open with Trip (TRP-1..4)
and Feint (FNT-1..7) (``ai.openers``), though the plan itself never trips nor feints: the kernel lowers the opener
tables' rows for such a creature as for one the AI plays (``kernel_maneuvers.opener_tables``, ``weighs_openers``)
and its compiled choice (``fight._chosen``) reads them. The sets ``scripted-warrior-chooses-weighing-trip.yaml``
(the skirmish's Warrior between a lump that is easy to trip and a tumbler that is not) and
``scripted-duelist-chooses-weighing-feint.yaml`` (a duelist between a dullard and a sharp one) play identically on
both engines; counts from the reference show that the openers change the pick, the kernel's pick equals the
reference's on every state the fights reach, and a kernel whose choice forgets the openers diverges. Under edition 2
itself the choice weighs Sweeping Strike among several enemies too (``test_kernel_target_choice_sweep``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from ashfall.ai import TacticalConfig
from ashfall.ai.tactical import TacticalPolicy, _gap
from ashfall.ai.targeting import focus
from ashfall.engine import Engine
from ashfall.kernel import ai as kai
from ashfall.ruleset import preset
from ashfall.sim import kernel_maneuvers as km
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup
from tests.kernel.kit import ENCOUNTERS, OWN, Rewired, played_alike, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_properties import Planned, fights
from tests.kernel.test_kernel_target_choice import AiPicks, _Recorder, picks_recorded, plays_alike_or_is_named

TRIP = ENCOUNTERS / "scripted-warrior-chooses-weighing-trip.yaml"
"""The skirmish's Warrior (scripted, no target rule) between a lump easy to trip and a tumbler hard to trip."""
FEINT = ENCOUNTERS / "scripted-duelist-chooses-weighing-feint.yaml"
"""A scripted duelist (Deception +3, no target rule) between a dullard (Insight -2) and a sharp one (Insight +3)."""
OPENER_SETS = [(TRIP, OWN), (FEINT, OWN), (TRIP, "ashfall-1"), (FEINT, "ashfall-1")]
OPENER_IDS = [f"{path.stem}-{edition}" for path, edition in OPENER_SETS]
CHOOSER = {TRIP: "warrior", FEINT: "kernel-opener-duelist"}
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.rule("E-37", "TRP-1", "TRP-3", "FNT-1", "FNT-3", "POS-1", "RX-26")
@pytest.mark.parametrize(("path", "edition"), OPENER_SETS, ids=OPENER_IDS)
def test_kernel__plays_every_step_of_the_reference_fight_where_the_choice_weighs_the_openers(path: Path,
                                                                                              edition: str) -> None:
    """CI's share of the differential run (``scripts/kernel_diff.py`` plays 1,000 seeds): 100 seeds; under edition 1
    nobody weighs an opener (the same fights without them)."""
    played_alike(setup_of(path, edition), 100)


class _Counting(_Recorder):
    """The recorder of ``test_kernel_target_choice`` that also counts what the openers do to the reference's pick."""

    def __init__(self, kernel: KernelSetup) -> None:
        super().__init__(kernel)
        self.found: Counter[str] = Counter()

    def __call__(self, engine: Engine, actor: str) -> str | None:
        pick = super().__call__(engine, actor)
        plain = TacticalPolicy(TacticalConfig(openers=False)).preferred_target(engine, actor)
        self.found["decisions"] += 1
        self.found["openers change the pick"] += pick != plain
        policy = TacticalPolicy()
        view = policy._view(engine, engine.state.get(actor), brutal=False)
        best = policy._best_candidates(view, True)
        chosen = focus(best, view.targets, {t.id: _gap(view.c, t) for t in view.targets}, policy.config.drop_step)
        if chosen is not None:
            self.found[f"the pick's plan opens with {chosen.plan.blocks[0].value}"] += 1
        return pick


@pytest.mark.rule("E-37", "TRP-3", "FNT-3")
@pytest.mark.parametrize(("path", "opener", "least"), [(TRIP, "trip", 8), (FEINT, "feint", 8)],
                         ids=["trip", "feint"])
def test_kernel_chosen__equals_target_choice_on_every_state_and_the_openers_change_it(path: Path, opener: str,
                                                                                       least: int) -> None:
    """The kernel's pick is ``preferred_target``'s on every state 20 reference fights reach, one decision at a time;
    the openers change the reference's pick on some of them (the same state valued without openers picks another),
    and the pick's best plan often opens with the set's opener."""
    setup = setup_of(path, OWN)
    recorder = _Counting(KernelSetup(setup))
    for seed in seeds(20):
        picks_recorded(setup, seed, recorder)
    found = recorder.found
    assert found["decisions"] > 80
    assert found["openers change the pick"] >= least
    assert found[f"the pick's plan opens with {opener}"] >= 2 * least


def _plain_choice(lowered: Lowered) -> Lowered:
    """The kernel broken on purpose: the choice for a scripted plan weighs no openers (``CFG_OPEN`` cleared)."""
    config = lowered.ai.config.copy()
    config[:, kai.CFG_OPEN] = 0.0
    return dataclasses.replace(lowered, ai=dataclasses.replace(lowered.ai, config=config))


@pytest.mark.rule("E-37")
@pytest.mark.parametrize("path", [TRIP, FEINT], ids=["trip", "feint"])
def test_compare_engines__a_kernel_whose_choice_forgets_the_openers_diverges(path: Path) -> None:
    setup = setup_of(path, OWN)
    wrong_kernel_diverges(setup, Rewired(setup, _plain_choice), 40, 3)


@pytest.mark.rule("E-37", "TRP-1", "FNT-1")
@pytest.mark.parametrize("path", [TRIP, FEINT], ids=["trip", "feint"])
def test_lowering__the_chooser_has_opener_rows_and_no_feint_variants(path: Path) -> None:
    """The chooser's plans where it stands open with the set's openers in the lowered tables; it never feints, so no
    tables after a Feint are lowered (nobody the AI plays is in the fight), and it is flagged to weigh them."""
    setup = setup_of(path, OWN)
    lo = KernelSetup(setup).lowered
    i = lo.ids.index(CHOOSER[path])
    first = lo.ai.open_first
    assert first.shape[0] == km.VARIANTS
    assert (first[km.OPEN_UP, i] == km.TRIP_FIRST).any()
    assert (first[km.OPEN_UP, i] == km.FEINT_FIRST).any()
    assert lo.ai.chooser[i] == 1 and lo.ai.config[i, kai.CFG_OPEN] == 1.0
    assert not np.any(lo.ai.on)
    assert KernelSetup(setup_of(path, "ashfall-1")).lowered.ai.config[i, kai.CFG_OPEN] == 0.0


def test_shipped_skirmish__under_edition_2_passes_the_warriors_choice_and_the_bursts_and_stops_at_return_fire() -> None:
    """The Warrior's choice weighs its openers and Sweeping Strike (``test_kernel_target_choice_sweep``), the AI's
    bursts beside the openers are played (``kernel_burst_lower``), and Return Fire for an ally (E-20); the warlord's
    Return Fire, which among several enemies could be made in a shooter's reach (E-18), is not."""
    assert check(EncounterSetup(ROOT / "encounters" / "skirmish.yaml", "ashfall-2")) == (
        "Return Fire from within a shooter's reach (E-18, combatant raider-warlord)")



NO_SWEEP = {"attack": {"sweeping_available": False}}
"""Edition 2 without Sweeping Strike (E-10): the choice among several enemies is the openers' (SWP-3 is named)."""


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights(moving=True))
@pytest.mark.rule("E-37", "POS-1", "RX-21")
def test_random_fights_where_the_ai_picks_weighing_the_openers__kernel_matches_reference_or_names_what_it_lacks(
        setup: Planned) -> None:
    """Random fights on the move (terrain, walls, cover, height or not) under edition 2 without Sweeping Strike, the
    dying options drawn kept, plans without a rule asking the AI, whose choice weighs Trip and Feint."""
    ruleset = setup.inline.ruleset if setup.inline.ruleset.checks.new_maneuvers else preset("ashfall-2")
    inline = dataclasses.replace(setup.inline, ruleset=ruleset.with_options(**NO_SWEEP))
    kernel = plays_alike_or_is_named(AiPicks(inline, setup.targets, setup.ai_answers))
    if kernel is not None:  # every plan that asks the AI has its choice weigh the openers
        ai = kernel.lowered.ai
        assert ai.config[ai.chooser == 1, kai.CFG_OPEN].all()
