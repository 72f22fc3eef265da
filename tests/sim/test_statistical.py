"""The simulator against an exact answer: a scripted duel's win probability by dynamic programming.

Both sides Strike three times a turn (MAP-1: 0 / -3 / -6) with a salvaged sword (1d10 + MIG, DMG-2)
against DV = 10 + AGI (DV-1, no armor). A natural 20 always hits and crits (CRIT-1), doubling the dice
but not the modifier (CRIT-2, G-40); a natural 1 always misses (CRIT-3); otherwise total >= DV hits
(ATK-4). Alice's +100 initiative makes her act first every round (INIT-1, INIT-2). NPCs die at 0 HP
(G-38), so the first to reach 0 HP loses. The test enumerates the dice itself.
"""

from fractions import Fraction
from functools import cache

import pytest

from ashfall.sim.runner import simulate
from tests.sim.duel_kit import ALICE, BOB, PROFICIENCY, SWORD_DIE, duel

MAP = (0, -3, -6)  # MAP-1
Dist = dict[int, Fraction]


def attack_damage(bonus: int, dv: int, mod: int) -> Dist:
    """Exact damage of one attack: enumerate the d20 and the damage die."""
    out: Dist = {}
    d20 = Fraction(1, 20)
    for natural in range(1, 21):
        if natural == 1:  # CRIT-3
            hit, crit = False, False
        elif natural == 20:  # CRIT-1
            hit, crit = True, True
        else:
            hit, crit = natural + bonus >= dv, False  # ATK-4
        if not hit:
            out[0] = out.get(0, Fraction(0)) + d20
            continue
        dice = [(a,) for a in range(1, SWORD_DIE + 1)]
        if crit:  # CRIT-2: every die twice, the modifier once
            dice = [(a, b) for a in range(1, SWORD_DIE + 1) for b in range(1, SWORD_DIE + 1)]
        for faces in dice:
            dmg = sum(faces) + mod
            out[dmg] = out.get(dmg, Fraction(0)) + d20 / len(dice)
    return out


def convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def turn_damage(mig: int, dv: int) -> dict[int, float]:
    """Damage of a whole turn of three Strikes (what the later ones do after a kill does not matter)."""
    total: Dist = {0: Fraction(1)}
    for penalty in MAP:
        total = convolve(total, attack_damage(mig + PROFICIENCY + penalty, dv, mig))
    return {d: float(p) for d, p in total.items()}


def alice_wins_probability() -> float:
    pa = turn_damage(ALICE.attributes.MIG, 10 + BOB.attributes.AGI)
    pb = turn_damage(BOB.attributes.MIG, 10 + ALICE.attributes.AGI)

    @cache
    def first(a: int, b: int) -> float:
        """P(Alice wins) with Alice (a HP) to act against Bob (b HP); zero-damage turns loop back."""
        x = sum(p for d, p in pa.items() if d >= b) + sum(p * second_after(a, b - d) for d, p in pa.items()
                                                            if 0 < d < b)
        y = sum(p * first(a - d, b) for d, p in pb.items() if 0 < d < a)
        return (x + pa.get(0, 0.0) * y) / (1 - pa.get(0, 0.0) * pb.get(0, 0.0))

    def second_after(a: int, b: int) -> float:
        """P(Alice wins) with Bob to act (b < his starting HP, so this never loops)."""
        return pb.get(0, 0.0) * first(a, b) + sum(p * first(a - d, b) for d, p in pb.items() if 0 < d < a)

    return first(ALICE.hp, BOB.hp)


def test_dp__probabilities_are_distributions() -> None:
    dist = attack_damage(5, 12, 3)
    assert sum(dist.values()) == 1
    assert dist[0] == Fraction(6, 20)  # +5 vs DV 12: naturals 2-6 fall short, 1 always misses (CRIT-3)
    assert max(dist) == 2 * SWORD_DIE + 3  # a crit: 2d10 + 3
    assert 0.55 < alice_wins_probability() < 0.65  # a fair test: neither side is a sure thing


@pytest.mark.slow
@pytest.mark.rule("MAP-1", "ATK-1", "ATK-4", "CRIT-1", "CRIT-2", "CRIT-3", "DV-1", "DMG-2", "INIT-2", "G-38")
def test_map_1_atk_4_crit_1__simulated_duel_win_rate_matches_the_exact_dynamic_programme() -> None:
    trials = 4000
    exact = alice_wins_probability()
    report = simulate(duel(), trials, seed=20261129)
    won = report.side("a").wins
    se = (exact * (1 - exact) / trials) ** 0.5
    assert report.undecided.count == 0
    assert report.refusals == 0
    assert abs(won.rate - exact) < 4 * se, (won.rate, exact, se)
