"""Maneuvers in the engine: Grapple, Escape, Drag, Constriction, Shove, Trip, Disarm, Feint, Overrun.

Scenario tests with scripted dice (GRP, CNS, MGR, SHV, DIS, TRP, FNT, OVR, C-GRA, G-41, G-45, G-47, X-09,
X-22, E-06..E-08, E-37).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.core.types import Condition, DamageType, Size, Skill
from ashfall.engine import (
    Constrict,
    Disarm,
    Drag,
    DropItem,
    Engine,
    Escape,
    Feint,
    FirstOption,
    Grapple,
    Overrun,
    Refused,
    ReleaseGrapple,
    Shove,
    Step,
    Stride,
    Strike,
    Trip,
    legal_intents,
)
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind
from ashfall.engine.harm import deal_damage
from ashfall.grid.board import Board
from tests.engine.maneuver_helpers import ED1, ED2, checks, fighter, next_turn, of_type, script, started


def grappled_by(engine: Engine, cid: str) -> list[str | None]:
    return [a.source for a in engine.state.get(cid).conditions if a.condition is Condition.GRAPPLED]


def refused_rule(engine: Engine, intent: object) -> str:
    with pytest.raises(Refused) as err:
        engine.submit(intent)
    return err.value.rule


# ----- Trip (TRP-1..5) -----


@pytest.mark.rule("TRP-1", "TRP-2", "TRP-3", "TRP-5", "X-02")
def test_trip_then_attack__prone_target_gives_melee_advantage() -> None:
    eng = started([fighter("v", "party", (1, 1), "vanguard"), fighter("r", "raiders", (3, 1), "raider")])
    with script(eng, [10, 5]):  # Athletics 10+6 = 16 vs the raider's Athletics 5+3 = 8
        events = eng.submit(Trip("v", "r"))  # 10 ft away: the halberd's reach (TRP-1)
    assert [c.success for c in checks(events)] == [True, False]
    assert eng.state.get("r").has(Condition.PRONE) and not eng.state.get("r").has(Condition.DAZED)
    with script(eng, [3, 15, 5]):  # advantage: 3 and 15, keep 15; 1d10 damage 5
        events = eng.submit(Strike("v", "r", "halberd"))
    attack = of_type(events, ev.AttackRolled)[0]
    assert attack.roll.advantage == "advantage" and attack.roll.natural == 15
    assert any(s.rule == "X-02" for s in attack.roll.sources)
    assert eng.state.get("v").turn.actions_left == 1  # TRP-5: Trip + attack, a 2-action combination


@pytest.mark.rule("TRP-4", "G-13", "CON-5")
def test_trp_4__win_by_10_also_dazes_until_end_of_its_next_turn() -> None:
    eng = started([fighter("v", "party", (1, 1), "vanguard"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [19, 2]):  # 25 vs 5
        eng.submit(Trip("v", "r", skill=Skill.ACROBATICS))
    r = eng.state.get("r")
    assert r.has(Condition.PRONE) and r.has(Condition.DAZED)
    next_turn(eng)  # the raider's turn: Dazed, 2 actions (G-13)
    assert eng.state.active_id == "r" and eng.state.get("r").turn.actions_left == 2
    next_turn(eng)
    assert not eng.state.get("r").has(Condition.DAZED)


@pytest.mark.rule("TRP-2")
def test_trp_2__attacker_chooses_acrobatics() -> None:
    eng = started([fighter("v", "party", (1, 1), "vanguard"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [10, 5]):
        events = eng.submit(Trip("v", "r", skill=Skill.ACROBATICS))
    assert checks(events)[0].label == "Trip: acrobatics" and checks(events)[0].roll.total == 15


@pytest.mark.rule("TRP-1")
@pytest.mark.parametrize(("size", "pos", "why"), [
    pytest.param(Size.HUGE, (3, 1), "TRP-1", id="two sizes larger"),
    pytest.param(Size.MEDIUM, (4, 1), "TRP-1", id="beyond the halberd's 10 ft"),
])
def test_trp_1__refused_before_any_roll(size: Size, pos: tuple[int, int], why: str) -> None:
    eng = started([fighter("v", "party", (1, 1), "vanguard"), fighter("r", "raiders", pos, "raider", size=size)])
    with script(eng, []):
        assert refused_rule(eng, Trip("v", "r")) == why


# ----- Grapple, Escape, Multiple Grapplers (GRP, MGR, C-GRA) -----


@pytest.mark.rule("GRP-2", "GRP-3", "MGR-1", "MGR-2", "MGR-3", "MGR-4", "C-GRA", "GRP-5", "NAT-5")
def test_grapple_then_escape__two_grapplers_give_disadvantage() -> None:
    # Mutants grab with natural weapons, no free hand needed (NAT-5, GRP-5)
    eng = started([fighter("m1", "party", (1, 1), "mutant"), fighter("m2", "party", (1, 2), "mutant"),
                   fighter("r", "raiders", (2, 1), "raider")])
    for grappler in ("m1", "m2"):  # each must win its own contest (MGR-1)
        with script(eng, [10, 5]):
            eng.submit(Grapple(grappler, "r"))
        next_turn(eng)
    assert grappled_by(eng, "r") == ["m1", "m2"]
    with script(eng, [18, 15, 5]):  # disadvantage: 18 and 15, keep 15 -> 18 vs m1's 5+7 = 12
        events = eng.submit(Escape("r", "m1"))
    escape = checks(events)[0]
    assert escape.roll.advantage == "disadvantage" and escape.roll.total == 18
    assert any(s.rule == "MGR-3" for s in escape.roll.sources)
    assert grappled_by(eng, "r") == ["m2"]  # the other hold continues (MGR-4)
    with script(eng, [10, 12]):  # one grappler left: a plain roll, 13 vs 19
        events = eng.submit(Escape("r"))
    assert len(checks(events)[0].roll.faces) == 1 and grappled_by(eng, "r") == ["m2"]


@pytest.mark.rule("GRP-2", "CON-2", "G-45")
def test_grp_2__tie_keeps_the_status_quo() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [4, 8]):  # 11 vs 11
        eng.submit(Grapple("m", "r"))
    assert grappled_by(eng, "r") == []


@pytest.mark.rule("GRP-2", "CON-2")
@settings(max_examples=25, deadline=None)
@given(st.integers(1, 20), st.integers(1, 20))
def test_grp_2__grapple_succeeds_exactly_when_the_grappler_rolls_higher(mine: int, theirs: int) -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [mine, theirs]):
        eng.submit(Grapple("m", "r"))
    assert (grappled_by(eng, "r") == ["m"]) is (mine + 7 > theirs + 3)


@pytest.mark.rule("GRP-2", "X-09")
def test_x_09__defender_chooses_acrobatics_when_asked() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [10, 10]):
        events = eng.submit(Grapple("m", "r"), answers=["acrobatics"])
    assert checks(events)[1].label == "Grapple (defending): acrobatics" and checks(events)[1].roll.total == 11
    decision = of_type(events, ev.DecisionMade)[0]
    assert (decision.actor, decision.decision) == ("r", "defense-skill")


@pytest.mark.rule("E-06", "GRP-2")
def test_e_06__edition_1_grapple_is_a_raw_attribute_contest() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant", ruleset=ED1),
                   fighter("r", "raiders", (2, 1), "raider", ruleset=ED1)], ruleset=ED1)
    with script(eng, [10, 5]):
        events = eng.submit(Grapple("m", "r"))
    mine, theirs = checks(events)
    assert (mine.label, mine.roll.total) == ("Grapple: MIG", 14)  # MIG 4, no proficiency
    assert (theirs.label, theirs.roll.total) == ("Grapple (defending): MIG", 6)


@pytest.mark.rule("GRP-1", "FA-2")
def test_grp_1__no_free_hand_is_refused_until_an_item_is_dropped() -> None:
    eng = started([fighter("o", "party", (1, 1), "operative"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, []):
        assert refused_rule(eng, Grapple("o", "r")) == "GRP-1"  # knife and pistol fill both hands
        events = eng.submit(DropItem("o", "pistol"))  # a free action (FA-2)
    assert not of_type(events, ev.ActionsSpent)
    assert of_type(events, ev.ItemDropped)[0].square == (1, 1)
    eng.check(Grapple("o", "r"))


@pytest.mark.rule("GRP-1", "G-47", "MGR-1", "NAT-6")
def test_grp_1__reach_size_and_repeat_refusals() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("p", "party", (1, 3), "prehensile-mutant"),
                   fighter("far", "raiders", (3, 1), "raider"), fighter("big", "raiders", (2, 1), "raider",
                                                                          size=Size.HUGE),
                   fighter("r", "raiders", (2, 2), "raider")])
    with script(eng, [10, 5]):
        assert refused_rule(eng, Grapple("m", "far")) == "GRP-1"
        assert refused_rule(eng, Grapple("m", "big")) == "G-47"
        eng.submit(Grapple("m", "r"))
        assert refused_rule(eng, Grapple("m", "r")) == "MGR-1"
    relaxed = ED2.with_options(checks={"grapple_shove_size_limit": False})
    eng2 = started([fighter("m", "party", (1, 1), "mutant"),
                    fighter("big", "raiders", (2, 1), "raider", size=Size.HUGE)], ruleset=relaxed)
    eng2.check(Grapple("m", "big"))
    eng3 = started([fighter("p", "party", (1, 1), "prehensile-mutant"), fighter("r", "raiders", (3, 1), "raider")])
    eng3.check(Grapple("p", "r"))  # 10 ft: the prehensile limbs' natural reach (NAT-6)


@pytest.mark.rule("C-GRA", "MGR-4")
def test_c_gra__grapple_ends_when_the_grappler_drops() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [10, 5]):
        eng.submit(Grapple("m", "r"))
    ctx = Context(eng.state, eng.rng, eng.log, {})
    deal_damage(ctx, "m", {DamageType.SLASHING: 100}, source="r", label="test")
    assert grappled_by(eng, "r") == []


# ----- Drag, Constriction, Release (GRP-4, CNS-1, FA-4) -----


@pytest.mark.rule("GRP-4")
def test_grp_4__drag_at_half_speed_and_the_target_follows() -> None:
    eng = started([fighter("m", "party", (5, 1), "mutant"), fighter("r", "raiders", (6, 1), "raider")])
    with script(eng, [10, 5]):
        eng.submit(Grapple("m", "r"))
        assert refused_rule(eng, Drag("m", "r", ((4, 1), (3, 1), (2, 1), (1, 1)))) == "GRP-4"  # 20 ft > 15
        events = eng.submit(Drag("m", "r", ((4, 1), (3, 1), (2, 1))))
    assert eng.state.get("m").position == (2, 1) and eng.state.get("r").position == (3, 1)
    assert all(e.forced for e in of_type(events, ev.Moved) if e.actor == "r")
    assert grappled_by(eng, "r") == ["m"]


@pytest.mark.rule("CNS-1", "G-41", "NAT-2")
def test_cns_1__constriction_deals_natural_damage_without_an_attack_roll() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, []):
        assert refused_rule(eng, Constrict("m", "r")) == "CNS-1"  # not grappling yet
    with script(eng, [10, 5, 4]):  # grapple; then claws 1d6 = 4, + MIG 4
        eng.submit(Grapple("m", "r"))
        events = eng.submit(Constrict("m", "r"))
    assert not of_type(events, ev.AttackRolled)
    assert of_type(events, ev.DamageTaken)[0].amount == 8
    assert eng.state.get("m").turn.attack_rolls == 0  # no MAP taken or added (G-41)


@pytest.mark.rule("CNS-2", "C-GRA")
def test_cns_2__escaping_a_constriction_is_the_normal_grapple_escape() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [10, 5, 1]):
        eng.submit(Grapple("m", "r"))
        eng.submit(Constrict("m", "r"))
    next_turn(eng)
    with script(eng, [15, 5]):  # Athletics 18 vs the grappler's Athletics 12
        events = eng.submit(Escape("r"))
    assert [c.label for c in checks(events)] == ["Escape: athletics", "Escape (defending): athletics"]
    assert grappled_by(eng, "r") == [] and eng.state.get("r").turn.actions_left == 2


@pytest.mark.rule("E-37", "CNS-1")
def test_e_37__edition_1_has_no_constriction_trip_feint_or_overrun() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant", ruleset=ED1),
                   fighter("r", "raiders", (2, 1), "raider", ruleset=ED1)], ruleset=ED1)
    for intent in (Constrict("m", "r"), Trip("m", "r"), Feint("m", "r"), Overrun("m", "r")):
        assert refused_rule(eng, intent) == "E-37"


@pytest.mark.rule("FA-4")
def test_fa_4__release_a_grapple_is_a_free_action() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [10, 5]):
        eng.submit(Grapple("m", "r"))
    events = eng.submit(ReleaseGrapple("m", "r"))
    assert not of_type(events, ev.ActionsSpent) and grappled_by(eng, "r") == []
    assert eng.state.get("m").turn.free_actions == 1


# ----- Shove (SHV-1..3, E-07) -----


@pytest.mark.rule("SHV-1", "E-07")
@pytest.mark.parametrize("prone", [True, False])
def test_shove_refused_at_reach_10__even_with_a_reach_weapon(prone: bool) -> None:
    eng = started([fighter("v", "party", (1, 1), "vanguard"), fighter("r", "raiders", (3, 1), "raider")])
    with script(eng, []):
        assert refused_rule(eng, Shove("v", "r", prone=prone)) == "SHV-1"
    old = started([fighter("v", "party", (1, 1), "vanguard", ruleset=ED1),
                   fighter("r", "raiders", (3, 1), "raider", ruleset=ED1)], ruleset=ED1)
    old.check(Shove("v", "r", prone=prone))  # edition 1: "target within reach" (E-07)


@pytest.mark.rule("SHV-2", "SHV-3")
def test_shv_3__push_5_ft_away_or_knock_prone() -> None:
    eng = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [10, 5, 10, 5]):
        events = eng.submit(Shove("w", "r"))
        assert of_type(events, ev.Moved)[0].forced and eng.state.get("r").position == (3, 1)
        eng.submit(Stride("w", ((2, 1),)))
        eng.submit(Shove("w", "r", prone=True))
    assert eng.state.get("r").has(Condition.PRONE) and eng.state.get("r").position == (3, 1)


@pytest.mark.rule("SHV-3")
def test_shv_3__no_room_to_push_is_refused() -> None:
    board = Board(10, 10, walls=frozenset({(3, 1)}))
    eng = started([fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")], board)
    with script(eng, []):
        assert refused_rule(eng, Shove("w", "r")) == "SHV-3"


@pytest.mark.rule("C-GRA", "SHV-3", "MGR-4")
def test_c_gra__a_shove_out_of_the_grapplers_reach_ends_the_grapple() -> None:
    eng = started([fighter("m1", "party", (1, 2), "mutant"), fighter("m2", "party", (1, 1), "mutant"),
                   fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [10, 5]):
        eng.submit(Grapple("m1", "r"))
    next_turn(eng)
    with script(eng, [10, 5]):
        events = eng.submit(Shove("m2", "r"))
    assert eng.state.get("r").position == (3, 1) and grappled_by(eng, "r") == []
    assert of_type(events, ev.ConditionRemoved)[0].rule == "C-GRA"


# ----- Disarm (DIS-1..6, E-08, G-41) -----


@pytest.mark.rule("DIS-2", "DIS-4", "G-41", "RX-4")
def test_disarm_failure__gives_the_target_an_attack_of_opportunity() -> None:
    eng = started([fighter("o", "party", (1, 1), "operative"), fighter("r", "raiders", (2, 1), "raider")],
                  controllers={"r": FirstOption()})
    with script(eng, [5, 15, 1]):  # knife 5+3+2 = 10 vs Athletics 15+3 = 18; the AoO rolls a natural 1
        events = eng.submit(Disarm("o", "r"))
    attacks = of_type(events, ev.AttackRolled)
    assert [(a.actor, a.label, a.counts_for_map) for a in attacks] == [
        ("o", "Disarm", True), ("r", "Attack of Opportunity (failed Disarm)", False)]
    assert attacks[0].outcome == "failure" and attacks[0].dv == 18
    assert of_type(events, ev.ReactionSpent)[0].rule == "DIS-4"
    assert not eng.state.get("r").reaction_available
    assert eng.state.get("o").turn.attack_rolls == 1  # Disarm counts for MAP (G-41)
    with script(eng, [2]):
        strike = of_type(eng.submit(Strike("o", "r", "combat-knife")), ev.AttackRolled)[0]
    assert any(p.value == -3 for p in strike.roll.modifiers)  # and the next attack takes it


@pytest.mark.rule("DIS-1", "DIS-3")
def test_dis_3__success_drops_the_chosen_item_in_a_random_square_within_10_ft() -> None:
    eng = started([fighter("o", "party", (1, 1), "operative"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [15, 5, 1]):  # 20 vs 8; the scatter die picks the first free square in order
        events = eng.submit(Disarm("o", "r", item="pistol"))
    drop = of_type(events, ev.ItemDropped)[0]
    assert (drop.actor, drop.item, drop.rule, drop.square) == ("r", "pistol", "DIS-3", (0, 0))
    assert [w.id for w in eng.state.get("r").weapons] == ["spear"]
    assert [(g.item.id, g.square) for g in eng.state.ground] == [("pistol", (0, 0))]
    next_turn(eng)
    with script(eng, []):
        assert refused_rule(eng, Strike("r", "o", "pistol")) == "ACT-7"  # no longer in hand


@pytest.mark.rule("DIS-5", "DIS-6", "DIS-1", "NAT-3", "E-08")
def test_dis_5_dis_6__refused_against_huge_creatures_and_natural_weapons() -> None:
    eng = started([fighter("o", "party", (1, 1), "operative"),
                   fighter("big", "raiders", (2, 1), "raider", size=Size.HUGE),
                   fighter("mu", "raiders", (1, 2), "mutant")])
    with script(eng, []):
        assert refused_rule(eng, Disarm("o", "big")) == "DIS-5"
        assert refused_rule(eng, Disarm("o", "mu", item="claws")) == "DIS-6"
        assert refused_rule(eng, Disarm("o", "mu")) == "DIS-1"  # it holds nothing
    old = started([fighter("o", "party", (1, 1), "operative", ruleset=ED1),
                   fighter("big", "raiders", (2, 1), "raider", size=Size.HUGE, ruleset=ED1)], ruleset=ED1)
    old.check(Disarm("o", "big"))  # edition 1 has no size limit (E-08)


@pytest.mark.rule("E-08", "DIS-4")
def test_e_08__edition_1_failed_disarm_costs_nothing() -> None:
    eng = started([fighter("o", "party", (1, 1), "operative", ruleset=ED1),
                   fighter("r", "raiders", (2, 1), "raider", ruleset=ED1)], ruleset=ED1,
                  controllers={"r": FirstOption()})
    with script(eng, [5, 15]):
        events = eng.submit(Disarm("o", "r"))
    assert not of_type(events, ev.ReactionSpent) and checks(events)[0].label == "Disarm (defending): MIG"


# ----- Feint (FNT-1..8) -----


def feinters(deception: int = 7) -> Engine:
    return started([fighter("o", "party", (1, 1), "operative", skills={Skill.DECEPTION: deception}),
                    fighter("b", "raiders", (2, 1), "raider-boss"), fighter("r", "raiders", (1, 2), "raider")])


@pytest.mark.rule("FNT-2", "FNT-3", "FNT-8")
def test_fnt_8__feint_then_attack_with_advantage_leaves_one_action() -> None:
    eng = feinters()
    with script(eng, [10, 10]):  # Deception 10+7 = 17 vs Insight 10+3 = 13
        eng.submit(Feint("o", "b"))
    assert eng.state.effects_on("o", EffectKind.ADVANTAGE_NEXT_ATTACK)
    with script(eng, [4, 16, 3]):
        attack = of_type(eng.submit(Strike("o", "b", "combat-knife")), ev.AttackRolled)[0]
    assert attack.roll.advantage == "advantage" and any(s.rule == "FNT-3" for s in attack.roll.sources)
    assert not eng.state.effects_on("o", EffectKind.ADVANTAGE_NEXT_ATTACK)  # used up
    assert eng.state.get("o").turn.actions_left == 1


@pytest.mark.rule("FNT-3", "FNT-4")
def test_fnt_3__advantage_is_only_against_the_feinted_target_and_ends_with_the_turn() -> None:
    eng = feinters()
    with script(eng, [10, 15]):  # 17 vs 18: no effect (FNT-4)
        eng.submit(Feint("o", "b"))
    assert not eng.state.effects
    with script(eng, [10, 5, 2]):
        eng.submit(Feint("o", "r"))
        attack = of_type(eng.submit(Strike("o", "b", "combat-knife")), ev.AttackRolled)[0]
    assert attack.roll.advantage == "normal"
    next_turn(eng)
    assert not eng.state.effects_on("o", EffectKind.ADVANTAGE_NEXT_ATTACK)


@pytest.mark.rule("FNT-7")
def test_fnt_7__a_second_feint_against_the_same_target_is_refused() -> None:
    eng = feinters()
    with script(eng, [10, 15, 10, 15]):
        eng.submit(Feint("o", "b"))
        assert refused_rule(eng, Feint("o", "b")) == "FNT-7"
        eng.submit(Feint("o", "r"))


@pytest.mark.rule("FNT-5", "CON-5")
def test_feint_critical_failure__target_gets_advantage_on_its_next_attack_against_you() -> None:
    eng = feinters(deception=3)
    with script(eng, [1, 18]):  # 4 vs 21: lose by 17
        eng.submit(Feint("o", "b"))
    effect = eng.state.effects_on("b", EffectKind.ADVANTAGE_NEXT_ATTACK)[0]
    assert (effect.against, effect.rule) == ("o", "FNT-5")
    next_turn(eng)
    with script(eng, [2, 12, 1]):  # advantage: keep 12 -> 17 vs DV 15; 1d10 = 1
        attack = of_type(eng.submit(Strike("b", "o", "salvaged-sword")), ev.AttackRolled)[0]
    assert attack.roll.advantage == "advantage" and attack.outcome == "hit"


@pytest.mark.rule("FNT-1", "FNT-6")
def test_fnt_6__blinded_or_unreachable_targets_cannot_be_feinted() -> None:
    eng = started([fighter("o", "party", (1, 1), "operative"),
                   fighter("b", "raiders", (2, 1), "raider-boss", conditions=[Condition.BLINDED]),
                   fighter("r", "raiders", (4, 1), "raider")])
    with script(eng, []):
        assert refused_rule(eng, Feint("o", "b")) == "FNT-6"
        assert refused_rule(eng, Feint("o", "r")) == "FNT-1"


# ----- Overrun (OVR-1..9, X-22) -----


def corridor() -> Engine:
    board = Board(10, 5)
    return started([fighter("mu", "party", (0, 2), "mutant"),
                    fighter("a", "raiders", (2, 2), "raider"), fighter("b", "raiders", (5, 2), "raider")], board)


@pytest.mark.rule("OVR-1", "OVR-2", "OVR-4", "OVR-5", "OVR-7", "OVR-9", "X-22")
def test_overrun_ovr_9__18_vs_11_goes_through__14_vs_16_stops() -> None:
    eng = corridor()
    with script(eng, []):
        eng.submit(Stride("mu", ((1, 2),)))
    with script(eng, [11, 8]):  # Athletics 11+7 = 18 vs 8+3 = 11
        events = eng.submit(Overrun("mu", "a", path=((2, 2), (3, 2), (4, 2))))
    assert [c.roll.total for c in checks(events)] == [18, 11]
    assert eng.state.get("a").position == (2, 3)  # pushed to a side (OVR-4)
    assert eng.state.get("mu").position == (4, 2) and eng.state.get("mu").turn.movement_left_ft == 10
    assert eng.state.effects_on("a", EffectKind.NO_REACTIONS_AGAINST)[0].against == "mu"
    with script(eng, [7, 13]):  # 14 vs 16
        events = eng.submit(Overrun("mu", "b"))
    assert of_type(events, ev.MovementStopped)[0].rule == "OVR-5"
    assert eng.state.get("mu").turn.movement_left_ft == 0 and eng.state.get("mu").position == (4, 2)
    assert eng.state.get("mu").turn.actions_left == 0  # Stride + Overrun + Overrun (OVR-7)


@pytest.mark.rule("OVR-1", "X-22")
def test_ovr_1__overrun_needs_a_stride_first_by_default() -> None:
    eng = corridor()
    with script(eng, []):
        eng.submit(Step("mu", (1, 2)))  # a Step is movement too: then the Overrun is allowed
    eng.check(Overrun("mu", "a"))
    fresh = corridor()
    fresh.state.combatants["mu"].position = (1, 2)
    with script(fresh, []):
        assert refused_rule(fresh, Overrun("mu", "a")) == "OVR-1"


@pytest.mark.rule("OVR-6", "RX-21")
def test_ovr_6__win_by_10_knocks_prone_and_the_mover_provokes_nothing() -> None:
    eng = corridor()
    with script(eng, [19, 2]):
        eng.submit(Stride("mu", ((1, 2),)))
        eng.submit(Overrun("mu", "a", path=((2, 2), (3, 2))))
    assert eng.state.get("a").has(Condition.PRONE)
    assert eng.state.effects_on("mu", EffectKind.NO_REACTIONS_PROVOKED)
    next_turn(eng)
    assert not eng.state.effects_on("mu", EffectKind.NO_REACTIONS_PROVOKED)


@pytest.mark.rule("OVR-3", "OVR-8")
def test_ovr_3__a_larger_mover_has_advantage_and_huge_targets_are_refused() -> None:
    rs = ED2.with_options(checks={"overrun_grants_movement": True})
    eng = started([fighter("mu", "party", (0, 1), "mutant", size=Size.LARGE),
                   fighter("a", "raiders", (2, 2), "raider"),
                   fighter("h", "raiders", (2, 0), "raider", size=Size.GARGANTUAN)], Board(10, 10), ruleset=rs)
    with script(eng, []):
        assert refused_rule(eng, Overrun("mu", "h")) == "OVR-8"
    with script(eng, [5, 17, 10]):
        events = eng.submit(Overrun("mu", "a"))
    mine = checks(events)[0]
    assert mine.roll.advantage == "advantage" and any(s.rule == "OVR-3" for s in mine.roll.sources)


# ----- the AI's candidates -----


def test_candidates__maneuvers_offered_to_the_ai_are_legal() -> None:
    eng = started([fighter("m", "party", (1, 1), "mutant"), fighter("r", "raiders", (2, 1), "raider")])
    names = {type(i).__name__ for i in legal_intents(eng, "m")}
    assert {"Grapple", "Shove", "Trip", "Feint", "Disarm"} <= names
    assert "Overrun" not in names  # no Stride yet



@pytest.mark.rule("DIS-3", "FNT-3")
def test_events__disarm_and_feint_logs_round_trip_through_json() -> None:
    eng = started([fighter("o", "party", (1, 1), "operative"), fighter("r", "raiders", (2, 1), "raider")])
    with script(eng, [15, 5, 1, 10, 5]):
        eng.submit(Disarm("o", "r", item="pistol"))
        eng.submit(Feint("o", "r"))
    text = ev.dumps(eng.log)
    assert ev.loads(text) == eng.log and ev.dumps(ev.loads(text)) == text


@pytest.mark.rule("C-GRA", "MGR-4")
def test_c_gra__grappler_striding_away_ends_the_grapple() -> None:
    eng = started([fighter("m", "party", (2, 1), "mutant"), fighter("r", "raiders", (3, 1), "raider")])
    with script(eng, [10, 5]):
        eng.submit(Grapple("m", "r"))
    assert grappled_by(eng, "r") == ["m"]
    eng.submit(Stride("m", ((1, 1), (0, 1))))  # out of reach: the hold is broken (C-GRA)
    assert grappled_by(eng, "r") == []
