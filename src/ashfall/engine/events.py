"""Events: every state change, as a frozen, JSON-serialisable record with its cause (rule ID).

Resolvers emit events; :mod:`ashfall.engine.apply` is the one place they change state. Events that
only explain (an attack roll's breakdown) change bookkeeping such as the MAP counter. Same seed +
same intents + same decisions gives the same event stream, byte for byte (:func:`dumps`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from ashfall.core.d20 import D20Roll
from ashfall.core.modifiers import Modifier, RollSource
from ashfall.engine.effects import TimedEffect
from ashfall.engine.environment import Collapse, Drain, Flood, GasCloud, MapObject
from ashfall.engine.lasting import Readied, Zone
from ashfall.grid.board import Square
from ashfall.rules.durations import AppliedCondition
from ashfall.rules.health import Health
from ashfall.rules.morale import GroupMorale


@dataclass(frozen=True, slots=True)
class Part:
    """One labelled number of a breakdown: ``label`` contributes ``value`` because of ``rule``."""

    label: str
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class Source:
    """One advantage (``True``) or disadvantage source of a d20 roll."""

    advantage: bool
    label: str
    rule: str


@dataclass(frozen=True, slots=True)
class RollRecord:
    """A d20 test as recorded in the log: faces, the kept natural, modifiers, sources and total."""

    faces: tuple[int, ...]
    natural: int
    advantage: str
    modifiers: tuple[Part, ...]
    sources: tuple[Source, ...]
    total: int

    @classmethod
    def of(cls, roll: D20Roll) -> RollRecord:
        """Record a :class:`~ashfall.core.d20.D20Roll`."""
        return cls(
            roll.faces,
            roll.natural,
            roll.advantage.value,
            parts(roll.modifiers.applied),
            tuple(Source(s.advantage, s.label, s.rule) for s in roll.sources),
            roll.total,
        )


def parts(mods: tuple[Modifier, ...]) -> tuple[Part, ...]:
    """Record modifiers as breakdown parts."""
    return tuple(Part(m.label, m.value, m.rule) for m in mods)


def sources(srcs: tuple[RollSource, ...]) -> tuple[Source, ...]:
    """Record advantage sources."""
    return tuple(Source(s.advantage, s.label, s.rule) for s in srcs)


@dataclass(frozen=True, slots=True)
class CombatStarted:
    """The encounter begins (ruleset and seed recorded for replay)."""

    ruleset: str
    seed: int | None
    roster: tuple[str, ...]
    rule: str = "INIT-2"
    type: Literal["combat-started"] = "combat-started"


@dataclass(frozen=True, slots=True)
class InitiativeRolled:
    """A creature's initiative (INIT-1) and its tie-break key (INIT-3)."""

    actor: str
    roll: RollRecord
    tiebreak: int
    rule: str = "INIT-1"
    type: Literal["initiative-rolled"] = "initiative-rolled"


@dataclass(frozen=True, slots=True)
class OrderSet:
    """The turn order, highest first (INIT-2, INIT-3)."""

    order: tuple[str, ...]
    rule: str = "INIT-2"
    type: Literal["order-set"] = "order-set"


@dataclass(frozen=True, slots=True)
class Surprise:
    """A creature is (or is not) surprised: ambushers' Stealth vs its passive Perception (SUR-1)."""

    actor: str
    surprised: bool
    stealth: int
    passive: int
    rule: str = "SUR-1"
    type: Literal["surprise"] = "surprise"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new round."""

    round: int
    rule: str = "INIT-2"
    type: Literal["round-started"] = "round-started"


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The end of a round: spreading hazards run after this (HAZ-0)."""

    round: int
    rule: str = "HAZ-0"
    type: Literal["round-ended"] = "round-ended"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A creature's turn begins with its action budget (AE-1, G-13) and its reaction back (RX-1)."""

    actor: str
    round: int
    actions: int
    movement_ft: int
    rule: str = "AE-1"
    type: Literal["turn-started"] = "turn-started"


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """A creature cannot act this turn (surprised in round 1, incapacitated, down)."""

    actor: str
    reason: str
    rule: str
    type: Literal["turn-skipped"] = "turn-skipped"


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """A creature's turn ends."""

    actor: str
    rule: str = "AE-1"
    type: Literal["turn-ended"] = "turn-ended"


@dataclass(frozen=True, slots=True)
class ActionsSpent:
    """Actions spent on an intent (ACT-1, MAA-1, AE-4 for bonus actions)."""

    actor: str
    count: int
    label: str
    rule: str
    bonus: bool = False
    type: Literal["actions-spent"] = "actions-spent"


@dataclass(frozen=True, slots=True)
class ReactionSpent:
    """A reaction used (AE-2, RX-1, RX-4)."""

    actor: str
    label: str
    rule: str
    type: Literal["reaction-spent"] = "reaction-spent"


@dataclass(frozen=True, slots=True)
class Moved:
    """One step of movement from square to square at a cost in feet (MOV, ACT-2..4)."""

    actor: str
    frm: Square
    to: Square
    cost_ft: int
    mode: str
    rule: str
    forced: bool = False
    type: Literal["moved"] = "moved"


@dataclass(frozen=True, slots=True)
class MovementStopped:
    """A creature's remaining movement drops to 0 (SUP-8, RX-14, RX-23, OVR-5)."""

    actor: str
    rule: str
    type: Literal["movement-stopped"] = "movement-stopped"


@dataclass(frozen=True, slots=True)
class AttackRolled:
    """An attack roll against a target's DV, with both breakdowns and the outcome (ATK, CRIT)."""

    actor: str
    target: str
    weapon: str
    label: str
    roll: RollRecord
    dv: int
    dv_parts: tuple[Part, ...]
    outcome: str
    reasons: tuple[str, ...]
    counts_for_map: bool
    rule: str = "ATK-4"
    type: Literal["attack-rolled"] = "attack-rolled"


@dataclass(frozen=True, slots=True)
class CheckRolled:
    """A save, check or one side of a contest, against a DC or opposing total."""

    actor: str
    label: str
    roll: RollRecord | None
    against: int
    success: bool
    rule: str
    auto: str = ""
    type: Literal["check-rolled"] = "check-rolled"


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One row of a damage ledger as logged."""

    step: str
    damage_type: str
    before: int
    after: int
    rule: str
    label: str


@dataclass(frozen=True, slots=True)
class DamageTaken:
    """Damage applied through the ledger (G-39); ``health`` is the result."""

    target: str
    source: str
    amount: int
    rows: tuple[LedgerLine, ...]
    health: Health
    critical: bool = False
    rule: str = "DMG-1"
    type: Literal["damage-taken"] = "damage-taken"


@dataclass(frozen=True, slots=True)
class HealthSet:
    """Health changed by healing, temporary HP, a death save or stabilising."""

    target: str
    health: Health
    label: str
    rule: str
    type: Literal["health-set"] = "health-set"


@dataclass(frozen=True, slots=True)
class ConditionAdded:
    """A condition applied, with its source and duration."""

    target: str
    applied: AppliedCondition
    rule: str
    type: Literal["condition-added"] = "condition-added"


@dataclass(frozen=True, slots=True)
class ConditionRemoved:
    """A condition ended (expired, ended by an event, or removed by an action)."""

    target: str
    applied: AppliedCondition
    rule: str
    type: Literal["condition-removed"] = "condition-removed"


@dataclass(frozen=True, slots=True)
class ResourceUsed:
    """Ammunition, a per-rest use, a stim, Focus … changed by ``delta``."""

    actor: str
    resource: str
    delta: int
    rule: str
    type: Literal["resource-used"] = "resource-used"


@dataclass(frozen=True, slots=True)
class InitiativeChanged:
    """Delay: a permanent, lower place in the order (DEL-1..3)."""

    actor: str
    order: tuple[str, ...]
    rule: str = "DEL-2"
    type: Literal["initiative-changed"] = "initiative-changed"


@dataclass(frozen=True, slots=True)
class DecisionMade:
    """A controller's answer to a decision the engine asked for (recorded so replays repeat it)."""

    actor: str
    decision: str
    choice: str
    rule: str
    type: Literal["decision-made"] = "decision-made"


@dataclass(frozen=True, slots=True)
class BoundaryPassed:
    """The start or end of a creature's turn passed: durations advance, and these ended."""

    actor: str
    edge: str
    round: int
    expired: tuple[tuple[str, AppliedCondition], ...]
    expired_effects: tuple[TimedEffect, ...]
    rule: str = "AE-1"
    type: Literal["boundary-passed"] = "boundary-passed"


@dataclass(frozen=True, slots=True)
class EffectAdded:
    """A timed effect begins (a feint's advantage, Help, Aim, a Leg shot's speed loss …)."""

    effect: TimedEffect
    rule: str
    type: Literal["effect-added"] = "effect-added"


@dataclass(frozen=True, slots=True)
class EffectRemoved:
    """A timed effect ends (used up, or ended by a rule)."""

    key: str
    rule: str
    type: Literal["effect-removed"] = "effect-removed"


@dataclass(frozen=True, slots=True)
class SpellCast:
    """A spell is cast (ACT-8): after reactions to the casting; ``countered`` names the rule that stopped it."""

    actor: str
    spell: str
    level: int
    targets: tuple[str, ...]
    countered: str = ""
    rule: str = "ACT-8"
    type: Literal["spell-cast"] = "spell-cast"


@dataclass(frozen=True, slots=True)
class ActionNoted:
    """An action whose effect the GM narrates: speaking, using an object or item (FA-1, UOB-1, ACT-14)."""

    actor: str
    label: str
    detail: str
    rule: str
    type: Literal["action-noted"] = "action-noted"


@dataclass(frozen=True, slots=True)
class ItemDropped:
    """A held weapon or shield leaves a creature's hands and lands on ``square`` (FA-2, DIS-3)."""

    actor: str
    item: str
    square: Square | None
    rule: str
    type: Literal["item-dropped"] = "item-dropped"


@dataclass(frozen=True, slots=True)
class ItemPickedUp:
    """A creature picks up an item lying on ``square`` (UOB-1)."""

    actor: str
    item: str
    square: Square | None
    rule: str
    type: Literal["item-picked-up"] = "item-picked-up"


@dataclass(frozen=True, slots=True)
class MoraleChecked:
    """A morale check (MOR-3): one roll for every trigger of one event (MOR-12), or a leader's rally (G-04).

    ``actor`` is empty for a group check, the individual for a Fear Effect check (MOR-10), the leader for a rally.
    """

    group: str
    actor: str
    kind: str
    triggers: tuple[str, ...]
    roll: RollRecord
    dc: int
    dc_parts: tuple[Part, ...]
    outcome: str
    rule: str = "MOR-3"
    type: Literal["morale-checked"] = "morale-checked"


@dataclass(frozen=True, slots=True)
class MoraleChanged:
    """A group's morale record and/or members' statuses changed (G-03, MOR-20, MOR-26, MOR-27).

    ``members`` pairs combatant ids with their new status; ``record`` is the group's new record, or None.
    """

    group: str
    members: tuple[tuple[str, str], ...]
    record: GroupMorale | None
    label: str
    rule: str
    type: Literal["morale-changed"] = "morale-changed"


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """Dice rolled outside an attack's damage (Deflect's 1d10 + AGI, RX-7), with the total used."""

    actor: str
    label: str
    dice: str
    faces: tuple[int, ...]
    total: int
    rule: str
    type: Literal["dice-rolled"] = "dice-rolled"


@dataclass(frozen=True, slots=True)
class ZoneCreated:
    """A suppression zone begins (SUP-3, SUP-4)."""

    zone: Zone
    rule: str = "SUP-3"
    type: Literal["zone-created"] = "zone-created"


@dataclass(frozen=True, slots=True)
class ZoneTriggered:
    """A creature moving in a zone makes its save there this turn (SUP-5, SUP-6)."""

    key: str
    actor: str
    round: int
    turn_of: str
    rule: str = "SUP-6"
    type: Literal["zone-triggered"] = "zone-triggered"


@dataclass(frozen=True, slots=True)
class ZoneEnded:
    """A zone ends (the start of its owner's next turn, SUP-4)."""

    key: str
    rule: str = "SUP-4"
    type: Literal["zone-ended"] = "zone-ended"


@dataclass(frozen=True, slots=True)
class ReadyDeclared:
    """A creature readies an action with a trigger (RDY-1, RDY-2)."""

    readied: Readied
    rule: str = "RDY-2"
    type: Literal["ready-declared"] = "ready-declared"


@dataclass(frozen=True, slots=True)
class ReadyEnded:
    """A readied action is used (RDY-3) or lost at the start of its creature's turn (RDY-4)."""

    actor: str
    used: bool
    rule: str
    type: Literal["ready-ended"] = "ready-ended"


@dataclass(frozen=True, slots=True)
class RolledPart:
    """One part of a damage roll as logged: its dice and faces (none for a flat part), doubled on a crit."""

    label: str
    damage_type: str
    dice: str
    faces: tuple[int, ...]
    flat: int
    doubled: bool
    total: int
    rule: str


@dataclass(frozen=True, slots=True)
class DamageRolled:
    """A hit's damage dice, part by part, before the target's defenses (DMG-1, CRIT-2, G-40); the ledger follows."""

    actor: str
    target: str
    parts: tuple[RolledPart, ...]
    critical: bool
    total: int
    rule: str = "DMG-1"
    type: Literal["damage-rolled"] = "damage-rolled"


@dataclass(frozen=True, slots=True)
class MountChanged:
    """A creature gets on a mount (``mount`` is its id) or off it (``mount`` is None) (ACT-6, MNT-1)."""

    actor: str
    mount: str | None
    rule: str = "ACT-6"
    type: Literal["mount-changed"] = "mount-changed"
    station: str = ""
    """Boarding a vehicle: the crew station taken, or "passenger" (VEH-2)."""


@dataclass(frozen=True, slots=True)
class ObjectPlaced:
    """An object appears on the battlefield or changes shape: placed, flipped (IEA-4), moved or fallen (IEA-2)."""

    obj: MapObject
    label: str
    rule: str = "OBJ-1"
    type: Literal["object-placed"] = "object-placed"


@dataclass(frozen=True, slots=True)
class ObjectDamaged:
    """Damage applied to an object through its ledger (Hardness, piercing, immunities: OBJ-3..10, G-39)."""

    object: str
    source: str
    amount: int
    rows: tuple[LedgerLine, ...]
    hp: int
    label: str
    rule: str = "OBJ-3"
    name: str = ""
    type: Literal["object-damaged"] = "object-damaged"


@dataclass(frozen=True, slots=True)
class ObjectDestroyed:
    """An object is broken, spent or brought down; ``exposed`` lost the cover it gave (STC-10, STC-11)."""

    object: str
    label: str
    exposed: tuple[str, ...] = ()
    rule: str = "OBJ-1"
    name: str = ""
    type: Literal["object-destroyed"] = "object-destroyed"


@dataclass(frozen=True, slots=True)
class ChainReaction:
    """A chain-reaction element goes off (a fuel explosion CHN-2, a discharge CHN-6, a collapse CHN-9)."""

    object: str
    kind: str
    squares: tuple[Square, ...]
    rule: str
    name: str = ""
    type: Literal["chain-reaction"] = "chain-reaction"


@dataclass(frozen=True, slots=True)
class ChainPending:
    """An adjacent fuel container awaits its end-of-round chain roll (``pending``) or has had it (CHN-4, G-52)."""

    object: str
    pending: bool
    rule: str = "CHN-4"
    name: str = ""
    type: Literal["chain-pending"] = "chain-pending"


@dataclass(frozen=True, slots=True)
class DebrisFell:
    """A fallen object strews squares: difficult terrain (IEA-5)."""

    squares: tuple[Square, ...]
    rule: str = "IEA-5"
    type: Literal["debris-fell"] = "debris-fell"


@dataclass(frozen=True, slots=True)
class FireChanged:
    """Squares catch fire (HAZF-1, HAZF-2; an explosion CHN-3) or go out (HAZF-3..5); a re-lit square gets fresh fuel.

    ``fuel_spent``: the squares burned out, their fuel is gone (fire cannot spread back, HAZF-5).
    """

    squares: tuple[Square, ...]
    burning: bool
    rule: str
    cause: str = ""
    fuel_spent: bool = False
    type: Literal["fire-changed"] = "fire-changed"


@dataclass(frozen=True, slots=True)
class FireTicked:
    """End of round: each burning square as (square, rounds burned, rounds left before it burns out) (HAZF-5)."""

    squares: tuple[tuple[Square, int, int], ...]
    rule: str = "HAZF-5"
    type: Literal["fire-ticked"] = "fire-ticked"


@dataclass(frozen=True, slots=True)
class SmokeChanged:
    """Smoke over burning squares: ``level`` 0 clears it, 1 lightly, 2 heavily obscured (HAZF-6)."""

    squares: tuple[Square, ...]
    level: int
    rule: str = "HAZF-6"
    type: Literal["smoke-changed"] = "smoke-changed"


@dataclass(frozen=True, slots=True)
class GasChanged:
    """A gas cloud is released, grows, is sealed or ages (``cloud``), or clears (``cloud`` None) (HAZG-1..6)."""

    cloud_id: str
    cloud: GasCloud | None
    rule: str
    type: Literal["gas-changed"] = "gas-changed"


@dataclass(frozen=True, slots=True)
class CountdownChanged:
    """A hazard countdown is set, ticks or ends (``rounds`` None) (a collapse, HAZC-2, G-30)."""

    key: str
    rounds: int | None
    label: str
    rule: str
    type: Literal["countdown-changed"] = "countdown-changed"


@dataclass(frozen=True, slots=True)
class CollapseChanged:
    """A structural collapse begins (``collapse``) or has come down (None) (HAZC-1, HAZC-3)."""

    collapse_id: str
    collapse: Collapse | None
    rule: str
    type: Literal["collapse-changed"] = "collapse-changed"


@dataclass(frozen=True, slots=True)
class RubbleAdded:
    """Collapse rubble: the squares become greater difficult terrain (HAZC-5)."""

    squares: tuple[Square, ...]
    rule: str = "HAZC-5"
    type: Literal["rubble-added"] = "rubble-added"


@dataclass(frozen=True, slots=True)
class WaterChanged:
    """Rising water starts, rises, drains (``flood``) or is gone (None); depths follow the level (HAZW-1, HAZW-5)."""

    flood_id: str
    flood: Flood | None
    rule: str
    type: Literal["water-changed"] = "water-changed"


@dataclass(frozen=True, slots=True)
class DrainChanged:
    """A drain is found or opened (HAZW-5, EX-9)."""

    drain: Drain
    rule: str = "HAZW-5"
    type: Literal["drain-changed"] = "drain-changed"


@dataclass(frozen=True, slots=True)
class HazardTriggered:
    """A hazard harms a creature this turn (fire HAZF-1, hazardous terrain G-29): at most once per turn (G-51)."""

    hazard: str
    actor: str
    round: int
    turn_of: str
    rule: str
    type: Literal["hazard-triggered"] = "hazard-triggered"


@dataclass(frozen=True, slots=True)
class GuessMissed:
    """An attack at a guessed square where the hidden target is not: an automatic miss (CONC-11, G-20)."""

    actor: str
    target: str
    square: tuple[int, int]
    weapon: str
    counts_for_map: bool
    rule: str = "CONC-11"
    type: Literal["guess-missed"] = "guess-missed"


@dataclass(frozen=True, slots=True)
class BreathChanged:
    """A creature's breath clock (UW-1..3, G-16): rounds of breath left, or None once it breathes freely again."""

    actor: str
    rounds_left: int | None
    spent: int = 0
    reasons: tuple[str, ...] = ()
    rule: str = "UW-1"
    type: Literal["breath-changed"] = "breath-changed"


@dataclass(frozen=True, slots=True)
class DepthChanged:
    """A creature dives, surfaces or sinks underwater (UW-9, UW-10): its depth in feet below where the fight began."""

    actor: str
    depth_ft: int
    change_ft: int
    rule: str = "UW-9"
    type: Literal["depth-changed"] = "depth-changed"


@dataclass(frozen=True, slots=True)
class DamageSpread:
    """Underwater, cold or electric damage spreads through the water to the creatures near its target (UW-21, UW-22)."""

    source: str
    target: str
    damage_type: str
    amount: int
    radius_ft: int
    affected: tuple[str, ...]
    dc: int | None = None
    rule: str = "UW-22"
    type: Literal["damage-spread"] = "damage-spread"


@dataclass(frozen=True, slots=True)
class VehicleStatus:
    """A vehicle moves along the System Damage Track (VEH-4)."""

    vehicle: str
    status: str
    rule: str = "VEH-4"
    type: Literal["vehicle-status"] = "vehicle-status"


@dataclass(frozen=True, slots=True)
class CombatEnded:
    """A side has won (every member of the others dead, dying, unconscious, fled or surrendered)."""

    winner: str | None
    round: int
    rule: str = "INIT-2"
    type: Literal["combat-ended"] = "combat-ended"


Event = Annotated[
    CombatStarted | InitiativeRolled | OrderSet | Surprise | RoundStarted | RoundEnded | TurnStarted | TurnSkipped
    | TurnEnded | ActionsSpent | ReactionSpent | Moved | MovementStopped | AttackRolled | CheckRolled | DamageTaken
    | HealthSet | ConditionAdded | ConditionRemoved | ResourceUsed | InitiativeChanged | DecisionMade | BoundaryPassed
    | EffectAdded | EffectRemoved | SpellCast | ItemDropped | ItemPickedUp | ActionNoted | MoraleChecked
    | MoraleChanged | DiceRolled | ZoneCreated | ZoneTriggered | ZoneEnded
    | ReadyDeclared | ReadyEnded | MountChanged | DamageRolled | CombatEnded | GuessMissed
    | FireChanged | FireTicked | SmokeChanged | GasChanged | CountdownChanged | CollapseChanged | RubbleAdded
    | WaterChanged | DrainChanged | HazardTriggered
    | ObjectPlaced | ObjectDamaged | ObjectDestroyed | ChainReaction | ChainPending | DebrisFell
    | BreathChanged | DepthChanged | DamageSpread | VehicleStatus,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Any] = TypeAdapter(list[Event])


def to_jsonable(events: list[Any]) -> list[dict[str, Any]]:
    """Events as plain JSON data."""
    data: list[dict[str, Any]] = _ADAPTER.dump_python(events, mode="json")
    return data


def dumps(events: list[Any]) -> str:
    """The canonical JSON text of an event log (one event per line, sorted keys)."""
    return "\n".join(json.dumps(e, sort_keys=True, separators=(",", ":")) for e in to_jsonable(events)) + "\n"


def loads(text: str) -> list[Any]:
    """Read an event log written by :func:`dumps`."""
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    events: list[Any] = _ADAPTER.validate_python(rows)
    return events
