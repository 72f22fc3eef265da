"""The AI's target choice weighing Sweeping Strike among several enemies, in the fight kernel (SWP-1..3, E-10, E-37).

A scripted plan without a target rule attacks whom the tactical AI would attack now (``target_choice``). Under
edition 2 the AI's candidates where it stands weigh a Sweeping Strike with each melee option (``multi_targets``: the
next best targets within reach take the weapon's dice only, SWP-3) beside Trip and Feint, though the plan itself never
sweeps: the kernel lowers the sweep's parts for such a creature (``kernel_sweep_lower``) and its compiled choice
(``fight._chosen``) adds them up as the AI does. The set ``scripted-warrior-chooses-weighing-sweep.yaml`` plays
identically on both engines; counts from the reference show that sweeps are weighed and change the pick, the kernel's
pick equals the reference's on every state the fights reach, and kernels that forget the sweep or its further
targets diverge. The AI's own Sweeping Strike stays named.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ashfall.ai import turn as ai_turn
from ashfall.ai.plans import Block
from ashfall.ai.tactical import TacticalPolicy
from ashfall.engine import Engine
from ashfall.kernel import ai as kai
from ashfall.sim import kernel_sweep_lower as ksl
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from tests.kernel.kit import AI_GANG, ENCOUNTERS, Rewired, played_alike, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_target_choice import picks_recorded
from tests.kernel.test_kernel_target_choice_openers import _Counting as _OpenersCounting

SWEEP = ENCOUNTERS / "scripted-warrior-chooses-weighing-sweep.yaml"
"""The skirmish's Warrior (scripted, no target rule) among a bruiser and two scrappers, stock edition 2."""
TRIP = ENCOUNTERS / "scripted-warrior-chooses-weighing-trip.yaml"
FEINT = ENCOUNTERS / "scripted-duelist-chooses-weighing-feint.yaml"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.rule("SWP-1", "SWP-3", "E-10", "E-37")
@pytest.mark.parametrize("edition", ["ashfall-2", "ashfall-1"])
def test_kernel__plays_every_step_of_the_reference_fight_where_the_choice_weighs_sweeping_strike(edition: str) -> None:
    """CI's share of the differential run (``scripts/kernel_diff.py`` plays 1,000 seeds): 100 seeds; under edition 1
    nobody sweeps (E-10)."""
    played_alike(setup_of(SWEEP, edition), 100)


@pytest.mark.rule("SWP-1", "SWP-3", "E-10", "E-37")
@pytest.mark.parametrize("path", [TRIP, FEINT], ids=["trip", "feint"])
def test_kernel__the_opener_sets_under_stock_edition_2_weigh_the_sweep_too(path: Path) -> None:
    """The Trip and Feint sets' choosers meet two enemies side by side: under stock edition 2 they weigh sweeps."""
    played_alike(setup_of(path, "ashfall-2"), 30)


@contextmanager
def _no_groups() -> Iterator[None]:
    """The reference AI with no multi-target groups (``multi_targets`` empty): its choice without sweeps."""
    kept = ai_turn.multi_targets

    def none(*_: Any) -> dict[Block, dict[str, tuple[str, ...]]]:
        return {}

    ai_turn.multi_targets = none  # type: ignore[assignment]
    try:
        yield
    finally:
        ai_turn.multi_targets = kept  # type: ignore[assignment]


class _Counting(_OpenersCounting):
    """The openers' counting recorder that also counts what sweeps do to the reference's pick."""

    def __call__(self, engine: Engine, actor: str) -> str | None:
        pick = super().__call__(engine, actor)
        with _no_groups():
            self.found["sweeps change the pick"] += pick != TacticalPolicy().preferred_target(engine, actor)
        policy = TacticalPolicy()
        view = policy._view(engine, engine.state.get(actor), brutal=False)
        best = policy._best_candidates(view, True)
        swept = {tid for tid, x in best.items() if Block.SWEEP in x.plan.blocks}
        self.found["targets with a sweep as their best plan"] += len(swept)
        self.found["the pick's plan sweeps"] += pick in swept
        return pick


@pytest.mark.rule("SWP-1", "SWP-3", "E-37")
def test_kernel_chosen__equals_target_choice_on_every_state_and_sweeps_change_it() -> None:
    """The kernel's pick is ``preferred_target``'s on every state 40 reference fights reach, one decision at a time;
    sweeps are the best plan on most targets (385 of them in 549 decisions) and the pick's on some (5), changing the
    reference's pick on a few states (3: the same state valued without groups picks another)."""
    setup = setup_of(SWEEP, "ashfall-2")
    recorder = _Counting(KernelSetup(setup))
    for seed in seeds(40):
        picks_recorded(setup, seed, recorder)
    found = recorder.found
    assert found["decisions"] > 400
    assert found["sweeps change the pick"] >= 2
    assert found["the pick's plan sweeps"] >= 3
    assert found["targets with a sweep as their best plan"] >= 300


def _no_sweep(lowered: Lowered) -> Lowered:
    """The kernel broken on purpose: the choice weighs no Sweeping Strike (the sweep tables switched off)."""
    sweep = lowered.ai.sweep
    return dataclasses.replace(lowered, ai=dataclasses.replace(lowered.ai, sweep=dataclasses.replace(
        sweep, on=np.zeros_like(sweep.on))))


def _no_further_parts(lowered: Lowered) -> Lowered:
    """The kernel broken on purpose: a sweep's further targets are worth nothing (SWP-3's dice-only parts zeroed)."""
    sweep = lowered.ai.sweep
    return dataclasses.replace(lowered, ai=dataclasses.replace(lowered.ai, sweep=dataclasses.replace(
        sweep, further=np.zeros_like(sweep.further))))


@pytest.mark.rule("SWP-3", "E-37")
@pytest.mark.parametrize("change", [_no_sweep, _no_further_parts], ids=["no-sweep", "no-further-parts"])
def test_compare_engines__a_kernel_whose_choice_forgets_the_sweep_diverges(change: Any) -> None:
    setup = setup_of(SWEEP, "ashfall-2")
    wrong_kernel_diverges(setup, Rewired(setup, change), 40, 3)


@pytest.mark.rule("SWP-1", "E-10")
def test_lowering__the_chooser_weighs_a_sweep_with_both_melee_options_under_edition_2_only() -> None:
    """The greataxe and the javelin swung both sweep (slots 0 and 1, not 2: thrown); none under edition 1 (E-10)."""
    lo = KernelSetup(setup_of(SWEEP, "ashfall-2")).lowered
    i = lo.ids.index("warrior")
    assert lo.ai.chooser[i] == 1 and not np.any(lo.ai.on)
    assert lo.ai.sweep.on[i].tolist() == [1, 1, 0]  # the javelin thrown never sweeps
    assert (lo.ai.sweep.drafts[:, 1] == ksl.SWEEP).any()
    assert not KernelSetup(setup_of(SWEEP, "ashfall-1")).lowered.ai.sweep.on.any()
    assert kai.SWEEP == ksl.SWEEP


@pytest.mark.rule("SWP-1", "E-37")
def test_tactical_ai__its_own_sweeping_strike_among_several_enemies_stays_named() -> None:
    """The AI's own Sweeping Strike (a plan that sweeps: its roll and further targets' damage) is not played."""
    named = check(setup_of(AI_GANG, "ashfall-2"))
    assert named is not None and named.startswith("the tactical AI's Sweeping Strike among several enemies")

