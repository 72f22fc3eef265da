"""Shared pieces of the spreading hazards (HAZ-0): who stands in a hazard, hazard damage, saves and change hooks.

Hazard damage is rolled with the rules core, logged as a damage roll and dealt through the ledger
(:func:`~ashfall.engine.harm.deal_damage`, source ``hazard:<kind>``). Damage for entering a hazard or
starting a turn in it comes at most once per turn per hazard (G-51, ``hazards.once_per_turn``): the
turn is recorded with a :class:`~ashfall.engine.events.HazardTriggered` event. Every environmental
change this package makes goes through :func:`changed`, which then calls the rulebook's ``on_change`` hooks — the hook
other layers use to react (a fuel container whose square catches fire, a panel the water reaches).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from ashfall.core.dice import parse, roll
from ashfall.core.modifiers import RollSource
from ashfall.core.rule_ids import RuleId
from ashfall.core.types import DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.harm import deal_damage
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import damage_rolled
from ashfall.grid.board import Square
from ashfall.rules.checks import saving_throw
from ashfall.rules.damage import DamageResult
from ashfall.rules.damage_ledger import DamageRoll, roll_damage
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import fixed_dc

ChangeHook = Callable[[Context, Any], None]
"""``(name, hook(ctx, event))`` called after every environmental change event the hazards emit
(FireChanged, GasChanged, WaterChanged, RubbleAdded …), in registration order."""


def changed(ctx: Context, event: Any) -> None:
    """Emit an environmental change and let the rulebook's ``on_change`` hooks react to it."""
    ctx.emit(event)
    for hook in ctx.state.rulebook.on_change:
        hook(ctx, event)


def hazards_on(state: EncounterState) -> bool:
    """Whether spreading hazards act: the ruleset has them (E-36) and the fight is on a map."""
    return state.ruleset.hazards.enabled and state.board is not None


def parts_of(text: str, rule_id: RuleId, label: str, default: DamageType | None = None) -> tuple[DamagePart, ...]:
    """The damage part of an option such as ``"1d6 fire"`` (a bare ``"1d6"`` takes ``default``'s type)."""
    expr = parse(text)
    kind = DamageType.parse(expr.tag) if expr.tag else default
    if kind is None:
        raise ValueError(f"{text!r} names no damage type")
    return (DamagePart(kind, rule_id, label, dice=expr),)


def roll_rounds(ctx: Context, dice: str) -> int:
    """Roll a number of rounds (a burnout, a countdown, a lingering cloud): at least 1."""
    return max(roll(parse(dice), ctx.rng).total, 1)


def creatures_in(state: EncounterState, squares: Collection[Square]) -> list[Combatant]:
    """Creatures (not dead, on the map) with a square of their space in ``squares``, in roster order."""
    area = frozenset(squares)
    return [c for c in state.combatants.values() if not c.health.is_dead and area.intersection(c.space)]


def turn_of(state: EncounterState, cid: str) -> str:
    """Whose turn it is for the once-per-turn count (the mover's own when nobody's turn has begun)."""
    return state.active_id or cid


def once_this_turn(ctx: Context, hazard: str, cid: str, whose: str, rule_id: RuleId) -> bool:
    """Record that ``hazard`` harms ``cid`` this turn; False when it already did (G-51)."""
    state = ctx.state
    if state.ruleset.hazards.once_per_turn and state.environment.hazard_marks.get((hazard, cid)) == (
            state.round, whose):
        return False
    ctx.emit(ev.HazardTriggered(hazard, cid, state.round, whose, rule_id))
    return True


def hurt(ctx: Context, cid: str, hazard: str, parts: tuple[DamagePart, ...], *, divisor: int = 1,
         rolled: DamageRoll | None = None) -> DamageResult:
    """Roll (unless ``rolled``) and deal a hazard's damage, divided by ``divisor`` rounding down (a save for half)."""
    damage = rolled or roll_damage(parts, ctx.rng, ctx.ruleset, critical=False)
    source = f"hazard:{hazard}"
    if rolled is None:
        ctx.emit(damage_rolled(source, cid, damage))
    amounts = {t: n // divisor for t, n in damage.by_type().items()} if divisor > 1 else damage
    return deal_damage(ctx, cid, amounts, source=source, label=hazard)


def save(ctx: Context, c: Combatant, kind: Save, dc_value: int, rule_id: RuleId, label: str,
         sources: Iterable[RollSource] = ()) -> bool:
    """A logged saving throw against a hazard's fixed DC; returns whether it succeeded."""
    dc = fixed_dc(dc_value, rule_id, label)
    roller = ctx.roller(c.id, "save", dc.rule, source=kind.value)
    result = saving_throw(c.creature, kind, dc, roller, ctx.ruleset, conditions=c.condition_set,
                          sources=tuple(sources))
    ctx.emit(ev.CheckRolled(c.id, f"{kind.value} save vs {label}", ev.RollRecord.of(result.roll) if result.roll
                            else None, dc.total, result.success, rule_id, result.auto_fail or ""))
    return result.success


def new_id(ctx: Context, kind: str) -> str:
    """A fresh, replay-stable id for a hazard (its position in the log)."""
    return f"{kind}:{len(ctx.log)}"
