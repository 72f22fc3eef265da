"""Concealment rules: the derived concealment matrix (G-06, VIS-11) row by row, senses, sight, Hide and guesses.

Covers CONC-1..19, VIS-1..12, HID-1, C-BLI, C-INV, G-06, G-07, G-20, G-32, X-10, X-15, X-17, E-34, E-35.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ashfall.content.schema import Senses
from ashfall.core.d20 import roll_d20
from ashfall.core.modifiers import resolve_advantage
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition
from ashfall.families.senses import rules as conc
from ashfall.families.senses.rules import Cause, Obscurement, Party, Veil
from ashfall.ruleset import Ruleset, preset

ED2, ED1 = preset("ashfall-2"), preset("ashfall-1")
C = Condition

NORMAL = Senses()
DARKVISION = Senses(darkvision=60)
LOW_LIGHT = Senses(low_light_optics=10)  # the stat block's range; the G-32 placeholder (60 ft) wins by default
THERMAL = Senses(thermal_optics=True)
HUD = Senses(tactical_hud=True)
MAGIC = Senses(magical_sight=True)
SHEDDING = Senses(thermal_shedding=True)

DIM = Veil(Obscurement.LIGHT, Cause.DIM_LIGHT)
DARK = Veil(Obscurement.HEAVY, Cause.DARKNESS)
FOG = Veil(Obscurement.LIGHT, Cause.FOG)
SMOKE = Veil(Obscurement.HEAVY, Cause.SMOKE)
BLIZZARD = Veil(Obscurement.HEAVY, Cause.BLIZZARD)
VEIL_OF_SHADOW = Veil(Obscurement.HEAVY, Cause.MAGICAL_DARKNESS)


def at(*layers: Veil, senses: Senses = NORMAL, conditions: frozenset[Condition] = frozenset(),
       underwater: bool = False) -> Party:
    """A one-square creature standing under these layers."""
    return Party(senses, (tuple(layers),), conditions, underwater)


def sources(attacker: Party, target: Party, distance: int = 10, ruleset: Ruleset = ED2,
            **kw: bool) -> set[tuple[bool, str]]:
    return {(s.advantage, str(s.rule)) for s in conc.attack_sources(attacker, target, distance, ruleset, **kw)}


DIS = False
ADV = True

# (attacker senses, attacker's layers, target's layers, target senses, distance, expected sources)
MATRIX = [
    pytest.param(NORMAL, (), (FOG,), NORMAL, 10, {(DIS, "CONC-3")}, id="conc_3__normal_sight_into_fog_lo"),
    pytest.param(NORMAL, (), (DIM,), NORMAL, 10, {(DIS, "CONC-3")}, id="conc_2__dim_light_is_lo"),
    pytest.param(DARKVISION, (), (DIM,), NORMAL, 60, set(), id="vis_1__darkvision_in_range_clears_dim_light"),
    pytest.param(DARKVISION, (), (DIM,), NORMAL, 65, {(DIS, "CONC-3")}, id="vis_1__darkvision_out_of_range"),
    pytest.param(DARKVISION, (), (FOG,), NORMAL, 10, {(DIS, "CONC-3")}, id="x_17__darkvision_does_not_clear_fog"),
    pytest.param(LOW_LIGHT, (), (DIM,), NORMAL, 60, set(), id="vis_6__low_light_placeholder_60_ft_g_32"),
    pytest.param(LOW_LIGHT, (), (DARK,), NORMAL, 65, {(DIS, "CONC-10")}, id="vis_6__low_light_out_of_range"),
    pytest.param(THERMAL, (), (FOG,), NORMAL, 30, set(), id="conc_7__thermal_within_30_ft_clears_lo"),
    pytest.param(THERMAL, (), (FOG,), NORMAL, 35, {(DIS, "CONC-3")}, id="vis_7__thermal_beyond_30_ft"),
    pytest.param(HUD, (), (FOG,), NORMAL, 200, set(), id="conc_7__hud_clears_lo_at_any_range"),
    pytest.param(THERMAL, (), (FOG,), SHEDDING, 10, {(DIS, "CONC-3")}, id="vis_9__thermal_shedding_beats_thermal"),
    pytest.param(HUD, (), (SMOKE,), SHEDDING, 10, set(), id="vis_9__thermal_shedding_does_not_beat_hud"),
    pytest.param(NORMAL, (), (DARK,), NORMAL, 10, {(DIS, "CONC-10")}, id="conc_10__normal_sight_into_darkness"),
    pytest.param(NORMAL, (), (SMOKE,), NORMAL, 10, {(DIS, "CONC-10")}, id="conc_8__thick_smoke_is_ho"),
    pytest.param(NORMAL, (), (BLIZZARD,), NORMAL, 10, {(DIS, "CONC-10")}, id="conc_8__blizzard_is_ho"),
    pytest.param(DARKVISION, (), (DARK,), NORMAL, 60, set(), id="vis_2__darkvision_attacks_normally_in_darkness"),
    pytest.param(DARKVISION, (), (SMOKE,), NORMAL, 10, {(DIS, "CONC-10")}, id="x_17__darkvision_not_through_smoke"),
    pytest.param(THERMAL, (), (DARK,), NORMAL, 30, set(), id="vis_7__thermal_clears_darkness_within_30_ft"),
    pytest.param(THERMAL, (), (SMOKE,), NORMAL, 30, set(), id="vis_7__thermal_clears_thick_smoke"),
    pytest.param(HUD, (), (BLIZZARD,), NORMAL, 120, set(), id="vis_10__hud_clears_non_magical_ho"),
    pytest.param(THERMAL, (), (SMOKE,), SHEDDING, 10, {(DIS, "CONC-10")}, id="vis_9__shedding_in_smoke_vs_thermal"),
    pytest.param(NORMAL, (), (VEIL_OF_SHADOW,), NORMAL, 10, {(DIS, "CONC-19")}, id="conc_19__veil_of_shadow"),
    pytest.param(DARKVISION, (), (VEIL_OF_SHADOW,), NORMAL, 10, {(DIS, "CONC-19")},
                 id="vis_4__darkvision_does_not_see_through_magical_darkness"),
    pytest.param(HUD, (), (VEIL_OF_SHADOW,), NORMAL, 10, {(DIS, "CONC-19")}, id="vis_10__hud_not_through_the_veil"),
    pytest.param(THERMAL, (), (VEIL_OF_SHADOW,), NORMAL, 10, {(DIS, "CONC-19")},
                 id="g_32__thermal_not_through_the_veil"),
    pytest.param(MAGIC, (), (VEIL_OF_SHADOW,), NORMAL, 10, set(), id="conc_19__magical_sight_sees_in_the_veil"),
    pytest.param(NORMAL, (FOG,), (), NORMAL, 10, set(), id="conc_4__attacker_in_lo_no_penalty"),
    pytest.param(NORMAL, (DARK,), (), NORMAL, 10, set(), id="conc_12__attacker_in_ho_no_penalty_no_advantage"),
    pytest.param(NORMAL, (DARK,), (DARK,), NORMAL, 10, {(DIS, "CONC-10"), (ADV, "CONC-13")},
                 id="conc_13__both_in_ho_cancel"),
    pytest.param(NORMAL, (VEIL_OF_SHADOW,), (VEIL_OF_SHADOW,), NORMAL, 10, {(DIS, "CONC-19"), (ADV, "CONC-13")},
                 id="conc_16__both_inside_the_veil_cancel"),
    pytest.param(NORMAL, (DARK,), (DARK,), DARKVISION, 10, {(DIS, "CONC-10")},
                 id="vis_3__the_darkvision_target_sees_the_attacker_so_no_cancelling"),
    pytest.param(NORMAL, (FOG,), (FOG,), NORMAL, 10, {(DIS, "CONC-3")}, id="conc_3__both_in_lo_still_disadvantage"),
    pytest.param(NORMAL, (), (), NORMAL, 10, set(), id="conc_1__clear_view_is_normal"),
]


@pytest.mark.rule("G-06", "VIS-11", "CONC-1", "CONC-2", "CONC-3", "CONC-4", "CONC-7", "CONC-8", "CONC-10",
                  "CONC-12", "CONC-13", "CONC-16", "CONC-19", "VIS-1", "VIS-2", "VIS-3", "VIS-4", "VIS-6", "VIS-7",
                  "VIS-9", "VIS-10", "G-32", "X-10", "X-17")
@pytest.mark.parametrize(("senses", "mine", "theirs", "their_senses", "distance", "expected"), MATRIX)
def test_g_06__concealment_matrix_row(senses: Senses, mine: tuple[Veil, ...], theirs: tuple[Veil, ...],
                                      their_senses: Senses, distance: int, expected: set[tuple[bool, str]]) -> None:
    attacker = at(*mine, senses=senses)
    target = at(*theirs, senses=their_senses)
    assert sources(attacker, target, distance) == expected


@pytest.mark.rule("G-06", "G-07", "CONC-18", "C-INV", "C-BLI")
@pytest.mark.parametrize(("mine", "theirs", "layers", "expected"), [
    pytest.param({C.INVISIBLE}, set(), (), {(ADV, "C-INV")}, id="invisible_attacker_advantage"),
    pytest.param(set(), {C.INVISIBLE}, (), {(DIS, "C-INV")}, id="attacks_on_the_invisible_disadvantage"),
    pytest.param({C.BLINDED}, set(), (), {(DIS, "C-BLI")}, id="blinded_attacker_disadvantage"),
    pytest.param(set(), {C.BLINDED}, (), {(ADV, "C-BLI")}, id="blinded_target_advantage"),
    pytest.param({C.INVISIBLE}, set(), (DARK,), {(ADV, "C-INV")}, id="conc_18__invisible_in_the_dark_keeps_adv"),
])
def test_g_06__condition_rows(mine: set[Condition], theirs: set[Condition], layers: tuple[Veil, ...],
                              expected: set[tuple[bool, str]]) -> None:
    attacker = at(*layers, conditions=frozenset(mine))
    target = at(conditions=frozenset(theirs))
    assert sources(attacker, target) == expected
    assert sources(attacker, target, with_conditions=False) == set()


@pytest.mark.rule("CONC-13", "CONC-16", "G-21")
def test_conc_13__both_in_ho_roll_a_single_d20() -> None:
    found = conc.attack_sources(at(DARK), at(DARK), 5, ED2)
    assert resolve_advantage(found).value == "normal"
    with ScriptedRng([14]) as rng:
        assert roll_d20(rng, (), found).faces == (14,)


@pytest.mark.rule("CONC-13", "X-10")
def test_conc_13__option_off_gives_neither_source() -> None:
    rs = ED2.with_options(concealment={"both_heavy_cancel": False})
    assert sources(at(DARK), at(DARK), ruleset=rs) == {(DIS, "CONC-10")}


@pytest.mark.rule("CONC-6", "VIS-3", "VIS-5")
def test_conc_6__darkvision_is_personal__the_krel_is_still_obscured_to_the_soldier() -> None:
    krel, soldier = at(DARK, senses=DARKVISION), at(DARK)
    assert sources(krel, soldier, 30) == set()  # VIS-5: the Krel attacks normally
    assert sources(soldier, krel, 30) == {(DIS, "CONC-10")}  # the soldier at disadvantage


@pytest.mark.rule("VIS-12")
@pytest.mark.parametrize(("underwater", "expected"), [(False, set()), (True, {(DIS, "CONC-10")})])
def test_vis_12__darkvision_range_is_halved_underwater(underwater: bool, expected: set[tuple[bool, str]]) -> None:
    diver = at(senses=DARKVISION, underwater=underwater)
    assert sources(diver, at(DARK), 40) == expected


@pytest.mark.rule("G-32")
def test_g_32__low_light_uses_the_stat_block_range_when_the_placeholder_is_off() -> None:
    rs = ED2.with_options(concealment={"low_light_range_ft": None})
    assert sources(at(senses=LOW_LIGHT), at(DIM), 10, rs) == set()
    assert sources(at(senses=LOW_LIGHT), at(DIM), 15, rs) == {(DIS, "CONC-3")}


@pytest.mark.rule("G-32")
def test_g_32__thermal_into_magical_darkness_is_an_option() -> None:
    rs = ED2.with_options(concealment={"thermal_sees_magical_darkness": True})
    assert sources(at(senses=THERMAL), at(VEIL_OF_SHADOW), 20, rs) == set()


@pytest.mark.rule("CONC-3", "CONC-10")
def test_conc_3__a_large_target_partly_out_of_the_fog_is_not_obscured() -> None:
    big = Party(NORMAL, ((FOG,), (FOG,), (), (FOG,)))
    assert sources(at(), big) == set()
    assert conc.view(at(), Party(NORMAL, ((SMOKE,), (FOG,))), 10, ED2).level is Obscurement.LIGHT


@pytest.mark.rule("CONC-8", "CONC-10")
def test_conc_8__the_heaviest_layer_counts__magic_first_on_a_tie() -> None:
    assert conc.strongest([FOG, SMOKE]) == SMOKE
    assert conc.strongest([SMOKE, VEIL_OF_SHADOW, DARK]) == VEIL_OF_SHADOW
    assert conc.strongest([]) is None
    assert conc.view(at(senses=DARKVISION), at(DARK, FOG), 10, ED2).layer == FOG  # the fog stays


# ----- edition 1 (E-34, E-35) -----


@pytest.mark.rule("E-34", "E-35")
@pytest.mark.parametrize(("mine", "theirs", "senses", "expected"), [
    pytest.param((), (FOG,), NORMAL, set(), id="lo_has_no_attack_effect"),
    pytest.param((DARK,), (), NORMAL, {(DIS, "E-34")}, id="attacker_in_ho_as_if_blinded"),
    pytest.param((), (DARK,), NORMAL, {(DIS, "E-34"), (ADV, "E-34")}, id="target_in_ho_blind_both_ways"),
    pytest.param((), (DARK,), DARKVISION, {(DIS, "E-34"), (ADV, "E-34")}, id="e_35__no_darkvision_in_edition_1"),
])
def test_e_34__edition_1_obscurement(mine: tuple[Veil, ...], theirs: tuple[Veil, ...], senses: Senses,
                                     expected: set[tuple[bool, str]]) -> None:
    assert sources(at(*mine, senses=senses), at(*theirs), 10, ED1) == expected


@pytest.mark.rule("E-34", "CONC-9")
def test_e_34__sight_checks__lo_disadvantage_only_in_edition_1__ho_fails_as_if_blinded() -> None:
    assert conc.sight_check(at(), at(FOG), 10, ED2) == conc.SightCheck()
    ed1 = conc.sight_check(at(), at(FOG), 10, ED1)
    assert ed1.auto_fail is None and [(s.advantage, s.rule) for s in ed1.sources] == [(False, "E-34")]
    assert conc.sight_check(at(), at(SMOKE), 10, ED2).auto_fail == "CONC-9"
    assert conc.sight_check(at(senses=THERMAL), at(SMOKE), 10, ED2).auto_fail == "CONC-9"  # VIS-8


# ----- seeing, guessing, hiding -----


@pytest.mark.rule("X-15", "CONC-9", "CONC-15", "CONC-19", "C-BLI", "C-INV", "G-20", "VIS-7")
@pytest.mark.parametrize(("viewer", "other", "seen", "why"), [
    pytest.param(at(), at(FOG), True, None, id="lo_is_still_seen"),
    pytest.param(at(), at(DARK), False, "X-15", id="ho_is_unseen_not_hidden"),
    pytest.param(at(senses=DARKVISION), at(DARK), True, None, id="darkvision_sees_in_darkness"),
    pytest.param(at(senses=THERMAL), at(SMOKE), True, None, id="thermal_sees_a_heat_bloom"),
    pytest.param(at(VEIL_OF_SHADOW), at(VEIL_OF_SHADOW), False, "CONC-19", id="both_in_the_veil_cannot_see"),
    pytest.param(at(senses=MAGIC), at(VEIL_OF_SHADOW), True, None, id="magical_sight_sees_in_the_veil"),
    pytest.param(at(conditions=frozenset({C.BLINDED})), at(), False, "C-BLI", id="blinded_sees_nothing"),
    pytest.param(at(), at(conditions=frozenset({C.INVISIBLE})), False, "C-INV", id="invisible"),
    pytest.param(at(), at(conditions=frozenset({C.HIDDEN})), False, "G-20", id="hidden"),
])
def test_x_15__a_creature_you_can_see(viewer: Party, other: Party, seen: bool, why: str | None) -> None:
    sight = conc.sees(viewer, other, 10, ED2)
    assert (bool(sight), sight.rule) == (seen, why)


@pytest.mark.rule("CONC-11", "G-20", "X-15", "HID-3")
def test_conc_11__only_a_hidden_target_needs_a_guessed_square() -> None:
    assert conc.must_guess(at(conditions=frozenset({C.HIDDEN})), ED2) == "CONC-11"
    assert conc.must_guess(at(DARK), ED2) is None  # unseen, but its location is known
    off = ED2.with_options(conditions={"hidden_targets_guessed": False})
    assert conc.must_guess(at(conditions=frozenset({C.HIDDEN})), off) is None


@pytest.mark.rule("CONC-5", "VIS-8", "E-34")
@pytest.mark.parametrize(("layers", "ruleset", "expected"), [
    pytest.param((FOG,), ED2, [(True, "CONC-5")], id="lo_gives_stealth_advantage"),
    pytest.param((DARK,), ED2, [(True, "CONC-5")], id="ho_too"),
    pytest.param((), ED2, [], id="leaving_the_zone_ends_it"),
    pytest.param((FOG,), ED1, [], id="e_34__not_in_edition_1"),
    pytest.param((DARK,), ED2.with_options(concealment={"heavy_obscured_stealth_advantage": False}), [],
                 id="ho_option_off"),
])
def test_conc_5__stealth_advantage_in_obscurement(layers: tuple[Veil, ...], ruleset: Ruleset,
                                                  expected: list[tuple[bool, str]]) -> None:
    assert [(s.advantage, s.rule) for s in conc.stealth_sources(at(*layers), ruleset)] == expected


@pytest.mark.rule("CONC-17", "HID-1", "VIS-8")
@pytest.mark.parametrize(("watcher", "hider", "distance", "expected"), [
    pytest.param(at(), at(DARK), 20, "CONC-17", id="ho_hides_from_normal_sight"),
    pytest.param(at(), at(FOG), 20, "HID-1", id="hid_1__lo_is_concealment_too"),
    pytest.param(at(senses=THERMAL), at(SMOKE), 20, "CONC-17", id="vis_8__thermal_does_not_cancel_stealth"),
    pytest.param(at(senses=DARKVISION), at(DARK), 20, None, id="darkvision_sees_into_the_dark"),
    pytest.param(at(senses=DARKVISION), at(VEIL_OF_SHADOW), 20, "CONC-17", id="but_not_into_the_veil"),
])
def test_conc_17__hide_in_heavy_obscurement_without_cover(watcher: Party, hider: Party, distance: int,
                                                          expected: str | None) -> None:
    assert conc.hidden_from(watcher, hider, distance, ED2) == expected


@pytest.mark.rule("CONC-1", "CONC-2", "CONC-8", "X-17", "CONC-19")
def test_conc_1__two_tiers_and_what_sees_through_each_cause() -> None:
    assert [o.name for o in Obscurement] == ["NONE", "LIGHT", "HEAVY"]
    assert conc.traits(Cause.DARKNESS).darkness and conc.traits(Cause.DIM_LIGHT).darkness
    assert conc.traits(Cause.MAGICAL_DARKNESS).magical and not conc.traits(Cause.MAGICAL_DARKNESS).darkness
    assert conc.traits(Cause.SMOKE) == conc.CauseTraits()


LAYERS = st.lists(st.sampled_from([DIM, DARK, FOG, SMOKE, BLIZZARD, VEIL_OF_SHADOW]), max_size=3).map(tuple)
SENSES = st.sampled_from([NORMAL, DARKVISION, LOW_LIGHT, THERMAL, HUD, MAGIC])


@pytest.mark.rule("G-06", "CONC-12", "X-10")
@given(mine=LAYERS, theirs=LAYERS, senses=SENSES, distance=st.integers(0, 200))
def test_g_06__invariants(mine: tuple[Veil, ...], theirs: tuple[Veil, ...], senses: Senses, distance: int) -> None:
    """Obscurement never gives advantage on its own, and the attacker's own obscurement never hurts it (ed 2)."""
    found = sources(at(*mine, senses=senses), at(*theirs), distance)
    assert (ADV, "CONC-13") not in found or (DIS, "CONC-10") in found or (DIS, "CONC-19") in found
    assert found - {(ADV, "CONC-13")} == sources(at(senses=senses), at(*theirs), distance)
    seen = conc.view(at(senses=senses), at(*theirs), distance, ED2)
    assert seen.level.value <= (conc.strongest(theirs) or Veil(Obscurement.NONE, Cause.FOG)).level.value
