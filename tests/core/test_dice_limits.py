"""Dice expressions too long, too deep or with junk after them get a clear DiceError, not recursion or a guess."""

from __future__ import annotations

import re

import pytest

from ashfall.core.dice import MAX_DIGITS, MAX_NESTING, MAX_TERMS, DiceError, parse


@pytest.mark.parametrize("text, why", [
    ("+".join(["1d6"] * 1000), "has 1000 terms; the limit is 100"),
    ("+".join(["1"] * MAX_TERMS) + "+1", f"has {MAX_TERMS + 1} terms"),
    ("-" * 500 + "1", "has 501 terms"),
    ("(" * (MAX_NESTING + 1) + "1d6" + ")" * (MAX_NESTING + 1), f"nests parentheses {MAX_NESTING + 1} deep"),
    ("1d6+" + "9" * 5000, f"at most {MAX_DIGITS} digits, not 5000"),
    ("10d20!!!", "'!!!' after the dice is not a damage type"),
    ("1d6 piercing + 1d6 fire", "'piercing + 1d6 fire' after the dice is not a damage type"),
])
def test_parse__refuses_what_would_recurse_or_be_silently_misread(text: str, why: str) -> None:
    with pytest.raises(DiceError, match=re.escape(why)):
        parse(text)


@pytest.mark.parametrize("text, dice, tag", [
    ("+".join(["1"] * (MAX_TERMS - 1)) + "+1d4", 1, None),
    ("(" * MAX_NESTING + "1d6" + ")" * MAX_NESTING, 1, None),
    ("1d6+123456789", 1, None),
    ("3d6 fire", 3, "fire"),
    ("2d6 [cold]", 2, "cold"),
])
def test_parse__the_limits_themselves_are_accepted(text: str, dice: int, tag: str | None) -> None:
    expr = parse(text)
    assert (expr.dice_count, expr.tag) == (dice, tag)
