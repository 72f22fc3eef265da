"""Handling gear: Reload and Draw/Stow (G-31, E-03, E-04), in both editions.

Edition 2 refers to loaded weapons and 2-action reloads without defining the actions; G-31 imports
edition 1's: Reload costs 1 action, or the weapon's ``reload_actions`` (2 for weapons tagged so), and
fills the magazine; Draw/Stow readies or puts away one item for ``attack.draw_stow_actions``. A stowed
weapon is marked in the combatant's ``uses`` (``stowed:<weapon id>``); the hands a creature has in use
decide whether it has a free hand (Counterspell RX-18).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ashfall.content.schema import Weapon, WeaponProperty
from ashfall.core.rule_ids import rule
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, refuse
from ashfall.engine.context import Context
from ashfall.engine.records import Keyed, entry_name, use_name
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine_common import weapon_of

G_31 = rule("G-31")
STOWED = Keyed.STOWED.value
"""The event-log name prefix marking a stowed weapon."""


def stowed(c: Combatant, weapon_id: str) -> bool:
    """Whether the combatant has put this weapon away."""
    keyed = c.supplies.keyed
    return bool(keyed) and keyed.get((Keyed.STOWED, weapon_id), 0) > 0


@lru_cache(maxsize=1024)
def stowed_key(weapon_id: str) -> str:
    """The event-log name of this weapon stowed (``Combatant.uses`` and ``ResourceUsed`` read it)."""
    return entry_name((Keyed.STOWED, weapon_id))


def require_in_hand(c: Combatant, weapon: Weapon | None) -> None:
    """Refuse an attack with a stowed weapon (G-31: draw it first)."""
    if weapon is not None and stowed(c, weapon.id):
        raise refuse("G-31", f"{c.name}'s {weapon.name} is stowed: draw it first")


def hands_in_use(c: Combatant) -> int:
    """Hands its drawn weapons and shield take: two-handed weapons 2, other items 1 (natural weapons none)."""
    held = [w for w in c.weapons if not w.has(WeaponProperty.NATURAL) and not stowed(c, w.id)]
    return sum(2 if w.has(WeaponProperty.TWO_HANDED) else 1 for w in held) + (1 if c.shield is not None else 0)


def has_free_hand(c: Combatant, state: EncounterState) -> bool:
    """Whether at least one hand is free (``checks.hands`` hands)."""
    return hands_in_use(c) < state.ruleset.checks.hands


# ----- Reload -----


@dataclass(frozen=True, slots=True)
class Reload:
    """Reload a weapon: 1 action, or its ``reload_actions`` (G-31, E-03)."""

    actor: str
    weapon: str


def named_weapon(c: Combatant, weapon_id: str) -> Weapon:
    """A weapon the combatant carries, by id (refused with ACT-7 if it has none)."""
    weapon = weapon_of(c, weapon_id)
    assert weapon is not None
    return weapon


def _reload_cost(state: EncounterState, intent: Reload) -> int:
    return named_weapon(state.get(intent.actor), intent.weapon).reload_actions


def _check_reload(state: EncounterState, intent: Reload) -> None:
    c = state.get(intent.actor)
    weapon = named_weapon(c, intent.weapon)
    if weapon.ammo_capacity is None:
        raise refuse("G-31", f"{weapon.name} takes no ammunition")
    require_in_hand(c, weapon)
    if c.ammo.get(weapon.id, weapon.ammo_capacity) >= weapon.ammo_capacity:
        raise refuse("G-31", f"{weapon.name} is fully loaded")


def _resolve_reload(ctx: Context, intent: Reload) -> None:
    c = ctx.state.get(intent.actor)
    weapon = named_weapon(c, intent.weapon)
    assert weapon.ammo_capacity is not None
    left = c.ammo.get(weapon.id, weapon.ammo_capacity)
    ctx.emit(ev.ResourceUsed(c.id, f"ammo:{weapon.id}", weapon.ammo_capacity - left, G_31))


def _reload_candidates(state: EncounterState, actor: str) -> Iterable[Reload]:
    return [Reload(actor, w.id) for w in state.get(actor).weapons if w.ammo_capacity is not None]


# ----- Draw/Stow -----


@dataclass(frozen=True, slots=True)
class DrawStow:
    """Draw (ready) or stow (put away) one weapon (G-31, E-04)."""

    actor: str
    item: str
    stow: bool = False


def _draw_stow_cost(state: EncounterState, intent: DrawStow) -> int:
    return state.ruleset.attack.draw_stow_actions


def _check_draw_stow(state: EncounterState, intent: DrawStow) -> None:
    c = state.get(intent.actor)
    weapon = named_weapon(c, intent.item)
    if weapon.has(WeaponProperty.NATURAL):
        raise refuse("G-31", f"{weapon.name} is a natural weapon: it is never drawn or stowed")
    if intent.stow and stowed(c, weapon.id):
        raise refuse("G-31", f"{weapon.name} is already stowed")
    if not intent.stow and not stowed(c, weapon.id):
        raise refuse("G-31", f"{weapon.name} is already in hand")


def _resolve_draw_stow(ctx: Context, intent: DrawStow) -> None:
    ctx.emit(ev.ResourceUsed(intent.actor, use_name((Keyed.STOWED, intent.item)), 1 if intent.stow else -1, G_31))


def _draw_stow_candidates(state: EncounterState, actor: str) -> Iterable[DrawStow]:
    c = state.get(actor)
    return [DrawStow(actor, w.id, stow=not stowed(c, w.id)) for w in c.weapons]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Reload, ActionDef("reload", G_31, _reload_cost, _resolve_reload, _check_reload, _reload_candidates))
    book.action(DrawStow, ActionDef("draw-stow", G_31, _draw_stow_cost, _resolve_draw_stow, _check_draw_stow,
                                 _draw_stow_candidates))
