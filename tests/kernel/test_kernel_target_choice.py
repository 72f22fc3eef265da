"""The AI's target choice for scripted plans without a target rule, in the fight kernel (``target_choice``).

An encounter's plan without ``target`` attacks whom the tactical AI would attack now
(``TacticalPolicy.preferred_target``: its best way to attack each enemy, focus fire). The kernel asks the same
compiled decision the AI's own turns use (``ashfall.kernel.ai.decide``) with the scripted creature's tables
lowered under the AI's default config, its own attacks flanking where an ally helps (POS-1). The set
``scripted-two-on-two-the-ai-picks.yaml`` plays identically on both engines; a kernel whose plans attack the
nearest instead must diverge. Edition 2's openers in the choice: ``test_kernel_target_choice_openers``; its
Sweeping Strike among several enemies: ``test_kernel_target_choice_sweep``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, event, given, settings

from ashfall.ai import target_choice
from ashfall.ai.profile import shots_left
from ashfall.core.types import Condition
from ashfall.engine import Combatant, EncounterState, Engine
from ashfall.engine.reactions import can_react
from ashfall.kernel import fight as kf
from ashfall.sim.fight import run_fight
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.kernel_run import KernelSetup, _ai_tab, _cov_tab
from ashfall.sim.policy import Policy, ScriptedTactics, enemies_by_distance
from ashfall.sim.setups import EncounterSetup, FightSetup, InlineCombatant
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, OWN, seeds, setup_of
from tests.kernel.test_kernel_properties import Planned, fights

AI_PICKS = ENCOUNTERS / "scripted-two-on-two-the-ai-picks.yaml"
ROOT = Path(__file__).resolve().parents[2]


class _Nearest:
    """The kernel with the AI's choice switched off: plans without a target rule attack the nearest (wrong)."""

    def __init__(self, setup: FightSetup) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, chooser=np.zeros_like(
            lo.ai.chooser)))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize("edition", ["ashfall-1", OWN])
def test_scripted_plan_without_target__every_plan_asks_the_ai(edition: str) -> None:
    """The differential run is in test_kernel_matches_reference.py; here: the set is on the kernel, all four ask."""
    setup = setup_of(AI_PICKS, edition)
    assert check(setup) is None
    assert KernelSetup(setup).lowered.ai.chooser.tolist() == [1, 1, 1, 1]


class _Recorder:
    """``target_choice`` that also asks the kernel's ``_chosen`` on the same state and records both picks."""

    def __init__(self, kernel: KernelSetup) -> None:
        self.kernel = kernel
        self.seen: list[tuple[str | None, str | None]] = []
        self.not_nearest = 0

    def __call__(self, engine: Engine, actor: str) -> str | None:
        expected = target_choice(engine, actor)
        self.seen.append((expected, self._kernel_pick(engine, actor)))
        nearest = enemies_by_distance(engine.state, engine.state.get(actor))
        self.not_nearest += expected is not None and expected != nearest[0].id
        return expected

    def _kernel_pick(self, engine: Engine, actor: str) -> str | None:
        lo, state = self.kernel.lowered, engine.state
        roster = list(state.combatants.values())
        ids = [c.id for c in roster]
        c = state.get(actor)
        vit = np.array([3 if x.health.is_dead else 0 if not x.health.is_down else 1 for x in roster], np.int64)
        prone = np.array([int(x.has(Condition.PRONE)) for x in roster], np.int64)
        px = np.array([x.position[0] if x.position else 0 for x in roster], np.int64)
        py = np.array([x.position[1] if x.position else 0 for x in roster], np.int64)
        size = lo.dist.shape[0] * lo.dist.shape[1] * 2 + 1
        ai = lo.ai
        pick = kf._chosen(
            ids.index(actor), c.turn.actions_left, c.turn.attack_rolls, c.turn.strike_actions, lo.side, vit, prone,
            np.array([x.health.hp for x in roster], np.int64), np.array([x.health.temp_hp for x in roster], np.int64),
            np.array([int(can_react(state, x) is None) for x in roster], np.int64), px, py, lo.dist, lo.flank_geo,
            lo.flanker, lo.threat_ft, lo.reach_ft, lo.speed, lo.price, lo.offsets, ai.plan_frac, ai.plan_drop,
            ai.plan_first, ai.enemy_hit, ai.config, ai.ints, ai.view, np.zeros(size, np.int64),
            np.zeros(size, np.int64), _ai_tab(lo), self._ammo(state, roster, lo.ai.ranged.ammo.shape[1]),
            np.zeros((len(ids), len(ids)), np.int64),  # a scripted creature never feints (no Feint's effects)
            _cov_tab(lo))  # nobody has the Covering Fire talent here (SUP-11)
        return None if pick < 0 else ids[pick]

    @staticmethod
    def _ammo(state: EncounterState, roster: list[Combatant], width: int) -> npt.NDArray[np.int64]:
        """The rounds loaded now in each creature's guns (``RangedTables.ammo``'s sense: per further option slot in
        the kernel's order, ``kernel_options``; -1: none counted)."""
        found = np.full((len(roster), width), -1, np.int64)
        for i, x in enumerate(roster):
            for xo, o in enumerate(kernel_options(x, state)[1:]):
                left = shots_left(x, o)
                if left is not None:
                    found[i, xo] = left
        return found


@pytest.mark.rule("POS-1", "RX-21")
@pytest.mark.parametrize("path", [AI_PICKS, ENCOUNTERS / "scripted-and-ai-free-for-all-the-ai-picks.yaml"],
                         ids=["two-on-two", "free-for-all"])
def test_kernel_chosen__equals_target_choice_on_every_state(path: Path) -> None:
    """The kernel's pick is ``preferred_target``'s on every state reference fights reach, one decision at a time."""
    setup = setup_of(path, "ashfall-1")
    kernel = KernelSetup(setup)
    decisions = not_nearest = 0
    for seed in seeds(10, sweep=23):
        recorder = picks_recorded(setup, seed, _Recorder(kernel))
        decisions += len(recorder.seen)
        not_nearest += recorder.not_nearest
    assert decisions > 50 and not_nearest > 10  # the AI's pick is often not the nearest enemy


R = TypeVar("R", bound=_Recorder)


def picks_recorded(setup: FightSetup, seed: int, recorder: R) -> R:
    """The reference fight of ``seed`` with ``recorder`` answering every plan without a target rule; each of its
    picks checked against the kernel's."""
    fight = setup.build_fight(seed)
    policies = {cid: ScriptedTactics(p.plan, move=p.move, chooser=recorder)
                if isinstance(p, ScriptedTactics) and p.chooser is not None else p
                for cid, p in fight.policies.items()}
    run_fight(lambda _, f=fight: f.engine, seed, policies, max_rounds=fight.round_limit)
    for expected, got in recorder.seen:
        assert got == expected
    return recorder


def test_compare_engines__a_kernel_whose_plans_attack_the_nearest_diverges() -> None:
    setup = setup_of(AI_PICKS, "ashfall-1")
    report = compare_engines(setup, seeds(40), reference_signature, _Nearest(setup))
    assert len(report.divergences) >= 10
    assert report.divergences[0].explanation


@pytest.mark.rule("E-37", "E-10", "SWP-3")
def test_target_choice__under_edition_2_weighs_sweeping_strike_too() -> None:
    """The openers Trip and Feint (``test_kernel_target_choice_openers``) and Sweeping Strike among several enemies
    (``test_kernel_target_choice_sweep``) are weighed: the set is played under stock edition 2."""
    assert check(setup_of(AI_PICKS, "ashfall-2")) is None


def test_target_choice__with_one_enemy_is_never_asked() -> None:
    """A plan without a target rule against one enemy attacks it (``_ordered``): no AI tables are lowered for it."""
    setup = setup_of(ENCOUNTERS / "scripted-walk-up-duel.yaml", "ashfall-1")
    policies = setup.build_fight(0).policies.values()
    assert all(isinstance(p, ScriptedTactics) and p.chooser is target_choice for p in policies)
    assert check(setup) is None
    assert not KernelSetup(setup).lowered.ai.chooser.any()


def test_shipped_corridor__the_mutants_choice_is_no_longer_what_keeps_it_off_the_kernel() -> None:
    for edition in ("ashfall-1", "ashfall-2"):
        problem = check(EncounterSetup(ROOT / "encounters" / "corridor.yaml", edition))
        assert problem is not None and "mutant" not in problem


@dataclass(frozen=True, slots=True)
class AiPicks(Planned):
    """A random planned fight whose plans without a target rule ask the AI whom to attack."""

    def policy(self, index: int, combatant: InlineCombatant) -> Policy:
        rule = self.targets[index]
        return ScriptedTactics(combatant.plan, target=rule, chooser=None if rule is not None else target_choice)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights(moving=True))
@pytest.mark.rule("POS-1", "RX-21")
def test_random_fights_where_the_ai_picks__kernel_matches_reference_or_names_what_it_lacks(setup: Planned) -> None:
    """Random fights that start apart (terrain, walls, cover, height or not), plans without a rule asking the AI."""
    plays_alike_or_is_named(AiPicks(setup.inline, setup.targets, setup.ai_answers))


def plays_alike_or_is_named(picks: AiPicks) -> KernelSetup | None:
    """A random fight whose plans may ask the AI: the kernel names what it lacks (None), or plays its first 6 seeds
    step for step as the reference (its kernel returned)."""
    problem = check(picks)
    event(f"not on the kernel: {problem.split(' (')[0]}" if problem else "played on both engines")
    if problem is not None:
        assert problem.strip()
        return None
    kernel = KernelSetup(picks)
    event("the AI picks for someone" if kernel.lowered.ai.chooser.any() else "every plan has a rule or one enemy")
    report = compare_engines(picks, seeds(6), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, (picks.inline.ruleset.name, picks.targets, report.first)
    return kernel
