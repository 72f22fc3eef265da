"""Natural weapons in the fight: always armed for opportunity attacks, never magical (NAT-4, NAT-7)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.content.schema import WeaponProperty
from ashfall.core.types import DamageType
from ashfall.engine import FirstOption, Stride, Strike
from ashfall.rules.damage_defenses import Defenses, is_magical_weapon
from tests.engine.maneuver_helpers import LIB, fighter, script, started


@pytest.mark.rule("NAT-4", "RX-24")
def test_nat_4__a_creature_with_only_natural_weapons_makes_an_aoo() -> None:
    mutant = fighter("m", "mutants", (2, 1), "mutant")
    assert mutant.weapons and all(w.has(WeaponProperty.NATURAL) for w in mutant.weapons)  # claws only
    eng = started([fighter("r", "raiders", (3, 1), "raider"), mutant], controllers={"m": FirstOption()})
    with script(eng, [15, 4]):  # the AoO: its d20, then the claw's 1d6
        events = eng.submit(Stride("r", ((4, 1), (5, 1))))
    assert any(type(e).__name__ == "ReactionSpent" and e.actor == "m" for e in events)


@pytest.mark.rule("NAT-7")
def test_nat_7__natural_weapons_do_not_bypass_resistance_to_nonmagical_weapons() -> None:
    claw = next(w for w in LIB.weapons_of(LIB.creature("mutant")))
    assert not is_magical_weapon(claw, frozenset())
    assert is_magical_weapon(claw, frozenset({"magical-natural-weapons"}))
    golem = LIB.creature("raider").model_copy(update={"nonmagical_resistances": frozenset({DamageType.SLASHING})})
    assert DamageType.SLASHING in Defenses.of_creature(golem).resistances
    assert DamageType.SLASHING not in Defenses.of_creature(golem, magical_weapon=True).resistances


@pytest.mark.rule("NAT-7", "RVI-1")
def test_nat_7__a_claw_hit_is_halved_by_nonmagical_resistance_in_the_fight() -> None:
    tough = fighter("t", "raiders", (3, 1), "raider", nonmagical_resistances=frozenset({
        DamageType.SLASHING, DamageType.PIERCING, DamageType.BLUDGEONING}))
    eng = started([fighter("m", "mutants", (2, 1), "mutant"), tough])
    eng.state.get("t").health = replace(eng.state.get("t").health, hp=11)
    with script(eng, [19, 5]):
        events = eng.submit(Strike("m", "t"))
    taken = [e for e in events if type(e).__name__ == "DamageTaken"]
    assert taken and any(r.step == "resistance" and r.rule == "RVI-1" for r in taken[0].rows)
