"""Helpers the action modules share: weapons in hand, speed, reach and target checks."""

from __future__ import annotations

from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.engine.actions import refuse
from ashfall.engine.effects import EffectKind
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import may_harm
from ashfall.rules.reach import melee_of, threat_reach


def weapon_of(c: Combatant, weapon_id: str | None) -> Weapon | None:
    """The combatant's weapon by id (its first weapon when None; None if it has none: unarmed)."""
    if weapon_id is None:
        return c.weapons[0] if c.weapons else None
    for w in c.weapons:
        if w.id == weapon_id:
            return w
    raise refuse("ACT-7", f"{c.name} has no weapon {weapon_id!r}")


def mode_for(weapon: Weapon | None, thrown: bool = False) -> AttackMode:
    """The attack mode a weapon is used in (unarmed without one)."""
    if weapon is None:
        return AttackMode.UNARMED
    if thrown and weapon.has(WeaponProperty.THROWN):
        return AttackMode.THROWN
    if weapon.kind is WeaponKind.RANGED:
        return AttackMode.RANGED
    return AttackMode.MELEE


def melee_weapons(c: Combatant) -> list[Weapon]:
    """Melee weapons it wields (natural weapons included)."""
    return list(melee_of(c.weapons)[1])


def best_melee(c: Combatant) -> Weapon | None:
    """The melee weapon it would use for an opportunity attack (the first listed), or None (unarmed)."""
    weapons = melee_of(c.weapons)[1]
    return weapons[0] if weapons else None


def melee_reach(c: Combatant, state: EncounterState) -> int:
    """How far it threatens: its longest melee reach, natural reach when unarmed (NAT-6, RX-21)."""
    return threat_reach(c.weapons, state.ruleset)


def can_make_melee_attack(c: Combatant) -> bool:
    """Wields a melee weapon or can make an unarmed strike (RX-24); natural weapons always count (NAT-4)."""
    return bool(melee_of(c.weapons)[1]) or not c.creature.machine


def speed_ft(c: Combatant, state: EncounterState) -> int:
    """Its speed now (its swim speed underwater, UW-7): 0 when grappled/restrained/…, less after a Leg shot (CS-4)."""
    if cond.speed_is_zero(c.condition_set) is not None:
        return 0
    change = sum(e.amount for e in state.effects_on(c.id, EffectKind.SPEED_CHANGE))
    speeds = c.creature.speeds
    base = speeds.swim if state.environment.underwater is not None and speeds.swim > 0 else speeds.walk  # UW-7
    return max(0, base + change)


def require_target(state: EncounterState, actor: Combatant, target_id: str) -> Combatant:
    """The target of a harmful action, refusing a dead or forbidden one (C-CHA)."""
    if target_id not in state.combatants:
        raise refuse("ACT-7", f"no creature {target_id!r} here")
    target = state.get(target_id)
    if target.id == actor.id:
        raise refuse("ACT-7", "a creature cannot target itself with an attack")
    if target.health.is_dead:
        raise refuse("DEATH-3", f"{target.name} is dead")
    verdict = may_harm(actor.conditions, target.id)
    if not verdict.allowed:
        raise refuse(verdict.rule or "C-CHA", f"{actor.name} cannot harm {target.name}")
    return target
