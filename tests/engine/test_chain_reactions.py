"""Chain reactions: fuel containers, electrical systems, support columns (CHN-0..9, EX-1, EX-3, EX-4, G-52)."""

from __future__ import annotations

import pytest

from ashfall.core.dice import parse
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, DamageType
from ashfall.engine import Engine, FirstOption, StrikeObject
from ashfall.engine import events as ev
from ashfall.explain import log_lines
from ashfall.families.attacks.engine_area import area_damage
from ashfall.families.chains.engine import water_hits
from ashfall.families.objects.engine import damage_object
from ashfall.grid.areas import burst
from ashfall.grid.board import Board
from ashfall.rules.damage_spec import DamagePart
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import fighter, of_type, script, started, weapon
from tests.engine.object_kit import QUIET, context, obj, place

F = DamageType.FIRE


def depot(ruleset: Ruleset = QUIET, *, target: str = "vanguard", at: tuple[int, int] = (5, 2)) -> Engine:
    """A shooter at (0, 2) (out of every blast) and a target next to a fuel barrel at (4, 2), shooter to act."""
    engine = started([fighter("s", "a", (0, 2), "raider-scout"), fighter("t", "b", at, target)], Board(12, 8),
                     ruleset=ruleset)
    place(engine, obj("fuel-barrel", "b1", (4, 2)))
    return engine


def end_round(engine: Engine) -> None:
    """Both combatants end their turns: the round ends and its hooks run."""
    engine.end_turn("s")
    engine.end_turn("t")


def damage_to(engine: Engine, cid: str) -> list[int]:
    return [e.amount for e in of_type(engine.log, ev.DamageTaken) if e.target == cid]


def exploded(engine: Engine) -> list[str]:
    return [e.object for e in of_type(engine.log, ev.ChainReaction) if e.kind == "fuel"]


# ----- fuel containers -----


@pytest.mark.rule("CHN-1", "CHN-2", "EX-1", "CHN-0")
def test_chn_1__a_fuel_barrel_hit_by_fire_explodes_even_though_it_holds() -> None:
    engine = depot()
    assert engine.state.environment.objects["b1"].hp == 10  # EX-1
    with script(engine, [(20, 10), (6, 3), (6, 4), (6, 5)]):
        damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    assert exploded(engine) == ["b1"]
    save = [e for e in of_type(engine.log, ev.CheckRolled) if e.actor == "t"]
    assert [(s.against, s.success, s.rule) for s in save] == [(14, False, "CHN-2")]
    assert damage_to(engine, "t") == [12]  # 3d6 fire in full on a failed save
    assert engine.state.environment.objects["b1"].broken


@pytest.mark.rule("CHN-2")
def test_chn_2__a_reflex_save_halves_the_explosion_and_the_blast_reaches_10_ft() -> None:
    engine = depot(at=(6, 2))
    with script(engine, [(20, 15), (6, 3), (6, 4), (6, 6)]):
        damage_object(context(engine), "b1", {F: 2}, source="s", label="Firebolt")
    assert damage_to(engine, "t") == [13 // 2]
    far = depot(at=(7, 2))
    with script(far, []):
        damage_object(context(far), "b1", {F: 2}, source="s", label="Firebolt")
    assert exploded(far) == ["b1"] and damage_to(far, "t") == []


@pytest.mark.rule("CHN-1")
def test_chn_1__destroyed_by_any_damage_type_it_explodes_and_a_small_blow_does_not() -> None:
    engine = depot(at=(9, 2))
    damage_object(context(engine), "b1", {DamageType.BLUDGEONING: 4}, source="s", label="club")
    assert exploded(engine) == []
    damage_object(context(engine), "b1", {DamageType.BLUDGEONING: 6}, source="s", label="club")
    assert exploded(engine) == ["b1"]


@pytest.mark.rule("CHN-1", "OBJ-1")
def test_chn_1__shooting_a_fuel_barrel_with_a_rocket_sets_it_off() -> None:
    engine = depot(at=(9, 2))
    engine.state.get("s").weapons = (weapon("rocket-launcher"),)
    with script(engine, [(20, 12), (6, 1), (6, 1), (6, 1), (6, 1)]):
        engine.submit(StrikeObject("s", "b1", "rocket-launcher"))
    assert exploded(engine) == ["b1"]


@pytest.mark.rule("CHN-3")
def test_chn_3__the_explosion_sets_every_square_of_the_blast_on_fire() -> None:
    engine = depot(preset(), at=(10, 2))
    damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    reaction = of_type(engine.log, ev.ChainReaction)[0]
    lit = [e for e in of_type(engine.log, ev.FireChanged) if e.rule == "CHN-3"]
    assert len(lit) == 1 and set(lit[0].squares) == set(reaction.squares)
    assert len(reaction.squares) == 25  # a 10-ft radius around one square


@pytest.mark.rule("CHN-4", "EX-3", "G-52")
@pytest.mark.parametrize(("face", "chains"), [(68, False), (51, False), (50, True), (1, True)])
def test_ex_3__the_chain_roll_at_the_end_of_the_round_is_a_d100_of_50_or_less(face: int, chains: bool) -> None:
    engine = depot(at=(10, 2))
    place(engine, obj("fuel-barrel", "b2", (4, 3)), obj("fuel-barrel", "far", (4, 6)))
    damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    assert exploded(engine) == ["b1"]  # G-52: the blast sets off no other barrel by itself
    assert [e.object for e in of_type(engine.log, ev.ChainPending) if e.pending] == ["b2"]
    with script(engine, [(100, face)]):
        end_round(engine)
    assert exploded(engine) == (["b1", "b2"] if chains else ["b1"])
    assert not engine.state.environment.objects["far"].broken


@pytest.mark.rule("CHN-4", "EX-3")
def test_chn_4__a_barrel_the_chain_sets_off_makes_its_own_neighbours_roll_that_end_of_round() -> None:
    engine = depot(at=(10, 2))
    place(engine, obj("fuel-barrel", "b2", (4, 3)), obj("fuel-barrel", "b3", (4, 4)))
    damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    with script(engine, [(100, 20), (100, 90)]):
        end_round(engine)
    assert exploded(engine) == ["b1", "b2"]
    assert engine.state.environment.chain_pending == set()


@pytest.mark.rule("G-52", "EX-4", "CHN-2")
def test_ex_4__a_creature_in_two_overlapping_blasts_takes_both() -> None:
    engine = depot(QUIET.with_options(objects={"blast_sets_off_fuel": True}))
    place(engine, obj("fuel-barrel", "b2", (6, 2)))
    with script(engine, [(20, 1), (6, 1), (6, 1), (6, 1), (20, 1), (6, 2), (6, 2), (6, 2)]):
        damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    assert exploded(engine) == ["b1", "b2"]
    assert damage_to(engine, "t") == [3, 6]


@pytest.mark.rule("X-14", "X-21", "COV-2")
def test_x_14__cover_from_the_blast_still_adds_to_the_reflex_save() -> None:
    engine = depot(at=(6, 2))
    place(engine, obj("metal-crate", "crate", (5, 2)))
    with script(engine, [(20, 9), (6, 1), (6, 1), (6, 1)]):
        damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    save = next(e for e in of_type(engine.log, ev.CheckRolled) if e.actor == "t")
    assert {p.rule: p.value for p in save.roll.modifiers}.get("X-21") == 5
    assert save.success  # 9 + 2 AGI + 5 heavy cover = 16 >= 14


# ----- electrical systems -----


def panel_room(ruleset: Ruleset = QUIET) -> Engine:
    """A warrior in metal armor, a drone and a raider in unmetalled leathers around a power panel at (5, 5)."""
    engine = started([fighter("w", "a", (5, 3), "warrior"), fighter("d", "b", (7, 5), "security-drone"),
                      fighter("r", "b", (5, 7), "raider")], Board(12, 12), ruleset=ruleset)
    place(engine, obj("power-panel", "panel", (5, 5)))
    return engine


@pytest.mark.rule("CHN-5", "CHN-6", "CHN-7", "CHN-8")
def test_chn_7__a_discharge_puts_metal_armor_at_disadvantage_and_the_drone_loses_its_turn() -> None:
    engine = panel_room()
    # roster order: warrior (combat plate, metal), drone (drone plating, metal), raider (leathers); then 2d6
    faces = [(20, 15), (20, 3), (20, 18), (20, 4), (20, 2), (6, 4), (6, 5)]
    with script(engine, faces):
        damage_object(context(engine), "panel", {DamageType.BLUDGEONING: 12}, source="w", label="axe")
    assert [e.kind for e in of_type(engine.log, ev.ChainReaction)] == ["electrical"]
    saves = {e.actor: e for e in of_type(engine.log, ev.CheckRolled)}
    assert (saves["w"].roll.faces, saves["w"].roll.natural) == ((15, 3), 3)
    assert [s.rule for s in saves["w"].roll.sources] == ["CHN-7"]
    assert saves["d"].roll.natural == 4 and saves["r"].roll.faces == (2,)
    assert {e.target: e.amount for e in of_type(engine.log, ev.DamageTaken)} == {"w": 9, "d": 9, "r": 9}
    assert engine.state.get("d").has(Condition.INCAPACITATED)
    assert not engine.state.get("w").has(Condition.INCAPACITATED)
    engine.end_turn("w")
    assert [s.actor for s in of_type(engine.log, ev.TurnSkipped)] == ["d"]


@pytest.mark.rule("CHN-7")
def test_chn_7__with_the_switch_off_metal_armor_saves_normally() -> None:
    engine = panel_room(QUIET.with_options(objects={"metal_armor_disadvantage": False}))
    with script(engine, [(20, 15), (20, 18), (20, 2), (6, 4), (6, 5)]):
        damage_object(context(engine), "panel", {DamageType.BLUDGEONING: 12}, source="w", label="axe")
    assert all(len(e.roll.faces) == 1 for e in of_type(engine.log, ev.CheckRolled))


@pytest.mark.rule("CHN-5", "CHN-6")
def test_chn_5__water_reaching_an_electrical_system_discharges_it() -> None:
    engine = panel_room()
    with script(engine, [(20, 20), (20, 20), (20, 20), (20, 20), (20, 20), (6, 1), (6, 1)]):
        water_hits(context(engine), "panel")
    assert [e.kind for e in of_type(engine.log, ev.ChainReaction)] == ["electrical"]
    assert engine.state.environment.objects["panel"].broken


# ----- support columns -----


@pytest.mark.rule("CHN-9")
def test_chn_9__a_support_column_at_0_hp_starts_a_20_ft_collapse_after_a_1d4_countdown() -> None:
    engine = started([fighter("s", "a", (0, 0), "raider-scout"), fighter("t", "b", (11, 11), "vanguard")],
                     Board(30, 30), ruleset=preset())
    place(engine, obj("support-column", "col", (15, 15)))
    damage_object(context(engine), "col", {DamageType.BLUDGEONING: 20}, source="s", label="hammer")
    assert not of_type(engine.log, ev.ChainReaction)  # 20 - Hardness 5 = 15 < 40 HP
    with script(engine, [(4, 3)]):
        damage_object(context(engine), "col", {DamageType.FORCE: 40}, source="s", label="ram")
    assert [e.kind for e in of_type(engine.log, ev.ChainReaction)] == ["support"]
    started_collapse = of_type(engine.log, ev.CollapseChanged)
    assert len(started_collapse) == 1 and started_collapse[0].rule == "CHN-9"
    assert started_collapse[0].collapse is not None and started_collapse[0].collapse.radius_ft == 20
    assert [e.rounds for e in of_type(engine.log, ev.CountdownChanged)] == [3]


@pytest.mark.rule("RX-9", "RX-10", "X-14", "CHN-2")
def test_rx_9__a_creature_dives_behind_a_crate_from_the_explosion_and_gets_its_reflex_bonus() -> None:
    engine = started([fighter("s", "a", (0, 2), "raider-scout"), fighter("t", "b", (6, 2), "vanguard")],
                     Board(12, 8), ruleset=QUIET, controllers={"t": FirstOption()})
    place(engine, obj("fuel-barrel", "b1", (4, 2)), obj("metal-crate", "crate", (5, 3)))
    with script(engine, [(20, 8), (6, 3), (6, 4), (6, 5)]):
        damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    assert engine.state.get("t").position == (6, 3)
    save = next(e for e in of_type(engine.log, ev.CheckRolled) if e.actor == "t")
    assert save.success and save.roll.total == 8 + 2 + 5
    assert damage_to(engine, "t") == [12 // 2]


@pytest.mark.rule("CHN-1", "OBJ-6", "EX-4")
def test_chn_1__a_fire_area_effect_on_a_fuel_barrel_sets_it_off_like_the_scrap_bomb() -> None:
    engine = depot(at=(10, 2))
    bomb = (DamagePart(F, rule("EX-5"), "Scrap Bomb", parse("3d8")),)
    with script(engine, [(8, 1), (8, 1), (8, 1)]):
        area_damage(context(engine), "s", {}, bomb, half_on_save=True, label="Scrap Bomb", squares=burst((4, 2), 15))
    hit = [e for e in of_type(engine.log, ev.ObjectDamaged) if e.object == "b1"]
    assert [(e.rule, e.amount) for e in hit] == [("OBJ-6", 3)]
    assert exploded(engine) == ["b1"]


@pytest.mark.rule("CHN-2", "CHN-4", "STC-10")
def test_chn_2__the_log_explains_the_explosion_the_lost_cover_and_the_chain() -> None:
    engine = depot(at=(10, 2))
    place(engine, obj("fuel-barrel", "b2", (4, 3)))
    damage_object(context(engine), "b1", {F: 1}, source="s", label="Firebolt")
    text = "\n".join(log_lines(engine.log, {"s": "Scout", "t": "Vanguard"}))
    assert "Fuel Barrel takes 1 damage (Firebolt) -> 9 HP [OBJ-3]" in text
    assert "Fuel Barrel explodes (25 squares) [CHN-2]" in text
    assert "Fuel Barrel may go off at the end of the round [CHN-4]" in text
    assert "fire 1 -> 0 (HP) [OBJ-1]" in text
