"""Building an un-started :class:`~ashfall.engine.engine.Engine` from a checked encounter.

:func:`build` makes the board's combatants with :func:`~ashfall.engine.setup.make_combatant`, gives
each a controller and returns the engine with a :class:`BuildInfo`: the seed used, the sides, the
ambushing side to pass to ``Engine.start`` and every combatant's tactics (data for the simulator).

A combatant's ``leader`` setting becomes its stat block's leader flag for the fight (MOR-8). A side
with ``morale: off`` goes into the state's ``morale_immune``: the GM declared its NPCs immune for this
encounter (MOR-37, MOR-38). PCs never check morale either way (MOR-2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ashfall.content.schema import Creature
from ashfall.encounters.lighting import apply_vision
from ashfall.encounters.placing import apply_hazards, apply_objects, apply_riding
from ashfall.encounters.schema import ControllerKind, SideSpec
from ashfall.encounters.spec import EncounterSpec, RosterEntry, Tactics
from ashfall.engine import Combatant, Controller, Engine, FirstOption, make_combatant, new_engine, new_state
from ashfall.grid.board import Square

DEFAULT_SEED = 0
"""The seed when neither the caller nor the file gives one."""

ControllerFactory = Callable[[Combatant, Tactics], Controller]
"""Makes the controller of one combatant (the AI helper plugs its policies in here)."""


def first_option(combatant: Combatant, tactics: Tactics) -> Controller:
    """The placeholder controller for both AI and human sides: take the first option offered."""
    return FirstOption()


DEFAULT_CONTROLLERS: Mapping[ControllerKind, ControllerFactory] = MappingProxyType({
    ControllerKind.AI: first_option,
    ControllerKind.HUMAN: first_option,
})


@dataclass(frozen=True, slots=True)
class SideInfo:
    """One side as built: its settings and its members' ids in roster order."""

    name: str
    controller: ControllerKind
    morale: bool
    ambush: bool
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuildInfo:
    """What the engine does not hold but whoever runs the fight needs.

    Attributes:
        name: The encounter's name.
        file: The file it came from.
        seed: The seed the engine's RNG started from.
        sides: The sides, in file order.
        tactics: Each combatant's tactics, by combatant id.
        leaders: Ids of the combatants that lead their side (MOR-8).
        ambushers: The side that ambushes (pass to ``Engine.start``), or None.
        round_limit: The round after which the fight stops undecided, or None.
        exits: Squares where fleeing creatures leave the battlefield (MOR-20); empty without a map.
    """

    name: str
    file: str
    seed: int
    sides: tuple[SideInfo, ...]
    tactics: Mapping[str, Tactics] = field(default_factory=dict)
    leaders: tuple[str, ...] = ()
    ambushers: str | None = None
    round_limit: int | None = None
    exits: tuple[Square, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tactics", MappingProxyType(dict(self.tactics)))

    def start(self, engine: Engine) -> list[Any]:
        """Start the fight: initiative, the ambush if any (SUR-1) and the first turn."""
        return engine.start(ambushers=self.ambushers)


def build(spec: EncounterSpec, seed: int | None = None,
          controllers: Mapping[ControllerKind | str, ControllerFactory] | None = None) -> tuple[Engine, BuildInfo]:
    """An un-started engine for the encounter, and the facts about it the engine does not keep.

    Args:
        spec: A loaded encounter (:func:`~ashfall.encounters.loader.load_encounter`).
        seed: The RNG seed; default the file's ``seed``, else 0.
        controllers: A controller factory per controller kind (``ai``, ``human``), replacing
            :data:`DEFAULT_CONTROLLERS` for that kind.
    """
    factories = {**DEFAULT_CONTROLLERS, **{ControllerKind(k): f for k, f in (controllers or {}).items()}}
    sides = {s.name: s for s in spec.sides}
    combatants = [_combatant(spec, entry, sides[entry.side]) for entry in spec.roster]
    state = new_state(combatants, spec.ruleset, spec.board)
    apply_riding(spec, state)  # riders, vehicle crews, the water (MNT, VEH, UW)
    apply_vision(spec.document, state.environment)
    apply_hazards(spec.document, state)
    apply_objects(spec.document, spec.library, state)  # barrels, barricades (OBJ-1, CHN-0)
    state.morale_immune = frozenset(s.name for s in spec.sides if not s.morale)
    state.exits = tuple(spec.exits)  # where fleeing NPCs leave (MOR-20)
    state.initiative_groups = {e.id: e.initiative_group for e in spec.roster if e.initiative_group}
    tactics = {e.id: e.tactics for e in spec.roster}
    chosen = {c.id: factories[sides[c.side].controller](c, tactics[c.id]) for c in combatants}
    used = seed if seed is not None else spec.seed if spec.seed is not None else DEFAULT_SEED
    engine = new_engine(state, used, chosen)
    info = BuildInfo(
        name=spec.name, file=spec.file, seed=used,
        sides=tuple(SideInfo(s.name, s.controller, s.morale, s.ambush, tuple(e.id for e in spec.members(s.name)))
                    for s in spec.sides),
        tactics=tactics, leaders=tuple(e.id for e in spec.roster if e.leader), ambushers=spec.ambushers,
        round_limit=spec.round_limit, exits=spec.exits,
    )
    return engine, info


def fight_stat_block(entry: RosterEntry) -> Creature:
    """The stat block as it enters this fight: the library's, with the encounter's leader flag (MOR-8)."""
    creature = entry.creature
    return creature if entry.leader == creature.leader else creature.model_copy(update={"leader": entry.leader})


def _combatant(spec: EncounterSpec, entry: RosterEntry, side: SideSpec) -> Combatant:
    made = make_combatant(spec.library, entry.creature.id, entry.id, entry.side, entry.position, entry.name,
                          side.controller.value, ruleset=spec.ruleset)
    creature = fight_stat_block(entry)
    return made if creature is entry.creature else replace(made, creature=creature)


__all__ = ["DEFAULT_CONTROLLERS", "BuildInfo", "ControllerFactory", "SideInfo", "build", "fight_stat_block",
           "first_option"]
