"""The names content may give in a creature's ``talents``: talents the rules read and the spells the engine knows.

A stat block lists talents (``sentinel``, ``covering-fire``) and the spells it knows (``healing-touch``)
in one ``talents`` list. The content loader checks every name against :data:`TALENT_NAMES` at load, so a
typo (``sentinal``) is an error with a "did you mean" instead of a talent that silently does nothing.
The rules and engine read the same constants from here, so the list cannot drift from what they look for.
Conditions a stat block names (``condition_immunities``) are checked against
:class:`ashfall.core.types.Condition`.
"""

from __future__ import annotations

SENTINEL = "sentinel"
"""A hit with an opportunity attack stops the mover (RX-23)."""
COVERING_FIRE = "covering-fire"
"""Suppress an enemy who attacks an ally in the covered area (SUP-11)."""
PSI_STRIKE = "psi-strike"
"""The psionic strike activity (PSI-18)."""
EXTRA_ATTACK = "extra-attack"
"""The earlier edition's Extra Attack (E-nn, legacy actions)."""
TWO_WEAPON_FIGHTING = "two-weapon-fighting"
"""The Two-Weapon Fighting ability: the off-hand attack adds the attribute modifier (TWF)."""
COUP_DE_GRACE_IMMUNE = "coup-de-grace-immune"
"""Cannot be the target of a Coup de Grace (CDG)."""
SECOND_WIND = "second-wind"
"""An NPC that may take a Second Wind like a PC."""
SPELLCASTING_FOCUS = "spellcasting-focus"
"""Casts (and counterspells, RX-16) without a free hand."""
MAGICAL_NATURAL_WEAPONS = "magical-natural-weapons"
"""Its natural weapons count as magical (NAT-7)."""

TALENTS: tuple[str, ...] = (
    SENTINEL, COVERING_FIRE, PSI_STRIKE, EXTRA_ATTACK, TWO_WEAPON_FIGHTING, COUP_DE_GRACE_IMMUNE, SECOND_WIND,
    SPELLCASTING_FOCUS, MAGICAL_NATURAL_WEAPONS,
)
"""Every talent the rules read."""

SPELLS: tuple[str, ...] = ("healing-touch", "bind-wounds", "mass-healing", "arc-bolt", "flame-burst", "binding-hex")
"""The ids of the engine's built-in spellbook (HEAL-1..3 and the generic examples): the spells a creature may know."""

TALENT_NAMES = frozenset(TALENTS + SPELLS)
"""What a stat block's ``talents`` may name."""

__all__ = ["SPELLS", "TALENTS", "TALENT_NAMES"]
