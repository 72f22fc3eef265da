"""Damage to destructible objects (OBJ-1..OBJ-10): the same ledger as creatures, without temporary HP or dying.

Objects have HP and Hardness (OBJ-1). Hardness comes off every hit before HP (OBJ-3) unless the type
ignores it (OBJ-5, X-06; fire on flammable objects, OBJ-10); piercing is halved unless the object is
fragile (OBJ-8); psychic and poison do nothing (OBJ-7); MIG and AGI saves fail (OBJ-6). Build the defenses with
:meth:`ashfall.rules.damage_defenses.Defenses.of_object`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType, Save
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_ledger import (
    DamageAdjuster,
    DamageRoll,
    LedgerRow,
    LedgerStep,
    absorb,
    damage_ledger,
)
from ashfall.ruleset import Ruleset

R_OBJECT_HP = rule("OBJ-1")
R_OBJECT_SAVES = rule("OBJ-6")

OBJECT_FAILED_SAVES = frozenset({Save.MIG, Save.REFLEX})
"""Saves an object fails automatically: MIG and AGI (the AGI save is Reflex, G-22) (OBJ-6)."""


def object_save_auto_fail(save: Save) -> RuleId | None:
    """The rule by which an object fails this save automatically (OBJ-6), or None if it must roll."""
    return R_OBJECT_SAVES if save in OBJECT_FAILED_SAVES else None


@dataclass(frozen=True, slots=True)
class ObjectDamageResult:
    """One damage event applied to an object.

    Attributes:
        hp_before: The object's HP before.
        hp_after: Its HP after (never below 0).
        rows: Every ledger row (G-39 steps 1-6, then HP).
        final: Damage per type after Hardness, material and immunities.
        destroyed: The object is at 0 HP.
        deflected_entirely: Deflect reduced every packet to 0 (RX-7).
    """

    hp_before: int
    hp_after: int
    rows: tuple[LedgerRow, ...]
    final: tuple[tuple[DamageType, int], ...]
    destroyed: bool
    deflected_entirely: bool = False

    @property
    def total(self) -> int:
        """Damage of all types the object had to absorb."""
        return sum(n for _, n in self.final)


def apply_object_damage(
    hp: int,
    damage: DamageRoll | Mapping[DamageType, int],
    defenses: Defenses,
    ruleset: Ruleset,
    *,
    critical: bool = False,
    deflect: int = 0,
    environment: Sequence[DamageAdjuster] = (),
) -> ObjectDamageResult:
    """Apply one damage event to an object with ``hp`` hit points.

    Args:
        hp: The object's current HP (>= 0).
        damage: A rolled :class:`DamageRoll` or plain amounts per type.
        defenses: The object's defenses (:meth:`Defenses.of_object`).
        ruleset: Every number and switch (``damage.hardness_bypass``, ``damage.object_piercing_halved`` ...).
        critical: A critical hit (dice already doubled when rolled).
        deflect: A Deflect reduction, if something deflects for the object.
        environment: Attack-side adjusters (G-39 step 2).

    Raises:
        ValueError: For negative HP.
    """
    if hp < 0:
        raise ValueError("object hp < 0")
    ledger = damage_ledger(damage, defenses, ruleset, critical=critical, deflect=deflect, environment=environment)
    left, _, hp_rows = absorb(ledger, hp, LedgerStep.HP, R_OBJECT_HP, "HP", dict(ledger.final))
    return ObjectDamageResult(hp, left, ledger.rows + hp_rows, ledger.final, left == 0, ledger.deflected_entirely)


__all__ = ["OBJECT_FAILED_SAVES", "ObjectDamageResult", "apply_object_damage", "object_save_auto_fail"]
