"""Reach and range as pure rules: how far a creature threatens and how far one attack can reach at all.

Flanking (POS-1), Attacks of Opportunity (RX-21) and the AI's threat maps all ask how far a creature threatens
(NAT-6); the Strike's legality check, the AI's attack options and the scripted tactics all ask how far an attack
reaches (ATK-1, ATK-2). Each question is answered here once.
"""

from __future__ import annotations

from ashfall.content.schema import Weapon, WeaponKind
from ashfall.ruleset import Ruleset

_MELEE: dict[int, tuple[tuple[Weapon, ...], tuple[Weapon, ...], int]] = {}
_MELEE_MAX = 512
"""A weapon tuple's melee weapons and their longest reach (-1: none), by the tuple's id.

Why: every reaction trigger asks each creature for its melee weapons and reach (AoO eligibility, threat checks).
A combatant's ``weapons`` is an immutable tuple of frozen weapons that the applier replaces, never mutates, so the
answer is a pure function of the tuple. The entry keeps its tuple alive and is used only while ``found[0] is
weapons``, so a reused id never matches a different tuple. Bounded: emptied when full."""


def melee_of(weapons: tuple[Weapon, ...]) -> tuple[tuple[Weapon, ...], tuple[Weapon, ...], int]:
    """``(weapons, its melee weapons, their longest reach or -1)`` for a tuple of weapons (cached by identity)."""
    found = _MELEE.get(id(weapons))
    if found is None or found[0] is not weapons:
        melee = tuple(w for w in weapons if w.kind is WeaponKind.MELEE)
        if len(_MELEE) >= _MELEE_MAX:
            _MELEE.clear()
        found = _MELEE[id(weapons)] = (weapons, melee, max((w.reach for w in melee), default=-1))
    return found


def threat_reach(weapons: tuple[Weapon, ...], ruleset: Ruleset) -> int:
    """How far a creature threatens: its longest melee reach, natural reach when unarmed (NAT-6, POS-1, RX-21)."""
    natural = ruleset.attack.natural_reach
    longest = melee_of(weapons)[2]
    return longest if longest > natural else natural


def attack_limit_ft(weapon: Weapon | None, ranged: bool, natural_reach: int) -> int:
    """The farthest an attack reaches at all: a ranged attack's long range (ATK-2), else the reach (ATK-1).

    Args:
        weapon: The weapon (None: unarmed, natural reach; a ranged attack without one reaches nowhere).
        ranged: Whether the attack is a ranged one (a ranged weapon, or a melee weapon thrown).
        natural_reach: The ruleset's ``attack.natural_reach`` (NAT-6).
    """
    if ranged:
        return (weapon.range_long or weapon.range_normal or 0) if weapon is not None else 0
    return weapon.reach if weapon is not None else natural_reach


__all__ = ["attack_limit_ft", "melee_of", "threat_reach"]
