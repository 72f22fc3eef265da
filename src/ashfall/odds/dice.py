"""Exact distributions of dice expressions: :func:`to_die` turns a ``DiceExpr`` into an icepool Die.

The conversion mirrors :func:`ashfall.core.dice.roll` face for face: keep/drop operations whose selectors are
all ``h`` or all ``l`` go through icepool pools; the others (``kh1kl1``, where ties can make both selectors pick
the same die, value selectors, clamps) are evaluated over every sorted multiset of faces;
leading ``ro``/``rr`` with value selectors become per-die rerolls. Explosions and ``ra`` have no exact finite
distribution under the roller's semantics and are refused with :class:`UnsupportedDiceError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from math import comb

import icepool

from ashfall.core.dice import Const, Dice, DiceError, DiceExpr, DiceOp, Neg, Node, Selector

MAX_WORK = 5_000_000
"""Rough cap on the steps one exact computation may take (about half a second)."""

MAX_MULTISETS = 30_000
"""The most sorted face multisets the generic keep/drop/clamp evaluation may enumerate."""


class UnsupportedDiceError(DiceError):
    """An expression the roller accepts but whose exact distribution we do not compute."""


_REROLL_DEPTH: dict[str, int | str] = {"ro": 1, "rr": "inf"}
_VALUE_CATS = frozenset({"=", ">", "<"})
_ORDER_CATS = frozenset({"h", "l"})


def _matches(sel: Selector, value: int) -> bool:
    if sel.cat == "=":
        return value == sel.num
    return value > sel.num if sel.cat == ">" else value < sel.num


def _base_die(d: Dice) -> tuple[icepool.Die, tuple[DiceOp, ...]]:
    """The per-die distribution after leading per-die operations, and the operations left over."""
    die = icepool.d(d.sides)
    ops = list(d.ops)
    while ops and ops[0].op in _REROLL_DEPTH and all(s.cat in _VALUE_CATS for s in ops[0].sels):
        sels = ops[0].sels
        die = die.reroll(lambda v, sels=sels: any(_matches(s, v) for s in sels), depth=_REROLL_DEPTH[ops[0].op])
        if not len(die):
            raise DiceError(f"{d}: every face is rerolled, the roll never ends")
        ops.pop(0)
    return die, tuple(ops)


def _order_mask(count: int, ops: tuple[DiceOp, ...]) -> list[int]:
    """Keep flags by sorted (ascending) position after ``h``/``l`` keep and drop operations."""
    kept = [1] * count
    for op in ops:
        live = [i for i in range(count) if kept[i]]
        picked: set[int] = set()
        for sel in op.sels:
            picked.update(live[max(len(live) - sel.num, 0):] if sel.cat == "h" else live[: sel.num])
        for i in live:
            if (i in picked) != (op.op == "k"):
                kept[i] = 0
    return kept


def _evaluate_multiset(values: tuple[int, ...], ops: tuple[DiceOp, ...]) -> int:
    """The kept total of sorted faces ``values`` after keep/drop/clamp operations, as the roller computes it."""
    faces = list(values)
    kept = [True] * len(faces)
    for op in ops:
        live = [i for i in range(len(faces)) if kept[i]]
        if op.op in ("mi", "ma"):
            for sel in op.sels:
                for i in live:
                    faces[i] = max(faces[i], sel.num) if op.op == "mi" else min(faces[i], sel.num)
            continue
        picked: set[int] = set()
        for sel in op.sels:
            if sel.cat in _ORDER_CATS:
                order = sorted(live, key=lambda i: faces[i], reverse=sel.cat == "h")
                picked.update(order[: sel.num])
            else:
                picked.update(i for i in live if _matches(sel, faces[i]))
        for i in live:
            if (i in picked) != (op.op == "k"):
                kept[i] = False
    return sum(v for v, k in zip(faces, kept, strict=True) if k)


def _dice_die(d: Dice) -> icepool.Die:
    if d.count == 0:
        return icepool.Die([0])
    die, ops = _base_die(d)
    span = max(die.outcomes()) - min(die.outcomes())
    if not ops:
        _guard(d, d.count * (d.count * span + 1) * len(die))
        total = die
        for _ in range(d.count - 1):
            total = total + die
        return total
    if any(op.op not in ("k", "p", "mi", "ma") for op in ops):
        bad = next(op for op in ops if op.op not in ("k", "p", "mi", "ma"))
        raise UnsupportedDiceError(
            f"{d}: exact odds do not support {bad.op!r} here (exploding dice, reroll-and-add, and rerolls "
            "after keep/drop or by highest/lowest have no exact finite distribution); roll it instead"
        )
    if all(op.op in ("k", "p") and len({s.cat for s in op.sels}) == 1 and op.sels[0].cat in _ORDER_CATS
           for op in ops):
        mask = _order_mask(d.count, ops)
        _guard(d, d.count * len(die) * (sum(mask) * span + 1))
        return die.pool(d.count).keep(mask).sum()
    multisets = comb(d.count + len(die) - 1, d.count)
    if multisets > MAX_MULTISETS:
        raise UnsupportedDiceError(f"{d}: too many face combinations ({multisets:,}) for exact odds")
    totals: Counter[int] = Counter()
    expanded = die.pool(d.count).expand()
    for faces, quantity in expanded.items():
        totals[_evaluate_multiset(tuple(faces), ops)] += quantity
    return icepool.Die(dict(totals))


def _guard(what: object, work: int) -> None:
    if work > MAX_WORK:
        raise UnsupportedDiceError(
            f"{what}: too large for exact odds (about {work:,} steps; the limit is {MAX_WORK:,})"
        )


def _floordiv(a: icepool.Die, b: icepool.Die) -> icepool.Die:
    if 0 in b.outcomes():
        raise DiceError("the divisor of '//' can be zero: division by zero in a dice expression")
    return a // b


_BINOPS: dict[str, Callable[[icepool.Die, icepool.Die], icepool.Die]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": _floordiv,
}


def _node_die(node: Node) -> icepool.Die:
    if isinstance(node, Const):
        return icepool.Die([node.value])
    if isinstance(node, Dice):
        return _dice_die(node)
    if isinstance(node, Neg):
        return -_node_die(node.value)
    left, right = _node_die(node.left), _node_die(node.right)
    _guard(f"{node.op!r} in a dice expression", len(left) * len(right))
    return _BINOPS[node.op](left, right)


@lru_cache(maxsize=1024)
def to_die(expr: DiceExpr) -> icepool.Die:
    """The exact distribution of an expression's total.

    Args:
        expr: A parsed expression (its damage-type tag is ignored).

    Returns:
        An icepool Die over integer totals (cached by expression).

    Raises:
        UnsupportedDiceError: For explosions, reroll-and-add, order-dependent rerolls or huge expressions.
        DiceError: For a possible division by zero or a reroll that never ends.
    """
    return _node_die(expr.root)


__all__ = ["MAX_MULTISETS", "MAX_WORK", "UnsupportedDiceError", "to_die"]
