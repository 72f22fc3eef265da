"""Morale on the stat block and on the battlefield: Breaking Points and what each status makes an NPC do.

Breaking Points (MOR-27, MOR-28) are a fixed vocabulary of stat-block strings, met without a roll:
``hp-below-N%`` (Break), ``leader-killed`` (surrender), ``outnumbered-A-to-B`` (flee, i.e. Break) and
``ally-killed-by-magic`` (Break). :func:`behaviour` turns a status into data for the AI and engine:
Fall Back spends at least 1 action a turn moving toward an exit (MOR-17); Break drops two-handed
weapons, spends every action on Stride and takes no reactions (MOR-21, MOR-22); animals flee in a
random direction (MOR-24); a broken NPC with no way out surrenders (MOR-23, option).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType

from ashfall.content.schema import Weapon, WeaponProperty
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.rules.morale import SEVERITY, Status, require_morale
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import MoraleSection

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
    """One parsed Breaking Point: what meets it and the status it forces without a roll (MOR-27)."""

    kind: BreakingKind
    text: str
    result: Status
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


_VOCABULARY: tuple[tuple[re.Pattern[str], Callable[[str, re.Match[str]], BreakingPoint]], ...] = (
    (re.compile(r"hp-below-(\d+)%"),
     lambda t, m: BreakingPoint(BreakingKind.HP_BELOW, t, Status.BROKEN, percent=int(m[1]))),
    (re.compile(r"leader-killed"), lambda t, m: BreakingPoint(BreakingKind.LEADER_KILLED, t, Status.SURRENDERED)),
    (re.compile(r"outnumbered-(\d+)-to-(\d+)"),
     lambda t, m: BreakingPoint(BreakingKind.OUTNUMBERED, t, Status.BROKEN, ratio=(int(m[1]), int(m[2])))),
    (re.compile(r"ally-killed-by-magic"),
     lambda t, m: BreakingPoint(BreakingKind.ALLY_KILLED_BY_MAGIC, t, Status.BROKEN)),
)
VOCABULARY = ("hp-below-<N>%", "leader-killed", "outnumbered-<A>-to-<B>", "ally-killed-by-magic")
"""Breaking Point strings a stat block may use (MOR-28); a leader killed means surrender, the rest Break."""


def parse_breaking_point(text: str) -> BreakingPoint:
    """Read one stat-block Breaking Point.

    Raises:
        ValueError: For text outside :data:`VOCABULARY`.
    """
    cleaned = text.strip().lower()
    for pattern, build in _VOCABULARY:
        match = pattern.fullmatch(cleaned)
        if match:
            return build(cleaned, match)
    raise ValueError(f"unknown breaking point {text!r}; use one of: {', '.join(VOCABULARY)}")


_MET: dict[BreakingKind, Callable[[BreakingPoint, BreakingFacts], bool]] = {
    BreakingKind.HP_BELOW: lambda p, f: f.hp * PERCENT < p.percent * f.max_hp,
    BreakingKind.LEADER_KILLED: lambda p, f: f.leader_killed,
    BreakingKind.OUTNUMBERED: lambda p, f: f.enemies_active * p.ratio[1] >= f.allies_active * p.ratio[0],
    BreakingKind.ALLY_KILLED_BY_MAGIC: lambda p, f: f.ally_killed_by_magic,
}


def breaking_points_met(points: Iterable[str], facts: BreakingFacts, ruleset: Ruleset) -> tuple[BreakingPoint, ...]:
    """The stat block's Breaking Points that hold now (MOR-27, MOR-28)."""
    require_morale(ruleset)
    parsed = (parse_breaking_point(p) for p in points)
    return tuple(p for p in parsed if _MET[p.kind](p, facts))


def breaking_status(met: Iterable[BreakingPoint]) -> Status | None:
    """The worst status the met Breaking Points force (automatic, no roll: MOR-27), or None."""
    statuses = [p.result for p in met]
    return max(statuses, key=SEVERITY.__getitem__) if statuses else None


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


def behaviour(status: Status, ruleset: Ruleset, *, animal: bool = False) -> Behaviour:
    """How an NPC in ``status`` behaves (MOR-17, MOR-18, MOR-21..24, MOR-26)."""
    require_morale(ruleset)
    return _BEHAVIOURS[status](status, ruleset.morale, animal)


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
