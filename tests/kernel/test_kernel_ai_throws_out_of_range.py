"""The tactical AI's thrown weapon out of range of its enemies in the fight kernel (ATK-2, E-05, E-18, E-37).

On a map longer than a thrown weapon's long range (a Combat Knife's 60 ft) the AI has no plan with the throw against a
target beyond it from where it stands (``TurnView._bases_at``). With no target in range of some thrown option from
where it stands it weighs walks to squares within that option's normal range (``TacticalPolicy._wanted``: 20 ft for
the knife), throwing or shooting from them; with nothing to attack this turn it closes in to within the normal reach
of its options (``_approach``); and an enemy's throw counts among the fire a square invites only within its limit
(``ranged_threat``). The sets happen as described (approaches and walks to throw from out of range, throws near, a
pistol's shot from a walk), the kernel plays them step for step, its decision equals ``TacticalPolicy.choose`` on
every state, and kernels that ignore the limit, walk and approach only to melee reach or fear an enemy's throw beyond
its limit diverge. A gun out of range of some square stays named.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.board_cache import gap_ft
from ashfall.ai.choice import Choice
from ashfall.ai.intents import normal_reach
from ashfall.engine import Engine
from ashfall.sim.fight import run_fight
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature
from tests.kernel.kit import ENCOUNTERS, plays_like_the_reference, seeds, setup_of, variant, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import _Checked, _expected, _kernel_choice

BRUTE = ENCOUNTERS / "ai-knife-thrower-on-a-long-road-against-a-scripted-brute.yaml"
THROWERS = ENCOUNTERS / "ai-knife-throwers-close-in-on-a-long-road.yaml"
OPERATIVE = ENCOUNTERS / "ai-knife-and-pistol-operative-on-a-long-road-against-a-bandit.yaml"
SETS = [(path, edition) for path in (BRUTE, THROWERS, OPERATIVE) for edition in ("ashfall-1", "ashfall-2")]
IDS = [f"{path.stem}-{edition}" for path, edition in SETS]
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.rule("ATK-2", "E-05", "E-18", "E-37", "AMOD-7", "MOV-3")
@pytest.mark.parametrize(("path", "edition"), SETS, ids=IDS)
def test_kernel_ai_throw_out_of_range__plays_every_step_of_the_reference_fight(path: Path, edition: str) -> None:
    plays_like_the_reference(setup_of(path, edition), 60)


class _Counted(_Checked):
    """The tactical AI with the kernel's decision compared at every choice, counting the choices made out of range.

    A choice is out of range when every enemy still fighting stands beyond the chooser's shortest long range (its
    knife's 60 ft); it is counted by its reason and the option of its plan (``thrown``, or the gun's id).
    """

    __slots__ = ("counts",)

    def __init__(self, kernel: KernelSetup) -> None:
        super().__init__(kernel)
        self.counts: Counter[str] = Counter()

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        choice = TacticalPolicy.choose(self, engine, actor)
        state = engine.state
        if state.active_id != actor or state.ended:
            return choice
        self.seen.append((_expected(choice), _kernel_choice(self.kernel, engine, actor)))
        c = state.get(actor)
        limit = min(w.range_long or 1 << 30 for w in c.weapons)
        far = all(gap_ft(c.space, e.space) > limit for e in state.enemies_of(actor) if e.fighting)
        plan = choice.candidate.plan if choice is not None and choice.candidate is not None else None
        how = "" if plan is None or not plan.option.ranged else \
            " thrown" if plan.option.thrown else f" {plan.option.weapon_id}"
        reason = choice.reason.value if choice is not None else "none"
        self.counts[f"{'far' if far else 'near'} {reason}{how}"] += 1
        return choice


def _decisions(path: Path, edition: str, n: int, counter: type[_Counted] = _Counted) -> Counter[str]:
    """The choices of ``n`` reference fights of the set's own sweep, each asserted equal to the kernel's (``counter``
    counts them its way)."""
    setup = setup_of(path, edition)
    kernel = KernelSetup(setup)
    found: Counter[str] = Counter()
    for seed in seeds(n, sweep=setup.load_spec().seed or 0):
        fight = setup.build_fight(seed)
        counted = counter(kernel)
        policies = {cid: counted if isinstance(p, TacticalPolicy) else p for cid, p in fight.policies.items()}
        run_fight(lambda _, f=fight: f.engine, seed, policies, max_rounds=fight.round_limit)
        for expected, got in counted.seen:
            assert got == expected, (seed, expected, got)
        found += counted.counts
    return found


@pytest.mark.rule("ATK-2", "E-05", "E-37")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_kernel_ai_decide__equals_tactical_policy_choose_out_of_range_and_near(edition: str) -> None:
    """Every decision of 8 fights of each set; out of range the AI closes in (the brute's road), walks to throw (the
    throwers' road) or shoots and walks to shoot (the operative's road), and throws once within range."""
    brute, throwers, operative = (_decisions(p, edition, 8) for p in (BRUTE, THROWERS, OPERATIVE))
    assert brute["far approach"] >= 5 and brute["near attack thrown"] >= 10, brute
    assert throwers["far move-to-attack thrown"] >= 8 and throwers["near attack thrown"] >= 50, throwers
    assert operative["far attack pistol"] >= 30 and operative["far move-to-attack pistol"] >= 1, operative
    assert not any(k.startswith("far attack thrown") for found in (brute, throwers, operative) for k in found)


@pytest.mark.rule("ATK-2")
def test_kernel_ai_option_tables__hold_each_options_limit_and_normal_reach() -> None:
    """``limit`` and ``normal`` of every further option are the AI's own (``limit_ft``, ``normal_reach``)."""
    setup = setup_of(OPERATIVE, "ashfall-1")
    options = KernelSetup(setup).lowered.ai.options
    state = setup.build_fight(0).engine.state
    for i, c in enumerate(state.combatants.values()):
        further = kernel_options(c, state)[1:]
        assert options.count[i] == len(further)
        for xo, o in enumerate(further):
            assert (options.limit[i, xo], options.normal[i, xo]) == (o.limit_ft, normal_reach(o))
            if o.thrown:  # the knife: thrown to 60 ft, 20 ft without stretching
                assert (options.limit[i, xo], options.normal[i, xo]) == (60, 20)


class _Wrong:
    """The kernel with the out-of-range tables broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        o = lo.ai.options
        if broken == "throws-ignore-the-limit":  # every square within the throw's reach
            o = dataclasses.replace(o, limit=np.where(o.ranged == 1, 1 << 20, o.limit))
        elif broken == "enemy-throws-feared-beyond-the-limit":  # the fire a square invites (``ranged_threat``)
            o = dataclasses.replace(o, throw_ft=np.where(o.throw_ft >= 0, 1 << 20, o.throw_ft),
                                    throw2_ft=np.where(o.throw2_ft >= 0, 1 << 20, o.throw2_ft))
        else:  # "closes-in-to-melee-reach": walks and approaches to within the swing's 5 ft only
            o = dataclasses.replace(o, normal=np.minimum(o.normal, 5))
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=o))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("ATK-2")
@pytest.mark.parametrize(("broken", "path", "edition", "count", "least"), [
    ("throws-ignore-the-limit", BRUTE, "ashfall-1", 20, 10), ("throws-ignore-the-limit", THROWERS, "ashfall-1", 20, 10),
    ("closes-in-to-melee-reach", OPERATIVE, "ashfall-2", 40, 2),
    ("enemy-throws-feared-beyond-the-limit", OPERATIVE, "ashfall-1", 20, 1)])
def test_compare_engines__a_kernel_wrong_about_a_throw_out_of_range_diverges(broken: str, path: Path, edition: str,
                                                                              count: int, least: int) -> None:
    """Walking within the knife's 20 ft or only to the swing's 5 ft changes the first Stride only where the walk
    leads elsewhere than the way in (the operative's walks to shoot, edition 2's: on the open roads the first Stride
    is the same either way); the bandit's throw feared beyond its 60 ft changes a Step of the operative's."""
    setup = setup_of(path, edition)
    wrong_kernel_diverges(setup, _Wrong(setup, broken), count, least)


@pytest.mark.rule("ATK-2", "COV-3")
@pytest.mark.parametrize(("old", "new", "named"), [
    # a shotgun's 90 ft do not reach along this 100 ft road
    ("weapons: [salvaged-sword, combat-knife]", "weapons: [salvaged-sword, shotgun]",
     "the tactical AI's guns out of range of some square"),
], ids=["gun-out-of-range"])  # a wall across the road is played (``test_kernel_ai_throws_behind_total_cover``)
def test_kernel_ai_throw_out_of_range__what_is_not_played_is_named(tmp_path: Path, old: str, new: str,
                                                                    named: str) -> None:
    problem = check(variant(tmp_path, BRUTE, old, new, "ashfall-1"))
    assert problem is not None and named in problem


@pytest.mark.rule("ATK-2", "RX-29")
def test_shipped_bandit_band__is_no_longer_named_by_the_operatives_throw_out_of_range() -> None:
    """Under edition 1 it is named next by its gunslinger's Covering Fire talent among allies (its two guns are
    played there: ``test_kernel_ai_two_guns_among_allies``)."""
    problem = check(EncounterSetup(ROOT / "encounters" / "bandit-band.yaml", "ashfall-1"))
    assert problem is not None and "out of range" not in problem and \
        problem.startswith("the Covering Fire talent (SUP-11, combatant gunslinger")
