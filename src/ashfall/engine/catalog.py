"""The shipped rule families in install order, and the one place that decides which ones a fight uses.

:data:`FAMILIES` is the ordered tuple :meth:`~ashfall.engine.rulebook.Rulebook.build` installs: one line per
family. Order is behaviour: hooks of one kind run in family order (morale reacts to damage before the
underwater, spell, mount and vehicle hooks do; the readied-action reaction is offered after Intercept and
Covering Fire), so a new family goes where its hooks must run, usually at the end.

:func:`features_of` reads a fight's features from its state (map, roster, ruleset): a family that needs a
feature the fight lacks is dormant (only its actions are kept, so their refusals name their own rules), so a
dry duel runs no underwater, vehicle, mount, spell, psionic, suppression, hazard or object hook or reaction.
A feature is decided generously: whatever could bring the family into play during the fight (a larger ally
that could be ridden, a gun that could lay down suppressive fire, an object that could burn) installs it, and
events that furnish the battlefield later (an object placed, a creature drowning) decide again
(:meth:`~ashfall.engine.state.EncounterState.furnished`).
"""

from __future__ import annotations

from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.types import Condition
from ashfall.engine.rulebook import Family, Install, Rulebook, RulebookDraft
from ashfall.engine.state import EncounterState
from ashfall.engine.turns import END_OF_ROUND_ORDER
from ashfall.families.attacks import moves_activities as activities
from ashfall.families.attacks import moves_finishing as finishing
from ashfall.families.attacks import moves_gear as gear
from ashfall.families.attacks import moves_legacy as legacy
from ashfall.families.attacks import moves_strike as strike
from ashfall.families.chains import engine as chains
from ashfall.families.dying import engine as dying
from ashfall.families.dying import moves as medical
from ashfall.families.gm import moves as gm_overrides
from ashfall.families.hazards import engine as hazards
from ashfall.families.hazards import moves as hazard_actions
from ashfall.families.maneuvers import moves as maneuvers
from ashfall.families.maneuvers import moves_tactics as tactics
from ashfall.families.morale import engine as morale_hooks
from ashfall.families.morale import engine_fleeing as fleeing
from ashfall.families.mounted import moves as mounted
from ashfall.families.mounted import moves_mounting as mounting
from ashfall.families.movement import moves as movement
from ashfall.families.objects import engine as objects
from ashfall.families.objects import moves as object_actions
from ashfall.families.objects import moves_improvised as improvised
from ashfall.families.psionics import moves as psionic
from ashfall.families.reactions import moves_defensive as defensive
from ashfall.families.reactions import moves_opportunity as opportunity
from ashfall.families.senses import engine as senses
from ashfall.families.spells import moves as spells
from ashfall.families.spells import moves_counterspell as counterspell
from ashfall.families.suppression import moves as suppressive
from ashfall.families.turns import moves as turn_actions
from ashfall.families.underwater import engine as underwater
from ashfall.families.utility import moves as utility
from ashfall.families.vehicles import moves as vehicles

WATER, HAZARDS, OBJECTS, SPELLS, PSIONICS, MOUNTS, VEHICLES, SUPPRESSION, COVERING_FIRE = (
    "water", "hazards", "objects", "spells", "psionics", "mounts", "vehicles", "suppression", "covering-fire")
"""The fight features families may need (see :func:`features_of`)."""


def _each(*installs: Install) -> Install:
    """One family's installer made of its modules' installers, run in order (until the modules share a folder)."""

    def install(book: RulebookDraft) -> None:
        for part in installs:
            part(book)

    return install


FAMILIES: tuple[Family, ...] = (
    Family("morale", _each(morale_hooks.install, fleeing.install)),  # Rally, morale events, fleeing (MOR)
    Family("movement", movement.install),  # Stride, Step, Crawl, Stand, Sprint (ACT-2..5, MAA-8)
    Family("attacks", _each(gear.install, strike.install, activities.install, finishing.install, legacy.install)),
    Family("reactions", _each(defensive.install, opportunity.install)),  # Deflect ... Return Fire, AoO (RX)
    Family("underwater", underwater.install, WATER),  # breath, water attacks and damage, depth (UW)
    Family("hazards", _each(hazards.install, hazard_actions.install), HAZARDS),  # fire, gas, collapse, flood (HAZ*)
    Family("chains", chains.install, OBJECTS),  # fuel, electrical and support chain reactions (CHN)
    Family("objects", _each(objects.install, improvised.install, object_actions.install), OBJECTS),  # OBJ, IEA
    Family("spells", _each(spells.install, counterspell.install), SPELLS),  # Cast, Sustain, Counterspell
    Family("maneuvers", _each(maneuvers.install, tactics.install)),  # Grapple ... Trip, Disarm, Feint, Overrun
    Family("mounted", _each(mounted.install, mounting.install), MOUNTS),  # Mount, Dismount, riders (MNT)
    Family("vehicles", vehicles.install, VEHICLES),  # crew, passengers, Drive, Evasive, Ram (VEH, E-43)
    Family("psionics", psionic.install, PSIONICS),  # Psi Strike (PSI)
    Family("suppression", suppressive.install, SUPPRESSION),  # Suppressive Fire and its zones (SUP-1..10)
    Family("covering-fire", suppressive.install_covering_fire, COVERING_FIRE),  # the talent's reaction (SUP-11)
    Family("utility", utility.install),  # Dodge, Help, Hide, Search, Use Object, free actions
    Family("dying", _each(medical.install, dying.install)),  # EFM, Second Wind, stims, Stabilise, death saves
    Family("turns", turn_actions.install),  # Delay, Ready, Lean Out (DEL, RDY, COV-4)
    Family("senses", senses.install),  # an ambusher's Stealth in an obscured zone (CONC-5)
    Family("gm", gm_overrides.install),  # the GM's overrides at the table: HP, damage with saves, conditions … (GM)
)


def _suppressor(w: Weapon) -> bool:
    """A weapon that could lay down suppressive fire (SUP-1)."""
    return w.kind is WeaponKind.RANGED and w.ammo_capacity is not None and not w.has(WeaponProperty.THROWN)


def features_of(state: EncounterState) -> frozenset[str]:
    """The features a fight uses, from its map, environment and roster: the one place this is decided.

    * ``water``: the fight is underwater, a square holds water, a flood or drain could change the depth, someone
      is drowning or suffocating, or a breath or hazard count is kept.
    * ``hazards``: fire, gas, a collapse, a flood, a drain, a suppression system, hazardous terrain, a countdown,
      flammable squares, a buried creature, a hazard count, or any object (objects can burn and set off chain
      reactions).
    * ``objects``: an object stands on the map.
    * ``spells`` / ``psionics``: a combatant casts spells / has psionic powers or Psi Strike.
    * ``mounts``: someone rides, a vehicle is present, an independent mount fights, or a combatant has a larger
      ally it could mount (ACT-6).
    * ``vehicles``: a vehicle is on the roster.
    * ``suppression``: a combatant carries, or the ground holds, a gun that could lay down suppressive fire.
    * ``covering-fire``: a combatant has the Covering Fire talent.
    """
    env = state.environment
    roster = list(state.combatants.values())
    found: set[str] = set()
    if (env.underwater is not None or env.water_depth or env.floods or env.drains or env.breath or env.depth_ft
            or any(c.has(Condition.DROWNING) or c.has(Condition.SUFFOCATING) for c in roster)):
        found.add(WATER)
    if (env.fire or env.fire_burnout or env.gas or env.gas_clouds or env.collapses or env.floods or env.drains
            or env.suppressors or env.hazard_terrain or env.hazard_marks or env.countdowns or env.flammable
            or env.objects or env.water_depth or env.rubble or env.debris or env.breath or env.depth_ft
            or env.chain_pending
            or any(c.has(Condition.BURIED) for c in roster)):
        found.add(HAZARDS)
    if env.objects:
        found.add(OBJECTS)
    if any(c.creature.spell_attribute is not None for c in roster):
        found.add(SPELLS)
    if any(c.creature.psionic or psionic.PSI_STRIKE in c.creature.talents for c in roster):
        found.add(PSIONICS)
    if any(c.creature.vehicle is not None for c in roster):
        found.update((VEHICLES, MOUNTS))
    ranks: dict[str, set[int]] = {}
    for c in roster:
        ranks.setdefault(c.side, set()).add(c.creature.size.rank)
    if (any(c.mounted_on is not None or c.creature.independent_mount for c in roster)
            or any(len(sizes) > 1 for sizes in ranks.values())):  # a side with two sizes: the larger could carry
        found.add(MOUNTS)
    if (any(_suppressor(w) for c in roster for w in c.weapons)
            or any(isinstance(g.item, Weapon) and _suppressor(g.item) for g in state.ground)):
        found.add(SUPPRESSION)
    if any(suppressive.COVERING_FIRE in c.creature.talents for c in roster):
        found.add(COVERING_FIRE)
    return frozenset(found)


def build(features: frozenset[str] | None = None, extra: tuple[Family, ...] = ()) -> Rulebook:
    """The shipped families (then ``extra`` ones) for a fight with these features (None: every family)."""
    return Rulebook.build((*FAMILIES, *extra), features, end_of_round_order=END_OF_ROUND_ORDER)


_BOOKS: dict[frozenset[str], Rulebook] = {}
"""Built rulebooks by feature set: building is a pure function of the features, so fights share them."""


def rulebook_for(state: EncounterState, at_least: frozenset[str] = frozenset()) -> Rulebook:
    """The shipped rulebook for this fight's features (see :func:`features_of`) and ``at_least`` these."""
    features = features_of(state) | at_least
    book = _BOOKS.get(features)
    if book is None:
        book = _BOOKS[features] = build(features)
    return book

__all__ = ["FAMILIES", "build", "features_of", "rulebook_for"]
