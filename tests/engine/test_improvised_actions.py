"""Improvised environmental actions and environmental weapons (IEA-1..6, ENVW-1..3, X-05, G-25)."""

from __future__ import annotations

from typing import Any

import pytest

from ashfall.engine import Engine, FlipTable, ImprovisedAttack, KickOver, PushOff, Refused, Strike, StrikeObject
from ashfall.engine import events as ev
from ashfall.families.attacks.engine import cover_level
from ashfall.families.movement.moves import step_cost
from ashfall.grid.board import Board, CoverLevel
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import attack_of, dv_rules, fighter, of_type, script, started
from tests.engine.object_kit import QUIET, obj, place

LEDGE = Board(12, 8, elevation={(x, y): 20 for x in range(0, 4) for y in range(8)})
"""A 20-ft ledge: columns 0-3 are 20 ft up, the rest of the map is the floor below."""
FLAT = Board(12, 8)


def pair(ruleset: Ruleset = QUIET, board: Board = FLAT, *, actor: str = "warrior", at: tuple[int, int] = (2, 2),
         other: str = "raider", other_at: tuple[int, int] = (5, 2)) -> Engine:
    return started([fighter("a", "a", at, actor), fighter("b", "b", other_at, other)], board, ruleset=ruleset)


def refused(engine: Engine, intent: Any) -> str:
    with pytest.raises(Refused) as err:
        engine.submit(intent)
    return str(err.value.rule)


# ----- IEA-1: kick over a brazier -----


@pytest.mark.rule("IEA-1", "AE-3")
def test_iea_1__kicking_over_a_brazier_is_a_free_action_that_sets_one_square_on_fire() -> None:
    engine = pair(preset())
    place(engine, obj("brazier", "braz", (3, 2)))
    actions = engine.state.get("a").turn.actions_left
    engine.submit(KickOver("a", "braz", (4, 2)))
    assert engine.state.get("a").turn.actions_left == actions
    lit = [e for e in of_type(engine.log, ev.FireChanged) if e.rule == "IEA-1"]
    assert [e.squares for e in lit] == [((4, 2),)]
    assert engine.state.environment.objects["braz"].broken


@pytest.mark.rule("IEA-1")
@pytest.mark.parametrize(("template", "at", "square"), [
    ("brazier", (6, 6), None), ("table", (3, 2), None), ("brazier", (3, 2), (7, 7))],
    ids=["not-adjacent", "does-not-burn", "spills-too-far"])
def test_iea_1__kicking_over_is_refused_from_afar_or_for_an_object_that_does_not_burn(
        template: str, at: tuple[int, int], square: tuple[int, int] | None) -> None:
    engine = pair()
    place(engine, obj(template, "o", at))
    assert refused(engine, KickOver("a", "o", square)) == "IEA-1"


# ----- IEA-2 / X-05: push a heavy object off a ledge -----


@pytest.mark.rule("IEA-2", "X-05")
def test_iea_2__a_pushed_crate_falls_20_ft_for_2d6_and_a_reflex_save_halves_it() -> None:
    engine = pair(board=LEDGE, at=(2, 2), other_at=(4, 2))
    place(engine, obj("metal-crate", "crate", (3, 2)))
    # MIG check (DC 15): 12 + 4 MIG = 16; the raider's Reflex save (DC 12): 15 + 1; 2d6 = 4 + 5
    with script(engine, [(20, 12), (20, 15), (6, 4), (6, 5)]):
        engine.submit(PushOff("a", "crate", (4, 2)))
    check = of_type(engine.log, ev.CheckRolled)
    assert [(c.actor, c.against, c.success, c.rule) for c in check] == [("a", 15, True, "IEA-2"),
                                                                      ("b", 12, True, "IEA-2")]
    hurt = of_type(engine.log, ev.DamageTaken)
    assert [(h.target, h.amount) for h in hurt] == [("b", 9 // 2)]
    assert engine.state.environment.objects["crate"].squares == ((4, 2),)


@pytest.mark.rule("IEA-2")
def test_iea_2__a_failed_mig_check_leaves_the_object_where_it_is() -> None:
    engine = pair(board=LEDGE, at=(2, 2), other_at=(4, 2))
    place(engine, obj("metal-crate", "crate", (3, 2)))
    with script(engine, [(20, 2)]):
        engine.submit(PushOff("a", "crate", (4, 2)))
    assert engine.state.environment.objects["crate"].squares == ((3, 2),)
    assert not of_type(engine.log, ev.DamageTaken)


@pytest.mark.rule("IEA-2")
@pytest.mark.parametrize(("template", "to"), [("metal-crate", (3, 3)), ("table", (4, 2))],
                         ids=["no-drop", "not-pushable"])
def test_iea_2__pushing_needs_a_ledge_and_a_heavy_object(template: str, to: tuple[int, int]) -> None:
    engine = pair(board=LEDGE, at=(2, 2), other_at=(6, 2))
    place(engine, obj(template, "o", (3, 2)))
    assert refused(engine, PushOff("a", "o", to)) == "IEA-2"


# ----- IEA-3: cut a rope or chain -----


@pytest.mark.rule("IEA-3", "IEA-5")
def test_iea_3__cutting_the_rope_that_holds_a_chandelier_drops_it_on_the_creature_below() -> None:
    engine = pair(at=(2, 2), other_at=(6, 2))
    place(engine, obj("chandelier", "lamp", (6, 2)), obj("rope", "rope", (3, 2), holds="lamp"))
    # greataxe: d20 10 + 4 MIG + 2 = 16 vs DV 10; 1d12 6 + 4 = 10 slashing vs rope 5 HP; raider saves 3 + 1 vs 12
    with script(engine, [(20, 10), (12, 6), (20, 3), (6, 2), (6, 3)]):
        engine.submit(StrikeObject("a", "rope", "greataxe"))
    assert attack_of(engine.log).dv == 10
    objects = engine.state.environment.objects
    assert objects["rope"].broken and objects["lamp"].broken and "hanging" not in objects["lamp"].tags
    assert [(h.target, h.amount) for h in of_type(engine.log, ev.DamageTaken)] == [("b", 5)]


@pytest.mark.rule("IEA-3", "OBJ-4")
def test_iea_3__a_chain_has_hardness_3() -> None:
    engine = pair(at=(2, 2), other_at=(6, 2))
    place(engine, obj("chain", "chain", (3, 2)))
    assert engine.state.environment.objects["chain"].hardness == 3
    with script(engine, [(20, 10), (12, 1)]):
        engine.submit(StrikeObject("a", "chain", "greataxe"))
    assert engine.state.environment.objects["chain"].hp == 10 - (5 - 3)


# ----- IEA-4: flip a table -----


@pytest.mark.rule("IEA-4", "COV-1", "STC-3")
def test_iea_4__a_flipped_table_gives_partial_cover_in_one_direction_only() -> None:
    engine = started([fighter("a", "a", (2, 2), "raider"), fighter("east", "b", (8, 2), "raider-scout"),
                      fighter("west", "b", (0, 2), "raider-scout")], Board(12, 6), ruleset=QUIET)
    place(engine, obj("table", "table", (3, 2)))
    state = engine.state
    assert cover_level(state, state.get("east"), state.get("a")) is CoverLevel.NONE
    actions = state.get("a").turn.actions_left
    engine.submit(FlipTable("a", "table", (4, 2)))
    assert state.get("a").turn.actions_left == actions - 1
    table = state.environment.objects["table"]
    assert (table.hp, table.hardness, table.cover, table.facing) == (10, 0, "partial", (1, 0))
    assert cover_level(state, state.get("east"), state.get("a")) is CoverLevel.PARTIAL
    engine.end_turn("a")
    with script(engine, [(20, 10)]):
        engine.submit(Strike("east", "a", "hunting-rifle"))
    assert dv_rules(attack_of(engine.log)).get("COV-1") == 2


@pytest.mark.rule("IEA-4")
def test_iea_4__only_a_flippable_object_next_to_you_can_be_flipped() -> None:
    engine = pair()
    place(engine, obj("metal-crate", "crate", (3, 2)), obj("table", "far", (9, 6)))
    assert refused(engine, FlipTable("a", "crate", (4, 2))) == "IEA-4"
    assert refused(engine, FlipTable("a", "far", (10, 6))) == "IEA-4"


# ----- IEA-5: shoot down a chandelier -----


@pytest.mark.rule("IEA-5", "G-25")
def test_iea_5__a_hit_against_dv_12_brings_the_chandelier_down_on_the_creatures_below() -> None:
    engine = started([fighter("s", "a", (0, 2), "raider-scout"), fighter("t", "b", (6, 2), "raider"),
                      fighter("u", "b", (9, 5), "raider")], Board(12, 8), ruleset=QUIET)
    place(engine, obj("chandelier", "lamp", (6, 2)))
    # hunting rifle: 8 + 2 AGI + 2 = 12 vs DV 12 (hit); 1d10 1; the raider's Reflex save 5 + 1 fails; 2d6 = 3 + 4
    with script(engine, [(20, 8), (10, 1), (20, 5), (6, 3), (6, 4)]):
        engine.submit(StrikeObject("s", "lamp", "hunting-rifle"))
    attack = attack_of(engine.log)
    assert (attack.dv, dv_rules(attack)) == (12, {"OBJ-1": 12})
    assert [(h.target, h.amount) for h in of_type(engine.log, ev.DamageTaken)] == [("t", 7)]
    assert of_type(engine.log, ev.DebrisFell)[0].squares == ((6, 2),)
    assert step_cost(engine.state, (5, 2), (6, 2), 0) == 10  # difficult terrain now


@pytest.mark.rule("IEA-5")
def test_iea_5__a_miss_against_dv_12_leaves_it_hanging() -> None:
    engine = pair(at=(0, 2), other_at=(6, 2), actor="raider-scout")
    place(engine, obj("chandelier", "lamp", (6, 2)))
    with script(engine, [(20, 7)]):
        engine.submit(StrikeObject("a", "lamp", "hunting-rifle"))
    assert "hanging" in engine.state.environment.objects["lamp"].tags


# ----- ENVW: environmental weapons -----


@pytest.mark.rule("ENVW-1")
def test_envw_1__throwing_a_barrel_is_a_1d6_attack_and_the_barrel_lands_on_the_target() -> None:
    engine = pair(at=(2, 2), other_at=(4, 2))
    place(engine, obj("fuel-barrel", "barrel", (2, 3)))
    with script(engine, [(20, 18), (6, 5)]):
        engine.submit(ImprovisedAttack("a", "b", "barrel", "throw"))
    attack = attack_of(engine.log)
    assert attack.weapon == "thrown-barrel" and attack.outcome == "hit"
    rolled = of_type(engine.log, ev.DamageRolled)[0]
    assert [p.dice for p in rolled.parts if p.dice] == ["1d6"]
    assert engine.state.environment.objects["barrel"].squares == ((4, 2),)


@pytest.mark.rule("ENVW-2", "IMP-2")
def test_envw_2__swinging_a_chandelier_into_an_enemy_is_a_1d8_attack() -> None:
    engine = pair(at=(2, 2), other_at=(3, 2))
    place(engine, obj("chandelier", "lamp", (2, 1)))
    with script(engine, [(20, 18), (20, 17), (8, 5)]):
        engine.submit(ImprovisedAttack("a", "b", "lamp", "swing"))
    rolled = of_type(engine.log, ev.DamageRolled)[0]
    attack = attack_of(engine.log)
    assert attack.weapon == "swung-chandelier" and attack.roll.faces == (18, 17)  # IMP-2: not proficient
    assert [p.dice for p in rolled.parts if p.dice] == ["1d8"]


@pytest.mark.rule("ENVW-3", "X-05")
def test_envw_3__dropping_a_heavy_object_20_ft_is_an_attack_for_1d10_per_10_ft() -> None:
    engine = pair(board=LEDGE, at=(2, 2), other_at=(4, 2))
    place(engine, obj("metal-crate", "crate", (3, 2)))
    with script(engine, [(20, 18), (10, 6), (10, 7)]):
        engine.submit(ImprovisedAttack("a", "b", "crate", "drop"))
    rolled = of_type(engine.log, ev.DamageRolled)[0]
    assert [p.dice for p in rolled.parts if p.dice] == ["1d10", "1d10"] and rolled.total == 13
    assert engine.state.environment.objects["crate"].squares == ((4, 2),)


@pytest.mark.rule("ENVW-3", "E-36")
def test_envw_3__dropping_is_refused_without_a_drop() -> None:
    engine = pair(at=(2, 2), other_at=(4, 2))
    place(engine, obj("metal-crate", "crate", (3, 2)))
    assert refused(engine, ImprovisedAttack("a", "b", "crate", "drop")) == "ENVW-3"
    old = pair(preset("ashfall-1"), at=(2, 2), other_at=(4, 2))
    place(old, obj("table", "table", (3, 2)))
    assert refused(old, FlipTable("a", "table", (4, 2))) == "E-36"
