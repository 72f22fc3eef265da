"""The dying track: death saves, stabilising by Medicine check (edition 1) and waking from stabilised.

A creature at 0 HP is unconscious, prone and incapacitated (DEATH-1) and, while dying, rolls a death
save at the start of each of its turns (DEATH-2): a plain d20 with no modifiers and no advantage
(DEATH-4, G-21). Damage while dying is :mod:`ashfall.rules.damage`'s; healing a dying creature is
:func:`ashfall.families.dying.rules_healing.heal`'s. Asking a creature that is not dying to roll a death save is
refused with :class:`~ashfall.rules.errors.RuleViolation` (state untouched), not silently ignored;
:func:`start_of_turn` is the caller-friendly form that rolls only when one is due.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from ashfall.content.schema import Creature
from ashfall.core.d20 import D20Roll, roll_d20
from ashfall.core.dice import Roll, roll
from ashfall.core.modifiers import Modifier, RollSource
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.families.dying.rules_medicine import medicine_check
from ashfall.rules.checks import NATURAL_MAX, NATURAL_MIN, CheckResult
from ashfall.rules.dc import fixed_dc
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import DownState as DownState  # DEATH-1 lives with the health record, re-exported
from ashfall.rules.health import Health, Vitality
from ashfall.rules.health import down_conditions as down_conditions
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import StabiliseBy

DEATH_1 = rule("DEATH-1")
DEATH_2 = rule("DEATH-2")
DEATH_3 = rule("DEATH-3")
DEATH_4 = rule("DEATH-4")
DEATH_5 = rule("DEATH-5")
DEATH_6 = rule("DEATH-6")
DEATH_7 = rule("DEATH-7")
DEATH_8 = rule("DEATH-8")
DEATH_9 = rule("DEATH-9")
DEATH_14 = rule("DEATH-14")
DEATH_15 = rule("DEATH-15")
DEATH_17 = rule("DEATH-17")
C_STB = rule("C-STB")
E_31 = rule("E-31")
G_21 = rule("G-21")
G_38 = rule("G-38")
X_08 = rule("X-08")

_NOT_DYING: Mapping[Vitality, tuple[RuleId, str]] = MappingProxyType({
    Vitality.ALIVE: (DEATH_2, "only a dying creature (at 0 HP) rolls death saves"),
    Vitality.STABILIZED: (DEATH_14, "a stabilised creature makes no death saves"),
    Vitality.DEAD: (DEATH_3, "the creature is dead"),
})


def require_dying(health: Health) -> None:
    """Refuse unless the creature is dying and uses death saves.

    Raises:
        RuleViolation: Citing DEATH-2 (alive), DEATH-14 (stabilised), DEATH-3 (dead) or G-38 (an NPC
            that dies at 0 HP instead of rolling).
    """
    if health.vitality is not Vitality.DYING:
        rule_id, reason = _NOT_DYING[health.vitality]
        raise RuleViolation(rule_id, reason)
    if not health.uses_death_saves:
        raise RuleViolation(G_38, "this creature dies at 0 HP instead of making death saves")


# ----- death saves (DEATH-2 to DEATH-9) -----


class DeathSaveOutcome(Enum):
    """What one death save marked."""

    SUCCESS = "success"
    FAILURE = "failure"
    DOUBLE_FAILURE = "double-failure"
    NATURAL_20 = "natural-20"


@dataclass(frozen=True, slots=True)
class DeathSaveResult:
    """One death save.

    Attributes:
        health: The creature afterwards (counters reset when it stabilised, died or woke, DEATH-9).
        before: The creature before.
        roll: The d20 (no modifiers, no advantage: DEATH-4, G-21).
        outcome: What the face marked.
        successes: Successes tallied after this save (before any reset).
        failures: Failures tallied after this save (before any reset).
        rules: Every rule applied, in order.
    """

    health: Health
    before: Health
    roll: D20Roll
    outcome: DeathSaveOutcome
    successes: int
    failures: int
    rules: tuple[RuleId, ...]

    @property
    def vitality(self) -> Vitality:
        """Where the creature stands after the save."""
        return self.health.vitality


def _classify(natural: int, ruleset: Ruleset) -> tuple[DeathSaveOutcome, int, int, RuleId]:
    """(outcome, successes marked, failures marked, rule) for a face other than a natural 20."""
    opts = ruleset.dying
    if natural == NATURAL_MIN:
        return DeathSaveOutcome.DOUBLE_FAILURE, 0, opts.natural_1_failures, DEATH_8
    if natural >= opts.save_success_min:
        return DeathSaveOutcome.SUCCESS, 1, 0, DEATH_5
    return DeathSaveOutcome.FAILURE, 0, 1, DEATH_6


def _stabilised_hp(health: Health, ruleset: Ruleset) -> int:
    """HP of a creature stabilised by death saves or a Medicine check: 0 (X-08), or ``dying.stabilised_hp``."""
    return min(health.max_hp, ruleset.dying.stabilised_hp)


def death_save(health: Health, rng: Rng, ruleset: Ruleset) -> DeathSaveResult:
    """Roll one death save for a dying creature.

    10-19 marks a success, 2-9 a failure, a natural 1 two failures; a natural 20 restores 1 HP and
    consciousness. Three successes stabilise (0 HP, unconscious, no more saves); three failures kill.

    Raises:
        RuleViolation: The creature is not dying (see :func:`require_dying`); nothing is rolled.
    """
    require_dying(health)
    opts = ruleset.dying
    rolled = roll_d20(rng)  # DEATH-4 / G-21: no modifiers, no advantage sources
    base = (DEATH_4, G_21)
    if rolled.natural == NATURAL_MAX:
        hp = min(health.max_hp, opts.natural_20_hp)
        after = health.evolve(hp=hp, vitality=Vitality.ALIVE, successes=0, failures=0)
        return DeathSaveResult(after, health, rolled, DeathSaveOutcome.NATURAL_20, health.successes,
                               health.failures, (*base, DEATH_7, DEATH_9))
    outcome, add_s, add_f, mark = _classify(rolled.natural, ruleset)
    successes, failures = health.successes + add_s, health.failures + add_f
    if failures >= opts.failures_to_die:
        after = health.evolve(vitality=Vitality.DEAD, successes=0, failures=0)
        rules: tuple[RuleId, ...] = (*base, mark, DEATH_3)
    elif successes >= opts.successes_to_stabilise:
        after = health.evolve(hp=_stabilised_hp(health, ruleset), vitality=Vitality.STABILIZED, successes=0,
                              failures=0)
        rules = (*base, mark, DEATH_3, DEATH_14, DEATH_9)
    else:
        after = health.evolve(successes=successes, failures=failures)
        rules = (*base, mark)
    return DeathSaveResult(after, health, rolled, outcome, successes, failures, rules)


def start_of_turn(health: Health, rng: Rng, ruleset: Ruleset) -> DeathSaveResult | None:
    """The start-of-turn step (DEATH-2): a death save if the creature is dying and uses them, else None."""
    if health.vitality is not Vitality.DYING or not health.uses_death_saves:
        return None
    return death_save(health, rng, ruleset)


# ----- stabilising by Medicine check (edition 1 only: E-31, DEATH-17) -----


@dataclass(frozen=True, slots=True)
class MedicineStabiliseResult:
    """Edition 1's Medicine DC 10 check to stabilise (1 action)."""

    health: Health
    check: CheckResult
    actions: int
    rules: tuple[RuleId, ...]


def stabilize_with_medicine(
    health: Health,
    medic: Creature,
    rng: Rng,
    ruleset: Ruleset,
    *,
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    extra: Sequence[Modifier] = (),
) -> MedicineStabiliseResult:
    """Stabilise a dying creature with a Medicine check (edition 1: DC 10, 1 action, E-31).

    On a success the target is stabilised: unconscious at 0 HP, no more death saves, counters reset.

    Raises:
        RuleViolation: The ruleset lets only healing stabilise (edition 2, DEATH-17), or the target is
            not dying; nothing is rolled and the state is untouched.
    """
    opts = ruleset.dying
    if opts.stabilise_by is not StabiliseBy.HEALING_OR_MEDICINE_CHECK:
        raise RuleViolation(DEATH_17, "only healing stabilises a dying creature; there is no Medicine check for it")
    require_dying(health)
    check = medicine_check(medic, fixed_dc(opts.medicine_stabilise_dc, E_31, "DC"), rng, ruleset,
                           conditions=conditions, sources=sources, extra=extra)
    if not check.success:
        return MedicineStabiliseResult(health, check, opts.medicine_stabilise_actions, (E_31,))
    after = health.evolve(hp=_stabilised_hp(health, ruleset), vitality=Vitality.STABILIZED, successes=0, failures=0)
    return MedicineStabiliseResult(after, check, opts.medicine_stabilise_actions, (E_31, DEATH_14, DEATH_9))


# ----- waking from stabilised (DEATH-15, X-08) -----


@dataclass(frozen=True, slots=True)
class WakeResult:
    """A stabilised creature waking on its own after 1d4 hours at 1 HP."""

    health: Health
    hours: Roll
    rules: tuple[RuleId, ...]


def stabilized_wake(health: Health, rng: Rng, ruleset: Ruleset) -> WakeResult:
    """Roll when a stabilised creature (at 0 HP, X-08) wakes, and wake it with 1 HP (DEATH-15).

    Raises:
        RuleViolation: The creature is not stabilised (C-STB).
    """
    if health.vitality is not Vitality.STABILIZED:
        raise RuleViolation(C_STB, "only a stabilised creature wakes on its own after 1d4 hours")
    opts = ruleset.dying
    hours = roll(opts.stabilised_wake, rng)
    after = health.evolve(hp=min(health.max_hp, opts.stabilised_wake_hp), vitality=Vitality.ALIVE,
                          successes=0, failures=0)
    return WakeResult(after, hours, (DEATH_15, X_08, C_STB))
