"""to_die: exact distributions of dice expressions agree with rolling every possible face sequence."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from ashfall.core.dice import BinOp, Dice, DiceError, Neg, Node, parse, roll
from ashfall.core.rng import ScriptedRng
from ashfall.odds.attack import die_fractions
from ashfall.odds.dice import UnsupportedDiceError, to_die


def _enumerate(text: str) -> dict[int, Fraction]:
    """Roll ``text`` with every face sequence (fixed dice count, no rerolls) through the engine's roller."""
    expr = parse(text)
    sides = [d.sides for d in _dice(expr.root) for _ in range(d.count)]
    counts: Counter[int] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        with ScriptedRng(faces) as rng:
            counts[roll(expr, rng).total] += 1
    n = sum(counts.values())
    return {k: Fraction(v, n) for k, v in sorted(counts.items())}


def _dice(node: Node) -> list[Dice]:
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, BinOp):
        return _dice(node.left) + _dice(node.right)
    if isinstance(node, Neg):
        return _dice(node.value)
    return []


@pytest.mark.parametrize(
    "text",
    ["1d10+3", "2d6", "3d6 fire", "2d20kh1", "2d20kl1", "4d6kh3", "4d6pl1", "1d8+2d6-1", "(1d4+1)*2", "10",
     "-1d4+5", "1d6mi3", "1d6ma4", "4d4k>2", "4d4p<2", "3d6kh1kl1", "4d4mi2kh2", "2d6//1d3", "1d4*1d4", "0d6+2",
     "5d4pl1ph1", "4d4kh3pl1", "4d4pl1kh2", "3d4kh1kh2"],
)
def test_to_die__matches_rolling_every_face_sequence(text: str) -> None:
    assert die_fractions(to_die(parse(text))) == _enumerate(text)


def test_to_die__reroll_once_is_a_per_die_reroll() -> None:
    # 1d6ro1: a 1 (1/6) is rerolled once and the new face kept.
    expected = {1: Fraction(1, 36)} | {v: Fraction(1, 6) + Fraction(1, 36) for v in range(2, 7)}
    assert die_fractions(to_die(parse("1d6ro1"))) == expected


def test_to_die__reroll_until_never_shows_the_rerolled_face() -> None:
    assert die_fractions(to_die(parse("1d6rr<3"))) == {v: Fraction(1, 4) for v in range(3, 7)}


def test_to_die__is_cached_by_expression() -> None:
    assert to_die(parse("3d8+2")) is to_die(parse("3d8+2"))


@pytest.mark.parametrize("text", ["1d6e6", "2d6ra1", "4d6kh3ro1", "10d10k>5", "200d20", "40d100", "1d10000*1d10000"])
def test_to_die__refuses_what_has_no_exact_or_affordable_distribution(text: str) -> None:
    with pytest.raises(UnsupportedDiceError):
        to_die(parse(text))


@pytest.mark.parametrize("text", ["1d6//(1d2-1)", "1d1rr1"])
def test_to_die__refuses_division_by_a_possible_zero_and_endless_rerolls(text: str) -> None:
    with pytest.raises(DiceError):
        to_die(parse(text))
