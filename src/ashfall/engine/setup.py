"""Building an encounter from the content library: combatants, the state and a ready engine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ashfall.content.library import Library
from ashfall.content.schema import Creature
from ashfall.core.rng import SeededRng
from ashfall.engine.decisions import Controller, FirstOption
from ashfall.engine.engine import Engine
from ashfall.engine.rulebook import Rulebook
from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import Board, Square
from ashfall.rules.defense import hull
from ashfall.rules.health import Health, makes_death_saves
from ashfall.ruleset import Ruleset, preset


def make_combatant(library: Library, creature_id: str, cid: str, side: str, position: Square | None = None,
                   name: str | None = None, controller: str = "ai", *, ruleset: Ruleset | None = None) -> Combatant:
    """A combatant at full health from a library stat block (see :func:`combatant_of`)."""
    return combatant_of(library, library.creature(creature_id), cid, side, position, name, controller,
                        ruleset=ruleset)


def combatant_of(library: Library, creature: Creature, cid: str, side: str, position: Square | None = None,
                 name: str | None = None, controller: str = "ai", *, ruleset: Ruleset | None = None) -> Combatant:
    """A combatant at full health from a stat block, its gear from the library: the one way a combatant is built.

    NPCs die at 0 HP unless their stat block uses death saves (G-38, ``dying.npcs_die_at_zero``). A vehicle
    wears a hull that gives it its DV (DV-1, VEH).
    """
    rs = ruleset or preset()
    return Combatant(
        id=cid, name=name or creature.name, side=side, creature=creature,
        weapons=library.weapons_of(creature),
        armor=library.armor(creature.armor) if creature.armor else hull(creature, rs),
        shield=library.shield(creature.shield) if creature.shield else None,
        health=Health.full(creature.hp, temp_hp=creature.temp_hp, uses_death_saves=makes_death_saves(creature, rs)),
        position=position, controller=controller,
    )


def new_state(combatants: Iterable[Combatant], ruleset: Ruleset | None = None,
              board: Board | None = None) -> EncounterState:
    """An encounter state, not yet started."""
    roster = {c.id: c for c in combatants}
    return EncounterState(ruleset or preset(), board, roster)


def new_engine(state: EncounterState, seed: int = 0, controllers: Mapping[str, Controller] | None = None,
               rulebook: Rulebook | None = None) -> Engine:
    """An engine with a seeded RNG; creatures without a controller take the first option offered.

    The fight plays by ``rulebook``, or by the shipped families its features need (decided from the state,
    :func:`ashfall.engine.catalog.rulebook_for`).
    """
    chosen = dict(controllers or {})
    for cid in state.combatants:
        chosen.setdefault(cid, FirstOption())
    if rulebook is not None:
        state.chosen_rulebook = rulebook
    return Engine(state, SeededRng(seed), chosen, seed)
