"""Light, obscurement and senses in fights: the concealment matrix through Strike, Hide, Search and guessed squares.

Scenario tests with scripted dice (CONC, VIS, HID, G-06, G-20, G-45, E-34, E-35).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app
from ashfall.content.schema import Senses
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition
from ashfall.encounters import build, encounter_from_text, load_encounter
from ashfall.engine import Combatant, Decline, EncounterState, Engine, Hide, Refused, Search, Strike, catalog, new_state
from ashfall.engine import events as ev
from ashfall.engine.environment import Light
from ashfall.engine.rulebook import Family
from ashfall.families.senses import engine as vision
from ashfall.families.senses.engine import can_see
from ashfall.families.senses.rules import Cause, Obscurement, Veil
from ashfall.files.yaml_marks import InputError
from ashfall.grid.board import Board, Square
from ashfall.ruleset import Ruleset
from tests.engine.maneuver_helpers import ED1, ED2, TIEBREAK, checks, fighter, next_turn, of_type, script, started

SMOKE = Veil(Obscurement.HEAVY, Cause.SMOKE)
FOG = Veil(Obscurement.LIGHT, Cause.FOG)
SHADOW = Veil(Obscurement.HEAVY, Cause.MAGICAL_DARKNESS)
ROOT = Path(__file__).resolve().parents[2]


def fight(combatants: Sequence[Combatant], *, dark: bool = False, veils: dict[Square, Veil] | None = None,
          ruleset: Ruleset = ED2) -> Engine:
    eng = started(combatants, Board(12, 6), ruleset=ruleset)
    env = eng.state.environment
    env.ambient = Light.DARK if dark else Light.BRIGHT
    env.veils.update(veils or {})
    return eng


def attack(eng: Engine, intent: Strike, faces: list[int]) -> ev.AttackRolled:
    with script(eng, faces):
        events = eng.submit(intent)
    return of_type(events, ev.AttackRolled)[0]


def rules_of(a: ev.AttackRolled) -> set[tuple[bool, str]]:
    return {(s.advantage, s.rule) for s in a.roll.sources}


def krel_and_soldier(*, dark: bool = False, veils: dict[Square, Veil] | None = None) -> Engine:
    return fight([fighter("k", "krel", (1, 1), "krel"), fighter("s", "soldiers", (2, 1), "soldier")], dark=dark,
                 veils=veils)


# ----- darkness and darkvision (VIS-1..5, CONC-6, CONC-10, CONC-13) -----


@pytest.mark.rule("VIS-5", "VIS-2", "VIS-3", "CONC-6", "CONC-10", "CONC-8")
def test_vis_5__krel_attacks_normally_while_the_soldier_attacks_at_disadvantage() -> None:
    eng = krel_and_soldier(dark=True)
    krel = attack(eng, Strike("k", "s", "salvaged-sword"), [2])  # one d20: no concealment source
    assert krel.roll.faces == (2,) and rules_of(krel) == set()
    next_turn(eng)
    soldier = attack(eng, Strike("s", "k", "combat-knife"), [2, 3])
    assert soldier.roll.advantage == "disadvantage" and rules_of(soldier) == {(False, "CONC-10")}


@pytest.mark.rule("CONC-13", "CONC-12", "X-10")
def test_conc_13__both_in_darkness_without_darkvision__a_normal_roll() -> None:
    eng = fight([fighter("s", "soldiers", (1, 1), "soldier"), fighter("r", "raiders", (2, 1), "raider")], dark=True)
    a = attack(eng, Strike("s", "r", "combat-knife"), [2])
    assert a.roll.advantage == "normal" and rules_of(a) == {(False, "CONC-10"), (True, "CONC-13")}


@pytest.mark.rule("CONC-12", "CONC-4", "X-10")
def test_conc_12__attacking_out_of_smoke_at_a_target_in_clear_view_is_normal() -> None:
    eng = krel_and_soldier(veils={(1, 1): SMOKE})
    assert attack(eng, Strike("k", "s", "salvaged-sword"), [2]).roll.advantage == "normal"


@pytest.mark.rule("VIS-4", "CONC-19", "CONC-16")
def test_vis_4__veil_of_shadow_blocks_darkvision() -> None:
    eng = krel_and_soldier(veils={(2, 1): SHADOW})
    a = attack(eng, Strike("k", "s", "salvaged-sword"), [2, 3])
    assert rules_of(a) == {(False, "CONC-19")}


# ----- optics (VIS-7..10, CONC-7) -----


def spotter(distance_squares: int, *, shedding: bool = False, **senses: bool) -> Engine:
    gun = fighter("g", "party", (1, 1), "gunslinger", senses=Senses(**senses))
    raider = fighter("r", "raiders", (1 + distance_squares, 1), "raider", senses=Senses(thermal_shedding=shedding))
    return fight([gun, raider], veils={(1 + distance_squares, 1): SMOKE})


@pytest.mark.rule("VIS-7", "VIS-9", "VIS-10", "CONC-7")
@pytest.mark.parametrize(("squares", "senses", "shedding", "faces", "expected"), [
    pytest.param(6, {"thermal_optics": True}, False, [2], set(), id="vis_7__thermal_within_30_ft"),
    pytest.param(7, {"thermal_optics": True}, False, [2, 3], {(False, "CONC-10")}, id="vis_7__thermal_at_35_ft"),
    pytest.param(6, {"thermal_optics": True}, True, [2, 3], {(False, "CONC-10")}, id="vis_9__thermal_shedding"),
    pytest.param(20, {"tactical_hud": True}, True, [2], set(), id="vis_10__hud_at_100_ft"),
])
def test_vis_7__optics_through_thick_smoke(squares: int, senses: dict[str, bool], shedding: bool, faces: list[int],
                                           expected: set[tuple[bool, str]]) -> None:
    eng = spotter(squares, shedding=shedding, **senses)
    assert rules_of(attack(eng, Strike("g", "r", "pistol"), faces)) == expected


# ----- Hide and Search (CONC-5, CONC-17, HID-1..3, VIS-8, G-45) -----


def hider(*, watcher: str = "raider-scout", veil: Veil = SMOKE, ruleset: Ruleset = ED2) -> Engine:
    return fight([fighter("o", "party", (1, 1), "operative"), fighter("s", "raiders", (5, 1), watcher)],
                 veils={(1, 1): veil}, ruleset=ruleset)


@pytest.mark.rule("CONC-17", "HID-1", "HID-2", "HID-3", "CONC-5")
def test_conc_17__hide_in_thick_smoke_without_cover__stealth_at_advantage() -> None:
    eng = hider()
    with script(eng, [4, 10]):  # advantage (CONC-5): keeps 10, Stealth 10+5 = 15 vs passive 13
        events = eng.submit(Hide("o"))
    check = checks(events)[0]
    assert check.roll is not None and check.roll.advantage == "advantage"
    assert {(s.advantage, s.rule) for s in check.roll.sources} == {(True, "CONC-5")}
    assert eng.state.get("o").has(Condition.HIDDEN)


FOLIAGE = Veil(Obscurement.LIGHT, Cause.FOLIAGE)


@pytest.mark.rule("HID-1", "CONC-2", "CONC-5")
@pytest.mark.parametrize("ruleset", [ED2, ED1], ids=["ashfall-2", "ashfall-1"])
@pytest.mark.parametrize("veil", [FOLIAGE, FOG], ids=["foliage", "light-fog"])
def test_hid_1__light_obscurement_without_cover_is_concealment_enough_to_hide(veil: Veil, ruleset: Ruleset) -> None:
    """000:1109 "Must have cover or concealment"; 000:617–621: concealment has two tiers, Lightly Obscured is one
    (foliage, light fog). 001:605 says the same ("cover or concealment"; 001:457 lists fog and foliage)."""
    eng = hider(veil=veil, ruleset=ruleset)
    with script(eng, [4, 10] if ruleset is ED2 else [10]):  # edition 2: Stealth advantage in LO (CONC-5)
        eng.submit(Hide("o"))
    assert eng.state.get("o").has(Condition.HIDDEN)


@pytest.mark.rule("HID-1", "CONC-17")
def test_hid_1__the_strict_reading_needs_heavy_obscurement_without_cover() -> None:
    """The option ``concealment.hide_in_light_obscurement = false`` reads CONC-17 (000:655) as the only way to Hide
    without cover: foliage alone is then refused with HID-1 (000:1109)."""
    strict = ED2.with_options(concealment={"hide_in_light_obscurement": False})
    eng = hider(veil=FOLIAGE, ruleset=strict)
    with pytest.raises(Refused) as err, script(eng, []):
        eng.submit(Hide("o"))
    assert err.value.rule == "HID-1"


@pytest.mark.rule("HID-1")
def test_hid_1__in_the_open_without_cover_or_concealment_hiding_is_refused() -> None:
    """000:1109: with neither cover nor concealment there is no Hide."""
    eng = fight([fighter("o", "party", (1, 1), "operative"), fighter("s", "raiders", (5, 1), "raider-scout")])
    with pytest.raises(Refused) as err, script(eng, []):
        eng.submit(Hide("o"))
    assert err.value.rule == "HID-1"


@pytest.mark.rule("CONC-17", "VIS-1", "VIS-8")
@pytest.mark.parametrize(("watcher", "dark", "hides"), [
    pytest.param("krel", True, False, id="a_darkvision_watcher_sees_into_the_dark"),
    pytest.param("raider-scout", True, True, id="normal_sight_does_not"),
])
def test_conc_17__hiding_in_darkness_depends_on_the_watchers_senses(watcher: str, dark: bool, hides: bool) -> None:
    eng = fight([fighter("o", "party", (1, 1), "operative"), fighter("s", "raiders", (5, 1), watcher)], dark=dark)
    if hides:
        with script(eng, [4, 10]):
            eng.submit(Hide("o"))
        assert eng.state.get("o").has(Condition.HIDDEN)
    else:
        with pytest.raises(Refused), script(eng, []):
            eng.submit(Hide("o"))


@pytest.mark.rule("VIS-8", "CONC-5", "CONC-17")
def test_vis_8__thermal_optics_do_not_cancel_stealth() -> None:
    eng = fight([fighter("o", "party", (1, 1), "operative"),
                 fighter("s", "raiders", (5, 1), "raider-scout", senses=Senses(thermal_optics=True))],
                veils={(1, 1): SMOKE})
    with script(eng, [4, 10]):
        eng.submit(Hide("o"))
    assert eng.state.get("o").has(Condition.HIDDEN)


@pytest.mark.rule("G-45", "HID-2", "HID-3", "ACT-12", "CONC-5")
def test_g_45__search_tying_the_recorded_stealth_keeps_the_smoke_hider_hidden() -> None:
    eng = hider()
    with script(eng, [4, 10]):  # Stealth 15 recorded
        eng.submit(Hide("o"))
    next_turn(eng)
    with script(eng, [12]):  # Perception 12+3 = 15: a tie keeps the hider hidden
        events = eng.submit(Search("s"))
    assert (checks(events)[0].against, checks(events)[0].success) == (15, False)
    assert eng.state.get("o").has(Condition.HIDDEN)


# ----- guessed squares (CONC-11, G-20) -----


def hidden_operative() -> Engine:
    eng = hider()
    with script(eng, [4, 10]):
        eng.submit(Hide("o"))
    next_turn(eng)
    return eng


@pytest.mark.rule("CONC-11", "G-20", "HID-3")
def test_conc_11__attacking_a_hidden_creature_needs_a_guessed_square() -> None:
    eng = hidden_operative()
    with pytest.raises(Refused) as err, script(eng, []):
        eng.submit(Strike("s", "o", "hunting-rifle"))
    assert err.value.rule == "CONC-11"


@pytest.mark.rule("CONC-11", "G-20", "MAP-1")
def test_conc_11__a_wrong_square_misses_automatically_and_counts_for_map() -> None:
    eng = hidden_operative()
    with script(eng, []):  # no die is rolled
        events = eng.submit(Strike("s", "o", "hunting-rifle", square=(2, 2)))
    missed = of_type(events, ev.GuessMissed)
    assert len(missed) == 1 and missed[0].square == (2, 2) and not of_type(events, ev.AttackRolled)
    assert eng.state.get("s").turn.attack_rolls == 1 and eng.state.get("o").has(Condition.HIDDEN)


@pytest.mark.rule("CONC-11", "G-20", "CONC-10")
def test_conc_11__the_right_square_is_an_attack_at_disadvantage() -> None:
    eng = hidden_operative()
    a = attack(eng, Strike("s", "o", "hunting-rifle", square=(1, 1)), [2, 3])
    assert rules_of(a) >= {(False, "G-20"), (False, "CONC-10")}


@pytest.mark.rule("CONC-11", "ATK-1")
def test_conc_11__a_guessed_square_out_of_reach_is_refused() -> None:
    eng = hidden_operative()
    with pytest.raises(Refused) as err, script(eng, []):
        eng.submit(Strike("s", "o", "combat-knife", square=(1, 2)))
    assert err.value.rule == "ATK-1"


# ----- seeing (X-15, CONC-9, CONC-15, CONC-19) -----


@pytest.mark.rule("X-15", "CONC-9", "CONC-15", "VIS-1")
def test_x_15__a_creature_in_darkness_cannot_be_seen_without_darkvision() -> None:
    eng = krel_and_soldier(dark=True)
    krel, soldier = eng.state.get("k"), eng.state.get("s")
    assert not can_see(eng.state, soldier, krel) and vision.sees(eng.state, soldier, krel).rule == "X-15"
    assert can_see(eng.state, krel, soldier)


# ----- the square's obscurement and the hooks (CONC-2, CONC-8) -----


@pytest.mark.rule("CONC-2", "CONC-8", "CONC-1")
def test_conc_2__obscurement_of_a_square_is_its_heaviest_layer() -> None:
    eng = krel_and_soldier()
    state = eng.state
    state.environment.light[(3, 3)] = Light.DIM
    state.environment.light[(4, 4)] = Light.DARK
    state.environment.veils[(3, 3)] = SMOKE
    assert vision.obscurement_at(state, (0, 0)) == (Obscurement.NONE, None)
    assert vision.obscurement_at(state, (3, 3)) == (Obscurement.HEAVY, Cause.SMOKE)
    assert vision.obscurement_at(state, (4, 4)) == (Obscurement.HEAVY, Cause.DARKNESS)


def murk(state: EncounterState, viewer: Combatant | None, sq: Square, distance: int | None) -> list[Veil]:
    return [Veil(Obscurement.HEAVY, Cause.WATER)] if distance is not None and distance > 5 else []


MURKY = catalog.build(extra=(Family("murk", lambda book: book.visibility(murk)),))


@pytest.mark.rule("CONC-10", "CONC-13")
def test_visibility_hooks__add_distance_dependent_layers() -> None:
    eng = fight([fighter("g", "party", (1, 1), "gunslinger"), fighter("r", "raiders", (5, 1), "raider")])
    eng.state.chosen_rulebook = MURKY
    # the water hides each from the other at 20 ft: both unseen, so the sources cancel (CONC-13)
    assert rules_of(attack(eng, Strike("g", "r", "pistol"), [2])) == {(False, "CONC-10"), (True, "CONC-13")}
    assert vision.obscurement_at(eng.state, (5, 1)) == (Obscurement.NONE, None)


# ----- edition 1 (E-34, E-35) -----


@pytest.mark.rule("E-34", "E-35")
def test_e_34__edition_1__fog_has_no_attack_effect_but_darkness_blinds_both_ways() -> None:
    eng = fight([fighter("k", "krel", (1, 1), "krel", ruleset=ED1), fighter("s", "soldiers", (2, 1), "soldier",
                                                                             ruleset=ED1)],
                veils={(2, 1): FOG}, ruleset=ED1)
    assert rules_of(attack(eng, Strike("k", "s", "salvaged-sword"), [2])) == set()
    eng.state.environment.ambient = Light.DARK  # E-35: no darkvision in edition 1
    a = attack(eng, Strike("k", "s", "salvaged-sword"), [2])
    assert rules_of(a) == {(False, "E-34"), (True, "E-34")}


@pytest.mark.rule("E-34")
def test_e_34__edition_1__searching_into_fog_has_disadvantage() -> None:
    eng = hider(veil=FOG, ruleset=ED1)
    eng.state.environment.veils[(3, 1)] = FOG
    with script(eng, [10]):  # edition 1: no Stealth advantage in LO, and the crate-less hider needs concealment
        eng.submit(Hide("o", obscured=True))
    next_turn(eng)
    with script(eng, [3, 18]):
        events = eng.submit(Search("s"))
    roll = checks(events)[0].roll
    assert roll is not None and {(s.advantage, s.rule) for s in roll.sources} == {(False, "E-34")}


# ----- encounter files and the explained log -----


@pytest.mark.rule("VIS-5", "CONC-8")
def test_darkness_encounter__total_darkness_krel_against_soldier() -> None:
    spec = load_encounter(ROOT / "encounters" / "darkness.yaml")
    engine, _info = build(spec)
    assert engine.state.environment.ambient is Light.DARK
    assert {c.creature.id for c in engine.state.combatants.values()} == {"krel", "soldier"}


@pytest.mark.rule("CONC-3", "CONC-10")
def test_smoke_encounter__a_smoke_bank_with_hazy_edges() -> None:
    engine, _info = build(load_encounter(ROOT / "encounters" / "smoke.yaml"))
    env = engine.state.environment
    assert env.veils[(6, 1)] == SMOKE and env.veils[(5, 1)].level is Obscurement.LIGHT
    assert vision.obscurement_at(engine.state, (1, 1)) == (Obscurement.NONE, None)


BASE = """
name: test
map:
  rows: |
    ......
    ..**..
    ......
sides: [{name: a}, {name: b}]
combatants:
  - {creature: warrior, side: a, position: [0, 0]}
  - {creature: raider, side: b, position: [5, 2]}
"""


def test_encounter_light_and_obscured__squares_area_and_legend() -> None:
    spec = encounter_from_text(BASE + """
light: {ambient: dim, squares: {bright: [[0, 0]]}, legend: {"*": dark}}
obscured:
  - {area: [[3, 0], [4, 2]], level: light, cause: fog}
  - {squares: [[3, 1]], level: heavy, cause: smoke}
""")
    engine, _info = build(spec)
    env = engine.state.environment
    assert env.ambient is Light.DIM and env.light[(0, 0)] is Light.BRIGHT and env.light[(2, 1)] is Light.DARK
    assert env.veils[(3, 1)] == SMOKE and env.veils[(4, 2)] == FOG and len(env.veils) == 6


@pytest.mark.parametrize(("extra", "message"), [
    ("obscured: [{squares: [[9, 9]], level: heavy, cause: smoke}]", "off the map"),
    ("obscured: [{legend: '@', level: heavy, cause: smoke}]", "draws no square"),
    ("obscured: [{legend: '.', squares: [[1, 1]], level: light, cause: fog}]", "exactly one"),
    ("obscured: [{legend: '*', level: murky, cause: fog}]", "obscured[0].level"),
    ("light: {squares: {dim: [[7, 0]]}}", "off the map"),
])
def test_encounter_light_and_obscured__problems_name_the_field(extra: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        encounter_from_text(BASE.replace("**", "..") + extra)
    assert [p for p in err.value.problems if message in f"{p.path} {p.message}"] == list(err.value.problems)


@pytest.mark.rule("VIS-5", "CONC-10")
def test_run_explain__shows_the_concealment_sources_with_rule_ids() -> None:
    result = CliRunner().invoke(app, ["run", str(ROOT / "encounters" / "darkness.yaml"), "--explain"])
    assert result.exit_code == 0, result.output
    assert "disadvantage: target heavily obscured (darkness) [CONC-10]" in result.output


@pytest.mark.rule("CONC-5", "SUR-1")
def test_conc_5__an_ambusher_in_the_fog_rolls_stealth_at_advantage() -> None:
    o, w = fighter("o", "foes", (6, 2), "operative"), fighter("w", "party", (1, 2))
    state = new_state([o, w], ED2, Board(12, 6))
    state.environment.veils[(6, 2)] = FOG
    # initiative: o 20, w 1; then o's Stealth at advantage (CONC-5): 3 and 10, keeps 10
    engine = Engine(state, ScriptedRng([(20, 20), (TIEBREAK, 1), (20, 1), (TIEBREAK, 1), (20, 3), (20, 10)]),
                    {"o": Decline(), "w": Decline()}, seed=None)
    engine.start(ambushers="foes")
    (stealth,) = [c for c in of_type(engine.log, ev.CheckRolled) if c.label == "Stealth (ambush)"]
    assert stealth.roll is not None and stealth.roll.faces == (3, 10)
    assert {(s.advantage, s.rule) for s in stealth.roll.sources} == {(True, "CONC-5")}


@pytest.mark.rule("CONC-11")
def test_explain__a_wrong_guess_is_one_line_with_its_rule() -> None:
    from ashfall.explain import event_lines

    line = event_lines(ev.GuessMissed("s", "o", (2, 2), "hunting-rifle", True), {"s": "Scout", "o": "Operative"})
    assert line == ["Scout attacks square [2, 2] with hunting-rifle, guessing where Operative is: wrong square, "
                    "automatic miss [CONC-11]"]
