"""Damage to creatures: the whole G-39 ledger, temporary HP, HP, massive damage and the dying track.

:func:`roll_damage` and steps 1-6 (crit dice, environment, Deflect, DR, resistance ...) live in
:mod:`ashfall.rules.damage_ledger` and are re-exported here. This module adds steps 7-9:
temporary HP absorb first (THP-1), then HP (never below 0), then massive damage (MASS-1..3, G-50)
and the dying track (DEATH-1, DEATH-10..12, DEATH-14, G-38). It also grants temporary HP
(:func:`grant_temp_hp`, THP-2, THP-4). Healing lives elsewhere and never restores temporary HP (THP-3).

"Damage taken" for massive damage and for the failures of a creature at 0 HP is the damage left
after temporary HP (``damage.massive_damage_basis``, G-50); a hit fully absorbed by temporary HP
or negated by immunity marks no failure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_ledger import (
    DamageAdjuster,
    DamageRoll,
    Ledger,
    LedgerRow,
    LedgerStep,
    PartRoll,
    absorb,
    damage_ledger,
    roll_damage,
)
from ashfall.rules.health import Health, Vitality, falls_dying
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import MassiveDamageBasis

R_TEMP = rule("THP-1")
R_TEMP_NO_STACK = rule("THP-2")
R_WARD = rule("THP-4")
R_HP = rule("G-39")
R_MASSIVE = rule("MASS-1")
R_MASSIVE_AT_ZERO = rule("MASS-3")
R_DROP = rule("DEATH-1")
R_THREE_FAILURES = rule("DEATH-3")
R_DAMAGE_WHILE_DYING = rule("DEATH-10")
R_CRIT_WHILE_DYING = rule("DEATH-11")
R_OVERKILL = rule("DEATH-12")
R_RESUME_DYING = rule("DEATH-14")
R_NPC_DIES = rule("G-38")


@dataclass(frozen=True, slots=True)
class DamageResult:
    """One damage event applied to a creature, with the full ledger.

    Attributes:
        health_before: Health before the damage.
        health_after: Health after it (the engine stores this).
        rows: Every ledger row in step order (G-39).
        final: Damage per type after step 6 (before temporary HP), in order of appearance.
        total_to_temp: Temporary HP lost (THP-1).
        total_to_hp: HP lost (HP never go below 0).
        massive_counted: The damage counted for massive damage and dying failures (G-50).
        dropped_to_zero: The creature was up and is now at 0 HP.
        killed: The rule that killed it (MASS-1, MASS-3, DEATH-12, DEATH-3, G-38), or None.
        status_rule: The rule that changed its vitality (DEATH-1, DEATH-14, or the killing rule), or None.
        death_failures_added: Death-save failures marked (DEATH-10, DEATH-11).
        death_failure_rule: DEATH-10 or DEATH-11 when failures were marked, else None.
        conditions_gained: Conditions the engine applies, with their rule (UNCONSCIOUS, PRONE: DEATH-1).
        critical: Whether the hit was a critical hit.
        deflected_entirely: Deflect reduced every packet to 0 (RX-7).
        source: What dealt the damage (for presenters and events).
    """

    health_before: Health
    health_after: Health
    rows: tuple[LedgerRow, ...]
    final: tuple[tuple[DamageType, int], ...]
    total_to_temp: int
    total_to_hp: int
    massive_counted: int
    dropped_to_zero: bool
    killed: RuleId | None
    status_rule: RuleId | None
    death_failures_added: int
    death_failure_rule: RuleId | None
    conditions_gained: tuple[tuple[Condition, RuleId], ...]
    critical: bool
    deflected_entirely: bool
    source: str = ""

    @property
    def total(self) -> int:
        """Damage of all types after step 6 (what temporary HP and HP had to absorb)."""
        return sum(n for _, n in self.final)

    def amount(self, damage_type: DamageType) -> int:
        """Final damage of one type (0 if the event had none)."""
        return dict(self.final).get(damage_type, 0)

    @property
    def immune_types(self) -> frozenset[DamageType]:
        """Types negated by immunity; an ability's other effects still apply (PSI-12)."""
        return frozenset(r.type for r in self.rows if r.step is LedgerStep.IMMUNITY)


@dataclass(frozen=True, slots=True)
class _Outcome:
    health: Health
    killed: RuleId | None = None
    status_rule: RuleId | None = None
    failures_added: int = 0
    failure_rule: RuleId | None = None
    conditions: tuple[tuple[Condition, RuleId], ...] = ()


def _dead(health: Health, why: RuleId) -> _Outcome:
    return _Outcome(health.evolve(hp=0, vitality=Vitality.DEAD), why, why)


def _on_alive(after: Health, before: Health, counted: int, hit: int, critical: bool, rs: Ruleset) -> _Outcome:
    if rs.damage.massive_damage and counted > 0 and before.hp - counted <= -before.max_hp:
        return _dead(after, R_MASSIVE)
    if after.hp > 0 or hit <= 0:
        return _Outcome(after)
    if falls_dying(before, rs):
        dying = after.evolve(vitality=Vitality.DYING, successes=0, failures=0)
        return _Outcome(dying, None, R_DROP, conditions=((Condition.UNCONSCIOUS, R_DROP), (Condition.PRONE, R_DROP)))
    return _dead(after, R_NPC_DIES)


def _on_dying(after: Health, before: Health, counted: int, hit: int, critical: bool, rs: Ruleset) -> _Outcome:
    if counted <= 0:
        return _Outcome(after)
    if counted >= before.max_hp:
        return _dead(after, R_OVERKILL)
    added, why = (rs.dying.crit_failures, R_CRIT_WHILE_DYING) if critical else (
        rs.dying.damage_failures, R_DAMAGE_WHILE_DYING)
    failures = after.failures + added
    if failures >= rs.dying.failures_to_die:
        dead = _dead(after.evolve(failures=failures), R_THREE_FAILURES)
        return _Outcome(dead.health, dead.killed, dead.status_rule, added, why)
    return _Outcome(after.evolve(failures=failures), None, None, added, why)


def _on_stabilized(after: Health, before: Health, counted: int, hit: int, critical: bool, rs: Ruleset) -> _Outcome:
    if counted <= 0:
        return _Outcome(after)
    if rs.damage.massive_damage and counted >= before.max_hp:
        return _dead(after, R_MASSIVE_AT_ZERO)
    if not rs.damage.stabilized_damage_resumes_dying:
        return _Outcome(after)
    resumed = after.evolve(vitality=Vitality.DYING, successes=0, failures=0)
    out = _on_dying(resumed, before, counted, hit, critical, rs)
    return _Outcome(out.health, out.killed, out.status_rule or R_RESUME_DYING, out.failures_added, out.failure_rule)


def _on_dead(after: Health, before: Health, counted: int, hit: int, critical: bool, rs: Ruleset) -> _Outcome:
    return _Outcome(after)


_BY_VITALITY: dict[Vitality, Callable[[Health, Health, int, int, bool, Ruleset], _Outcome]] = {
    Vitality.ALIVE: _on_alive,
    Vitality.DYING: _on_dying,
    Vitality.STABILIZED: _on_stabilized,
    Vitality.DEAD: _on_dead,
}


def apply_damage(
    health: Health,
    damage: DamageRoll | Mapping[DamageType, int],
    defenses: Defenses,
    ruleset: Ruleset,
    *,
    critical: bool = False,
    deflect: int = 0,
    ignore_armor_dr: bool = False,
    environment: Sequence[DamageAdjuster] = (),
    source: str = "",
) -> DamageResult:
    """Apply one damage event to a creature, step by step in the G-39 order.

    Args:
        health: The creature's health before the damage.
        damage: A rolled :class:`DamageRoll` or plain amounts per type (one damage event, G-50).
        defenses: The creature's defenses (:meth:`Defenses.of_creature`).
        ruleset: Every number and switch.
        critical: A critical hit (also taken from a DamageRoll); two failures if dying (DEATH-11).
        deflect: The Deflect reduction already rolled (RX-7), spread largest packet first.
        ignore_armor_dr: A Weak Point called shot ignores armor DR (CS-5, DR-7).
        environment: Attack-side adjusters (G-39 step 2).
        source: What dealt the damage.

    Returns:
        The new health, every ledger row, and what happened on the dying track.
    """
    ledger = damage_ledger(damage, defenses, ruleset, critical=critical, deflect=deflect,
                           ignore_armor_dr=ignore_armor_dr, environment=environment)
    temp_pool = 0 if health.is_dead else health.temp_hp  # a corpse's pools absorb nothing
    temp_label = health.temp_source or "temporary HP"
    temp_left, left, temp_rows = absorb(ledger, temp_pool, LedgerStep.TEMP_HP, R_TEMP, temp_label,
                                        dict(ledger.final))
    hp_left, _, hp_rows = absorb(ledger, health.hp, LedgerStep.HP, R_HP, "HP", left)
    hit = sum(left.values())
    basis = ruleset.damage.massive_damage_basis
    counted = hit if basis is MassiveDamageBasis.AFTER_TEMP_HP else ledger.total
    emptied = temp_left == 0 < temp_pool
    after = health.evolve(hp=hp_left, temp_hp=health.temp_hp - (temp_pool - temp_left),
                          temp_source="" if emptied else health.temp_source)
    out = _BY_VITALITY[health.vitality](after, health, counted, hit, ledger.critical, ruleset)
    return DamageResult(
        health_before=health,
        health_after=out.health,
        rows=ledger.rows + temp_rows + hp_rows,
        final=ledger.final,
        total_to_temp=temp_pool - temp_left,
        total_to_hp=health.hp - hp_left,
        massive_counted=counted,
        dropped_to_zero=health.vitality is Vitality.ALIVE and health.hp > 0 and hp_left == 0,
        killed=out.killed,
        status_rule=out.status_rule,
        death_failures_added=out.failures_added,
        death_failure_rule=out.failure_rule,
        conditions_gained=out.conditions,
        critical=ledger.critical,
        deflected_entirely=ledger.deflected_entirely,
        source=source,
    )


# ----- temporary HP grants -----


@dataclass(frozen=True, slots=True)
class TempHpResult:
    """A temporary-HP grant: the new health, whether it changed anything, and the rule (THP-2 or THP-4)."""

    health: Health
    applied: bool
    rule: RuleId


def grant_temp_hp(
    health: Health, amount: int, source: str, ruleset: Ruleset, *, stacking_max: int | None = None
) -> TempHpResult:
    """Grant temporary HP: they never stack, the higher amount stays (THP-2, THP-5).

    The one exception is a self-stacking source such as the Mystic's Arcane Ward (``stacking_max``
    given, ``damage.arcane_ward_stacks`` on): a grant from the source that granted the current
    temporary HP adds to them, up to ``stacking_max`` (THP-4, E-28). Healing never restores
    temporary HP; only a new grant by an ability refreshes them (THP-3). With stacking off
    (edition 1) a ward grant is an ordinary grant, still capped at ``stacking_max``.

    Args:
        health: The creature's health.
        amount: Temporary HP the ability grants (>= 0).
        source: What grants them (e.g. ``"arcane-ward"``, ``"second-wind"``).
        ruleset: Supplies ``damage.arcane_ward_stacks``.
        stacking_max: The self-stacking source's maximum, or None for an ordinary source.

    Raises:
        ValueError: For a negative amount.
    """
    if amount < 0:
        raise ValueError("temporary HP grant < 0")
    old = health.temp_hp
    if stacking_max is not None and ruleset.damage.arcane_ward_stacks:
        base = old if health.temp_source == source else 0
        new, why = min(base + amount, stacking_max), R_WARD
    else:
        new = amount if stacking_max is None else min(amount, stacking_max)
        why = R_TEMP_NO_STACK
    if new <= old:
        return TempHpResult(health, False, why)
    return TempHpResult(health.evolve(temp_hp=new, temp_source=source), True, why)


__all__ = [
    "DamageAdjuster",
    "DamageResult",
    "DamageRoll",
    "Ledger",
    "LedgerRow",
    "LedgerStep",
    "PartRoll",
    "TempHpResult",
    "apply_damage",
    "damage_ledger",
    "grant_temp_hp",
    "roll_damage",
]
