"""Events: every state change, as a frozen, JSON-serialisable record with its cause (rule ID).

Resolvers emit events; :mod:`ashfall.engine.apply` is the one place they change state. Events that
only explain (an attack roll's breakdown) change bookkeeping such as the MAP counter. Same seed +
same intents + same decisions gives the same event stream, byte for byte (:func:`dumps`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from ashfall.engine.events.battlefield import (
    BreathChanged as BreathChanged,
)
from ashfall.engine.events.battlefield import (
    ChainPending as ChainPending,
)
from ashfall.engine.events.battlefield import (
    ChainReaction as ChainReaction,
)
from ashfall.engine.events.battlefield import (
    CollapseChanged as CollapseChanged,
)
from ashfall.engine.events.battlefield import (
    CountdownChanged as CountdownChanged,
)
from ashfall.engine.events.battlefield import (
    DamageSpread as DamageSpread,
)
from ashfall.engine.events.battlefield import (
    DebrisFell as DebrisFell,
)
from ashfall.engine.events.battlefield import (
    DepthChanged as DepthChanged,
)
from ashfall.engine.events.battlefield import (
    DrainChanged as DrainChanged,
)
from ashfall.engine.events.battlefield import (
    FireChanged as FireChanged,
)
from ashfall.engine.events.battlefield import (
    FireTicked as FireTicked,
)
from ashfall.engine.events.battlefield import (
    GasChanged as GasChanged,
)
from ashfall.engine.events.battlefield import (
    GuessMissed as GuessMissed,
)
from ashfall.engine.events.battlefield import (
    HazardTriggered as HazardTriggered,
)
from ashfall.engine.events.battlefield import (
    MountChanged as MountChanged,
)
from ashfall.engine.events.battlefield import (
    ObjectDamaged as ObjectDamaged,
)
from ashfall.engine.events.battlefield import (
    ObjectDestroyed as ObjectDestroyed,
)
from ashfall.engine.events.battlefield import (
    ObjectPlaced as ObjectPlaced,
)
from ashfall.engine.events.battlefield import (
    RubbleAdded as RubbleAdded,
)
from ashfall.engine.events.battlefield import (
    SmokeChanged as SmokeChanged,
)
from ashfall.engine.events.battlefield import (
    VehicleStatus as VehicleStatus,
)
from ashfall.engine.events.battlefield import (
    WaterChanged as WaterChanged,
)
from ashfall.engine.events.battlefield import (
    ZoneCreated as ZoneCreated,
)
from ashfall.engine.events.battlefield import (
    ZoneEnded as ZoneEnded,
)
from ashfall.engine.events.battlefield import (
    ZoneTriggered as ZoneTriggered,
)
from ashfall.engine.events.fight import (
    ActionNoted as ActionNoted,
)
from ashfall.engine.events.fight import (
    ActionsSpent as ActionsSpent,
)
from ashfall.engine.events.fight import (
    AttackRolled as AttackRolled,
)
from ashfall.engine.events.fight import (
    BoundaryPassed as BoundaryPassed,
)
from ashfall.engine.events.fight import (
    CheckRolled as CheckRolled,
)
from ashfall.engine.events.fight import (
    CombatEnded as CombatEnded,
)
from ashfall.engine.events.fight import (
    CombatStarted as CombatStarted,
)
from ashfall.engine.events.fight import (
    ConditionAdded as ConditionAdded,
)
from ashfall.engine.events.fight import (
    ConditionRemoved as ConditionRemoved,
)
from ashfall.engine.events.fight import (
    DamageRolled as DamageRolled,
)
from ashfall.engine.events.fight import (
    DamageTaken as DamageTaken,
)
from ashfall.engine.events.fight import (
    DecisionMade as DecisionMade,
)
from ashfall.engine.events.fight import (
    DiceRolled as DiceRolled,
)
from ashfall.engine.events.fight import (
    EffectAdded as EffectAdded,
)
from ashfall.engine.events.fight import (
    EffectRemoved as EffectRemoved,
)
from ashfall.engine.events.fight import (
    HealthSet as HealthSet,
)
from ashfall.engine.events.fight import (
    InitiativeChanged as InitiativeChanged,
)
from ashfall.engine.events.fight import (
    InitiativeRolled as InitiativeRolled,
)
from ashfall.engine.events.fight import (
    ItemDropped as ItemDropped,
)
from ashfall.engine.events.fight import (
    ItemPickedUp as ItemPickedUp,
)
from ashfall.engine.events.fight import (
    MoraleChanged as MoraleChanged,
)
from ashfall.engine.events.fight import (
    MoraleChecked as MoraleChecked,
)
from ashfall.engine.events.fight import (
    Moved as Moved,
)
from ashfall.engine.events.fight import (
    MovementStopped as MovementStopped,
)
from ashfall.engine.events.fight import (
    OrderSet as OrderSet,
)
from ashfall.engine.events.fight import (
    ReactionSpent as ReactionSpent,
)
from ashfall.engine.events.fight import (
    ReadyDeclared as ReadyDeclared,
)
from ashfall.engine.events.fight import (
    ReadyEnded as ReadyEnded,
)
from ashfall.engine.events.fight import (
    ResourceUsed as ResourceUsed,
)
from ashfall.engine.events.fight import (
    RoundEnded as RoundEnded,
)
from ashfall.engine.events.fight import (
    RoundStarted as RoundStarted,
)
from ashfall.engine.events.fight import (
    SpellCast as SpellCast,
)
from ashfall.engine.events.fight import (
    Surprise as Surprise,
)
from ashfall.engine.events.fight import (
    TurnEnded as TurnEnded,
)
from ashfall.engine.events.fight import (
    TurnSkipped as TurnSkipped,
)
from ashfall.engine.events.fight import (
    TurnStarted as TurnStarted,
)
from ashfall.engine.events.records import (
    LedgerLine as LedgerLine,
)
from ashfall.engine.events.records import (
    Part as Part,
)
from ashfall.engine.events.records import (
    RolledPart as RolledPart,
)
from ashfall.engine.events.records import (
    RollRecord as RollRecord,
)
from ashfall.engine.events.records import (
    Source as Source,
)
from ashfall.engine.events.records import (
    parts as parts,
)
from ashfall.engine.events.records import (
    sources as sources,
)

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
