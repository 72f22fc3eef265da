"""save_odds (meet-or-exceed, no natural 20/1: G-44) and death_save_odds (an exact Markov chain)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ashfall.core.modifiers import Advantage
from ashfall.odds import death_save_odds, save_odds
from ashfall.ruleset import preset

ED2 = preset("ashfall-2")


@pytest.mark.rule("G-45", "G-44")
@pytest.mark.parametrize(
    ("bonus", "dc", "p", "why"),
    [
        (2, 18, Fraction(5, 20), "16+2 meets 18"),
        (0, 25, Fraction(0), "a natural 20 does not succeed automatically (G-44)"),
        (30, 5, Fraction(1), "a natural 1 does not fail automatically (G-44)"),
        (0, 1, Fraction(1), "every face meets DC 1"),
    ],
)
def test_g_44__saves_meet_or_exceed_without_natural_rules(bonus: int, dc: int, p: Fraction, why: str) -> None:
    assert save_odds(bonus, dc).p_success == p, why


@pytest.mark.rule("G-44")
def test_g_44__option_turns_natural_20_and_1_on_for_saves() -> None:
    rs = ED2.with_options(checks={"natural_rules_on_saves": True})
    assert save_odds(0, 25, ruleset=rs).p_success == Fraction(1, 20)
    assert save_odds(30, 5, ruleset=rs).p_success == Fraction(19, 20)


@pytest.mark.rule("G-21")
@pytest.mark.parametrize(("advantage", "p"), [(Advantage.ADVANTAGE, 1 - Fraction(15, 20) ** 2),
                                              (Advantage.DISADVANTAGE, Fraction(5, 20) ** 2)])
def test_g_21__save_with_advantage_or_disadvantage(advantage: Advantage, p: Fraction) -> None:
    odds = save_odds(2, 18, advantage)
    assert odds.p_success == p
    assert odds.p_failure == 1 - p


# ----- death saves: an independent brute-force enumeration -----

def _face(face: int) -> tuple[int, int, bool]:
    """(successes, failures, revived) one d20 face marks, straight from the text."""
    if face == 20:
        return 0, 0, True  # DEATH-7
    if face == 1:
        return 0, 2, False  # DEATH-8
    return (1, 0, False) if face >= 10 else (0, 1, False)  # DEATH-5: 10-19, DEATH-6: 2-9


_FACES: dict[tuple[int, int, bool], Fraction] = {}
for _f in range(1, 21):
    _FACES[_face(_f)] = _FACES.get(_face(_f), Fraction(0)) + Fraction(1, 20)


def _walk(successes: int, failures: int) -> tuple[Fraction, Fraction, Fraction]:
    """Depth-first walk over every sequence of faces (grouped by what they mark) until the chain ends."""
    if failures >= 3:
        return Fraction(0), Fraction(1), Fraction(0)
    if successes >= 3:
        return Fraction(1), Fraction(0), Fraction(0)
    stab = dead = revived = Fraction(0)
    for (ds, df, rev), prob in _FACES.items():
        if rev:
            revived += prob
            continue
        a, b, c = _walk(successes + ds, failures + df)
        stab, dead, revived = stab + prob * a, dead + prob * b, revived + prob * c
    return stab, dead, revived


@pytest.mark.rule("DEATH-2", "DEATH-3", "DEATH-4", "DEATH-5", "DEATH-6", "DEATH-7", "DEATH-8", "DEATH-9")
@pytest.mark.parametrize(("successes", "failures"), [(0, 0), (1, 0), (0, 1), (2, 2), (1, 2), (2, 0)])
def test_death_5_to_8__chain_matches_walking_every_sequence(successes: int, failures: int) -> None:
    odds = death_save_odds(successes, failures)
    assert (odds.p_stabilized, odds.p_dead, odds.p_revived) == _walk(successes, failures)
    assert odds.p_stabilized + odds.p_dead + odds.p_revived == 1


@pytest.mark.rule("DEATH-3", "DEATH-5", "DEATH-6", "DEATH-7", "DEATH-8")
def test_death_5__from_0_0_the_exact_values() -> None:
    odds = death_save_odds()
    assert (odds.p_stabilized, odds.p_dead, odds.p_revived) == (Fraction(331, 800), Fraction(3239, 8000),
                                                               Fraction(1451, 8000))


@pytest.mark.rule("DEATH-8")
def test_death_8__with_two_failures_only_a_natural_20_or_a_success_saves_you() -> None:
    odds = death_save_odds(2, 2)
    assert odds.p_stabilized == Fraction(10, 20)
    assert odds.p_revived == Fraction(1, 20)
    assert odds.p_dead == Fraction(9, 20)
    assert death_save_odds(0, 1).p_dead > death_save_odds(0, 0).p_dead


@pytest.mark.rule("DEATH-8")
def test_death_8__natural_1_failures_come_from_the_ruleset() -> None:
    one = ED2.with_options(dying={"natural_1_failures": 1})
    assert death_save_odds(2, 2, one).p_dead == Fraction(9, 20)
    assert death_save_odds(0, 1, one).p_dead < death_save_odds(0, 1).p_dead


def test_death_save_odds__terminal_states_and_bad_input() -> None:
    assert death_save_odds(3, 0).p_stabilized == 1
    assert death_save_odds(0, 3).p_dead == 1
    with pytest.raises(ValueError):
        death_save_odds(-1, 0)
