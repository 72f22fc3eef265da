"""Conditions as data (C-*, FF, DOD-1, HID-3, rulings G-11, G-13..G-20, G-22, X-02, X-16) and their durations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.core.dice import roll
from ashfall.core.modifiers import Advantage, RollSource, resolve_advantage
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import catalog, rule
from ashfall.core.types import Condition, DamageType, Save, Skill
from ashfall.rules import condition_durations as dur
from ashfall.rules import conditions as cond
from ashfall.rules.condition_table import CONDITIONS, EndTrigger, Sense
from ashfall.ruleset import Ruleset, preset

C = Condition
RS = preset("ashfall-2")
RS1 = preset("ashfall-1")
DAZED_FF = RS.with_options(conditions={"dazed": "flat-footed"})
AWARE = RS.with_options(conditions={"unaware_targets_flat_footed": False})
PRONE_5FT = RS.with_options(defense={"prone_melee": "within-5-ft"})


def _pairs(sources: tuple[RollSource, ...]) -> set[tuple[bool, str]]:
    return {(s.advantage, s.rule) for s in sources}


# ----- the registry -----


def test_registry__every_condition_is_defined_with_known_rules() -> None:
    assert set(CONDITIONS) == set(Condition)
    for c, d in CONDITIONS.items():
        assert d.condition is c and d.rule in catalog()
        rules = [e.rule for e in d.attacks] + [e.rule for e in d.saves] + [e.rule for e in d.checks]
        rules += [e.rule for e in (*d.dv, *d.passive_perception)] + [i.rule for i in d.implies]
        assert all(r in catalog() for r in rules)


@pytest.mark.rule("C-INC", "C-PAR", "C-PET", "C-STU", "C-UNC", "C-BUR", "G-18", "C-STB", "DEATH-1", "G-13", "FF-1")
@pytest.mark.parametrize(
    ("given_", "implied", "ruleset"),
    [
        ({C.PARALYZED}, {C.INCAPACITATED}, RS),
        ({C.STUNNED}, {C.INCAPACITATED}, RS),
        ({C.PETRIFIED}, {C.INCAPACITATED, C.FLAT_FOOTED}, RS),
        ({C.UNCONSCIOUS}, {C.INCAPACITATED, C.PRONE, C.FLAT_FOOTED}, RS),
        ({C.DYING}, {C.UNCONSCIOUS, C.INCAPACITATED, C.PRONE, C.FLAT_FOOTED}, RS),
        ({C.STABILIZED}, {C.UNCONSCIOUS, C.INCAPACITATED, C.PRONE, C.FLAT_FOOTED}, RS),
        ({C.BURIED}, {C.RESTRAINED}, RS),
        ({C.DAZED}, set(), RS),
        ({C.DAZED}, {C.FLAT_FOOTED}, DAZED_FF),
        ({C.UNCONSCIOUS}, {C.INCAPACITATED, C.PRONE}, AWARE),
        ({C.PRONE, C.GRAPPLED}, set(), RS),
    ],
    ids=["c_par", "c_stu", "c_pet", "c_unc", "dying", "c_stb", "c_bur", "g_13_dazed", "g_13_dazed_alt",
         "ff_1_off", "none"],
)
def test_expand__implications(given_: set[Condition], implied: set[Condition], ruleset: Ruleset) -> None:
    assert cond.expand(given_, ruleset) == frozenset(given_ | implied)


@pytest.mark.rule("C-HLP")
@pytest.mark.parametrize(
    ("given_", "helpless"),
    [({C.RESTRAINED, C.INCAPACITATED}, True), ({C.BURIED, C.STUNNED}, True), ({C.RESTRAINED}, False),
     ({C.STUNNED}, False), ({C.PRONE}, False)],
)
def test_c_hlp__helpless_is_restrained_and_incapacitated(given_: set[Condition], helpless: bool) -> None:
    assert (cond.is_helpless(given_) == rule("C-HLP")) is helpless


# ----- attacks -----

MINE = "attacker"
THEIRS = "target"


@pytest.mark.rule("C-BLI", "C-FRI", "C-INV", "C-PAR", "C-PET", "C-POI", "C-PRO", "C-RES", "C-STU", "C-UNC",
                  "X-02", "X-16", "G-20", "HID-3", "DOD-1", "G-07", "AMOD-4", "AMOD-6")
@pytest.mark.parametrize(
    ("side", "given_", "melee", "within", "expected"),
    [
        (MINE, {C.BLINDED}, True, True, {(False, "C-BLI")}),
        (THEIRS, {C.BLINDED}, False, False, {(True, "C-BLI")}),
        (MINE, {C.FRIGHTENED}, True, True, {(False, "C-FRI")}),
        (MINE, {C.INVISIBLE}, False, False, {(True, "C-INV")}),
        (THEIRS, {C.INVISIBLE}, True, True, {(False, "C-INV")}),
        (THEIRS, {C.PARALYZED}, False, False, {(True, "C-PAR")}),
        (THEIRS, {C.PETRIFIED}, True, True, set()),
        (MINE, {C.POISONED}, True, True, {(False, "C-POI")}),
        (MINE, {C.PRONE}, False, False, {(False, "C-PRO")}),
        (THEIRS, {C.PRONE}, True, True, {(True, "X-02")}),
        (THEIRS, {C.PRONE}, True, False, {(True, "X-02")}),
        (THEIRS, {C.PRONE}, False, True, {(False, "C-PRO")}),
        (MINE, {C.RESTRAINED}, True, True, {(False, "C-RES")}),
        (THEIRS, {C.RESTRAINED}, False, False, {(True, "C-RES")}),
        (THEIRS, {C.STUNNED}, True, True, {(True, "C-STU")}),
        (THEIRS, {C.UNCONSCIOUS}, True, True, {(True, "X-16"), (True, "X-02")}),
        (THEIRS, {C.UNCONSCIOUS}, False, False, {(True, "X-16"), (False, "C-PRO")}),
        (MINE, {C.HIDDEN}, False, False, {(True, "G-20")}),
        (THEIRS, {C.HIDDEN}, True, True, {(False, "G-20")}),
        (THEIRS, {C.DODGING}, True, True, {(False, "DOD-1")}),
        (THEIRS, {C.GRAPPLED, C.CHARMED, C.DEAFENED, C.SHAKEN, C.FLAT_FOOTED}, True, True, set()),
    ],
    ids=["c_bli_mine", "c_bli_theirs", "c_fri", "c_inv_mine", "c_inv_theirs", "c_par", "c_pet_none", "c_poi",
         "c_pro_mine", "x_02_melee_5ft", "x_02_melee_reach", "c_pro_ranged", "c_res_mine", "c_res_theirs",
         "c_stu", "x_16_melee", "x_16_ranged", "g_20_hidden_attacker", "g_20_hidden_target", "dod_1",
         "no_attack_effects"],
)
def test_attack_sources__by_condition(
    side: str, given_: set[Condition], melee: bool, within: bool, expected: set[tuple[bool, str]]
) -> None:
    attacker, target = (given_, set()) if side == MINE else (set(), given_)
    got = cond.attack_sources(attacker, target, melee=melee, within_5ft=within, ruleset=RS)
    assert _pairs(got) == expected


@pytest.mark.rule("X-02", "C-PRO")
def test_x_02__within_5_ft_option_limits_prone_advantage_to_adjacent_melee() -> None:
    near = cond.attack_sources((), {C.PRONE}, melee=True, within_5ft=True, ruleset=PRONE_5FT)
    far = cond.attack_sources((), {C.PRONE}, melee=True, within_5ft=False, ruleset=PRONE_5FT)
    assert _pairs(near) == {(True, "X-02")} and far == ()


@pytest.mark.rule("C-FRI", "DV-8")
def test_c_fri__no_attack_or_check_disadvantage_while_source_out_of_sight() -> None:
    assert cond.attack_sources({C.FRIGHTENED}, (), melee=True, within_5ft=True, ruleset=RS,
                               fear_source_visible=False) == ()
    assert cond.check_sources({C.FRIGHTENED}, Skill.ATHLETICS, fear_source_visible=False) == ()
    assert cond.dv_modifiers({C.FRIGHTENED}, RS, fear_source_visible=False) == ()


@pytest.mark.rule("C-INV", "G-07")
def test_c_inv__special_senses_cancel_both_sides() -> None:
    a = cond.attack_sources({C.INVISIBLE}, (), melee=True, within_5ft=True, ruleset=RS, target_sees_invisible=True)
    t = cond.attack_sources((), {C.INVISIBLE}, melee=True, within_5ft=True, ruleset=RS, attacker_sees_invisible=True)
    assert a == () and t == ()


@pytest.mark.rule("G-20", "HID-3")
def test_g_20__hidden_target_needs_guessed_square_unless_option_off() -> None:
    off = RS.with_options(conditions={"hidden_targets_guessed": False})
    assert cond.must_guess_square({C.HIDDEN}, RS) == rule("G-20")
    assert cond.must_guess_square({C.HIDDEN}, off) is None
    assert cond.attack_sources((), {C.HIDDEN}, melee=True, within_5ft=True, ruleset=off) == ()


@pytest.mark.rule("C-BLI", "C-INV", "G-21")
def test_attack_sources__blinded_attacker_against_invisible_target_is_disadvantage() -> None:
    got = cond.attack_sources({C.BLINDED}, {C.INVISIBLE}, melee=True, within_5ft=True, ruleset=RS)
    assert resolve_advantage(got) is Advantage.DISADVANTAGE
    got = cond.attack_sources({C.INVISIBLE}, {C.PRONE}, melee=False, within_5ft=False, ruleset=RS)
    assert resolve_advantage(got) is Advantage.NORMAL


@pytest.mark.rule("CRIT-5", "C-PAR", "C-UNC", "C-STU", "C-PET")
@pytest.mark.parametrize(
    ("given_", "melee", "within", "crit"),
    [({C.PARALYZED}, True, True, True), ({C.UNCONSCIOUS}, True, True, True), ({C.DYING}, True, True, True),
     ({C.PARALYZED}, True, False, False), ({C.PARALYZED}, False, True, False), ({C.STUNNED}, True, True, False),
     ({C.PETRIFIED}, True, True, False), ({C.RESTRAINED, C.INCAPACITATED}, True, True, False)],
    ids=["c_par", "c_unc", "dying", "c_par_reach", "c_par_ranged", "c_stu_no", "c_pet_no", "c_hlp_no"],
)
def test_crit_5__auto_crit_melee_within_5_ft(given_: set[Condition], melee: bool, within: bool, crit: bool) -> None:
    assert (cond.auto_crit(given_, melee=melee, within_5ft=within) == rule("CRIT-5")) is crit


# ----- saves and checks -----


@pytest.mark.rule("C-PAR", "C-STU", "C-UNC", "C-PET", "G-22")
@pytest.mark.parametrize(
    ("given_", "save", "why"),
    [({C.PARALYZED}, Save.MIG, "C-PAR"), ({C.PARALYZED}, Save.REFLEX, "C-PAR"), ({C.STUNNED}, Save.REFLEX, "C-STU"),
     ({C.UNCONSCIOUS}, Save.MIG, "C-UNC"), ({C.DYING}, Save.REFLEX, "C-UNC"), ({C.PARALYZED}, Save.FORTITUDE, None),
     ({C.STUNNED}, Save.WILL, None), ({C.PETRIFIED}, Save.REFLEX, None), ({C.RESTRAINED}, Save.REFLEX, None)],
    ids=["c_par_mig", "c_par_reflex", "c_stu_reflex", "c_unc_mig", "dying", "g_22_fortitude_not", "c_stu_will_not",
         "c_pet_none", "c_res_not_auto"],
)
def test_save_auto_fail__mig_and_agi_saves(given_: set[Condition], save: Save, why: str | None) -> None:
    assert cond.save_auto_fail(given_, save) == (rule(why) if why else None)


@pytest.mark.rule("C-RES", "DOD-1", "G-14", "G-22", "G-18")
@pytest.mark.parametrize(
    ("given_", "save", "expected"),
    [({C.RESTRAINED}, Save.REFLEX, {(False, "C-RES")}), ({C.RESTRAINED}, Save.FORTITUDE, set()),
     ({C.BURIED}, Save.REFLEX, {(False, "C-RES")}), ({C.DODGING}, Save.REFLEX, {(True, "DOD-1")}),
     ({C.SHAKEN}, Save.WILL, {(False, "G-14")}), ({C.SHAKEN}, Save.REFLEX, set())],
    ids=["c_res_reflex", "c_res_fort", "g_18_buried", "dod_1_reflex", "g_14_will", "g_14_only_will"],
)
def test_save_sources(given_: set[Condition], save: Save, expected: set[tuple[bool, str]]) -> None:
    assert _pairs(cond.save_sources(given_, save)) == expected


@pytest.mark.rule("C-POI", "C-FRI")
@pytest.mark.parametrize(
    ("given_", "expected"),
    [({C.POISONED}, {(False, "C-POI")}), ({C.FRIGHTENED}, {(False, "C-FRI")}), ({C.PRONE, C.BLINDED}, set())],
    ids=["c_poi", "c_fri", "none"],
)
def test_check_sources(given_: set[Condition], expected: set[tuple[bool, str]]) -> None:
    assert _pairs(cond.check_sources(given_, Skill.ATHLETICS)) == expected
    assert _pairs(cond.check_sources(given_, None)) == expected


@pytest.mark.rule("C-BLI", "C-DEA")
@pytest.mark.parametrize(
    ("given_", "sense", "why"),
    [({C.BLINDED}, Sense.SIGHT, "C-BLI"), ({C.BLINDED}, Sense.HEARING, None), ({C.DEAFENED}, Sense.HEARING, "C-DEA"),
     ({C.DEAFENED}, Sense.SIGHT, None)],
)
def test_check_auto_fail__by_sense(given_: set[Condition], sense: Sense, why: str | None) -> None:
    assert cond.check_auto_fail(given_, sense) == (rule(why) if why else None)


@pytest.mark.rule("G-17")
def test_g_17__exhaustion_has_no_automatic_penalty_but_a_placeholder() -> None:
    assert cond.exhaustion_modifiers(4, RS) == ()
    house = RS.with_options(conditions={"exhaustion_penalty_per_level": -1})
    (mod,) = cond.exhaustion_modifiers(3, house)
    assert mod.value == -3 and mod.rule == rule("G-17")


# ----- DV and flat-footed -----


@pytest.mark.rule("C-FRI", "DV-8")
def test_dv_8__frightened_minus_2_dv() -> None:
    (mod,) = cond.dv_modifiers({C.FRIGHTENED}, RS)
    assert (mod.value, mod.rule) == (-2, rule("DV-8"))
    assert cond.dv_modifiers({C.PRONE, C.RESTRAINED}, RS) == ()


@pytest.mark.rule("FF-2", "G-11", "G-46", "G-13", "FF-1", "C-UNC")
@pytest.mark.parametrize(
    ("given_", "agi", "ruleset", "expected", "why"),
    [({C.FLAT_FOOTED}, 3, RS, 0, "FF-2"), ({C.FLAT_FOOTED}, -2, RS, -2, "FF-2"),
     ({C.FLAT_FOOTED}, -2, RS.with_options(defense={"flat_footed_keeps_negative_agi": False}), 0, "FF-2"),
     ({C.UNCONSCIOUS}, 4, RS, 0, "FF-2"), ({C.DAZED}, 4, RS, 4, None), ({C.DAZED}, 4, DAZED_FF, 0, "FF-2"),
     ({C.PRONE}, 2, RS, 2, None)],
    ids=["ff_2_positive_lost", "g_46_negative_kept", "g_11_alt", "ff_1_unconscious", "g_13_dazed", "g_13_alt",
         "prone"],
)
def test_ff_2__agi_to_dv(given_: set[Condition], agi: int, ruleset: Ruleset, expected: int, why: str | None) -> None:
    got = cond.agi_to_dv_after_conditions(agi, given_, ruleset)
    assert got == (expected, rule(why) if why else None)
    assert cond.loses_positive_agi(given_, ruleset=ruleset) == (rule(why) if why else None)


@pytest.mark.rule("FF-1", "G-11", "G-20", "G-46", "HID-3")
def test_ff_1__target_unaware_of_attacker_is_flat_footed() -> None:
    assert cond.target_flat_footed_against({C.HIDDEN}, (), RS) == rule("G-20")
    assert cond.target_flat_footed_against((), (), RS, target_aware_of_attacker=False) == rule("G-11")
    assert cond.target_flat_footed_against((), {C.FLAT_FOOTED}, RS) == rule("FF-2")
    assert cond.target_flat_footed_against((), (), RS) is None
    off = RS.with_options(conditions={"unaware_targets_flat_footed": False})
    assert cond.target_flat_footed_against({C.HIDDEN}, (), off) is None


# ----- actions, movement, senses -----


@pytest.mark.rule("C-INC", "G-13", "AE-1", "C-STU")
@pytest.mark.parametrize(
    ("given_", "ruleset", "actions", "why"),
    [(set(), RS, 3, None), ({C.DAZED}, RS, 2, "G-13"), ({C.DAZED}, DAZED_FF, 3, None),
     ({C.INCAPACITATED}, RS, 0, "C-INC"), ({C.STUNNED, C.DAZED}, RS, 0, "C-INC"), ({C.FLAT_FOOTED}, RS, 3, None)],
    ids=["normal", "g_13_dazed", "g_13_alt", "c_inc", "c_stu_and_dazed", "ff"],
)
def test_max_actions(given_: set[Condition], ruleset: Ruleset, actions: int, why: str | None) -> None:
    got = cond.max_actions(given_, ruleset)
    assert (got.actions, got.rule) == (actions, rule(why) if why else None)


@pytest.mark.rule("C-INC", "FF-3", "G-13", "SUR-4")
@pytest.mark.parametrize(
    ("given_", "ruleset", "why"),
    [(set(), RS, None), ({C.FLAT_FOOTED}, RS, "FF-3"), ({C.INCAPACITATED}, RS, "C-INC"), ({C.PARALYZED}, RS, "C-INC"),
     ({C.DAZED}, RS, "G-13"), ({C.DAZED}, DAZED_FF, "FF-3"), ({C.PRONE}, RS, None)],
    ids=["normal", "ff_3", "c_inc", "c_par", "g_13", "g_13_alt", "prone"],
)
def test_can_react(given_: set[Condition], ruleset: Ruleset, why: str | None) -> None:
    got = cond.can_react(given_, ruleset)
    assert bool(got) is (why is None) and got.rule == (rule(why) if why else None)


@pytest.mark.rule("C-GRA", "C-RES", "C-PAR", "C-STU", "C-UNC", "C-PET", "C-BUR")
@pytest.mark.parametrize(
    ("given_", "why"),
    [({C.GRAPPLED}, "C-GRA"), ({C.RESTRAINED}, "C-RES"), ({C.PARALYZED}, "C-PAR"), ({C.STUNNED}, "C-STU"),
     ({C.UNCONSCIOUS}, "C-UNC"), ({C.PETRIFIED}, "C-PET"), ({C.BURIED}, "C-RES"), ({C.PRONE}, None),
     ({C.FRIGHTENED}, None)],
)
def test_speed_is_zero(given_: set[Condition], why: str | None) -> None:
    assert cond.speed_is_zero(given_) == (rule(why) if why else None)


@pytest.mark.rule("C-PRO")
def test_c_pro__crawl_at_half_speed_and_stand_for_one_action() -> None:
    assert cond.speed_divisor({C.PRONE}, RS) == (2, rule("C-PRO"))
    assert cond.speed_divisor(set(), RS) == (1, None)
    assert cond.stand_up_cost({C.PRONE}, RS) == (1, rule("C-PRO"))
    assert cond.stand_up_cost(set(), RS) == (0, None)


@pytest.mark.rule("C-BLI", "C-DEA", "G-24")
@pytest.mark.parametrize(
    ("given_", "total"), [({C.BLINDED}, -10), ({C.DEAFENED}, -10), ({C.BLINDED, C.DEAFENED}, -20), (set(), 0)]
)
def test_passive_perception_modifiers(given_: set[Condition], total: int) -> None:
    mods = cond.passive_perception_modifiers(given_, RS)
    assert sum(m.value for m in mods) == total
    assert {m.rule for m in mods} <= {rule("C-BLI"), rule("C-DEA")}


@pytest.mark.rule("MOR-10", "C-FRI", "G-14")
@pytest.mark.parametrize("condition", list(Condition))
def test_mor_10__fear_conditions_are_frightened_and_shaken(condition: Condition) -> None:
    assert cond.morale_fear(condition) is (condition in {C.FRIGHTENED, C.SHAKEN})


@pytest.mark.rule("C-INC", "G-19", "C-UNC", "C-PAR", "C-PET", "DOD-1", "DOD-2")
def test_incapacitated_drops_concentration_unconscious_drops_items_dodge_no_aoo() -> None:
    assert cond.loses_concentration({C.STUNNED}) == rule("C-INC")
    assert cond.loses_concentration({C.PRONE}) is None
    assert cond.drops_held_items({C.DYING}) == rule("C-UNC")
    assert cond.drops_held_items({C.PARALYZED}) is None
    assert cond.cannot_speak({C.PARALYZED}) == rule("C-PAR") and cond.cannot_speak({C.STUNNED}) is None
    assert not cond.provokes_opportunity_attacks({C.DODGING}) and cond.provokes_opportunity_attacks(set())


@pytest.mark.rule("C-PET", "RVI-4")
def test_c_pet__resists_all_damage_immune_to_poison_weighs_ten_times() -> None:
    traits = cond.damage_traits({C.PETRIFIED})
    assert traits.resist_all == rule("C-PET") and DamageType.POISON in traits.immune
    assert cond.condition_immunities({C.PETRIFIED}) == {C.POISONED: rule("C-PET")}
    assert cond.weight_multiplier({C.PETRIFIED}, RS) == (10, rule("C-PET"))
    assert cond.damage_traits({C.STUNNED}).resist_all is None


# ----- durations -----

A, B = "alice", "bob"


def _b(creature: str, edge: dur.TurnEdge, rnd: int) -> dur.TurnBoundary:
    return dur.TurnBoundary(creature, edge, rnd)


S, E = dur.TurnEdge.START, dur.TurnEdge.END


def _run(applied: dur.AppliedCondition, boundaries: list[dur.TurnBoundary]) -> int | None:
    """Index of the boundary at which it expired, or None."""
    held: tuple[dur.AppliedCondition, ...] = (applied,)
    for i, b in enumerate(boundaries):
        held, gone = dur.expire(held, b)
        if gone:
            return i
    return None


# Alice acts before Bob each round.
ROUNDS_AB = [_b(A, S, 1), _b(A, E, 1), _b(B, S, 1), _b(B, E, 1), _b(A, S, 2), _b(A, E, 2), _b(B, S, 2), _b(B, E, 2)]


@pytest.mark.rule("G-13", "PSI-15")
def test_end_of_next_turn__applied_on_own_turn_lasts_through_the_next_turn() -> None:
    dazed = dur.until_end_of_next_turn(C.DAZED, A, rule("G-13"))
    # applied during Alice's turn in round 1: it survives that turn's end and ends at the end of round 2's turn
    assert _run(dazed, ROUNDS_AB[1:]) == 4  # ROUNDS_AB[5] = end of Alice's turn, round 2


@pytest.mark.rule("G-13")
def test_end_of_next_turn__applied_on_another_turn_ends_with_the_coming_turn() -> None:
    dazed = dur.until_end_of_next_turn(C.DAZED, B, rule("G-13"))
    # applied during Alice's turn (round 1): Bob's next turn is his round-1 turn
    assert _run(dazed, ROUNDS_AB[1:]) == 2  # end of Bob's turn, round 1
    # applied during Bob's own turn: lasts through his round-2 turn
    assert _run(dazed, ROUNDS_AB[3:]) == 4


@pytest.mark.rule("DOD-1")
def test_dod_1__dodging_lasts_until_the_start_of_the_next_turn() -> None:
    dodge = dur.dodging(A)
    assert dodge.condition is C.DODGING and dodge.rule == rule("DOD-1")
    assert _run(dodge, ROUNDS_AB[1:]) == 3  # start of Alice's turn, round 2


@pytest.mark.rule("SUR-2", "SUR-4", "FF-1", "FF-2", "FF-3")
def test_ff_1__surprised_creature_is_flat_footed_through_round_1() -> None:
    ff = dur.surprised(1)
    held = dur.conditions_of((ff,))
    assert cond.loses_positive_agi(held) == rule("FF-2") and cond.can_react(held, RS).rule == rule("FF-3")
    assert _run(ff, ROUNDS_AB) == 4  # the first boundary of round 2


def test_rounds_and_until_removed() -> None:
    one = dur.AppliedCondition(C.POISONED, rule("C-POI"), B, dur.Duration.for_rounds(1, B, 1))
    assert _run(one, ROUNDS_AB[1:]) == 5  # Bob's start in round 2
    forever = dur.AppliedCondition(C.PRONE, rule("C-PRO"))
    assert _run(forever, ROUNDS_AB) is None


def test_lapse__while_conditions_end_when_the_state_stops() -> None:
    gas = dur.AppliedCondition(C.POISONED, rule("C-POI"), None, dur.Duration.while_("in-gas"))
    other = dur.AppliedCondition(C.PRONE, rule("C-PRO"))
    assert dur.lapse((gas, other), {"in-gas"}) == ((gas, other), ())
    assert dur.lapse((gas, other), set()) == ((other,), (gas,))


_KINDS = st.sampled_from([
    dur.Duration.end_of_next_turn(A), dur.Duration.start_of_next_turn(B), dur.Duration.for_rounds(2, A, 1),
    dur.Duration.through_round(1), dur.Duration.until_removed(), dur.Duration.while_("x"),
])


@given(st.lists(_KINDS, max_size=6), st.sampled_from(ROUNDS_AB))
def test_expire__partitions_and_never_touches_until_removed(kinds: list[dur.Duration], b: dur.TurnBoundary) -> None:
    applied = tuple(dur.AppliedCondition(C.PRONE, rule("C-PRO"), duration=d) for d in kinds)
    kept, gone = dur.expire(applied, b)
    assert len(kept) + len(gone) == len(applied)
    assert all(a.duration.kind is not dur.DurationKind.UNTIL_REMOVED for a in gone)


# ----- ending events, sources, stacking -----


def _ap(c: Condition, r: str, source: str | None = None) -> dur.AppliedCondition:
    return dur.AppliedCondition(c, rule(r), source)


@pytest.mark.rule("C-CHA", "C-GRA", "C-PRO", "G-15", "G-16", "G-18", "G-20", "HID-3")
@pytest.mark.parametrize(
    ("applied", "event", "ends"),
    [
        (_ap(C.CHARMED, "C-CHA", "witch"), dur.EndEvent(EndTrigger.HARMED_BY_SOURCE_SIDE, "witch"), True),
        (_ap(C.CHARMED, "C-CHA", "witch"),
         dur.EndEvent(EndTrigger.HARMED_BY_SOURCE_SIDE, "thug", frozenset({"witch"})), True),
        (_ap(C.CHARMED, "C-CHA", "witch"), dur.EndEvent(EndTrigger.HARMED_BY_SOURCE_SIDE, "stranger"), False),
        (_ap(C.GRAPPLED, "C-GRA", "ogre"), dur.EndEvent(EndTrigger.SOURCE_INCAPACITATED, "ogre"), True),
        (_ap(C.GRAPPLED, "C-GRA", "ogre"), dur.EndEvent(EndTrigger.SOURCE_INCAPACITATED, "troll"), False),
        (_ap(C.GRAPPLED, "C-GRA", "ogre"), dur.EndEvent(EndTrigger.OUT_OF_SOURCE_REACH, "ogre"), True),
        (_ap(C.PRONE, "C-PRO"), dur.EndEvent(EndTrigger.STANDS_UP), True),
        (_ap(C.HIDDEN, "HID-3"), dur.EndEvent(EndTrigger.ATTACKS), True),
        (_ap(C.BURIED, "C-BUR"), dur.EndEvent(EndTrigger.DUG_OUT), True),
        (_ap(C.SUFFOCATING, "G-15"), dur.EndEvent(EndTrigger.CAN_BREATHE), True),
        (_ap(C.DROWNING, "G-16"), dur.EndEvent(EndTrigger.SURFACES), True),
        (_ap(C.RESTRAINED, "C-RES"), dur.EndEvent(EndTrigger.DUG_OUT), False),
    ],
    ids=["c_cha_charmer", "c_cha_ally", "c_cha_stranger", "c_gra_incap", "c_gra_other", "c_gra_reach", "c_pro",
         "g_20_hid_3", "g_18", "g_15", "g_16", "c_res_not_dug"],
)
def test_end_on__events_end_conditions(applied: dur.AppliedCondition, event: dur.EndEvent, ends: bool) -> None:
    kept, ended = dur.end_on((applied,), event)
    assert (ended == (applied,)) is ends and (kept == ()) is ends


@pytest.mark.rule("C-CHA", "C-FRI")
def test_source_bound_restrictions() -> None:
    held = (_ap(C.CHARMED, "C-CHA", "witch"), _ap(C.FRIGHTENED, "C-FRI", "dragon"))
    assert dur.may_harm(held, "witch").rule == rule("C-CHA") and not dur.may_harm(held, "witch")
    assert dur.may_harm(held, "dragon")
    assert not dur.may_move_closer(held, "dragon") and dur.may_move_closer(held, "witch")
    assert dur.sources_of(held, C.FRIGHTENED) == {"dragon"}
    assert _pairs(dur.checks_against_sources(held, "witch", Skill.PERSUASION)) == {(True, "C-CHA")}
    assert dur.checks_against_sources(held, "witch", Skill.ATHLETICS) == ()
    assert dur.checks_against_sources(held, "dragon", Skill.PERSUASION) == ()


@pytest.mark.rule("C-PET", "G-17")
def test_add_condition__immunity_exhaustion_and_refresh() -> None:
    pet = (_ap(C.PETRIFIED, "C-PET"),)
    refused = dur.add_condition(pet, _ap(C.POISONED, "C-POI"), RS)
    assert refused.conditions == pet and refused.refused == rule("C-PET")
    ex = dur.AppliedCondition(C.EXHAUSTED, rule("G-17"), level=4)
    held = dur.add_condition((), ex, RS).conditions
    held = dur.add_condition(held, ex, RS).conditions
    assert dur.exhaustion_level(held) == 6 and len(held) == 1
    assert dur.exhaustion_level(dur.exhaustion_at_least((), 3, rule("G-17"), RS)) == 3
    assert dur.exhaustion_level(dur.exhaustion_at_least(held, 3, rule("G-17"), RS)) == 6
    first = _ap(C.GRAPPLED, "C-GRA", "ogre")
    again = dur.AppliedCondition(C.GRAPPLED, rule("C-GRA"), "ogre", dur.Duration.through_round(3))
    assert dur.add_condition((first,), again, RS).conditions == (again,)


@pytest.mark.rule("G-15", "UW-4")
@pytest.mark.parametrize(("end", "survives"), [(2, 2), (0, 1), (-1, 1), (4, 4)])
def test_g_15__suffocating_survives_max_end_min_1_rounds(end: int, survives: int) -> None:
    s = dur.suffocating(end, RS)
    assert cond.blocks_healing({s.condition}) == rule("G-15")
    for _ in range(survives):
        tick = dur.suffocation_turn_start(s)
        assert tick.drops_to_zero is None
        s = tick.condition
    tick = dur.suffocation_turn_start(s)
    assert tick.drops_to_zero == rule("G-15")
    assert dur.suffocation_turn_start(tick.condition).drops_to_zero is None


@pytest.mark.rule("C-BUR", "G-18", "G-16")
def test_g_18__buried_takes_1d6_bludgeoning_each_turn_and_cannot_breathe() -> None:
    (part,) = dur.turn_start_damage((_ap(C.BURIED, "C-BUR"), _ap(C.PRONE, "C-PRO")), RS)
    assert part.type is DamageType.BLUDGEONING and part.rule == rule("G-18")
    assert part.dice is not None
    with ScriptedRng([(6, 4)]) as rng:
        assert roll(part.dice, rng).total == 4
    assert cond.cannot_breathe({C.BURIED}) == rule("G-18") and cond.cannot_breathe({C.DROWNING}) == rule("G-16")
    assert cond.cannot_breathe({C.PRONE}) is None
    assert RS.conditions.buried_dig_out_actions == 1
    assert dur.drowning_escape_dc(RS).total == 12 and dur.drowning_escape_dc(RS).rule == rule("G-16")


@pytest.mark.rule("C-STB", "DEATH-14")
def test_c_stb__stabilized_is_unconscious_with_its_effects() -> None:
    assert cond.save_auto_fail({C.STABILIZED}, Save.REFLEX) == rule("C-UNC")
    assert cond.max_actions({C.STABILIZED}, RS).actions == 0
    assert cond.auto_crit({C.STABILIZED}, melee=True, within_5ft=True) == rule("CRIT-5")


def test_ruleset_edition_1_conditions_are_the_same() -> None:
    assert RS1.conditions == RS.conditions
