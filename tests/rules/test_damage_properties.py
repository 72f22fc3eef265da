"""Invariants of the damage ledger (hypothesis): never negative, HP in range, temp HP bounds, determinism."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.content.schema import DrEntry
from ashfall.core.dice import parse
from ashfall.core.rng import SeededRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import DamageType
from ashfall.families.objects.rules import apply_object_damage
from ashfall.rules.damage import LedgerStep, apply_damage, grant_temp_hp, roll_damage
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset

RULESETS = st.sampled_from([
    preset("ashfall-2"),
    preset("ashfall-1"),
    preset("ashfall-2").with_options(damage={
        "resist_vuln": "halve-then-double",
        "massive_damage_basis": "before-temp-hp",
        "hardness_bypass": "energy-and-force",
    }),
])
TYPES = st.sampled_from(list(DamageType))
TYPE_SETS = st.frozensets(TYPES, max_size=4)
AMOUNTS = st.dictionaries(TYPES, st.integers(-10, 200), min_size=1, max_size=5)
DR_ENTRIES = st.builds(
    DrEntry,
    amount=st.integers(0, 12),
    types=st.frozensets(TYPES, max_size=2),
    physical_only=st.booleans(),
    source=st.sampled_from(["plate", "grit", "care"]),
    from_armor=st.booleans(),
)
DEFENSES = st.builds(
    Defenses,
    resistances=TYPE_SETS,
    vulnerabilities=TYPE_SETS,
    immunities=TYPE_SETS,
    dr=st.lists(DR_ENTRIES, max_size=4).map(tuple),
    resist_all=st.booleans(),
)


@st.composite
def healths(draw: st.DrawFn) -> Health:
    max_hp = draw(st.integers(1, 120))
    vitality = draw(st.sampled_from(list(Vitality)))
    hp = 0 if vitality is not Vitality.ALIVE else draw(st.integers(1, max_hp))
    failures = draw(st.integers(0, 2)) if vitality is Vitality.DYING else 0
    temp = draw(st.integers(0, 30))
    return Health(hp, max_hp, temp, "ward" if temp else "", vitality, 0, failures, draw(st.booleans()))


KWARGS = st.fixed_dictionaries({
    "critical": st.booleans(),
    "deflect": st.integers(-3, 20),
    "ignore_armor_dr": st.booleans(),
})


@pytest.mark.rule("G-42", "DR-1", "RVI-1", "THP-1", "G-39")
@settings(max_examples=300, deadline=None)
@given(healths(), AMOUNTS, DEFENSES, RULESETS, KWARGS)
def test_g_42__damage_never_negative_hp_in_range_and_accounted(
    health: Health, amounts: dict[DamageType, int], defenses: Defenses, rs: Ruleset, kwargs: dict[str, object]
) -> None:
    result = apply_damage(health, amounts, defenses, rs, **kwargs)  # type: ignore[arg-type]
    after = result.health_after
    assert all(n >= 0 for _, n in result.final)
    assert all(r.after >= 0 for r in result.rows if r.step is not LedgerStep.ROLLED)
    assert 0 <= after.hp <= after.max_hp and 0 <= after.temp_hp <= health.temp_hp
    assert result.total_to_temp + result.total_to_hp <= result.total
    assert result.total_to_temp == health.temp_hp - after.temp_hp
    if health.vitality is Vitality.ALIVE and not after.is_dead:
        assert after.hp == health.hp - result.total_to_hp
    assert result.rows == apply_damage(health, amounts, defenses, rs, **kwargs).rows  # type: ignore[arg-type]
    assert result == apply_damage(health, amounts, defenses, rs, **kwargs)  # type: ignore[arg-type]
    if after.is_dead and not health.is_dead:
        assert result.killed is not None
    if health.is_dead:
        assert after == health


@pytest.mark.rule("THP-2", "THP-4")
@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 40), st.integers(0, 40), st.sampled_from(["ward", "second-wind"]),
    st.one_of(st.none(), st.integers(0, 30)), RULESETS,
)
def test_thp_2__temp_hp_never_exceed_the_higher_except_arcane_ward(
    old: int, amount: int, source: str, stacking_max: int | None, rs: Ruleset
) -> None:
    health = Health(10, 10, temp_hp=old, temp_source="ward" if old else "")
    result = grant_temp_hp(health, amount, source, rs, stacking_max=stacking_max)
    new = result.health.temp_hp
    assert new >= old and result.applied is (new > old)
    if stacking_max is None:
        assert new == max(old, amount)
    else:
        assert new <= max(old, stacking_max)


@pytest.mark.rule("OBJ-3", "OBJ-4", "G-42")
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), AMOUNTS, st.integers(0, 15), st.booleans(), st.booleans(), RULESETS)
def test_obj_3__object_hp_stays_in_range(
    hp: int, amounts: dict[DamageType, int], hardness: int, fragile: bool, flammable: bool, rs: Ruleset
) -> None:
    defenses = Defenses.of_object(hardness, fragile=fragile, flammable=flammable)
    result = apply_object_damage(hp, amounts, defenses, rs)
    assert 0 <= result.hp_after <= hp
    assert all(n >= 0 for _, n in result.final)
    assert result.destroyed is (result.hp_after == 0)
    assert result.final == apply_object_damage(hp, amounts, defenses, rs).final


@pytest.mark.rule("CRIT-2", "G-40")
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["1d10", "2d6", "1d4+1"]), st.integers(-3, 6), RULESETS)
def test_crit_2__crit_rolls_twice_the_dice_and_flat_once(seed: int, dice: str, flat: int, rs: Ruleset) -> None:
    parts = (DamagePart(DamageType.SLASHING, rule("DMG-2"), "weapon", parse(dice), 0, True),
             DamagePart(DamageType.SLASHING, rule("DMG-2"), "MIG", None, flat))
    normal = roll_damage(parts, SeededRng(seed), rs, critical=False)
    crit = roll_damage(parts, SeededRng(seed), rs, critical=True)
    assert crit == roll_damage(parts, SeededRng(seed), rs, critical=True)
    assert crit.parts[0].roll is not None and normal.parts[0].roll is not None
    assert len(crit.parts[0].roll.faces) == 2 * len(normal.parts[0].roll.faces)
    assert crit.parts[1].total == normal.parts[1].total == flat
