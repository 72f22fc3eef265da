"""The tactical AI's first slice in the fight kernel: which AI-played creatures it plays, and their value tables.

:func:`ai_problem` names the first part of the tactical AI (:class:`~ashfall.ai.TacticalPolicy`) a creature it
plays could need that the kernel does not mirror yet; :func:`lower_ai` turns the AI's judgement of a supported
fight into tables (:class:`AiTables`) the compiled turn (:mod:`ashfall.kernel.ai`) only looks up and compares.

The slice: creatures of one square with melee weapons and at most one thrown weapon
(:mod:`ashfall.sim.kernel_weapons_lower`), played by the AI with its default switches, with no ally on their side
(so the AI never withdraws, DOD-1, saves a dying ally or Intercepts for one), not a leader that may rally (MOR-25: one
whose side has a morale group; with none its Rally is never legal), PCs catching
their breath below half HP (Second Wind, HEAL-5, its roll and the temporary HP edition 2 grants, THP-5, read off the
rules' own ``second_wind``), creatures that fall dying only where dropping ends the fight (two sides, nobody else on
theirs), with edition 2's Trip and Feint as its openers where it stands (E-37, :mod:`ashfall.sim.kernel_maneuvers`;
a Feint it does not mirror is named), on a grid the kernel's approach plays (terrain, walls, cover objects, height;
no total cover between two squares side by side). There it weighs every square it can attack from this turn (stay,
Step, one or two Strides around walls: the AI's own ``routes``, mirrored), every target within reach and every plan
of its remaining actions (Strike, Power Strike, All-Out Attack) in the situation its ``Sights`` read from that
square (cover and high ground, COV-1..3, POS-4: the lowered ``view``), net of the Attacks of Opportunity a route
provokes and the fire its square invites, focuses fire, and otherwise closes in (``_approach``).

No value is restated: ``plan_frac``/``plan_drop``/``plan_first`` are the AI's own best plan
(:func:`~ashfall.ai.plans.plans_for` ranked by :func:`~ashfall.ai.plans.plan_key`, as ``TurnView.best_plan``
does) for every attacker, target, situation code, MAP steps so far, actions left and target HP left, on the
odds inputs the AI builds (``base_for`` with the situation code the AI's ``Sights`` give a melee attack from
beside the target); ``enemy_hit`` is the mean damage of each enemy's first attack on the AI creature in each
situation, which the AI uses both for an Attack of Opportunity's cost (``aoo_damage``) and for the fire a
square invites (``ranged_threat``'s melee part). The weights come from the policy's own config.

The same decision answers a scripted plan without a target rule (``ScriptedTactics`` asking
``ashfall.ai.target_choice`` whom to attack: the AI's focus-fire pick with its default config,
:func:`chooser_problem`): its tables are lowered for that creature too, with flanking (its allies may flank), and
under edition 2 with the openers its candidates weigh where it stands (E-37, ``kernel_maneuvers.weighs_openers``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalConfig, TacticalPolicy, target_choice
from ashfall.ai.odds_cache import attack_value, ruleset_token
from ashfall.ai.plan_tables import best_at_each_hp
from ashfall.ai.plans import Block, Setting, drafts_for
from ashfall.ai.profile import AttackBase, attack_options, base_for
from ashfall.ai.sight import Sights, situation_code, situation_of
from ashfall.ai.turn import TurnView
from ashfall.core.rng import Rng
from ashfall.core.types import Attribute
from ashfall.engine import Combatant, Step
from ashfall.engine.records import Tally
from ashfall.families.dying.ai import SECOND_WIND_TALENT
from ashfall.families.dying.moves import recovery_of
from ashfall.families.dying.rules_healing import second_wind as rules_second_wind
from ashfall.families.dying.rules_recovery import Recovery
from ashfall.grid.board import SQUARE_FT, Terrain
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.defense import Cover
from ashfall.rules.health import falls_dying
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import Diagonals, MapCounting
from ashfall.sim.kernel_allies_lower import WithdrawTables, allies_problem, lower_withdrawing, no_withdrawing
from ashfall.sim.kernel_burst_lower import BurstTables, empty_bursts
from ashfall.sim.kernel_faces import Faces
from ashfall.sim.kernel_maneuvers import maneuver_problem, opener_tables, weighs_openers
from ashfall.sim.kernel_option_slots import kernel_options, leads
from ashfall.sim.kernel_ranged_lower import RangedTables, bursts, bursts_played, empty_ranged, shot_ok
from ashfall.sim.kernel_sweep_lower import lower_sweeps
from ashfall.sim.kernel_weapons_lower import OptionTables, empty_options, options_problem
from ashfall.sim.policy import ScriptedTactics
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

FIRST_BLOCKS = {Block.STRIKE: 0, Block.POWER: 1, Block.ALL_OUT: 2}
"""A plan's first block as the kernel's activity code (``kernel_lower.ACTIVITY_CODES``)."""
CFG_SELF, CFG_THREAT, CFG_DROP, CFG_ROUTES, CFG_WIND, CFG_LEAD, CFG_OPEN = 0, 1, 2, 3, 4, 5, 6
"""Slots of ``AiTables.config``: ``self_weight``, ``threat_weight``, ``drop_step``, ``max_routes``,
``second_wind_below``, 1 where the AI weighs its first further option (a gun) before its first (melee) one
(``kernel_option_slots.leads``), and 1 where its choice weighs edition 2's openers Trip and Feint (E-37: the
config's ``openers`` under ``checks.new_maneuvers``; a scripted plan's target choice too, ``weighs_openers``)."""
CFG_SLOTS = 7
"""Columns of ``AiTables.config``."""
WIND_ON, WIND_USES, WIND_COST, WIND_DICE, WIND_SIDES, WIND_FLAT, WIND_TEMP = 0, 1, 2, 3, 4, 5, 6
"""Slots of ``AiTables.wind``: whether the AI uses Second Wind for it (HEAL-5), the uses left, the actions it
costs, its roll (dice, sides, the flat part), and the temporary HP it grants (THP-5, E-30; 0 for none), which
replace lower temporary HP and never stack (THP-2)."""
INT_PER_ROLL, INT_ALTERNATING, INT_STEP_COST = 0, 1, 2
"""Slots of ``AiTables.ints``: MAP counted per attack roll (else per Strike action, E-01), the alternating
diagonal rule (G-37), what a Step costs (ACT-3)."""


class KernelAiUnsupported(ValueError):
    """The AI's tables cannot be lowered exactly (the message names why)."""


@dataclass(frozen=True, slots=True)
class AiTables:
    """The tactical AI of a fight, as the compiled turn reads it (every array indexed by roster position first).

    Attributes:
        on: 1 where the tactical AI plays the combatant.
        plan_frac: ``[attacker, target, situation, MAP steps, actions left, HP left]`` the best plan's expected
            share of the target's HP removed (``Plan.frac``).
        plan_drop: The same plan's chance to drop the target (``Plan.p_drop``).
        plan_first: Its first block as an activity code (-1: no plan).
        enemy_hit: ``[enemy, combatant, situation]`` the mean damage of the enemy's first attack (no MAP) on it.
        view: ``[ax, ay, tx, ty]`` what the AI sees between an attacker's and a target's square (its ``Sights``:
            cover and high ground, COV-1..3, POS-4), as an index; a situation code is flanking, plus 2 within
            5 ft, plus 4 times it.
        config: ``[combatant, slot]`` the policy's weights (``CFG_*``).
        ints: The ruleset's switches the AI reads (``INT_*``).
        wind: ``[combatant, slot]`` Second Wind as the AI uses it (``WIND_*``).
        open_frac: ``[variant, attacker, target, situation, MAP steps, actions left, HP left]`` the best plan's
            share with edition 2's openers where it stands, and against prone targets (E-37,
            :func:`~ashfall.sim.kernel_maneuvers.opener_tables`; all ones' shape without them).
        open_drop: That plan's chance to drop the target.
        open_first: Its first block (``kernel_maneuvers.TRIP_FIRST`` for a Trip).
        enemy_hit_prone: ``enemy_hit`` with the enemy lying prone (C-PRO).
        options: The further ways to attack (thrown weapons, other melee weapons) and the fire of enemies' ones
            (:mod:`ashfall.sim.kernel_weapons_lower`).
        chooser: 1 where a scripted plan without a target rule asks the AI whom to attack (``target_choice``:
            its focus-fire pick, with the AI's default config; the tables above are lowered for it too).
        ranged: The rounds loaded in ranged weapons with ammunition, Reload's cost and the plans' ammunition slots
            (:mod:`ashfall.sim.kernel_ranged_lower`, G-31).
        withdraw: What its withdrawal check reads for a creature with allies (DOD-1, DOD-2,
            :mod:`ashfall.sim.kernel_allies_lower`).
        sweep: The Sweeping Strike among several enemies a scripted plan's target choice weighs with its melee
            options where it stands (SWP-3, E-37, :mod:`ashfall.sim.kernel_sweep_lower`).
    """

    on: I64
    plan_frac: F64
    plan_drop: F64
    plan_first: I64
    enemy_hit: F64
    config: F64
    ints: I64
    view: I64
    wind: I64
    open_frac: F64
    open_drop: F64
    open_first: I64
    enemy_hit_prone: F64
    chooser: I64
    options: OptionTables = field(default_factory=lambda: empty_options(1))
    ranged: RangedTables = field(default_factory=lambda: empty_ranged(1))
    withdraw: WithdrawTables = field(default_factory=lambda: no_withdrawing(1))
    sweep: BurstTables = field(default_factory=lambda: empty_bursts(1))


def ai_problem(fight: Fight, c: Combatant) -> str | None:
    """What the kernel lacks to play the tactical AI for ``c`` (None: the slice covers it)."""
    state = fight.engine.state
    policy = fight.policies.get(c.id)
    assert isinstance(policy, TacticalPolicy)
    rs = state.ruleset
    if policy.config.brutal or not policy.config.openers:
        return f"the tactical AI with non-default switches (combatant {c.id})"
    if state.board is None:
        return f"the tactical AI off the map (combatant {c.id})"
    if state.allies_of(c.id):  # flanking with them, withdrawing (stopped), a dying ally (``kernel_allies_lower``)
        problem = allies_problem(fight, c)
        if problem is not None:
            return problem
    sides = {other.side for other in state.combatants.values()}
    for other in state.combatants.values():
        # one that drops dying with nobody left on its side in a fight of two sides ends the fight (DEATH-1): the
        # AI never meets a dying creature; with allies or a third side fighting on it would
        if falls_dying(other.health, rs) and (state.allies_of(other.id) or len(sides) > 2) and \
                not _meets_the_dying(fight):
            return f"the tactical AI among creatures that fall dying (combatant {other.id})"
    for who in (c, *state.enemies_of(c.id)):  # its own options, and those whose fire it weighs
        problem = options_problem(fight, who)
        if problem is not None:
            return problem
    view = TurnView(fight.engine, c, ())
    # multi-target blocks take further targets only with two or more in reach (``multi_targets``)
    several = len(state.enemies_of(c.id)) > 1
    multi = {Block.SWEEP, *((Block.FULL_AUTO,) if bursts(state) else ())} if several else set()
    options = attack_options(c, state)
    for option in options:
        available = view.available(option)
        if Block.SWEEP in available and several and rs.checks.new_maneuvers:  # alone against one: no second target
            return f"the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37, combatant {c.id})"
        played = {Block.FULL_AUTO} if option.ranged and bursts_played(fight) else set()  # ``kernel_burst_lower``
        if available & ({Block.EXTRA, *multi} - played):
            return f"the tactical AI's multi-target and extra attacks (combatant {c.id})"
    return maneuver_problem(fight)


def _meets_the_dying(fight: Fight) -> bool:
    """Whether the kernel mirrors the AI among dying creatures in this fight: where some AI creature has allies.

    Then the fight is one the allies' slice covers (:func:`~ashfall.sim.kernel_allies_lower.allies_problem`: nobody
    the AI plays treats a dying ally), and a dying creature is neither a target (``standing_targets``) nor a square
    to end a move on, a flanker only as E-22 says, and rolls its death saves as any dying creature does.
    """
    state = fight.engine.state
    return any(isinstance(p, TacticalPolicy) and state.allies_of(cid) for cid, p in fight.policies.items())


def _winds(policy: TacticalPolicy, c: Combatant) -> bool:
    """Whether the AI would use Second Wind for ``c`` (``families.dying.ai.second_wind``: PCs, the talent, or all)."""
    return policy.config.second_wind_for_all or c.creature.is_pc or SECOND_WIND_TALENT in c.creature.talents


def asks_the_ai(fight: Fight, c: Combatant) -> bool:
    """Whether ``c``'s scripted plan asks the AI whom to attack (no target rule, more than one enemy)."""
    policy = fight.policies.get(c.id)
    return isinstance(policy, ScriptedTactics) and policy.chooser is not None and \
        len(fight.engine.state.enemies_of(c.id)) > 1


def decision_config(fight: Fight, c: Combatant) -> TacticalConfig:
    """The config the AI decides with for ``c``: its policy's, else the default (a scripted plan's target choice).

    ``ashfall.ai.target_choice`` asks a ``TacticalPolicy`` with the default ``TacticalConfig``.
    """
    policy = fight.policies.get(c.id)
    return policy.config if isinstance(policy, TacticalPolicy) else TacticalConfig()


def chooser_problem(fight: Fight, c: Combatant) -> str | None:
    """What the kernel lacks to mirror the AI's target choice for ``c``'s scripted plan (None: it mirrors it).

    The choice is ``TacticalPolicy.preferred_target``: the AI's own candidates and focus fire (the compiled
    ``decide``) with the AI's default config, so it needs what the AI's attack needs of ``c`` (:func:`ai_problem`'s
    slice, allies allowed: their flanking is read off the squares) on a grid the kernel's approach plays. Its
    several ways to attack are weighed as the AI weighs its own (melee weapons of 5-ft reach and a thrown weapon's
    throw: ``kernel_weapons_lower``, whose plan tables are lowered for it too), and each enemy's as the AI weighs
    them in the fire a square invites (``options_problem``, as for the enemies of a creature the AI plays). The plan
    itself attacks with its own weapons in order (``ScriptedTactics._attack``: ``extra_weapons_problem``), so its
    throw is only weighed; a gun's plans would count rounds the plan never spends (named). Under edition 2 the AI's
    candidates where it stands open with Trip and Feint (E-37): their plans are lowered for it as for a creature the
    AI plays (``kernel_maneuvers.opener_tables``, ``weighs_openers``), read only to rank targets, since the plan
    never trips nor feints; so are its melee options' Sweeping Strikes among several enemies there (SWP-3,
    ``kernel_sweep_lower``), which the plan never makes either. Without edition 2's openers a Sweeping Strike is named.
    """
    state = fight.engine.state
    policy = fight.policies.get(c.id)
    assert isinstance(policy, ScriptedTactics)
    rs = state.ruleset
    if policy.chooser is not target_choice:
        return f"a target chooser other than the AI's (combatant {c.id})"
    if state.board is None:
        return f"the AI's target choice off the map (combatant {c.id})"
    options = attack_options(c, state)
    if any(shot_ok(o) for o in options):
        return f"the AI's target choice weighing a gun's rounds (G-31, combatant {c.id})"
    problem = options_problem(fight, c, shoots=False)
    if problem is not None:
        return f"the AI's target choice: {problem}"
    for e in state.enemies_of(c.id):  # the fire a square invites weighs each enemy's ways to attack (an enemy the AI
        problem = options_problem(fight, e, shoots=False)  # plays has its own ranged attacks checked: ``ai_problem``)
        if problem is not None:
            return f"the AI's target choice against enemies: {problem}"
    view = TurnView(fight.engine, c, ())
    multi = {Block.SWEEP, *((Block.FULL_AUTO,) if bursts(state) else ())}  # among several enemies, as ``ai_problem``
    for option in options:
        played = {Block.FULL_AUTO} if option.ranged and bursts_played(fight) else set()  # ``kernel_burst_lower``
        if not option.ranged and rs.checks.new_maneuvers and decision_config(fight, c).openers:
            played.add(Block.SWEEP)  # weighed beside the openers where it stands (``kernel_sweep_lower``)
        if view.available(option) & ({Block.EXTRA, *multi} - played):
            return f"the AI's target choice weighing multi-target and extra attacks (combatant {c.id})"
    return None


def _wind(fight: Fight, c: Combatant) -> tuple[int, int, int, int, int, int, int]:
    """Second Wind's row of ``AiTables.wind`` for ``c``, its roll read off the rules' own ``second_wind``.

    Rolled once with every face 1 and once with every face its highest, from 1 HP: the dice must be of one kind and
    the heal their sum plus a flat part (capped at the maximum by ``heal``, checked from one HP short of it).
    """
    state = fight.engine.state
    rs = state.ruleset
    recovery = recovery_of(c, state)
    end = c.creature.attributes[Attribute.END]
    low, high = Faces(1), Faces(1000)
    health = replace(c.health, hp=1, temp_hp=0)
    least = rules_second_wind(health, recovery, end, cast(Rng, low), rs).health.hp - 1
    most = rules_second_wind(health, recovery, end, cast(Rng, high), rs).health.hp - 1
    sides = set(low.sides)
    flat = least - len(low.sides)
    if len(sides) > 1 or low.sides != high.sides or most != min(c.health.max_hp - 1, flat + sum(high.sides)):
        raise KernelAiUnsupported(f"the tactical AI's Second Wind with an uneven roll (HEAL-5, combatant {c.id})")
    near_full = replace(c.health, hp=c.health.max_hp - 1, temp_hp=0)
    if rules_second_wind(near_full, recovery, end, cast(Rng, Faces(1000)), rs).health.hp != c.health.max_hp:
        raise KernelAiUnsupported(f"the tactical AI's Second Wind past maximum HP (HEAL-5, combatant {c.id})")
    uses = max(0, rs.healing.second_wind_uses - c.supplies.count(Tally.SECOND_WIND))
    return (1, uses, rs.healing.second_wind_actions, len(low.sides), sides.pop() if sides else 1, flat,
            _wind_temp(c, recovery, end, rs))


def _wind_temp(c: Combatant, recovery: Recovery, end: int, rs: Ruleset) -> int:
    """The temporary HP Second Wind grants ``c`` (THP-5, E-30: 0 in edition 1), read off the rules' ``second_wind``.

    The grant is what a creature without temporary HP is left with; the kernel keeps the higher of it and what the
    creature has (THP-2: they never stack), which is checked here with one less and one more than the grant.
    """

    def after(temp_hp: int) -> int:
        health = replace(c.health, hp=1, temp_hp=temp_hp)
        return rules_second_wind(health, recovery, end, cast(Rng, Faces(1)), rs).health.temp_hp

    grant = after(0)
    if any(after(had) != max(had, grant) for had in (max(0, grant - 1), grant + 1)):
        raise KernelAiUnsupported(f"the tactical AI's Second Wind with stacking temporary HP (THP-2, combatant "
                                  f"{c.id})")
    return grant


def _melee_code(flanking: bool, close: bool, hostile: bool, view: int = 0) -> int:
    """The AI's situation code (``Sights.code``) of a melee attack with what lies between in ``view`` (a code)."""
    return situation_code(replace(situation_of(view), flanking=flanking, hostile_within_5ft=hostile,
                                  within_5ft=close))


def _views(fight: Fight, roster: Sequence[Combatant], played: Sequence[Combatant]) -> tuple[I64, list[int]]:
    """What the AI's ``Sights`` read between every two squares for the melee attacks of and on the ``played``.

    Returns the table ``[ax, ay, tx, ty]`` of view indices and the views by index (situation codes without
    flanking and "within 5 ft", index 0 the open view). Cover and high ground are a pure function of the board
    and the two squares (``sightline``), checked the same for every pair of creatures; the other bits are the
    creatures' (surprise, unseen, leaning out: refused). Total cover within 5 ft (within a reach weapon's 10 ft for
    one who wields it) is refused too: the AI closes in on a square within its reach of a target whatever lies
    between (``_approach``), the kernel's approach does not.
    """
    state = fight.engine.state
    board = state.board
    assert board is not None
    sights = Sights(state)
    views = [_melee_code(False, False, False)]
    table = np.zeros((board.width, board.height, board.width, board.height), np.int64)
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]  # nobody stands anywhere else
    pairs = [(a, t) for a in roster for t in roster if a.side != t.side and (a in played or t in played)]
    # the AI closes in to within its melee reach whatever lies between (``_approach``): 5 ft, or a reach weapon's 10
    near = max([1, *(o.limit_ft // SQUARE_FT for c in played for o in kernel_options(c, state)[:1] if not o.ranged)])
    for a_sq in squares:
        for t_sq in squares:
            if a_sq == t_sq:
                continue
            found = -1
            for a, t in pairs:
                sit = situation_of(sights.code(a, (a_sq,), t, (t_sq,), False))
                if sit.flat_footed or sit.unseen_attacker or sit.leaning_out:
                    raise KernelAiUnsupported(f"the tactical AI with surprise, unseen attackers or leaning out "
                                              f"(combatant {a.id})")
                code = _melee_code(False, False, False, situation_code(replace(
                    sit, flanking=False, hostile_within_5ft=False, within_5ft=False)))
                if found >= 0 and views[found] != code:
                    raise KernelAiUnsupported(f"the tactical AI where sight differs by creature (combatant {a.id})")
                if sit.cover is Cover.TOTAL and max(abs(a_sq[0] - t_sq[0]), abs(a_sq[1] - t_sq[1])) <= near:
                    raise KernelAiUnsupported(f"the tactical AI beside total cover (combatant {a.id})")
                if code not in views:
                    views.append(code)
                found = views.index(code)
            table[a_sq[0], a_sq[1], t_sq[0], t_sq[1]] = max(found, 0)
    return table, views


def ai_views(fight: Fight, roster: Sequence[Combatant], ai: AiTables) -> list[int]:
    """The view codes of :attr:`AiTables.view`'s indices (read again, as :func:`lower_ai` read them)."""
    played = [c for i, c in enumerate(roster) if ai.on[i] or ai.chooser[i]]
    return _views(fight, roster, played)[1] if played else [_melee_code(False, False, False)]


def _base(fight: Fight, a: Combatant, t: Combatant, code: int, *, own: bool) -> AttackBase | None:
    """The AI's odds inputs of ``a``'s attack on ``t`` in a situation, as it builds them.

    ``own``: as for its own attacks (``TurnView._base_in``: the target's defenses passed in), else as for an
    enemy's attack on it (``enemy_base``).
    """
    state = fight.engine.state
    option = kernel_options(a, state)[0]  # its first melee option: the one an Attack of Opportunity's cost reads
    token = ruleset_token(state.ruleset)
    conds = (a.condition_set, t.condition_set)
    defenses = Defenses.of_creature(t.creature, t.armor, t.condition_set) if own else None
    return base_for(state, a, t, option, situation_of(code), token, defenses, conds)


def _settled_base(fight: Fight, a: Combatant, t: Combatant, flanking: bool, close: bool, view: int, *,
                  own: bool) -> AttackBase | None:
    """:func:`_base` where "a hostile within 5 ft" (AMOD-7) must not matter to a melee attack: checked, not assumed."""
    found = _base(fight, a, t, _melee_code(flanking, close, close, view), own=own)
    other = _base(fight, a, t, _melee_code(flanking, close, not close, view), own=own)
    if found != other:
        raise KernelAiUnsupported(f"melee odds that change with a hostile within 5 ft (combatant {a.id})")
    return found


def most_hp(fight: Fight, roster: Sequence[Combatant]) -> int:
    """The plan tables' last HP left: the most any creature can have.

    Second Wind heals up to the maximum (HEAL-5) and may grant temporary HP (THP-5); the first option's plan tables and
    the further options' (``kernel_weapons_lower``) share this axis.
    """
    grants = {c.id: _wind(fight, c)[WIND_TEMP] for c in roster
              if isinstance(fight.policies.get(c.id), TacticalPolicy) and
              _winds(cast(TacticalPolicy, fight.policies[c.id]), c)}
    return max(max(1, max(c.health.hp, c.health.max_hp) + max(c.health.temp_hp, grants.get(c.id, 0)))
               for c in roster)


def lower_ai(fight: Fight, roster: Sequence[Combatant], actions: int, max_map: int) -> AiTables:
    """The AI's tables for a supported fight (check :func:`ai_problem` first)."""
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    on = np.array([isinstance(fight.policies.get(c.id), TacticalPolicy) for c in roster], np.int64)
    chooser = np.array([asks_the_ai(fight, c) for c in roster], np.int64)
    config = np.zeros((n, CFG_SLOTS), np.float64)
    wind = np.zeros((n, 7), np.int64)
    hp_most = most_hp(fight, roster)
    played = bool(on.any() or chooser.any())
    sight = np.zeros((1, 1, 1, 1), np.int64)
    views = [_melee_code(False, False, False)]
    if played:
        sight, views = _views(fight, roster, [c for i, c in enumerate(roster) if on[i] or chooser[i]])
    codes = 4 * len(views)
    shape = (n, n, codes, max_map, actions + 1, hp_most + 1) if played else (1, 1, 1, 1, 1, 1)
    plan_frac = np.zeros(shape, np.float64)
    plan_drop = np.zeros(shape, np.float64)
    plan_first = np.full(shape, -1, np.int64)
    enemy_hit = np.zeros((n, n, codes) if played else (1, 1, 1), np.float64)
    step_cost = 1
    for i, c in enumerate(roster):
        policy = fight.policies.get(c.id)
        if not (isinstance(policy, TacticalPolicy) or chooser[i]):
            continue
        cfg = decision_config(fight, c)
        config[i] = (cfg.self_weight, cfg.threat_weight, cfg.drop_step, cfg.max_routes, cfg.second_wind_below,
                     leads(c, state), cfg.openers and rs.checks.new_maneuvers)
        if isinstance(policy, TacticalPolicy) and _winds(policy, c):
            wind[i] = _wind(fight, c)
        view = TurnView(fight.engine, c, ())
        option = kernel_options(c, state)[0]  # a gun ahead of it is a further option
        costs = view.costs(option)
        plain = view.available(option) - {Block.SWEEP, Block.FULL_AUTO}
        step_cost = state.rulebook.actions[Step].cost(state, Step(c.id, c.position or (0, 0)))
        for j, t in enumerate(roster):
            if t.side == c.side:
                continue
            for code in range(codes):
                flanking, close, seen = bool(code & 1), bool(code & 2), views[code // 4]
                hit = _settled_base(fight, t, c, flanking, close, seen, own=False)
                enemy_hit[j, i, code] = attack_value(hit.key(1)).expected if hit is not None else 0.0
                if (not close and option.limit_ft <= SQUARE_FT) or \
                        (flanking and not chooser[i] and not state.allies_of(c.id)):
                    # the AI attacks from within its reach only (beyond 5 ft with a reach weapon, ATK-1), alone on
                    # its side never flanking; the allies of a scripted creature or of one the AI plays may make its
                    # attack a flanking one
                    continue
                base = _settled_base(fight, c, t, flanking, close, seen, own=True)
                if base is None:
                    continue
                for steps in range(max_map):
                    for left in range(1, actions + 1):
                        # the plans walked once, valued at every HP at once (``best_valued`` at each HP, to the bit)
                        setting = Setting(option, {t.id: base}, {}, {}, {}, steps, None, plain, {})
                        drafts = tuple(drafts_for(t.id, setting, costs, left, openers=True))
                        best = best_at_each_hp(drafts, t.id, hp_most, cfg.drop_step)
                        for draft, hps in best.groups():
                            first = FIRST_BLOCKS.get(draft.blocks[0])
                            if first is None:
                                raise KernelAiUnsupported(f"the AI's {draft.blocks[0].value} (combatant {c.id})")
                            plan_frac[i, j, code, steps, left, hps] = best.frac[hps - 1]
                            plan_drop[i, j, code, steps, left, hps] = best.p_drop[hps - 1]
                            plan_first[i, j, code, steps, left, hps] = first
    ints = np.array([rs.attack.map_counting is MapCounting.PER_ATTACK_ROLL,
                     rs.turn.diagonals is Diagonals.ALTERNATING, step_cost], np.int64)
    opened = opener_tables(fight, roster, views, max_map, actions, hp_most) if played and weighs_openers(fight) \
        else _no_openers()
    withdraw = lower_withdrawing(fight, list(roster), views) if played else no_withdrawing(n)
    sweep = lower_sweeps(fight, roster, views, max_map, actions, hp_most, chooser.tolist()) \
        if played and weighs_openers(fight) else empty_bursts(n)
    return AiTables(on, plan_frac, plan_drop, plan_first, enemy_hit, config, ints, sight, wind, *opened, chooser,
                    withdraw=withdraw, sweep=sweep)


def _no_openers() -> tuple[F64, F64, I64, F64]:
    """The opener tables of a fight where nobody Trips (never read)."""
    return (np.zeros((1,) * 7, np.float64), np.zeros((1,) * 7, np.float64), np.full((1,) * 7, -1, np.int64),
            np.zeros((1, 1, 1), np.float64))


def empty_tables(n: int) -> AiTables:
    """Tables of a fight nobody in which the AI plays (the compiled turn is never asked)."""
    return AiTables(np.zeros(n, np.int64), np.zeros((1,) * 6, np.float64), np.zeros((1,) * 6, np.float64),
                    np.full((1,) * 6, -1, np.int64), np.zeros((1, 1, 1), np.float64),
                    np.zeros((n, CFG_SLOTS), np.float64),
                    np.zeros(3, np.int64), np.zeros((1, 1, 1, 1), np.int64), np.zeros((n, 7), np.int64),
                    *_no_openers(), np.zeros(n, np.int64), withdraw=no_withdrawing(n), sweep=empty_bursts(n))


__all__ = ["AiTables", "KernelAiUnsupported", "ai_problem", "ai_views", "asks_the_ai", "chooser_problem",
           "empty_tables", "lower_ai", "most_hp"]
