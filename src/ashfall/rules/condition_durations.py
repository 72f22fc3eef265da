"""Applied conditions over time: durations, expiry at turn boundaries, ending events and stacking.

An :class:`AppliedCondition` is one condition on one creature with its rule, its source creature and
its :class:`Duration`. :func:`expire` is pure: given the applied conditions and a
:class:`TurnBoundary` it returns the kept ones (some with updated bookkeeping) and the expired ones.
:func:`end_on` ends conditions on events (the charmer's side harms the charmed, the grappler is
incapacitated, a hidden creature attacks ...). Also here: restrictions bound to a condition's source
(Charmed, Frightened), the per-turn clocks (Suffocating G-15, Buried G-18) and constructors for the
conditions the chapter applies with a duration (Dodge, surprise, Dazed).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from enum import Enum

from ashfall.core.dice import parse
from ashfall.core.modifiers import RollSource, adv
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, Skill
from ashfall.rules.condition_table import CONDITIONS, EndTrigger
from ashfall.rules.conditions import Verdict, condition_immunities
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import DC, fixed_dc
from ashfall.ruleset import Ruleset

_SUFFOCATION = rule("G-15")
_DROWNING = rule("G-16")
_DODGE = rule("DOD-1")
_SURPRISE = rule("SUR-4")


class TurnEdge(Enum):
    """The start or the end of a turn."""

    START = "start"
    END = "end"


@dataclass(frozen=True, slots=True)
class TurnBoundary:
    """A point in the initiative order: the start or end of ``creature``'s turn in ``round`` (1 = first)."""

    creature: str
    edge: TurnEdge
    round: int


class DurationKind(Enum):
    """How long an applied condition lasts."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast (hot dict keys)

    END_OF_NEXT_TURN = "end-of-next-turn"
    START_OF_NEXT_TURN = "start-of-next-turn"
    ROUNDS = "rounds"
    THROUGH_ROUND = "through-round"
    UNTIL_REMOVED = "until-removed"
    WHILE = "while"


@dataclass(frozen=True, slots=True)
class Duration:
    """A duration. Build with the class methods.

    Attributes:
        kind: Which kind of duration.
        creature: Whose turn it is measured by (the next-turn kinds, ROUNDS' anchor).
        rounds: ROUNDS: how many; THROUGH_ROUND: the last round it lasts.
        applied_round: The round it was applied in (ROUNDS).
        predicate: WHILE: the name of the state it lasts while (``"in-gas"``).
        next_turn_started: END_OF_NEXT_TURN bookkeeping: ``creature``'s next turn has begun.
    """

    kind: DurationKind
    creature: str | None = None
    rounds: int = 0
    applied_round: int = 0
    predicate: str = ""
    next_turn_started: bool = False

    @classmethod
    def end_of_next_turn(cls, creature: str) -> Duration:
        """Until the end of ``creature``'s next turn; applied during its own turn it lasts through the next one."""
        return cls(DurationKind.END_OF_NEXT_TURN, creature)

    @classmethod
    def start_of_next_turn(cls, creature: str) -> Duration:
        """Until the start of ``creature``'s next turn (Dodge, DOD-1)."""
        return cls(DurationKind.START_OF_NEXT_TURN, creature)

    @classmethod
    def for_rounds(cls, rounds: int, anchor: str, applied_round: int) -> Duration:
        """``rounds`` rounds: ends at the start of ``anchor``'s turn in round ``applied_round + rounds``."""
        return cls(DurationKind.ROUNDS, anchor, rounds, applied_round)

    @classmethod
    def through_round(cls, last_round: int) -> Duration:
        """Until the end of round ``last_round`` (surprise lasts through round 1, SUR-2)."""
        return cls(DurationKind.THROUGH_ROUND, rounds=last_round)

    @classmethod
    def until_removed(cls) -> Duration:
        """Until something removes it (an ending event or the engine)."""
        return cls(DurationKind.UNTIL_REMOVED)

    @classmethod
    def while_(cls, predicate: str) -> Duration:
        """While the named state holds (standing in gas ...); see :func:`lapse`."""
        return cls(DurationKind.WHILE, predicate=predicate)


UNTIL_REMOVED = Duration.until_removed()


@dataclass(frozen=True, slots=True)
class AppliedCondition:
    """One condition on one creature.

    Attributes:
        condition: The condition.
        rule: The rule that applied it (PSI-15 for Backlash's stun, G-13 for a hard landing's daze ...).
        source: The creature that caused it (the charmer, the grappler, the fear source), or None.
        duration: How long it lasts.
        level: Exhaustion level (G-17); 0 for other conditions.
        rounds_left: Suffocating: rounds the creature still survives (G-15).
    """

    condition: Condition
    rule: RuleId
    source: str | None = None
    duration: Duration = UNTIL_REMOVED
    level: int = 0
    rounds_left: int = 0


Split = tuple[tuple[AppliedCondition, ...], tuple[AppliedCondition, ...]]
"""(kept, removed)."""


def conditions_of(applied: Collection[AppliedCondition]) -> frozenset[Condition]:
    """The bare conditions (before implication; the queries in :mod:`ashfall.rules.conditions` expand them)."""
    return frozenset(a.condition for a in applied if a.condition is not Condition.EXHAUSTED or a.level > 0)


# ----- expiry -----


def _end_of_next(d: Duration, b: TurnBoundary) -> Duration | None:
    if b.creature != d.creature:
        return d
    if b.edge is TurnEdge.START:
        return replace(d, next_turn_started=True)
    return None if d.next_turn_started else d


def _start_of_next(d: Duration, b: TurnBoundary) -> Duration | None:
    return None if b.creature == d.creature and b.edge is TurnEdge.START else d


def _rounds(d: Duration, b: TurnBoundary) -> Duration | None:
    due = b.creature == d.creature and b.edge is TurnEdge.START and b.round >= d.applied_round + d.rounds
    return None if due else d


def _through_round(d: Duration, b: TurnBoundary) -> Duration | None:
    return None if b.round > d.rounds else d


def _never(d: Duration, b: TurnBoundary) -> Duration | None:
    return d


_AT_BOUNDARY: dict[DurationKind, Callable[[Duration, TurnBoundary], Duration | None]] = {
    DurationKind.END_OF_NEXT_TURN: _end_of_next,
    DurationKind.START_OF_NEXT_TURN: _start_of_next,
    DurationKind.ROUNDS: _rounds,
    DurationKind.THROUGH_ROUND: _through_round,
    DurationKind.UNTIL_REMOVED: _never,
    DurationKind.WHILE: _never,
}


def advance(duration: Duration, boundary: TurnBoundary) -> Duration | None:
    """A duration after passing a turn boundary, or None when it ends there."""
    return _AT_BOUNDARY[duration.kind](duration, boundary)


def expire(applied: tuple[AppliedCondition, ...], boundary: TurnBoundary) -> Split:
    """Pass a turn boundary: the conditions kept (bookkeeping updated) and those that expired.

    "Until the end of X's next turn" ends at the first end of X's turn that follows a start of X's turn
    after it was applied, so applied during X's own turn it lasts through X's following turn.
    """
    if not applied:
        return applied, ()  # the usual case at every boundary, for every creature
    kept: list[AppliedCondition] = []
    gone: list[AppliedCondition] = []
    for a in applied:
        d = _AT_BOUNDARY[a.duration.kind](a.duration, boundary)
        if d is None:
            gone.append(a)
        else:
            kept.append(a if d is a.duration else replace(a, duration=d))
    return tuple(kept), tuple(gone)


def lapse(applied: tuple[AppliedCondition, ...], holding: Collection[str]) -> Split:
    """End WHILE conditions whose state no longer holds; ``holding`` names the states that still do."""
    kept = tuple(a for a in applied if a.duration.kind is not DurationKind.WHILE or a.duration.predicate in holding)
    return kept, tuple(a for a in applied if a not in kept)


# ----- ending events -----


@dataclass(frozen=True, slots=True)
class EndEvent:
    """Something that may end conditions.

    Attributes:
        trigger: What happened.
        creature: Who did it or whom it concerns: the harmer (Charmed), the grappler (Grappled).
            None matches any source.
        allies: The harmer's allies (Charmed ends when the charmer or an ally of it harms).
    """

    trigger: EndTrigger
    creature: str | None = None
    allies: frozenset[str] = frozenset()


def _harmed(a: AppliedCondition, e: EndEvent) -> bool:
    return e.creature is None or a.source == e.creature or (a.source is not None and a.source in e.allies)


def _by_source(a: AppliedCondition, e: EndEvent) -> bool:
    return e.creature is None or a.source == e.creature


def _any(a: AppliedCondition, e: EndEvent) -> bool:
    return True


_MATCH: dict[EndTrigger, Callable[[AppliedCondition, EndEvent], bool]] = {
    EndTrigger.HARMED_BY_SOURCE_SIDE: _harmed,
    EndTrigger.SOURCE_INCAPACITATED: _by_source,
    EndTrigger.OUT_OF_SOURCE_REACH: _by_source,
    EndTrigger.ESCAPED: _by_source,
}


def end_on(applied: tuple[AppliedCondition, ...], event: EndEvent) -> Split:
    """Conditions kept and those the event ends (C-CHA, C-GRA, C-PRO, G-15, G-16, G-18, G-20)."""
    if not applied:
        return applied, ()
    match = _MATCH.get(event.trigger, _any)
    ended = tuple(a for a in applied if event.trigger in CONDITIONS[a.condition].ends_on and match(a, event))
    return tuple(a for a in applied if a not in ended), ended


def remove(applied: tuple[AppliedCondition, ...], condition: Condition, source: str | None = None) -> Split:
    """Remove a condition (from one source only when ``source`` is given)."""
    gone = tuple(a for a in applied if a.condition is condition and (source is None or a.source == source))
    return tuple(a for a in applied if a not in gone), gone


# ----- adding -----


@dataclass(frozen=True, slots=True)
class Added:
    """The result of :func:`add_condition`: the new set, and the rule that refused it (immunity) or None."""

    conditions: tuple[AppliedCondition, ...]
    refused: RuleId | None = None


def add_condition(applied: tuple[AppliedCondition, ...], new: AppliedCondition, ruleset: Ruleset) -> Added:
    """Add a condition.

    A creature immune to it keeps its set (Petrified is immune to Poisoned, C-PET). Exhaustion levels
    add up to ``conditions.exhaustion_max`` (G-17). The same condition from the same source replaces
    the old one (the new duration counts).
    """
    refusal = condition_immunities(conditions_of(applied)).get(new.condition)
    if refusal is not None:
        return Added(applied, refusal)
    if new.condition is Condition.EXHAUSTED:
        level = min(exhaustion_level(applied) + new.level, ruleset.conditions.exhaustion_max)
        return Added(_set_exhaustion(applied, level, new.rule))
    rest = tuple(a for a in applied if not (a.condition is new.condition and a.source == new.source))
    return Added((*rest, new))


def exhaustion_level(applied: Collection[AppliedCondition]) -> int:
    """The creature's Exhaustion level, 0 to ``exhaustion_max`` (G-17)."""
    return max((a.level for a in applied if a.condition is Condition.EXHAUSTED), default=0)


def exhaustion_at_least(
    applied: tuple[AppliedCondition, ...], level: int, rule_id: RuleId, ruleset: Ruleset
) -> tuple[AppliedCondition, ...]:
    """Raise Exhaustion to at least ``level`` (capped at the max); a higher level stays (G-17, line 481)."""
    target = min(max(exhaustion_level(applied), level), ruleset.conditions.exhaustion_max)
    return _set_exhaustion(applied, target, rule_id)


def _set_exhaustion(applied: tuple[AppliedCondition, ...], level: int, rule_id: RuleId) -> tuple[AppliedCondition, ...]:
    rest = tuple(a for a in applied if a.condition is not Condition.EXHAUSTED)
    if level <= 0:
        return rest
    return (*rest, AppliedCondition(Condition.EXHAUSTED, rule_id, level=level))


# ----- restrictions bound to the source -----


def sources_of(applied: Collection[AppliedCondition], condition: Condition) -> frozenset[str]:
    """The creatures that gave this condition (the fear sources whose visibility Frightened needs, C-FRI)."""
    return frozenset(a.source for a in applied if a.condition is condition and a.source is not None)


def may_harm(applied: Collection[AppliedCondition], target: str) -> Verdict:
    """Whether the creature may attack ``target`` or aim harmful effects at it (not its charmer, C-CHA)."""
    for a in applied:
        d = CONDITIONS[a.condition]
        if d.forbids_harming_source and a.source == target:
            return Verdict(False, d.rule)
    return Verdict(True)


def may_move_closer(applied: Collection[AppliedCondition], other: str) -> Verdict:
    """Whether the creature may willingly move closer to ``other`` (not to its fear source, C-FRI)."""
    for a in applied:
        d = CONDITIONS[a.condition]
        if d.forbids_approaching_source and a.source == other:
            return Verdict(False, d.rule)
    return Verdict(True)


def checks_against_sources(
    target: Collection[AppliedCondition], checker: str, skill: Skill | None
) -> tuple[RollSource, ...]:
    """Advantage on ``checker``'s check against the target (the charmer's social checks, C-CHA)."""
    return tuple(
        adv(d.rule, f"{d.condition.value} by checker")
        for a in target
        if a.source == checker and skill in (d := CONDITIONS[a.condition]).source_check_advantage
    )


# ----- per-turn clocks -----


@dataclass(frozen=True, slots=True)
class SuffocationTick:
    """The start of a Suffocating creature's turn: the updated condition, and G-15 if it drops to 0 HP now."""

    condition: AppliedCondition
    drops_to_zero: RuleId | None = None


def suffocating(end_mod: int, ruleset: Ruleset, rule_id: RuleId = _SUFFOCATION) -> AppliedCondition:
    """Suffocating with ``max(END, conditions.suffocation_min_rounds)`` rounds to live (G-15, UW-4)."""
    rounds = max(end_mod, ruleset.conditions.suffocation_min_rounds)
    return AppliedCondition(Condition.SUFFOCATING, rule_id, rounds_left=rounds)


def suffocation_turn_start(condition: AppliedCondition) -> SuffocationTick:
    """Count down at the start of the creature's turn; once the rounds are spent it drops to 0 HP, dying (G-15).

    It drops once; it then stays Suffocating (no stabilising, no healing) until it can breathe.
    """
    if condition.rounds_left > 0:
        return SuffocationTick(replace(condition, rounds_left=condition.rounds_left - 1))
    if condition.rounds_left == 0:
        return SuffocationTick(replace(condition, rounds_left=-1), _SUFFOCATION)
    return SuffocationTick(condition)


def turn_start_damage(applied: Collection[AppliedCondition], ruleset: Ruleset) -> tuple[DamagePart, ...]:
    """Damage the creature takes as its turn starts (Buried: 1d6 bludgeoning, G-18), for the damage code."""
    out = []
    for a in applied:
        td = CONDITIONS[a.condition].turn_damage
        if td is not None:
            out.append(DamagePart(td.type, td.rule, td.label, dice=parse(td.dice(ruleset))))
    return tuple(out)


def drowning_escape_dc(ruleset: Ruleset) -> DC:
    """The Athletics DC whose success ends Drowning (G-16)."""
    return fixed_dc(ruleset.conditions.drowning_escape_dc, _DROWNING, "surface (Athletics)")


# ----- conditions the chapter applies with a duration -----


def dodging(creature: str) -> AppliedCondition:
    """Dodge: Dodging until the start of the creature's next turn (DOD-1)."""
    return AppliedCondition(Condition.DODGING, _DODGE, creature, Duration.start_of_next_turn(creature))


def surprised(last_round: int) -> AppliedCondition:
    """A surprised creature is flat-footed through the surprise round (SUR-2, SUR-4, FF-1)."""
    return AppliedCondition(Condition.FLAT_FOOTED, _SURPRISE, None, Duration.through_round(last_round))


def until_end_of_next_turn(
    condition: Condition, creature: str, rule_id: RuleId, source: str | None = None
) -> AppliedCondition:
    """``condition`` until the end of ``creature``'s next turn (Dazed, 984 and 1126; Backlash's stun, PSI-15)."""
    return AppliedCondition(condition, rule_id, source, Duration.end_of_next_turn(creature))
