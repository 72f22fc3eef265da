"""Spells and psionics in the turn engine: Cast Spell and MAP, save spells, healing, Sustain and concentration,
Counterspell, Psi Strike, Focus and Backlash (ACT-8..10, MAP-2..4, RX-16..20, G-19, E-02, E-09, PSI, HEAL-1..3)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ashfall.core.types import Condition, Save
from ashfall.engine import CastSpell, FirstOption, PsiStrike, Refused, Strike, Sustain, legal_intents
from ashfall.engine import events as ev
from ashfall.engine.effects import EffectKind
from ashfall.families.spells.rules_spellbook import SPELLS, ConditionSpan, Spell, register_spell, unregister_spell
from ashfall.rules.health import Health

from .activity_kit import ED1, ED2, attacks, caster, damage_to, fighter, map_of, mods, of_type, script, started

TEST_SPELLS = (
    Spell("veil", "Veil", 1, 1, save=Save.WILL, condition=Condition.BLINDED,
          condition_span=ConditionSpan.WHILE_SPELL_LASTS, range_ft=60, sustained=True),
    Spell("dazzle", "Dazzle", 1, 1, save=Save.WILL, condition=Condition.BLINDED,
          condition_span=ConditionSpan.WHILE_SPELL_LASTS, range_ft=60, concentration=True),
    Spell("hold", "Hold", 2, 1, save=Save.WILL, condition=Condition.RESTRAINED,
          condition_span=ConditionSpan.WHILE_SPELL_LASTS, range_ft=60, concentration=True),
)


@pytest.fixture(autouse=True)
def test_spells() -> Iterator[None]:
    for s in TEST_SPELLS:
        register_spell(s)
    yield
    for s in TEST_SPELLS:
        unregister_spell(s.id)


ALL = ("arc-bolt", "flame-burst", "binding-hex", "healing-touch", "mass-healing", "veil", "dazzle", "hold")


def duel(ruleset=ED2, **caster_kw) -> list:
    return [caster("m", "party", (1, 1), ALL, ruleset=ruleset, **caster_kw),
            fighter("a", "raiders", (5, 1), "raider", ruleset=ruleset),
            fighter("b", "raiders", (5, 3), "raider-scout", ruleset=ruleset)]


# ----- spell attacks and MAP (MAP-2, MAP-3, MAP-4, E-02) -----


@pytest.mark.rule("MAP-3", "MAP-2", "ATK-3", "ACT-8")
def test_map_3__attack_cantrip_then_strike__the_strike_takes_minus_3():
    e = started(duel())
    with script(e, [(20, 10), (10, 4), (20, 2)]):
        out = e.submit(CastSpell("m", "arc-bolt", ("a",))) + e.submit(Strike("m", "a", "pistol"))
    cantrip, shot = attacks(out)
    assert cantrip.label == "Arc Bolt" and cantrip.roll.total == 15 and mods(cantrip)["ATK-3"] == 5
    assert damage_to(out, "a") == [4]
    assert (map_of(cantrip), map_of(shot)) == (0, -3)
    assert of_type(out, ev.SpellCast)[0].countered == ""


@pytest.mark.rule("MAP-3", "MAP-2")
def test_map_3__strike_then_attack_cantrip__the_cantrip_takes_minus_3():
    e = started(duel())
    with script(e, [(20, 2), (20, 2)]):
        out = e.submit(Strike("m", "a", "pistol")) + e.submit(CastSpell("m", "arc-bolt", ("a",)))
    shot, cantrip = attacks(out)
    assert (map_of(shot), map_of(cantrip)) == (0, -3)
    assert mods(cantrip)["MAP-1"] == -3


@pytest.mark.rule("E-02", "MAP-3")
def test_e_02__edition_1_spell_attacks_neither_take_nor_count_for_map():
    e = started(duel(ED1), ruleset=ED1)
    with script(e, [(20, 2), (20, 2), (20, 2)]):
        out = e.submit(CastSpell("m", "arc-bolt", ("a",))) + e.submit(Strike("m", "a", "pistol"))
        out += e.submit(CastSpell("m", "arc-bolt", ("a",)))
    assert [map_of(a) for a in attacks(out)] == [0, 0, 0]


@pytest.mark.rule("MAP-4", "ACT-8", "COV-1")
def test_map_4__save_for_half_area_spell_leaves_map_alone():
    e = started([caster("m", "party", (1, 1), ALL), fighter("a", "raiders", (8, 8), "raider"),
                 fighter("b", "raiders", (9, 8), "raider-scout"), fighter("c", "raiders", (8, 10), "raider-enforcer"),
                 fighter("far", "raiders", (14, 14), "raider")])
    with script(e, [(20, 5), (20, 15), (20, 11), (6, 4), (6, 4), (6, 4), (20, 2)]):
        out = e.submit(CastSpell("m", "flame-burst", point=(8, 8))) + e.submit(Strike("m", "b", "pistol"))
    saves = of_type(out, ev.CheckRolled)
    assert [(s.actor, s.against, s.success) for s in saves] == [("a", 13, False), ("b", 13, True), ("c", 13, True)]
    assert [damage_to(out, t) for t in ("a", "b", "c", "far")] == [[11], [6], [6], []]
    assert e.state.get("a").health.is_dead
    assert attacks(out)[0].target == "b" and map_of(attacks(out)[0]) == 0
    assert e.state.get("m").turn.attack_rolls == 1


@pytest.mark.rule("ACT-8")
@pytest.mark.parametrize(("intent", "rule_id"), [
    (CastSpell("m", "no-such-spell", ("a",)), "ACT-8"),
    (CastSpell("m", "arc-bolt", ("far",)), "ACT-8"),
    (CastSpell("m", "arc-bolt", ("a", "b")), "ACT-8"),
    (CastSpell("m", "flame-burst"), "ACT-8"),
    (CastSpell("m", "healing-touch", ("p",)), "ACT-8"),
    (CastSpell("w", "arc-bolt", ("a",)), "ACT-8"),
], ids=["unknown", "out-of-range", "too-many-targets", "area-without-point", "touch-not-adjacent", "not-a-caster"])
def test_cast_spell__refused_before_rolling(intent, rule_id):
    e = started([caster("m", "party", (1, 1), ALL), fighter("p", "party", (1, 5)), fighter("w", "party", (2, 2)),
                 fighter("a", "raiders", (5, 1), "raider"), fighter("b", "raiders", (5, 3), "raider"),
                 fighter("far", "raiders", (19, 19), "raider")])
    if intent.actor == "w":
        e.end_turn("m")
        e.end_turn("p")
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(intent)
    assert err.value.rule == rule_id


# ----- healing spells (HEAL-1..3) -----


@pytest.mark.rule("HEAL-1", "ACT-8")
def test_heal_1__healing_touch_heals_an_adjacent_ally_1d8_plus_wis():
    e = started([caster("m", "party", (1, 1), ALL), fighter("p", "party", (2, 1), health=Health(30, 52)),
                 fighter("a", "raiders", (9, 9), "raider")])
    with script(e, [(8, 5)]):
        out = e.submit(CastSpell("m", "healing-touch", ("p",)))
    assert e.state.get("p").health.hp == 30 + 5 + 1
    assert of_type(out, ev.HealthSet)[0].rule == "HEAL-1"


@pytest.mark.rule("HEAL-3")
def test_heal_3__mass_healing_heals_allies_within_30_ft_only():
    e = started([caster("m", "party", (1, 1), ALL), fighter("p", "party", (3, 1), health=Health(10, 52)),
                 fighter("q", "party", (12, 1), health=Health(10, 52)), fighter("a", "raiders", (2, 2), "raider",
                                                                         health=Health(1, 11))])
    with script(e, [(8, 1)] * 5):
        e.submit(CastSpell("m", "mass-healing"))
    assert [e.state.get(x).health.hp for x in ("p", "q", "a")] == [10 + 5 + 1, 10, 1]


# ----- Sustain and concentration (ACT-9, ACT-10, G-19, E-09) -----


def restrained(e, cid: str) -> bool:
    return e.state.get(cid).has(Condition.RESTRAINED)


def next_round(e) -> None:
    e.end_turn("m")
    e.end_turn("a")
    e.end_turn("b")


@pytest.mark.rule("ACT-9", "G-19")
def test_act_9__a_sustained_spell_ends_at_the_end_of_the_casters_turn_unless_sustained():
    e = started(duel())
    with script(e, [(20, 5)]):
        e.submit(CastSpell("m", "binding-hex", ("a",)))
    assert restrained(e, "a")
    next_round(e)
    assert restrained(e, "a")
    with script(e, []):
        out = e.submit(Sustain("m"))
    assert of_type(out, ev.ActionsSpent)[0].count == 1
    next_round(e)
    assert restrained(e, "a")
    e.end_turn("m")
    assert not restrained(e, "a") and not e.state.effects_on("m", EffectKind.SUSTAINED_SPELL)


@pytest.mark.rule("ACT-9")
def test_act_9__sustain_refused_twice_in_a_turn_or_with_nothing_to_sustain():
    e = started(duel())
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(Sustain("m"))
    assert err.value.rule == "ACT-9"
    with script(e, [(20, 5)]):
        e.submit(CastSpell("m", "binding-hex", ("a",)))
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(Sustain("m"))
    assert err.value.rule == "ACT-9"


@pytest.mark.rule("G-19", "ACT-10")
def test_g_19__one_sustained_and_one_concentration_spell_a_second_of_a_kind_ends_the_first():
    e = started(duel())
    with script(e, [(20, 5), (20, 1)]):
        e.submit(CastSpell("m", "binding-hex", ("a",)))
        e.submit(CastSpell("m", "dazzle", ("b",)))
    assert restrained(e, "a") and e.state.get("b").has(Condition.BLINDED)
    next_round(e)
    with script(e, [(20, 1)]):
        out = e.submit(CastSpell("m", "veil", ("b",)))
    assert not restrained(e, "a")
    assert any(x.rule == "G-19" for x in of_type(out, ev.ConditionRemoved))
    assert len(e.state.effects_on("m", EffectKind.SUSTAINED_SPELL)) == 1
    assert len(e.state.effects_on("m", EffectKind.CONCENTRATION)) == 1
    with script(e, [(20, 1)]):
        e.submit(CastSpell("m", "hold", ("a",)))
    assert restrained(e, "a") and [a.condition for a in e.state.get("b").conditions] == [Condition.BLINDED]


@pytest.mark.rule("ACT-10", "E-09")
@pytest.mark.parametrize(("ruleset", "lasts"), [(ED2, True), (ED1, False)], ids=["ed2-free", "ed1-needs-sustain"])
def test_e_09__concentration_is_free_in_edition_2_but_must_be_sustained_in_edition_1(ruleset, lasts):
    e = started(duel(ruleset), ruleset=ruleset)
    with script(e, [(20, 1)]):
        e.submit(CastSpell("m", "hold", ("a",)))
    next_round(e)
    e.end_turn("m")
    assert restrained(e, "a") is lasts


@pytest.mark.rule("G-19", "C-INC")
def test_g_19__a_caster_who_drops_loses_concentration():
    e = started([caster("m", "party", (1, 1), ALL, health=Health(1, 21)), fighter("a", "raiders", (2, 1), "raider"),
                 fighter("b", "raiders", (5, 3), "raider-scout")])
    with script(e, [(20, 1)]):
        e.submit(CastSpell("m", "hold", ("b",)))
    e.end_turn("m")
    with script(e, [(20, 15), (6, 3)]):
        e.submit(Strike("a", "m", "spear"))
    assert e.state.get("m").health.is_down
    assert not restrained(e, "b") and not e.state.effects_on("m", EffectKind.CONCENTRATION)


# ----- Counterspell (RX-16..20, X-09) -----


def counter_duel(mystic_pos=(6, 1), **mystic_kw) -> list:
    return [caster("m", "party", (1, 1), ALL), fighter("a", "raiders", (5, 1), "raider"),
            caster("y", "raiders", mystic_pos, ("arc-bolt",), **mystic_kw)]


@pytest.mark.rule("RX-16", "RX-17", "RX-18", "X-09")
def test_rx_17__counterspell_cancels_a_spell_on_a_spellcasting_check_against_10_plus_level():
    e = started(counter_duel(), controllers={"y": FirstOption()})
    with script(e, [(20, 5)]):
        out = e.submit(CastSpell("m", "arc-bolt", ("a",)))
    check = of_type(out, ev.CheckRolled)[0]
    assert (check.actor, check.against, check.success, check.rule) == ("y", 10, True, "RX-17")
    assert of_type(out, ev.SpellCast)[0].countered == "RX-17"
    assert attacks(out) == [] and of_type(out, ev.ActionsSpent)[0].count == 1
    assert not e.state.get("y").reaction_available


@pytest.mark.rule("RX-17")
def test_rx_17__a_failed_counterspell_lets_the_spell_resolve():
    e = started(counter_duel(), controllers={"y": FirstOption()})
    with script(e, [(20, 2), (20, 20), (20, 5), (6, 1), (6, 1), (6, 1)]):
        out = e.submit(CastSpell("m", "flame-burst", point=(5, 1)))
    check = of_type(out, ev.CheckRolled)[0]
    assert (check.against, check.success) == (12, False)
    assert of_type(out, ev.SpellCast)[0].countered == ""


@pytest.mark.rule("RX-16", "RX-18")
@pytest.mark.parametrize(("pos", "kw"), [
    ((19, 19), {}),
    ((6, 1), {"weapons": ("shotgun",)}),
    ((6, 1), {"conditions": (Condition.BLINDED,)}),
], ids=["beyond-60-ft", "no-free-hand", "cannot-see"])
def test_rx_16__counterspell_not_offered(pos, kw):
    e = started(counter_duel(pos, **kw), controllers={"y": FirstOption()})
    with script(e, [(20, 2)]):
        out = e.submit(CastSpell("m", "arc-bolt", ("a",)))
    assert not of_type(out, ev.ReactionSpent) and of_type(out, ev.SpellCast)[0].countered == ""


@pytest.mark.rule("RX-18")
def test_rx_18__a_held_spellcasting_focus_replaces_the_free_hand():
    e = started(counter_duel(weapons=("shotgun",), talents=("spellcasting-focus",)), controllers={"y": FirstOption()})
    with script(e, [(20, 5)]):
        out = e.submit(CastSpell("m", "arc-bolt", ("a",)))
    assert of_type(out, ev.SpellCast)[0].countered == "RX-17"


@pytest.mark.rule("RX-20", "PSI-6", "PSI-1")
def test_rx_20__psionic_abilities_cannot_be_counterspelled():
    e = started([fighter("p", "party", (1, 1), "psion"), fighter("a", "raiders", (5, 1), "raider"),
                 caster("y", "raiders", (6, 1), ("arc-bolt",))], controllers={"y": FirstOption()})
    with script(e, [(20, 2)]):
        out = e.submit(PsiStrike("p", "a"))
    assert not of_type(out, ev.ReactionSpent) and not of_type(out, ev.SpellCast)
    assert e.state.get("y").reaction_available


# ----- Psi Strike, Focus and Backlash (PSI-2, PSI-3, PSI-13..18, G-26, E-23) -----


@pytest.mark.rule("PSI-18", "PSI-3", "PSI-2", "MAP-2", "PSI-13")
def test_psi_18__psi_strike_1d8_plus_wis_force_adds_focus_and_takes_map_like_any_attack():
    e = started([fighter("p", "party", (1, 1), "psion"), fighter("a", "raiders", (5, 1), "raider")])
    with script(e, [(20, 10), (8, 4), (20, 2)]):
        out = e.submit(PsiStrike("p", "a")) + e.submit(Strike("p", "a", "pistol"))
    psi, shot = attacks(out)
    assert psi.label == "Psi Strike" and mods(psi)["PSI-3"] == 5 and psi.roll.total == 15
    assert damage_to(out, "a") == [4 + 3]
    assert e.state.get("p").focus == 1
    assert map_of(shot) == -3


@pytest.mark.rule("PSI-14", "PSI-15", "PSI-16", "G-26")
def test_psi_15__focus_past_10_plus_mig_causes_backlash():
    e = started([fighter("p", "party", (1, 1), "psion", focus=11, health=Health(9, 9)),
                 fighter("a", "raiders", (3, 1), "raider"), fighter("b", "raiders", (9, 1), "raider-scout")])
    with script(e, [(20, 1), (6, 1), (6, 1), (6, 1), (20, 15), (6, 3), (6, 4)]):
        out = e.submit(PsiStrike("p", "a"))
    p = e.state.get("p")
    assert p.focus == 0 and p.health.hp == 9 - 3
    save = of_type(out, ev.CheckRolled)[0]
    assert (save.actor, save.against, save.success) == ("a", 13, True)
    assert damage_to(out, "a") == [7 // 2] and damage_to(out, "b") == []
    assert any(a.condition is Condition.STUNNED and a.rule == "PSI-15" for a in p.conditions)


@pytest.mark.rule("E-23")
def test_e_23__psi_strike_refused_in_edition_1():
    e = started([fighter("p", "party", (1, 1), "psion", ruleset=ED1), fighter("a", "raiders", (5, 1), "raider",
                                                                               ruleset=ED1)], ruleset=ED1)
    with script(e, []), pytest.raises(Refused) as err:
        e.submit(PsiStrike("p", "a"))
    assert err.value.rule == "E-23"


# ----- the spell data and the AI -----


@pytest.mark.rule("ACT-8", "HEAL-1", "HEAL-2", "HEAL-3")
def test_registry__healing_spells_and_examples_are_spells_of_1_to_3_actions():
    assert {"healing-touch", "bind-wounds", "mass-healing", "arc-bolt", "flame-burst", "binding-hex"} <= set(SPELLS)
    assert all(1 <= s.actions <= 3 for s in SPELLS.values())
    with pytest.raises(ValueError):
        Spell("bad", "Bad", 1, 4)


def test_legal_intents__a_caster_can_find_its_spells():
    e = started(duel())
    kinds = {(type(i).__name__, getattr(i, "spell", None)) for i in legal_intents(e, "m")}
    assert ("CastSpell", "arc-bolt") in kinds and ("CastSpell", "flame-burst") in kinds
