"""The exact odds agree with the engine's own resolution: sampled resolve_attack + roll_damage + the ledger.

Sampling uses a fixed seed, so these tests are deterministic; the tolerance is 4 standard errors.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from ashfall.content.schema import Attributes, Creature, DrEntry, Weapon, WeaponKind
from ashfall.core.modifiers import Modifier, ModifierKind, stack
from ashfall.core.rng import SeededRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import DamageType
from ashfall.families.attacks.rules import AttackContext, resolve_attack
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.attacks.rules_map import map_modifier
from ashfall.odds import attack_odds
from ashfall.odds.attack import apply_steps, damage_steps
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_ledger import damage_ledger, roll_damage
from ashfall.rules.defense import DefenseBreakdown
from ashfall.ruleset import preset

ED2 = preset("ashfall-2")
TRIALS = 20_000
# +7 to hit (MIG 3 + proficiency 4) and 1d10+3 slashing (weapon die + MIG): the catalog's Salvaged Sword example.
FIGHTER = Creature(id="fighter", name="fighter", hp=20, proficiency=4, attributes=Attributes(MIG=3),
                   weapon_proficiencies=frozenset({"martial"}))
SWORD = Weapon(id="sword", name="sword", kind=WeaponKind.MELEE, damage="1d10", damage_type=DamageType.SLASHING,
               category="martial")


def _dv(total: int) -> DefenseBreakdown:
    return DefenseBreakdown(total, stack([Modifier(total, ModifierKind.DV_BASE, rule("DV-1"), "DV")]))


def _within(observed: float, exact: Fraction, sd: float) -> None:
    se = sd / math.sqrt(TRIALS)
    assert abs(observed - float(exact)) <= 4 * se + 1e-12, (observed, float(exact), se)


@pytest.mark.slow
@pytest.mark.rule("ATK-4", "CRIT-1", "CRIT-2", "CRIT-3", "MAP-1", "MAA-5", "DR-3", "RVI-1")
@pytest.mark.parametrize(
    ("attack_number", "activity", "dr", "resist"),
    [(1, Activity.STRIKE, 0, False), (2, Activity.STRIKE, 0, False), (1, Activity.POWER_STRIKE, 0, False),
     (1, Activity.STRIKE, 4, True)],
)
def test_sampled_engine_attacks_match_the_exact_odds(attack_number: int, activity: Activity, dr: int,
                                                     resist: bool) -> None:
    exact = attack_odds(7, 16, "1d10+3 slashing", attack_number=attack_number,
                        power_strike=activity is Activity.POWER_STRIKE, dr=dr, resist=resist)
    context = AttackContext(activity=activity, map_modifier=map_modifier(attack_number - 1, ED2))
    defenses = Defenses(resistances=frozenset({DamageType.SLASHING}) if resist else frozenset(),
                        dr=(DrEntry(amount=dr, source="plate"),) if dr else ())
    rng = SeededRng(20_240_601 + attack_number)
    hits = crits = 0
    total = 0
    for _ in range(TRIALS):
        result = resolve_attack(FIGHTER, SWORD, AttackMode.MELEE, _dv(16), context, rng, ED2)
        if not result.hit:
            continue
        hits += 1
        crits += result.crit
        rolled = roll_damage(result.damage_parts, rng, ED2, critical=result.crit)
        total += sum(n for _, n in damage_ledger(rolled, defenses, ED2).final)
    assert exact.total_bonus == 7 - 3 * (attack_number - 1) - 2 * (activity is Activity.POWER_STRIKE)
    p_hit, p_crit = float(exact.p_hit), float(exact.p_crit)
    _within(hits / TRIALS, exact.p_hit, math.sqrt(p_hit * (1 - p_hit)))
    _within(crits / TRIALS, exact.p_crit, math.sqrt(p_crit * (1 - p_crit)))
    variance = sum(float(p) * (d - float(exact.expected_damage)) ** 2 for d, p in exact.distribution.items())
    _within(total / TRIALS, exact.expected_damage, math.sqrt(variance))


@pytest.mark.rule("DR-1", "DR-3", "RVI-1", "RVI-2", "RVI-3", "G-42", "G-43")
@pytest.mark.parametrize("raw", range(-3, 30))
@pytest.mark.parametrize(
    ("dr", "resist", "vulnerable", "immune"),
    [(0, False, False, False), (5, True, False, False), (3, False, True, False), (2, True, True, False),
     (4, False, False, True)],
)
def test_damage_steps_agree_with_the_engine_ledger(raw: int, dr: int, resist: bool, vulnerable: bool,
                                                   immune: bool) -> None:
    fire = DamageType.FIRE
    defenses = Defenses(
        resistances=frozenset({fire}) if resist else frozenset(),
        vulnerabilities=frozenset({fire}) if vulnerable else frozenset(),
        immunities=frozenset({fire}) if immune else frozenset(),
        dr=(DrEntry(amount=dr, source="ward"),) if dr else (),
    )
    engine = dict(damage_ledger({fire: raw}, defenses, ED2).final)[fire]
    steps = damage_steps(dr, resist=resist, vulnerable=vulnerable, immune=immune, ruleset=ED2)
    assert apply_steps(raw, steps) == engine
