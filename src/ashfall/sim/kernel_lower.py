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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.board_cache import static_step
from ashfall.content.schema import WeaponKind
from ashfall.core.d20 import roll_d20
from ashfall.core.dice import BinOp, Const, Dice, DiceExpr, Node
from ashfall.core.modifiers import Modifier
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.encounters.schema import TargetRule
from ashfall.engine import Combatant, EncounterState, Stand, Stride
from ashfall.engine.actions import Refused
from ashfall.engine.turns import TIEBREAK_SIDES, initiative_modifiers
from ashfall.families.attacks.engine import cover_level, situation, target_defense
from ashfall.families.attacks.engine_common import melee_reach, speed_ft
from ashfall.families.attacks.moves_activities import AllOutAttack, PowerStrike, validate_attack
from ashfall.families.attacks.moves_strike import Strike
from ashfall.families.attacks.rules import AttackContext, Outcome, resolve_attack
from ashfall.families.attacks.rules_activities import (
    ACTIVITIES,
    SINGLE_ACTION,
    Activity,
    AttackMode,
    action_cost,
    counts_for_map,
    takes_map,
)
from ashfall.families.attacks.rules_map import all_out_schedule, map_modifier
from ashfall.families.dying.rules import death_save
from ashfall.families.morale.engine import immune_rule, morale_active
from ashfall.families.movement.moves import board_only_costs
from ashfall.families.senses.engine import concealment_sources
from ashfall.grid.board import SQUARE_FT, CoverLevel
from ashfall.grid.geometry import space_distance_ft
from ashfall.grid.paths import STEP_OFFSETS
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.damage_defenses import Defenses, is_magical_weapon
from ashfall.rules.damage_ledger import crit_doubles, damage_ledger
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.health import Health, Vitality, falls_dying
from ashfall.rules.reach import attack_limit_ft
from ashfall.ruleset.sections import MassiveDamageBasis
from ashfall.sim.policy import ScriptedTactics, threat_of, weapon_distance
from ashfall.sim.setups import Fight, FightSetup

I64 = npt.NDArray[np.int64]
DEATH_1 = rule("DEATH-1")

ACTIVITY_CODES: tuple[Activity, ...] = (Activity.STRIKE, Activity.POWER_STRIKE, Activity.ALL_OUT)
"""The activities the kernel plays, by code (the index): a plan step is one of these."""
STRIKE, POWER, ALL_OUT = 0, 1, 2
INTENTS: tuple[type, ...] = (Strike, PowerStrike, AllOutAttack)
"""The engine's intent class of each activity code (its rulebook names the action)."""
ATTACK_LABELS = ("Strike", "Power Strike", "All-Out Attack")
"""How the engine labels the attack rolls of each activity (``All-Out Attack (i)`` with the attack's number)."""
TARGET_CODES: dict[TargetRule | None, int] = {
    None: 0, TargetRule.NEAREST: 0, TargetRule.WEAKEST: 1, TargetRule.STRONGEST: 2, TargetRule.HIGHEST_THREAT: 3,
}
"""Target rules by code: 0 keeps the nearest first (off the map every enemy is as near as the others)."""
MAX_MAP_COUNT = 16
"""MAP is tabulated for up to this many earlier attacks (and Strike actions) in one turn."""
KNOWN_FAMILIES = frozenset({"morale", "movement", "attacks", "reactions", "maneuvers", "utility", "dying", "turns",
                            "senses", "gm"})
"""The rulebook families of a plain fight (every other family is dormant); the kernel mirrors what they do in
the fights it supports (see :func:`unsupported`)."""

INERT_MOVEMENT_HOOKS = ("ashfall.families.morale.", "ashfall.families.maneuvers.")
"""Movement hooks that do nothing in the kernel's fights: a fleeing creature's escape (morale is off there) and a
grapple following its holder (nobody grapples)."""


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
        outcome: ``[attacker, target, activity, MAP variant, target down, first face - 1, second face - 1]``:
            0 miss, 1 hit, 2 crit (the second face is 1 when the roll draws one d20). "Target down": the target
            is dying (DEATH-1: unconscious and prone), as an All-Out Attack's later attacks find it.
        draws: ``[attacker, target, activity, MAP variant, target down]``: d20s the attack roll draws (2 with
            advantage or disadvantage).
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
        moves: 1 when someone has to approach first (a duel on an open grid), else 0.
        pos: Each combatant's starting square ``(x, y)`` (zeros off the map).
        reach_ft: How near each must be to attack (its weapon's reach).
        speed: Feet each Stride may cover (``speed_ft``).
        stride_cost: Actions a Stride costs each combatant (ACT-2).
        price: ``[combatant, x, y, step, diagonals mod 2]`` feet to step from ``(x, y)`` along ``offsets[step]``
            ignoring creatures (-1: it cannot), from the movement rules' own ``static_step`` (MOV-2..5, G-37).
        offsets: The path search's neighbour order ``(dx, dy, diagonal)`` (``STEP_OFFSETS``).
        dist: ``[|dx|, |dy|]`` the distance in feet between two squares so far apart (``space_distance_ft``).
        action_names: The engine's action name of each activity, then of Stand and Stride (``actions-spent``
            labels).
        creatures: Stat block id of each combatant.
        names: Display names.
        round_limit: Rounds before the fight stops undecided.
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
    outcome: I64
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
    action_names: tuple[str, ...]
    creatures: tuple[str, ...]
    names: tuple[str, ...]
    round_limit: int


class _Fixed:
    """An RNG that shows given faces (then the last again) and counts its draws (to ask the rules about every face)."""

    __slots__ = ("draws", "face", "faces")

    def __init__(self, face: int, *later: int) -> None:
        self.face, self.faces, self.draws = face, (face, *later), 0

    def roll(self, sides: int) -> int:
        face = self.faces[min(self.draws, len(self.faces) - 1)]
        self.draws += 1
        return min(face, sides)

    def getstate(self) -> object:
        return self.draws

    def setstate(self, state: object) -> None:
        self.draws = int(state)  # type: ignore[call-overload]


def _first_weapon(c: Combatant) -> Any:
    return c.weapons[0] if c.weapons else None


def _plan_problem(fight: Fight, c: Combatant) -> str | None:
    policy = fight.policies.get(c.id)
    if not isinstance(policy, ScriptedTactics):
        return f"tactical AI (combatant {c.id})"
    if policy.chooser is not None and len(fight.engine.state.enemies_of(c.id)) > 1:
        # with one enemy the plan never asks the chooser (ScriptedTactics._ordered): only the AI's pick among
        # several is out of the kernel's reach
        return f"the AI's target choice for a plan without a target rule (combatant {c.id})"
    for step in policy.plan:
        if step not in ACTIVITY_CODES:
            return f"activity {step.value} (combatant {c.id})"
    return None


def _reaction_problem(fight: Fight, c: Combatant) -> str | None:
    """Reactions: off the map the only one a melee fight offers is Intercept, to a creature with an ally (RX-26).

    The AI never intercepts without positions to weigh (``_worth_intercepting``), so the kernel plays no
    reactions; a creature without a controller takes the first option offered (``new_engine``) and would.
    """
    if not fight.engine.state.allies_of(c.id) or isinstance(fight.engine.controllers.get(c.id), TacticalPolicy):
        return None
    return f"reactions taken without the AI's judgement (combatant {c.id} would Intercept)"


def _combatant_problem(state: EncounterState, c: Combatant) -> str | None:
    if c.creature.vehicle is not None:
        return f"vehicles (combatant {c.id})"
    if c.conditions:
        return f"starting conditions (combatant {c.id})"
    weapon = _first_weapon(c)
    if weapon is None:
        return f"unarmed and natural attacks (combatant {c.id})"
    if weapon.kind is not WeaponKind.MELEE:
        return f"ranged and thrown weapons (combatant {c.id})"
    if c.creature.talents:
        return f"talents (combatant {c.id}: {sorted(c.creature.talents)[0]})"
    if morale_active(state) and immune_rule(state, c) is None:
        return f"morale (combatant {c.id} checks morale)"
    return None


def _approach_problem(fight: Fight, mover: Combatant, foe: Combatant) -> str | None:
    """A fight where someone must move first: the kernel mirrors the scripted approach in a duel on an open grid.

    Two creatures of one square, each with one melee weapon reaching 5 ft (and threatening as far), plans that
    move, no walls, terrain, elevation or anything else the step prices or movement hooks read: then every
    attack is made from an adjacent square, nobody ever leaves an enemy's reach (no Attack of Opportunity, RX-21)
    and nothing gives cover or flanking, so the lowered tables (asked with the two side by side) hold.
    """
    state = fight.engine.state
    board = state.board
    assert board is not None
    needs = f"combatant {mover.id} must move to reach {foe.id}"
    if len(state.combatants) != 2:
        return f"maps and movement with more than two combatants ({needs})"
    if board.walls or board.terrain or board.elevation or not board_only_costs(state):
        return f"maps and movement with walls, terrain or elevation ({needs})"
    if any(not hook.__module__.startswith(INERT_MOVEMENT_HOOKS) for hook in state.rulebook.movement_hooks):
        return f"movement hooks ({needs})"
    for c in state.combatants.values():
        policy = fight.policies[c.id]
        weapon = _first_weapon(c)
        limit = attack_limit_ft(weapon, False, state.ruleset.attack.natural_reach)
        if c.creature.size.squares != 1 or len(c.weapons) != 1:
            return f"maps and movement for large creatures or several weapons (combatant {c.id})"
        if not isinstance(policy, ScriptedTactics) or not policy.move:
            return f"plans that do not move (combatant {c.id})"
        if not limit == weapon_distance(weapon, state) == melee_reach(c, state) == SQUARE_FT:
            return f"maps and movement with reach weapons (combatant {c.id})"
    return None


def _map_problem(fight: Fight) -> str | None:
    """On a map the kernel plays fights where nobody needs to move: every enemy within reach from the start.

    Then the scripted plan never Strides and no reaction is offered (an Attack of Opportunity needs movement or
    a ranged attack, Intercept an ally within its range, RX-26); who is nearest, cover, high ground and the
    absence of flanking never change (allies only ever leave), so the lowered tables hold for the whole fight.
    A duel on an open grid may start apart (:func:`_approach_problem`).
    """
    state = fight.engine.state
    if state.environment.objects:
        return "destructible objects on the map"
    rs = state.ruleset
    roster = list(state.combatants.values())
    for c in roster:
        if not c.space:
            return f"maps and movement (combatant {c.id} has no square)"
    for c in roster:
        weapon = _first_weapon(c)
        limit = attack_limit_ft(weapon, False, rs.attack.natural_reach)
        for e in state.enemies_of(c.id):
            if space_distance_ft(c.space, e.space) > limit:
                problem = _approach_problem(fight, c, e)
                if problem is not None:
                    return problem
                continue
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
        problem = _plan_problem(fight, c) or _combatant_problem(state, c) or _reaction_problem(fight, c)
        if problem is not None:
            return problem
    if fight.ambushers is not None:
        return "surprise (an ambushing side)"
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
                    map_mod: Modifier | None, hostile_flipped: bool = False) -> tuple[AttackContext, Any]:
    """The rules core's context, as the engine's ``_attack_context`` builds it (the situation read off the map).

    ``hostile_flipped`` turns "a hostile within 5 ft" (AMOD-7) the other way: the one fact of the situation that
    changes as enemies fall, so the tables are only used when it makes no difference.
    """
    weapon = _first_weapon(a)
    sit = situation(state, a, t, False)
    if hostile_flipped:
        sit = dataclasses.replace(sit, hostile_within_5ft=not sit.hostile_within_5ft)
    dv = target_defense(state, a, t, weapon, AttackMode.MELEE, sit)
    context = AttackContext(
        activity=activity, map_modifier=map_mod if takes_map(activity, state.ruleset) else None,
        flanking=sit.flanking, high_ground=sit.high_ground, hostile_within_5ft=sit.hostile_within_5ft,
        within_5ft=sit.within_5ft, target_conditions=t.condition_set, attacker_conditions=a.condition_set,
        unseen_attacker=sit.unseen_attacker, extra_sources=tuple(concealment_sources(state, a, t)),
    )
    return context, dv


@contextmanager
def _downed(t: Combatant, down: bool) -> Iterator[None]:
    """The target as an attack finds it: up, or (``down``) dying at 0 HP and prone, as dropping leaves it (DEATH-1).

    The state is restored afterwards: the tables are asked of the reference's rules on the fight as it would be.
    """
    if not down:
        yield
        return
    health, conditions = t.health, t.conditions
    t.health = health.evolve(hp=0, vitality=Vitality.DYING, successes=0, failures=0)
    t.conditions = (*conditions, AppliedCondition(Condition.PRONE, DEATH_1))
    try:
        yield
    finally:
        t.health, t.conditions = health, conditions


def _moves(state: EncounterState) -> bool:
    """Whether someone must approach before it can attack (a duel on an open grid, see ``_approach_problem``)."""
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


def _movement(state: EncounterState, roster: Sequence[Combatant]) -> dict[str, Any]:
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
            "price": price, "offsets": np.array(STEP_OFFSETS, np.int64), "dist": dist}


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


def _tabulate(state: EncounterState, a: Combatant, t: Combatant, activity: Activity, m: Modifier | None
              ) -> tuple[int, I64, tuple[DamagePart, ...] | None]:
    """(d20s drawn, outcome by first and second face, damage parts of a hit) of one attack, from ``resolve_attack``.

    Raises:
        KernelUnsupported: For what the table cannot hold (AMOD-7 changing as enemies fall, riders, fumbles).
    """
    rs = state.ruleset
    weapon = _first_weapon(a)
    context, dv = _attack_context(state, a, t, activity, m)
    flipped, flipped_dv = _attack_context(state, a, t, activity, m, hostile_flipped=True)
    probe = _Fixed(10)
    resolve_attack(a.creature, weapon, AttackMode.MELEE, dv, context, probe, rs)
    count = probe.draws
    if count not in (1, 2):
        raise KernelUnsupported(f"attack rolls of {count} d20s (combatant {a.id})")
    table = np.zeros((20, 20), np.int64)
    parts: tuple[DamagePart, ...] | None = None
    for first in range(1, 21):
        for second in range(1, 21) if count == 2 else (1,):
            faces = (first, second) if count == 2 else (first,)
            result = resolve_attack(a.creature, weapon, AttackMode.MELEE, dv, context, _Fixed(*faces), rs)
            other = resolve_attack(a.creature, weapon, AttackMode.MELEE, flipped_dv, flipped, _Fixed(*faces), rs)
            if (other.outcome, other.damage_parts) != (result.outcome, result.damage_parts):
                raise KernelUnsupported(f"attacks that change as enemies fall (AMOD-7, combatant {a.id})")
            if result.riders or result.fumble is not None:
                raise KernelUnsupported(f"attack riders and fumbles (combatant {a.id})")
            table[first - 1, second - 1] = (0 if result.outcome is Outcome.MISS else
                                            2 if result.outcome is Outcome.CRIT else 1)
            if result.hit and parts is None:
                parts = result.damage_parts
    return count, table, parts


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
        base = roll_d20(_Fixed(10), initiative_modifiers(c, state))
        init_bonus[i] = base.total - base.natural

    plans = [fight.policies[c.id] for c in roster]
    longest = max(len(p.plan) for p in plans if isinstance(p, ScriptedTactics))
    plan = np.full((n, longest), -1, np.int64)
    plan_len = np.zeros(n, np.int64)
    step_actions = np.zeros((n, longest), np.int64)
    target_rule = np.zeros(n, np.int64)
    for i, p in enumerate(plans):
        assert isinstance(p, ScriptedTactics)
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
                validate_attack(state, c, _first_weapon(c), AttackMode.MELEE, activity)
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
    acts = len(ACTIVITY_CODES)
    outcome = np.zeros((n, n, acts, len(variants), 2, 20, 20), np.int64)
    draws = np.ones((n, n, acts, len(variants), 2), np.int64)
    hit_parts: dict[tuple[int, int], tuple[DamagePart, ...]] = {}
    for i, a in enumerate(roster):
        for j, t in enumerate(roster):
            if a.side == t.side:
                continue
            for down in (0, 1):
                if down and not falls_dying(t.health, rs):
                    continue  # it dies at 0 HP: never attacked down
                with _downed(t, bool(down)), _beside(state, a, t):
                    for k, activity in enumerate(ACTIVITY_CODES):
                        if not act_legal[i, k] or (down and k != ALL_OUT):
                            continue  # only an All-Out Attack's later attacks find a target down
                        for v, m in enumerate(variants):
                            if k == ALL_OUT and v not in used_all_out:
                                continue
                            count, table, parts = _tabulate(state, a, t, activity, m)
                            draws[i, j, k, v, down] = count
                            outcome[i, j, k, v, down] = table
                            if parts is not None:
                                hit_parts.setdefault((i, k), parts)

    groups_of: dict[tuple[int, int, int], tuple[list[tuple[int, int]], int]] = {}
    most = 1
    for (i, k), parts in hit_parts.items():
        if len({p.type for p in parts}) != 1:
            raise KernelUnsupported(f"several damage types in one hit (combatant {roster[i].id})")
        for crit in (0, 1):
            groups_of[i, k, crit] = _damage(parts, bool(crit), state)
            most = max(most, len(groups_of[i, k, crit][0]))
    dice = np.zeros((n, acts, 2, most, 2), np.int64)
    flat = np.zeros((n, acts, 2), np.int64)
    low, high = 0, 0
    for (i, k, crit), (groups, total_flat) in groups_of.items():
        for g, (count, sides_) in enumerate(groups):
            dice[i, k, crit, g] = (count, sides_)
        flat[i, k, crit] = total_flat
        low = min(low, total_flat + sum(count for count, _ in groups))
        high = max(high, total_flat + sum(count * s for count, s in groups))
    dealt = np.zeros((n, acts, n, 2, high - low + 1), np.int64)
    for (i, k), parts in hit_parts.items():
        a = roster[i]
        magical = is_magical_weapon(_first_weapon(a), a.creature.talents)
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
                    after = death_save(dying, _Fixed(face), rs).health
                    save_table[i, succ, fail, face - 1] = (vitality_code[after.vitality], after.successes,
                                                           after.failures, after.hp)
    dying_rules = np.array([rs.damage.massive_damage,
                            rs.damage.massive_damage_basis is MassiveDamageBasis.AFTER_TEMP_HP,
                            opts.damage_failures, opts.crit_failures, opts.failures_to_die,
                            rs.damage.stabilized_damage_resumes_dying], np.int64)
    movement = _movement(state, roster)
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
        action_names=(*(state.rulebook.actions[cls].name for cls in INTENTS), stand.name,
                      state.rulebook.actions[Stride].name),
        creatures=tuple(c.creature.id for c in roster), names=tuple(c.name for c in roster),
        round_limit=round_limit,
    )


def check(setup: FightSetup, max_rounds: int | None = None) -> str | None:
    """The first feature of a setup's fight the kernel lacks (None: it plays it), without rolling a die.

    Lowers the fight too (numpy only: numba is not imported), since some features only show in the tables.
    """
    fight = setup.build_fight(0)
    problem = unsupported(fight)
    if problem is not None:
        return problem
    try:
        lower(fight, max_rounds or fight.round_limit or 1)
    except KernelUnsupported as error:
        return str(error)
    return None


__all__ = ["ACTIVITY_CODES", "ATTACK_LABELS", "KernelUnsupported", "Lowered", "check", "lower", "unsupported"]
