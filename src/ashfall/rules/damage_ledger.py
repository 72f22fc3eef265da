"""Rolling damage parts and steps 1-6 of the damage ledger (G-39), shared by creatures and objects.

Order (G-39), each damage type separately, each change a :class:`LedgerRow` naming its rule:

1. rolled, dice doubled on a crit (CRIT-2, G-40), never below ``damage.minimum_damage`` (G-42);
2. attack-side environment adjusters (:class:`DamageAdjuster`, e.g. underwater fire, thunder);
3. Deflect (RX-7): one number spread over the types, **largest packet first** (ties: the type that
   appeared first), each packet to a minimum of 0, the remainder carried to the next packet
   (``damage.deflect_step = after-resistance`` moves it after step 6);
4. DR, summing different sources (DR-1..DR-7, PSI-10), or an object's Hardness (OBJ-3..OBJ-5, OBJ-10);
5. objects: piercing halved unless fragile (OBJ-8), bludgeoning full (OBJ-9);
6. immunity 0 (RVI-3), resistance ×½ rounded down (RVI-1), vulnerability ×2 (RVI-2), both cancel (G-43);
7. temporary HP absorb first (THP-1), types in order of appearance; 8. HP, never below 0;
9. massive damage and the dying track (MASS, DEATH-1, DEATH-10..12, G-38, G-50).

Steps 7-9 for creatures are in :mod:`ashfall.rules.damage` (``apply_damage``), for objects in
:mod:`ashfall.families.objects.rules` (``apply_object_damage``); both use :func:`damage_ledger` and :func:`absorb`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from ashfall.core.dice import BinOp, Const, DiceExpr, Node, Roll, roll
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import DamageType
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_spec import DamagePart
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import CritDice, DeflectStep, ResistVuln

R_ROLLED = rule("DMG-1")
R_CRIT = rule("CRIT-2")
R_MINIMUM = rule("G-42")
R_ORDER = rule("G-39")
R_DEFLECT = rule("RX-7")
R_HARDNESS = rule("OBJ-3")
R_HARDNESS_STOPS = rule("OBJ-4")
R_PIERCING = rule("OBJ-8")
R_VULNERABLE = rule("RVI-2")
R_CANCEL = rule("G-43")

_IGNORED_LABELS: dict[str, str] = {"DR-7": "armor DR ignored", "PSI-10": "physical DR", "E-27": "armor DR only"}


class LedgerStep(Enum):
    """The G-39 steps a damage packet goes through, in order."""

    ROLLED = "rolled"
    MINIMUM = "minimum"
    ENVIRONMENT = "environment"
    DEFLECT = "deflect"
    DR = "dr"
    HARDNESS = "hardness"
    OBJECT_MATERIAL = "object-material"
    IMMUNITY = "immunity"
    RESISTANCE = "resistance"
    VULNERABILITY = "vulnerability"
    TEMP_HP = "temp-hp"
    HP = "hp"


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One step's effect on one damage type's amount.

    For every step ``before``/``after`` are the packet's damage entering and leaving the step: for
    TEMP_HP and HP rows the difference is what the pool absorbed (an HP row's ``after`` is overkill).
    Rows with ``before == after`` explain why nothing changed (immunity of a 0 packet, PSI-10, G-43 ...).
    """

    step: LedgerStep
    type: DamageType
    before: int
    after: int
    rule: RuleId
    label: str

    @property
    def change(self) -> int:
        """``after - before`` (negative when damage was removed)."""
        return self.after - self.before


class DamageAdjuster(Protocol):
    """An attack-side environment change (G-39 step 2): ``(type, amount) -> (amount, rule, label)``."""

    def __call__(self, damage_type: DamageType, amount: int) -> tuple[int, RuleId, str]:
        """Return the new amount with the rule and label; return ``amount`` unchanged when not affected."""
        ...


@dataclass(frozen=True, slots=True)
class PartRoll:
    """One rolled :class:`DamagePart`: its dice roll (None for flat parts), whether doubled, and its total."""

    part: DamagePart
    roll: Roll | None
    doubled: bool
    total: int


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """Every rolled part and the totals per damage type, in order of first appearance."""

    parts: tuple[PartRoll, ...]
    critical: bool
    totals: tuple[tuple[DamageType, int], ...]

    @property
    def total(self) -> int:
        """Sum over all types (before any clamping)."""
        return sum(n for _, n in self.totals)

    def by_type(self) -> dict[DamageType, int]:
        """Totals as a dict (insertion order = first appearance)."""
        return dict(self.totals)


def crit_doubles(part: DamagePart, ruleset: Ruleset) -> bool:
    """Whether a critical hit doubles this part's dice (CRIT-2, G-40): every die, or only the weapon's own.

    ``attack.crit_dice`` picks all dice (default) or only ``weapon_dice`` parts; flat amounts are added once.
    """
    return part.dice is not None and (ruleset.attack.crit_dice is CritDice.ALL_DICE or part.weapon_dice)


def damage_expression(parts: Sequence[DamagePart], ruleset: Ruleset, *, critical: bool = False) -> DiceExpr:
    """The damage of a hit as one expression, for exact odds: what :func:`roll_damage` rolls.

    The parts' dice are added (on a crit doubled as :func:`crit_doubles` says), their flat amounts once.
    """
    root: Node | None = None
    flat = 0
    for p in parts:
        flat += p.flat
        if p.dice is not None:
            dice = p.dice.doubled() if critical and crit_doubles(p, ruleset) else p.dice
            root = dice.root if root is None else BinOp("+", root, dice.root)
    return DiceExpr(root if root is not None else Const(0)).plus(flat)


def at_least_minimum(amount: int, minimum: int) -> int:
    """Rolled damage never below the minimum damage (G-42, ``damage.minimum_damage``)."""
    return amount if amount >= minimum else minimum


def after_reduction(amount: int, reduction: int) -> int:
    """Damage less DR or Hardness, never below 0 (DR-1, OBJ-3)."""
    return max(amount - reduction, 0)


def resisted(amount: int, divisor: int) -> int:
    """Damage against a resistance: divided, rounded down (RVI-1, ``damage.resistance_divisor``)."""
    return amount // divisor


def made_vulnerable(amount: int, multiplier: int) -> int:
    """Damage against a vulnerability: multiplied (RVI-2, ``damage.vulnerability_multiplier``)."""
    return amount * multiplier


def resistance_cancels(resist: bool, vulnerable: bool, ruleset: Ruleset) -> bool:
    """Whether resistance and vulnerability to the same damage cancel out (G-43, ``damage.resist_vuln``)."""
    return resist and vulnerable and ruleset.damage.resist_vuln is ResistVuln.CANCEL


def roll_damage(parts: Sequence[DamagePart], rng: Rng, ruleset: Ruleset, *, critical: bool) -> DamageRoll:
    """Roll every damage part; on a crit double the dice, add flat amounts once (CRIT-2, G-40).

    Args:
        parts: The labelled parts (weapon dice, MIG, Power Strike, Brace ...).
        rng: Where the faces come from.
        ruleset: ``attack.crit_dice`` picks all dice (default) or only ``weapon_dice`` parts.
        critical: Whether the hit is a critical hit.
    """
    rolled: list[PartRoll] = []
    for part in parts:
        doubled = critical and crit_doubles(part, ruleset)
        result = None
        if part.dice is not None:
            result = roll(part.dice.doubled() if doubled else part.dice, rng)
        rolled.append(PartRoll(part, result, doubled, (result.total if result else 0) + part.flat))
    return DamageRoll(tuple(rolled), critical, _sum_by_type((p.part.type, p.total) for p in rolled))


def _sum_by_type(items: Iterable[tuple[DamageType, int]]) -> tuple[tuple[DamageType, int], ...]:
    sums: dict[DamageType, int] = {}
    for damage_type, amount in items:
        sums[damage_type] = sums.get(damage_type, 0) + amount
    return tuple(sums.items())


# ----- steps 1-6: the per-type ledger -----


@dataclass(frozen=True, slots=True)
class Ledger:
    """Steps 1-6 of G-39: the rows and each type's damage before temporary HP."""

    rows: tuple[LedgerRow, ...]
    final: tuple[tuple[DamageType, int], ...]
    critical: bool
    deflected_entirely: bool

    @property
    def total(self) -> int:
        """Damage of all types together after step 6."""
        return sum(n for _, n in self.final)


@dataclass(frozen=True, slots=True)
class _Context:
    defenses: Defenses
    ruleset: Ruleset
    critical: bool
    deflect: int
    ignore_armor_dr: bool
    environment: Sequence[DamageAdjuster]


@dataclass(slots=True)
class _Book:
    """Working amounts and rows while one damage event is resolved (local to one call)."""

    amounts: dict[DamageType, int]
    rows: list[LedgerRow] = field(default_factory=list)
    deflected: bool = False

    def set(self, step: LedgerStep, t: DamageType, after: int, why: RuleId, label: str, force: bool = False) -> None:
        before = self.amounts[t]
        if after != before or force:
            self.rows.append(LedgerRow(step, t, before, after, why, label))
        self.amounts[t] = after


def _rolled(book: _Book, ctx: _Context) -> None:
    minimum = ctx.ruleset.damage.minimum_damage
    for t, amount in book.amounts.items():
        book.set(LedgerStep.ROLLED, t, amount, R_CRIT if ctx.critical else R_ROLLED,
                 "critical" if ctx.critical else "rolled", force=True)
        if amount < minimum:
            book.set(LedgerStep.MINIMUM, t, at_least_minimum(amount, minimum), R_MINIMUM, "minimum damage")


def _environment(book: _Book, ctx: _Context) -> None:
    for adjuster in ctx.environment:
        for t, amount in book.amounts.items():
            after, why, label = adjuster(t, amount)
            book.set(LedgerStep.ENVIRONMENT, t, max(after, ctx.ruleset.damage.minimum_damage), why, label)


def _deflect(book: _Book, ctx: _Context) -> None:
    remaining = max(ctx.deflect, 0)
    if not remaining:
        return
    order = list(book.amounts)
    for t in sorted(order, key=lambda k: (-book.amounts[k], order.index(k))):
        cut = min(book.amounts[t], remaining)
        remaining -= cut
        book.set(LedgerStep.DEFLECT, t, book.amounts[t] - cut, R_DEFLECT, "Deflect")
    book.deflected = sum(book.amounts.values()) == 0


def _dr(book: _Book, ctx: _Context) -> None:
    for t, amount in book.amounts.items():
        total = ctx.defenses.dr_against(t, ctx.ruleset, ignore_armor_dr=ctx.ignore_armor_dr)
        if amount > 0:
            for why in total.ignored:
                book.set(LedgerStep.DR, t, amount, why, _IGNORED_LABELS.get(why, "DR ignored"), force=True)
        if total.amount:
            book.set(LedgerStep.DR, t, after_reduction(amount, total.amount), total.rule, "+".join(total.sources))


def _hardness(book: _Book, ctx: _Context) -> None:
    hardness = ctx.defenses.hardness
    for t, amount in book.amounts.items():
        if not hardness or not amount:
            continue
        bypass = ctx.defenses.hardness_bypass(t, ctx.ruleset)
        if bypass is not None:
            book.set(LedgerStep.HARDNESS, t, amount, bypass, "ignores Hardness", force=True)
            continue
        after = after_reduction(amount, hardness)
        book.set(LedgerStep.HARDNESS, t, after, R_HARDNESS_STOPS if after == 0 else R_HARDNESS, "Hardness")


def _reduction(book: _Book, ctx: _Context) -> None:
    (_hardness if ctx.defenses.is_object else _dr)(book, ctx)


def _object_material(book: _Book, ctx: _Context) -> None:
    options = ctx.ruleset.damage
    amount = book.amounts.get(DamageType.PIERCING, 0)
    if not (ctx.defenses.is_object and options.object_piercing_halved and amount):
        return
    if ctx.defenses.fragile:
        book.set(LedgerStep.OBJECT_MATERIAL, DamageType.PIERCING, amount, R_PIERCING, "fragile", force=True)
    else:
        after = amount // options.object_piercing_divisor
        book.set(LedgerStep.OBJECT_MATERIAL, DamageType.PIERCING, after, R_PIERCING, "piercing vs object")


def _resist_vulnerable(book: _Book, ctx: _Context) -> None:
    options, defenses = ctx.ruleset.damage, ctx.defenses
    for t, amount in book.amounts.items():
        immune = defenses.immunity_rule(t)
        if immune is not None:
            book.set(LedgerStep.IMMUNITY, t, 0, immune, "immune", force=True)
            continue
        resist, vulnerable = defenses.resistance_rule(t), defenses.is_vulnerable(t)
        if resistance_cancels(resist is not None, vulnerable, ctx.ruleset):
            if amount:
                book.set(LedgerStep.RESISTANCE, t, amount, R_CANCEL, "resistance and vulnerability", force=True)
            continue
        if resist is not None:
            book.set(LedgerStep.RESISTANCE, t, resisted(book.amounts[t], options.resistance_divisor), resist,
                     "resistance")
        if vulnerable:
            book.set(LedgerStep.VULNERABILITY, t, made_vulnerable(book.amounts[t], options.vulnerability_multiplier),
                     R_VULNERABLE, "vulnerability")


_Step = Callable[[_Book, _Context], None]
_STEPS: Mapping[DeflectStep, tuple[_Step, ...]] = {
    DeflectStep.BEFORE_DR: (_rolled, _environment, _deflect, _reduction, _object_material, _resist_vulnerable),
    DeflectStep.AFTER_RESISTANCE: (_rolled, _environment, _reduction, _object_material, _resist_vulnerable, _deflect),
}
"""The order of steps 1-6 by where ``damage.deflect_step`` puts Deflect (G-39)."""


def _amounts(damage: DamageRoll | Mapping[DamageType, int], critical: bool) -> tuple[dict[DamageType, int], bool]:
    if isinstance(damage, DamageRoll):
        return damage.by_type(), critical or damage.critical
    return dict(damage), critical


def damage_ledger(
    damage: DamageRoll | Mapping[DamageType, int],
    defenses: Defenses,
    ruleset: Ruleset,
    *,
    critical: bool = False,
    deflect: int = 0,
    ignore_armor_dr: bool = False,
    environment: Sequence[DamageAdjuster] = (),
) -> Ledger:
    """Steps 1-6 of G-39 for every damage type of one damage event (shared by creatures and objects).

    Args:
        damage: A rolled :class:`DamageRoll` or plain amounts per type (in order).
        defenses: The target's defenses.
        ruleset: Every number and switch.
        critical: A critical hit (also taken from a DamageRoll).
        deflect: The Deflect reduction already rolled (1d10 + AGI, RX-7); negative counts as 0.
        ignore_armor_dr: A Weak Point called shot ignores DR from armor (CS-5, DR-7).
        environment: Attack-side adjusters applied in order (G-39 step 2).
    """
    amounts, crit = _amounts(damage, critical)
    book = _Book(amounts)
    ctx = _Context(defenses, ruleset, crit, deflect, ignore_armor_dr, environment)
    for step in _STEPS[ruleset.damage.deflect_step]:
        step(book, ctx)
    return Ledger(tuple(book.rows), tuple(book.amounts.items()), crit, book.deflected)


def absorb(
    ledger: Ledger, pool: int, step: LedgerStep, why: RuleId, label: str, remaining: Mapping[DamageType, int]
) -> tuple[int, dict[DamageType, int], tuple[LedgerRow, ...]]:
    """Let a pool (temporary HP, HP) absorb the remaining damage, types in order of appearance.

    Args:
        ledger: The ledger whose types give the order.
        pool: How much the pool holds.
        step: TEMP_HP (a row per type the pool took something from) or HP (a row per type with
            damage left, even at 0 HP: the ``after`` is the overkill).
        why: The rule cited on each row.
        label: The row label.
        remaining: Damage per type still to absorb.

    Returns:
        The pool left, the damage per type left over, and the rows.
    """
    left: dict[DamageType, int] = {}
    rows: list[LedgerRow] = []
    for t, _ in ledger.final:
        amount = remaining.get(t, 0)
        taken = min(amount, pool)
        pool -= taken
        left[t] = amount - taken
        if taken or (amount and step is LedgerStep.HP):
            rows.append(LedgerRow(step, t, amount, amount - taken, why, label))
    return pool, left, tuple(rows)


__all__ = [
    "DamageAdjuster",
    "DamageRoll",
    "Ledger",
    "LedgerRow",
    "LedgerStep",
    "PartRoll",
    "absorb",
    "after_reduction",
    "at_least_minimum",
    "crit_doubles",
    "damage_expression",
    "damage_ledger",
    "made_vulnerable",
    "resistance_cancels",
    "resisted",
    "roll_damage",
]
