"""Casting spells and keeping them going (ACT-8..10, MAP-2..4, G-19, E-09).

Cast Spell costs the spell's actions (ACT-8). Before it resolves, the casting is a SPELL_CAST trigger
(Counterspell can stop it, RX-16..18, in :mod:`ashfall.families.spells.moves_counterspell`). Then a spell attack
rolls against DV through the attack pipeline (it takes and counts for MAP, MAP-2, MAP-3; not in edition 1,
E-02), a save spell rolls each creature's save against the caster's DC (8 + spell attribute +
proficiency) and never touches MAP (MAP-4), and a healing spell heals (HEAL-1..3). A caster keeps at most
one concentration and one sustained spell (G-19; a new one ends the old). A sustained spell lasts to the
end of the caster's next turn unless the Sustain action renews it (ACT-9); concentration costs nothing in
edition 2 (ACT-10), but in edition 1 it must be kept like a sustained spell (E-09). Concentration ends
when the caster is incapacitated. Psionic abilities are not spells and are never offered to Counterspell
(RX-20, PSI-6): see :mod:`ashfall.families.psionics.moves`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ashfall.core.dice import parse, roll
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.harm import add
from ashfall.engine.reactions import Trigger, TriggerKind, combine, offer
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import NOTHING_DECLARED, AttackPlan, Declared, distance, perform_attack
from ashfall.families.attacks.engine_area import area_damage, area_saves, caught
from ashfall.families.attacks.engine_common import require_target
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.dying.rules_healing import HEALING_SPELLS, heal, roll_healing_spell
from ashfall.families.psionics.rules import PowerKind
from ashfall.families.spells.rules_spellbook import SPELLS, AreaShape, ConditionSpan, Resolution, Spell
from ashfall.families.underwater.engine_speech import cannot_speak
from ashfall.grid.areas import burst, clip, cone, line
from ashfall.grid.board import CoverLevel, Square
from ashfall.grid.geometry import cover_between, space_distance_ft
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import AppliedCondition, Duration
from ashfall.rules.damage import DamageResult
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import DC, formula_dc
from ashfall.ruleset import Ruleset

ACT_8, ACT_9, ACT_10, E_09, G_19 = rule("ACT-8"), rule("ACT-9"), rule("ACT-10"), rule("E-09"), rule("G-19")


def spell_of(spell_id: str) -> Spell:
    """A spell from the registry (refused with ACT-8 if unknown)."""
    spell = SPELLS.get(spell_id)
    if spell is None:
        raise refuse("ACT-8", f"no spell {spell_id!r}")
    return spell


def spell_attribute(c: Combatant) -> Attribute:
    """The caster's spellcasting attribute (ATK-3), refusing a creature that casts no spells."""
    if c.creature.spell_attribute is None:
        raise refuse("ACT-8", f"{c.name} is not a spellcaster")
    return c.creature.spell_attribute


def spell_dc(c: Combatant, ruleset: Ruleset) -> DC:
    """The caster's spell save DC: 8 + spell attribute + proficiency."""
    attribute = spell_attribute(c)
    return formula_dc(ACT_8, attribute.name, c.creature.attributes[attribute], c.creature.proficiency, ruleset)


# ----- what a casting affects -----


@dataclass(frozen=True, slots=True)
class CastSpell:
    """Cast a spell (ACT-8).

    Attributes:
        spell: The spell's id.
        targets: The creatures targeted; for an area spell off the map, the creatures the GM says are in it.
        point: On the map: the centre of a radius spell cast at range, or the square a cone or line points at.
        declared: GM declarations for a spell attack (cover, high ground).
    """

    actor: str
    spell: str
    targets: tuple[str, ...] = ()
    point: Square | None = None
    declared: Declared = NOTHING_DECLARED


def _area_origin(c: Combatant, spell: Spell, point: Square | None) -> tuple[Square, ...]:
    if spell.area is not None and spell.area.shape is AreaShape.RADIUS and spell.range_ft and point is not None:
        return (point,)
    return c.space


def _area_squares(state: EncounterState, c: Combatant, spell: Spell, point: Square | None) -> frozenset[Square]:
    area = spell.area
    assert area is not None and state.board is not None and c.position is not None
    if area.shape is AreaShape.RADIUS and not spell.range_ft:
        squares = burst(c.position, area.size_ft)
    else:
        if point is None:
            raise refuse("ACT-8", f"{spell.name}: name the square it is aimed at")
        if space_distance_ft(c.space, (point,)) > spell.range_ft and area.shape is AreaShape.RADIUS:
            raise refuse("ACT-8", f"{spell.name} reaches {spell.range_ft} ft")
        if point in c.space:
            raise refuse("ACT-8", f"{spell.name} must be aimed away from the caster")
        template = {AreaShape.RADIUS: lambda: burst(point, area.size_ft),
                    AreaShape.CONE: lambda: cone(c.space, point, area.size_ft),
                    AreaShape.LINE: lambda: line(c.space, point, area.size_ft)}
        squares = template[area.shape]()
    return clip(state.board, _area_origin(c, spell, point), squares)


def _targeted(state: EncounterState, c: Combatant, spell: Spell, ids: tuple[str, ...]) -> list[Combatant]:
    if not 1 <= len(ids) <= spell.targets or len(set(ids)) != len(ids):
        raise refuse("ACT-8", f"{spell.name} targets 1 to {spell.targets} different creatures")
    out = []
    for t in ids:
        if spell.harmful:
            target = require_target(state, c, t)
        else:
            if t not in state.combatants or state.get(t).health.is_dead:
                raise refuse("DEATH-3", f"{t} cannot be healed: dead or absent")
            target = state.get(t)
        if distance(state, c, target) > spell.range_ft or (not spell.range_ft and target.id != c.id):
            raise refuse("ACT-8", f"{target.name} is out of {spell.name}'s range ({spell.range_ft} ft)")
        if spell.attack and state.board is not None and c.space and target.space and cover_between(
                state.board, c.space, target.space)[0] is CoverLevel.TOTAL:
            raise refuse("COV-3", f"{target.name} is behind total cover")
        out.append(target)
    return out


def affected(state: EncounterState, c: Combatant, spell: Spell, intent: CastSpell) -> list[Combatant]:
    """The creatures a casting affects, refusing an illegal choice (range, count, dead targets …)."""
    if spell.area is None:
        return _targeted(state, c, spell, intent.targets or ((c.id,) if not spell.range_ft else ()))
    if state.board is None or c.position is None:
        found = [state.get(t) for t in intent.targets if t in state.combatants]
        if len(found) != len(intent.targets) or any(x.health.is_dead for x in found):
            raise refuse("ACT-8", "name living creatures caught in the area")
    else:
        found = caught(state, _area_squares(state, c, spell, intent.point))
    if spell.allies_only:
        found = [x for x in found if x.side == c.side and x.id != c.id]
    return found


# ----- spells kept going: sustained and concentration (ACT-9, ACT-10, G-19, E-09) -----


def kept_kind(spell: Spell) -> EffectKind:
    """The effect that tracks a spell kept going."""
    return EffectKind.SUSTAINED_SPELL if spell.sustained else EffectKind.CONCENTRATION


def needs_upkeep(kind: EffectKind, state: EncounterState) -> bool:
    """Whether the Sustain action must renew it each turn (always sustained; concentration in edition 1, E-09)."""
    return kind is EffectKind.SUSTAINED_SPELL or state.ruleset.magic.concentration_costs_action


def _kept_rule(kind: EffectKind, state: EncounterState) -> RuleId:
    if kind is EffectKind.SUSTAINED_SPELL:
        return ACT_9
    return E_09 if state.ruleset.magic.concentration_costs_action else ACT_10


def _kept_duration(caster: str, kind: EffectKind, state: EncounterState) -> Duration:
    return Duration.end_of_next_turn(caster) if needs_upkeep(kind, state) else Duration.until_removed()


def spell_id_of(effect: TimedEffect) -> str:
    """The spell a kept-spell effect tracks (its key is ``spell:<caster>:<spell id>:<n>``)."""
    return effect.key.split(":")[2]


def linked_conditions(state: EncounterState, effect: TimedEffect) -> Iterator[tuple[str, AppliedCondition]]:
    """The conditions that last while this spell lasts: (bearer, condition)."""
    spell = SPELLS.get(spell_id_of(effect))
    if spell is None or spell.condition is None:
        return
    for c in state.combatants.values():
        for a in c.conditions:
            if a.source == effect.bearer and a.rule == effect.rule and a.condition is spell.condition:
                yield c.id, a


def end_kept(ctx: Context, effect: TimedEffect, rule_id: RuleId) -> None:
    """End a kept spell and the conditions that lasted while it did."""
    for bearer, a in list(linked_conditions(ctx.state, effect)):
        ctx.emit(ev.ConditionRemoved(bearer, a, rule_id))
    ctx.emit(ev.EffectRemoved(effect.key, rule_id))


def _start_kept(ctx: Context, c: Combatant, spell: Spell) -> TimedEffect:
    kind = kept_kind(spell)
    magic = ctx.ruleset.magic
    limit = magic.max_sustained if kind is EffectKind.SUSTAINED_SPELL else magic.max_concentration
    active = ctx.state.effects_on(c.id, kind)
    for old in active[: max(0, len(active) - limit + 1)]:
        end_kept(ctx, old, G_19)
    rule_id = _kept_rule(kind, ctx.state)
    effect = TimedEffect(f"spell:{c.id}:{spell.id}:{len(ctx.log)}", kind, c.id, rule_id,
                         _kept_duration(c.id, kind, ctx.state), amount=ctx.state.round, used_up=False, source=c.id)
    ctx.emit(ev.EffectAdded(effect, rule_id))
    return effect


def _concentration_broken(ctx: Context, target: str, source: str, result: DamageResult) -> None:
    """A caster that is incapacitated loses concentration and cannot sustain (G-19, C-INC)."""
    c = ctx.state.get(target)
    why = cond.loses_concentration(c.condition_set)
    if why is None:
        return
    for kind in (EffectKind.CONCENTRATION, EffectKind.SUSTAINED_SPELL):
        for e in ctx.state.effects_on(target, kind):
            end_kept(ctx, e, why)


# ----- resolving a casting -----


def _damage_parts(spell: Spell) -> tuple[DamagePart, ...]:
    if spell.damage is None or spell.damage_type is None:
        return ()
    return (DamagePart(spell.damage_type, spell.rule, spell.name, parse(spell.damage)),)


def _impose(ctx: Context, c: Combatant, spell: Spell, target: str, kept: TimedEffect | None) -> None:
    if spell.condition is None or ctx.state.get(target).health.is_dead:
        return
    if spell.condition_span is ConditionSpan.WHILE_SPELL_LASTS and kept is not None:
        applied = AppliedCondition(spell.condition, RuleId(kept.rule), c.id, kept.duration)
    else:
        applied = AppliedCondition(spell.condition, spell.rule, c.id, Duration.end_of_next_turn(target))
    add(ctx, target, applied)


Resolver = Callable[[Context, Combatant, Spell, CastSpell, tuple[str, ...], TimedEffect | None], None]


def _by_attack(ctx: Context, c: Combatant, spell: Spell, intent: CastSpell, ids: tuple[str, ...],
               kept: TimedEffect | None) -> None:
    for t in ids:
        if not c.is_active or ctx.state.get(t).health.is_dead:
            continue
        result = perform_attack(ctx, AttackPlan(c.id, t, None, AttackMode.SPELL, Activity.SPELL_ATTACK,
                                                declared=intent.declared, label=spell.name,
                                                extra_damage=_damage_parts(spell)))
        if result is not None and result.hit:
            _impose(ctx, c, spell, t, kept)


def _by_save(ctx: Context, c: Combatant, spell: Spell, intent: CastSpell, ids: tuple[str, ...],
             kept: TimedEffect | None) -> None:
    assert spell.save is not None
    saved = area_saves(ctx, c.id, ids, _area_origin(c, spell, intent.point), spell.save, spell_dc(c, ctx.ruleset),
                       spell.name)
    on_map = spell.area is not None and ctx.state.board is not None and c.position is not None
    squares = _area_squares(ctx.state, c, spell, intent.point) if on_map else frozenset()
    area_damage(ctx, c.id, saved, _damage_parts(spell), half_on_save=spell.half_on_save, label=spell.name,
                squares=squares)
    for t, success in saved.items():
        if not success:
            _impose(ctx, c, spell, t, kept)


def _by_healing(ctx: Context, c: Combatant, spell: Spell, intent: CastSpell, ids: tuple[str, ...],
                kept: TimedEffect | None) -> None:
    assert spell.healing is not None
    wis = c.creature.attributes.WIS
    if spell.id in HEALING_SPELLS:
        rolled = roll_healing_spell(spell.id, wis, ctx.rng).roll
    else:
        rolled = roll(parse(spell.healing).plus(wis), ctx.rng)
    amount = max(0, rolled.total)
    ctx.emit(ev.DiceRolled(c.id, spell.name, f"{spell.healing}{wis:+d} (WIS)", tuple(f.value for f in rolled.faces),
                           amount, spell.rule))
    for t in ids:
        target = ctx.state.get(t)
        if target.health.is_dead or cond.blocks_healing(target.condition_set) is not None:
            continue
        healed = heal(target.health, amount, spell.rule, spell.name)
        ctx.emit(ev.HealthSet(t, healed.health, f"{spell.name}: +{healed.gained} HP", spell.rule))


def _automatic(ctx: Context, c: Combatant, spell: Spell, intent: CastSpell, ids: tuple[str, ...],
               kept: TimedEffect | None) -> None:
    for t in ids:
        _impose(ctx, c, spell, t, kept)


RESOLVERS: dict[Resolution, Resolver] = {
    Resolution.ATTACK: _by_attack,
    Resolution.SAVE: _by_save,
    Resolution.HEAL: _by_healing,
    Resolution.AUTOMATIC: _automatic,
}


def _cast_cost(state: EncounterState, intent: CastSpell) -> int:
    return spell_of(intent.spell).actions


def _check_cast(state: EncounterState, intent: CastSpell) -> None:
    c = state.get(intent.actor)
    spell = spell_of(intent.spell)
    spell_attribute(c)
    if spell.id not in c.creature.talents:
        raise refuse("ACT-8", f"{c.name} does not know {spell.name}")
    silenced = cannot_speak(state, c) if spell.verbal else None
    if silenced is not None:
        raise refuse(silenced, f"{c.name} cannot speak, and {spell.name} has a verbal component")
    affected(state, c, spell, intent)


def _resolve_cast(ctx: Context, intent: CastSpell) -> None:
    c = ctx.state.get(intent.actor)
    spell = spell_of(intent.spell)
    ids = tuple(x.id for x in affected(ctx.state, c, spell, intent))
    data = (("level", spell.level), ("power", PowerKind.SPELL.value), ("spell", spell.id))
    countered = combine(offer(ctx, Trigger(TriggerKind.SPELL_CAST, c.id, ids[0] if ids else None, data))).cancelled
    ctx.emit(ev.SpellCast(c.id, spell.id, spell.level, ids, countered or ""))
    if countered is not None or not c.is_active:
        return
    kept = _start_kept(ctx, c, spell) if spell.kept else None
    RESOLVERS[spell.resolution](ctx, c, spell, intent, ids, kept)


def _cast_candidates(state: EncounterState, actor: str) -> Iterator[CastSpell]:
    c = state.get(actor)
    for spell_id in sorted(c.creature.talents & SPELLS.keys()):
        spell = SPELLS[spell_id]
        if spell.area is not None and not spell.range_ft:
            yield CastSpell(actor, spell_id)
            continue
        pool = state.enemies_of(actor) if spell.harmful else [c, *state.allies_of(actor)]
        for other in pool:
            if spell.area is None:
                yield CastSpell(actor, spell_id, (other.id,))
            elif other.position is not None:
                yield CastSpell(actor, spell_id, point=other.position)


# ----- Sustain Spell (ACT-9, ACT-10, E-09) -----


@dataclass(frozen=True, slots=True)
class Sustain:
    """1 action, once per turn: keep a sustained spell (or, in edition 1, a concentration spell) going."""

    actor: str
    spell: str | None = None


def _upkept(state: EncounterState, intent: Sustain) -> list[TimedEffect]:
    found = [e for kind in (EffectKind.SUSTAINED_SPELL, EffectKind.CONCENTRATION) if needs_upkeep(kind, state)
             for e in state.effects_on(intent.actor, kind)]
    return [e for e in found if intent.spell is None or spell_id_of(e) == intent.spell]


def _check_sustain(state: EncounterState, intent: Sustain) -> None:
    found = _upkept(state, intent)
    if not found:
        raise refuse("ACT-9", "no spell to sustain")
    if len(found) > 1:
        raise refuse("ACT-9", "name the spell to sustain")
    if found[0].amount == state.round:
        raise refuse("ACT-9", "a spell is sustained once per turn, and this one already is")


def _resolve_sustain(ctx: Context, intent: Sustain) -> None:
    old = _upkept(ctx.state, intent)[0]
    new = replace(old, duration=_kept_duration(old.bearer, old.kind, ctx.state), amount=ctx.state.round)
    for bearer, a in list(linked_conditions(ctx.state, old)):
        ctx.emit(ev.ConditionRemoved(bearer, a, ACT_9))
        ctx.emit(ev.ConditionAdded(bearer, replace(a, duration=new.duration), ACT_9))
    ctx.emit(ev.EffectRemoved(old.key, ACT_9))
    ctx.emit(ev.EffectAdded(new, ACT_9))


def _sustain_cost(state: EncounterState, intent: Sustain) -> int:
    return state.ruleset.magic.sustain_actions


def _sustain_candidates(state: EncounterState, actor: str) -> Iterator[Sustain]:
    yield Sustain(actor)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.after_damage(_concentration_broken)
    book.action(CastSpell, ActionDef("cast-spell", ACT_8, _cast_cost, _resolve_cast, _check_cast, _cast_candidates))
    book.action(Sustain, ActionDef("sustain-spell", ACT_9, _sustain_cost, _resolve_sustain, _check_sustain,
                                   _sustain_candidates))
