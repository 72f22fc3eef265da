"""The attack pipeline every attack in a fight goes through (Strike, activities, reactions).

It reads the situation off the battlefield (flanking, high ground, cover, a hostile within 5 ft),
offers the reactions an attack triggers (AoO on a ranged attack in reach, Intercept on a melee
attack, Deflect and Return Fire on a ranged hit), resolves the roll with the rules core, and deals
the damage. Reactions neither take nor advance MAP (G-41).
"""

from __future__ import annotations

from dataclasses import dataclass

from ashfall.content.schema import Weapon
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.harm import add, deal_damage, end_conditions
from ashfall.engine.reactions import Trigger, TriggerKind, combine, offer
from ashfall.engine.riders import apply_rider
from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import CoverLevel
from ashfall.grid.geometry import cover_between, flanks, high_ground, space_distance_ft
from ashfall.rules.activities import Activity, AttackMode, attack_traits, provides_flanking, takes_map
from ashfall.rules.attack import AttackContext, AttackResult, resolve_attack
from ashfall.rules.called_shots import CalledShot
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.damage import roll_damage
from ashfall.rules.defense import Cover, DefenseBreakdown, defense_value
from ashfall.rules.durations import AppliedCondition, Duration, EndEvent
from ashfall.rules.map import map_modifier

_COVER = {CoverLevel.NONE: Cover.NONE, CoverLevel.PARTIAL: Cover.PARTIAL, CoverLevel.HEAVY: Cover.HEAVY,
          CoverLevel.TOTAL: Cover.TOTAL}
FF_1, G_20, SUR_4 = rule("FF-1"), rule("G-20"), rule("SUR-4")


@dataclass(frozen=True, slots=True)
class Declared:
    """What the GM declares in a theater-of-mind fight, or to override the map (POS-2, COV)."""

    flanking: bool | None = None
    cover: Cover | None = None
    high_ground: bool | None = None
    unseen_attacker: bool | None = None


NOTHING_DECLARED = Declared()


@dataclass(frozen=True, slots=True)
class Situation:
    """The battlefield facts one attack needs."""

    flanking: bool
    high_ground: bool
    hostile_within_5ft: bool
    within_5ft: bool
    cover: Cover
    flat_footed: bool
    unseen_attacker: bool


def distance(state: EncounterState, a: Combatant, b: Combatant) -> int:
    """Feet between two combatants (0 in a theater-of-mind fight)."""
    if not a.space or not b.space:
        return 0
    return space_distance_ft(a.space, b.space)


def _flanking(state: EncounterState, attacker: Combatant, target: Combatant) -> bool:
    if state.board is None or not attacker.space:
        return False
    for ally in state.allies_of(attacker.id):
        if not ally.space or not ally.is_active:
            continue
        if provides_flanking(ally.condition_set, state.ruleset) is not None:
            continue
        if distance(state, ally, target) <= max((w.reach for w in ally.weapons), default=5) and flanks(
            attacker.space, ally.space, target.space
        ):
            return True
    return False


def situation(state: EncounterState, attacker: Combatant, target: Combatant, ranged: bool,
              declared: Declared = NOTHING_DECLARED) -> Situation:
    """Read the attack's situation off the map, with GM declarations taking precedence."""
    board = state.board
    cover = Cover.NONE
    if board is not None and attacker.space and target.space:
        cover = _COVER[cover_between(board, attacker.space, target.space)[0]]
    hostile = any(
        e.is_active and not e.has(Condition.INCAPACITATED) and distance(state, attacker, e) <= 5
        for e in state.enemies_of(attacker.id)
    )
    hg = bool(board is not None and attacker.space and high_ground(board, attacker.space, target.space))
    return Situation(
        flanking=declared.flanking if declared.flanking is not None else (not ranged and _flanking(
            state, attacker, target)),
        high_ground=declared.high_ground if declared.high_ground is not None else hg,
        hostile_within_5ft=hostile,
        within_5ft=distance(state, attacker, target) <= 5,
        cover=declared.cover if declared.cover is not None else cover,
        flat_footed=target.surprised and state.round <= 1,
        unseen_attacker=bool(declared.unseen_attacker) or attacker.has(Condition.HIDDEN),
    )


def target_defense(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
                   mode: AttackMode, sit: Situation, *, weak_point: bool = False) -> DefenseBreakdown:
    """The target's DV against this attack (DV, FF, COV, STC)."""
    return defense_value(
        target.creature, target.armor, target.shield, state.ruleset,
        conditions=target.condition_set, cover=sit.cover, attack=attack_traits(weapon, mode),
        weak_point=weak_point, flat_footed=sit.flat_footed or sit.unseen_attacker,
    )


@dataclass(frozen=True, slots=True)
class AttackPlan:
    """One attack to make: who, with what, as part of which activity."""

    attacker: str
    target: str
    weapon: Weapon | None
    mode: AttackMode
    activity: Activity = Activity.STRIKE
    called_shot: CalledShot | None = None
    declared: Declared = NOTHING_DECLARED
    map_steps: int | None = None
    label: str = "Strike"


def is_ranged_attack(weapon: Weapon | None, mode: AttackMode) -> bool:
    """Whether the attack is a ranged one (cover, high ground, AMOD-7, RX-21)."""
    return attack_traits(weapon, mode).ranged


def _map(c: Combatant, plan: AttackPlan, ctx: Context) -> tuple[object, bool]:
    counts = takes_map(plan.activity, ctx.ruleset)
    if not counts:
        return None, False
    steps = c.turn.attack_rolls if plan.map_steps is None else plan.map_steps
    return map_modifier(steps, ctx.ruleset, strike_actions_before=c.turn.strike_actions), True


def perform_attack(ctx: Context, plan: AttackPlan) -> AttackResult | None:
    """Make one attack: triggers, roll, damage, riders. Returns None if the attacker fell first."""
    state = ctx.state
    attacker = state.get(plan.attacker)
    ranged = is_ranged_attack(plan.weapon, plan.mode)
    target_id = plan.target
    if ranged and plan.activity not in (Activity.ATTACK_OF_OPPORTUNITY,):
        effects = offer(ctx, Trigger(TriggerKind.RANGED_ATTACK_IN_REACH, attacker.id, target_id))
        if not attacker.is_active or combine(effects).cancelled:
            return None
    if not ranged:
        redirect = combine(offer(ctx, Trigger(TriggerKind.MELEE_ATTACK_DECLARED, attacker.id, target_id)))
        target_id = redirect.redirect_to or target_id
    target = state.get(target_id)
    sit = situation(state, attacker, target, ranged, plan.declared)
    weak = plan.called_shot is CalledShot.WEAK_POINT
    dv = target_defense(state, attacker, target, plan.weapon, plan.mode, sit, weak_point=weak)
    map_mod, counts = _map(attacker, plan, ctx)
    context = AttackContext(
        activity=plan.activity, map_modifier=map_mod,  # type: ignore[arg-type]
        flanking=sit.flanking, high_ground=sit.high_ground, hostile_within_5ft=sit.hostile_within_5ft,
        within_5ft=sit.within_5ft, target_conditions=target.condition_set,
        attacker_conditions=attacker.condition_set, unseen_attacker=sit.unseen_attacker,
        called_shot=plan.called_shot,
    )
    result = resolve_attack(attacker.creature, plan.weapon, plan.mode, dv, context, ctx.rng, ctx.ruleset)
    ctx.emit(ev.AttackRolled(
        attacker.id, target.id, result.weapon.id if result.weapon else plan.mode.value, plan.label,
        ev.RollRecord.of(result.roll), dv.total, ev.parts(dv.modifiers.applied), result.outcome.value,
        tuple(result.reasons), counts and result.counts_for_map,
    ))
    if attacker.has(Condition.HIDDEN):
        end_conditions(ctx, attacker.id, EndEvent(EndTrigger.ATTACKS), G_20)
    if result.hit:
        _on_hit(ctx, attacker, target, result, ranged, weak)
    return result


def _on_hit(ctx: Context, attacker: Combatant, target: Combatant, result: AttackResult, ranged: bool,
            weak: bool) -> None:
    damage = roll_damage(result.damage_parts, ctx.rng, ctx.ruleset, critical=result.crit)
    reduction = 0
    if ranged:
        data: tuple[tuple[str, object], ...] = (("damage", damage.total),)
        hit_effects = offer(ctx, Trigger(TriggerKind.HIT_BY_RANGED, attacker.id, target.id, data,
                                         only=frozenset({target.id})))
        reduction = combine(hit_effects).damage_reduction
    dealt = deal_damage(ctx, target.id, damage, source=attacker.id, label=result.activity.value,
                        critical=result.crit, deflect=reduction, ignore_armor_dr=weak)
    for rider in result.riders:
        apply_rider(ctx, attacker, target, rider, dealt.total)
    if ranged:
        offer(ctx, Trigger(TriggerKind.RANGED_HIT, attacker.id, target.id))




def condition_for(target: str, condition: Condition, rule_id: RuleId, source: str | None,
                  until_end_of_targets_next_turn: bool) -> AppliedCondition:
    """An applied condition lasting until removed or until the end of the target's next turn."""
    duration = Duration.end_of_next_turn(target) if until_end_of_targets_next_turn else Duration.until_removed()
    return AppliedCondition(condition, rule_id, source, duration)


__all__ = ["AttackPlan", "Declared", "Situation", "add", "condition_for", "perform_attack", "situation"]
