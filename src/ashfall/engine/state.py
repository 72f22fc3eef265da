"""Encounter state: the combatants, the initiative order, the round and the battlefield.

State is mutable but owned by the engine: only :mod:`ashfall.engine.apply` changes it, one event
at a time. Everything else reads it (``Combatant`` fields are public for reading).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from ashfall.content.schema import Armor, Creature, Shield, Weapon
from ashfall.core.morale import GroupMorale
from ashfall.core.types import Condition
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.environment import Environment
from ashfall.engine.lasting import Readied, Zone
from ashfall.engine.records import NO_SUPPLIES, MoraleMark, Supplies
from ashfall.grid.board import Board, Square, footprint
from ashfall.rules.condition_durations import AppliedCondition, conditions_of
from ashfall.rules.health import Health, down_conditions
from ashfall.ruleset import Ruleset

if TYPE_CHECKING:
    from ashfall.engine.rulebook import Rulebook


@dataclass(slots=True)
class TurnBudget:
    """What a creature has spent on its current turn (AE, MAP, FNT-7)."""

    actions_left: int = 0
    bonus_used: bool = False
    attack_rolls: int = 0
    strike_actions: int = 0
    free_actions: int = 0
    movement_left_ft: int = 0
    moved_this_turn: bool = False
    feinted: frozenset[str] = frozenset()
    twf_offhand_used: bool = False
    actions_spent: int = 0


@dataclass(slots=True)
class Combatant:
    """One creature in the encounter: its stat block, gear, position, health and conditions."""

    id: str
    name: str
    side: str
    creature: Creature
    weapons: tuple[Weapon, ...]
    armor: Armor | None
    shield: Shield | None
    health: Health
    position: Square | None = None
    conditions: tuple[AppliedCondition, ...] = ()
    initiative: int = 0
    initiative_key: tuple[int, int, int] = (0, 0, 0)
    reaction_available: bool = True
    reactions_used: int = 0
    turn: TurnBudget = field(default_factory=TurnBudget)
    ammo: dict[str, int] = field(default_factory=dict)
    supplies: Supplies = NO_SUPPLIES
    """Morale marks, medical supplies, stowed weapons, a vehicle's motion, its Stealth total (typed records)."""
    focus: int = 0
    surprised: bool = False
    controller: str = "ai"
    mounted_on: str | None = None
    """The mount it rides (ACT-6, MNT-1); a rider shares its mount's square and moves with it (MNT-4)."""
    station: str = ""
    """Aboard a vehicle (``mounted_on`` names it): its crew station ("pilot", "gunner" …) or "passenger" (VEH-2)."""
    _space_at: Square | None = field(default=None, init=False, repr=False, compare=False)
    _space_of: Creature | None = field(default=None, init=False, repr=False, compare=False)
    _space: tuple[Square, ...] = field(default=(), init=False, repr=False, compare=False)

    def standing_on(self, position: Square | None) -> Combatant:
        """A copy of the creature standing on ``position``: for what-if reads only, never put into a state.

        Like ``dataclasses.replace`` (a shallow copy: gear, health, turn budget and records are shared), but
        copied slot by slot: the AI makes one for every square it weighs, and ``replace`` costs three times as much.
        """
        other = _new_combatant(Combatant)
        for name in _COMBATANT_SLOTS:
            setattr(other, name, getattr(self, name))
        other.position = position
        return other

    @property
    def space(self) -> tuple[Square, ...]:
        """The squares the creature occupies (empty when off the grid).

        Read thousands of times a fight, so the footprint is kept with the position and stat block it was
        computed from. It depends on nothing else (the size is the frozen stat block's), and both are compared
        by identity: assigning a new position or creature (the applier moves creatures by assignment; replace()
        builds a fresh object) misses the cache. Tuples and stat blocks are immutable, so a hit is exact.
        """
        position = self.position
        if position is self._space_at and self.creature is self._space_of:
            return self._space  # (never stored for None: _space_of is None until a footprint is kept)
        if position is None:
            return ()
        creature = self.creature
        found = self._space = footprint(position, creature.size.squares)
        self._space_at, self._space_of = position, creature
        return found

    @property
    def condition_set(self) -> frozenset[Condition]:
        """Its conditions now: the applied ones plus those its health implies (dying: unconscious, DEATH-1)."""
        if not self.conditions:  # the usual case, read very often: no set to build
            return down_conditions(self.health).conditions
        return conditions_of(self.conditions) | down_conditions(self.health).conditions

    def has(self, condition: Condition) -> bool:
        """Whether a condition is applied (implications are expanded by the rules' queries)."""
        return any(a.condition is condition for a in self.conditions)

    @property
    def is_active(self) -> bool:
        """Still in the fight: alive and not at 0 HP."""
        return not self.health.is_down

    @property
    def left_fight(self) -> bool:
        """Fled the battlefield or surrendered (MOR-20, MOR-23): out of the fight whatever its HP."""
        marks = self.supplies.marks
        return bool(marks) and (MoraleMark.FLED in marks or MoraleMark.SURRENDERED in marks)

    @property
    def uses(self) -> Mapping[str, int]:
        """Its :attr:`supplies` by their event-log names (``"broken"``, ``"stim:2"`` …), read only: for presenters."""
        return MappingProxyType(dict(self.supplies.names()))

    @property
    def fighting(self) -> bool:
        """Still fighting: up (DEATH-1) and neither fled nor surrendered (MOR-20, MOR-23)."""
        return not self.health.is_down and not self.left_fight


@dataclass(frozen=True, slots=True)
class GroundItem:
    """An item lying on the battlefield (dropped FA-2, or knocked away by a Disarm DIS-3).

    Attributes:
        item: The weapon or shield.
        square: Where it lies (None in a theater-of-mind fight: "nearby").
        owner: Who dropped it.
    """

    item: Weapon | Shield
    square: Square | None
    owner: str


_new_combatant = object.__new__
_COMBATANT_SLOTS: tuple[str, ...] = Combatant.__slots__


@dataclass(slots=True)
class EncounterState:
    """Everything about one fight at one moment."""

    ruleset: Ruleset
    board: Board | None
    combatants: dict[str, Combatant]
    order: list[str] = field(default_factory=list)
    round: int = 0
    turn_index: int = -1
    effects: tuple[TimedEffect, ...] = ()
    environment: Environment = field(default_factory=Environment)
    exits: tuple[Square, ...] = ()
    """Squares where fleeing NPCs leave the battlefield (MOR-20); empty means the map's passable edge."""
    ground: tuple[GroundItem, ...] = ()
    zones: tuple[Zone, ...] = ()
    readied: tuple[Readied, ...] = ()
    started: bool = False
    ended: bool = False
    winner: str | None = None
    morale_enabled: bool = True
    """MOR-38: morale applies in this encounter (with the ruleset's ``morale.enabled``)."""
    morale_immune: frozenset[str] = frozenset()
    """MOR-37: combatant ids or whole sides the GM declared immune to morale for this encounter."""
    initiative_groups: Mapping[str, str] = field(default_factory=dict)
    """Combatant id -> initiative group: the members of a group share one initiative die and coin (the encounter's
    ``initiative_group``, a table convenience the GM opts into; INIT-1's formula still adds each one's own modifiers).
    Empty: everyone rolls (INIT-1)."""
    morale: dict[str, GroupMorale] = field(default_factory=dict)
    """Each NPC group's morale record (MOR-4); the applier replaces the dict, never mutates it."""
    chosen_rulebook: Rulebook | None = field(default=None, repr=False, compare=False)
    """The rulebook a setup chose for this fight; None: :attr:`rulebook` decides it from the state."""
    decided_rulebook: Rulebook | None = field(default=None, repr=False, compare=False)
    """The rulebook decided from the state's features (when none was chosen); see :meth:`furnished`."""
    _effects_index: dict[tuple[str, EffectKind], tuple[TimedEffect, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    _effects_indexed: tuple[TimedEffect, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def rulebook(self) -> Rulebook:
        """The actions, reactions and hooks this fight plays by (:mod:`ashfall.engine.rulebook`).

        Chosen by the setup, or decided from the state (map, roster, ruleset) when the engine is built or a rule
        first asks, so a state built and then furnished (water, hazards) gets the families it needs. Copies share
        it.
        """
        book = self.chosen_rulebook or self.decided_rulebook
        if book is None:
            # a function-level import: the catalog imports every family, and every family imports this module
            from ashfall.engine.catalog import rulebook_for

            book = self.decided_rulebook = rulebook_for(self)
        return book

    def furnished(self) -> None:
        """Decide the rulebook again after the battlefield gained something (an object placed, a fire lit).

        Features only grow: the new rulebook keeps every family the old one had, so nothing a family started (a
        burning creature, a held breath) loses the hooks that end it. Called by the appliers of the events that
        furnish the battlefield, so a replay decides exactly as the fight did.
        """
        old = self.decided_rulebook
        if self.chosen_rulebook is not None or old is None:
            return
        from ashfall.engine.catalog import rulebook_for

        self.decided_rulebook = rulebook_for(self, old.features or frozenset())

    @property
    def active_id(self) -> str | None:
        """The creature whose turn it is."""
        if 0 <= self.turn_index < len(self.order):
            return self.order[self.turn_index]
        return None

    def get(self, cid: str) -> Combatant:
        """A combatant by id (KeyError naming the id)."""
        try:
            return self.combatants[cid]
        except KeyError:
            raise KeyError(f"no combatant {cid!r}") from None

    def sides(self) -> list[str]:
        """Side names in roster order."""
        seen: list[str] = []
        for c in self.combatants.values():
            if c.side not in seen:
                seen.append(c.side)
        return seen

    def occupant(self, sq: Square) -> Combatant | None:
        """The creature standing in a square (the dead leave no obstruction)."""
        for c in self.combatants.values():
            if not c.health.is_dead and sq in c.space:
                return c
        return None

    def effects_on(self, cid: str, kind: EffectKind) -> list[TimedEffect]:
        """The timed effects of one kind a creature bears, in the order they began.

        Asked for every attack and every what-if square the AI weighs, so the effects are indexed by bearer and
        kind. ``effects`` is an immutable tuple the applier replaces whenever an effect begins or ends, so the
        index is rebuilt exactly when that tuple is not the one it was built from.
        """
        effects = self.effects
        if not effects:
            return []
        if self._effects_indexed is not effects:
            index: dict[tuple[str, EffectKind], list[TimedEffect]] = {}
            for e in effects:
                index.setdefault((e.bearer, e.kind), []).append(e)
            self._effects_index = {key: tuple(found) for key, found in index.items()}
            self._effects_indexed = effects
        return list(self._effects_index.get((cid, kind), ()))

    def enemies_of(self, cid: str) -> list[Combatant]:
        """Creatures on other sides, in roster order."""
        side = self.get(cid).side
        return [c for c in self.combatants.values() if c.side != side]

    def allies_of(self, cid: str) -> list[Combatant]:
        """Creatures on the same side, excluding ``cid``, in roster order."""
        side = self.get(cid).side
        return [c for c in self.combatants.values() if c.side == side and c.id != cid]
