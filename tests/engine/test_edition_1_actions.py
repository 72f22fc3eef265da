"""Edition 1 actions in the turn engine: Extra Attack's MAP per Strike action (E-01) and Aim (E-05)."""

from __future__ import annotations

import pytest

from ashfall.engine import Aim, ExtraAttackStrike, Refused, Step, Stride, Strike, legal_intents
from ashfall.engine import events as ev
from ashfall.engine.effects import EffectKind

from .activity_kit import ED1, ED2, attacks, fighter, map_of, mods, of_type, script, started


def brawl(ruleset=ED1, talents=("extra-attack",)) -> list:
    return [fighter("w", "party", (5, 5), talents=talents, ruleset=ruleset),
            fighter("c", "raiders", (5, 6), "raider-enforcer", ruleset=ruleset),
            fighter("d", "raiders", (6, 6), "raider-enforcer", ruleset=ruleset)]


# ----- Extra Attack (E-01) -----


@pytest.mark.rule("E-01", "MAP-1", "MAP-2")
def test_e_01__edition_1_extra_attack_two_strike_actions_give_0_0_minus_3_minus_3():
    e = started(brawl(), ruleset=ED1)
    with script(e, [(20, 2)] * 5):
        out = e.submit(ExtraAttackStrike("w", "c", "d", "greataxe")) + e.submit(ExtraAttackStrike("w", "c"))
        out += e.submit(Strike("w", "c", "greataxe"))
    rolls = attacks(out)
    assert [map_of(a) for a in rolls] == [0, 0, -3, -3, -6]
    assert all(mods(a).get("E-01", 0) == map_of(a) for a in rolls)
    assert [a.target for a in rolls[:2]] == ["c", "d"]
    assert [x.count for x in of_type(out, ev.ActionsSpent)] == [1, 1, 1]


@pytest.mark.rule("E-01", "MAP-1", "MAP-2")
def test_e_01__edition_2_has_no_extra_attack_and_counts_every_attack_roll():
    e = started(brawl(ED2), ruleset=ED2)
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(ExtraAttackStrike("w", "c", weapon="greataxe"))
    assert err.value.rule == "E-01"
    with script(e, [(20, 2)] * 3):
        out = e.submit(Strike("w", "c", "greataxe")) + e.submit(Strike("w", "c", "greataxe"))
        out += e.submit(Strike("w", "c", "greataxe"))
    assert [map_of(a) for a in attacks(out)] == [0, -3, -6]
    assert all("MAP-1" in mods(a) for a in attacks(out)[1:])


@pytest.mark.rule("E-01")
def test_e_01__extra_attack_needs_the_feature():
    e = started(brawl(talents=()), ruleset=ED1)
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(ExtraAttackStrike("w", "c", weapon="greataxe"))
    assert err.value.rule == "E-01"


@pytest.mark.rule("E-01")
def test_e_01__edition_1_strike_then_extra_attack_gives_0_then_minus_3_minus_3():
    e = started(brawl(), ruleset=ED1)
    with script(e, [(20, 2)] * 3):
        out = e.submit(Strike("w", "c", "greataxe")) + e.submit(ExtraAttackStrike("w", "c", weapon="greataxe"))
    assert [map_of(a) for a in attacks(out)] == [0, -3, -3]


# ----- Aim (E-05) -----


def range_fight(ruleset=ED1) -> list:
    return [fighter("g", "party", (1, 1), "gunslinger", ruleset=ruleset),
            fighter("a", "raiders", (8, 1), "raider", ruleset=ruleset)]


@pytest.mark.rule("E-05")
def test_e_05__aim_gives_plus_2_to_the_next_ranged_attack_and_is_used_up():
    e = started(range_fight(), ruleset=ED1)
    with script(e, [(20, 2), (20, 2)]):
        out = e.submit(Aim("g")) + e.submit(Strike("g", "a", "pistol")) + e.submit(Strike("g", "a", "pistol"))
    first, second = attacks(out)
    assert mods(first)["E-05"] == 2 and "E-05" not in mods(second)
    assert not e.state.effects_on("g", EffectKind.AIMED)


@pytest.mark.rule("E-05")
@pytest.mark.parametrize("move", [Step("g", (2, 1)), Stride("g", ((2, 1), (3, 1)))], ids=["step", "stride"])
def test_e_05__aim_is_lost_after_a_step_or_stride(move):
    e = started(range_fight(), ruleset=ED1)
    with script(e, [(20, 2)]):
        out = e.submit(Aim("g")) + e.submit(move) + e.submit(Strike("g", "a", "pistol"))
    assert "E-05" not in mods(attacks(out)[0])
    assert not e.state.effects_on("g", EffectKind.AIMED)


@pytest.mark.rule("E-05")
def test_e_05__moving_before_aiming_keeps_the_bonus():
    e = started(range_fight(), ruleset=ED1)
    with script(e, [(20, 2)]):
        out = e.submit(Step("g", (2, 1))) + e.submit(Aim("g")) + e.submit(Strike("g", "a", "pistol"))
    assert mods(attacks(out)[0])["E-05"] == 2


@pytest.mark.rule("E-05")
def test_e_05__a_melee_attack_does_not_use_up_aim_and_aim_ends_with_the_turn():
    e = started([fighter("g", "party", (1, 1), "gunslinger", weapons=("pistol", "combat-knife"), ruleset=ED1),
                 fighter("a", "raiders", (2, 1), "raider", ruleset=ED1)], ruleset=ED1)
    with script(e, [(20, 2)]):
        out = e.submit(Aim("g")) + e.submit(Strike("g", "a", "combat-knife"))
    assert "E-05" not in mods(attacks(out)[0]) and e.state.effects_on("g", EffectKind.AIMED)
    e.end_turn("g")
    assert not e.state.effects_on("g", EffectKind.AIMED)


@pytest.mark.rule("E-05")
def test_e_05__aim_refused_in_edition_2_and_when_already_aiming():
    e = started(range_fight(ED2), ruleset=ED2)
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(Aim("g"))
    assert err.value.rule == "E-05"
    e = started(range_fight(), ruleset=ED1)
    with script(e, []):
        e.submit(Aim("g"))
        with pytest.raises(Refused) as err:
            e.submit(Aim("g"))
    assert err.value.rule == "E-05"


def test_legal_intents__edition_1_offers_aim_and_extra_attack_edition_2_does_not():
    ed1 = {type(i).__name__ for i in legal_intents(started(brawl(), ruleset=ED1), "w")}
    ed2 = {type(i).__name__ for i in legal_intents(started(brawl(ED2), ruleset=ED2), "w")}
    assert "ExtraAttackStrike" in ed1 and "ExtraAttackStrike" not in ed2 and "Aim" not in ed2
