"""What the tactical AI decides and how it is tuned: :class:`Choice`, :class:`Reason`, :class:`TacticalConfig`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ashfall.ai.targeting import Candidate


class Reason(Enum):
    """Why the AI chose an intent."""

    FLEE = "flee"
    FALL_BACK = "fall-back"
    STAND = "stand"
    HEAL_ALLY = "heal-ally"
    REACH_ALLY = "reach-ally"
    SECOND_WIND = "second-wind"
    WITHDRAW = "withdraw"
    RALLY = "rally"
    ESCAPE = "escape"
    MOVE_TO_ATTACK = "move-to-attack"
    ATTACK = "attack"
    APPROACH = "approach"
    RELOAD = "reload"
    DODGE = "dodge"
    SABOTAGE = "sabotage"


@dataclass(frozen=True, slots=True)
class Choice:
    """One decision: the intent, why, and the candidate attack behind it (if any)."""

    intent: Any
    reason: Reason
    candidate: Candidate | None = None


@dataclass(frozen=True, slots=True)
class TacticalConfig:
    """The policy's switches and weights.

    Attributes:
        brutal: Finish enemies that are down (dying PCs) when no standing enemy can be attacked.
        self_weight: How much a share of its own HP lost weighs against the same share of an enemy's removed.
        threat_weight: How much the ranged fire a square invites weighs (cover, distance from shooters).
        drop_step: Drop chances are compared in steps of this size (smaller differences do not decide).
        withdraw_below: Withdraw at or below this share of maximum HP when outmatched.
        second_wind_below: Use Second Wind below this share of maximum HP.
        second_wind_for_all: Every creature may use Second Wind (default: PCs and stat blocks with the talent).
        openers: Consider Feint, Trip and Aim before attacks.
        max_routes: The most squares weighed as places to attack from.
    """

    brutal: bool = False
    self_weight: float = 1.0
    threat_weight: float = 0.5
    drop_step: float = 0.05
    withdraw_below: float = 0.25
    second_wind_below: float = 0.5
    second_wind_for_all: bool = False
    openers: bool = True
    max_routes: int = 24


