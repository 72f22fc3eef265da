"""The rule families' intents (and the attack family's ``Declared``) that :mod:`ashfall.engine` re-exports.

The engine package serves these names on first use: every family module imports engine modules, which runs the
``ashfall.engine`` package first, so the package itself cannot import the families as it loads (a family module
imported before the engine would fail on the half-initialised cycle). Importing this module loads the families.
"""

from __future__ import annotations

from ashfall.families.attacks.engine import Declared
from ashfall.families.attacks.moves_activities import AllOutAttack, FullAutoBurst, PowerStrike, SweepingStrike
from ashfall.families.attacks.moves_finishing import CoupDeGrace, OffHandStrike
from ashfall.families.attacks.moves_gear import DrawStow, Reload
from ashfall.families.attacks.moves_legacy import Aim, ExtraAttackStrike
from ashfall.families.attacks.moves_strike import Strike
from ashfall.families.dying.moves import EmergencyFieldMedicine, SecondWind, StabiliseWithMedicine, UseStim
from ashfall.families.gm.moves import (
    GmAddCombatant,
    GmCondition,
    GmDamage,
    GmMorale,
    GmMove,
    GmOrder,
    GmRemoveCombatant,
    GmSetHp,
    GmSkipTurn,
)
from ashfall.families.hazards.moves import ActivateSuppression, DigOut, Extinguish, FindDrain, OpenDrain, SealGas
from ashfall.families.maneuvers.moves import Constrict, Drag, Escape, Grapple, ReleaseGrapple, Shove, Trip
from ashfall.families.maneuvers.moves_tactics import Disarm, Feint, Overrun
from ashfall.families.morale.engine import Rally
from ashfall.families.mounted.moves_mounting import Dismount, Mount
from ashfall.families.movement.moves import Crawl, Sprint, Stand, Step, Stride
from ashfall.families.objects.moves import StrikeObject
from ashfall.families.objects.moves_improvised import FlipTable, ImprovisedAttack, KickOver, PushOff
from ashfall.families.psionics.moves import PsiStrike
from ashfall.families.spells.moves import CastSpell, Sustain
from ashfall.families.suppression.moves import SuppressiveFire
from ashfall.families.turns.moves import Delay, FireReadied, LeanOut, Ready
from ashfall.families.underwater.engine import Swim
from ashfall.families.utility.moves import (
    Dodge,
    DropItem,
    FallProne,
    Help,
    Hide,
    Identify,
    PickUp,
    Search,
    Speak,
    UseItem,
    UseObject,
    UseSkill,
)
from ashfall.families.vehicles.moves import Drive, EvasiveManeuvers, Ram

__all__ = [
    "ActivateSuppression",
    "Aim",
    "AllOutAttack",
    "CastSpell",
    "Constrict",
    "CoupDeGrace",
    "Crawl",
    "Declared",
    "Delay",
    "DigOut",
    "Disarm",
    "Dismount",
    "Dodge",
    "Drag",
    "DrawStow",
    "Drive",
    "DropItem",
    "EmergencyFieldMedicine",
    "Escape",
    "EvasiveManeuvers",
    "Extinguish",
    "ExtraAttackStrike",
    "FallProne",
    "Feint",
    "FindDrain",
    "FireReadied",
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
    "KickOver",
    "LeanOut",
    "Mount",
    "OffHandStrike",
    "OpenDrain",
    "Overrun",
    "PickUp",
    "PowerStrike",
    "PsiStrike",
    "PushOff",
    "Rally",
    "Ram",
    "Ready",
    "ReleaseGrapple",
    "Reload",
    "SealGas",
    "Search",
    "SecondWind",
    "Shove",
    "Speak",
    "Sprint",
    "StabiliseWithMedicine",
    "Stand",
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
]
