"""Morale on the stat block and on the battlefield: Breaking Points and what each status makes an NPC do.

Breaking Points (MOR-27, MOR-28) are stat-block entries met without a roll. Each names a trigger
(``hp-below-N%``, ``leader-killed``, ``outnumbered-A-to-B``, ``ally-killed-by-magic``) and an outcome:
Break (the format's default, 000:563), Surrender or Flee (the examples, 557–558). What a Break means
depends on the NPC's morale type (:func:`break_behaviour`, MOR-24, 000:542): bandits scatter, soldiers
surrender with honour, animals flee in a random direction, zealots make a final charge, the rest flee;
each type's behaviour is a ``morale.break_<type>`` option. :func:`behaviour` turns a status into data for
the AI and engine: Fall Back spends at least 1 action a turn moving toward an exit (MOR-17); Break drops
two-handed weapons, spends every action on Stride and takes no reactions (MOR-21, MOR-22); a broken NPC
with no way out surrenders, or cowers if it is an animal (MOR-23, options).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType

from ashfall.content.schema import BREAKING_TRIGGERS, BreakingOutcome, BreakingPointSpec, Weapon, WeaponProperty
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.families.morale.rules import SEVERITY, Status, require_morale
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import BreakBehaviour, MoraleSection

MOR_17, MOR_18, MOR_20, MOR_21, MOR_22, MOR_23, MOR_24, MOR_26 = (
    rule(f"MOR-{n}") for n in (17, 18, 20, 21, 22, 23, 24, 26))
PERCENT = 100
"""``hp-below-N%`` compares HP x 100 with N x max HP (a unit, not a tunable number)."""


# ----- breaking points -----


class BreakingKind(Enum):
    """The Breaking Point vocabulary (MOR-28)."""

    HP_BELOW = "hp-below"
    LEADER_KILLED = "leader-killed"
    OUTNUMBERED = "outnumbered"
    ALLY_KILLED_BY_MAGIC = "ally-killed-by-magic"


@dataclass(frozen=True, slots=True)
class BreakingPoint:
    """One parsed Breaking Point: what meets it and the status it forces without a roll (MOR-27).

    Attributes:
        kind: The trigger's kind.
        text: The trigger as written (normalised).
        result: The status it forces: broken for ``break`` and ``flee``, surrendered for ``surrender``.
        outcome: What the stat block names (MOR-28): ``break`` (the format's default, 563), ``surrender`` or
            ``flee`` (557–558). ``flee`` flees whatever the NPC's type would do on breaking (MOR-24).
        percent: ``hp-below-N%``'s N.
        ratio: ``outnumbered-A-to-B``'s (A, B).
    """

    kind: BreakingKind
    text: str
    result: Status
    outcome: BreakingOutcome = BreakingOutcome.BREAK
    percent: int = 0
    ratio: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class BreakingFacts:
    """What Breaking Points look at, for one NPC now.

    Attributes:
        hp: Its HP.
        max_hp: Its maximum HP.
        leader_killed: A leader of its side is at 0 HP (killed, MOR-7's sense).
        allies_active: Active combatants on its side, itself included.
        enemies_active: Active opposing combatants.
        ally_killed_by_magic: The event reduced an ally to 0 HP with magic.
    """

    hp: int
    max_hp: int
    leader_killed: bool = False
    allies_active: int = 1
    enemies_active: int = 0
    ally_killed_by_magic: bool = False


_KINDS = {name: BreakingKind(name.split("-<")[0]) for name, _ in BREAKING_TRIGGERS}
_RESULT = {BreakingOutcome.BREAK: Status.BROKEN, BreakingOutcome.FLEE: Status.BROKEN,
           BreakingOutcome.SURRENDER: Status.SURRENDERED}
VOCABULARY = tuple(name for name, _ in BREAKING_TRIGGERS)
"""Breaking Point triggers a stat block may use (MOR-28); each names its outcome, Break by default (MOR-27)."""


def parse_breaking_point(point: BreakingPointSpec | str) -> BreakingPoint:
    """Read one stat-block Breaking Point (a :class:`BreakingPointSpec` or its text form).

    Raises:
        ValueError: For a trigger outside :data:`VOCABULARY` or an unknown outcome.
    """
    spec = point if isinstance(point, BreakingPointSpec) else BreakingPointSpec.model_validate(point)
    for name, pattern in BREAKING_TRIGGERS:
        match = pattern.fullmatch(spec.trigger)
        if match:
            kind = _KINDS[name]
            percent = int(match[1]) if kind is BreakingKind.HP_BELOW else 0
            ratio = (int(match[1]), int(match[2])) if kind is BreakingKind.OUTNUMBERED else (0, 0)
            return BreakingPoint(kind, spec.trigger, _RESULT[spec.outcome], spec.outcome, percent, ratio)
    raise ValueError(f"unknown breaking point {spec.trigger!r}; use one of: {', '.join(VOCABULARY)}")


_MET: dict[BreakingKind, Callable[[BreakingPoint, BreakingFacts], bool]] = {
    BreakingKind.HP_BELOW: lambda p, f: f.hp * PERCENT < p.percent * f.max_hp,
    BreakingKind.LEADER_KILLED: lambda p, f: f.leader_killed,
    BreakingKind.OUTNUMBERED: lambda p, f: f.enemies_active * p.ratio[1] >= f.allies_active * p.ratio[0],
    BreakingKind.ALLY_KILLED_BY_MAGIC: lambda p, f: f.ally_killed_by_magic,
}


def breaking_points_met(points: Iterable[BreakingPointSpec | str], facts: BreakingFacts,
                        ruleset: Ruleset) -> tuple[BreakingPoint, ...]:
    """The stat block's Breaking Points that hold now (MOR-27, MOR-28)."""
    require_morale(ruleset)
    parsed = (parse_breaking_point(p) for p in points)
    return tuple(p for p in parsed if _MET[p.kind](p, facts))


def breaking_status(met: Iterable[BreakingPoint]) -> Status | None:
    """The worst status the met Breaking Points force (automatic, no roll: MOR-27), or None."""
    statuses = [p.result for p in met]
    return max(statuses, key=SEVERITY.__getitem__) if statuses else None


def deciding_point(met: Iterable[BreakingPoint]) -> BreakingPoint | None:
    """The met Breaking Point that decides: the worst status, the first written among equals (MOR-27)."""
    points = list(met)
    return max(points, key=lambda p: SEVERITY[p.result]) if points else None


# ----- what breaking means, by NPC type -----


_BREAK_OPTION = {
    "civilian": "break_civilian", "bandit": "break_bandit", "soldier": "break_soldier", "elite": "break_elite",
    "fanatic": "break_fanatic", "animal": "break_animal", "other": "break_other",
}
"""The ``morale`` option that says what a broken NPC of each morale type does (MOR-24)."""


def break_behaviour(morale_type: str, ruleset: Ruleset, forced: BreakingOutcome | None = None) -> BreakBehaviour:
    """What an NPC of ``morale_type`` does on breaking (MOR-21, MOR-24; 000:539–542).

    Bandits scatter (or surrender), soldiers surrender with honour, animals flee in a random direction,
    zealots make a final charge, the rest flee: each type's option in the ``morale`` section. A Breaking
    Point that names ``flee`` (MOR-28) makes it flee whatever its type.
    """
    require_morale(ruleset)
    if forced is BreakingOutcome.FLEE:
        return BreakBehaviour.FLEE
    value: BreakBehaviour = getattr(ruleset.morale, _BREAK_OPTION.get(morale_type, "break_other"))
    return value


def cornered_behaviour(current: BreakBehaviour | None, ruleset: Ruleset) -> BreakBehaviour | None:
    """How a broken NPC with no way out gives up (MOR-23): an animal cowers (option), the rest surrender.

    None: it does not give up (a charging zealot fights on, or the ruleset lets the cornered fight on).
    """
    if current is BreakBehaviour.CHARGE:
        return None
    if current is BreakBehaviour.FLEE_RANDOM and ruleset.morale.cornered_animals_cower:
        return BreakBehaviour.COWER
    return BreakBehaviour.SURRENDER


# ----- behaviour -----


@dataclass(frozen=True, slots=True)
class Behaviour:
    """What a status asks of an NPC's turn, for the AI and the engine.

    Attributes:
        status: The status.
        escape_actions: Least actions per turn spent moving toward an exit (MOR-17), all of them when broken.
        stride_only: Every action is a Stride away (MOR-21).
        may_attack: Actions left over may attack or defend (MOR-18).
        reactions: It may take reactions, opportunity attacks included (MOR-22).
        drops_two_handed: It drops two-handed weapons on breaking (MOR-21).
        random_direction: It flees in a random direction (animals, MOR-24).
        acts: It still acts (a surrendered NPC does not, MOR-23).
        rules: The rules that say so.
    """

    status: Status
    escape_actions: int
    stride_only: bool
    may_attack: bool
    reactions: bool
    drops_two_handed: bool
    random_direction: bool
    acts: bool
    rules: tuple[RuleId, ...]


def behaviour(status: Status, ruleset: Ruleset, *, animal: bool = False,
              style: BreakBehaviour | None = None) -> Behaviour:
    """How an NPC in ``status`` behaves (MOR-17, MOR-18, MOR-21..24, MOR-26).

    ``style`` is what its type does on breaking (:func:`break_behaviour`): a charging zealot still attacks
    (no reactions, MOR-22, and it keeps its weapons); an animal fleeing at random flees in its direction.
    """
    require_morale(ruleset)
    if style is BreakBehaviour.CHARGE and status in (Status.BROKEN, Status.ROUTED):
        return Behaviour(status, 0, False, True, False, False, False, True, (MOR_22, MOR_24))
    return _BEHAVIOURS[status](status, ruleset.morale, animal or style is BreakBehaviour.FLEE_RANDOM)


def _fleeing(status: Status, m: MoraleSection, animal: bool) -> Behaviour:
    return Behaviour(status, m.broken_stride_actions, True, False, False, True, animal, True, (MOR_21, MOR_22, MOR_24))


def _routed(status: Status, m: MoraleSection, animal: bool) -> Behaviour:
    fleeing = _fleeing(status, m, animal)
    return replace(fleeing, rules=(*fleeing.rules, MOR_26))


_BEHAVIOURS: Mapping[Status, Callable[[Status, MoraleSection, bool], Behaviour]] = MappingProxyType({
    Status.HOLD: lambda status, m, animal: Behaviour(status, 0, False, True, True, False, False, True, (MOR_20,)),
    Status.FALL_BACK: lambda status, m, animal: Behaviour(
        status, m.fall_back_escape_actions, False, True, True, False, False, True, (MOR_17, MOR_18, MOR_20)),
    Status.BROKEN: _fleeing,
    Status.ROUTED: _routed,
    Status.SURRENDERED: lambda status, m, animal: Behaviour(
        status, 0, False, False, False, False, False, False, (MOR_23,)),
})
"""Each status's behaviour, built on demand (asked for every NPC on every policy turn: only one is built)."""


def cornered(status: Status, ruleset: Ruleset) -> Status:
    """The status of an NPC with no reachable exit: broken ones surrender (MOR-23); Fall Back ends (MOR-19, MOR-20)."""
    require_morale(ruleset)
    m = ruleset.morale
    if status in (Status.BROKEN, Status.ROUTED):
        return Status.SURRENDERED if m.broken_cornered_surrenders else status
    if status is Status.FALL_BACK:
        return Status.SURRENDERED if m.fall_back_cornered_surrenders else Status.HOLD
    return status


def dropped_on_break(weapons: Iterable[Weapon]) -> tuple[Weapon, ...]:
    """The weapons a breaking NPC drops: every two-handed one (MOR-21)."""
    return tuple(w for w in weapons if w.has(WeaponProperty.TWO_HANDED))


DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The eight grid directions, clockwise from north."""


def flee_direction(rng: Rng) -> tuple[int, int]:
    """A random direction for a fleeing animal (MOR-24): one die with a face per direction."""
    return DIRECTIONS[rng.roll(len(DIRECTIONS)) - 1]
