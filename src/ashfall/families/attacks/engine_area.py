"""Area effects in a fight: who is caught, their saves, and damage that a save halves or negates.

Used by area spells and Psionic Backlash (PSI-15, PSI-16). Each creature caught is offered the
reactions an area effect triggers (Dive for Cover, RX-9) before it saves; a Reflex save adds the
cover between the area's origin and the creature (COV-1 partial +2, X-21 heavy +5) and any Reflex
bonus a reaction gave. The damage is rolled once for everyone (EX-4) and halved, rounding down, for
those who save against a save-for-half effect.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.harm import deal_damage
from ashfall.engine.reactions import Trigger, TriggerKind, combine, offer
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine_cover import board_with_objects
from ashfall.grid.board import CoverLevel, Square
from ashfall.grid.geometry import cover_between
from ashfall.rules.checks import saving_throw
from ashfall.rules.damage import DamageRoll, roll_damage
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import DC

COV_1, X_21, RX_9 = rule("COV-1"), rule("X-21"), rule("RX-9")

AreaHook = Callable[[Context, str, frozenset[Square], DamageRoll, str], None]
"""Hooks run with an area effect's rolled damage and its squares: (ctx, source, squares, damage, label);
the objects in the area take it (OBJ-6)."""


def caught(state: EncounterState, squares: Collection[Square]) -> list[Combatant]:
    """Creatures (not dead) with a square of their space in the area, in roster order."""
    area = frozenset(squares)
    return [c for c in state.combatants.values() if not c.health.is_dead and area.intersection(c.space)]


def _reflex_modifiers(state: EncounterState, origin: Sequence[Square] | None, target: Combatant,
                      reaction_bonus: int, reaction_rule: RuleId) -> list[Modifier]:
    mods: list[Modifier] = []
    d = state.ruleset.defense
    if state.board is not None and origin and target.space:
        level = cover_between(board_with_objects(state.board, state.environment, origin), origin, target.space)[0]
        bonus = {CoverLevel.PARTIAL: (d.cover_reflex_partial, COV_1), CoverLevel.HEAVY: (d.cover_reflex_heavy, X_21),
                 CoverLevel.TOTAL: (d.cover_reflex_heavy, X_21)}.get(level)
        if bonus is not None:
            mods.append(Modifier(bonus[0], ModifierKind.CIRCUMSTANCE, bonus[1], f"{level.value} cover"))
    if reaction_bonus:
        mods.append(Modifier(reaction_bonus, ModifierKind.CIRCUMSTANCE, reaction_rule, "cover (reaction)"))
    return mods


def area_saves(ctx: Context, source: str, targets: Sequence[str], origin: Sequence[Square] | None, save: Save,
               dc: DC, label: str) -> dict[str, bool]:
    """Offer each creature caught its area reactions, then roll its save; returns who succeeded."""
    results: dict[str, bool] = {}
    for t in targets:
        effects = combine(offer(ctx, Trigger(TriggerKind.AREA_TARGETED, source, t, only=frozenset({t}))))
        c = ctx.state.get(t)
        if c.health.is_dead:
            continue
        mods = _reflex_modifiers(ctx.state, origin, c, effects.reflex_bonus,
                                 effects.notes[0] if effects.notes else RX_9) if save is Save.REFLEX else []
        roller = ctx.roller(c.id, "save", dc.rule, source=save.value)
        result = saving_throw(c.creature, save, dc, roller, ctx.ruleset, conditions=c.condition_set,
                              modifiers=mods)
        ctx.emit(ev.CheckRolled(t, f"{save.value} save vs {label}",
                                ev.RollRecord.of(result.roll) if result.roll else None, dc.total, result.success,
                                dc.rule, result.auto_fail or ""))
        results[t] = result.success
    return results


def halved(amounts: Mapping[DamageType, int], divisor: int) -> dict[DamageType, int]:
    """Damage divided by ``divisor`` per type, rounding down (a save for half)."""
    return {t: n // divisor for t, n in amounts.items()}


def area_damage(ctx: Context, source: str, saved: Mapping[str, bool], parts: tuple[DamagePart, ...], *,
                half_on_save: bool, label: str, squares: Collection[Square] = ()) -> None:
    """Roll the damage once and deal it: in full on a failed save, halved (or none) on a success.

    With the area's ``squares``, the rulebook's ``area_damage`` hooks deal it to the objects there too.
    """
    area = frozenset(squares)
    objects = ctx.state.environment.objects
    hit_objects = bool(area) and any(not o.broken and area.intersection(o.squares) for o in objects.values())
    if not parts or not (saved or hit_objects):
        return
    damage = roll_damage(parts, ctx.roller(source, "damage", "DMG-1", source=label), ctx.ruleset, critical=False)
    for t, success in saved.items():
        if ctx.state.get(t).health.is_dead or (success and not half_on_save):
            continue
        amounts = halved(damage.by_type(), ctx.ruleset.magic.save_half_divisor) if success else damage
        deal_damage(ctx, t, amounts, source=source, label=label)
    if hit_objects:
        for hook in ctx.state.rulebook.area_damage:
            hook(ctx, source, area, damage, label)
