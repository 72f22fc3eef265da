"""The quick dice reader reads what it reads exactly as d20 does; everything else (errors included) is d20's.

``ashfall.core.dice`` reads the rules' usual notation itself, so no command imports d20 (whose parser costs
~60 ms to build) unless an expression needs it. d20 stays the reference: for generated expressions, good and
bad, whatever the quick reader accepts must be what d20 reads, tree, comment and annotations alike.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ashfall.core.dice import DiceError, Read, _read_d20, _read_quick, parse

SPACES = st.sampled_from(["", "", "", " ", "  ", "\t", "\n", "\v", "\u00a0"])
"""d20's whitespace, and two kinds that are not (a vertical tab, a no-break space)."""

DICE = st.builds(
    lambda count, sides, ops: f"{count}d{sides}{''.join(ops)}",
    st.sampled_from(["", "0", "1", "2", "3", "10", "01"]),
    st.sampled_from(["0", "1", "4", "6", "20", "100", "%", "10000", "10001", "x"]),
    st.lists(st.sampled_from(["kh1", "kl1", "k3", "ph1", "pl2", "rr1", "ro<2", "ra1", "e6", "e>5", "mi2", "ma5",
                              "k", "kx1", "rr", "e"]), max_size=3),
)
NUMBERS = st.sampled_from(["0", "1", "3", "12", "007", "1.5", ".5", "1."])
ANNOTATIONS = st.lists(st.sampled_from(["[fire]", "[ cold ]", "[]", "[a", "[[b]", "[x]y"]), max_size=2)
BINARY = st.sampled_from(["+", "-", "*", "//", "/", "%", ">=", "==", "<", "**", ",", "d"])
SIGNS = st.sampled_from(["", "", "-", "+", "- ", "--", "+-"])
TRAILING = st.sampled_from(["", "", " fire", "fire", " fire ice", " Fire", " kh", " e", " 2", " d6", "*fire",
                            " * fire", " [x] cold", " slashing-ish", " +", ")", " (1)"])


def _value(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    atom = st.one_of(
        DICE,
        NUMBERS,
        st.builds(lambda s1, e, s2: f"({s1}{e}{s2})", SPACES, inner, SPACES),
        st.builds(lambda a, b: f"({a}, {b})", inner, inner),
        st.builds(lambda e, op: f"({e}){op}", inner, st.sampled_from(["kh1", "k1", ""])),
        st.just("()"),
    )
    return st.builds(lambda sign, a, s, notes: f"{sign}{a}{s}{''.join(notes)}", SIGNS, atom, SPACES, ANNOTATIONS)


EXPRESSIONS = st.recursive(
    _value(st.sampled_from(["1", "1d6"])),
    lambda inner: st.one_of(
        _value(inner),
        st.builds(lambda a, s1, op, s2, b: f"{a}{s1}{op}{s2}{b}", inner, SPACES, BINARY, SPACES, inner),
    ),
    max_leaves=6,
)


GOOD_SPACES = st.sampled_from(["", "", " ", "  ", "\t", "\n"])
GOOD_VALUES = st.one_of(
    st.builds(lambda count, sides, ops: f"{count}d{sides}{''.join(ops)}",
              st.sampled_from(["", "1", "2", "12"]), st.sampled_from(["4", "6", "20", "%"]),
              st.lists(st.sampled_from(["kh1", "kl2", "k3", "p1", "rr1", "ro<2", "ra1", "e6", "e>5", "mi2", "ma5"]),
                       max_size=4)),
    st.sampled_from(["0", "1", "5", "42"]),
)
GOOD_EXPRESSIONS = st.recursive(
    st.builds(lambda sign, value, s, notes: f"{sign}{value}{s}{''.join(notes)}", st.sampled_from(["", "", "-", "+ "]),
              GOOD_VALUES, GOOD_SPACES, st.lists(st.sampled_from(["[fire]", "[ cold ] ", "[]"]), max_size=2)),
    lambda inner: st.one_of(
        st.builds(lambda a, s1, op, s2, b: f"{a}{s1}{op}{s2}{b}", inner, GOOD_SPACES,
                  st.sampled_from(["+", "-", "*", "//"]), GOOD_SPACES, inner),
        st.builds(lambda sign, s1, e, s2, note: f"{sign}({s1}{e}{s2}){note}", st.sampled_from(["", "-"]),
                  GOOD_SPACES, inner, GOOD_SPACES, st.sampled_from(["", "[acid]", " [acid]"])),
    ),
    max_leaves=6,
)


def _comparable(read: Read) -> Read:
    root, comment, found = read
    return root, comment.strip() if comment else comment, found  # parse() only uses the comment stripped


@settings(max_examples=1500, deadline=None)
@given(EXPRESSIONS, TRAILING)
@example("2d20kh1+3", " fire")
@example("4d6kh3kl1mi2mi3", "")
@example("-(1d6 [a])[b] * 2 // 3", " cold")
def test_quick_reader__reads_what_it_reads_exactly_as_d20(expression: str, trailing: str) -> None:
    text = (expression + trailing).strip()
    if not text:
        return
    quick = _read_quick(text)
    if quick is None:
        return  # left to d20: parse() reads it with d20 itself
    try:
        reference = _read_d20(text, text)
    except DiceError as error:
        pytest.fail(f"the quick reader read {text!r}, which d20 refuses: {error}")
    assert _comparable(quick) == _comparable(reference)


@settings(max_examples=500, deadline=None)
@given(GOOD_EXPRESSIONS, st.sampled_from(["", " fire", "\tpiercing", " Cold"]))
def test_quick_reader__reads_the_usual_notation_as_d20_does(expression: str, trailing: str) -> None:
    text = (expression + trailing).strip()
    quick = _read_quick(text)
    assert quick is not None, f"{text!r} was left to d20"
    assert _comparable(quick) == _comparable(_read_d20(text, text))


@pytest.mark.parametrize("text", [
    "1d8+3", "2d20kh1+3", "3d6 fire", "1d10 [piercing]", "4d6kh3", "1d6rr1", "d%", "-1d4", "(1d6+2)*2",
    "10//3", "2d6 + 1d4 [fire] + 2", "1d12 bludgeoning", "0", "1d20ro<2", "3d6e6 cold",
])
def test_quick_reader__reads_the_rules_usual_notation_without_d20(text: str) -> None:
    quick = _read_quick(text)
    assert quick is not None
    assert _comparable(quick) == _comparable(_read_d20(text, text))


@pytest.mark.parametrize(("text", "words"), [
    ("1d6 +", "Unexpected input"),  # a syntax error, worded by d20
    ("1.5d6", "only whole numbers"),
    ("(1, 2)", "not supported"),  # a set: d20 reads it, _convert refuses it
    ("1d20 >= 10", "not supported"),
    ("1d0", "a die needs 1 to"),
    ("1d6 cold iron", "not a damage type"),
])
def test_parse__what_the_quick_reader_leaves_gets_d20s_error(text: str, words: str) -> None:
    assert _read_quick(text) is None
    with pytest.raises(DiceError, match=words):
        parse(text)
