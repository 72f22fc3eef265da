"""The attack pipeline every attack in a fight goes through (Strike, activities, reactions).

It reads the situation off the battlefield (flanking, high ground, cover, a hostile within 5 ft),
offers the reactions an attack triggers (AoO on a ranged attack in reach, Intercept on a melee
attack, Deflect and Return Fire on a ranged hit), resolves the roll with the rules core, and deals
the damage. Reactions neither take nor advance MAP (G-41).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ashfall.content.schema import Weapon, WeaponProperty
from ashfall.core.dice import BinOp, Dice, Neg, Node
from ashfall.core.modifiers import Modifier, RollSource, adv, dis
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.harm import add, deal_damage, end_conditions
from ashfall.engine.reactions import Trigger, TriggerKind, combine, offer
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine_cover import board_with_objects
from ashfall.families.attacks.engine_riders import apply_rider
from ashfall.families.attacks.rules import AttackContext, AttackResult, Outcome, resolve_attack
from ashfall.families.attacks.rules_activities import (
    MODES,
    Activity,
    AttackMode,
    attack_traits,
    effective_mode,
    is_ranged,
    provides_flanking,
    takes_map,
)
from ashfall.families.attacks.rules_called_shots import CalledShot
from ashfall.families.attacks.rules_map import TwoWeapon, map_modifier
from ashfall.families.attacks.rules_multi_attack import MultiAttackResult, Target, resolve_multi_target
from ashfall.families.senses.engine import concealment_sources
from ashfall.grid.areas import adjacent_to, cover_past
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square
from ashfall.grid.geometry import cover_between, flanks, high_ground, space_distance_ft
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import AppliedCondition, Duration, EndEvent
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.conditions import target_flat_footed_against
from ashfall.rules.damage import DamageResult, DamageRoll, roll_damage
from ashfall.rules.damage_defenses import is_magical_weapon
from ashfall.rules.damage_ledger import crit_doubles
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.defense import AttackTraits, Cover, DefenseBreakdown, defense_value
from ashfall.rules.reach import threat_reach
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import TwfSchedule

_COVER = {CoverLevel.NONE: Cover.NONE, CoverLevel.PARTIAL: Cover.PARTIAL, CoverLevel.HEAVY: Cover.HEAVY,
          CoverLevel.TOTAL: Cover.TOTAL}
FF_1, G_20, SUR_4, E_05 = rule("FF-1"), rule("G-20"), rule("SUR-4"), rule("E-05")


@dataclass(frozen=True, slots=True)
class Declared:
    """What the GM declares in a theater-of-mind fight, or to override the map (POS-2, COV)."""

    flanking: bool | None = None
    cover: Cover | None = None
    high_ground: bool | None = None
    unseen_attacker: bool | None = None
    hostile_within_5ft: bool | None = None
    within_5ft: bool | None = None


NOTHING_DECLARED = Declared()


@dataclass(frozen=True, slots=True)
class AttackExtra:
    """What a battlefield layer adds to one attack roll: modifiers, advantage sources, or an automatic miss."""

    modifiers: tuple[Modifier, ...] = ()
    sources: tuple[RollSource, ...] = ()
    auto_miss: RuleId | None = None


NO_EXTRA = AttackExtra()
"""What no battlefield layer adds."""

AttackHook = Callable[[EncounterState, Combatant, Combatant, Weapon | None, AttackMode], AttackExtra]
"""A battlefield layer that changes attack rolls: hook(state, attacker, target, weapon, mode), in the rulebook's
``attack_hooks``. Underwater attacks (UW-13..18), a rider's bonuses (MNT-5, MNT-6), vehicles (VEH-5, E-43)."""


def attack_extra(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
                 mode: AttackMode) -> AttackExtra:
    """Every attack hook's contribution to one attack, combined (the first automatic miss wins)."""
    hooks = state.rulebook.attack_hooks
    if not hooks:
        return NO_EXTRA  # no family that changes attack rolls is in this fight: it costs nothing
    found = [hook(state, attacker, target, weapon, mode) for hook in hooks]
    return AttackExtra(tuple(m for f in found for m in f.modifiers), tuple(x for f in found for x in f.sources),
                       next((f.auto_miss for f in found if f.auto_miss is not None), None))


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
    leaning_out: bool = False


def leaning_out(state: EncounterState, c: Combatant) -> bool:
    """Whether a creature has leaned out around its cover and lost it until its next turn (COV-4, G-55)."""
    return bool(state.effects_on(c.id, EffectKind.NO_COVER))


def cover_level(state: EncounterState, attacker: Combatant, target: Combatant) -> CoverLevel:
    """Cover between two creatures on the map; one leaning out shoots past the cover next to it (COV-4).

    Intact destructible objects count as well as the board's cover; a broken one gives none (STC-10).
    """
    assert state.board is not None
    board = board_with_objects(state.board, state.environment, attacker.space)
    if leaning_out(state, attacker):
        return cover_past(board, attacker.space, target.space, adjacent_to(attacker.space))
    return cover_between(board, attacker.space, target.space)[0]


def distance(state: EncounterState, a: Combatant, b: Combatant) -> int:
    """Feet between two combatants (0 in a theater-of-mind fight)."""
    sa = a.space
    if not sa:
        return 0
    sb = b.space
    if not sb:
        return 0
    return space_distance_ft(sa, sb)


def flanking_ally(state: EncounterState, ally: Combatant, conditions: frozenset[Condition],
                  ally_space: tuple[Square, ...], target_space: tuple[Square, ...]) -> bool:
    """Whether an ally on ``ally_space`` threatens a target on ``target_space`` so as to flank it (POS-1).

    It must not be dead, its conditions must let it flank (a downed ally is unconscious: POS-3 excludes it in
    edition 2, edition 1 still counts it, E-22), and the target must be within its threat reach. Whether the
    attacker stands opposite it is :func:`~ashfall.grid.geometry.flanks`'s question.
    """
    if not ally_space or not target_space or ally.health.is_dead:
        return False
    if provides_flanking(conditions, state.ruleset) is not None:
        return False
    return space_distance_ft(ally_space, target_space) <= threat_reach(ally.weapons, state.ruleset)


def threatens_nearby(c: Combatant, conditions: frozenset[Condition], ruleset: Ruleset) -> bool:
    """Whether a creature counts as a hostile within 5 ft (AMOD-7): up, on the map, not incapacitated."""
    return c.is_active and bool(c.space) and Condition.INCAPACITATED not in cond.expand(conditions, ruleset)


def flat_footed_by_surprise(state: EncounterState, target: Combatant) -> bool:
    """A surprised target is flat-footed in the surprise round (FF-1)."""
    return target.surprised and state.round <= 1


def unseen_attacker(attacker: Combatant) -> bool:
    """An attacker that is hidden attacks unseen (AMOD-5); the GM may declare it too (:class:`Declared`)."""
    return attacker.has(Condition.HIDDEN)


def _flanking(state: EncounterState, attacker: Combatant, target: Combatant) -> bool:
    if state.board is None or not attacker.space:
        return False
    return any(flanking_ally(state, ally, ally.condition_set, ally.space, target.space)
               and flanks(attacker.space, ally.space, target.space) for ally in state.allies_of(attacker.id))


def _hostile_within_5ft(state: EncounterState, attacker: Combatant) -> bool:
    """An enemy that is up, not incapacitated, within 5 ft of the attacker (AMOD-7; off the map: none)."""
    # every test is a pure read, so the cheap distance comes before expanding the enemy's conditions
    return bool(attacker.space) and any(
        e.space and distance(state, attacker, e) <= SQUARE_FT and threatens_nearby(e, e.condition_set, state.ruleset)
        for e in state.enemies_of(attacker.id)
    )


hostile_within_5ft = _hostile_within_5ft


def situation(state: EncounterState, attacker: Combatant, target: Combatant, ranged: bool,
              declared: Declared = NOTHING_DECLARED) -> Situation:
    """Read the attack's situation off the map, with GM declarations taking precedence."""
    board = state.board
    cover = Cover.NONE
    if board is not None and attacker.space and target.space:
        cover = _COVER[cover_level(state, attacker, target)]
    # off the map (theater of mind) the GM declares these; a melee attack is made from within 5 ft
    on_map = bool(attacker.space and target.space)
    hostile = _hostile_within_5ft(state, attacker)
    close = distance(state, attacker, target) <= SQUARE_FT if on_map else not ranged
    hg = bool(board is not None and on_map and high_ground(board, attacker.space, target.space))
    return Situation(
        flanking=declared.flanking if declared.flanking is not None else (not ranged and _flanking(
            state, attacker, target)),
        high_ground=declared.high_ground if declared.high_ground is not None else hg,
        hostile_within_5ft=declared.hostile_within_5ft if declared.hostile_within_5ft is not None else hostile,
        within_5ft=declared.within_5ft if declared.within_5ft is not None else close,
        cover=declared.cover if declared.cover is not None else cover,
        flat_footed=flat_footed_by_surprise(state, target),
        unseen_attacker=bool(declared.unseen_attacker) or unseen_attacker(attacker),
        leaning_out=leaning_out(state, target),
    )


def target_defense(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
                   mode: AttackMode, sit: Situation, *, weak_point: bool = False) -> DefenseBreakdown:
    """The target's DV against this attack (DV, FF, COV, STC).

    A surprised target is flat-footed (FF-1); so is one unaware of an unseen attacker while
    ``conditions.unaware_targets_flat_footed`` is on (G-11, G-46; the alternative gives advantage only).
    """
    unaware = target_flat_footed_against(attacker.condition_set, target.condition_set, state.ruleset,
                                         target_aware_of_attacker=not sit.unseen_attacker)
    return defense_value(
        target.creature, target.armor, target.shield, state.ruleset,
        conditions=target.condition_set, cover=sit.cover, attack=attack_traits(weapon, mode),
        weak_point=weak_point, flat_footed=sit.flat_footed or unaware is not None, leaning_out=sit.leaning_out,
        unseen_attacker=sit.unseen_attacker or attacker.has(Condition.INVISIBLE),  # G-46
    )


@dataclass(frozen=True, slots=True)
class AttackPlan:
    """One attack to make: who, with what, as part of which activity.

    ``map_given`` uses ``map_override`` as the MAP (All-Out Attack's 0/-3/-6, MAP-5; None = no penalty);
    ``two_weapon`` marks an off-hand attack (TWF-4..8); ``extra_damage`` is a spell's or psionic attack's damage.
    """

    attacker: str
    target: str
    weapon: Weapon | None
    mode: AttackMode
    activity: Activity = Activity.STRIKE
    called_shot: CalledShot | None = None
    declared: Declared = NOTHING_DECLARED
    map_steps: int | None = None
    label: str = "Strike"
    map_given: bool = False
    map_override: Modifier | None = None
    two_weapon: TwoWeapon | None = None
    extra_damage: tuple[DamagePart, ...] = ()


def is_ranged_attack(weapon: Weapon | None, mode: AttackMode) -> bool:
    """Whether the attack is a ranged one (cover, high ground, AMOD-7, RX-21).

    The same test :func:`~ashfall.families.attacks.rules_activities.attack_traits` makes for its ``ranged``, without
    building
    the rest of the traits (asked for every attack and every legality check).
    """
    return is_ranged(MODES[effective_mode(mode, weapon)], weapon)


def _map(c: Combatant, plan: AttackPlan, ctx: Context) -> tuple[Modifier | None, bool]:
    counts = takes_map(plan.activity, ctx.ruleset)
    if not counts:
        return None, False
    if plan.map_given:
        return plan.map_override, True
    steps = c.turn.attack_rolls if plan.map_steps is None else plan.map_steps
    return map_modifier(steps, ctx.ruleset, strike_actions_before=c.turn.strike_actions), True


def next_attack_sources(ctx: Context, attacker: str, target: str, ranged: bool) -> tuple[RollSource, ...]:
    """Use up the attacker's "advantage on its next attack" effects that apply to this attack.

    A Feint's advantage is for melee attacks against the feinted target (FNT-3); the feinted target's
    counter (FNT-5) is against the feinter; Help's is for any attack (HLP-2).
    """
    found: list[RollSource] = []
    for e in ctx.state.effects_on(attacker, EffectKind.ADVANTAGE_NEXT_ATTACK):
        if e.against not in (None, target) or (e.melee_only and ranged):
            continue
        found.append(adv(rule(e.rule), "advantage on the next attack"))
        if e.used_up:
            ctx.emit(ev.EffectRemoved(e.key, e.rule))
    return tuple(found)


def attack_declared(ctx: Context, attacker: str, target: str, ranged: bool) -> str:
    """Offer what any declared attack triggers; return the target, redirected if a reaction did so.

    Readied actions (RDY-3), Covering Fire (SUP-11) and edition 1's Intercept of a ranged attack (E-19).
    """
    trigger = Trigger(TriggerKind.ATTACKED, attacker, target, (("ranged", ranged),))
    return combine(offer(ctx, trigger)).redirect_to or target


def suppressed(state: EncounterState, attacker: Combatant) -> tuple[RollSource, ...]:
    """Disadvantage on every attack of a creature pinned by Covering Fire (SUP-11)."""
    return tuple(dis(rule(e.rule), "suppressed by Covering Fire")
                 for e in state.effects_on(attacker.id, EffectKind.SUPPRESSED))


def perform_attack(ctx: Context, plan: AttackPlan) -> AttackResult | None:
    """Make one attack: triggers, roll, damage, riders. Returns None if the attacker fell first."""
    state = ctx.state
    attacker = state.get(plan.attacker)
    ranged = is_ranged_attack(plan.weapon, plan.mode)
    target_id = attack_declared(ctx, attacker.id, plan.target, ranged)
    if not attacker.is_active:
        return None
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
    extra = attack_extra(state, attacker, target, plan.weapon, plan.mode)
    context, counts, aim = _attack_context(ctx, plan, attacker, target, sit, ranged, extra)
    dice = ctx.roller(attacker.id, "attack", "ATK-1", target=target.id, source=plan.label, dice=(1, 20))
    result = replace(resolve_attack(attacker.creature, plan.weapon, plan.mode, dv, context, dice, ctx.ruleset),
                     target_id=target.id)  # an Intercepted attack's riders are the interceptor's (RX-27)
    if extra.auto_miss is not None:  # a natural 20 only ignores DV (UW-16)
        result = replace(result, outcome=Outcome.MISS, reasons=(extra.auto_miss,), damage_parts=(), riders=())
    if aim is not None:
        ctx.emit(ev.EffectRemoved(aim.key, E_05))
    ctx.emit(ev.AttackRolled(
        attacker.id, target.id, result.weapon.id if result.weapon else plan.mode.value, plan.label,
        ev.RollRecord.of(result.roll), dv.total, ev.parts(dv.modifiers.applied), result.outcome.value,
        tuple(result.reasons), counts and result.counts_for_map,
    ))
    if result.fumble is not None:  # the optional fumble table (G-10): the GM applies the effect
        ctx.emit(ev.ActionNoted(attacker.id, "Fumble", result.fumble, "G-10"))
    if attacker.has(Condition.HIDDEN):
        end_conditions(ctx, attacker.id, EndEvent(EndTrigger.ATTACKS), G_20)
    if result.hit:
        _on_hit(ctx, attacker, target, result, ranged, weak)
    return result


def _two_weapon(ctx: Context, attacker: Combatant, plan: AttackPlan) -> TwoWeapon | None:
    """The plan's two-weapon attack, or a later attack in a turn where two-weapon fighting was used (X-11)."""
    if plan.two_weapon is not None:
        return plan.two_weapon
    a = ctx.ruleset.attack
    if (not attacker.turn.twf_offhand_used or a.twf_schedule is not TwfSchedule.OWN_SCHEDULE or plan.weapon is None
            or plan.map_given or not takes_map(plan.activity, ctx.ruleset)):
        return None
    if a.twf_requires_light and not plan.weapon.has(WeaponProperty.LIGHT):
        return None
    return TwoWeapon(attacker.turn.attack_rolls + 1, off_hand=False)


def _aim(ctx: Context, attacker: Combatant, ranged: bool) -> tuple[TimedEffect | None, bool]:
    """Edition 1's Aim (E-05): the effect to use up and whether it still holds (no Stride/Step/Crawl since)."""
    aims = ctx.state.effects_on(attacker.id, EffectKind.AIMED) if ranged else []
    if not aims:
        return None, False
    for e in reversed(ctx.log):
        if isinstance(e, ev.EffectAdded) and e.effect.key == aims[0].key:
            return aims[0], True
        if isinstance(e, ev.Moved) and e.actor == attacker.id and not e.forced:
            return aims[0], False
    return aims[0], False


def _attack_context(ctx: Context, plan: AttackPlan, attacker: Combatant, target: Combatant, sit: Situation,
                    ranged: bool, extra: AttackExtra | None = None) -> tuple[AttackContext, bool, TimedEffect | None]:
    """The rules core's context for one roll, whether it counts for MAP, and an Aim it uses up."""
    map_mod, counts = _map(attacker, plan, ctx)
    aim, aimed = _aim(ctx, attacker, ranged)
    context = AttackContext(
        activity=plan.activity, map_modifier=map_mod,
        flanking=sit.flanking, high_ground=sit.high_ground, hostile_within_5ft=sit.hostile_within_5ft,
        within_5ft=sit.within_5ft, target_conditions=target.condition_set,
        attacker_conditions=attacker.condition_set, unseen_attacker=sit.unseen_attacker,
        called_shot=plan.called_shot, extra_modifiers=extra.modifiers if extra else (),
        extra_sources=(*next_attack_sources(ctx, attacker.id, target.id, ranged), *suppressed(ctx.state, attacker),
                       *(extra.sources if extra else ()), *concealment_sources(ctx.state, attacker, target)),
        two_weapon=_two_weapon(ctx, attacker, plan), aimed=aimed, extra_damage=plan.extra_damage,
    )
    return context, counts, aim


def perform_multi_attack(ctx: Context, plan: AttackPlan, targets: Sequence[str],
                         spread_ft: int = 0) -> MultiAttackResult | None:
    """One roll against several targets: Sweeping Strike and Full Auto Burst (SWP-1..3, G-09, G-35, X-12).

    The attack's reactions are offered once (for the first target); situational modifiers come from the
    first target, each target's DV from its own position. One AttackRolled per target, only the first
    counting for MAP (G-41). Returns None if the attacker fell first.
    """
    state = ctx.state
    attacker = state.get(plan.attacker)
    ranged = is_ranged_attack(plan.weapon, plan.mode)
    ids = list(targets)
    redirected = attack_declared(ctx, attacker.id, ids[0], ranged)
    if not attacker.is_active:
        return None
    if redirected not in ids:
        ids[0] = redirected
    if ranged:
        effects = offer(ctx, Trigger(TriggerKind.RANGED_ATTACK_IN_REACH, attacker.id, ids[0]))
        if not attacker.is_active or combine(effects).cancelled:
            return None
    else:
        redirect = combine(offer(ctx, Trigger(TriggerKind.MELEE_ATTACK_DECLARED, attacker.id, ids[0]))).redirect_to
        if redirect is not None and redirect not in ids:
            ids[0] = redirect
    chosen = [state.get(t) for t in ids]
    sits = [situation(state, attacker, t, ranged, plan.declared) for t in chosen]
    extras = [attack_extra(state, attacker, t, plan.weapon, plan.mode) for t in chosen]
    context, counts, aim = _attack_context(ctx, plan, attacker, chosen[0], sits[0], ranged, extras[0])
    marks = [Target(target_defense(state, attacker, t, plan.weapon, plan.mode, s), t.condition_set, s.within_5ft)
             for t, s in zip(chosen, sits, strict=True)]
    dice = ctx.roller(attacker.id, "attack", "ATK-1", target=ids[0], source=plan.label, dice=(1, 20))
    result = resolve_multi_target(attacker.creature, plan.weapon, plan.mode, marks, context, dice, ctx.ruleset,
                                  spread_ft=spread_ft)
    result = replace(result, targets=tuple(  # an automatic miss per target (UW-16)
        replace(out, outcome=Outcome.MISS, reasons=(x.auto_miss,), damage_parts=()) if x.auto_miss else out
        for out, x in zip(result.targets, extras, strict=True)))
    if aim is not None:
        ctx.emit(ev.EffectRemoved(aim.key, E_05))
    weapon_id = plan.weapon.id if plan.weapon else plan.mode.value
    for i, (t, out) in enumerate(zip(chosen, result.targets, strict=True)):
        ctx.emit(ev.AttackRolled(
            attacker.id, t.id, weapon_id, plan.label, ev.RollRecord.of(out.roll), out.target.defense.total,
            ev.parts(out.target.defense.modifiers.applied), out.outcome.value, tuple(out.reasons),
            counts and result.counts_for_map and i == 0,
        ))
    if attacker.has(Condition.HIDDEN):
        end_conditions(ctx, attacker.id, EndEvent(EndTrigger.ATTACKS), G_20)
    for t, out in zip(chosen, result.targets, strict=True):
        if out.hit:
            deal_hit(ctx, attacker, t, out.damage_parts, out.outcome is Outcome.CRIT, ranged, result.activity.value,
                     traits=attack_traits(plan.weapon, plan.mode))
            if ranged:
                offer(ctx, Trigger(TriggerKind.RANGED_HIT, attacker.id, t.id))
    return result


def damage_dice(parts: Sequence[DamagePart], critical: bool, ruleset: Ruleset) -> tuple[int, int] | None:
    """The dice a damage roll expects, as (count, sides), when they are all one size (a dice request names them)."""
    count, sizes = 0, set()
    for part in parts:
        if part.dice is None:
            continue
        expr = part.dice.doubled() if critical and crit_doubles(part, ruleset) else part.dice
        sizes.update(_sides(expr.root))
        count += expr.dice_count
    return (count, sizes.pop()) if count and len(sizes) == 1 else None


def _sides(node: Node) -> set[int]:
    if isinstance(node, Dice):
        return {node.sides}
    if isinstance(node, BinOp):
        return _sides(node.left) | _sides(node.right)
    if isinstance(node, Neg):
        return _sides(node.value)
    return set()


def damage_rolled(actor: str, target: str, damage: DamageRoll) -> ev.DamageRolled:
    """The log record of a damage roll: every part with its dice and faces (explanations show them)."""
    parts = tuple(
        ev.RolledPart(p.part.label, p.part.type.value, str(p.roll.expr) if p.roll else "",
                      tuple(f.value for f in p.roll.faces) if p.roll else (), p.part.flat, p.doubled, p.total,
                      p.part.rule)
        for p in damage.parts
    )
    return ev.DamageRolled(actor, target, parts, damage.critical, damage.total)


AfterHit = Callable[[Context, Combatant, Combatant, DamageRoll, AttackTraits], None]
"""Hooks (the rulebook's ``after_hit``) run after a hit's damage is dealt: (ctx, attacker, target, the damage
roll, the attack's traits). Destructible cover the shot passed through takes its damage here (STC-11, G-39)."""


def deal_hit(ctx: Context, attacker: Combatant, target: Combatant, damage_parts: tuple[DamagePart, ...],
             critical: bool, ranged: bool, label: str, *, weak: bool = False,
             traits: AttackTraits | None = None, magical: bool = False) -> DamageResult:
    """Roll a hit's damage, offer Deflect-style reactions to a ranged hit, and deal it."""
    dice = ctx.rng if ctx.table is None else ctx.roller(
        attacker.id, "damage", "DMG-1", target=target.id, source=label,
        dice=damage_dice(damage_parts, critical, ctx.ruleset))
    damage = roll_damage(damage_parts, dice, ctx.ruleset, critical=critical)
    ctx.emit(damage_rolled(attacker.id, target.id, damage))
    reduction = 0
    if ranged:
        data: tuple[tuple[str, object], ...] = (("damage", damage.total),)
        hit_effects = offer(ctx, Trigger(TriggerKind.HIT_BY_RANGED, attacker.id, target.id, data,
                                         only=frozenset({target.id})))
        reduction = combine(hit_effects).damage_reduction
    dealt = deal_damage(ctx, target.id, damage, source=attacker.id, label=label, critical=critical,
                        deflect=reduction, ignore_armor_dr=weak, magical=magical)
    for hook in ctx.state.rulebook.after_hit:
        hook(ctx, attacker, target, damage, traits or AttackTraits(ranged=ranged))
    return dealt


def _on_hit(ctx: Context, attacker: Combatant, target: Combatant, result: AttackResult, ranged: bool,
            weak: bool) -> None:
    dealt = deal_hit(ctx, attacker, target, result.damage_parts, result.crit, ranged, result.activity.value,
                     weak=weak, traits=attack_traits(result.weapon, result.mode),
                     magical=is_magical_weapon(result.weapon, attacker.creature.talents))
    for rider in result.riders:
        apply_rider(ctx, attacker, target, rider, dealt.total)
    if ranged:
        offer(ctx, Trigger(TriggerKind.RANGED_HIT, attacker.id, target.id))




def condition_for(target: str, condition: Condition, rule_id: RuleId, source: str | None,
                  until_end_of_targets_next_turn: bool) -> AppliedCondition:
    """An applied condition lasting until removed or until the end of the target's next turn."""
    duration = Duration.end_of_next_turn(target) if until_end_of_targets_next_turn else Duration.until_removed()
    return AppliedCondition(condition, rule_id, source, duration)


__all__ = ["AttackPlan", "Declared", "Situation", "add", "condition_for", "deal_hit", "perform_attack",
           "perform_multi_attack", "situation"]
