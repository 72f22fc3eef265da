"""The AI's target choice for a scripted plan whose creature, or whose enemies, have several ways to attack.

A plan without a target rule attacks whom ``TacticalPolicy.preferred_target`` picks: the AI weighs every way the
scripted creature could attack (the skirmish Warrior's greataxe, its javelin swung and thrown, Aim first, E-05, a
burst of javelins as the rules allow, MAA-2) and every enemy's in the fire a square invites (its best melee option,
its gun while loaded, G-31, its throw). The kernel lowers the scripted creature's further options and its enemies'
fire as for a creature the AI plays and asks the same compiled ``decide``; the plan then swings its weapons in order.
The sets ``scripted-warrior-chooses-among-throwers.yaml`` and
``scripted-warrior-and-partner-choose-under-a-shotgun.yaml`` play identically on both engines under edition 1
(``scripts/kernel_diff.py``); here: every pick equals the reference's, the further options decide many of them, and
kernels that weigh only the first option, or no enemy's further options, diverge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ashfall.ai import TacticalPolicy
from ashfall.ai.tactical import _gap
from ashfall.ai.targeting import focus
from ashfall.engine import Engine
from ashfall.sim.kernel_ai_lower import chooser_problem
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.policy import ScriptedTactics
from ashfall.sim.setups import EncounterSetup, FightSetup, InlineCombatant, InlineSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, played_alike, plays_like_the_reference_or_is_named, seeds, setup_of
from tests.kernel.test_kernel_properties import Planned, fights
from tests.kernel.test_kernel_target_choice import AiPicks, _Recorder, picks_recorded

THROWERS = ENCOUNTERS / "scripted-warrior-chooses-among-throwers.yaml"
SHOTGUN = ENCOUNTERS / "scripted-warrior-and-partner-choose-under-a-shotgun.yaml"
WAYS_SETS = (THROWERS, SHOTGUN)
ROOT = Path(__file__).resolve().parents[2]


def _chooser_rows(lo: Lowered) -> list[int]:
    return [i for i in range(len(lo.ids)) if lo.ai.chooser[i]]


def _mutant(setup: FightSetup, change: Callable[[Lowered], Lowered]) -> Callable[[FightSetup, int], FightSignature]:
    """A kernel whose lowered tables ``change`` alters (a wrong kernel the harness must catch)."""
    kernel = KernelSetup(setup)
    kernel.lowered = change(kernel.lowered)
    return lambda _, seed: kernel.signature(seed)


def _first_option_only(lo: Lowered) -> Lowered:
    """The scripted creatures' further options never weighed (only the first option's tables passed)."""
    count = lo.ai.options.count.copy()
    for i in _chooser_rows(lo):
        count[i] = 0
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=dataclasses.replace(lo.ai.options,
                                                                                             count=count)))


def _one_way_enemies(lo: Lowered) -> Lowered:
    """The fire a scripted creature's square invites weighed with each enemy's first option only (wrong)."""
    o = lo.ai.options
    melee, thrown, thrown2 = o.melee_best.copy(), o.throw_hit.copy(), o.throw2_hit.copy()
    for i in _chooser_rows(lo):
        melee[:, i] = lo.ai.enemy_hit[:, i]  # each enemy's first option, as ``enemy_hit`` holds it
        thrown[:, i] = 0.0
        if thrown2.shape[0] == thrown.shape[0]:
            thrown2[:, i] = 0.0
    options = dataclasses.replace(o, melee_best=melee, throw_hit=thrown, throw2_hit=thrown2)
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=options))


@pytest.mark.rule("ATK-2", "E-05")
@pytest.mark.parametrize("path", WAYS_SETS, ids=["throwers", "shotgun"])
def test_scripted_creature_with_several_ways__its_further_options_are_lowered_for_the_choice(path: Path) -> None:
    setup = setup_of(path, "ashfall-1")
    assert check(setup) is None
    lo = KernelSetup(setup).lowered
    rows = _chooser_rows(lo)
    veteran = lo.ids.index(next(i for i in lo.ids if i in ("warrior", "kernel-chooser-veteran")))
    assert veteran in rows
    assert lo.ai.options.count[veteran] == 2  # the javelin swung, and thrown
    assert lo.ai.options.ranged[veteran].tolist()[:2] == [0, 1]
    assert (lo.ai.options.first[veteran] >= 0).any()


@pytest.mark.rule("POS-1", "RX-21", "ATK-2", "E-05", "G-31", "COV-2", "AMOD-7")
@pytest.mark.parametrize("path", WAYS_SETS, ids=["throwers", "shotgun"])
def test_kernel__plays_every_step_of_the_reference_fight_where_the_ai_weighs_several_ways(path: Path) -> None:
    """CI's share of the differential run (``scripts/kernel_diff.py`` plays 1,000 seeds): 100 seeds, edition 1."""
    setup = setup_of(path, "ashfall-1")
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(100), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


@pytest.mark.rule("E-37", "SWP-3")
def test_target_choice_with_several_ways__under_edition_2_weighs_the_sweep_of_each_melee_weapon() -> None:
    """The Warrior's greataxe and javelin swung both weigh a Sweeping Strike among the throwers (SWP-1..3,
    ``kernel_sweep_lower``): the set is played under stock edition 2 too (1,000 seeds in ``scripts/kernel_diff.py``)."""
    played_alike(setup_of(WAYS_SETS[0], "ashfall-2"), 20)


@pytest.mark.rule("E-37", "G-35", "E-18")
def test_target_choice_under_a_shotgun__under_edition_2_names_the_raiders_return_fire_after_its_burst() -> None:
    """The raider's burst beside the openers is played (``kernel_burst_lower``); its Return Fire could provoke."""
    assert check(setup_of(WAYS_SETS[1], "ashfall-2")) == "Return Fire from within a shooter's reach (E-18, combatant " \
        "kernel-chooser-raider)"


def _further_pick(engine: Engine, actor: str) -> bool:
    """Whether the reference AI's pick for ``actor`` is its best candidate with a further option (not its first)."""
    policy = TacticalPolicy()
    view = policy._view(engine, engine.state.get(actor), brutal=False)
    best = policy._best_candidates(view, True)
    pick = focus(best, view.targets, {t.id: _gap(view.c, t) for t in view.targets}, policy.config.drop_step)
    return pick is not None and pick.plan.option.index != view.options[0].index


class _Counting(_Recorder):
    """``_Recorder`` that also counts the picks a further option of the scripted creature wins."""

    def __init__(self, kernel: KernelSetup) -> None:
        super().__init__(kernel)
        self.further = 0

    def __call__(self, engine: Engine, actor: str) -> str | None:
        self.further += _further_pick(engine, actor)
        return super().__call__(engine, actor)


@pytest.mark.rule("POS-1", "RX-21", "G-31")
@pytest.mark.parametrize("path", WAYS_SETS, ids=["throwers", "shotgun"])
def test_kernel_chosen_with_several_ways__equals_target_choice_on_every_state(path: Path) -> None:
    """The kernel's pick is ``preferred_target``'s on every state reference fights reach, one decision at a time."""
    setup = setup_of(path, "ashfall-1")
    kernel = KernelSetup(setup)
    decisions = further = 0
    for seed in seeds(8, sweep=29):
        recorder = picks_recorded(setup, seed, _Counting(kernel))
        decisions += len(recorder.seen)
        further += recorder.further
    assert decisions > 40 and further > 5  # the AI's pick often rests on a further way to attack


@pytest.mark.parametrize("path", WAYS_SETS, ids=["throwers", "shotgun"])
def test_compare_engines__a_kernel_weighing_only_the_first_option_diverges(path: Path) -> None:
    setup = setup_of(path, "ashfall-1")
    report = compare_engines(setup, seeds(40), reference_signature, _mutant(setup, _first_option_only))
    assert len(report.divergences) >= 5
    assert report.divergences[0].explanation


@pytest.mark.rule("COV-2", "G-31")
def test_compare_engines__a_kernel_weighing_only_each_enemys_first_option_diverges() -> None:
    """Without the shotgun's fire (and the duelists' greataxes) the Partner's tie between the duelists goes west."""
    setup = setup_of(SHOTGUN, "ashfall-1")
    report = compare_engines(setup, seeds(40), reference_signature, _mutant(setup, _one_way_enemies))
    assert len(report.divergences) >= 3


@pytest.mark.rule("G-31")
def test_chooser_problem__a_gun_of_the_scripted_creature_is_named() -> None:
    """A scripted creature's gun would have its plans count rounds its plan never spends: named, in one line."""
    inline = _as_inline(setup_of(SHOTGUN, "ashfall-1"), "kernel-chooser-veteran", ("greataxe", "pistol"))
    fight = inline.build_fight(0)
    problem = chooser_problem(fight, fight.engine.state.get("kernel-chooser-veteran"))
    assert problem == "the AI's target choice weighing a gun's rounds (G-31, combatant kernel-chooser-veteran)"


def _as_inline(setup: FightSetup, cid: str, weapons: tuple[str, ...]) -> Planned:
    """The set's fight as an inline one with ``cid``'s weapons replaced (plans without a target rule ask the AI)."""
    fight = setup.build_fight(0)
    state = fight.engine.state
    members = []
    rules = []
    for c in state.combatants.values():
        creature = c.creature.model_copy(update={"weapons": weapons}) if c.id == cid else c.creature
        policy = fight.policies[c.id]
        plan = tuple(a.value for a in policy.plan) if isinstance(policy, ScriptedTactics) else ("strike",)
        members.append(InlineCombatant(c.id, c.side, creature, c.position, plan))
        rules.append(policy.target if isinstance(policy, ScriptedTactics) else None)
    board = state.board
    return AiPicks(InlineSetup("inline", tuple(members), state.ruleset, board, 12), tuple(rules), True)


SECOND_WEAPONS = (None, "javelin", "salvaged-sword", "greataxe")
"""A second weapon some random creatures carry: a thrown one, or another melee weapon of 5-ft reach."""


@st.composite
def several_ways(draw: st.DrawFn) -> Planned:
    """A random fight on the move whose creatures may carry a second weapon (a javelin, another melee weapon)."""
    base = draw(fights(moving=True))
    members = []
    for c in base.inline.combatants:
        extra = draw(st.sampled_from(SECOND_WEAPONS))
        weapons = c.creature.weapons if extra is None or extra in c.creature.weapons else (*c.creature.weapons,
                                                                                          extra)
        members.append(dataclasses.replace(c, creature=c.creature.model_copy(update={"weapons": weapons})))
    return AiPicks(dataclasses.replace(base.inline, combatants=tuple(members)), base.targets, base.ai_answers)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(several_ways())
@pytest.mark.rule("POS-1", "RX-21", "ATK-2")
def test_random_fights_with_several_ways_where_the_ai_picks__kernel_matches_reference_or_names_it(
        setup: Planned) -> None:
    """Random fights that start apart, some creatures with a second weapon, plans without a rule asking the AI."""
    plays_like_the_reference_or_is_named(setup, 6, (setup.inline.ruleset.name, setup.targets))
    if check(setup) is None:
        lo = KernelSetup(setup).lowered
        if any(lo.ai.options.count[i] for i in _chooser_rows(lo)):
            event("the AI picks for a creature with several ways to attack")


@pytest.mark.rule("COV-3")
def test_shipped_skirmish__the_warriors_several_ways_are_weighed_throws_behind_walls_included() -> None:
    """The skirmish's scripted Warrior (greataxe and javelin, its throw behind the yard's walls weighed as the AI weighs
    it: ``test_kernel_ai_throws_behind_total_cover``) and the Vanguard's pistol past the yard's walls
    (``test_kernel_ai_fires_behind_total_cover``; its halberd's reach beside it: ``test_kernel_ai_reach_weapons``) are
    weighed, and a shot a raider could Intercept from behind a wall is judged on its sight at any distance (RX-26,
    E-19: ``test_kernel_ai_intercepts_across_walls``), and so is the Gunslinger's Return Fire with either of its two
    guns (RX-29, RX-31: ``test_kernel_ai_two_guns``), and its kit among allies
    (``test_kernel_ai_two_guns_among_allies``), and its Covering Fire talent on two guns among allies
    (``test_kernel_covering_fire_two_guns``): what keeps the fight off is the enemy that talent would pin, the raider
    warlord with a sword and a gun."""
    problem = check(EncounterSetup(ROOT / "encounters" / "skirmish.yaml", "ashfall-1"))
    assert problem == (
        "the Covering Fire talent (SUP-11, combatant gunslinger: a round on an enemy's attack, disadvantage until its "
        "next turn, a free shot when it moves; pinning a creature with other than one melee weapon, combatant "
        "raider-warlord)")

