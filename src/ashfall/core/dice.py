"""Dice notation: ``d20``'s grammar parses, we own the tree, the evaluation and the injected RNG.

``parse("2d20kh1+3")`` turns the d20 library's grammar into our own frozen AST (:class:`Expr`);
:func:`roll` evaluates it with an :class:`~ashfall.core.rng.Rng` into a :class:`Roll` tree that keeps
every face, kept and dropped. A trailing word or ``[annotation]`` is the damage type (``3d6 fire``).
Crits double every die in an expression with :meth:`DiceExpr.doubled` (G-40).

Two readers give the same tree. d20 itself is the reference, but importing it builds its LALR parser
(about 60 ms of CPU on every start of every command). A quick reader of our own reads the notation the rules
use (whole numbers, dice with d20's operations, ``+ - * //``, parentheses, annotations, a trailing word) as
d20's grammar does; anything else, and every syntax error, goes to d20 (imported then), so unusual notation
and every error message are d20's. A property test checks the readers agree (``test_dice_readers.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias
from typing import Literal as Lit

from ashfall.core.rng import Rng

if TYPE_CHECKING:
    from d20 import diceast

MAX_DICE = 1000
"""The most dice one expression may roll (rerolls and explosions included)."""

MAX_SIDES = 10_000
"""The largest die an expression may name."""

MAX_TERMS = 100
"""The most terms (dice, numbers) one expression may join with operators: parsing is recursive."""

MAX_DIGITS = 9
"""The longest number a dice expression may write (a 5,000-digit number cannot even be converted)."""

MAX_NESTING = 10
"""The deepest parentheses may nest."""

_TAG = re.compile(r"[a-z][a-z_-]*")
"""A damage-type tag is one word (``fire``, ``bludgeoning``); anything else after the dice is an error."""


class DiceError(ValueError):
    """An expression that cannot be parsed, uses unsupported notation, or rolls too many dice."""


# ----- the AST (ours, frozen) -----


@dataclass(frozen=True, slots=True)
class Const:
    """A literal integer."""

    value: int


@dataclass(frozen=True, slots=True)
class Selector:
    """Which dice an operation applies to: ``h3`` (highest 3), ``l1``, ``>4``, ``<2`` or ``6`` (equal)."""

    cat: Lit["h", "l", ">", "<", "="]
    num: int

    def __str__(self) -> str:
        return f"{'' if self.cat == '=' else self.cat}{self.num}"


@dataclass(frozen=True, slots=True)
class DiceOp:
    """A dice operation: keep ``k``, drop ``p``, reroll ``rr``/``ro``/``ra``, explode ``e``, ``mi``/``ma``."""

    op: str
    sels: tuple[Selector, ...]

    def __str__(self) -> str:
        return "".join(f"{self.op}{s}" for s in self.sels)


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` faces, then operations in order."""

    count: int
    sides: int
    ops: tuple[DiceOp, ...] = ()

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}{''.join(str(o) for o in self.ops)}"


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` for ``+ - * //``."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    value: Node


Node: TypeAlias = Const | Dice | BinOp | Neg

_BINOPS = {"+", "-", "*", "//"}
_DICE_OPS = {"k", "p", "rr", "ro", "ra", "e", "mi", "ma"}


def _convert(node: diceast.Node) -> Node:
    """Turn the d20 library's AST into ours, refusing what the rules never need."""
    from d20 import diceast  # d20 builds its parser on import: only when its reader is used

    if isinstance(node, diceast.Expression):
        return _convert(node.roll)
    if isinstance(node, diceast.AnnotatedNumber | diceast.Parenthetical):
        return _convert(node.value)
    if isinstance(node, diceast.Literal):
        if not isinstance(node.value, int):
            raise DiceError(f"only whole numbers are allowed, not {node.value}")
        return Const(node.value)
    if isinstance(node, diceast.UnOp):
        inner = _convert(node.value)
        return inner if node.op == "+" else Neg(inner)
    if isinstance(node, diceast.BinOp):
        if node.op not in _BINOPS:
            raise DiceError(f"operator {node.op!r} is not supported (use + - * //)")
        return BinOp(node.op, _convert(node.left), _convert(node.right))
    if isinstance(node, diceast.OperatedDice):
        base = node.value
        ops = []
        for operation in node.operations:
            if operation.op not in _DICE_OPS:
                raise DiceError(f"dice operation {operation.op!r} is not supported")
            sels = tuple(Selector(s.cat or "=", s.num) for s in operation.sels)
            ops.append(DiceOp(operation.op, sels))
        dice = _convert(base)
        assert isinstance(dice, Dice)
        return replace(dice, ops=tuple(ops))
    if isinstance(node, diceast.Dice):
        if node.size == "%":
            return Dice(node.num, 100)
        if node.size < 1 or node.size > MAX_SIDES:
            raise DiceError(f"d{node.size}: a die needs 1 to {MAX_SIDES} faces")
        return Dice(node.num, int(node.size))
    raise DiceError(f"notation {str(node)!r} is not supported")


def _max_dice(node: Node) -> int:
    """How many dice the expression rolls before rerolls and explosions."""
    if isinstance(node, Dice):
        return node.count
    if isinstance(node, BinOp):
        return _max_dice(node.left) + _max_dice(node.right)
    if isinstance(node, Neg):
        return _max_dice(node.value)
    return 0


def _render(node: Node) -> str:
    if isinstance(node, Const):
        return str(node.value)
    if isinstance(node, Dice):
        return str(node)
    if isinstance(node, Neg):
        inner = _render(node.value)
        return f"-({inner})" if isinstance(node.value, BinOp) else f"-{inner}"
    tight = node.op in ("*", "//")
    left, right = _render(node.left), _render(node.right)
    if tight and isinstance(node.left, BinOp) and node.left.op in ("+", "-"):
        left = f"({left})"
    if isinstance(node.right, BinOp) and (tight or node.right.op in ("+", "-")):
        right = f"({right})"
    return f"{left}{node.op}{right}"


def _double(node: Node) -> Node:
    if isinstance(node, Dice):
        return replace(node, count=node.count * 2)
    if isinstance(node, BinOp):
        return BinOp(node.op, _double(node.left), _double(node.right))
    if isinstance(node, Neg):
        return Neg(_double(node.value))
    return node


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A parsed dice expression with an optional damage type, ready to roll or to analyse.

    Attributes:
        root: The expression tree.
        tag: The trailing word or annotation (``fire`` in ``3d6 fire``), or ``None``.
    """

    root: Node
    tag: str | None = None

    def __str__(self) -> str:
        text = _render(self.root)
        return f"{text} {self.tag}" if self.tag else text

    @property
    def dice_count(self) -> int:
        """Dice rolled before rerolls and explosions."""
        return _max_dice(self.root)

    def doubled(self) -> DiceExpr:
        """The same expression with every die doubled, modifiers once (critical hits, CRIT-2, G-40)."""
        return DiceExpr(_double(self.root), self.tag)

    def plus(self, value: int) -> DiceExpr:
        """The expression with a flat ``value`` added (a no-op for 0)."""
        if value == 0:
            return self
        op = "+" if value > 0 else "-"
        return DiceExpr(BinOp(op, self.root, Const(abs(value))), self.tag)


@lru_cache(maxsize=4096)
def parse(expression: str) -> DiceExpr:
    """Parse dice notation such as ``1d10+3``, ``2d6``, ``3d6 fire`` or ``2d20kh1``.

    Args:
        expression: The notation; a trailing word or ``[annotation]`` becomes the tag.

    Returns:
        The parsed, immutable expression (cached: parsing the same text twice is free).

    Raises:
        DiceError: On a syntax error, unsupported notation or more than :data:`MAX_DICE` dice.
    """
    text = expression.strip()
    if not text:
        raise DiceError("empty dice expression")
    _check_size(text)
    root, comment, found = _read_quick(text) or _read_d20(expression, text)
    tag = comment.strip() if comment else None
    annotations = [a for a in found if a]
    if annotations and not tag:
        tag = annotations[-1].strip("[]").strip() or None
    if tag and not _TAG.fullmatch(tag.lower()):
        raise DiceError(f"cannot read dice expression {expression!r}: {tag!r} after the dice is not a damage type "
                        "(write dice, then one word such as 'fire')")
    result = DiceExpr(root, tag.lower() if tag else None)
    if result.dice_count > MAX_DICE:
        raise DiceError(f"{expression!r} rolls {result.dice_count} dice; the limit is {MAX_DICE}")
    return result


def _check_size(text: str) -> None:
    """Refuse expressions too long or too deeply nested to parse (the parser recurses per term)."""
    longest = max((len(run) for run in re.findall(r"\d+", text)), default=0)
    if longest > MAX_DIGITS:
        raise DiceError(f"a number in a dice expression has at most {MAX_DIGITS} digits, not {longest}")
    terms = len(re.findall(r"[-+*]|//", text)) + 1
    if terms > MAX_TERMS:
        raise DiceError(f"the dice expression has {terms} terms; the limit is {MAX_TERMS}")
    depth = deepest = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        deepest = max(deepest, depth)
    if deepest > MAX_NESTING:
        raise DiceError(f"the dice expression nests parentheses {deepest} deep; the limit is {MAX_NESTING}")


Read: TypeAlias = tuple[Node, str | None, list[str]]
"""A read expression: our tree, the trailing comment as written (or None) and the annotations in tree order."""


def _read_d20(expression: str, text: str) -> Read:
    """Read ``text`` with the d20 library itself: the reference reader, and the one that words syntax errors.

    Raises:
        DiceError: On a syntax error or notation :func:`_convert` refuses.
    """
    import d20  # builds d20's parser (~60 ms): only for what the quick reader leaves to it

    try:
        ast = d20.parse(text, allow_comments=True)
    except d20.errors.RollSyntaxError as err:
        raise DiceError(f"cannot read dice expression {expression!r}: {err}") from None
    return _convert(ast), ast.comment, _annotations(ast.roll)


def _annotations(node: diceast.Node) -> list[str]:
    from d20 import diceast

    found: list[str] = []
    if isinstance(node, diceast.AnnotatedNumber):
        found.extend(node.annotations)
    for child in node.children:
        found.extend(_annotations(child))
    return found


class _NotQuick(Exception):
    """The quick reader leaves this expression to d20 (unusual notation, or an error for d20 to word)."""


_WS = re.compile(r"[ \t\f\r\n]+")
"""d20's whitespace (``_WS``): other spaces are not whitespace to d20, so the quick reader leaves them to it."""

_DICE = re.compile(r"(\d*)d(\d+|%)((?:(?:k|p|rr|ro|ra|e|mi|ma)[hl<>]?\d+)*)")
"""``NdS`` and its operations as d20's grammar writes them (``diceexpr dice_op*``, no space inside)."""

_DICE_OP = re.compile(r"(k|p|rr|ro|ra|e|mi|ma)([hl<>]?)(\d+)")
_INTEGER = re.compile(r"\d+")
_ANNOTATION = re.compile(r"\[[^\]\n]*\]")
"""d20's ``ANNOTATION`` (``\\[.*?\\]``: up to the first ``]``, on one line)."""

_COMMENT = re.compile(r"[A-Za-z][A-Za-z_-]*")
"""The trailing comment the quick reader takes: one word after a space (d20's ``COMMENT`` takes any text)."""


def _read_quick(text: str) -> Read | None:
    """Read ``text`` as d20 reads it, for the notation the rules use; None leaves it to :func:`_read_d20`.

    Reads whole numbers, ``NdS`` with d20's dice operations, ``+ - * //``, unary signs, parentheses,
    ``[annotations]`` and one trailing word, with whitespace where d20's grammar allows it; the tree is the one
    d20's transformer and :func:`_convert` make. Anything else (sets, comparisons, decimals, ``/`` and ``%``,
    dice out of range, any other trailing text, any syntax error) is left to d20, so every error message is
    d20's and :func:`_convert`'s. ``tests/core/test_dice_readers.py`` checks the two readers agree.
    """
    reader = _QuickReader(text)
    try:
        root = reader.sum()
    except _NotQuick:
        return None
    rest = text[reader.pos:]
    if not rest:
        return root, None, reader.found
    if reader.pos and text[reader.pos - 1] in " \t\f\r\n" and _COMMENT.fullmatch(rest):
        return root, rest, reader.found  # after a space only d20's COMMENT can start with a letter
    return None


class _QuickReader:
    """A recursive-descent reader of d20's grammar (``a_num``, ``m_num``, ``u_num``, ``numexpr``), for a subset.

    Attributes:
        text: The expression.
        pos: How far it has read.
        found: The annotations read, in the order d20's tree lists them (a node's own before its children's).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.found: list[str] = []

    def sum(self) -> Node:
        """``a_num``: terms joined by ``+`` and ``-``, from the left."""
        node = self.product()
        while self.pos < len(self.text) and self.text[self.pos] in "+-":
            op = self.text[self.pos]
            self.pos += 1
            self._space()
            node = BinOp(op, node, self.product())
        return node

    def product(self) -> Node:
        """``m_num``: signed values joined by ``*`` and ``//``, from the left (``/`` and ``%`` are d20's)."""
        node = self.signed()
        while True:
            if self.text.startswith("//", self.pos):
                op = "//"
            elif self.text.startswith("*", self.pos):
                op = "*"
            else:
                return node
            self.pos += len(op)
            self._space()
            node = BinOp(op, node, self.signed())

    def signed(self) -> Node:
        """``u_num``: a value with any number of signs (``+`` keeps it, ``-`` negates)."""
        if self.pos < len(self.text) and self.text[self.pos] in "+-":
            sign = self.text[self.pos]
            self.pos += 1
            self._space()
            inner = self.signed()
            return inner if sign == "+" else Neg(inner)
        return self.value()

    def value(self) -> Node:
        """``numexpr``: dice, a whole number or a parenthesised sum, then its annotations (and spaces)."""
        inner = len(self.found)
        node = self._dice() or self._integer() or self._parenthesised()
        self._space()
        own: list[str] = []
        while (found := _ANNOTATION.match(self.text, self.pos)) is not None:
            own.append(found.group().strip())
            self.pos = found.end()
            self._space()
        self.found[inner:inner] = own  # d20 lists a value's own annotations before those inside it
        return node

    def _dice(self) -> Dice | None:
        found = _DICE.match(self.text, self.pos)
        if found is None:
            return None
        count, size, operations = found.groups()
        if size == "%":
            dice = Dice(int(count or 1), 100)
        elif 1 <= int(size) <= MAX_SIDES:
            dice = Dice(int(count or 1), int(size))
        else:
            raise _NotQuick  # d20's reader words the error (_convert)
        self.pos = found.end()
        return replace(dice, ops=_merged_ops(operations)) if operations else dice

    def _integer(self) -> Const | None:
        found = _INTEGER.match(self.text, self.pos)
        if found is None:
            return None
        self.pos = found.end()
        if self.text.startswith(".", self.pos):
            raise _NotQuick  # a decimal
        return Const(int(found.group()))

    def _parenthesised(self) -> Node:
        if not self.text.startswith("(", self.pos):
            raise _NotQuick
        self.pos += 1
        self._space()
        node = self.sum()
        if not self.text.startswith(")", self.pos):
            raise _NotQuick  # a set (commas), or an error
        self.pos += 1
        if self.pos < len(self.text) and self.text[self.pos].isalpha():
            raise _NotQuick  # operations on a set, or a comment d20 reads its own way
        return node

    def _space(self) -> None:
        found = _WS.match(self.text, self.pos)
        if found is not None:
            self.pos = found.end()


def _merged_ops(operations: str) -> tuple[DiceOp, ...]:
    """The dice operations, merged as d20 merges them: a run of the same operation is one with several selectors.

    ``mi`` and ``ma`` apply at once and are never merged (d20's ``SetOperator.IMMEDIATE``).
    """
    ops: list[DiceOp] = []
    for op, cat, num in _DICE_OP.findall(operations):
        sel = Selector(cat or "=", int(num))
        if ops and op not in ("mi", "ma") and ops[-1].op == op:
            ops[-1] = DiceOp(op, (*ops[-1].sels, sel))
        else:
            ops.append(DiceOp(op, (sel,)))
    return tuple(ops)


# ----- evaluation -----


@dataclass(frozen=True, slots=True)
class Face:
    """One die as it came up; ``kept`` is False for dropped or rerolled-away dice."""

    sides: int
    value: int
    kept: bool = True
    exploded: bool = False


@dataclass(frozen=True, slots=True)
class RolledDice:
    """A rolled :class:`Dice` term with every face it produced."""

    dice: Dice
    faces: tuple[Face, ...]

    @property
    def total(self) -> int:
        """Sum of kept faces."""
        return sum(f.value for f in self.faces if f.kept)


@dataclass(frozen=True, slots=True)
class RolledOp:
    """An evaluated operator node."""

    op: str
    left: Rolled
    right: Rolled
    total: int


@dataclass(frozen=True, slots=True)
class RolledConst:
    """An evaluated literal."""

    value: int

    @property
    def total(self) -> int:
        """The literal value."""
        return self.value


@dataclass(frozen=True, slots=True)
class RolledNeg:
    """An evaluated unary minus."""

    value: Rolled

    @property
    def total(self) -> int:
        """Minus the inner total."""
        return -self.value.total


Rolled: TypeAlias = RolledConst | RolledDice | RolledOp | RolledNeg


@dataclass(frozen=True, slots=True)
class Roll:
    """The result of rolling a :class:`DiceExpr`: the evaluated tree, every face and the total."""

    expr: DiceExpr
    tree: Rolled
    total: int = field(default=0)

    @property
    def faces(self) -> tuple[Face, ...]:
        """Every face rolled, in order, kept and dropped."""
        return tuple(_faces(self.tree))


def _faces(node: Rolled) -> list[Face]:
    if isinstance(node, RolledDice):
        return list(node.faces)
    if isinstance(node, RolledOp):
        return _faces(node.left) + _faces(node.right)
    if isinstance(node, RolledNeg):
        return _faces(node.value)
    return []


def _select(sels: tuple[Selector, ...], faces: list[Face], candidates: list[int]) -> set[int]:
    """Indices among ``candidates`` picked by any of ``sels`` (highest/lowest ties break by position)."""
    chosen: set[int] = set()
    for sel in sels:
        if sel.cat in ("h", "l"):
            order = sorted(candidates, key=lambda i: (faces[i].value, -i if sel.cat == "h" else i))
            if sel.cat == "h":
                order.reverse()
            chosen.update(order[: sel.num])
        else:
            for i in candidates:
                v = faces[i].value
                if (sel.cat == "=" and v == sel.num) or (sel.cat == ">" and v > sel.num) or (
                    sel.cat == "<" and v < sel.num
                ):
                    chosen.add(i)
    return chosen


class _Budget:
    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_DICE

    def take(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise DiceError(f"the roll needed more than {MAX_DICE} dice (rerolls or explosions)")


def _roll_dice(d: Dice, rng: Rng, budget: _Budget) -> RolledDice:
    faces: list[Face] = []
    for _ in range(d.count):
        budget.take()
        faces.append(Face(d.sides, rng.roll(d.sides)))
    for op in d.ops:
        kept_idx = [i for i, f in enumerate(faces) if f.kept]
        if op.op in ("k", "p"):
            picked = _select(op.sels, faces, kept_idx)
            drop = [i for i in kept_idx if (i not in picked) == (op.op == "k")]
            for i in drop:
                faces[i] = replace(faces[i], kept=False)
        elif op.op in ("rr", "ro", "ra"):
            targets = sorted(_select(op.sels, faces, kept_idx))
            for i in targets:
                if op.op == "ra":
                    budget.take()
                    faces.append(Face(d.sides, rng.roll(d.sides)))
                    break
                faces[i] = replace(faces[i], kept=False)
                budget.take()
                new = Face(d.sides, rng.roll(d.sides))
                if op.op == "rr":
                    while _select(op.sels, [new], [0]):
                        faces.append(replace(new, kept=False))
                        budget.take()
                        new = Face(d.sides, rng.roll(d.sides))
                faces.append(new)
        elif op.op == "e":
            pending = sorted(_select(op.sels, faces, kept_idx))
            while pending:
                i = pending.pop(0)
                faces[i] = replace(faces[i], exploded=True)
                budget.take()
                faces.append(Face(d.sides, rng.roll(d.sides)))
                if _select(op.sels, faces, [len(faces) - 1]):
                    pending.append(len(faces) - 1)
        else:  # mi / ma clamp
            for sel in op.sels:
                for i in kept_idx:
                    v = faces[i].value
                    if (op.op == "mi" and v < sel.num) or (op.op == "ma" and v > sel.num):
                        faces[i] = replace(faces[i], value=sel.num)
    return RolledDice(d, tuple(faces))


def _eval(node: Node, rng: Rng, budget: _Budget) -> Rolled:
    if isinstance(node, Const):
        return RolledConst(node.value)
    if isinstance(node, Dice):
        return _roll_dice(node, rng, budget)
    if isinstance(node, Neg):
        return RolledNeg(_eval(node.value, rng, budget))
    left = _eval(node.left, rng, budget)
    right = _eval(node.right, rng, budget)
    a, b = left.total, right.total
    if node.op == "+":
        total = a + b
    elif node.op == "-":
        total = a - b
    elif node.op == "*":
        total = a * b
    else:
        if b == 0:
            raise DiceError("division by zero in a dice expression")
        total = a // b
    return RolledOp(node.op, left, right, total)


def roll(expr: DiceExpr | str, rng: Rng) -> Roll:
    """Roll an expression with an injected RNG.

    Args:
        expr: A parsed expression or notation text.
        rng: Where the faces come from.

    Returns:
        The evaluated tree with every face and the total.
    """
    parsed = parse(expr) if isinstance(expr, str) else expr
    tree = _eval(parsed.root, rng, _Budget())
    return Roll(parsed, tree, tree.total)

