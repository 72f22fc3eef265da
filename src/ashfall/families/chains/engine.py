"""Chain reactions: fuel containers, electrical systems and support columns (CHN-0..9, EX-3, EX-4, G-52, X-14).

The GM places these elements (CHN-0): an object's ``chain`` says which it is. They react to the harm
:mod:`ashfall.families.objects.engine` reports:

* **Fuel container** (CHN-1): destroyed by any damage, or hit by any fire damage even if it holds:
  it explodes in ``objects.fuel_radius_ft`` (3d6 fire, Reflex DC 14 for half, CHN-2), sets every
  square of the blast on fire through the hazards layer (CHN-3), and each intact fuel container
  adjacent to it awaits a chain roll at the end of the round: a d100 at most 50 sets it off too
  (CHN-4, EX-3). The blast hits creatures only; it sets off no other container by itself (G-52;
  ``objects.blast_sets_off_fuel`` is the alternative). Containers set off by the chain at the end of
  the round make their own neighbours roll in the same end of round.
* **Electrical system** (CHN-5): destroyed by any damage, or hit by water (:func:`water_hits`): it
  discharges in ``objects.electrical_radius_ft`` (2d6 electric, Reflex DC 13 for half, CHN-6);
  metal armor saves at disadvantage (CHN-7); machines in the area stop working until the end of
  their next turn, so they lose it (CHN-8). Standing in water gives disadvantage only with the
  ``objects.water_conducts`` switch (X-18, EX-8).
* **Support column** at 0 HP (CHN-9): a structural collapse of ``objects.collapse_radius_ft`` begins
  through the hazards layer (its 1d4-round countdown is the hazards' business).

Blasts are area effects: each creature caught may Dive for Cover first (RX-9, through
:func:`~ashfall.families.reactions.moves_defensive.area_targeted`), then saves with the Reflex bonus of its cover
from the blast (COV-1, X-21; explosives keep it, X-14). The damage is rolled once; a creature in two
blasts takes both (EX-4). Spent elements are logged as destroyed ("explodes", "discharges").
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace

from ashfall.core.dice import parse
from ashfall.core.modifiers import Modifier, ModifierKind, RollSource, dis
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.environment import MapObject
from ashfall.engine.harm import add
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine_area import area_damage, caught
from ashfall.families.attacks.engine_cover import board_with_objects
from ashfall.families.hazards.engine_collapse import start_collapse
from ashfall.families.hazards.engine_fire import ignite
from ashfall.families.objects.engine import ObjectHarm, destroy_object, enabled
from ashfall.families.reactions.moves_defensive import area_targeted, reflex_bonus
from ashfall.grid.areas import adjacent_to, burst, clip
from ashfall.grid.board import CoverLevel, Square
from ashfall.grid.geometry import cover_between
from ashfall.rules.checks import saving_throw
from ashfall.rules.condition_durations import AppliedCondition, Duration
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import fixed_dc

CHN_1, CHN_2, CHN_3, CHN_4, CHN_5 = rule("CHN-1"), rule("CHN-2"), rule("CHN-3"), rule("CHN-4"), rule("CHN-5")
CHN_6, CHN_7, CHN_8, CHN_9 = rule("CHN-6"), rule("CHN-7"), rule("CHN-8"), rule("CHN-9")
EX_3, X_18, X_21, RX_9, COV_1 = rule("EX-3"), rule("X-18"), rule("X-21"), rule("RX-9"), rule("COV-1")
FUEL, ELECTRICAL, SUPPORT = "fuel", "electrical", "support"
def blast_squares(state: EncounterState, origin: Sequence[Square], radius_ft: int) -> frozenset[Square]:
    """Every square within ``radius_ft`` of the origin space that a wall does not shut off (line of effect)."""
    area = frozenset(sq for o in origin for sq in burst(o, radius_ft))
    return clip(state.board, origin, area) if state.board is not None else area


def _cover_bonus(state: EncounterState, origin: Sequence[Square], c: Combatant, reacted: int) -> list[Modifier]:
    """The Reflex bonus of the creature's cover from the blast (COV-1, X-21, X-14), or of the cover it dived to."""
    if not state.ruleset.defense.explosives_keep_cover_reflex:
        return []
    level = CoverLevel.NONE
    if state.board is not None and c.space:
        level = cover_between(board_with_objects(state.board, state.environment, origin), origin, c.space)[0]
    have = reflex_bonus(level, state)
    if max(have, reacted) <= 0:
        return []
    why = RX_9 if reacted > have else COV_1 if level is CoverLevel.PARTIAL else X_21
    return [Modifier(max(have, reacted), ModifierKind.CIRCUMSTANCE, why, f"{level.name.lower()} cover from the blast"
                     if reacted <= have else "cover dived to")]


SourcesFor = Callable[[EncounterState, Combatant], tuple[RollSource, ...]]


def blast(ctx: Context, obj: MapObject, squares: Collection[Square], damage: str, dc_value: int, rule_id: RuleId,
          label: str, sources_for: SourcesFor | None = None) -> dict[str, bool]:
    """An explosive area effect from an object: Dive for Cover, Reflex saves for half, damage rolled once.

    Returns:
        Each creature caught, and whether it saved.
    """
    state = ctx.state
    targets = [c.id for c in caught(state, squares)]
    reacted = area_targeted(ctx, obj.id, targets, obj.squares, explosive=True)
    dc = fixed_dc(dc_value, rule_id, label)
    saved: dict[str, bool] = {}
    for t in targets:
        c = state.get(t)
        if c.health.is_dead:
            continue
        mods = _cover_bonus(state, obj.squares, c, reacted[t].reflex_bonus)
        extra = sources_for(state, c) if sources_for is not None else ()
        roller = ctx.roller(c.id, "save", dc.rule, source=Save.REFLEX.value)
        result = saving_throw(c.creature, Save.REFLEX, dc, roller, ctx.ruleset, conditions=c.condition_set,
                              sources=extra, modifiers=mods)
        ctx.emit(ev.CheckRolled(t, f"Reflex save vs {label}", ev.RollRecord.of(result.roll) if result.roll else None,
                                dc.total, result.success, rule_id, result.auto_fail or ""))
        saved[t] = result.success
    expr = parse(damage)
    part = DamagePart(DamageType.parse(expr.tag or ""), rule_id, label, replace(expr, tag=None))
    area_damage(ctx, obj.id, saved, (part,), half_on_save=True, label=label)
    return saved


# ----- fuel containers (CHN-1..4, EX-3, G-52) -----


def explode(ctx: Context, obj_id: str) -> None:
    """A fuel container explodes: blast, fire in the radius, and the chain for its neighbours (CHN-2..4)."""
    o = ctx.ruleset.objects
    obj = ctx.state.environment.objects[obj_id]
    destroy_object(ctx, obj_id, "is blown apart", CHN_2)
    squares = blast_squares(ctx.state, obj.squares, o.fuel_radius_ft)
    ctx.emit(ev.ChainReaction(obj_id, FUEL, tuple(sorted(squares)), CHN_2, obj.name))
    blast(ctx, obj, squares, o.fuel_damage, o.fuel_save_dc, CHN_2, f"{obj.name} explosion")
    ignite(ctx, tuple(sorted(squares)), CHN_3)
    if o.blast_sets_off_fuel:
        for other in _fuel(ctx.state, squares):
            explode(ctx, other.id)
        return
    near = adjacent_to(obj.squares)
    for other in _fuel(ctx.state, near):
        if other.id not in ctx.state.environment.chain_pending:
            ctx.emit(ev.ChainPending(other.id, True, CHN_4, other.name))


def _fuel(state: EncounterState, squares: Iterable[Square]) -> list[MapObject]:
    area = frozenset(squares)
    env = state.environment
    return [env.objects[k] for k in sorted(env.objects)
            if not env.objects[k].broken and env.objects[k].chain == FUEL and area.intersection(env.objects[k].squares)]


def _chain_roll(ctx: Context) -> None:
    """End of round: each fuel container awaiting the chain rolls the die; at most the chance, it explodes (CHN-4)."""
    o = ctx.ruleset.objects
    env = ctx.state.environment
    while True:
        pending = sorted(env.chain_pending)
        if not pending:
            return
        for obj_id in pending:
            obj = env.objects[obj_id]
            ctx.emit(ev.ChainPending(obj_id, False, CHN_4, obj.name))
            if obj.broken:
                continue
            face = ctx.rng.roll(o.chain_die)
            ctx.emit(ev.DiceRolled(obj_id, f"chain reaction (explodes on {o.chain_chance_percent} or less)",
                                   f"1d{o.chain_die}", (face,), face, EX_3))
            if face <= o.chain_chance_percent:
                explode(ctx, obj_id)


# ----- electrical systems (CHN-5..8, X-18) -----


def _discharge_sources(state: EncounterState, c: Combatant) -> tuple[RollSource, ...]:
    o = state.ruleset.objects
    found: list[RollSource] = []
    if o.metal_armor_disadvantage and c.armor is not None and c.armor.metal:
        found.append(dis(CHN_7, f"metal armor ({c.armor.name})"))
    standing = c.creature.speeds.fly == 0 and any(state.environment.water_depth.get(sq, 0) > 0 for sq in c.space)
    if o.water_conducts and standing:
        found.append(dis(X_18, "standing in water"))
    return tuple(found)


def discharge(ctx: Context, obj_id: str) -> None:
    """An electrical system discharges: Reflex saves (metal armor at disadvantage), damage, machines stop (CHN-6..8)."""
    o = ctx.ruleset.objects
    obj = ctx.state.environment.objects[obj_id]
    destroy_object(ctx, obj_id, "is spent", CHN_6)
    squares = blast_squares(ctx.state, obj.squares, o.electrical_radius_ft)
    ctx.emit(ev.ChainReaction(obj_id, ELECTRICAL, tuple(sorted(squares)), CHN_6, obj.name))
    blast(ctx, obj, squares, o.electrical_damage, o.electrical_save_dc, CHN_6, f"{obj.name} discharge",
          _discharge_sources)
    if not o.electronics_disrupted:
        return
    for c in caught(ctx.state, squares):
        if c.creature.machine and not c.health.is_down:
            add(ctx, c.id, AppliedCondition(Condition.INCAPACITATED, CHN_8, obj_id, Duration.end_of_next_turn(c.id)))


def water_hits(ctx: Context, obj_id: str) -> None:
    """Water reaches an electrical system (a burst pipe, a thrown bucket): it discharges (CHN-5)."""
    obj = ctx.state.environment.objects.get(obj_id)
    if obj is not None and not obj.broken and obj.chain == ELECTRICAL and enabled(ctx.state):
        discharge(ctx, obj_id)


# ----- support columns (CHN-9) -----


def collapse(ctx: Context, obj: MapObject) -> None:
    """A support column at 0 HP starts a structural collapse around it (CHN-9)."""
    radius = ctx.ruleset.objects.collapse_radius_ft
    squares = tuple(sorted(blast_squares(ctx.state, obj.squares, radius)))
    ctx.emit(ev.ChainReaction(obj.id, SUPPORT, squares, CHN_9, obj.name))
    start_collapse(ctx, obj.squares[0], radius, CHN_9)


# ----- the triggers -----


def _harmed(ctx: Context, obj: MapObject, harm: ObjectHarm) -> None:
    """React to harm: fuel on destruction or any fire (CHN-1); electrical and support on destruction (CHN-5, CHN-9)."""
    if not enabled(ctx.state) or not obj.chain:
        return
    if obj.chain == FUEL and (harm.destroyed or harm.hit_by(DamageType.FIRE)):
        explode(ctx, obj.id)
    elif obj.chain == ELECTRICAL and harm.destroyed:
        discharge(ctx, obj.id)
    elif obj.chain == SUPPORT and harm.destroyed:
        collapse(ctx, obj)


__all__ = ["ELECTRICAL", "FUEL", "SUPPORT", "blast", "blast_squares", "collapse", "discharge", "explode",
           "water_hits"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.after_object_damage(_harmed)
    book.end_of_round("chains", _chain_roll)
