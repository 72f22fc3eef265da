"""Every ruling is a ruleset option: each test flips one ruling's option and shows the behaviour change.

Rulings G-09, G-10, G-14, G-30, G-39, G-41, G-45, G-46, G-53, G-55, G-57, X-08, X-09, X-10, X-15, X-16,
X-17, X-20 (shared/rules/editions-and-gaps.md part (b)); the default is the ruling, the option its alternative.
"""

from __future__ import annotations

from typing import Any

import pytest

from ashfall.content.loader import default_library
from ashfall.content.schema import Attributes, Creature, DrEntry, Senses
from ashfall.core.modifiers import Modifier, ModifierKind, stack
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Attribute, Condition, DamageType, Save, Skill
from ashfall.engine import Grapple, LeanOut, Refused, Step, Stride, Strike
from ashfall.engine import events as ev
from ashfall.engine.environment import Light
from ashfall.families.attacks.rules import AttackContext, Outcome, resolve_attack
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.attacks.rules_called_shots import CALLED_SHOTS, CalledShot
from ashfall.families.attacks.rules_coup_de_grace import coup_de_grace
from ashfall.families.attacks.rules_multi_attack import Target, resolve_multi_target
from ashfall.families.dying.rules import death_save
from ashfall.families.dying.rules_medicine import emergency_field_medicine
from ashfall.families.dying.rules_recovery import Recovery
from ashfall.families.hazards.engine_collapse import collapse_round, start_collapse
from ashfall.families.senses import rules as conc
from ashfall.families.senses.engine_guessing import must_guess_square
from ashfall.families.senses.rules import Cause, Obscurement, Party, Veil
from ashfall.grid.board import Board, CoverLevel, CoverObject
from ashfall.rules import conditions as cond
from ashfall.rules.checks import ContestSide, contest
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_ledger import damage_ledger
from ashfall.rules.defense import DefenseBreakdown, defense_value
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset
from tests.engine import maneuver_helpers as mh
from tests.engine.hazard_kit import arena, ctx_of
from tests.engine.hazard_kit import of_type as hazard_events
from tests.engine.map_kit import attack_of, dv_rules, fighter, of_type, script, started
from tests.engine.reaction_kit import Takes
from tests.rules.attack_kit import GREATAXE, SWORD, WARRIOR, creature

ED2 = preset("ashfall-2")
LIB = default_library()


def alt(**sections: dict[str, Any]) -> Ruleset:
    """The default ruleset with a ruling switched to its alternative."""
    return ED2.with_options(**sections)


def dv(total: int) -> DefenseBreakdown:
    return DefenseBreakdown(total, stack([Modifier(total, ModifierKind.DV_BASE, rule("DV-1"), "DV")]))


# ----- attack: G-09, G-10, G-41, G-53 -----


@pytest.mark.rule("G-09", "SWP-2")
@pytest.mark.parametrize(("rs", "faces", "rolls"), [
    pytest.param(ED2, [13], 1, id="ruling-one-roll"),
    pytest.param(alt(attack={"sweeping_single_roll": False}), [13, 2, 13], 3, id="alternative-roll-per-target"),
])
def test_g_09__sweeping_strike_one_roll_or_one_per_target(rs: Ruleset, faces: list[int], rolls: int) -> None:
    with ScriptedRng(faces) as rng:
        result = resolve_multi_target(WARRIOR, GREATAXE, AttackMode.MELEE, [Target(dv(13))] * 3,
                                      AttackContext(activity=Activity.SWEEPING), rng, rs)
    assert len(result.rolls) == rolls
    hits = [t.outcome for t in result.targets]
    assert hits == ([Outcome.HIT] * 3 if rolls == 1 else [Outcome.HIT, Outcome.MISS, Outcome.HIT])


@pytest.mark.rule("G-10", "CRIT-3")
@pytest.mark.parametrize(("rs", "fumble"), [
    pytest.param(ED2, None, id="ruling-no-fumble-table"),
    pytest.param(alt(attack={"fumble_table": {1: "drops the weapon"}}), "drops the weapon", id="gm-table"),
])
def test_g_10__the_optional_fumble_table_applies_only_when_the_gm_supplies_one(rs: Ruleset, fumble: str | None) -> None:
    with ScriptedRng([1]) as rng:
        result = resolve_attack(WARRIOR, SWORD, AttackMode.MELEE, dv(10), AttackContext(), rng, rs)
    assert result.outcome is Outcome.MISS and result.fumble == fumble
    assert ("G-10" in result.reasons) is (fumble is not None)


@pytest.mark.rule("G-10")
def test_g_10__a_fumble_is_logged_for_the_gm_in_the_engine() -> None:
    rs = alt(attack={"fumble_table": {1: "drops the weapon", 2: "slips"}})
    w = fighter("w", "party", (2, 2), "gunslinger", weapons=("pistol",), ruleset=rs)
    o = fighter("o", "foes", (6, 2), "operative", ruleset=rs)
    engine = started([w, o], Board(12, 7), ruleset=rs)
    with script(engine, [(20, 1)]):
        events = engine.submit(Strike("w", "o", "pistol"))
    (note,) = of_type(events, ev.ActionNoted)
    assert (note.actor, note.label, note.detail, note.rule) == ("w", "Fumble", "drops the weapon", "G-10")


@pytest.mark.rule("G-41", "CDG-2")
@pytest.mark.parametrize(("rs", "counts"), [
    pytest.param(ED2, True, id="ruling-counts-as-one-attack"),
    pytest.param(alt(attack={"coup_de_grace_counts_for_map": False}), False, id="alternative-no-map"),
])
def test_g_41__coup_de_grace_counts_for_map_only_under_the_ruling(rs: Ruleset, counts: bool) -> None:
    blow = coup_de_grace(LIB.creature("operative"), LIB.weapon("combat-knife"), AttackMode.MELEE, rs)
    assert blow.counts_for_map is counts


@pytest.mark.rule("G-53", "CS-3")
@pytest.mark.parametrize(("rs", "save"), [
    pytest.param(ED2, Save.MIG, id="ruling-mig-save"),
    pytest.param(alt(attack={"called_arm_save": "fortitude"}), Save.FORTITUDE, id="alternative-generic-fortitude"),
])
def test_g_53__the_save_that_negates_an_arm_shots_drop(rs: Ruleset, save: Save) -> None:
    (rider,) = CALLED_SHOTS[CalledShot.ARM].riders(rs.attack)
    assert rider.save is save and rider.dc_is_damage_dealt


# ----- defense and checks: G-46, G-45, X-09 -----


@pytest.mark.rule("G-46", "FF-2")
@pytest.mark.parametrize(("rs", "total", "note"), [
    pytest.param(ED2, 10, False, id="ruling-both-apply"),
    pytest.param(alt(defense={"flat_footed_with_unseen": False}), 13, True, id="alternative-advantage-only"),
])
def test_g_46__flat_footed_against_an_unseen_attacker(rs: Ruleset, total: int, note: bool) -> None:
    target = creature(AGI=3)
    seen = defense_value(target, None, None, rs, flat_footed=True)
    unseen = defense_value(target, None, None, rs, flat_footed=True, unseen_attacker=True)
    assert seen.total == 10 and unseen.total == total and ("G-46" in unseen.notes) is note


@pytest.mark.rule("G-45", "CON-2")
@pytest.mark.parametrize(("rs", "faces", "wins"), [
    pytest.param(ED2, [7, 7], False, id="ruling-tie-keeps-the-status-quo"),
    pytest.param(alt(checks={"contest_tie": "reroll"}), [7, 7, 9, 3], True, id="alternative-reroll"),
])
def test_g_45__a_tied_contest(rs: Ruleset, faces: list[int], wins: bool) -> None:
    side = ContestSide(creature(MIG=2), (Attribute.MIG,))
    with ScriptedRng(faces) as rng:
        result = contest(side, side, rng, rs)
    assert result.initiator_wins is wins


@pytest.mark.rule("X-09", "GRP-2")
@pytest.mark.parametrize(("rs", "asked"), [
    pytest.param(ED2, True, id="ruling-defender-chooses"),
    pytest.param(alt(checks={"grapple_shove_defender_chooses": False}), False, id="alternative-athletics-only"),
])
def test_x_09__grapple_defender_choice_of_athletics_or_acrobatics(rs: Ruleset, asked: bool) -> None:
    eng = mh.started([mh.fighter("m", "party", (1, 1), "mutant", ruleset=rs),
                      mh.fighter("r", "raiders", (2, 1), "raider", ruleset=rs)], ruleset=rs)
    with mh.script(eng, [10, 10]):
        events = eng.submit(Grapple("m", "r"), answers=["acrobatics"] if asked else [])
    assert bool(mh.of_type(events, ev.DecisionMade)) is asked
    expected = "acrobatics" if asked else "athletics"
    assert mh.checks(events)[1].label == f"Grapple (defending): {expected}"


# ----- damage, dying, healing: G-39, X-08, G-57 -----


@pytest.mark.rule("G-39", "RX-7", "DR-1", "RVI-1")
@pytest.mark.parametrize(("rs", "final"), [
    pytest.param(ED2, 2, id="ruling-deflect-before-dr"),  # 10 - 4 = 6, DR 2: 4, resisted: 2
    pytest.param(alt(damage={"deflect_step": "after-resistance"}), 0, id="alternative-after-resistance"),  # 8, 4, 0
])
def test_g_39__where_deflect_falls_in_the_damage_order(rs: Ruleset, final: int) -> None:
    defenses = Defenses(dr=(DrEntry(amount=2, source="plate"),), resistances=frozenset({DamageType.SLASHING}))
    ledger = damage_ledger({DamageType.SLASHING: 10}, defenses, rs, deflect=4)
    assert ledger.total == final
    steps = [r.step.value for r in ledger.rows if r.step.value in ("deflect", "dr", "resistance")]
    assert steps == (["deflect", "dr", "resistance"] if final else ["dr", "resistance", "deflect"])


@pytest.mark.rule("X-08", "DEATH-3", "DEATH-14")
@pytest.mark.parametrize(("rs", "hp"), [
    pytest.param(ED2, 0, id="ruling-stabilised-at-0-hp"),
    pytest.param(alt(dying={"stabilised_hp": 1}), 1, id="alternative-1-hp-as-in-the-example"),
])
def test_x_08__hp_of_a_stabilised_creature(rs: Ruleset, hp: int) -> None:
    with ScriptedRng([15]) as rng:
        result = death_save(Health(0, 20, vitality=Vitality.DYING, successes=2), rng, rs)
    assert result.health.vitality is Vitality.STABILIZED and result.health.hp == hp


MEDIC = Creature(id="medic", name="Medic", hp=10, attributes=Attributes(WIS=3),
                 skill_proficiencies=frozenset({Skill.MEDICINE}), proficiency=2)


@pytest.mark.rule("G-57", "MAA-6", "DEATH-13")
def test_g_57__emergency_field_medicine_stabilises_unless_switched_off() -> None:
    dying = Health(0, 20, vitality=Vitality.DYING)
    with ScriptedRng([(20, 15), (6, 6), (6, 2)]) as rng:
        healed = emergency_field_medicine(dying, Recovery(1), MEDIC, rng, ED2, in_combat=True)
    assert healed.health.vitality is Vitality.ALIVE and "G-57" in healed.rules
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        emergency_field_medicine(dying, Recovery(1), MEDIC, rng, alt(healing={"efm_stabilises": False}),
                                 in_combat=True)
    assert err.value.rule == "G-57"


# ----- conditions: G-14, X-16 -----


@pytest.mark.rule("G-14")
@pytest.mark.parametrize(("rs", "expected"), [
    pytest.param(ED2, set(), id="ruling-will-saves-only"),
    pytest.param(alt(conditions={"shaken_attack_disadvantage": True}), {(False, "G-14")}, id="alternative-attacks"),
])
def test_g_14__shaken_and_attack_rolls(rs: Ruleset, expected: set[tuple[bool, str]]) -> None:
    found = cond.attack_sources({Condition.SHAKEN}, (), melee=True, within_5ft=True, ruleset=rs)
    assert {(s.advantage, str(s.rule)) for s in found} == expected
    assert [str(s.rule) for s in cond.save_sources({Condition.SHAKEN}, Save.WILL)] == ["G-14"]


@pytest.mark.rule("X-16", "C-UNC", "C-PRO")
@pytest.mark.parametrize(("rs", "expected"), [
    pytest.param(ED2, {(True, "X-16"), (False, "C-PRO")}, id="ruling-attacks-against-it-have-advantage"),
    pytest.param(alt(conditions={"unconscious_attackers_advantage": False}), {(False, "C-PRO")},
                 id="alternative-prone-only"),
])
def test_x_16__ranged_attack_against_an_unconscious_creature(rs: Ruleset, expected: set[tuple[bool, str]]) -> None:
    found = cond.attack_sources((), {Condition.UNCONSCIOUS}, melee=False, within_5ft=False, ruleset=rs)
    assert {(s.advantage, str(s.rule)) for s in found} == expected


# ----- turn: G-55, X-20 -----


@pytest.mark.rule("G-55", "COV-4", "COV-1")
@pytest.mark.parametrize(("rs", "dv_after_turn"), [
    pytest.param(ED2, 15, id="ruling-no-cover-until-next-turn"),
    pytest.param(alt(turn={"lean_out_until_next_turn": False}), 17, id="alternative-cover-back-at-end-of-turn"),
])
def test_g_55__how_long_leaning_out_loses_cover(rs: Ruleset, dv_after_turn: int) -> None:
    board = Board(12, 7, cover={(6, 2): CoverObject(CoverLevel.PARTIAL, name="barrel")})
    o = fighter("o", "foes", (7, 2), "operative", ruleset=rs)
    w = fighter("w", "party", (2, 2), "gunslinger", weapons=("pistol",), ruleset=rs)
    engine = started([o, w], board, ruleset=rs)
    with script(engine, []):
        engine.submit(LeanOut("o"))
    with script(engine, [(20, 2)]):
        engine.end_turn("o")
        attack = attack_of(engine.submit(Strike("w", "o", "pistol")))
    assert attack.dv == dv_after_turn and ("COV-1" in dv_rules(attack)) is (dv_after_turn == 17)


@pytest.mark.rule("X-20", "RX-14")
@pytest.mark.parametrize(("rs", "may_step"), [
    pytest.param(ED2, False, id="ruling-no-more-movement-this-turn"),
    pytest.param(alt(turn={"brace_stops_turn_movement": False}), True, id="alternative-only-this-move-ends"),
])
def test_x_20__a_charger_stopped_by_brace(rs: Ruleset, may_step: bool) -> None:
    w = fighter("w", "foes", (2, 2), "warrior", ruleset=rs)
    v = fighter("v", "party", (10, 2), "vanguard", ruleset=rs)
    engine = started([w, v], Board(14, 7), ruleset=rs, controllers={"v": Takes("brace")})
    with script(engine, [(20, 15), (10, 9), (6, 4), (20, 2)]):  # Brace hits; the Fortitude save fails
        events = engine.submit(Stride("w", tuple((x, 2) for x in range(3, 9))))
    assert [e.rule for e in of_type(events, ev.MovementStopped)] == ["RX-14"]
    if may_step:
        with script(engine, []):
            engine.submit(Step("w", (7, 2)))
        assert engine.state.get("w").position == (7, 2)
    else:
        with pytest.raises(Refused) as refused:
            engine.submit(Step("w", (7, 2)))
        assert refused.value.rule == "X-20"


# ----- hazards: G-30 -----


@pytest.mark.rule("G-30", "HAZC-2")
@pytest.mark.parametrize(("rs", "ticks"), [
    pytest.param(ED2, 1, id="ruling-the-trigger-round-ticks"),
    pytest.param(alt(hazards={"collapse_trigger_round_ticks": False}), 2, id="alternative-full-rounds-only"),
])
def test_g_30__when_a_collapse_countdown_of_1_comes_down(rs: Ruleset, ticks: int) -> None:
    state = arena(board=Board(25, 25), rules=rs)
    ctx, log, _rng = ctx_of(state)
    key = start_collapse(ctx, (10, 10), None, "HAZC-1", countdown=1)
    for _ in range(ticks - 1):
        collapse_round(ctx)
        assert key in state.environment.collapses
    collapse_round(ctx)
    assert key not in state.environment.collapses and hazard_events(log, ev.RubbleAdded)


# ----- concealment, X-17 -----

DARK = Veil(Obscurement.HEAVY, Cause.DARKNESS)
FOG = Veil(Obscurement.HEAVY, Cause.FOG)


def at(*layers: Veil, senses: Senses | None = None) -> Party:
    return Party(senses or Senses(), (tuple(layers),))


@pytest.mark.rule("X-10", "CONC-12")
@pytest.mark.parametrize(("rs", "expected"), [
    pytest.param(ED2, set(), id="ruling-no-advantage-from-standing-in-ho"),
    pytest.param(alt(concealment={"heavy_obscured_attacker_unseen": True}), {(True, "X-10")},
                 id="alternative-unseen-attacker"),
])
def test_x_10__attacking_out_of_darkness_at_a_target_in_clear_view(rs: Ruleset, expected: set[Any]) -> None:
    found = conc.attack_sources(at(DARK), at(), 10, rs)
    assert {(s.advantage, str(s.rule)) for s in found} == expected


@pytest.mark.rule("X-15", "CONC-11")
def test_x_15__heavy_obscurement_alone_hides_a_location_only_under_the_alternative() -> None:
    rs = alt(concealment={"heavy_obscured_hidden": True})
    assert conc.must_guess(at(DARK), ED2, at(), 10) is None
    assert conc.must_guess(at(DARK), rs, at(), 10) == "CONC-11"
    assert conc.must_guess(at(DARK), rs, at(senses=Senses(darkvision=60)), 10) is None  # it sees the target
    state = arena([fighter("a", "party", (1, 1), ruleset=rs), fighter("b", "foes", (5, 1), ruleset=rs)], rules=rs)
    state.environment.light[(5, 1)] = Light.DARK
    a, b = state.get("a"), state.get("b")
    assert must_guess_square(state, b, a) == "CONC-11" and must_guess_square(state, b) is None


@pytest.mark.rule("X-17", "VIS-1")
@pytest.mark.parametrize(("rs", "level"), [
    pytest.param(ED2, Obscurement.HEAVY, id="ruling-darkvision-clears-darkness-only"),
    pytest.param(alt(concealment={"darkvision_darkness_only": False}), Obscurement.NONE, id="alternative-fog-too"),
])
def test_x_17__darkvision_and_heavy_fog(rs: Ruleset, level: Obscurement) -> None:
    seen = conc.view(at(senses=Senses(darkvision=60)), at(FOG), 30, rs)
    assert seen.level is level
    assert conc.view(at(senses=Senses(darkvision=60)), at(DARK), 30, rs).level is Obscurement.NONE


@pytest.mark.rule("G-11", "G-46")
def test_g_11__unaware_target_keeps_its_agi_when_the_option_is_off() -> None:
    from ashfall.core.types import Condition
    from ashfall.families.attacks.engine import situation, target_defense
    from ashfall.families.attacks.rules_activities import AttackMode
    from ashfall.ruleset import preset
    from tests.engine.maneuver_helpers import fighter, started

    def dv(on: bool) -> int:
        rs = preset().with_options(conditions={"unaware_targets_flat_footed": on})
        eng = started([fighter("o", "party", (1, 1), "operative", conditions=[Condition.HIDDEN], ruleset=rs),
                       fighter("r", "raiders", (2, 1), "raider", ruleset=rs)], ruleset=rs)
        o, r = eng.state.get("o"), eng.state.get("r")
        sit = situation(eng.state, o, r, False)
        return target_defense(eng.state, o, r, o.weapons[0], AttackMode.MELEE, sit).total

    assert dv(True) == dv(False) - 1  # the raider's AGI +1 is lost only while the option is on
