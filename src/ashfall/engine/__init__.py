"""The turn engine's public face: build a fight, submit intents, read events, replay and undo.

Controllers (a person through the CLI or web, or an AI policy) submit intents; the engine refuses
illegal ones before any die is rolled, resolves legal ones with the rules core, asks controllers
for the decisions it needs, and records every state change as an event. Events are the only way
state changes (:mod:`ashfall.engine.apply`). Every command resolved is recorded with its answers next
to its events (:class:`IntentRecord`), so a fight replays from its seed (:func:`replay`).

Import what you need from here (``from ashfall.engine import Engine, Strike, new_engine``); the event
classes are in :mod:`ashfall.engine.events` (``from ashfall.engine import events as ev``). Importing
this package registers nothing: a fight's :class:`~ashfall.engine.rulebook.Rulebook` installs the rule
families it uses (:mod:`ashfall.engine.catalog`).
"""

from typing import TYPE_CHECKING, Any

from ashfall.engine import events as events
from ashfall.engine.actions import Refused, refuse
from ashfall.engine.decisions import Controller, Decision, Decline, FirstOption, NeedDecision, Option
from ashfall.engine.dice_entry import DiceRequest, Face, FaceOutOfRange, NeedDice, RollFor
from ashfall.engine.engine import SNAPSHOT_EVERY, Engine, apply_events, clone_state, legal_intents
from ashfall.engine.events import Event, dumps, loads
from ashfall.engine.intents import (
    Command,
    EndTurn,
    Intent,
    IntentFormatError,
    JsonObject,
    JsonValue,
    StartCombat,
    command_from_json,
    command_tag,
    command_to_json,
    intent_types,
)
from ashfall.engine.lasting import ReadiedAction, ReadyTrigger
from ashfall.engine.record import Answer, FightLog, IntentRecord, LogFormatError, dumps_log, loads_log
from ashfall.engine.replaying import ReplayDivergence, replay
from ashfall.engine.setup import make_combatant, new_engine, new_state
from ashfall.engine.state import Combatant, EncounterState

if TYPE_CHECKING:  # the real classes for type checkers (every name in family_intents.__all__); at run time they
    # load on first use (below)
    from ashfall.engine.family_intents import *  # noqa: F403


def __getattr__(name: str) -> Any:
    """A family's intent class, served on first use (PEP 562) from :mod:`ashfall.engine.family_intents`."""
    if name == "family_intents":  # asked by the import system itself before it loads the submodule
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import ashfall.engine.family_intents as family_intents

    if name not in family_intents.__all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(family_intents, name)
    globals()[name] = value
    return value


__all__ = [
    "SNAPSHOT_EVERY",
    "ActivateSuppression",
    "Aim",
    "AllOutAttack",
    "Answer",
    "CastSpell",
    "Combatant",
    "Command",
    "Constrict",
    "Controller",
    "CoupDeGrace",
    "Crawl",
    "Decision",
    "Declared",
    "Decline",
    "Delay",
    "DiceRequest",
    "DigOut",
    "Disarm",
    "Dismount",
    "Dodge",
    "Drag",
    "DrawStow",
    "Drive",
    "DropItem",
    "EmergencyFieldMedicine",
    "EncounterState",
    "EndTurn",
    "Engine",
    "Escape",
    "EvasiveManeuvers",
    "Event",
    "Extinguish",
    "ExtraAttackStrike",
    "Face",
    "FaceOutOfRange",
    "FallProne",
    "Feint",
    "FightLog",
    "FindDrain",
    "FireReadied",
    "FirstOption",
    "FlipTable",
    "FullAutoBurst",
    "GmAddCombatant",
    "GmCondition",
    "GmDamage",
    "GmMorale",
    "GmMove",
    "GmOrder",
    "GmRemoveCombatant",
    "GmSetHp",
    "GmSkipTurn",
    "Grapple",
    "Help",
    "Hide",
    "Identify",
    "ImprovisedAttack",
    "Intent",
    "IntentFormatError",
    "IntentRecord",
    "JsonObject",
    "JsonValue",
    "KickOver",
    "LeanOut",
    "LogFormatError",
    "Mount",
    "NeedDecision",
    "NeedDice",
    "OffHandStrike",
    "OpenDrain",
    "Option",
    "Overrun",
    "PickUp",
    "PowerStrike",
    "PsiStrike",
    "PushOff",
    "Rally",
    "Ram",
    "ReadiedAction",
    "Ready",
    "ReadyTrigger",
    "Refused",
    "ReleaseGrapple",
    "Reload",
    "ReplayDivergence",
    "RollFor",
    "SealGas",
    "Search",
    "SecondWind",
    "Shove",
    "Speak",
    "Sprint",
    "StabiliseWithMedicine",
    "Stand",
    "StartCombat",
    "Step",
    "Stride",
    "Strike",
    "StrikeObject",
    "SuppressiveFire",
    "Sustain",
    "SweepingStrike",
    "Swim",
    "Trip",
    "UseItem",
    "UseObject",
    "UseSkill",
    "UseStim",
    "apply_events",
    "clone_state",
    "command_from_json",
    "command_tag",
    "command_to_json",
    "dumps",
    "dumps_log",
    "events",
    "intent_types",
    "legal_intents",
    "loads",
    "loads_log",
    "make_combatant",
    "new_engine",
    "new_state",
    "refuse",
    "replay",
]
