"""The roster: deterministic ids, names and placement; theater of mind; rulesets, content, morale, build options."""

from pathlib import Path

import pytest

from ashfall.core.rule_ids import rule
from ashfall.encounters import build, load_encounter
from ashfall.encounters.building import BuildInfo
from ashfall.encounters.schema import ControllerKind
from ashfall.encounters.spec import Tactics
from ashfall.engine import Combatant, Decline, FirstOption
from ashfall.families.attacks.rules_activities import Activity
from ashfall.families.morale.engine import immune_rule
from tests.encounters.kit import encounter, load

ZONES = """
map:
  rows: |
    AAA....BBB
    AAA....BBB
"""


def test_ids__a_creature_used_once_keeps_its_id_and_shared_ones_are_numbered_in_file_order() -> None:
    spec = load(encounter(ZONES, """
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: B}
          - {creature: raider-boss, side: raiders, zone: B}
          - {creature: raider, side: raiders, count: 2, zone: B}
        """))
    assert [e.id for e in spec.roster] == ["warrior", "raider-1", "raider-boss", "raider-2", "raider-3"]
    assert [e.name for e in spec.roster] == ["Warrior", "Raider 1", "Raider Boss", "Raider 2", "Raider 3"]


def test_ids__explicit_id_and_name_are_kept_for_one_creature_and_numbered_for_many() -> None:
    spec = load(encounter(ZONES, """
        combatants:
          - {creature: warrior, side: party, zone: A, id: kael, name: Kael}
          - {creature: raider, side: raiders, zone: B, id: thug, name: Thug, count: 2}
        """))
    assert [(e.id, e.name) for e in spec.roster] == [("kael", "Kael"), ("thug-1", "Thug 1"), ("thug-2", "Thug 2")]


def test_zone_placement__reading_order_and_explicit_squares_are_reserved_first() -> None:
    spec = load(encounter(ZONES, """
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, count: 4, zone: B}
          - {creature: raider-boss, side: raiders, position: [8, 0]}
        """))
    assert [e.position for e in spec.roster] == [(0, 0), (7, 0), (9, 0), (7, 1), (8, 1), (8, 0)]


def test_placement__is_the_same_on_every_load() -> None:
    text = encounter(ZONES, "combatants:\n  - {creature: warrior, side: party, zone: A, count: 3}\n"
                             "  - {creature: raider, side: raiders, zone: B, count: 5}")
    assert load(text).roster == load(text).roster


def test_large_creature__zone_needs_room_for_its_whole_space() -> None:
    spec = load(encounter(ZONES, """
        combatants:
          - {creature: warrior, side: party, zone: A}
          - side: raiders
            zone: B
            creature: {id: ogre, name: Ogre, hp: 40, size: large}
          - {creature: raider, side: raiders, zone: B}
        """))
    ogre, raider = spec.roster[1], spec.roster[2]
    assert (ogre.position, raider.position) == ((7, 0), (9, 0))


def test_theater_of_mind__no_map_no_positions_and_the_engine_starts() -> None:
    spec = load(encounter("""
        combatants:
          - {creature: warrior, side: party}
          - {creature: raider, side: raiders, count: 2}
        """))
    assert spec.board is None and all(e.position is None for e in spec.roster)
    engine, info = build(spec)
    info.start(engine)
    assert engine.state.board is None and engine.state.round == 1
    assert all(c.position is None for c in engine.state.combatants.values())


def test_inline_stat_block__can_be_reused_by_id_later_in_the_file() -> None:
    spec = load(encounter("""
        combatants:
          - {creature: warrior, side: party}
          - side: raiders
            creature:
              id: glow-mutant
              name: Glow Mutant
              hp: 12
              weapons: [salvaged-sword]
          - {creature: glow-mutant, side: raiders}
        """))
    assert [e.id for e in spec.roster] == ["warrior", "glow-mutant-1", "glow-mutant-2"]
    engine, _ = build(spec)
    assert engine.state.get("glow-mutant-2").weapons[0].id == "salvaged-sword"


def test_content_files__are_merged_from_paths_relative_to_the_encounter(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "ghouls.yaml").write_text(
        "creatures:\n  - {id: ghoul, name: Ghoul, hp: 14, weapons: [combat-knife]}\n", encoding="utf-8")
    path = tmp_path / "crypt.yaml"
    path.write_text(encounter("content: [mine/ghouls.yaml]\ncombatants:\n  - {creature: warrior, side: party}\n"
                              "  - {creature: ghoul, side: raiders, count: 2}"), encoding="utf-8")
    spec = load_encounter(path)
    assert [e.creature.id for e in spec.roster] == ["warrior", "ghoul", "ghoul"]


@pytest.mark.parametrize(("ruleset", "name", "edition", "map_step"), [
    ("", "ashfall-2", 2, -3),
    ("ruleset: ashfall-1\n", "ashfall-1", 1, -3),
    ("ruleset:\n  base: ashfall-1\n  name: harsh\n  options:\n    attack: {map_step: -4}\n", "harsh", 1, -4),
])
def test_ruleset__preset_or_inline_house_rules(ruleset: str, name: str, edition: int, map_step: int) -> None:
    spec = load(encounter(ruleset + "combatants:\n  - {creature: warrior, side: party}\n"
                                    "  - {creature: raider, side: raiders}"))
    assert (spec.ruleset.name, spec.ruleset.edition, spec.ruleset.attack.map_step) == (name, edition, map_step)
    engine, _ = build(spec)
    assert engine.state.ruleset is spec.ruleset


def test_ruleset__house_rule_file_next_to_the_encounter(tmp_path: Path) -> None:
    (tmp_path / "gritty.yaml").write_text("base: ashfall-2\nname: gritty\noptions:\n  attack: {map_step: -4}\n",
                                          encoding="utf-8")
    path = tmp_path / "enc.yaml"
    path.write_text(encounter("ruleset: gritty.yaml\ncombatants:\n  - {creature: warrior, side: party}\n"
                              "  - {creature: raider, side: raiders}"), encoding="utf-8")
    assert load_encounter(path).ruleset.name == "gritty"


@pytest.mark.rule("MAA-5", "MAA-7", "AE-1")
@pytest.mark.parametrize(("written", "plan"), [
    ("", ()),
    ("tactics: ai", ()),
    ("tactics: [strike, strike, strike]", (Activity.STRIKE,) * 3),
    ("tactics: [power-strike, strike]", (Activity.POWER_STRIKE, Activity.STRIKE)),
    ("tactics: all-out-attack", (Activity.ALL_OUT,)),
])
def test_tactics__plans_as_data_for_the_simulator(written: str, plan: tuple[Activity, ...]) -> None:
    spec = load(encounter("combatants:\n  - {creature: warrior, side: party}\n"
                          f"  - creature: raider\n    side: raiders\n    {written}"))
    _engine, info = build(spec)
    assert info.tactics["raider"] == Tactics(plan)
    assert info.tactics["warrior"].is_ai and str(info.tactics["warrior"]) == "ai"


@pytest.mark.rule("MOR-2", "MOR-8", "MOR-37", "MOR-38")
def test_mor_38__morale_off_makes_a_sides_npcs_immune_and_leader_overrides_the_stat_block() -> None:
    spec = load(encounter("""
        combatants:
          - {creature: warrior, side: party}
          - {creature: raider, side: raiders, leader: true}
          - {creature: raider-boss, side: raiders, leader: false}
        """, sides="sides:\n  - {name: party, morale: off}\n  - {name: raiders, morale: off}"))
    engine, info = build(spec)
    state = engine.state
    raider, boss, warrior = (state.get(c) for c in ("raider", "raider-boss", "warrior"))
    assert raider.creature.leader and not boss.creature.leader
    assert info.leaders == ("raider",)
    assert state.morale_immune == frozenset({"party", "raiders"})
    assert immune_rule(state, raider) == rule("MOR-37") and immune_rule(state, boss) == rule("MOR-37")
    assert immune_rule(state, warrior) == rule("MOR-2")  # a PC never checks morale anyway
    assert spec.library.creature("raider").leader is False  # the library is untouched


@pytest.mark.rule("MOR-38")
def test_mor_38__morale_is_on_by_default_and_stat_blocks_are_used_as_written() -> None:
    spec = load(encounter("combatants:\n  - {creature: warrior, side: party}\n"
                          "  - {creature: raider-boss, side: raiders}"))
    engine, info = build(spec)
    boss = engine.state.get("raider-boss")
    assert boss.creature is spec.library.creature("raider-boss")
    assert [s.morale for s in info.sides] == [True, True] and info.leaders == ("raider-boss",)
    assert engine.state.morale_immune == frozenset() and immune_rule(engine.state, boss) is None


@pytest.mark.parametrize(("argument", "in_file", "used"), [(5, 9, 5), (None, 9, 9), (None, None, 0)])
def test_seed__argument_beats_file_beats_zero(argument: int | None, in_file: int | None, used: int) -> None:
    seed = f"seed: {in_file}\n" if in_file is not None else ""
    spec = load(encounter(seed + "combatants:\n  - {creature: warrior, side: party}\n"
                                 "  - {creature: raider, side: raiders}"))
    engine, info = build(spec, seed=argument)
    assert engine.seed == used and info.seed == used


def test_seed__same_seed_same_initiative() -> None:
    spec = load(encounter("combatants:\n  - {creature: warrior, side: party}\n  - {creature: raider, side: raiders}"))
    orders = []
    for _ in range(2):
        engine, info = build(spec, seed=42)
        info.start(engine)
        orders.append(list(engine.state.order))
    assert orders[0] == orders[1]


def test_controllers__default_first_option_and_a_factory_per_kind() -> None:
    spec = load(encounter("combatants:\n  - {creature: warrior, side: party}\n"
                          "  - {creature: raider, side: raiders, tactics: [strike]}"))
    engine, _ = build(spec)
    assert all(isinstance(c, FirstOption) for c in engine.controllers.values())
    seen: list[tuple[str, Tactics]] = []

    def policy(combatant: Combatant, tactics: Tactics) -> Decline:
        seen.append((combatant.id, tactics))
        return Decline()

    engine, _ = build(spec, controllers={ControllerKind.AI: policy})
    assert isinstance(engine.controllers["raider"], Decline)
    assert isinstance(engine.controllers["warrior"], FirstOption)  # the party is human-controlled
    assert seen == [("raider", Tactics((Activity.STRIKE,)))]
    assert engine.state.get("warrior").controller == "human" and engine.state.get("raider").controller == "ai"
    engine, _ = build(spec, controllers={"human": policy})
    assert isinstance(engine.controllers["warrior"], Decline)


def test_build_info__sides_members_round_limit_and_no_ambush() -> None:
    spec = load(encounter("victory: {round_limit: 6}\ncombatants:\n  - {creature: warrior, side: party}\n"
                          "  - {creature: raider, side: raiders, count: 2}"))
    _engine, info = build(spec)
    assert isinstance(info, BuildInfo)
    assert [(s.name, s.controller, s.members) for s in info.sides] == [
        ("party", ControllerKind.HUMAN, ("warrior",)), ("raiders", ControllerKind.AI, ("raider-1", "raider-2"))]
    assert (info.round_limit, info.ambushers, info.name) == (6, None, "Test")
