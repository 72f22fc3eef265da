"""Destructible objects as battlefield participants (OBJ-0..11, STC-10, STC-11, G-25, G-39).

* **Damage** to an object goes through the rules core's object ledger (:func:`ashfall.families.objects.rules.
  apply_object_damage`): Hardness off every hit (OBJ-3, OBJ-4), piercing halved unless fragile (OBJ-8),
  fire, electric and force past Hardness (OBJ-5, X-06; fire on flammable objects OBJ-10), immune to
  psychic and poison (OBJ-7). At 0 HP it breaks and stops giving cover (STC-10); the creatures it
  covered are logged as exposed. The rulebook's ``after_object_damage`` hooks run after every harm (chain
  reactions plug in there, CHN-1, CHN-5, CHN-9).
* **Strike an object**: :mod:`.moves` (an attack roll against its DV, 10 unless stated, G-25);
  the rulebook's ``on_object_hit`` hooks run after a hit (a chandelier falls, IEA-5).
* **Shooting through cover** (STC-11, G-39): when a ranged attack *hits* a creature, every intact object
  that gave it cover along the line takes the hit's damage through its own ledger (Hardness off); an
  explosive goes around cover and damages none (STC-6). Broken, the target loses that cover.
* **Area effects** damage the objects in them (:func:`damage_objects_in_area`, called for area spells
  by :mod:`.moves`): an object fails its Reflex save automatically (OBJ-6) and takes it all.
  "Destroys light cover" breaks every object of at most ``objects.light_cover_max_hp`` HP in the area
  (OBJ-11).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ashfall.content.schema import ObjectTemplate
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType, Save
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.environment import MapObject
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import leaning_out
from ashfall.families.attacks.engine_cover import cover_of, objects_between
from ashfall.families.objects.rules import ObjectDamageResult, apply_object_damage, object_save_auto_fail
from ashfall.grid.areas import adjacent_to
from ashfall.grid.board import CoverLevel, Square
from ashfall.rules.damage import DamageRoll
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.defense import AttackTraits
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import CoverApplies

OBJ_3, OBJ_6, OBJ_11, STC_11 = rule("OBJ-3"), rule("OBJ-6"), rule("OBJ-11"), rule("STC-11")


@dataclass(frozen=True, slots=True)
class ObjectHarm:
    """What happened to one object: the damage it was hit with and whether it broke.

    Attributes:
        object: The object's id.
        source: Who or what harmed it.
        incoming: Damage per type before its defenses ("hit by fire damage", CHN-1, reads this).
        result: The ledger result, or None when it was destroyed outright (OBJ-11).
        destroyed: It broke with this harm.
        rule: The rule under which it was harmed.
    """

    object: str
    source: str
    incoming: tuple[tuple[DamageType, int], ...]
    result: ObjectDamageResult | None
    destroyed: bool
    rule: RuleId

    def hit_by(self, damage_type: DamageType) -> bool:
        """Whether the harm included damage of this type (before defenses)."""
        return any(t is damage_type and n > 0 for t, n in self.incoming)


ObjectHook = Callable[[Context, MapObject, ObjectHarm], None]
"""Hooks run after an object is harmed or destroyed (chain reactions, ropes letting go)."""
HitHook = Callable[[Context, MapObject, str], None]
"""Hooks run after an attack roll hits an object: (ctx, the object, the attacker) (a chandelier falls, IEA-5)."""




def enabled(state: EncounterState) -> bool:
    """Objects take part in the fight (edition 2; absent in edition 1, E-36)."""
    return state.ruleset.objects.environmental_combat


def make_object(template: ObjectTemplate, obj_id: str, at: Square, ruleset: Ruleset, *, holds: str = "",
                facing: tuple[int, int] | None = None) -> MapObject:
    """A fresh object from its content entry, its top-left square at ``at`` (DV 10 unless stated, G-25)."""
    squares = tuple((at[0] + dx, at[1] + dy) for dy in range(template.depth) for dx in range(template.width))
    return MapObject(
        id=obj_id, name=template.name, squares=squares, hp=template.hp, max_hp=template.hp,
        dv=template.dv if template.dv is not None else ruleset.objects.object_dv, hardness=template.hardness,
        flammable=template.flammable, fragile=template.fragile, metal=template.metal, cover=template.cover.value,
        light_cover=template.light_cover, chain=template.chain.value, blocks_movement=template.blocks_movement,
        template=template.id, tags=frozenset(t.value for t in template.tags), push_dc=template.push_dc,
        facing=facing, holds=holds,
    )


def object_defenses(obj: MapObject) -> Defenses:
    """An object's defenses: Hardness, fragile and flammable, psychic and poison immunity (OBJ-3..10)."""
    return Defenses.of_object(obj.hardness, fragile=obj.fragile, flammable=obj.flammable)


def _amounts(damage: DamageRoll | Mapping[DamageType, int]) -> tuple[tuple[DamageType, int], ...]:
    return damage.totals if isinstance(damage, DamageRoll) else tuple(damage.items())


def exposed_by(state: EncounterState, obj: MapObject) -> tuple[str, ...]:
    """Creatures to whom this object gives cover against at least one enemy (they lose it when it breaks)."""
    board = state.board
    if board is None:
        return ()
    out: list[str] = []
    for c in state.combatants.values():
        if c.health.is_dead or not c.space:
            continue
        for e in state.enemies_of(c.id):
            if e.space and not e.health.is_dead and obj in objects_between(board, state.environment, e.space, c.space):
                out.append(c.id)
                break
    return tuple(out)


def _after(ctx: Context, obj: MapObject, harm: ObjectHarm) -> None:
    for hook in ctx.state.rulebook.after_object_damage:
        hook(ctx, obj, harm)


def destroy_object(ctx: Context, obj_id: str, label: str, rule_id: RuleId) -> None:
    """Break an intact object: it stops giving cover (STC-10) and the creatures it covered are logged."""
    obj = ctx.state.environment.objects[obj_id]
    if obj.broken:
        return
    exposed = exposed_by(ctx.state, obj) if cover_of(obj) is not CoverLevel.NONE else ()
    ctx.emit(ev.ObjectDestroyed(obj_id, label, exposed, rule_id, obj.name))


def damage_object(ctx: Context, obj_id: str, damage: DamageRoll | Mapping[DamageType, int], *, source: str,
                  label: str, rule_id: RuleId = OBJ_3, critical: bool = False) -> ObjectDamageResult | None:
    """Deal damage to an object through its ledger (OBJ-3..10), break it at 0 HP, run the hooks.

    Returns:
        The ledger result, or None when the object is already broken.
    """
    obj = ctx.state.environment.objects[obj_id]
    if obj.broken:
        return None
    result = apply_object_damage(obj.hp, damage, object_defenses(obj), ctx.ruleset, critical=critical)
    rows = tuple(ev.LedgerLine(r.step.value, r.type.value, r.before, r.after, r.rule, r.label) for r in result.rows)
    ctx.emit(ev.ObjectDamaged(obj_id, source, result.hp_before - result.hp_after, rows, result.hp_after, label,
                              rule_id, obj.name))
    if result.destroyed:
        destroy_object(ctx, obj_id, "destroyed", rule_id)
    _after(ctx, obj, ObjectHarm(obj_id, source, _amounts(damage), result, result.destroyed, rule_id))
    return result


def objects_in(state: EncounterState, squares: Iterable[Square]) -> list[MapObject]:
    """The intact objects with a square in the area, by id."""
    area = frozenset(squares)
    env = state.environment
    return [env.objects[k] for k in sorted(env.objects) if not env.objects[k].broken and area.intersection(
        env.objects[k].squares)]


def damage_objects_in_area(ctx: Context, source: str, squares: Iterable[Square],
                           damage: DamageRoll | Mapping[DamageType, int], label: str) -> None:
    """An area effect's damage to every object in it: it fails its Reflex save and takes it all (OBJ-6)."""
    if not enabled(ctx.state):
        return
    why = object_save_auto_fail(Save.REFLEX) or OBJ_6
    for obj in objects_in(ctx.state, squares):
        damage_object(ctx, obj.id, damage, source=source, label=f"{label} (fails its Reflex save)", rule_id=why)


def destroy_light_cover(ctx: Context, source: str, squares: Iterable[Square]) -> None:
    """"Destroys light cover": every object of at most ``objects.light_cover_max_hp`` HP in the area breaks (OBJ-11)."""
    limit = ctx.ruleset.objects.light_cover_max_hp
    for obj in objects_in(ctx.state, squares):
        if obj.hp <= limit:
            destroy_object(ctx, obj.id, "destroyed (light cover)", OBJ_11)
            _after(ctx, obj, ObjectHarm(obj.id, source, (), None, True, OBJ_11))


def place_object(ctx: Context, obj: MapObject, label: str, rule_id: RuleId) -> None:
    """Put an object on the battlefield, or replace one with a changed copy (flipped, moved, fallen)."""
    ctx.emit(ev.ObjectPlaced(obj, label, rule_id))


# ----- shooting through cover (STC-11, G-39) -----


def _through_cover(ctx: Context, attacker: Combatant, target: Combatant, damage: DamageRoll,
                   traits: AttackTraits) -> None:
    """A hit through destructible cover: each object covering the target takes the damage (STC-11, G-39)."""
    state = ctx.state
    if not enabled(state) or state.board is None or not attacker.space or not target.space or traits.explosive:
        return
    if not traits.ranged and state.ruleset.defense.cover_applies is CoverApplies.RANGED_ONLY:
        return
    if leaning_out(state, target):
        return
    skipped = adjacent_to(attacker.space) if leaning_out(state, attacker) else frozenset()
    for obj in objects_between(state.board, state.environment, attacker.space, target.space):
        if not skipped.intersection(obj.squares):
            damage_object(ctx, obj.id, damage, source=attacker.id, label=f"shot through at {target.name}",
                          rule_id=STC_11, critical=damage.critical)


__all__ = [
    "ObjectHarm",
    "damage_object",
    "damage_objects_in_area",
    "destroy_light_cover",
    "destroy_object",
    "enabled",
    "exposed_by",
    "make_object",
    "object_defenses",
    "objects_in",
    "place_object",
]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.after_hit(_through_cover)
