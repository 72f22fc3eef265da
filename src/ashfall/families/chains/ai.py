"""Using the battlefield as a weapon: shoot a fuel container or a power panel when the blast pays.

A competent GM's NPC (or a player) sets off a chain-reaction element (CHN-1, CHN-5) when its blast
would catch more enemies than allies and one shot has a fair chance to destroy it. The blast's
numbers come from the ruleset (``objects`` section); the hit and damage odds from the exact odds
module; the blast area from the engine's own template (so line of effect matches the engine).
"""

from __future__ import annotations

from dataclasses import dataclass

from ashfall.content.schema import Weapon, WeaponKind
from ashfall.engine import Combatant, Engine, StrikeObject
from ashfall.engine.environment import MapObject
from ashfall.families.attacks.rules import AttackContext, attack_modifiers
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.families.chains.engine import ELECTRICAL, FUEL, blast_squares
from ashfall.families.objects.engine import object_defenses
from ashfall.families.objects.rules import apply_object_damage
from ashfall.grid.geometry import space_distance_ft
from ashfall.odds import attack_odds
from ashfall.rules.damage_defenses import Defenses
from ashfall.ruleset import Ruleset

MIN_DESTROY_CHANCE = 0.8
"""How much of the element's remaining HP the shots left this turn must be expected to deal (a GM's
'we can bring it down now'); damage to objects stays, so a later turn finishes the job."""


@dataclass(frozen=True, slots=True)
class Sabotage:
    """A shot at a chain-reaction element: the intent and why it is worth it."""

    intent: StrikeObject
    destroy_chance: float
    """Expected damage this turn over the element's remaining HP."""
    enemies_caught: int


def _destroy_chance(c: Combatant, weapon: Weapon, obj: MapObject, engine: Engine) -> float:
    """Expected damage of this turn's remaining shots (MAP included) as a share of the element's HP."""
    mods, _ = attack_modifiers(c.creature, weapon, AttackMode.RANGED, engine.state.ruleset, AttackContext())
    bonus = sum(m.value for m in mods)
    rs = engine.state.ruleset
    defenses = object_defenses(obj)
    expected = 0.0
    for shot in range(c.turn.actions_left):
        odds = attack_odds(bonus, obj.dv, f"{weapon.damage}+{weapon.damage_bonus}",
                           attack_number=c.turn.attack_rolls + shot + 1, ruleset=rs)
        # what each damage roll does to the object, by the rules core's own object ledger (OBJ-3..8)
        expected += sum(float(p) * _object_loss(dmg, weapon, obj, defenses, rs) for dmg, p in odds.distribution.items())
    return expected / max(1, obj.hp)


def _object_loss(dmg: int, weapon: Weapon, obj: MapObject, defenses: Defenses, rs: Ruleset) -> int:
    if dmg <= 0:
        return 0
    result = apply_object_damage(obj.hp, {weapon.damage_type: dmg}, defenses, rs)
    return obj.hp - result.hp_after


def best_sabotage(engine: Engine, c: Combatant) -> Sabotage | None:
    """The most damaging chain reaction the creature can set off with one ranged shot now, if any pays.

    It pays when the blast would catch at least two enemies still fighting and none of the shooter's
    side (itself included), and the shots left this turn are expected to bring it down
    (:data:`MIN_DESTROY_CHANCE` of its remaining HP).
    """
    state = engine.state
    if state.board is None or not c.space:
        return None
    rs = state.ruleset.objects
    radius = {FUEL: rs.fuel_radius_ft, ELECTRICAL: rs.electrical_radius_ft}
    guns = [w for w in c.weapons if w.kind is WeaponKind.RANGED]
    best: Sabotage | None = None
    for obj_id in sorted(state.environment.objects):
        obj = state.environment.objects[obj_id]
        if obj.broken or obj.chain not in radius:
            continue
        area = blast_squares(state, obj.squares, radius[obj.chain])
        foes = sum(1 for e in state.enemies_of(c.id) if e.is_active and area.intersection(e.space))
        friends = sum(1 for a in (c, *state.allies_of(c.id)) if a.is_active and area.intersection(a.space))
        if foes < 2 or friends:
            continue
        for weapon in guns:
            limit = weapon.range_long or weapon.range_normal or 0
            if space_distance_ft(c.space, obj.squares) > limit:
                continue
            chance = _destroy_chance(c, weapon, obj, engine)
            intent = StrikeObject(c.id, obj.id, weapon.id)
            if chance < MIN_DESTROY_CHANCE:
                continue
            key = (foes * chance, foes, obj.id)
            if best is None or key > (best.enemies_caught * best.destroy_chance, best.enemies_caught,
                                      best.intent.object):
                try:
                    engine.check(intent)
                except Exception:
                    continue
                best = Sabotage(intent, chance, foes)
    return best
