"""Returning the dead: Resurrection (edition 2), Revive (edition 1) and True Resurrection (RES-1 to RES-3, E-32).

Each function checks the target is dead, that the soul is willing and the death not final (RES-3,
a GM input), and that the time since death is within the spell's limit; then it returns the living
creature and the price. Edition 2's Resurrection adds 3 Exhaustion levels that come off one per long
rest (X-07); edition 1's Revive instead takes 1 point from an attribute chosen at random with the
rng (E-32). True Resurrection restores full HP, leaves Exhaustion at max(current, 3) (G-17) and
gives -4 to all rolls for a week as a :class:`~ashfall.core.modifiers.Modifier` citing RES-2.
Spell slots, components and tier gating are the caller's to check; the result states what they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute
from ashfall.families.dying.rules_recovery import Recovery
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import ResurrectionCost

RES_1 = rule("RES-1")
RES_2 = rule("RES-2")
RES_3 = rule("RES-3")
E_32 = rule("E-32")
G_17 = rule("G-17")
X_07 = rule("X-07")

ATTRIBUTES: tuple[Attribute, ...] = tuple(Attribute)
"""The attributes Revive may take a point from, in the order a die face picks them (1 = MIG ... 6 = PRE)."""


@dataclass(frozen=True, slots=True)
class AttributeLoss:
    """Revive's price: ``points`` permanently lost from ``attribute``, picked by ``face`` on a d6 (E-32)."""

    attribute: Attribute
    points: int
    face: int


@dataclass(frozen=True, slots=True)
class ResurrectionResult:
    """A creature brought back.

    Attributes:
        health: Alive, at 1 HP (Resurrection, Revive) or full HP (True Resurrection); no temporary HP.
        recovery: Exhaustion changed as the spell says.
        spell_level: The spell's level (7, 6 for Revive, 9).
        hours: Casting time.
        credits: Component cost.
        essence: Essence consumed (Resurrection only).
        exhaustion_added: Exhaustion levels the creature gained (total, after the cap).
        attribute_loss: Revive's lost attribute point (edition 1), else None.
        penalty: True Resurrection's -4 to all rolls, else None.
        penalty_days: How long ``penalty`` lasts.
        rules: Every rule applied.
    """

    health: Health
    recovery: Recovery
    spell_level: int
    hours: int
    credits: int
    essence: int
    exhaustion_added: int
    attribute_loss: AttributeLoss | None
    penalty: Modifier | None
    penalty_days: int
    rules: tuple[RuleId, ...]


def _require(health: Health, willing: bool, final: bool) -> None:
    if not health.is_dead:
        raise RuleViolation(RES_1, "only the dead can be resurrected")
    if final:
        raise RuleViolation(RES_3, "this death is final (the soul is destroyed, cursed or otherwise beyond reach)")
    if not willing:
        raise RuleViolation(RES_3, "the soul is not willing to return")


def _returned(health: Health, hp: int) -> Health:
    return health.evolve(hp=min(health.max_hp, hp), temp_hp=0, temp_source="", vitality=Vitality.ALIVE,
                         successes=0, failures=0)


def _cap_room(recovery: Recovery, ruleset: Ruleset) -> int:
    return max(0, ruleset.conditions.exhaustion_max - recovery.total_exhaustion)


_Cost = tuple[Recovery, int, AttributeLoss | None, tuple[RuleId, ...]]


def _exhaustion_cost(recovery: Recovery, rng: Rng, ruleset: Ruleset) -> _Cost:
    added = min(ruleset.healing.resurrection_exhaustion, _cap_room(recovery, ruleset))
    after = recovery.evolve(resurrection_exhaustion=recovery.resurrection_exhaustion + added)
    return after, added, None, (X_07, G_17)


def _attribute_cost(recovery: Recovery, rng: Rng, ruleset: Ruleset) -> _Cost:
    face = rng.roll(len(ATTRIBUTES))
    loss = AttributeLoss(ATTRIBUTES[face - 1], ruleset.healing.resurrection_attribute_loss, face)
    return recovery, 0, loss, (E_32,)


_COSTS: Mapping[ResurrectionCost, Callable[[Recovery, Rng, Ruleset], _Cost]] = MappingProxyType({
    ResurrectionCost.EXHAUSTION: _exhaustion_cost,
    ResurrectionCost.ATTRIBUTE_LOSS: _attribute_cost,
})


def resurrect(
    health: Health,
    recovery: Recovery,
    rng: Rng,
    ruleset: Ruleset,
    *,
    days_dead: int,
    willing: bool = True,
    final: bool = False,
) -> ResurrectionResult:
    """Cast Resurrection (edition 2, 7th level) or Revive (edition 1, 6th level) on a creature dead ``days_dead`` days.

    The rng is used only for Revive's random attribute.

    Raises:
        RuleViolation: The target is not dead or has been dead too long (RES-1); the soul is
            unwilling or the death final (RES-3).
    """
    _require(health, willing, final)
    opts = ruleset.healing
    if days_dead > opts.resurrection_max_days_dead:
        raise RuleViolation(RES_1, f"dead {days_dead} days; the limit is {opts.resurrection_max_days_dead}")
    after, added, loss, cost_rules = _COSTS[opts.resurrection_cost](recovery, rng, ruleset)
    return ResurrectionResult(
        _returned(health, opts.resurrection_hp), after, opts.resurrection_level, opts.resurrection_hours,
        opts.resurrection_credits, opts.resurrection_essence, added, loss, None, 0, (RES_1, RES_3, *cost_rules),
    )


def true_resurrection(
    health: Health,
    recovery: Recovery,
    ruleset: Ruleset,
    *,
    years_dead: float,
    willing: bool = True,
    final: bool = False,
) -> ResurrectionResult:
    """Cast True Resurrection (9th level, Mythic Tier) on a creature dead ``years_dead`` years (even disintegrated).

    Raises:
        RuleViolation: The target is not dead or has been dead too long (RES-2); the soul is
            unwilling or the death final (RES-3).
    """
    _require(health, willing, final)
    opts = ruleset.healing
    if years_dead > opts.true_resurrection_max_years_dead:
        raise RuleViolation(RES_2, f"dead {years_dead} years; the limit is {opts.true_resurrection_max_years_dead}")
    level = opts.true_resurrection_exhaustion
    wanted = max(0, level - recovery.total_exhaustion) if opts.true_resurrection_sets_exhaustion else level
    added = min(wanted, _cap_room(recovery, ruleset))
    after = recovery.evolve(exhaustion=recovery.exhaustion + added)
    penalty = Modifier(opts.true_resurrection_penalty, ModifierKind.UNTYPED, RES_2, "True Resurrection")
    return ResurrectionResult(
        _returned(health, health.max_hp), after, opts.true_resurrection_level, opts.true_resurrection_hours,
        opts.true_resurrection_credits, 0, added, None, penalty, opts.true_resurrection_penalty_days,
        (RES_2, RES_3, G_17, X_07),
    )
