"""Attack activities in the turn engine: MAP over a turn, Power Strike, All-Out Attack, Sweeping Strike,
Full Auto Burst, two-weapon fighting, Coup de Grace, Reload and Draw/Stow (MAP, MAA, SWP, TWF, CDG, G-31)."""

from __future__ import annotations

import pytest

from ashfall.core.types import Condition
from ashfall.engine import (
    AllOutAttack,
    CoupDeGrace,
    DrawStow,
    FullAutoBurst,
    OffHandStrike,
    PowerStrike,
    Refused,
    Reload,
    Strike,
    SweepingStrike,
    legal_intents,
)
from ashfall.engine import events as ev
from ashfall.rules.health import Health, Vitality

from .activity_kit import ED1, ED2, attacks, damage_to, fighter, map_of, mods, of_type, script, started


def raiders() -> list:
    """The Warrior of the Sweeping Strike example and raiders A (DV 13), B (DV 14), C (DV 16) around it."""
    return [
        fighter("w", "party", (5, 5)),
        fighter("a", "raiders", (6, 5), "raider"),
        fighter("b", "raiders", (6, 6), "raider-scout"),
        fighter("c", "raiders", (5, 6), "raider-enforcer"),
    ]


# ----- MAP over a turn (MAP-1, MAP-2) -----


@pytest.mark.rule("MAP-1", "MAP-2", "ACT-7", "AE-1")
def test_map_1__three_strikes_in_a_turn_take_0_then_minus_3_then_minus_6():
    e = started(raiders())
    out: list = []
    with script(e, [(20, 10), (12, 1), (20, 10), (20, 10)]):
        for _ in range(3):
            out += e.submit(Strike("w", "c", "greataxe"))
    rolls = attacks(out)
    assert [map_of(a) for a in rolls] == [0, -3, -6]
    assert [a.roll.total for a in rolls] == [17, 14, 11]
    assert [a.outcome for a in rolls] == ["hit", "miss", "miss"]
    assert damage_to(out, "c") == [5]
    assert e.state.get("w").turn.actions_left == 0


# ----- Power Strike (MAA-5, G-36) -----


@pytest.mark.rule("MAA-5", "G-36", "MAP-1", "G-41", "MAA-1")
def test_power_strike_then_strike__power_strike_at_minus_2_plus_4_damage_next_strike_at_minus_3():
    e = started(raiders())
    with script(e, [(20, 10), (12, 3), (20, 5)]):
        out = e.submit(PowerStrike("w", "a", "greataxe")) + e.submit(Strike("w", "b", "greataxe"))
    power, strike = attacks(out)
    assert mods(power)["MAA-5"] == -2 and map_of(power) == 0
    assert power.roll.total == 15 and power.label == "Power Strike"
    assert damage_to(out, "a") == [3 + 4 + 4]
    assert map_of(strike) == -3 and mods(strike)["MAP-1"] == -3
    assert of_type(out, ev.ActionsSpent)[0].count == 2


@pytest.mark.rule("MAA-5", "G-36", "CRIT-2")
def test_power_strike__crit_doubles_dice_but_adds_the_plus_4_once():
    e = started(raiders())
    with script(e, [(20, 20), (12, 2), (12, 3)]):
        out = e.submit(PowerStrike("w", "c", "greataxe"))
    assert attacks(out)[0].outcome == "crit"
    assert damage_to(out, "c") == [2 + 3 + 4 + 4]


@pytest.mark.rule("G-36")
def test_power_strike__melee_only_option_refuses_a_ranged_power_strike_before_rolling():
    rs = ED2.with_options(attack={"power_strike_melee_only": True})
    e = started([fighter("g", "party", (1, 1), "gunslinger"), fighter("a", "raiders", (8, 1), "raider")], ruleset=rs)
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(PowerStrike("g", "a", "pistol"))
    assert err.value.rule == "G-36"


# ----- All-Out Attack (MAA-7, MAP-5) -----


@pytest.mark.rule("MAA-7", "MAP-5", "MAA-1")
@pytest.mark.parametrize("ruleset", [ED2, ED1], ids=["ed2", "ed1"])
def test_maa_7__all_out_attack_makes_three_attacks_at_0_minus_3_minus_6(ruleset):
    e = started([fighter("w", "party", (5, 5), ruleset=ruleset),
                 fighter("c", "raiders", (5, 6), "raider-enforcer", ruleset=ruleset)], ruleset=ruleset)
    with script(e, [(20, 2), (20, 2), (20, 2)]):
        out = e.submit(AllOutAttack("w", ("c",), "greataxe"))
    rolls = attacks(out)
    assert [map_of(a) for a in rolls] == [0, -3, -6]
    assert all(mods(a).get("MAP-5", 0) == map_of(a) for a in rolls)
    assert of_type(out, ev.ActionsSpent)[0].count == 3


@pytest.mark.rule("MAA-7", "AE-1", "MAA-1")
def test_all_out_attack__with_two_actions_left_is_refused_ae_1_before_rolling():
    e = started(raiders())
    with script(e, [(20, 1)]):
        e.submit(Strike("w", "c", "greataxe"))
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(AllOutAttack("w", ("c",), "greataxe"))
    assert err.value.rule == "AE-1"


@pytest.mark.rule("MAA-7")
def test_all_out_attack__one_target_per_attack_or_one_for_all():
    e = started(raiders())
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(AllOutAttack("w", ("a", "b"), "greataxe"))
    assert err.value.rule == "MAA-7"
    with script(e, [(20, 1), (20, 1), (20, 1)]):
        out = e.submit(AllOutAttack("w", ("a", "b", "c"), "greataxe"))
    assert [a.target for a in attacks(out)] == ["a", "b", "c"]


# ----- Sweeping Strike (SWP-1..3, G-09, E-10) -----


@pytest.mark.rule("SWP-1", "SWP-2", "SWP-3", "G-09", "MAA-3", "G-41", "MAP-2")
def test_swp_2__sweeping_strike_one_roll_of_15_hits_dv_13_and_14_misses_dv_16():
    """000 line 1010: 1d20-2 = 15; Raider A takes 1d12+4, Raider B 1d12 only, Raider C is missed."""
    e = started(raiders())
    with script(e, [(20, 10), (12, 6), (12, 6), (20, 10)]):
        out = e.submit(SweepingStrike("w", ("a", "b", "c"), "greataxe"))
        after = e.submit(Strike("w", "c", "greataxe"))
    rolls = attacks(out)
    assert {a.roll.total for a in rolls} == {15} and len({a.roll.faces for a in rolls}) == 1
    assert mods(rolls[0])["SWP-1"] == -2
    assert [(a.target, a.dv, a.outcome) for a in rolls] == [("a", 13, "hit"), ("b", 14, "hit"), ("c", 16, "miss")]
    assert [a.counts_for_map for a in rolls] == [True, False, False]
    assert damage_to(out, "a") == [6 + 4] and damage_to(out, "b") == [6] and damage_to(out, "c") == []
    assert "SWP-3" in rolls[1].reasons
    assert map_of(attacks(after)[0]) == -3


@pytest.mark.rule("E-10", "SWP-1")
def test_e_10__sweeping_strike_does_not_exist_in_edition_1():
    e = started([fighter("w", "party", (5, 5), ruleset=ED1), fighter("a", "raiders", (6, 5), "raider", ruleset=ED1)],
                ruleset=ED1)
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(SweepingStrike("w", ("a",), "greataxe"))
    assert err.value.rule == "E-10"


@pytest.mark.rule("SWP-1")
@pytest.mark.parametrize("targets", [("a", "b", "c", "d"), ("a", "a"), ("a", "d")],
                         ids=["four-targets", "same-twice", "out-of-reach"])
def test_swp_1__sweeping_strike_refusals(targets):
    e = started([*raiders(), fighter("d", "raiders", (9, 9), "raider")])
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(SweepingStrike("w", targets, "greataxe"))
    assert err.value.rule == "SWP-1"


@pytest.mark.rule("SWP-1", "MAA-3")
def test_swp_1__sweeping_strike_needs_a_melee_weapon():
    e = started([fighter("g", "party", (5, 5), "gunslinger"), fighter("a", "raiders", (6, 5), "raider")])
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(SweepingStrike("g", ("a",), "pistol"))
    assert err.value.rule == "SWP-1"


@pytest.mark.rule("SWP-6", "NAT-6", "SWP-1")
def test_swp_6__a_10_ft_natural_reach_sweeps_targets_two_squares_away():
    e = started([fighter("m", "party", (5, 5), "prehensile-mutant"),
                 fighter("a", "raiders", (7, 5), "raider"), fighter("b", "raiders", (7, 7), "raider-scout")])
    with script(e, [(20, 15), (6, 1), (6, 1)]):
        out = e.submit(SweepingStrike("m", ("a", "b"), "prehensile-limbs"))
    assert [a.outcome for a in attacks(out)] == ["hit", "hit"]


# ----- Full Auto Burst (MAA-2, G-35, X-12) -----


def gunfight(ammo: int | None = None) -> list:
    return [
        fighter("g", "party", (1, 1), "gunslinger", ammo={"submachine-gun": ammo} if ammo is not None else None),
        fighter("a", "raiders", (8, 1), "raider"),
        fighter("b", "raiders", (8, 2), "raider-scout"),
        fighter("c", "raiders", (9, 3), "raider-enforcer"),
        fighter("far", "raiders", (15, 1), "raider"),
    ]


@pytest.mark.rule("MAA-2", "G-35", "X-12", "G-41", "MAA-1")
def test_maa_2__full_auto_burst_one_roll_at_minus_2_against_three_clustered_targets():
    e = started(gunfight())
    with script(e, [(20, 10), (8, 3), (8, 4), (8, 5), (20, 2)]):
        out = e.submit(FullAutoBurst("g", ("a", "b", "c"), "submachine-gun"))
        after = e.submit(Strike("g", "a", "submachine-gun"))
    rolls = attacks(out)
    assert [a.roll.total for a in rolls] == [16, 16, 16]
    assert mods(rolls[0])["MAA-2"] == -2
    assert [a.outcome for a in rolls] == ["hit", "hit", "hit"]
    assert [damage_to(out, t) for t in "abc"] == [[3], [4], [5]]
    assert [a.counts_for_map for a in rolls] == [True, False, False]
    assert e.state.get("g").ammo["submachine-gun"] == 30 - 3 - 1
    assert map_of(attacks(after)[0]) == -3


@pytest.mark.rule("X-12", "G-35", "MAA-2")
@pytest.mark.parametrize(("targets", "ammo", "rule_id"), [
    (("a", "far"), None, "X-12"),
    (("a", "b", "c"), 2, "G-35"),
    (("a", "b", "c", "far"), None, "MAA-2"),
], ids=["spread-too-wide", "not-enough-ammo", "four-targets"])
def test_full_auto_burst__refused_before_rolling(targets, ammo, rule_id):
    e = started(gunfight(ammo))
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(FullAutoBurst("g", targets, "submachine-gun"))
    assert err.value.rule == rule_id


@pytest.mark.rule("MAA-2")
def test_maa_2__full_auto_burst_needs_a_ranged_weapon():
    e = started([fighter("o", "party", (5, 5), "operative", weapons=("combat-knife",)),
                 fighter("a", "raiders", (6, 5), "raider")])
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(FullAutoBurst("o", ("a",), "combat-knife"))
    assert err.value.rule in ("MAA-2", "ATK-2")


# ----- two-weapon fighting (TWF-1..8, X-11, E-40) -----


def dual(weapons: tuple[str, str], ruleset=ED2) -> list:
    return [fighter("o", "party", (5, 5), "operative", weapons=weapons, ruleset=ruleset),
            fighter("c", "raiders", (5, 6), "raider-enforcer", ruleset=ruleset)]


@pytest.mark.rule("TWF-1", "TWF-2", "TWF-3", "TWF-4", "TWF-7", "TWF-8", "X-11", "MAP-8")
def test_twf_8__own_schedule_main_0_offhand_0_third_attack_minus_3():
    e = started(dual(("combat-knife", "combat-knife")))
    with script(e, [(20, 2), (20, 15), (6, 4), (20, 2)]):
        out = e.submit(Strike("o", "c", "combat-knife"))
        out += e.submit(OffHandStrike("o", "c", "combat-knife"))
        out += e.submit(Strike("o", "c", "combat-knife"))
    main, off, third = attacks(out)
    assert (map_of(main), map_of(off), map_of(third)) == (0, 0, -3)
    assert mods(off)["TWF-4"] == 0 and mods(third)["TWF-8"] == -3
    assert damage_to(out, "c") == [4]  # TWF-4: no MIG on off-hand damage


@pytest.mark.rule("TWF-5", "TWF-8", "X-11")
def test_twf_5__non_light_offhand_takes_minus_2():
    e = started(dual(("combat-knife", "salvaged-sword")))
    with script(e, [(20, 2), (20, 2)]):
        out = e.submit(Strike("o", "c", "combat-knife"))
        out += e.submit(OffHandStrike("o", "c", "salvaged-sword"))
    assert mods(attacks(out)[1])["TWF-5"] == -2 and map_of(attacks(out)[1]) == 0


@pytest.mark.rule("X-11", "MAP-8", "TWF-8", "MAP-1")
def test_x_11__strict_map_option_gives_the_offhand_minus_3_and_the_third_minus_6():
    rs = ED2.with_options(attack={"twf_schedule": "strict-map"})
    e = started(dual(("combat-knife", "combat-knife"), rs), ruleset=rs)
    with script(e, [(20, 2), (20, 2), (20, 2)]):
        out = e.submit(Strike("o", "c", "combat-knife"))
        out += e.submit(OffHandStrike("o", "c", "combat-knife"))
        out += e.submit(Strike("o", "c", "combat-knife"))
    assert [map_of(a) for a in attacks(out)] == [0, -3, -6]


@pytest.mark.rule("TWF-6")
def test_twf_6__two_weapon_fighting_ability_adds_mig_to_offhand_damage():
    cs = dual(("combat-knife", "combat-knife"))
    cs[0] = fighter("o", "party", (5, 5), "operative", weapons=("combat-knife", "combat-knife"),
                    talents=("two-weapon-fighting",))
    e = started(cs)
    with script(e, [(20, 2), (20, 15), (6, 4)]):
        e.submit(Strike("o", "c", "combat-knife"))
        out = e.submit(OffHandStrike("o", "c", "combat-knife"))
    assert damage_to(out, "c") == [4 + 3]


@pytest.mark.rule("TWF-1", "TWF-2", "TWF-3", "E-40")
@pytest.mark.parametrize(("weapons", "ruleset", "first", "rule_id"), [
    (("combat-knife", "combat-knife"), ED2, False, "TWF-2"),
    (("combat-knife",), ED2, True, "TWF-1"),
    (("combat-knife", "greataxe"), ED2, True, "TWF-1"),
    (("combat-knife", "salvaged-sword"), ED1, True, "E-40"),
], ids=["no-main-hand-attack-yet", "one-weapon", "two-handed", "edition-1-needs-light"])
def test_offhand_strike__refusals(weapons, ruleset, first, rule_id):
    e = started([fighter("o", "party", (5, 5), "operative", weapons=weapons, ruleset=ruleset),
                 fighter("c", "raiders", (5, 6), "raider-enforcer", ruleset=ruleset)], ruleset=ruleset)
    if first:
        with script(e, [(20, 2)]):
            e.submit(Strike("o", "c", "combat-knife"))
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(OffHandStrike("o", "c", weapons[-1]))
    assert err.value.rule == rule_id


@pytest.mark.rule("TWF-3")
def test_twf_3__only_one_offhand_attack_per_turn():
    e = started(dual(("combat-knife", "combat-knife")))
    with script(e, [(20, 2), (20, 2)]):
        e.submit(Strike("o", "c", "combat-knife"))
        e.submit(OffHandStrike("o", "c", "combat-knife"))
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(OffHandStrike("o", "c", "combat-knife"))
    assert err.value.rule == "TWF-3"


# ----- Coup de Grace (CDG-1..5, CDG-7, G-41, X-08) -----


def execution(target_health: Health | None = None, conditions=(), creature: str = "guard", **kw) -> list:
    return [fighter("o", "party", (5, 5), "operative"),
            fighter("g", "guards", kw.get("pos", (5, 6)), creature, health=target_health, conditions=conditions),
            fighter("x", "guards", (15, 15), "guard")]


STABILISED = Health(0, 9, vitality=Vitality.STABILIZED, uses_death_saves=True)


def rolled_damage(events: list) -> list[int]:
    """The damage rolled per damage event (before HP: a creature at 0 HP loses none)."""
    return [x.rows[0].after for x in of_type(events, ev.DamageTaken)]


@pytest.mark.rule("CDG-1", "CDG-2", "CDG-3", "CDG-7", "X-08", "G-40", "MASS-3")
@pytest.mark.parametrize(("faces", "damage", "killer"), [((1, 2), 6, "CDG-3"), ((3, 4), 10, "MASS-3")],
                         ids=["6-damage", "10-average"])
def test_cdg_7__coup_de_grace_with_a_combat_knife_kills_a_stabilised_guard(faces, damage, killer):
    """000 line 1081: combat knife 1d6+3 becomes 2d6+3; the stabilised guard (0 HP, X-08) dies, no death saves."""
    e = started(execution(STABILISED))
    with script(e, [(6, faces[0]), (6, faces[1])]):
        out = e.submit(CoupDeGrace("o", "g", "combat-knife"))
    blow = attacks(out)[0]
    assert blow.outcome == "crit" and blow.roll.faces == () and "CDG-2" in blow.reasons
    assert rolled_damage(out) == [damage]
    assert e.state.get("g").health.is_dead
    assert killer in {x.rule for x in out if isinstance(x, (ev.DamageTaken, ev.HealthSet))}


@pytest.mark.rule("CDG-3")
def test_cdg_3__a_dying_creature_left_at_0_hp_dies_without_death_saves():
    e = started(execution(Health(0, 9, vitality=Vitality.DYING, uses_death_saves=True)))
    with script(e, [(6, 1), (6, 1)]):
        out = e.submit(CoupDeGrace("o", "g", "combat-knife"))
    assert [x.rule for x in of_type(out, ev.HealthSet)] == ["CDG-3"]
    assert e.state.get("g").health.vitality is Vitality.DEAD


@pytest.mark.rule("CDG-4", "CDG-2")
def test_cdg_4__a_target_with_hp_left_wakes_up_prone():
    e = started(execution(conditions=(Condition.UNCONSCIOUS,), creature="raider-enforcer"))
    with script(e, [(6, 1), (6, 1)]):
        out = e.submit(CoupDeGrace("o", "g", "combat-knife"))
    g = e.state.get("g")
    assert damage_to(out, "g") == [5] and g.health.hp == 14
    assert not g.has(Condition.UNCONSCIOUS) and g.has(Condition.PRONE)
    assert any(x.rule == "CDG-4" for x in of_type(out, ev.ConditionRemoved))


@pytest.mark.rule("G-41", "CDG-2", "MAP-9")
def test_g_41__coup_de_grace_takes_no_map_but_counts_as_an_attack():
    e = started(execution(STABILISED))
    with script(e, [(20, 5)]):
        e.submit(Strike("o", "x", "pistol"))
    with script(e, [(6, 1), (6, 1), (20, 5)]):
        out = e.submit(CoupDeGrace("o", "g", "combat-knife"))
        out += e.submit(Strike("o", "x", "pistol"))
    blow, shot = attacks(out)
    assert blow.counts_for_map and blow.roll.modifiers == ()
    assert map_of(shot) == -6


@pytest.mark.rule("CDG-1", "CDG-5")
@pytest.mark.parametrize(("conditions", "pos", "talents", "rule_id"), [
    ((Condition.STUNNED,), (5, 6), (), "CDG-1"),
    ((Condition.RESTRAINED,), (5, 6), (), "CDG-1"),
    ((Condition.PRONE,), (5, 6), (), "CDG-1"),
    ((Condition.UNCONSCIOUS,), (5, 7), (), "CDG-1"),
    ((Condition.UNCONSCIOUS,), (5, 6), ("coup-de-grace-immune",), "CDG-5"),
], ids=["merely-stunned", "merely-restrained", "merely-prone", "not-adjacent", "immune"])
def test_cdg_1__coup_de_grace_refused_before_rolling(conditions, pos, talents, rule_id):
    cs = [fighter("o", "party", (5, 5), "operative"),
          fighter("g", "guards", pos, "guard", conditions=conditions, talents=talents)]
    e = started(cs)
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(CoupDeGrace("o", "g", "combat-knife"))
    assert err.value.rule == rule_id


@pytest.mark.rule("CDG-1", "C-HLP")
@pytest.mark.parametrize("conditions", [(Condition.PARALYZED,), (Condition.RESTRAINED, Condition.INCAPACITATED)],
                         ids=["paralyzed", "helpless"])
def test_cdg_1__paralyzed_or_helpless_targets_are_eligible(conditions):
    e = started([fighter("o", "party", (5, 5), "operative"),
                 fighter("g", "guards", (5, 6), "raider-enforcer", conditions=conditions)])
    with script(e, [(6, 1), (6, 1)]):
        out = e.submit(CoupDeGrace("o", "g", "combat-knife"))
    assert attacks(out)[0].outcome == "crit"


# ----- Reload and Draw/Stow (G-31, E-03, E-04) -----


@pytest.mark.rule("G-31", "E-03")
@pytest.mark.parametrize("ruleset", [ED2, ED1], ids=["ed2", "ed1"])
def test_g_31__reload_fills_the_magazine_for_1_action_or_2_for_tagged_weapons(ruleset):
    e = started([fighter("g", "party", (1, 1), "gunslinger", weapons=("pistol", "light-machine-gun"),
                         ammo={"pistol": 0, "light-machine-gun": 3}, ruleset=ruleset),
                 fighter("a", "raiders", (9, 9), "raider", ruleset=ruleset)], ruleset=ruleset)
    with script(e, []):
        out = e.submit(Reload("g", "pistol"))
        assert e.state.get("g").ammo["pistol"] == 12 and of_type(out, ev.ActionsSpent)[0].count == 1
        out = e.submit(Reload("g", "light-machine-gun"))
        assert e.state.get("g").ammo["light-machine-gun"] == 100 and of_type(out, ev.ActionsSpent)[0].count == 2


@pytest.mark.rule("G-31")
@pytest.mark.parametrize(("weapon", "ammo"), [("pistol", 12), ("combat-knife", 0)], ids=["full", "no-ammunition"])
def test_g_31__reload_refused_when_full_or_without_ammunition(weapon, ammo):
    e = started([fighter("o", "party", (1, 1), "operative", ammo={"pistol": ammo}),
                 fighter("a", "raiders", (9, 9), "raider")])
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(Reload("o", weapon))
    assert err.value.rule == "G-31"


@pytest.mark.rule("G-31", "E-04")
def test_g_31__a_stowed_weapon_must_be_drawn_before_it_attacks():
    e = started(raiders())
    with script(e, []):
        e.submit(DrawStow("w", "greataxe", stow=True))
        with pytest.raises(Refused) as err:
            e.submit(PowerStrike("w", "a", "greataxe"))
        assert err.value.rule == "G-31"
        with pytest.raises(Refused) as err:
            e.submit(Strike("w", "a", "greataxe"))
        assert err.value.rule == "G-31"
        e.submit(DrawStow("w", "greataxe"))
        with pytest.raises(Refused):
            e.submit(DrawStow("w", "greataxe"))
    assert e.state.get("w").turn.actions_left == 1


# ----- the AI finds these actions -----


@pytest.mark.rule("MAA-1")
def test_legal_intents__lists_activities_the_warrior_can_use_now():
    e = started(raiders())
    kinds = {type(i).__name__ for i in legal_intents(e, "w")}
    assert {"PowerStrike", "AllOutAttack", "SweepingStrike"} <= kinds
    assert "FullAutoBurst" not in kinds and "OffHandStrike" not in kinds
