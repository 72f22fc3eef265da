"""The tactical AI's first slice in the fight kernel makes the AI's own decisions, draw for draw.

The AI encounters of ``tests/kernel/encounters`` (a duel, a free-for-all of four, a brute against a scripted gang)
play every step of the reference fight (100 seeds in CI; ``scripts/kernel_diff.py`` plays 1,000); the kernel's
decision (:func:`ashfall.kernel.ai.decide`) equals ``TacticalPolicy.choose`` on every state a reference fight
reaches; the lowered plan tables are the AI's own best plans; ``round9`` is CPython's ``round(x, 9)``; what the
slice lacks is named, never played wrong; and a kernel with a broken AI table must diverge.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ashfall.ai import TacticalPolicy
from ashfall.ai.choice import Choice
from ashfall.ai.plans import Setting, plan_key
from ashfall.ai.profile import attack_options, shots_left
from ashfall.ai.sight import situation_of
from ashfall.ai.turn import TurnView, hp_left
from ashfall.content.schema import Attributes, Creature, DrEntry, MoraleProfile
from ashfall.core.types import Condition
from ashfall.engine import (
    Aim,
    AllOutAttack,
    Engine,
    Feint,
    FullAutoBurst,
    PowerStrike,
    Reload,
    Step,
    Stride,
    Strike,
    Trip,
)
from ashfall.engine.effects import EffectKind
from ashfall.engine.reactions import can_react
from ashfall.grid.board import Board, CoverLevel, CoverObject, Terrain
from ashfall.kernel import ai as kai
from ashfall.kernel import covering as kcov
from ashfall.kernel import fight as kf
from ashfall.kernel import maneuvers as kmv
from ashfall.kernel.brace import FX_BRACED
from ashfall.ruleset import preset
from ashfall.sim import kernel_ai_lower as kal
from ashfall.sim.fight import run_fight
from ashfall.sim.kernel_ai_lower import FIRST_BLOCKS, WIND_ON
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.kernel_run import KernelSetup, burst_tab, kernel_signature
from ashfall.sim.policy import Policy, ScriptedTactics
from ashfall.sim.runner import play
from ashfall.sim.setups import Fight, FightSetup, InlineCombatant, InlineSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import (
    AI_AMONG_COVER,
    AI_DUEL,
    AI_FILES,
    AI_FREE_FOR_ALL,
    AI_GANG,
    AI_SECOND_WIND,
    OWN,
    InlineWithPolicies,
    plays_like_the_reference_or_is_named,
    seeds,
    setup_of,
)

CI_SEEDS = 100
AI_SETS = [(path, "ashfall-1") for path in AI_FILES] + [(AI_AMONG_COVER, OWN)]
AI_IDS = [path.stem for path in AI_FILES] + [f"{AI_AMONG_COVER.stem}-{OWN}"]


@pytest.mark.rule("ACT-2", "ACT-3", "RX-21", "MAA-5", "MAA-7", "MAP-1", "E-01", "POS-1", "RX-26")
@pytest.mark.parametrize(("path", "edition"), AI_SETS, ids=AI_IDS)
def test_kernel_ai__plays_every_step_of_the_reference_fight(path: Path, edition: str) -> None:
    report = compare_engines(setup_of(path, edition), seeds(CI_SEEDS), reference_signature, kernel_signature)
    assert report.identical, report.first
    assert len(report.seeds) == CI_SEEDS


@pytest.mark.parametrize(("path", "edition"), AI_SETS, ids=AI_IDS)
def test_kernel_ai__simulator_rows_equal_the_reference_engine_rows(path: Path, edition: str) -> None:
    setup = setup_of(path, edition)
    kernel = KernelSetup(setup)
    for seed in seeds(20, sweep=5):
        assert kernel.result(seed) == play(setup, seed)


@pytest.mark.rule("E-31", "DEATH-17", "SWP-3", "E-37")
def test_kernel_ai__an_ai_team_whose_allies_fall_dying_plays_under_edition_1_and_is_named_under_edition_2() -> None:
    brawl = Path(__file__).parent / "encounters" / "scripted-brawl-on-a-grid.yaml"
    assert check(setup_of(brawl, "ashfall-1")) is None  # scripted: on the kernel
    # played by the AI: its allies fall dying (PCs) and edition 1's Medicine check beside one is mirrored (E-31)
    assert check(_AllAi(setup_of(brawl, "ashfall-1"))) is None
    named = check(_AllAi(setup_of(brawl, "ashfall-2")))
    assert named is not None and named.startswith("the tactical AI's Sweeping Strike among several enemies")


class _AllAi:
    """An encounter with every creature played by the tactical AI."""

    def __init__(self, inner: FightSetup) -> None:
        self.inner = inner
        self.name, self.ruleset_name = inner.name, inner.ruleset_name

    def build_fight(self, seed: int) -> Fight:
        fight = self.inner.build_fight(seed)
        fight.policies = {cid: TacticalPolicy() for cid in fight.policies}
        return fight

    def portable(self) -> _AllAi:
        return self


# ----- the decision itself, on every state a reference fight reaches -----


class _Checked(TacticalPolicy):
    """The tactical AI, with the kernel's decision taken on the same state at every choice and compared."""

    __slots__ = ("kernel", "seen")

    def __init__(self, kernel: KernelSetup) -> None:
        super().__init__()
        self.kernel = kernel
        self.seen: list[tuple[Any, Any]] = []

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        choice = super().choose(engine, actor)
        if engine.state.active_id == actor and not engine.state.ended:
            self.seen.append((_expected(choice), _kernel_choice(self.kernel, engine, actor)))
        return choice


def checked_decisions(setup: FightSetup, trial_seeds: list[int],
                      checker: type[_Checked] = _Checked) -> list[object]:
    """Every decision the AI makes in the reference fights of ``trial_seeds``, each asserted equal to the kernel's."""
    kernel = KernelSetup(setup)
    seen: list[object] = []
    for seed in trial_seeds:
        fight = setup.build_fight(seed)
        checked = checker(kernel)
        policies = {cid: checked if isinstance(p, TacticalPolicy) else p for cid, p in fight.policies.items()}
        run_fight(lambda _, f=fight: f.engine, seed, policies, max_rounds=fight.round_limit)
        for expected, got in checked.seen:
            assert got == expected
            seen.append(expected)
    return seen


def _expected(choice: Choice | None) -> tuple[object, ...]:
    intent = None if choice is None else choice.intent
    if intent is None:
        return ("end",)
    if isinstance(intent, Step):
        return ("step", intent.to)
    if isinstance(intent, Stride):
        return ("stride", intent.path)
    if isinstance(intent, Aim):
        return ("aim",)
    if isinstance(intent, Reload):
        return ("reload", intent.weapon)
    if isinstance(intent, FullAutoBurst):  # the targets in the AI's order: the primary, then its group
        return ("burst", intent.targets, intent.weapon)
    codes = {Strike: "strike", PowerStrike: "power-strike", AllOutAttack: "all-out-attack", Trip: "trip",
             Feint: "feint"}
    target = intent.targets[0] if isinstance(intent, AllOutAttack) else intent.target
    if choice is not None and choice.candidate is not None and choice.candidate.plan.option.index > 0:
        option = choice.candidate.plan.option
        return ("attack", target, codes[type(intent)], option.weapon_id, option.thrown)
    return ("attack", target, codes[type(intent)])


def _feint_bits(c: Any, state: Any, ids: Any) -> Any:
    """The compiled fight's Feint bits of ``c`` (``kmv.FX_*``): whom it feinted this turn (FNT-7), the advantage it won
    on whom (FNT-3)."""
    bits = np.zeros((len(ids), len(ids)), np.int64)
    me = list(ids).index(c.id)
    for tid in c.turn.feinted:
        bits[me, list(ids).index(tid)] |= kmv.FX_FEINTED
    for e in state.effects_on(c.id, EffectKind.ADVANTAGE_NEXT_ATTACK):
        if e.against is not None and str(e.rule) == "FNT-3":
            bits[me, list(ids).index(e.against)] |= kmv.FX_ADV
    if state.effects_on(c.id, EffectKind.CANNOT_MOVE):  # a Brace stopped it this turn (X-20, ``kernel.brace``)
        bits[me, me] |= FX_BRACED
    for e in state.effects_on(c.id, EffectKind.SUPPRESSED):  # pinned by Covering Fire (SUP-11, ``kcov.FX_PINNED``)
        bits[me, list(ids).index(e.source)] |= kcov.FX_PINNED
    return bits


def _kernel_choice(kernel: KernelSetup, engine: Engine, actor: str) -> tuple[object, ...]:
    """:func:`ashfall.kernel.ai.decide` on the engine's state, as the compiled turn would ask it."""
    lo, state = kernel.lowered, engine.state
    roster = list(state.combatants.values())
    ids = [c.id for c in roster]
    c = state.get(actor)
    if c.turn.actions_left <= 0:
        return ("end",)
    vit = np.array([3 if x.health.is_dead else 0 if not x.health.is_down else 1 for x in roster], np.int64)
    arr = dict(
        prone=np.array([int(x.has(Condition.PRONE)) for x in roster], np.int64),
        hp=np.array([x.health.hp for x in roster], np.int64), temp=np.array([x.health.temp_hp for x in roster],
                                                                            np.int64),
        react=np.array([int(can_react(state, x) is None) for x in roster], np.int64),
        px=np.array([x.position[0] if x.position else 0 for x in roster], np.int64),
        py=np.array([x.position[1] if x.position else 0 for x in roster], np.int64))
    size = lo.dist.shape[0] * lo.dist.shape[1] * 2 + 1
    path_x, path_y = np.zeros(size, np.int64), np.zeros(size, np.int64)
    ai = lo.ai
    me = ids.index(actor)
    foes = [e for e in range(len(ids)) if lo.side[e] != lo.side[me] and vit[e] == kf.ALIVE]
    value = np.zeros(len(ids), np.float64)
    mvalue = np.zeros(len(ids), np.float64)
    px, py = arr["px"], arr["py"]
    o = ai.options
    for e in foes:
        code = kf._situation(e, me, 1, lo.side, vit, arr["prone"], px, py, lo.dist, lo.flank_geo, lo.flanker,
                             lo.threat_ft, lo.sight) % 4  # flanking and "within 5 ft"; the view is the AI's own
        hit = ai.enemy_hit_prone if arr["prone"][e] and lo.maneuvers.ints[0] else ai.enemy_hit  # C-PRO, E-37
        value[e] = hit[e, me, code + 4 * ai.view[px[e], py[e], px[me], py[me]]]
        best = o.prone_fire[0] if arr["prone"][e] and lo.maneuvers.ints[0] else o.melee_best  # C-PRO, E-37
        if lo.covering is not None and state.effects_on(ids[e], EffectKind.SUPPRESSED):  # pinned (SUP-11)
            hit, best = lo.covering.enemy_hit, lo.covering.melee_best
            value[e] = hit[e, me, code + 4 * ai.view[px[e], py[e], px[me], py[me]]]
        mvalue[e] = value[e] if o.melee_best.shape[0] != len(ids) else \
            best[e, me, code + 4 * ai.view[px[e], py[e], px[me], py[me]]]
    aimed = int(bool(state.effects_on(actor, EffectKind.AIMED)))
    r = ai.ranged  # the rounds loaded now, where counted (G-31)
    ammo_left = np.full_like(r.ammo, -1)  # per gun, in the kernel's slots of further options
    for i, x in enumerate(roster):
        for xo, further in enumerate(kernel_options(x, state)[1:]):
            if r.ammo[i, xo] >= 0:
                ammo_left[i, xo] = shots_left(x, further)
    burst_out = np.full(len(ids), -1, np.int64)
    kind, target, activity, went = kai.decide(
        me, c.turn.actions_left, c.turn.attack_rolls, c.turn.strike_actions, lo.side, vit, arr["prone"], arr["hp"],
        arr["temp"], arr["react"], arr["px"], arr["py"], lo.dist, lo.reach_ft, lo.speed, lo.price, lo.offsets,
        ai.plan_frac, ai.plan_drop, ai.plan_first, value, ai.config, ai.ints, path_x, path_y, ai.view, o.count,
        o.ranged, o.limit, o.frac, o.drop, o.first, mvalue, o.throw_hit, o.throw_ft, aimed, ai.open_frac,
        ai.open_drop, ai.open_first, int(lo.maneuvers.ints[0]),
        np.zeros((lo.dist.shape[0], lo.dist.shape[1], len(ids)), np.int64),  # alone on its side: never flanking
        o.prone_fire[1], int(o.shot[0]), ammo_left, r.slots, r.capacity, np.zeros(1, np.float64),
        (o.throw2_hit, o.throw2_ft, o.prone_fire[2], burst_tab(o.burst), burst_out, o.normal, o.total,
         burst_tab(ai.sweep), r.threat_slot),
        _feint_bits(c, state, ids))
    if kind == kai.APPROACH:
        wanted = np.array([int(e in foes) for e in range(len(ids))], np.int64)
        # within its melee reach, or the ranged reach decide says with a line of fire (COV-3)
        went = kf._approach(me, wanted, lo.side, vit, arr["px"], arr["py"], int(lo.reach_ft[me]), int(lo.speed[me]),
                            lo.price, lo.offsets, lo.dist, path_x, path_y, lo.sight, went, ai.view, o.total)
        kind = kai.STRIDE if went > 0 else kai.BAIL
        for xo in range(ammo_left.shape[1]) if went == 0 else ():  # top up the first partly spent gun (``_idle``)
            if 0 < ammo_left[me, xo] < r.capacity[me, xo]:
                kind, activity = kai.RELOAD, xo
                break
    slots = kernel_options(c, state)  # the kernel's order: its first melee option first, a gun before it next
    if kind == kai.RELOAD:
        return ("reload", slots[activity + 1].weapon_id)
    if kind == kai.END:
        return ("end",)
    if kind == kai.STEP:
        return ("step", (int(path_x[0]), int(path_y[0])))
    if kind == kai.STRIDE:
        return ("stride", tuple((int(path_x[s]), int(path_y[s])) for s in range(went)))
    if kind == kai.ATTACK:
        names = {code: block.value for block, code in FIRST_BLOCKS.items()} | {kmv.TRIP_FIRST: "trip",
                                                                                          kmv.FEINT_FIRST: "feint"}
        option, block = slots[activity // kai.OPTION], activity % kai.OPTION
        if activity >= kai.OPTION:  # a further way to attack (or Aim)
            if block == kai.AIM_BLOCK:
                return ("aim",)
            if block == kai.BURST:
                return ("burst", (ids[target], *(ids[int(e)] for e in burst_out if e >= 0)), option.weapon_id)
            if block == kai.RELOAD_BLOCK:
                return ("reload", option.weapon_id)
        if option.index > 0:  # named by its weapon and mode unless it is the AI's first option (``_expected``)
            return ("attack", ids[target], names[block], option.weapon_id, option.thrown)
        return ("attack", ids[target], names[block])
    return ("bail",)


@pytest.mark.parametrize(("path", "edition"), [(AI_FREE_FOR_ALL, "ashfall-1"), (AI_GANG, "ashfall-1"),
                                               (AI_AMONG_COVER, OWN), (AI_DUEL, "ashfall-2")],
                         ids=["free-for-all", "gang", "cover", "duel-edition-2-trip"])
def test_kernel_ai_decide__equals_tactical_policy_choose_on_every_state(path: Path, edition: str) -> None:
    setup = setup_of(path, edition)
    assert len(checked_decisions(setup, seeds(12, sweep=21))) > 100


def test_kernel_ai_tables__are_the_ais_own_best_plans() -> None:
    """Each looked-up plan is ``TurnView.best_plan``'s on the built fight: value, drop chance and first block."""
    setup = setup_of(AI_DUEL, "ashfall-1")
    kernel = KernelSetup(setup)
    fight = setup.build_fight(0)
    state = fight.engine.state
    ai = kernel.lowered.ai
    roster = list(state.combatants.values())
    checked = 0
    for i, c in enumerate(roster):
        policy = fight.policies[c.id]
        assert isinstance(policy, TacticalPolicy)
        for j, t in enumerate(roster):
            if t.side == c.side:
                continue
            view = TurnView(fight.engine, c, (t,))
            option = view.options[0]
            base = view._base_in(t, option, 12, False)  # the AI's code of a melee attack from beside (8 | 4)
            assert base is not None
            for steps in range(ai.plan_frac.shape[3]):
                for left in range(1, ai.plan_frac.shape[4]):
                    for hp in (1, 5, hp_left(t)):
                        setting = Setting(option, {t.id: base}, {}, {t.id: hp}, {}, steps, None,
                                          view.available(option), {})
                        plan = view.best_plan(t.id, setting, left, full=True, openers=True,
                                              drop_step=policy.config.drop_step)
                        assert plan is not None
                        assert ai.plan_frac[i, j, 2, steps, left, hp] == plan.frac
                        assert ai.plan_drop[i, j, 2, steps, left, hp] == plan.p_drop
                        assert ai.plan_first[i, j, 2, steps, left, hp] == FIRST_BLOCKS[plan.blocks[0]]
                        assert plan_key(plan, policy.config.drop_step)[0] >= 0
                        checked += 1
    assert checked > 20


def test_kernel_ai__reads_the_fights_vitality_codes() -> None:
    assert (kai.ALIVE, kai.DEAD) == (kf.ALIVE, kf.DEAD)


def test_kernel_ai__reads_the_lowered_slots() -> None:
    assert (kai.CFG_SELF, kai.CFG_THREAT, kai.CFG_DROP, kai.CFG_ROUTES, kai.CFG_WIND, kai.CFG_LEAD, kai.CFG_OPEN) == (
        kal.CFG_SELF, kal.CFG_THREAT, kal.CFG_DROP, kal.CFG_ROUTES, kal.CFG_WIND, kal.CFG_LEAD, kal.CFG_OPEN)
    assert kal.CFG_OPEN < kal.CFG_SLOTS
    assert (kai.WIND_ON, kai.WIND_USES, kai.WIND_COST, kai.WIND_DICE, kai.WIND_SIDES, kai.WIND_FLAT, kai.WIND_TEMP) == (
        kal.WIND_ON, kal.WIND_USES, kal.WIND_COST, kal.WIND_DICE, kal.WIND_SIDES, kal.WIND_FLAT, kal.WIND_TEMP)


@pytest.mark.rule("HEAL-5", "E-30")
def test_kernel_ai_second_wind__is_the_rules_roll_and_is_used_below_half_hp() -> None:
    """Edition 1's Second Wind is 1d10 + END, one action, once; the AI's PC catches its breath in many fights."""
    setup = setup_of(AI_SECOND_WIND, "ashfall-1")
    kernel = KernelSetup(setup)
    lo = kernel.lowered
    hero = lo.ids.index("kernel-ai-hero")
    assert lo.ai.wind[hero].tolist() == [1, 1, 1, 1, 10, 2, 0]  # on, one use, one action, 1d10 + END 2, no temp HP
    assert lo.ai.wind[1 - hero, WIND_ON] == 0  # an NPC without the talent never does
    assert lo.action_names[kai.WIND_LABEL] == "second-wind"
    used = sum(any(s.action == "actions-spent:second-wind" for s in kernel.signature(seed).steps)
               for seed in seeds(40))
    assert used >= 10


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.floats(-20, 20, allow_nan=False),
                 st.builds(lambda k, d: (k + 0.5) / 1e9 + d * 1e-17, st.integers(-10**10, 10**10),
                           st.integers(-3, 3))))
def test_round9__is_cpythons_round(x: float) -> None:
    assert kai.round9(x) == round(x, 9)


# ----- a wrong AI must be caught -----


class _WrongAi:
    """The kernel with one AI table broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        ai = lo.ai
        if broken == "fearless":  # no enemy's attack is worth anything: no AoO cost, no threat (RX-21)
            ai = dataclasses.replace(ai, enemy_hit=np.zeros_like(ai.enemy_hit))
        elif broken == "breathless":  # the AI never catches its breath (HEAL-5)
            wind = ai.wind.copy()
            wind[:, WIND_ON] = 0
            ai = dataclasses.replace(ai, wind=wind)
        elif broken == "misread-cover":  # the AI sees the same cover between every two squares (COV-1, COV-2)
            ai = dataclasses.replace(ai, view=np.full_like(ai.view, ai.view.max()))
        else:  # every plan opens with a Strike (the AI's Power Strikes never made)
            first = ai.plan_first.copy()
            first[first > 0] = 0
            ai = dataclasses.replace(ai, plan_first=first)
        self.kernel.lowered = dataclasses.replace(lo, ai=ai)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize(("broken", "path", "least"), [("fearless", AI_FREE_FOR_ALL, 3),
                                                    ("only-strikes", AI_FREE_FOR_ALL, 2),
                                                    ("misread-cover", AI_AMONG_COVER, 2),
                                                    ("breathless", AI_SECOND_WIND, 10)])
def test_compare_engines__a_wrong_ai_kernel_diverges(broken: str, path: Path, least: int) -> None:
    setup = setup_of(path, OWN if path == AI_AMONG_COVER else "ashfall-1")
    report = compare_engines(setup, seeds(60), reference_signature, _WrongAi(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


# ----- random AI fights -----

WEAPONS = ("salvaged-sword", "greataxe", "sledgehammer")
TERRAIN = (Terrain.DIFFICULT, Terrain.GREATER_DIFFICULT, Terrain.WATER, Terrain.IMPASSABLE)


@dataclasses.dataclass(frozen=True, slots=True)
class _Mixed(InlineWithPolicies):
    """An inline fight whose AI creatures are played by the tactical AI and the rest by a scripted plan."""

    ai: tuple[bool, ...]

    def policy(self, index: int, combatant: InlineCombatant) -> Policy:
        return TacticalPolicy() if self.ai[index] else ScriptedTactics(combatant.plan)


@st.composite
def ai_fights(draw: st.DrawFn) -> _Mixed:
    """Two to four sides on a wide grid: one AI creature a side, or one AI creature against a scripted pair."""
    gang = draw(st.booleans())
    n_sides = 2 if gang else draw(st.integers(2, 4))
    width, height = draw(st.integers(6, 10)), draw(st.integers(5, 8))
    squares = iter(draw(st.permutations([(x, y) for x in range(width) for y in range(height)])))
    members: list[InlineCombatant] = []
    ai: list[bool] = []
    for s in range(n_sides):
        for m in range(2 if gang and s == 0 else 1):
            cid = f"c{s}{m}"
            dr = draw(st.integers(0, 2))
            creature = Creature(
                id=cid, name=cid.title(), hp=draw(st.integers(4, 40)), temp_hp=draw(st.integers(0, 5)),
                proficiency=draw(st.integers(0, 3)),
                attributes=Attributes(MIG=draw(st.integers(-1, 4)), AGI=draw(st.integers(-1, 4))),
                weapons=(draw(st.sampled_from(WEAPONS)),),
                armor=draw(st.sampled_from([None, "scrap-leathers", "flak-vest"])),
                weapon_proficiencies=frozenset({"simple", "martial"}),
                dr=(DrEntry(amount=dr, source="hide"),) if dr else (), morale=MoraleProfile(immune=True))
            plan = tuple(draw(st.lists(st.sampled_from(("strike", "power-strike")), min_size=1, max_size=2)))
            members.append(InlineCombatant(cid, f"side{s}", creature, next(squares), plan))
            ai.append(not (gang and s == 0))
    taken = {c.position for c in members}
    free = [(x, y) for x in range(width) for y in range(height) if (x, y) not in taken]
    terrain = draw(st.dictionaries(st.sampled_from(free), st.sampled_from(TERRAIN), max_size=8))
    walls = frozenset(draw(st.lists(st.sampled_from(free), max_size=5)))
    cover = draw(st.dictionaries(st.sampled_from(free), st.builds(
        CoverObject, st.sampled_from([CoverLevel.PARTIAL, CoverLevel.HEAVY]), st.booleans()), max_size=4))
    elevation = draw(st.dictionaries(st.sampled_from([(x, y) for x in range(width) for y in range(height)]),
                                     st.sampled_from([5, 10]), max_size=6))
    board = Board(width, height, terrain, walls, {sq: o for sq, o in cover.items() if sq not in walls}, elevation)
    inline = InlineSetup("random AI fight", tuple(members), preset("ashfall-1"), board, draw(st.sampled_from([3, 10])))
    return _Mixed(inline, tuple(ai))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ai_fights())
def test_random_ai_fights__kernel_matches_reference_or_names_what_it_lacks(setup: _Mixed) -> None:
    plays_like_the_reference_or_is_named(setup, 6, (setup.inline, setup.ai))


@pytest.mark.rule("COV-1", "COV-2", "POS-4")
def test_kernel_ai__values_the_cover_and_high_ground_of_every_square() -> None:
    """Among cover the AI's lowered views are its ``Sights``' own: each enemy attack on it as ``_enemy_value``."""
    setup = setup_of(AI_AMONG_COVER, OWN)
    ai = KernelSetup(setup).lowered.ai
    fight = setup.build_fight(0)
    state = fight.engine.state
    board = state.board
    assert board is not None
    raider, warden = state.combatants.values()
    view = TurnView(fight.engine, raider, (warden,))
    option = attack_options(warden, state)[0]
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]
    values = set()
    for a_sq in squares:
        for t_sq in squares:
            if a_sq == t_sq:
                continue
            code = view.sights.code(warden, (t_sq,), raider, (a_sq,), False)
            close = 2 if situation_of(code).within_5ft else 0
            got = ai.enemy_hit[1, 0, close + 4 * ai.view[t_sq[0], t_sq[1], a_sq[0], a_sq[1]]]
            assert got == view._enemy_value(warden, option, code)
            values.add(got)
    assert len(values) >= 3  # open, partial and heavy cover
