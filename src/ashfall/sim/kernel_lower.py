"""Lowering a fight into the fight kernel's arrays, and deciding whether the kernel can play it at all.

:func:`unsupported` names the first feature of a fight (encounter, ruleset, policies) the kernel does not play
yet, or returns None; :func:`lower` turns a supported fight into a :class:`Lowered`: plain numpy arrays the
compiled fight (:mod:`ashfall.kernel.fight`) reads, and the names that turn its records back into steps.

No number is copied here. Every number comes out of the reference engine's own rules, asked on the fight it
built: initiative bonuses from ``initiative_modifiers`` and ``roll_d20``; the attack outcome of every natural
d20 face, for every attacker, target, activity and MAP value, from ``resolve_attack`` (the rules core: DV,
CRIT-1/3, ATK-4, MAA-5 …) with the MAP values of ``map_modifier`` and ``all_out_schedule``; damage parts and
crit doubling from the hit itself and ``crit_doubles``; the damage that reaches temporary HP and HP for every
rolled total from ``damage_ledger`` with the target's ``Defenses`` (DR, resistance, minimum); action costs and
plan steps from the ``Ruleset``'s attack section; the action budget from ``max_actions``; the dying track from
``falls_dying``, ``death_save`` (every successes, failures and face), the Stand action's cost and the
ruleset's ``dying`` and ``damage`` sections, with a second attack table for a target that is down (dying and
prone, over both d20 faces of a roll with advantage). The kernel only adds the logic that runs between those
numbers (turn order, plans, MAP counting, temporary HP, death at 0 HP, the dying track by vitality), and the
differential tests hold that logic to the engine's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.board_cache import static_step
from ashfall.ai.odds_cache import attack_value, ruleset_token
from ashfall.ai.profile import attack_options, base_for
from ashfall.content.names import COVERING_FIRE
from ashfall.content.schema import WeaponKind, WeaponProperty
from ashfall.core.d20 import roll_d20
from ashfall.core.dice import BinOp, Const, Dice, DiceExpr, Node
from ashfall.core.modifiers import Modifier
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.encounters.schema import TargetRule
from ashfall.engine import Combatant, EncounterState, SecondWind, Stand, Step, Stride
from ashfall.engine.actions import Refused
from ashfall.engine.environment import Light
from ashfall.engine.turns import TIEBREAK_SIDES, initiative_modifiers
from ashfall.families.attacks.engine import cover_level, situation, target_defense
from ashfall.families.attacks.engine_common import best_melee, melee_reach, mode_for, speed_ft
from ashfall.families.attacks.moves_activities import AllOutAttack, PowerStrike, validate_attack
from ashfall.families.attacks.moves_strike import Strike
from ashfall.families.attacks.rules import AttackContext, PreparedAttack, prepare_attack, resolve_attack
from ashfall.families.attacks.rules_activities import (
    ACTIVITIES,
    SINGLE_ACTION,
    Activity,
    AttackMode,
    action_cost,
    counts_for_map,
    provides_flanking,
    takes_map,
)
from ashfall.families.attacks.rules_map import all_out_schedule, map_modifier
from ashfall.families.dying.rules import death_save
from ashfall.families.movement.moves import board_only_costs
from ashfall.families.reactions.moves_defensive import bracing_weapon
from ashfall.families.senses.engine import can_see, concealment_sources
from ashfall.grid.board import SQUARE_FT, CoverLevel, Terrain
from ashfall.grid.geometry import flanks, has_line_of_sight, space_distance_ft
from ashfall.grid.paths import STEP_OFFSETS
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.damage_defenses import Defenses, is_magical_weapon
from ashfall.rules.damage_ledger import crit_doubles, damage_ledger
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.defense import Cover
from ashfall.rules.health import Health, Vitality, falls_dying
from ashfall.rules.reach import attack_limit_ft, threat_reach
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import MassiveDamageBasis
from ashfall.sim import kernel_cache
from ashfall.sim.kernel_ai_lower import (
    AiTables,
    ai_problem,
    ai_views,
    asks_the_ai,
    chooser_problem,
    empty_tables,
    lower_ai,
)
from ashfall.sim.kernel_allies_lower import WithdrawTables
from ashfall.sim.kernel_brace_lower import BraceTables, brace_problem, lower_brace
from ashfall.sim.kernel_burst_lower import BurstTables
from ashfall.sim.kernel_burst_rolls import burst_action_names
from ashfall.sim.kernel_covering_lower import (
    CoveringTables,
    covering_problem,
    covers,
    lower_covering,
    pinnable,
    pinned_guard,
    pinned_plans,
    pinned_sources,
)
from ashfall.sim.kernel_faces import Faces, attack_faces
from ashfall.sim.kernel_maneuvers import (
    FeintContest,
    ManeuverTables,
    feint_action_names,
    feint_attack_tables,
    lower_maneuvers,
    prone_attack_tables,
    stand_costs,
    trip_action_name,
    uses_trip,
)
from ashfall.sim.kernel_morale_lower import MoraleTables, lower_morale, morale_problem
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.kernel_ranged_lower import (
    RangedTables,
    empty_ranged,
    lower_ranged,
    ranged_action_names,
    shot_ok,
)
from ashfall.sim.kernel_surprise_lower import lower_surprise, no_surprise, surprise_problem
from ashfall.sim.kernel_weapons_lower import (
    OptionTables,
    empty_options,
    extra_weapons_problem,
    lower_options,
    option_action_names,
)
from ashfall.sim.policy import ScriptedTactics, threat_of, weapon_distance
from ashfall.sim.setups import Fight, FightSetup

I64 = npt.NDArray[np.int64]
DEATH_1 = rule("DEATH-1")

ACTIVITY_CODES: tuple[Activity, ...] = (Activity.STRIKE, Activity.POWER_STRIKE, Activity.ALL_OUT)
"""The activities the kernel plays, by code (the index): a plan step is one of these."""
STRIKE, POWER, ALL_OUT = 0, 1, 2
INTENTS: tuple[type, ...] = (Strike, PowerStrike, AllOutAttack)
"""The engine's intent class of each activity code (its rulebook names the action)."""
TABLE_ACTIVITIES: tuple[Activity, ...] = (*ACTIVITY_CODES, Activity.ATTACK_OF_OPPORTUNITY)
"""The activities of the attack tables, by code: the plan's, then the Attack of Opportunity (RX-21, code 3)."""
AOO = 3
ATTACK_LABELS = ("Strike", "Power Strike", "All-Out Attack", "Attack of Opportunity", "Return Fire", "Full Auto Burst",
                 "Covering Fire", "Brace")
"""How the engine labels the attack rolls of each activity (``All-Out Attack (i)`` with the attack's number)."""
SITUATIONS = 4
"""Situation codes of an attack on a grid where creatures move: flanking (1) plus within 5 ft (2) (POS-1, AMOD),
plus 4 times the view between the two squares (cover and high ground, :class:`Sights`)."""
TARGET_CODES: dict[TargetRule | None, int] = {
    None: 0, TargetRule.NEAREST: 0, TargetRule.WEAKEST: 1, TargetRule.STRONGEST: 2, TargetRule.HIGHEST_THREAT: 3,
}
"""Target rules by code: 0 keeps the nearest first (off the map every enemy is as near as the others)."""
MAX_MAP_COUNT = 16
"""MAP is tabulated for up to this many earlier attacks (and Strike actions) in one turn."""
KNOWN_FAMILIES = frozenset({"morale", "movement", "attacks", "reactions", "maneuvers", "utility", "dying", "turns",
                            "senses", "gm", "suppression", "covering-fire"})
"""The rulebook families of a plain fight (every other family is dormant); the kernel mirrors what they do in
the fights it supports (see :func:`unsupported`). Suppression comes with any gun (``catalog``): its zones exist only
once someone lays down Suppressive Fire (SUP-1..10), which neither the tactical AI nor a plan the kernel plays does,
so its hooks find no zone. Covering Fire comes with the talent (SUP-11), which ``covering_problem`` judges first
(:func:`_combatant_problem`): its reaction and its free attack on a move are played where that finds nothing."""

INERT_MOVEMENT_HOOKS = ("ashfall.families.morale.", "ashfall.families.maneuvers.", "ashfall.families.suppression.")
"""Movement hooks that do nothing in the kernel's fights: a fleeing creature's escape (morale is off there), a
grapple following its holder (nobody grapples) and Suppressive Fire's zones (nobody lays one down, SUP-5)."""


class KernelUnsupported(ValueError):
    """The kernel cannot play this fight yet; the message names the first missing feature."""


@dataclass(frozen=True, slots=True)
class Lowered:
    """A fight as the compiled kernel reads it (every array indexed by roster position first).

    Attributes:
        ids: Combatant ids in roster order.
        sides: Side names by side code.
        side: Side code of each combatant.
        agi: AGI (initiative's second key, INIT-3).
        init_bonus: What initiative adds to the d20 (INIT-1, E-21).
        tiebreak_sides: Sides of the initiative tie-break draw.
        hp: Starting HP.
        temp_hp: Starting temporary HP.
        max_hp: Maximum HP.
        near: Each combatant's enemies, nearest first (roster order among equals; -1 pads the row).
        plan: Activity code of each plan step (-1 past the plan's end).
        plan_len: Steps in each plan.
        step_actions: Actions each plan step accounts for (``ACTIVITIES[step].actions`` or 1).
        target_rule: Target-rule code of each combatant (applied, stably, to ``near``'s order).
        threat: ``threat_of`` each combatant (for ``highest-threat``).
        act_cost: Actions each activity costs (MAA-1).
        act_legal: Whether each combatant's weapon can make each activity.
        counts: Whether each activity's attacks advance MAP (G-41).
        actions: Actions per turn (AE-1 and the condition-free budget).
        map_index: MAP variant of an attack after ``[earlier attacks, earlier Strike actions]``.
        all_out_index: MAP variant of each All-Out Attack attack (MAP-5).
        outcome: ``[attacker, target, activity, MAP variant, target state, situation, first face - 1,
            second face - 1]``: 0 miss, 1 hit, 2 crit (the second face is 1 when the roll draws one d20).
            Activities are :data:`TABLE_ACTIVITIES`. Target states (:data:`TARGET_STATES`): up; dying (DEATH-1:
            unconscious and prone), as an All-Out Attack's later attacks find it; dead, as a second Attack of
            Opportunity on one step finds a mover the first dropped. Situation: the code of :data:`SITUATIONS`
            plus 4 times the view (``sight``) where creatures move, else one.
        draws: ``[attacker, target, activity, MAP variant, target state, situation]``: d20s the attack roll
            draws (2 with advantage or disadvantage).
        dice: ``[attacker, activity, crit, group, (count, sides)]`` damage dice in rolling order.
        flat: ``[attacker, activity, crit]`` flat damage.
        dealt: ``[attacker, activity, target, crit, rolled total - low]`` damage after the ledger's steps 1-6.
        low: The lowest rolled total ``dealt`` covers.
        falls: Whether each combatant falls dying at 0 HP (DEATH-1) rather than dying (G-38).
        saves: Whether each combatant rolls death saves while dying (DEATH-2).
        save_table: ``[combatant, successes, failures, face - 1]`` -> (vitality, successes, failures, HP) after a
            death save (vitality codes: 0 alive, 1 dying, 2 stabilised, 3 dead).
        dying_rules: Damage on the dying track: massive damage on, counted after temporary HP, failures per
            damage, per crit, failures that kill, damage to a stabilised creature resumes dying (MASS-1, G-50,
            DEATH-10, DEATH-11, DEATH-3, DEATH-14).
        stand_cost: Actions standing up from prone costs each combatant (ACT-5).
        moves: 1 when someone has to approach first (on a grid, walls, cover objects and height included), else 0.
        pos: Each combatant's starting square ``(x, y)`` (zeros off the map).
        reach_ft: How near each must be to attack (its weapon's reach).
        speed: Feet each Stride may cover (``speed_ft``).
        stride_cost: Actions a Stride costs each combatant (ACT-2).
        price: ``[combatant, x, y, step, diagonals mod 2]`` feet to step from ``(x, y)`` along ``offsets[step]``
            ignoring creatures (-1: it cannot), from the movement rules' own ``static_step`` (MOV-2..5, G-37).
        offsets: The path search's neighbour order ``(dx, dy, diagonal)`` (``STEP_OFFSETS``).
        dist: ``[|dx|, |dy|]`` the distance in feet between two squares so far apart (``space_distance_ft``).
        flank_geo: ``[tx, ty, dx + r, dy + r, ax, ay]`` whether an attacker and an ally ``(dx, dy)`` squares from a
            target flank it (see ``_flank_geometry``).
        flanker: ``[combatant, state]`` whether it provides flanking up, up and prone, down (POS-3, E-22).
        threat_ft: How far each threatens (``threat_reach``, POS-1).
        guard_hit: ``[attacker, ally, flanking + 2 view]`` the mean damage of a hit as the AI's Intercept weighs it.
        guard_reach: The reach the AI's Intercept checks for each attacker.
        guard_shot: ``[attacker, ally, hostile + 2 within 5 ft + 4 aimed + 8 view]`` the mean damage of a hit with
            the attacker's gun as the AI's Intercept weighs it, whatever the distance (``_guard_shots``).
        guard_view: ``[ax, ay, tx, ty]`` the engine's view of a ranged attack between two squares (its index).
        guard_seen: ``[rx, ry, ax, ay]`` 1 where a creature on the first square sees one on the second, at any
            distance (Intercept's "a creature you can see", RX-26; :func:`seen_table`).
        intercept_ft: How near an attacked ally an interceptor must stand (RX-26).
        sight: ``[x, y, dx + r, dy + r]`` -> (view, flags) between an attacker at ``(x, y)`` and a target ``(dx, dy)``
            squares away, within ``r`` (see ``read_sights``): the view's index (cover and high ground, COV-1, COV-2,
            POS-4) is the situation code's ``code // 4``; flags: total cover (COV-3).
        action_names: The engine's action name of each activity, then of Stand, Stride, Step and Second Wind
            (``actions-spent`` labels).
        creatures: Stat block id of each combatant.
        names: Display names.
        round_limit: Rounds before the fight stops undecided.
        ai: The tactical AI's tables (:mod:`ashfall.sim.kernel_ai_lower`; empty when it plays nobody).
        maneuvers: Edition 2's Trip as the AI plays it (:mod:`ashfall.sim.kernel_maneuvers`; off without it). With
            it, ``outcome``/``draws`` hold ``kernel_maneuvers.ALL_STATES`` target states (a prone target up, a
            prone attacker) and ``action_names`` ends with Trip's.
        morale: The morale family's tables (:mod:`ashfall.sim.kernel_morale_lower`; off when nobody checks).
        covering: The Covering Fire talent's tables (:mod:`ashfall.sim.kernel_covering_lower`, SUP-11; None when
            nobody has it). With it, ``outcome``/``draws`` and the damage tables hold each activity twice: the
            second half for an attacker pinned by it (disadvantage, ``suppressed``).
        brace: Brace's tables (:mod:`ashfall.sim.kernel_brace_lower`, RX-12..14, X-20; None when nobody Braces).
        surprise: An ambush's table (:mod:`ashfall.sim.kernel_surprise_lower`, SUR-1..3; nobody rolls without one).
    """

    ids: tuple[str, ...]
    sides: tuple[str, ...]
    side: I64
    agi: I64
    init_bonus: I64
    tiebreak_sides: int
    hp: I64
    temp_hp: I64
    max_hp: I64
    near: I64
    plan: I64
    plan_len: I64
    step_actions: I64
    target_rule: I64
    threat: npt.NDArray[np.float64]
    act_cost: I64
    act_legal: I64
    counts: I64
    actions: int
    map_index: I64
    all_out_index: I64
    outcome: npt.NDArray[np.int8]
    draws: I64
    dice: I64
    flat: I64
    dealt: I64
    low: int
    falls: I64
    saves: I64
    save_table: I64
    dying_rules: I64
    stand_cost: I64
    moves: int
    pos: I64
    reach_ft: I64
    speed: I64
    stride_cost: I64
    price: I64
    offsets: I64
    dist: I64
    flank_geo: I64
    flanker: I64
    threat_ft: I64
    guard_hit: npt.NDArray[np.float64]
    guard_reach: I64
    intercept_ft: int
    sight: I64
    action_names: tuple[str, ...]
    creatures: tuple[str, ...]
    names: tuple[str, ...]
    round_limit: int
    ai: AiTables
    maneuvers: ManeuverTables
    morale: MoraleTables
    guard_shot: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros((1, 1, 1)))
    guard_view: I64 = dataclasses.field(default_factory=lambda: np.zeros((1, 1, 1, 1), np.int64))
    guard_seen: I64 = dataclasses.field(default_factory=lambda: np.ones((1, 1, 1, 1), np.int64))
    covering: CoveringTables | None = None
    brace: BraceTables | None = None
    surprise: I64 = dataclasses.field(default_factory=lambda: no_surprise(0))


def _first_weapon(c: Combatant) -> Any:
    """The weapon of its first option in the kernel's slots: its first weapon, or its first melee one after a gun.

    A gun listed first is the AI's first further option (``kernel_option_slots``); a scripted creature's is named
    (:func:`_combatant_problem`). The melee weapon is also the one its Attacks of Opportunity use (``best_melee``).
    None: its unarmed strike (no weapon, or guns and no melee weapon: ``attack_options``' unarmed option, which its
    Attacks of Opportunity use too, RX-24).
    """
    if not c.weapons:
        return None
    return best_melee(c) if c.weapons[0].kind is WeaponKind.RANGED else c.weapons[0]


def _first_mode(c: Combatant) -> AttackMode:
    """The attack mode of its first option: a melee weapon swung, or its unarmed strike (``mode_for``)."""
    return mode_for(_first_weapon(c))


def _plan_problem(fight: Fight, c: Combatant) -> str | None:
    policy = fight.policies.get(c.id)
    if isinstance(policy, TacticalPolicy):  # the AI's first slice (``kernel_ai_lower``)
        problem = ai_problem(fight, c)
        if problem is None and not _moves(fight.engine.state):
            problem = f"the tactical AI where nobody has to move (combatant {c.id})"
        return problem
    if not isinstance(policy, ScriptedTactics):
        return f"tactical AI (combatant {c.id})"
    for step in policy.plan:
        if step not in ACTIVITY_CODES:
            return f"activity {step.value} (combatant {c.id})"
    if asks_the_ai(fight, c):
        # with one enemy the plan never asks the chooser (ScriptedTactics._ordered): the AI's pick among several
        # is its focus fire, mirrored where nobody stands still (``kernel_ai_lower``)
        problem = chooser_problem(fight, c)
        if problem is None and not _moves(fight.engine.state):
            problem = f"the AI's target choice where nobody has to move (combatant {c.id})"
        return problem
    return None


def _reaction_problem(fight: Fight, c: Combatant) -> str | None:
    """Reactions: off the map the only one a melee fight offers is Intercept, to a creature with an ally (RX-26).

    The AI never intercepts without positions to weigh (``_worth_intercepting``), so the kernel plays no
    reactions; a creature without a controller takes the first option offered (``new_engine``) and would.
    """
    if not fight.engine.state.allies_of(c.id) or isinstance(fight.engine.controllers.get(c.id), TacticalPolicy):
        return None
    return f"reactions taken without the AI's judgement (combatant {c.id} would Intercept)"


def _combatant_problem(fight: Fight, c: Combatant) -> str | None:
    if c.creature.vehicle is not None:
        return f"vehicles (combatant {c.id})"
    if c.conditions:
        return f"starting conditions (combatant {c.id})"
    if COVERING_FIRE in c.creature.talents:
        # the AI takes the reaction on an enemy's every declared attack it can see and shoot (``reactions.ai``)
        problem = covering_problem(fight)
        if problem is not None:
            return problem
    weapon = _first_weapon(c)
    ai = isinstance(fight.policies.get(c.id), TacticalPolicy)
    if weapon is None:
        # guns and no melee weapon: the AI's first option is its unarmed strike (``attack_options``), played
        if not c.weapons:
            return f"unarmed and natural attacks (combatant {c.id})"
        if not ai:
            return f"ranged and thrown weapons (combatant {c.id})"  # a scripted plan would shoot its gun
        if c.creature.machine:
            return f"the tactical AI without a melee weapon (a machine: no unarmed strike, combatant {c.id})"
    elif weapon.kind is not WeaponKind.MELEE or (weapon is not c.weapons[0] and not ai):
        return f"ranged and thrown weapons (combatant {c.id})"  # the AI's gun ahead of its knife is played
    if c.creature.talents - {COVERING_FIRE}:
        return f"talents (combatant {c.id}: {sorted(c.creature.talents - {COVERING_FIRE})[0]})"
    return None


def _approach_problem(fight: Fight) -> str | None:
    """A fight where someone must move first: the kernel mirrors the scripted approach on a grid without walls.

    Creatures of one square, each with one melee weapon reaching 5 ft (and threatening as far; not thrown, not
    braced), plans that move, terrain (its step prices are lowered) but no walls, cover objects, elevation or
    environmental layers, no movement hooks, everyone seeing everyone. Then who is nearest, the paths around the
    others (ACT-2), flanking (POS-1), Attacks of Opportunity (RX-21) and Intercept (RX-26, as the AI judges it)
    are mirrored; the attack tables are asked per situation code (flanking, within 5 ft) with the two side by
    side.
    """
    state = fight.engine.state
    board = state.board
    assert board is not None
    rs = state.ruleset
    # the tactical AI reads walls, cover and height its own way (``kernel_ai_lower``: its ``Sights``, lowered)
    problem = _sight_problem(state)
    if problem is not None:
        return problem
    if any(not hook.__module__.startswith(INERT_MOVEMENT_HOOKS) for hook in state.rulebook.movement_hooks):
        return "movement hooks (someone must move to reach an enemy)"
    if rs.turn.reactions_per_round != 1:
        return f"{rs.turn.reactions_per_round} reactions per round (AE-2) on the move"
    for c in state.combatants.values():
        policy = fight.policies[c.id]
        weapon = _first_weapon(c)
        limit = attack_limit_ft(weapon, False, rs.attack.natural_reach)
        if c.creature.size.squares != 1 or (len(c.weapons) != 1 and extra_weapons_problem(fight, c) is not None):
            return f"maps and movement for large creatures or several weapons (combatant {c.id})"
        if not isinstance(policy, (ScriptedTactics, TacticalPolicy)) or \
                (isinstance(policy, ScriptedTactics) and not policy.move):
            return f"plans that do not move (combatant {c.id})"
        if not limit == weapon_distance(weapon, state) == melee_reach(c, state) == threat_reach(c.weapons, rs) \
                or (limit != SQUARE_FT and not isinstance(policy, TacticalPolicy)):
            # a reach weapon (ATK-1) is played for the tactical AI (its routes, plans and approach within reach)
            return f"maps and movement with reach weapons (combatant {c.id})"
        thrown = weapon is not None and weapon.has(WeaponProperty.THROWN)  # none for its fists
        if thrown and not any(shot_ok(o) for o in attack_options(c, state)):
            # beside a gun the AI's Intercept weighs the throw with the shot (``_guard_shots``)
            return f"thrown weapons on the move (combatant {c.id}: the AI weighs throwing when it Intercepts)"
        if bracing_weapon(c) is not None:  # Brace (RX-12..14, X-20) as ``kernel_brace_lower`` plays it
            problem = brace_problem(fight, _first_weapon)
            if problem is not None:
                return problem
        for other in state.combatants.values():
            # a wall between them is the sight table's business (``read_sights``); anything else is not mirrored
            if other is not c and has_line_of_sight(board, c.space, other.space) and not can_see(state, c, other):
                return f"creatures that cannot see each other (combatant {c.id})"
    return None


View = tuple[Cover, bool]
"""What an attack meets between two squares: the cover and whether the attacker has high ground (COV, POS-4)."""
SIGHT_TOTAL = 1
"""The flag of a ``sight`` entry: total cover (COV-3: no attack, no AoO, not a square to attack from). Whether an
interceptor sees the attacker (RX-26) is ``Lowered.guard_seen``'s, at any distance (:func:`seen_table`)."""


@dataclass(frozen=True, slots=True)
class Sights:
    """What walls, cover objects and height make of every pair of squares near enough to matter on the move.

    Attributes:
        table: ``[x, y, dx + r, dy + r]`` -> (view index, flags) for an attacker at ``(x, y)`` and a target
            ``(dx, dy)`` squares away (``r``: the window's radius, half the table's third extent).
        views: The views met, by index (index 0 when no square pair is tabulated).
        near: Views met within 5 ft (every attack but an intercepted one), total cover left out.
        far: Views met further away (an interceptor beside the target), total cover left out.
    """

    table: I64
    views: tuple[View, ...]
    near: frozenset[int]
    far: frozenset[int]


def _sight_problem(state: EncounterState) -> str | None:
    """What of the battlefield the sight table (:func:`read_sights`) cannot hold on the move, or None.

    Walls, cover objects and height never change, so what they make of two squares is read once per pair.
    Refused: environmental layers (they change during the fight, step prices included), light or obscurement
    (whether one creature sees another would then depend on more than the walls between them), and cover
    objects of total cover (a creature could be seen, so intercept, yet not be attacked).
    """
    board = state.board
    assert board is not None
    if not board_only_costs(state):
        return "maps and movement with environmental layers (rubble, flood water, debris, objects) on the move"
    env = state.environment
    if env.light or env.veils or env.ambient is not Light.BRIGHT or state.rulebook.visibility:
        return "light and obscurement on the move (dim light, darkness, fog, water)"
    for sq, obj in board.cover.items():
        if obj.level is CoverLevel.TOTAL:
            return f"cover objects of total cover on the move ({obj.name} at {list(sq)})"
    return None


@contextmanager
def _placed(*creatures: Combatant) -> Iterator[None]:
    """Creatures put back on their squares afterwards (the sight table moves two of them about)."""
    positions = [c.position for c in creatures]
    try:
        yield
    finally:
        for c, position in zip(creatures, positions, strict=True):
            c.position = position


def read_sights(state: EncounterState, roster: Sequence[Combatant]) -> Sights:
    """The sight table of a fight on the move (a single empty view where nobody moves).

    For every square and every square within ``r`` of it (``r``: the longest first weapon's reach, 5 ft or a reach
    weapon's 10, plus Intercept's range, the furthest an attack is made from: at an interceptor beside its ally, and
    what a reach weapon's attack or Attack of Opportunity meets), two creatures of the fight are set on
    them and the engine's own ``situation`` reads the cover and high ground between them (``cover_level``,
    ``high_ground``: COV-1..3, POS-4, G-37), total cover flagged.
    """
    board = state.board
    if board is None or not _moves(state):
        return Sights(np.zeros((1, 1, 1, 1, 2), np.int64), ((Cover.NONE, False),), frozenset({0}), frozenset())
    reach = max([SQUARE_FT, *(w.reach for c in roster
                               if (w := _first_weapon(c)) is not None and w.kind is WeaponKind.MELEE)])
    r = max(1, -(-(reach + state.ruleset.turn.intercept_range_ft) // SQUARE_FT))
    table = np.zeros((board.width, board.height, 2 * r + 1, 2 * r + 1, 2), np.int64)
    views: list[View] = []
    near: set[int] = set()
    far: set[int] = set()
    a = roster[0]
    t = next(c for c in roster if c.side != a.side)
    with _placed(a, t):
        for x in range(board.width):
            for y in range(board.height):
                a.position = (x, y)
                for dx in range(-r, r + 1):
                    for dy in range(-r, r + 1):
                        if (dx, dy) == (0, 0) or not board.in_bounds((x + dx, y + dy)):
                            continue
                        t.position = (x + dx, y + dy)
                        sit = situation(state, a, t, False)
                        view = (sit.cover, sit.high_ground)
                        if view not in views:
                            views.append(view)
                        s = views.index(view)
                        table[x, y, dx + r, dy + r] = (s, SIGHT_TOTAL if sit.cover is Cover.TOTAL else 0)
                        if sit.cover is not Cover.TOTAL:
                            (near if space_distance_ft(a.space, t.space) <= SQUARE_FT else far).add(s)
    return Sights(table, tuple(views) or ((Cover.NONE, False),), frozenset(near), frozenset(far))


def _map_problem(fight: Fight) -> str | None:
    """On a map the kernel plays fights where nobody needs to move: every enemy within reach from the start.

    Then the scripted plan never Strides and no reaction is offered (an Attack of Opportunity needs movement or
    a ranged attack, Intercept an ally within its range, RX-26); who is nearest, cover, high ground and the
    absence of flanking never change (allies only ever leave), so the lowered tables hold for the whole fight.
    A fight on a grid without walls, cover objects or height may start apart (:func:`_approach_problem`).
    """
    state = fight.engine.state
    if state.environment.objects:
        return "destructible objects on the map"
    rs = state.ruleset
    roster = list(state.combatants.values())
    for c in roster:
        if not c.space:
            return f"maps and movement (combatant {c.id} has no square)"
    if _moves(state):
        return _approach_problem(fight)
    for c in roster:  # every enemy within reach from the start (``_moves``)
        for e in state.enemies_of(c.id):
            if cover_level(state, c, e) is CoverLevel.TOTAL:
                return f"total cover (between {c.id} and {e.id})"
            if situation(state, c, e, False).flanking:
                return f"flanking (combatant {c.id} flanks {e.id})"
        for ally in state.allies_of(c.id):
            if space_distance_ft(c.space, ally.space) <= rs.turn.intercept_range_ft:
                return f"reactions: Intercept (combatant {c.id} stands by its ally {ally.id})"
    return None


def unsupported(fight: Fight) -> str | None:
    """The first feature of a built fight that the kernel does not play yet, or None when it plays all of it.

    Who plays each creature comes first (the tactical AI is the largest part still missing), then what it is and
    carries, then the battlefield.
    """
    state = fight.engine.state
    if state.started:
        return "a fight already under way"
    for c in state.combatants.values():
        problem = _plan_problem(fight, c) or _combatant_problem(fight, c) or _reaction_problem(fight, c)
        if problem is not None:
            return problem
    problem = morale_problem(fight)
    if problem is not None:
        return problem
    problem = surprise_problem(fight)
    if problem is not None:
        return problem
    if state.initiative_groups:
        return "initiative groups (a shared initiative roll)"
    rulebook = state.rulebook
    extra = sorted(set(rulebook.families) - KNOWN_FAMILIES)
    if extra:
        return f"the {extra[0]} family"
    for hooks, what in ((rulebook.attack_hooks, "attack hooks"), (rulebook.after_hit, "after-hit hooks"),
                        (rulebook.damage_environment, "damage from the environment"),
                        (rulebook.end_of_round, "end-of-round hooks"), (rulebook.end_of_turn, "end-of-turn hooks"),
                        (rulebook.order_hooks, "initiative order hooks")):
        if hooks:
            return what
    if state.effects:
        return "lasting effects"
    if state.zones:
        return "suppression zones (SUP-4)"
    if state.board is not None:
        problem = _map_problem(fight)
        if problem is not None:
            return problem
    if len({c.side for c in state.combatants.values()}) < 2:
        return "a fight with one side"
    return None


def _flatten(node: Node, out: list[tuple[int, int]]) -> int:
    """Dice groups of a sum of plain dice and constants, in rolling order; returns the constants' sum."""
    if isinstance(node, Dice) and not node.ops:
        out.append((node.count, node.sides))
        return 0
    if isinstance(node, Const):
        return node.value
    if isinstance(node, BinOp) and node.op == "+":
        return _flatten(node.left, out) + _flatten(node.right, out)
    raise KernelUnsupported(f"damage dice other than sums of plain dice ({node})")


def _damage(parts: Sequence[DamagePart], critical: bool, state: EncounterState) -> tuple[list[tuple[int, int]], int]:
    groups: list[tuple[int, int]] = []
    flat = 0
    for part in parts:
        flat += part.flat
        if part.dice is None:
            continue
        expr: DiceExpr = part.dice.doubled() if critical and crit_doubles(part, state.ruleset) else part.dice
        flat += _flatten(expr.root, groups)
    return groups, flat


def _attack_context(state: EncounterState, a: Combatant, t: Combatant, activity: Activity,
                    map_mod: Modifier | None, hostile_flipped: bool = False, code: int | None = None,
                    view: View | None = None, extra: tuple[Any, ...] = ()) -> tuple[AttackContext, Any]:
    """The rules core's context, as the engine's ``_attack_context`` builds it (the situation read off the map).

    ``hostile_flipped`` turns "a hostile within 5 ft" (AMOD-7) the other way: the one fact of the situation that
    changes as enemies fall, so the tables are only used when it makes no difference. ``code`` (a situation
    code, see :data:`SITUATIONS`) sets flanking and "within 5 ft" as positions on the move make them, ``view``
    (see ``read_sights``) the cover and high ground read between their squares. ``extra``: roll sources the engine
    puts first (``next_attack_sources``: a Feint's advantage, FNT-3, FNT-5).
    """
    weapon = _first_weapon(a)
    sit = situation(state, a, t, False)
    if code is not None:
        sit = dataclasses.replace(sit, flanking=bool(code & 1), within_5ft=bool(code & 2))
        if _hostile_beside(t, code):  # the target itself is a hostile within 5 ft (AMOD-7)
            sit = dataclasses.replace(sit, hostile_within_5ft=True)
    if view is not None:
        sit = dataclasses.replace(sit, cover=view[0], high_ground=view[1])
    if hostile_flipped:
        sit = dataclasses.replace(sit, hostile_within_5ft=not sit.hostile_within_5ft)
    dv = target_defense(state, a, t, weapon, mode_for(weapon), sit)
    context = AttackContext(
        activity=activity, map_modifier=map_mod if takes_map(activity, state.ruleset) else None,
        flanking=sit.flanking, high_ground=sit.high_ground, hostile_within_5ft=sit.hostile_within_5ft,
        within_5ft=sit.within_5ft, target_conditions=t.condition_set, attacker_conditions=a.condition_set,
        unseen_attacker=sit.unseen_attacker, extra_sources=(*extra, *concealment_sources(state, a, t)),
    )
    return context, dv


TARGET_STATES = 4
DOWN_DYING, DOWN_DEAD, DOWN_DEAD_PRONE = 1, 2, 3
"""Target states of the attack tables: 0 up, 1 dying (prone, DEATH-1), 2 dead, 3 dead and prone (it fell dying
first); the kernel's ``down`` index."""



def _damage_tables(state: EncounterState, roster: Sequence[Combatant], hit_parts: dict[tuple[int, int], Any],
                   kinds: int, weapon_of: Callable[[int, int], Any]) -> tuple[I64, I64, I64, int]:
    """The damage a hit deals: ``(dice, flat, dealt, low)`` for every attacker and kind of attack in ``hit_parts``.

    ``dice[i, k, crit, group]`` the dice groups and ``flat[i, k, crit]`` the flat part of a hit (:func:`_damage`,
    a critical's doubled, G-40); ``dealt[i, k, j, crit, total - low]`` what the damage ledger lets through to
    ``roster[j]`` for each rolled total (DR, resistance, vulnerability with the weapon's magic, ``weapon_of(i,
    k)``), the same whether or not ``j`` has dropped. The first options (:func:`lower`) and the further ones
    (``kernel_weapons_lower``) share it.

    Raises:
        KernelUnsupported: For several damage types in one hit, or defenses that change when a creature drops.
    """
    rs = state.ruleset
    n = len(roster)
    groups_of: dict[tuple[int, int, int], tuple[list[tuple[int, int]], int]] = {}
    most = 1
    for (i, k), parts in hit_parts.items():
        if len({p.type for p in parts}) != 1:
            raise KernelUnsupported(f"several damage types in one hit (combatant {roster[i].id})")
        for crit in (0, 1):
            groups_of[i, k, crit] = _damage(parts, bool(crit), state)
            most = max(most, len(groups_of[i, k, crit][0]))
    dice = np.zeros((n, kinds, 2, most, 2), np.int64)
    flat = np.zeros((n, kinds, 2), np.int64)
    low, high = 0, 0
    for (i, k, crit), (groups, total_flat) in groups_of.items():
        for g, (count, sides_) in enumerate(groups):
            dice[i, k, crit, g] = (count, sides_)
        flat[i, k, crit] = total_flat
        low = min(low, total_flat + sum(count for count, _ in groups))
        high = max(high, total_flat + sum(count * s for count, s in groups))
    dealt = np.zeros((n, kinds, n, 2, high - low + 1), np.int64)
    for (i, k), parts in hit_parts.items():
        a = roster[i]
        magical = is_magical_weapon(weapon_of(i, k), a.creature.talents)
        dtype = parts[0].type
        for j, t in enumerate(roster):
            if a.side == t.side:
                continue
            defenses = Defenses.of_creature(t.creature, t.armor, t.condition_set, magical_weapon=magical)
            with _downed(t, falls_dying(t.health, rs)):
                down_defenses = Defenses.of_creature(t.creature, t.armor, t.condition_set, magical_weapon=magical)
            for crit in (0, 1):
                for total in range(low, high + 1):
                    ledger = damage_ledger({dtype: total}, defenses, rs, critical=bool(crit))
                    if damage_ledger({dtype: total}, down_defenses, rs, critical=bool(crit)).total != ledger.total:
                        raise KernelUnsupported(f"defenses that change when a creature drops (combatant {t.id})")
                    dealt[i, k, j, crit, total - low] = ledger.total
    return dice, flat, dealt, low

@contextmanager
def _downed(t: Combatant, down: int | bool) -> Iterator[None]:
    """The target as an attack finds it: up, dying at 0 HP and prone as dropping leaves it (DEATH-1), or dead.

    ``down`` is a target state (:data:`TARGET_STATES`; True is dying). The state is restored afterwards: the
    tables are asked of the reference's rules on the fight as it would be.
    """
    if not down:
        yield
        return
    health, conditions = t.health, t.conditions
    dead = down in (DOWN_DEAD, DOWN_DEAD_PRONE)
    t.health = health.evolve(hp=0, vitality=Vitality.DEAD if dead else Vitality.DYING, successes=0, failures=0)
    if down != DOWN_DEAD:
        t.conditions = (*conditions, AppliedCondition(Condition.PRONE, DEATH_1))
    try:
        yield
    finally:
        t.health, t.conditions = health, conditions


def _moves(state: EncounterState) -> bool:
    """Whether someone must approach before it can attack (see ``_approach_problem``)."""
    if state.board is None:
        return False
    rs = state.ruleset
    return any(space_distance_ft(c.space, e.space) > attack_limit_ft(_first_weapon(c), False, rs.attack.natural_reach)
               for c in state.combatants.values() for e in state.enemies_of(c.id))


@contextmanager
def _beside(state: EncounterState, a: Combatant, t: Combatant) -> Iterator[None]:
    """In a fight that moves, the target set beside the attacker (where every attack is made) while asking."""
    board = state.board
    if board is None or not _moves(state) or a.position is None:
        yield
        return
    x, y = a.position
    square = next((x + dx, y + dy) for dx, dy, _ in STEP_OFFSETS if board.in_bounds((x + dx, y + dy)))
    position = t.position
    t.position = square
    try:
        yield
    finally:
        t.position = position


def _movement(state: EncounterState, roster: Sequence[Combatant], sights: Sights) -> dict[str, Any]:
    """The approach's tables (zeros in a fight where nobody moves)."""
    n = len(roster)
    board = state.board
    moves = _moves(state)
    width, height = (board.width, board.height) if board is not None and moves else (1, 1)
    price = np.full((n, width, height, len(STEP_OFFSETS), 2), -1, np.int64)
    dist = np.zeros((width, height), np.int64)
    pos = np.zeros((n, 2), np.int64)
    reach_ft = np.zeros(n, np.int64)
    speed = np.zeros(n, np.int64)
    stride_cost = np.zeros(n, np.int64)
    if moves:
        assert board is not None
        stride = state.rulebook.actions[Stride]
        for i, c in enumerate(roster):
            assert c.position is not None
            pos[i] = c.position
            reach_ft[i] = weapon_distance(_first_weapon(c), state)
            speed[i] = speed_ft(c, state)
            stride_cost[i] = stride.cost(state, Stride(c.id, ()))
            for x in range(width):
                for y in range(height):
                    for k, (dx, dy, _) in enumerate(STEP_OFFSETS):
                        for parity in (0, 1):
                            feet = static_step(state, c, 1, (x, y), (x + dx, y + dy), parity)
                            price[i, x, y, k, parity] = -1 if feet is None else feet
        for dx in range(width):
            for dy in range(height):
                dist[dx, dy] = space_distance_ft(((0, 0),), ((dx, dy),))
    return {"moves": int(moves), "pos": pos, "reach_ft": reach_ft, "speed": speed, "stride_cost": stride_cost,
            "price": price, "offsets": np.array(STEP_OFFSETS, np.int64), "dist": dist, "sight": sights.table,
            **_crowd(state, roster, sights)}


def _crowd(state: EncounterState, roster: Sequence[Combatant], sights: Sights) -> dict[str, Any]:
    """What positions decide among several creatures on the move (zeros in a fight where nobody moves).

    ``flank_geo``: :func:`_flank_geometry`; ``flanker[i, s]``: whether it provides flanking up (0), up and prone (1)
    or down (2) (``provides_flanking``, POS-3, E-22); ``threat_ft``: ``threat_reach``;
    ``guard_hit[a, ally, flanking + 2 view]``: the mean damage of a hit by ``a`` on ``ally`` as the AI's Intercept
    weighs it (``attack_base``'s odds inputs in that situation, the view's cover and high ground included, none
    under total cover as ``base_for`` says; ``attack_value``: expected over hit chance, 0 when it cannot hit) and
    ``guard_reach`` the reach it checks; ``intercept_ft``: ``turn.intercept_range_ft``, and ``guard_seen`` whether
    the interceptor sees the attacker (:func:`seen_table`; RX-26).
    """
    n = len(roster)
    moves = _moves(state)
    flank_geo = _flank_geometry(state, roster) if moves else np.zeros((1, 1, 3, 3, 1, 1), np.int64)
    flanker = np.zeros((n, 3), np.int64)
    threat_ft = np.zeros(n, np.int64)
    guard_hit = np.zeros((n, n, 2 * len(sights.views)), np.float64)
    shots: dict[int, list[Any]] = {}  # each creature's gun and throw, for the AI's Intercept (``_guard_shots``)
    guard_reach = np.zeros(n, np.int64)
    rs = state.ruleset
    if moves:
        token = ruleset_token(rs)
        for i, c in enumerate(roster):
            threat_ft[i] = threat_reach(c.weapons, rs)
            flanker[i, 0] = provides_flanking(c.condition_set, rs) is None
            with _risen(c, 1):
                flanker[i, 1] = provides_flanking(c.condition_set, rs) is None
            with _downed(c, True):
                flanker[i, 2] = provides_flanking(c.condition_set, rs) is None
            weapon = _first_weapon(c)
            reach = attack_limit_ft(weapon, False, rs.attack.natural_reach)  # its fists: natural reach (NAT-6)
            guard_reach[i] = reach
            # its melee option first (``kernel_options``): ``_worth_intercepting`` takes the best of them all
            options = [dataclasses.replace(o, limit_ft=1 << 30) for o in kernel_options(c, state)]
            guarded = any(state.allies_of(e.id) for e in state.enemies_of(c.id))
            if guarded:
                problem = _guard_problem(c, options, reach)
                if problem is not None:
                    raise KernelUnsupported(problem)
            for j, ally in enumerate(roster):
                if ally.side == c.side:
                    continue
                with _beside(state, c, ally):
                    plain = situation(state, c, ally, False)
                    for s, (cover, high) in enumerate(sights.views):
                        for flanking in (0, 1):
                            sit = dataclasses.replace(plain, flanking=bool(flanking), cover=cover, high_ground=high)
                            for option in options:  # the best of its melee options (``_worth_intercepting``)
                                if not option.ranged:
                                    hit = _mean_hit(state, c, ally, option, sit)
                                    if guarded and reach != SQUARE_FT and hit != _mean_hit(
                                            state, c, ally, option, dataclasses.replace(sit, within_5ft=False)):
                                        # ``guard_hit`` holds one hit per flanking and view, read at 5 or 10 ft
                                        raise KernelUnsupported(f"the AI's Intercept weighing a reach weapon's hit "
                                                                f"that changes beyond 5 ft (RX-26, combatant {c.id})")
                                    guard_hit[i, j, flanking + 2 * s] = max(guard_hit[i, j, flanking + 2 * s], hit)
            for option in options:
                if option.ranged:
                    shots.setdefault(i, []).append(option)
    guard_shot, guard_view = _guard_shots(state, roster, shots, token) if shots else (np.zeros((1, 1, 1)),
                                                                                      np.zeros((1, 1, 1, 1), np.int64))
    return {"flank_geo": flank_geo, "flanker": flanker, "threat_ft": threat_ft, "guard_hit": guard_hit,
            "guard_reach": guard_reach, "intercept_ft": rs.turn.intercept_range_ft, "guard_shot": guard_shot,
            "guard_view": guard_view, "guard_seen": seen_table(state)}


def seen_table(state: EncounterState) -> I64:
    """Whether a creature on one square sees one on another, at any distance (Intercept: "a creature you can see").

    ``[rx, ry, ax, ay]``: 1 where ``has_line_of_sight`` from the first square to the second (the engine's ``can_see``
    on the maps the kernel plays on the move: walls alone block sight, ``_sight_problem`` naming light, obscurement
    and cover objects of total cover, ``_approach_problem`` creatures that cannot see each other otherwise; RX-26,
    COV-3). A single 1 where nobody moves or no wall stands: everyone sees everyone.
    """
    board = state.board
    if board is None or not _moves(state) or not board.walls:
        return np.ones((1, 1, 1, 1), np.int64)
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]
    seen = np.zeros((board.width, board.height, board.width, board.height), np.int64)
    for r in squares:
        for a in squares:
            seen[r[0], r[1], a[0], a[1]] = r == a or has_line_of_sight(board, (r,), (a,))
    return seen


def _flank_geometry(state: EncounterState, roster: Sequence[Combatant]) -> I64:
    """Where an attacker and an ally flank a target, for every ally that could threaten it (POS-1, G-37).

    ``[tx, ty, dx + r, dy + r, ax, ay]``: whether an attacker at ``(ax, ay)`` and an ally ``(dx, dy)`` squares from a
    target at ``(tx, ty)`` flank it (the geometry's own ``flanks``), for allies no further from the target than the
    fight's longest threat reach (``threat_reach``: ``flanking_ally``'s test; a halberd's ally flanks from 10 ft,
    ATK-1), ``r`` that reach in squares. The attacker may stand anywhere (a reach weapon's attack from 10 ft).
    """
    board = state.board
    assert board is not None
    reach = max(threat_reach(c.weapons, state.ruleset) for c in roster)
    r = max(1, -(-reach // SQUARE_FT))
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]
    offsets = [(dx, dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
               if (dx, dy) != (0, 0) and space_distance_ft(((0, 0),), ((dx, dy),)) <= reach]
    geo = np.zeros((board.width, board.height, 2 * r + 1, 2 * r + 1, board.width, board.height), np.int64)
    for tx, ty in squares:
        for dx, dy in offsets:
            b = (tx + dx, ty + dy)
            if not board.in_bounds(b) or board.terrain_at(b) is Terrain.IMPASSABLE:
                continue
            for a in squares:
                if a != (tx, ty) and a != b:
                    geo[tx, ty, dx + r, dy + r, a[0], a[1]] = flanks((a,), (b,), ((tx, ty),))
    return geo


def _guard_problem(c: Combatant, options: Sequence[Any], reach: int) -> str | None:
    """Why the AI's Intercept cannot weigh ``c``'s attacks on a creature with allies (None: it can).

    ``_worth_intercepting`` weighs the best mean hit of every option: melee options of the first weapon's reach where
    the ally is within it, and one gun and one thrown melee weapon's throw, or two guns beside its unarmed strike (the
    Gunslinger's kit), whatever the distance and loaded or not (:func:`_guard_shots`: the best of them, in every
    ranged situation); its unarmed strike where it has no melee weapon (of the natural reach ``reach`` then); no
    melee option, or other ranged ones, are named.
    """
    ranged = [o for o in options if o.ranged]
    guns = [o for o in ranged if shot_ok(o)]
    two = len(guns) == len(ranged) == 2 and options[0].unarmed  # two guns and its fists
    if options[0].ranged or (len(guns) > 1 and not two) or len(ranged) - len(guns) > 1 or \
            any(o.weapon is not None and o.weapon.reach != reach for o in options if not o.ranged):
        return f"several ways to attack, as the AI's Intercept weighs them (combatant {c.id})"
    return None


def _mean_hit(state: EncounterState, a: Combatant, t: Combatant, option: Any, sit: Any) -> float:
    """The mean damage of a hit (``attack_value``: expected over hit chance; 0 when it cannot hit or be made)."""
    return _hit_mean(base_for(state, a, t, option, sit, ruleset_token(state.ruleset)))


def _hit_mean(base: Any) -> float:
    """The mean damage of a hit with these odds inputs (expected over hit chance; 0 when none or it cannot hit)."""
    if base is None:
        return 0.0
    value = attack_value(base.key(1))
    return value.expected / value.p_hit if value.p_hit else 0.0


def _guard_shots(state: EncounterState, roster: Sequence[Combatant], shots: dict[int, list[Any]],
                 token: int) -> tuple[npt.NDArray[np.float64], I64]:
    """The AI's Intercept weighing a gun (``_worth_intercepting``): its mean hit on each enemy, in every situation.

    With a thrown weapon beside the gun, the better of the two (every ranged option counts at any distance).

    ``[a, ally, hostile + 2 within 5 ft + 4 aimed + 8 view]`` (the code of ``kernel_weapons_lower``'s ranged attack
    tables: "a hostile within 5 ft" of the shooter, AMOD-7; Aim's bonus, E-05, while its effect lasts; the engine's
    cover and high ground between the squares, X-01, AMOD-2, AMOD-3), and the view table ``[ax, ay, tx, ty]``.
    """
    from ashfall.sim.kernel_weapons_lower import _engine_views, _option_sit

    n = len(roster)
    a0 = roster[0]
    t0 = next(c for c in roster if c.side != a0.side)
    eview, eviews = _engine_views(state, a0, t0)
    codes = 8 * len(eviews)
    guard = np.zeros((n, n, codes), np.float64)
    rs = state.ruleset
    for i, ranged in shots.items():
        a = roster[i]
        for j, ally in enumerate(roster):
            if ally.side == a.side:
                continue
            plain = situation(state, a, ally, True)
            for o, code in ((o, code) for o in ranged for code in range(codes)):
                met = _option_sit(plain, o, code & ~4, eviews, (), set(range(len(eviews))))
                if met is None:
                    continue
                aimed = bool(code & 4)
                if aimed and not rs.attack.aim_available:
                    continue
                base = base_for(state, a, ally, o, met, token)
                if base is None:
                    continue
                if aimed:
                    base = dataclasses.replace(base, first_bonus=rs.attack.aim_bonus)
                guard[i, j, code] = max(guard[i, j, code], _hit_mean(base))
    return guard, eview


@contextmanager
def _risen(c: Combatant, hp: int) -> Iterator[None]:
    """The creature back up after a natural 20 death save (DEATH-7): alive at ``hp`` and still prone."""
    health, conditions = c.health, c.conditions
    c.health = health.evolve(hp=min(health.max_hp, hp))
    c.conditions = (*conditions, AppliedCondition(Condition.PRONE, DEATH_1))
    try:
        yield
    finally:
        c.health, c.conditions = health, conditions


def _hostile_beside(t: Combatant, code: int | None) -> bool:
    """Whether the situation code alone settles "a hostile within 5 ft" (AMOD-7): the target, up, within 5 ft."""
    return code is not None and bool(code & 2) and t.is_active


Prepared = dict[tuple[int, int, AttackContext], tuple[object, object, PreparedAttack]]
"""``prepare_attack``'s answers of one lowering by (attacker's creature, weapon, context); the creature and weapon
are kept with each answer so that their ids stay theirs while the lowering lasts."""


def _prepared(prepared: Prepared, a: Combatant, weapon: Any, context: AttackContext, rs: Ruleset) -> PreparedAttack:
    """The rules core's ``prepare_attack`` of an attack, gathered once per lowering (it rolls nothing)."""
    key = (id(a.creature), id(weapon), context)
    hit = prepared.get(key)
    if hit is None:
        hit = (a.creature, weapon, prepare_attack(a.creature, weapon, mode_for(weapon), rs, context))
        prepared[key] = hit
    return hit[2]


def _tabulate(state: EncounterState, a: Combatant, t: Combatant, activity: Activity, m: Modifier | None,
              code: int | None = None, view: View | None = None, prepared: Prepared | None = None,
              extra: tuple[Any, ...] = ()) -> tuple[int, I64, tuple[DamagePart, ...] | None]:
    """(d20s drawn, outcome by first and second face, damage parts of a hit) of one attack, from ``resolve_attack``.

    ``prepared``: the lowering's ``prepare_attack`` answers so far (each attack is asked about up to 800 faces and
    several situations; its modifiers and sources depend on none of the faces). ``extra``: roll sources the engine
    adds first (a Feint's advantage, ``kernel_maneuvers``).

    Raises:
        KernelUnsupported: For what the table cannot hold (AMOD-7 changing as enemies fall, riders, fumbles).
    """
    rs = state.ruleset
    weapon = _first_weapon(a)
    context, dv = _attack_context(state, a, t, activity, m, code=code, view=view, extra=extra)
    flipped, flipped_dv = _attack_context(state, a, t, activity, m, hostile_flipped=True, code=code, view=view,
                                          extra=extra)
    settled = _hostile_beside(t, code)
    memo: Prepared = {} if prepared is None else prepared
    ready = _prepared(memo, a, weapon, context, rs)
    ready_flipped = ready if settled else _prepared(memo, a, weapon, flipped, rs)

    def same(faces: tuple[int, ...], result: Any) -> bool:
        if settled:
            return True
        other = resolve_attack(a.creature, weapon, mode_for(weapon), flipped_dv, flipped, Faces(*faces), rs,
                               prepared=ready_flipped)
        return bool((other.outcome, other.damage_parts) == (result.outcome, result.damage_parts))

    return attack_faces(lambda rng: resolve_attack(a.creature, weapon, mode_for(weapon), dv, context, rng, rs,
                                                   prepared=ready), a.id, KernelUnsupported, same)


def lower(fight: Fight, round_limit: int) -> Lowered:
    """The arrays of a supported fight (check :func:`unsupported` first).

    Raises:
        KernelUnsupported: For a feature only the tables reveal (advantage on an attack, exotic damage dice,
            several damage types in one hit).
    """
    state = fight.engine.state
    rs = state.ruleset
    roster = list(state.combatants.values())
    n = len(roster)
    sides = tuple(dict.fromkeys(c.side for c in roster))
    section = rs.attack

    init_bonus = np.zeros(n, np.int64)
    for i, c in enumerate(roster):
        base = roll_d20(Faces(10), initiative_modifiers(c, state))
        init_bonus[i] = base.total - base.natural

    plans = [fight.policies[c.id] for c in roster]
    longest = max((len(p.plan) for p in plans if isinstance(p, ScriptedTactics)), default=1)
    plan = np.full((n, longest), -1, np.int64)
    plan_len = np.zeros(n, np.int64)
    step_actions = np.zeros((n, longest), np.int64)
    target_rule = np.zeros(n, np.int64)
    for i, p in enumerate(plans):
        if not isinstance(p, ScriptedTactics):
            continue  # the tactical AI: its tables are ``ai`` (``kernel_ai_lower``)
        plan_len[i] = len(p.plan)
        target_rule[i] = TARGET_CODES[p.target]
        for j, step in enumerate(p.plan):
            plan[i, j] = ACTIVITY_CODES.index(step)
            step_actions[i, j] = ACTIVITIES[step].actions(section) or 1

    act_cost = np.array([action_cost(a, rs) or SINGLE_ACTION for a in ACTIVITY_CODES], np.int64)
    counts = np.array([takes_map(a, rs) and counts_for_map(a, rs) for a in ACTIVITY_CODES], np.int64)
    act_legal = np.zeros((n, len(ACTIVITY_CODES)), np.int64)
    for i, c in enumerate(roster):
        for k, activity in enumerate(ACTIVITY_CODES):
            try:
                validate_attack(state, c, _first_weapon(c), _first_mode(c), activity)
            except Refused:
                continue
            act_legal[i, k] = 1

    for i, c in enumerate(roster):
        if not act_legal[i, STRIKE]:  # the plan would fall back to other weapons or end the turn: not mirrored
            raise KernelUnsupported(f"a first weapon it cannot Strike with (combatant {c.id})")

    variants: list[Modifier | None] = []

    def variant(m: Modifier | None) -> int:
        if m not in variants:
            variants.append(m)
        return variants.index(m)

    map_index = np.zeros((MAX_MAP_COUNT, MAX_MAP_COUNT), np.int64)
    for rolls in range(MAX_MAP_COUNT):
        for strikes in range(MAX_MAP_COUNT):
            map_index[rolls, strikes] = variant(map_modifier(rolls, rs, strike_actions_before=strikes))
    all_out_index = np.array([variant(m) for m in all_out_schedule(rs)], np.int64)

    used_all_out = set(all_out_index.tolist())
    # the MAP variants a Strike or Power Strike can meet: fewer earlier attacks in a turn than it holds
    most_attacks = min(MAX_MAP_COUNT, max(1, len(all_out_index)) * min(cond.max_actions(frozenset(), rs).actions,
                                                                        rs.turn.actions_per_turn))
    used_map = set(map_index[:most_attacks, :most_attacks].ravel().tolist())
    acts = len(TABLE_ACTIVITIES)
    pins = [pinnable(state, c) for c in roster]  # Covering Fire: each activity again for a pinned attacker (SUP-11)
    kinds = acts * (2 if any(pins) else 1)
    moving = _moves(state)
    sights = read_sights(state, roster)
    codes: tuple[int | None, ...] = tuple(range(SITUATIONS * len(sights.views))) if moving else (None,)
    outcome = np.zeros((n, n, kinds, len(variants), TARGET_STATES, len(codes), 20, 20), np.int8)
    # a reach weapon attacks from 10 ft too (ATK-1); fists reach the natural 5 ft (NAT-6)
    long = [attack_limit_ft(_first_weapon(c), False, rs.attack.natural_reach) > SQUARE_FT for c in roster]
    draws = np.ones((n, n, kinds, len(variants), TARGET_STATES, len(codes)), np.int64)
    hit_parts: dict[tuple[int, int], tuple[DamagePart, ...]] = {}
    prepared: Prepared = {}
    for i, a in enumerate(roster):
        for j, t in enumerate(roster):
            if a.side == t.side:
                continue
            for down in range(TARGET_STATES):
                if down == DOWN_DYING and not falls_dying(t.health, rs):
                    continue  # it dies at 0 HP: never attacked dying
                if down >= DOWN_DEAD and not moving:
                    continue  # only a second Attack of Opportunity on one step finds the mover dead
                if down == DOWN_DEAD_PRONE and not falls_dying(t.health, rs):
                    continue  # only a creature that fell dying lies prone when dead
                with _downed(t, down), _beside(state, a, t):
                    for k, activity in enumerate(TABLE_ACTIVITIES):
                        if k < AOO and not (act_legal[i, k] and (k == STRIKE or k in plan[i] or
                                                                 isinstance(plans[i], TacticalPolicy))):
                            continue  # a plan's step, or the Strike it falls back to
                        if down and not (k == AOO or (k == ALL_OUT and down == DOWN_DYING)):
                            continue  # a target down: an All-Out Attack's later attacks, a later AoO on one step
                        if k == AOO and not moving:
                            continue  # no Attack of Opportunity where nobody moves
                        for v, m in enumerate(variants):
                            if (k == ALL_OUT and v not in used_all_out) or (k == AOO and v != 0) or \
                                    (k in (STRIKE, POWER) and v not in used_map):
                                continue  # an AoO takes no MAP (MAP-6): variant 0 stands for it
                            for s_, code in enumerate(codes):
                                if down and code is not None and not code & 2 and not long[i]:
                                    continue  # a target down is attacked from beside it (or a reach weapon's 10 ft)
                                if code is not None and code & 1 and not state.allies_of(a.id):
                                    continue  # nobody to flank with
                                if code is not None and not code & 2 and not state.allies_of(t.id) and not long[i]:
                                    continue  # only an interceptor, or a reach weapon's target, is attacked from afar
                                if code is not None and code // SITUATIONS not in (
                                        sights.near if code & 2 else sights.far):
                                    continue  # no two squares so far apart give this view (or it is total cover)
                                view = sights.views[code // SITUATIONS] if code is not None else None
                                count, table, parts = _tabulate(state, a, t, activity, m, code, view, prepared)
                                draws[i, j, k, v, down, s_] = count
                                outcome[i, j, k, v, down, s_] = table
                                if parts is not None:
                                    hit_parts.setdefault((i, k), parts)
                                if pins[i]:  # SUPPRESSED: the engine adds ``suppressed``'s sources (SUP-11)
                                    count, table, parts = _tabulate(state, a, t, activity, m, code, view, prepared,
                                                                    pinned_sources(state, a))
                                    draws[i, j, acts + k, v, down, s_] = count
                                    outcome[i, j, acts + k, v, down, s_] = table
                                    if parts is not None:
                                        hit_parts.setdefault((i, acts + k), parts)

    if uses_trip(fight):  # edition 2's Trip: prone targets that are up, prone attackers (C-PRO, E-37)
        outcome, draws = prone_attack_tables(fight, roster, outcome, draws, variants,
                                             {"all_out": used_all_out, "map": used_map}, codes, sights, act_legal,
                                             prepared)

    dice, flat, dealt, low = _damage_tables(state, roster, hit_parts, kinds, lambda i, _k: _first_weapon(roster[i]))

    near = np.full((n, n), -1, np.int64)
    for i, a in enumerate(roster):
        foes = [roster.index(e) for e in state.enemies_of(a.id)]
        if state.board is not None:  # as enemies_by_distance: nearest first, roster order among equals
            foes.sort(key=lambda j: space_distance_ft(a.space, roster[j].space))
        near[i, :len(foes)] = foes

    falls = np.array([falls_dying(c.health, rs) for c in roster], np.int64)
    saves = np.array([c.health.uses_death_saves for c in roster], np.int64)
    opts = rs.dying
    save_table = np.zeros((n, opts.successes_to_stabilise, opts.failures_to_die, 20, 4), np.int64)
    vitality_code = {Vitality.ALIVE: 0, Vitality.DYING: 1, Vitality.STABILIZED: 2, Vitality.DEAD: 3}
    for i, c in enumerate(roster):
        if not saves[i]:
            continue
        for succ in range(opts.successes_to_stabilise):
            for fail in range(opts.failures_to_die):
                dying = Health(0, c.health.max_hp, 0, "", Vitality.DYING, succ, fail, True)
                for face in range(1, 21):
                    after = death_save(dying, Faces(face), rs).health
                    save_table[i, succ, fail, face - 1] = (vitality_code[after.vitality], after.successes,
                                                           after.failures, after.hp)
    dying_rules = np.array([rs.damage.massive_damage,
                            rs.damage.massive_damage_basis is MassiveDamageBasis.AFTER_TEMP_HP,
                            opts.damage_failures, opts.crit_failures, opts.failures_to_die,
                            rs.damage.stabilized_damage_resumes_dying], np.int64)
    movement = _movement(state, roster, sights)
    brace = None
    if moving:
        try:
            brace = lower_brace(fight, roster, codes, sights.views, sights.near, sights.far, SITUATIONS,
                                *movement["dist"].shape)
        except ValueError as error:
            raise KernelUnsupported(str(error)) from error
    budget = cond.max_actions(frozenset(), rs)
    stand_cost = np.zeros(n, np.int64)
    stand = state.rulebook.actions[Stand]
    for i, c in enumerate(roster):
        if not falls[i]:
            continue
        with _risen(c, opts.natural_20_hp):
            stand_cost[i] = stand.cost(state, Stand(c.id))
    actions = min(budget.actions, rs.turn.actions_per_turn)
    if actions * max(1, len(all_out_index)) >= MAX_MAP_COUNT:
        raise KernelUnsupported(f"more than {MAX_MAP_COUNT - 1} attacks in one turn")
    if any(isinstance(p, TacticalPolicy) for p in plans) or any(asks_the_ai(fight, c) for c in roster):
        try:
            ai = lower_ai(fight, roster, actions, actions * max(1, len(all_out_index)) + 1)
            ai = dataclasses.replace(ai, options=lower_options(
                fight, roster, actions, actions * max(1, len(all_out_index)) + 1, ai_views(fight, roster, ai),
                sights.views, variants, used_map, used_all_out, _damage_tables, _downed, ai.chooser.tolist()),
                ranged=lower_ranged(fight, roster, actions, _damage_tables))
        except ValueError as error:
            raise KernelUnsupported(str(error)) from error
        try:
            covering = lower_covering(fight, roster, ai.options.eview, ai_views(fight, roster, ai), _damage_tables,
                                      ai.options.melee_best.shape[0] == n) if covers(state) else None
            if covering is not None:  # the AI's Intercept and withdrawal weigh a pinned attacker's hits (SUP-11)
                movement["guard_hit"] = pinned_guard(state, movement["guard_hit"],
                                                     lambda: _crowd(state, roster, sights)["guard_hit"])
                ai = pinned_plans(state, ai, lambda: lower_ai(fight, roster, actions,
                                                              actions * max(1, len(all_out_index)) + 1))
        except ValueError as error:
            raise KernelUnsupported(str(error)) from error
        if uses_trip(fight):  # edition 2's Feint: attacks with its advantage (FNT-3, FNT-5), where the AI may feint
            try:
                outcome, draws = feint_attack_tables(fight, roster, outcome, draws, ai.open_first, variants,
                                                     {"all_out": used_all_out, "map": used_map}, codes, sights,
                                                     act_legal, prepared)
            except ValueError as error:
                raise KernelUnsupported(str(error)) from error
    else:
        ai = dataclasses.replace(empty_tables(n), options=empty_options(n), ranged=empty_ranged(n))
        covering = None
    action_names = (*(state.rulebook.actions[cls].name for cls in INTENTS), stand.name,
                    state.rulebook.actions[Stride].name, state.rulebook.actions[Step].name,
                    state.rulebook.actions[SecondWind].name, *option_action_names(state),
                    *((trip_action_name(fight), *feint_action_names(fight)) if uses_trip(fight) else ()),
                    *ranged_action_names(state),
                    *burst_action_names(fight))
    try:
        maneuvers = lower_maneuvers(fight, roster, action_names)
    except ValueError as error:
        raise KernelUnsupported(str(error)) from error
    if uses_trip(fight):  # anyone may be tripped: everyone may have to stand (ACT-5)
        stand_cost = np.where(falls == 1, stand_cost, stand_costs(fight, roster))
    try:
        morale = lower_morale(fight, roster, bool(moving))
        surprise = lower_surprise(fight, roster)
    except ValueError as error:
        raise KernelUnsupported(str(error)) from error
    return Lowered(
        ids=tuple(c.id for c in roster), sides=sides,
        side=np.array([sides.index(c.side) for c in roster], np.int64),
        agi=np.array([c.creature.attributes.AGI for c in roster], np.int64),
        init_bonus=init_bonus, tiebreak_sides=TIEBREAK_SIDES,
        hp=np.array([c.health.hp for c in roster], np.int64),
        temp_hp=np.array([c.health.temp_hp for c in roster], np.int64),
        max_hp=np.array([c.health.max_hp for c in roster], np.int64),
        near=near, plan=plan, plan_len=plan_len, step_actions=step_actions, target_rule=target_rule,
        threat=np.array([threat_of(c) for c in roster], np.float64),
        act_cost=act_cost, act_legal=act_legal, counts=counts,
        actions=actions,
        map_index=map_index, all_out_index=all_out_index, outcome=outcome, draws=draws, dice=dice, flat=flat,
        dealt=dealt, low=low, falls=falls, saves=saves, save_table=save_table, dying_rules=dying_rules,
        stand_cost=stand_cost, **movement,
        action_names=action_names,
        creatures=tuple(c.creature.id for c in roster), names=tuple(c.name for c in roster),
        round_limit=round_limit, ai=ai, maneuvers=maneuvers, morale=morale, covering=covering, brace=brace,
        surprise=surprise,
    )


@dataclass(frozen=True, slots=True)
class Lowering:
    """A setup's fight as the kernel sees it, decided once.

    Attributes:
        lowered: Its arrays (with the fight's own round limit, 0 for none), or None when the kernel cannot play it.
        problem: The first feature the kernel lacks, or None.
        round_limit: The fight's own round limit, or None.
    """

    lowered: Lowered | None
    problem: str | None
    round_limit: int | None

    def with_round_limit(self, round_limit: int) -> Lowered:
        """The arrays with ``round_limit`` (nothing else in them depends on it).

        Raises:
            KernelUnsupported: For a fight the kernel cannot play (the message names the feature).
        """
        if self.lowered is None:
            raise KernelUnsupported(self.problem or "unknown")
        return dataclasses.replace(self.lowered, round_limit=round_limit)


CACHED_LOWERINGS = 32
"""Setups whose lowering a process keeps (each kept with its setup, so that the setup's id is not reused)."""
_lowerings: dict[int, tuple[FightSetup, Lowering]] = {}


def lowering(setup: FightSetup) -> Lowering:
    """A setup's lowering, done once per setup object in this process (choosing the engine, then playing, share it).

    The fight is built with seed 0 (a fight's tables do not depend on its seed) and lowered with its own round
    limit; :meth:`Lowering.with_round_limit` sets another. A later process reads the same fight's lowering from
    the disk cache instead of lowering it again (:mod:`ashfall.sim.kernel_cache`, keyed by :func:`fight_parts` and
    the code).
    """
    hit = _lowerings.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    fight = setup.build_fight(0)
    found: Lowering = kernel_cache.cached(lambda: fight_parts(fight), lambda: _lowering_of(fight), TABLE_CLASSES)
    remember(setup, found)
    return found


def _lowering_of(fight: Fight) -> Lowering:
    """A built fight's lowering: the first feature the kernel lacks, else its tables."""
    problem = unsupported(fight)
    lowered = None
    if problem is None:
        try:
            lowered = lower(fight, fight.round_limit or 0)
        except KernelUnsupported as error:
            problem = str(error)
    return Lowering(lowered, problem, fight.round_limit)


def fight_parts(fight: Fight) -> dict[str, Any]:
    """What of a built fight its lowering may read, by name: the key of its tables on disk (``kernel_cache``).

    The engine's state (ruleset, board, combatants and their stat blocks …), its controllers and the creatures
    whose dice people enter, the policies, the ambushers and the round limit. The engine's RNG is left out: every
    lowering builds the fight with seed 0.
    """
    engine = fight.engine
    return {"state": engine.state, "controllers": engine.controllers, "entered": engine.entered,
            "policies": fight.policies, "ambushers": fight.ambushers, "round_limit": fight.round_limit}


def remember(setup: FightSetup, found: Lowering) -> None:
    """Keep a lowering for a setup object (a worker process given its parent's lowering with the setup)."""
    if len(_lowerings) >= CACHED_LOWERINGS:  # a long-lived process (tests, a notebook) lowers many setups
        _lowerings.clear()
    _lowerings[id(setup)] = (setup, found)


def check(setup: FightSetup) -> str | None:
    """The first feature of a setup's fight the kernel lacks (None: it plays it), without rolling a die.

    Lowers the fight too (numpy only: numba is not imported), since some features only show in the tables; the
    lowering is kept for the run that follows (:func:`lowering`). A round limit changes nothing the check sees.
    """
    return lowering(setup).problem


TABLE_CLASSES: dict[str, type] = {kind.__qualname__: kind for kind in (
    Lowering, Lowered, AiTables, OptionTables, BurstTables, RangedTables, WithdrawTables, ManeuverTables,
    FeintContest, MoraleTables, CoveringTables, BraceTables)}
"""The dataclasses a lowering is made of: all an entry of the disk cache may build (``kernel_cache``)."""


__all__ = ["ACTIVITY_CODES", "ATTACK_LABELS", "KernelUnsupported", "Lowered", "Lowering", "check", "lower",
           "lowering", "remember", "unsupported"]
