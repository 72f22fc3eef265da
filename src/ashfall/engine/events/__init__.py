"""Events: every state change, as a frozen, JSON-serialisable record with its cause (rule ID).

Resolvers emit events; :mod:`ashfall.engine.apply` is the one place they change state. Events that
only explain (an attack roll's breakdown) change bookkeeping such as the MAP counter. Same seed +
same intents + same decisions gives the same event stream, byte for byte (:func:`dumps`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from ashfall.engine.events.battlefield import (
    BreathChanged,
    ChainPending,
    ChainReaction,
    CollapseChanged,
    CountdownChanged,
    DamageSpread,
    DebrisFell,
    DepthChanged,
    DrainChanged,
    FireChanged,
    FireTicked,
    GasChanged,
    GuessMissed,
    HazardTriggered,
    MountChanged,
    ObjectDamaged,
    ObjectDestroyed,
    ObjectPlaced,
    RubbleAdded,
    SmokeChanged,
    VehicleStatus,
    WaterChanged,
    ZoneCreated,
    ZoneEnded,
    ZoneTriggered,
)
from ashfall.engine.events.fight import (
    ActionNoted,
    ActionsSpent,
    AttackRolled,
    BoundaryPassed,
    CheckRolled,
    CombatantJoined,
    CombatantLeft,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    DamageRolled,
    DamageTaken,
    DecisionMade,
    DiceRolled,
    EffectAdded,
    EffectRemoved,
    GmRuled,
    HealthSet,
    InitiativeChanged,
    InitiativeRolled,
    ItemDropped,
    ItemPickedUp,
    MoraleChanged,
    MoraleChecked,
    Moved,
    MovementStopped,
    OrderSet,
    ReactionSpent,
    ReadyDeclared,
    ReadyEnded,
    ResourceUsed,
    RoundEnded,
    RoundStarted,
    SpellCast,
    Surprise,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from ashfall.engine.events.records import (
    LedgerLine,
    Part,
    RolledPart,
    RollRecord,
    Source,
    parts,
    sources,
)

Event = Annotated[
    CombatStarted | InitiativeRolled | OrderSet | Surprise | RoundStarted | RoundEnded | TurnStarted | TurnSkipped
    | TurnEnded | ActionsSpent | ReactionSpent | Moved | MovementStopped | AttackRolled | CheckRolled | DamageTaken
    | HealthSet | ConditionAdded | ConditionRemoved | ResourceUsed | InitiativeChanged | DecisionMade | BoundaryPassed
    | EffectAdded | EffectRemoved | SpellCast | ItemDropped | ItemPickedUp | ActionNoted | GmRuled | MoraleChecked
    | MoraleChanged | DiceRolled | ZoneCreated | ZoneTriggered | ZoneEnded
    | ReadyDeclared | ReadyEnded | MountChanged | DamageRolled | CombatEnded | GuessMissed
    | FireChanged | FireTicked | SmokeChanged | GasChanged | CountdownChanged | CollapseChanged | RubbleAdded
    | WaterChanged | DrainChanged | HazardTriggered
    | ObjectPlaced | ObjectDamaged | ObjectDestroyed | ChainReaction | ChainPending | DebrisFell
    | BreathChanged | DepthChanged | DamageSpread | VehicleStatus | CombatantJoined | CombatantLeft,
    Field(discriminator="type"),
]

@cache
def _adapter() -> TypeAdapter[Any]:
    """The event log's pydantic adapter, built on first use.

    Building it costs about a tenth of a second, which every start paid (the simulator's and the kernel's too),
    and only logs written or read as JSON need it.
    """
    return TypeAdapter(list[Event])


def to_jsonable(events: Sequence[Any]) -> list[dict[str, Any]]:
    """Events (a list or tuple) as plain JSON data."""
    data: list[dict[str, Any]] = _adapter().dump_python(list(events), mode="json")
    return data


def dumps(events: Sequence[Any]) -> str:
    """The canonical JSON text of an event log (one event per line, sorted keys)."""
    return "\n".join(json.dumps(e, sort_keys=True, separators=(",", ":")) for e in to_jsonable(events)) + "\n"


def loads(text: str) -> list[Any]:
    """Read an event log written by :func:`dumps`."""
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    events: list[Any] = _adapter().validate_python(rows)
    return events

__all__ = [
    "ActionNoted",
    "ActionsSpent",
    "AttackRolled",
    "BoundaryPassed",
    "BreathChanged",
    "ChainPending",
    "ChainReaction",
    "CheckRolled",
    "CollapseChanged",
    "CombatEnded",
    "CombatStarted",
    "CombatantJoined",
    "CombatantLeft",
    "ConditionAdded",
    "ConditionRemoved",
    "CountdownChanged",
    "DamageRolled",
    "DamageSpread",
    "DamageTaken",
    "DebrisFell",
    "DecisionMade",
    "DepthChanged",
    "DiceRolled",
    "DrainChanged",
    "EffectAdded",
    "EffectRemoved",
    "Event",
    "FireChanged",
    "FireTicked",
    "GasChanged",
    "GmRuled",
    "GuessMissed",
    "HazardTriggered",
    "HealthSet",
    "InitiativeChanged",
    "InitiativeRolled",
    "ItemDropped",
    "ItemPickedUp",
    "LedgerLine",
    "MoraleChanged",
    "MoraleChecked",
    "MountChanged",
    "Moved",
    "MovementStopped",
    "ObjectDamaged",
    "ObjectDestroyed",
    "ObjectPlaced",
    "OrderSet",
    "Part",
    "ReactionSpent",
    "ReadyDeclared",
    "ReadyEnded",
    "ResourceUsed",
    "RollRecord",
    "RolledPart",
    "RoundEnded",
    "RoundStarted",
    "RubbleAdded",
    "SmokeChanged",
    "Source",
    "SpellCast",
    "Surprise",
    "TurnEnded",
    "TurnSkipped",
    "TurnStarted",
    "VehicleStatus",
    "WaterChanged",
    "ZoneCreated",
    "ZoneEnded",
    "ZoneTriggered",
    "dumps",
    "loads",
    "parts",
    "sources",
    "to_jsonable",
]
