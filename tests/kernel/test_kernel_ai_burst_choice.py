"""The AI's Full Auto Burst among several enemies, rebuilt from per-target parts (G-35, MAA-2, X-12).

At every decision where the tactical AI weighs a burst in the reference fights of
tests/kernel/encounters/ai-gunner-bursts-a-bandit-trio.yaml (a lone gunner against three scripted bandits, edition 1
with Power Strike for melee only, G-36), ``kernel_burst_lower`` must rebuild the AI's own choice: the further targets
of each primary one (``multi_targets``) and the best plan (``best_plan``: blocks, further targets, share of HP and
drop chance, bit for bit). Tables broken on purpose (a burst that takes its first target only, MAP counted per
target, rounds spent per burst rather than per target) must not. (The compiled fight plays the burst:
``test_kernel_ai_burst_decisions.py``.)
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ashfall.ai.plans import Block, Draft, Plan, Setting, drafts_for
from ashfall.ai.turn import TurnView
from ashfall.sim.kernel_burst_lower import worth_row
from ashfall.sim.setups import EncounterSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.burst_model import BurstParts, best_of_parts, burst_parts, group_of, hp_of
from tests.kernel.kit import seeds

SET = Path(__file__).resolve().parent / "encounters" / "ai-gunner-bursts-a-bandit-trio.yaml"
FIGHTS = 6


@dataclass(frozen=True, slots=True)
class Weighed:
    """One plan the AI weighed where it stands with a burst group for its target, and what it picked."""

    view: TurnView
    target: str
    setting: Setting
    actions: int
    drop_step: float
    plan: Plan | None


def _weighed(monkeypatch: pytest.MonkeyPatch) -> list[Weighed]:
    """The AI's plans with a burst group in the reference fights of the set."""
    found: list[Weighed] = []
    original = TurnView.best_plan

    def spy(self: TurnView, target: str, setting: Setting, actions: int, *, full: bool, openers: bool,
            drop_step: float) -> Plan | None:
        plan = original(self, target, setting, actions, full=full, openers=openers, drop_step=drop_step)
        if full and openers and setting.group.get(Block.FULL_AUTO, {}).get(target):
            found.append(Weighed(self, target, setting, actions, drop_step, plan))
        return plan

    monkeypatch.setattr(TurnView, "best_plan", spy)
    setup = EncounterSetup(SET)
    for seed in seeds(FIGHTS):
        reference_fight(setup, seed)
    monkeypatch.undo()
    return found


def _group(w: Weighed) -> tuple[str, ...]:
    order = list(w.setting.bases)
    most = max(w.setting.hp[t] for t in order)
    worth = np.array([worth_row(w.setting.bases[t], most)[w.setting.hp[t] - 1] for t in order])
    gap = np.array([[w.view.gap(a, b) for b in order] for a in order], np.int64)
    rs = w.view.state.ruleset
    found = group_of(order.index(w.target), np.arange(len(order)), worth, gap, rs.attack.full_auto_targets,
                     rs.attack.full_auto_spread_ft)
    return tuple(order[int(p)] for p in found)


Parts = Callable[[Weighed, tuple[Draft, ...], tuple[str, ...], int], BurstParts]


def _right_parts(w: Weighed, drafts: tuple[Draft, ...], others: tuple[str, ...], most: int) -> BurstParts:
    return burst_parts(drafts, w.target, others, most)


def _rebuilt(w: Weighed, parts_of: Parts = _right_parts, costs: Any = None) -> tuple[tuple[Block, ...], tuple[
        str, ...], float, float] | None:
    """The AI's best plan rebuilt from the parts: blocks, further targets, share and drop chance."""
    costs = costs or w.view.costs(w.setting.option)
    others = w.setting.group[Block.FULL_AUTO][w.target]
    drafts = tuple(drafts_for(w.target, w.setting, costs, w.actions, openers=True))
    most = max(w.setting.hp.values())
    k, frac, _, drop = best_of_parts(parts_of(w, drafts, others, most), w.setting.hp[w.target],
                                     hp_of(w.setting.hp, others), w.drop_step)
    if k < 0:
        return None
    d = drafts[k]
    return d.blocks, d.others if d.opened is None else (), frac, drop


def _theirs(w: Weighed) -> tuple[tuple[Block, ...], tuple[str, ...], float, float] | None:
    p = w.plan
    return None if p is None else (p.blocks, p.others, p.frac, p.p_drop)


@pytest.fixture(scope="module")
def weighed() -> Iterator[list[Weighed]]:
    with pytest.MonkeyPatch.context() as mp:
        yield _weighed(mp)


@pytest.mark.rule("G-35", "MAA-2", "X-12")
def test_g_35__the_ai_weighs_and_fires_bursts_in_the_set(weighed: list[Weighed]) -> None:
    assert len(weighed) > 20
    assert any(w.plan is not None and w.plan.blocks[0] is Block.FULL_AUTO for w in weighed)


@pytest.mark.rule("G-35", "MAA-2", "X-12")
def test_x_12__further_targets_rebuilt_from_worth_and_gaps_are_the_ais(weighed: list[Weighed]) -> None:
    for w in weighed:
        assert _group(w) == w.setting.group[Block.FULL_AUTO][w.target]


@pytest.mark.rule("G-35", "MAA-2", "MAP-1")
def test_g_35__best_plan_rebuilt_from_per_target_parts_is_the_ais_to_the_bit(weighed: list[Weighed]) -> None:
    bursts = 0
    for w in weighed:
        ours = _rebuilt(w)
        assert ours == _theirs(w)
        bursts += ours is not None and Block.FULL_AUTO in ours[0]
    assert bursts > 0


def _first_target_only(w: Weighed, drafts: tuple[Draft, ...], others: tuple[str, ...], most: int) -> BurstParts:
    parts = burst_parts(drafts, w.target, others, most)
    return replace(parts, further=np.zeros_like(parts.further))


def _map_per_target(w: Weighed, drafts: tuple[Draft, ...], others: tuple[str, ...], most: int) -> BurstParts:
    """Each further target's attack one MAP step later than the last (as if each target were an attack)."""
    shifted = []
    for d in drafts:
        attacks = {tid: [key._replace(attack_number=key.attack_number + q) for key in keys]
                   for q, (tid, keys) in enumerate(d.attacks.items())}
        shifted.append(replace(d, attacks=attacks))
    return burst_parts(tuple(shifted), w.target, others, most)


@pytest.mark.rule("G-35", "MAA-2")
@pytest.mark.parametrize("wrong", [_first_target_only, _map_per_target], ids=["first-target-only", "map-per-target"])
def test_g_35__wrong_burst_parts_pick_other_plans_than_the_ai(weighed: list[Weighed], wrong: Parts) -> None:
    assert any(_rebuilt(w, wrong) != _theirs(w) for w in weighed)


@pytest.mark.rule("G-35", "G-31")
def test_g_35__rounds_spent_per_burst_not_per_target_pick_other_plans_than_the_ai_when_low(
        weighed: list[Weighed]) -> None:
    """With two rounds loaded a burst on three targets needs a Reload first (G-31): a round a burst would not."""
    low = [replace(w, setting=replace(w.setting, ammo=2)) for w in weighed]
    differs = 0
    for w in low:
        costs = w.view.costs(w.setting.option)
        right = _rebuilt(w)
        theirs = w.view.best_plan(w.target, w.setting, w.actions, full=True, openers=True, drop_step=w.drop_step)
        assert right == (None if theirs is None else (theirs.blocks, theirs.others, theirs.frac, theirs.p_drop))
        wrong_costs = replace(costs, ammo_per_target=0, capacity=costs.capacity)
        differs += _rebuilt(w, costs=wrong_costs) != right
    assert differs > 0
