"""Events of the fight itself: turns and rounds, actions and reactions, attacks, checks, damage, conditions, morale."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ashfall.content.schema import Armor, Creature, Shield, Weapon
from ashfall.core.morale import GroupMorale
from ashfall.engine.effects import TimedEffect
from ashfall.engine.events.records import LedgerLine, Part, RolledPart, RollRecord
from ashfall.engine.lasting import Readied
from ashfall.grid.board import Square
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.health import Health


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
class GmRuled:
    """The GM overrode the rules at the table (rule GM): what kind of override, on whom, and the GM's reason.

    The state changes that follow it (HP set, a condition, a move, the order …) are ordinary events tagged GM.
    """

    kind: str
    targets: tuple[str, ...]
    reason: str
    rule: str = "GM"
    type: Literal["gm-ruled"] = "gm-ruled"


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
class CombatEnded:
    """A side has won (every member of the others dead, dying, unconscious, fled or surrendered)."""

    winner: str | None
    round: int
    rule: str = "INIT-2"
    type: Literal["combat-ended"] = "combat-ended"


@dataclass(frozen=True, slots=True)
class CombatantJoined:
    """A creature joins the fight under way (the GM adds it), with its initiative and the order it takes its place in.

    It carries its whole stat block and gear and where it stands; the active creature keeps its turn.

    The event carries everything the creature is, so a replay builds it again whatever the library says later.
    """

    id: str
    name: str
    side: str
    creature: Creature
    weapons: tuple[Weapon, ...]
    armor: Armor | None
    shield: Shield | None
    health: Health
    position: Square | None
    controller: str
    initiative: int
    order: tuple[str, ...]
    rule: str = "GM"
    type: Literal["combatant-joined"] = "combatant-joined"


@dataclass(frozen=True, slots=True)
class CombatantLeft:
    """A creature leaves the fight (the GM removes it): out of the roster and the initiative order.

    When it was the active creature, no creature is active until the engine passes the turn on.
    """

    actor: str
    rule: str = "GM"
    type: Literal["combatant-left"] = "combatant-left"
