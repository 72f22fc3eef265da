"""Exact odds double on a crit exactly the dice the damage rules double: ``attack.crit_dice`` (CRIT-2, G-40)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from ashfall.core.dice import parse
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import DamageType
from ashfall.odds.attack import attack_odds, die_fractions
from ashfall.odds.dice import to_die
from ashfall.rules.damage_ledger import damage_expression, roll_damage
from ashfall.rules.damage_spec import DamagePart
from ashfall.ruleset import Ruleset, preset
from ashfall.ruleset.sections import CritDice

SLASH = DamageType.SLASHING
PARTS = (
    DamagePart(SLASH, rule("DMG-2"), "Longsword", dice=parse("1d8"), weapon_dice=True),
    DamagePart(SLASH, rule("DMG-2"), "MIG", flat=3),
    DamagePart(SLASH, rule("RX-13"), "Brace", dice=parse("1d6")),
)
WEAPON_ONLY = preset().with_options(attack={"crit_dice": CritDice.WEAPON_DICE_ONLY})


@pytest.mark.rule("CRIT-2", "G-40")
@pytest.mark.parametrize(("ruleset", "largest_crit"), [(preset(), 16 + 12 + 3), (WEAPON_ONLY, 16 + 6 + 3)])
def test_g_40__the_largest_crit_follows_crit_dice(ruleset: Ruleset, largest_crit: int) -> None:
    odds = attack_odds(30, 10, damage_expression(PARTS, ruleset), ruleset=ruleset,
                       crit_damage=damage_expression(PARTS, ruleset, critical=True))
    assert max(odds.distribution) == largest_crit  # a natural 20 is the only crit; its dice decide the top


@pytest.mark.rule("CRIT-2", "G-40")
def test_g_40__under_weapon_dice_only_the_odds_crit_matches_every_rolled_crit() -> None:
    """The expression's distribution is the distribution of :func:`roll_damage` on a crit, face by face."""
    crit = damage_expression(PARTS, WEAPON_ONLY, critical=True)
    rolled: Counter[int] = Counter()
    for a, b, c in itertools.product(range(1, 9), range(1, 9), range(1, 7)):
        with ScriptedRng([(8, a), (8, b), (6, c)]) as rng:
            rolled[roll_damage(PARTS, rng, WEAPON_ONLY, critical=True).total] += 1
    total = sum(rolled.values())
    assert die_fractions(to_die(crit)) == {k: Fraction(n, total) for k, n in rolled.items()}
    odds = attack_odds(30, 10, damage_expression(PARTS, WEAPON_ONLY), ruleset=WEAPON_ONLY, crit_damage=crit)
    assert odds.crit_damage == crit


@pytest.mark.rule("CRIT-2", "G-40")
def test_g_40__a_bare_expression_counts_as_weapon_dice_and_doubles_whole() -> None:
    assert attack_odds(5, 10, "1d8+3", ruleset=WEAPON_ONLY).crit_damage == parse("1d8+3").doubled()
