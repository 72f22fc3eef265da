"""Dice notation, the injected roller, and the guard against huge rolls."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.dice import MAX_DICE, DiceError, parse, roll
from ashfall.core.rng import ScriptedRng, ScriptError, SeededRng


@pytest.mark.parametrize(
    ("text", "faces", "total"),
    [
        ("1d10+3", [7], 10),
        ("2d6", [3, 4], 7),
        ("3d6 fire", [1, 2, 3], 6),
        ("2d20kh1", [5, 17], 17),
        ("2d20kl1", [5, 17], 5),
        ("4d6kh3", [1, 6, 6, 2], 14),
        ("4d6pl1", [1, 6, 6, 2], 14),
        ("1d8+2d6-1", [8, 1, 1], 9),
        ("(1d4+1)*2", [3], 8),
        ("10", [], 10),
        ("-1d4+5", [4], 1),
        ("1d6mi3", [1], 3),
        ("1d6ma4", [6], 4),
    ],
)
def test_roll__scripted_faces_give_exact_total(text: str, faces: list[int], total: int) -> None:
    with ScriptedRng(faces) as rng:
        assert roll(text, rng).total == total


def test_roll__keeps_every_face_kept_and_dropped() -> None:
    with ScriptedRng([5, 17]) as rng:
        result = roll("2d20kh1", rng)
    assert [(f.value, f.kept) for f in result.faces] == [(5, False), (17, True)]


def test_roll__reroll_once_keeps_the_replacement() -> None:
    with ScriptedRng([1, 4, 1]) as rng:
        result = roll("2d6ro1", rng)
    assert result.total == 4 + 1  # first 1 rerolled into 1, kept (ro rerolls once)
    assert [f.kept for f in result.faces] == [False, True, True]


def test_roll__explode_adds_dice_until_the_face_stops_matching() -> None:
    with ScriptedRng([6, 6, 2]) as rng:
        assert roll("1d6e6", rng).total == 14


def test_parse__trailing_word_and_annotation_are_the_damage_type() -> None:
    assert parse("3d6 fire").tag == "fire"
    assert parse("1d8[piercing]+2").tag == "piercing"
    assert parse("2d6").tag is None


@pytest.mark.rule("CRIT-2", "G-40")
def test_crit_2__doubling_doubles_every_die_and_keeps_modifiers_once() -> None:
    assert str(parse("1d10+3").doubled()) == "2d10+3"
    assert str(parse("1d8+2d6+4").doubled()) == "2d8+4d6+4"


@pytest.mark.parametrize("text", ["", "1d", "d20+", "1d20 >= 5", "1.5+1d4", "1d0"])
def test_parse__bad_or_unsupported_notation_is_a_dice_error(text: str) -> None:
    with pytest.raises(DiceError):
        parse(text)


def test_parse__refuses_more_than_the_dice_limit() -> None:
    with pytest.raises(DiceError, match="limit"):
        parse(f"{MAX_DICE + 1}d6")


def test_roll__runaway_explosions_hit_the_dice_limit() -> None:
    with pytest.raises(DiceError, match="more than"):
        roll("1d1e1", SeededRng(1))


def test_scripted_rng__fails_when_it_runs_out() -> None:
    with pytest.raises(ScriptError, match="ran out"):
        roll("2d6", ScriptedRng([3]))


def test_scripted_rng__fails_when_faces_are_left_over() -> None:
    with pytest.raises(ScriptError, match="left over"), ScriptedRng([3, 4, 5]) as rng:
        roll("2d6", rng)


def test_scripted_rng__refuses_an_impossible_face() -> None:
    with pytest.raises(ScriptError, match="impossible"):
        roll("1d6", ScriptedRng([7]))


def test_scripted_rng__checks_the_die_size_when_given() -> None:
    with pytest.raises(ScriptError, match="d20"):
        roll("1d6", ScriptedRng([(20, 3)]))


@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["1d20", "3d6+2", "4d6kh3", "2d20kl1"]))
def test_seeded_rng__same_seed_same_faces(seed: int, text: str) -> None:
    assert roll(text, SeededRng(seed)).faces == roll(text, SeededRng(seed)).faces


@given(st.integers(min_value=1, max_value=20), st.integers(min_value=1, max_value=12), st.integers(-5, 5))
def test_roll__total_is_within_the_expression_bounds(count: int, sides: int, flat: int) -> None:
    expr = parse(f"{count}d{sides}").plus(flat)
    total = roll(expr, SeededRng(count * 31 + sides)).total
    assert count + flat <= total <= count * sides + flat


def test_seeded_rng__spawned_children_depend_only_on_seed_and_index() -> None:
    a = [SeededRng(7).spawn(i).roll(1000) for i in range(5)]
    b = [SeededRng(7).spawn(i).roll(1000) for i in range(5)]
    assert a == b and len(set(a)) > 1
