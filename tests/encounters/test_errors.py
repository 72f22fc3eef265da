"""Broken encounter files: every problem is reported with its file, field path and line; nothing loads."""

from pathlib import Path

import pytest

from ashfall.encounters import load_encounter, validate_command, validate_encounter
from ashfall.files.yaml_marks import InputError
from tests.encounters.kit import encounter, load

MAP = """
map:
  rows: |
    #######
    #A..=.#
    #A..#B#
    #######
"""
# the body of the map above starts on line 5 of an encounter() text: rows on line 6, its first row on 7

TWO_SIDES_AND = "name: T\nsides:\n  - {name: party}\n  - {name: raiders}\n"

# (case id, text, [(field path, line, message fragment)])
CASES = [
    ("unknown-top-level-key", encounter(MAP + "combatant: []\n"),
     [("combatants", 1, "Field required"),
      ("combatant", 11, "unknown key 'combatant'; did you mean 'combatants'?")]),
    ("unknown-side-key", encounter("combatants: []", sides="sides:\n  - {name: a, controler: ai}\n  - {name: b}"),
     [("sides[0].controler", 3, "unknown key 'controler'; did you mean 'controller'?"),
      ("sides[1].name", 4, "side 'b' has no combatants")]),
    ("bad-controller", encounter("combatants: []", sides="sides:\n  - {name: a, controller: robot}\n  - {name: b}"),
     [("sides[0].controller", 3, "'robot' is not one of: ai, human"), ("sides[1].name", 4, "no combatants")]),
    ("unknown-creature", encounter("combatants:\n  - {creature: warior, side: party}\n"
                                   "  - {creature: raider, side: raiders}"),
     [("combatants[0].creature", 6, "no creature 'warior' in the library; did you mean 'warrior'?")]),
    ("creature-not-id-or-mapping", encounter("combatants:\n  - {creature: 5, side: party}\n"
                                             "  - {creature: raider, side: raiders}"),
     [("combatants[0].creature", 6, "a creature id or an inline stat block")]),
    ("off-the-map", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, position: [9, 1]}\n"
                                    "  - {creature: raider, side: raiders, zone: B}"),
     [("combatants[0].position", 12, "warrior cannot stand at [9, 1]: the square is off the map (7 wide, 4 high)")]),
    ("inside-a-wall", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, position: [4, 2]}\n"
                                      "  - {creature: raider, side: raiders, zone: B}"),
     [("combatants[0].position", 12, "warrior cannot stand at [4, 2]: the square is a wall")]),
    ("on-a-cover-object", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, position: [4, 1]}\n"
                                          "  - {creature: raider, side: raiders, zone: B}"),
     [("combatants[0].position", 12, "the square holds a low wall")]),
    ("two-in-one-square", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, position: [2, 1]}\n"
                                          "  - {creature: raider, side: raiders, position: [2, 1]}"),
     [("combatants[1].position", 13, "raider cannot stand at [2, 1]: the square is taken by warrior (combatants[0])")]),
    ("zone-missing", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, zone: a}\n"
                                     "  - {creature: raider, side: raiders, zone: B}"),
     [("combatants[0].zone", 12, "the map has no zone 'a' (zones: 'A', 'B')")]),
    ("zone-full", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, zone: A}\n"
                                  "  - {creature: raider, side: raiders, zone: B, count: 2}"),
     [("combatants[1].zone", 13, "zone 'B' has no free space left for raider-2 (1 of 2 placed)")]),
    ("count-vs-positions", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, zone: A}\n"
                                           "  - {creature: raider, side: raiders, count: 3,\n"
                                           "     positions: [[2, 1], [3, 1]]}"),
     [("combatants[1].positions", 14, "count is 3 but positions lists 2 squares")]),
    ("count-with-one-position", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, zone: A}\n"
                                                "  - creature: raider\n    side: raiders\n    count: 2\n"
                                                "    position: [2, 1]"),
     [("combatants[1].count", 15, "count is 2 but position gives one square")]),
    ("position-and-zone", encounter(MAP + "combatants:\n  - {creature: warrior, side: party, zone: A,"
                                          " position: [2, 2]}\n  - {creature: raider, side: raiders, zone: B}"),
     [("combatants[0].zone", 12, "give only one of position, positions and zone (found position, zone)")]),
    ("no-placement-on-a-map", encounter(MAP + "combatants:\n  - {creature: warrior, side: party}\n"
                                              "  - {creature: raider, side: raiders, zone: B}"),
     [("combatants[0]", 12, "on a map every combatant needs a position, positions or a zone")]),
    ("position-without-map", encounter("combatants:\n  - {creature: warrior, side: party, position: [1, 1]}\n"
                                       "  - {creature: raider, side: raiders, zone: B}"),
     [("combatants[0].position", 6, "position needs a map (this encounter has none: theater of mind)"),
      ("combatants[1].zone", 7, "zone needs a map")]),
    ("side-not-declared", encounter("combatants:\n  - {creature: warrior, side: party}\n"
                                    "  - {creature: raider, side: raider}\n  - {creature: raider, side: raiders}"),
     [("combatants[1].side", 7, "side 'raider' is not declared in sides; did you mean 'raiders'?")]),
    ("no-sides", "name: T\nsides: []\ncombatants:\n  - {creature: warrior, side: party}\n",
     [("sides", 2, "an encounter needs at least two sides; this one declares 0"),
      ("combatants[0].side", 4, "side 'party' is not declared")]),
    ("sides-missing", "name: T\ncombatants:\n  - {creature: warrior, side: party}\n",
     [("sides", 1, "Field required")]),
    ("one-side", "name: T\nsides:\n  - {name: party}\ncombatants:\n  - {creature: warrior, side: party}\n",
     [("sides", 2, "at least two sides; this one declares 1")]),
    ("side-twice", TWO_SIDES_AND + "  - {name: party}\ncombatants:\n  - {creature: warrior, side: party}\n"
                                   "  - {creature: raider, side: raiders}\n",
     [("sides[2].name", 5, "side 'party' is declared twice (first at sides[0])")]),
    ("two-ambushers", "name: T\nsides:\n  - {name: a, ambush: true}\n  - {name: b, ambush: true}\ncombatants:\n"
                      "  - {creature: warrior, side: a}\n  - {creature: raider, side: b}\n",
     [("sides[1].ambush", 4, "only one side can ambush (SUR-1); sides[0] already does")]),
    ("bad-id", encounter("combatants:\n  - {creature: warrior, side: party, id: Big Guy}\n"
                         "  - {creature: raider, side: raiders}"),
     [("combatants[0].id", 6, "id 'Big Guy' is not lowercase words joined by hyphens")]),
    ("id-clash", encounter("combatants:\n  - {creature: warrior, side: party, id: raider-2}\n"
                           "  - {creature: raider, side: raiders, count: 2}"),
     [("combatants[1]", 7, "combatant id 'raider-2' is already used by combatants[0]")]),
    ("inline-stat-block", encounter("combatants:\n  - {creature: warrior, side: party}\n  - side: raiders\n"
                                    "    creature:\n      id: glow-mutant\n      name: Glow Mutant\n      hp: 12\n"
                                    "      weapons: [salvaged-swrod]\n      colour: green"),
     [("combatants[1].creature.weapons[0]", 12, "unknown weapon 'salvaged-swrod'; did you mean 'salvaged-sword'?"),
      ("combatants[1].creature.colour", 13, "unknown key 'colour'")]),
    ("inline-id-taken", encounter("combatants:\n  - {creature: warrior, side: party}\n"
                                  "  - {creature: {id: raider, name: R, hp: 3}, side: raiders}"),
     [("combatants[1].creature.id", 7, "creature id 'raider' is already in the library")]),
    ("unknown-preset", encounter("ruleset: ashfall-3\ncombatants:\n  - {creature: warrior, side: party}\n"
                                 "  - {creature: raider, side: raiders}"),
     [("ruleset", 5, "unknown ruleset preset 'ashfall-3'")]),
    ("bad-house-rule", encounter("ruleset:\n  base: ashfall-1\n  options:\n    attack: {map_stepp: -4}\n"
                                 "combatants:\n  - {creature: warrior, side: party}\n"
                                 "  - {creature: raider, side: raiders}"),
     [("ruleset.options.attack.map_stepp", 8, "unknown key 'map_stepp'")]),
    ("house-rule-file-missing", encounter("ruleset: nowhere.yaml\ncombatants:\n  - {creature: warrior, side: party}\n"
                                          "  - {creature: raider, side: raiders}"),
     [("ruleset", 5, "no such house-rule file")]),
    ("plan-too-long", encounter("combatants:\n  - {creature: warrior, side: party, tactics: [power-strike, "
                                "power-strike]}\n  - {creature: raider, side: raiders}"),
     [("combatants[0].tactics", 6, "the plan costs 4 actions; a turn has 3 (AE-1, MAA-1)")]),
    ("unknown-tactic", encounter("combatants:\n  - {creature: warrior, side: party, tactics: [strike, strik]}\n"
                                 "  - {creature: raider, side: raiders}"),
     [("combatants[0].tactics[1]", 6, "'strik' is not one of: strike, power-strike")]),
    ("sweeping-strike-in-edition-1", encounter("ruleset: ashfall-1\ncombatants:\n  - {creature: warrior, side: party,"
                                               " tactics: [sweeping-strike]}\n  - {creature: raider, side: raiders}"),
     [("combatants[0].tactics[0]", 7, "sweeping-strike is not available under ashfall-1 (E-10)")]),
    ("content-file-missing", encounter("content: [extra.yaml]\ncombatants:\n  - {creature: warrior, side: party}\n"
                                       "  - {creature: raider, side: raiders}"),
     [("content[0]", 5, "no such content file or folder")]),
    ("row-too-short", encounter("map:\n  rows:\n    - '#####'\n    - '#A.B'\n    - '#####'\ncombatants:\n"
                                "  - {creature: warrior, side: party, zone: A}\n"
                                "  - {creature: raider, side: raiders, zone: B}"),
     [("map.rows[1]", 8, "row 1 is 4 characters wide; the first row is 5")]),
    ("unknown-map-character", encounter("map:\n  rows: |\n    #####\n    #A?B#\n    #####\ncombatants:\n"
                                        "  - {creature: warrior, side: party, zone: A}\n"
                                        "  - {creature: raider, side: raiders, zone: B}"),
     [("map.rows[1]", 8, "unknown map character '?' at column 2")]),
    ("width-disagrees-with-rows", encounter("map:\n  width: 6\n  rows: |\n    #####\n    #A.B#\n    #####\n"
                                            "combatants:\n  - {creature: warrior, side: party, zone: A}\n"
                                            "  - {creature: raider, side: raiders, zone: B}"),
     [("map.width", 6, "width is 6 but the rows draw a map 5 wide and 3 high")]),
    ("map-without-size", encounter("map:\n  walls: [[1, 1]]\ncombatants:\n  - {creature: warrior, side: party}\n"
                                   "  - {creature: raider, side: raiders}"),
     [("map", 5, "a map needs width and height, or rows")]),
    ("wall-off-the-map", encounter("map:\n  width: 4\n  height: 4\n  walls: [[1, 1], [4, 0]]\ncombatants:\n"
                                   "  - {creature: warrior, side: party, position: [0, 0]}\n"
                                   "  - {creature: raider, side: raiders, position: [3, 3]}"),
     [("map.walls[1]", 8, "square [4, 0] is off the map (4 wide, 4 high)")]),
    ("exit-on-a-wall", encounter(MAP + "  exits: [[0, 1]]\ncombatants:\n"
                                       "  - {creature: warrior, side: party, zone: A}\n"
                                       "  - {creature: raider, side: raiders, zone: B}"),
     [("map.exits[0]", 11, "exit [0, 1] is a wall")]),
    ("legend-key-too-long", encounter("map:\n  rows: ['AB']\n  legend:\n    xx: {wall: true}\ncombatants:\n"
                                      "  - {creature: warrior, side: party, zone: A}\n"
                                      "  - {creature: raider, side: raiders, zone: B}"),
     [("map.legend.xx", 8, "legend keys are single visible characters")]),
    ("large-creature-into-a-wall", encounter(
        "map:\n  rows: |\n    ######\n    #A..B#\n    ######\ncombatants:\n"
        "  - {creature: warrior, side: party, zone: A}\n"
        "  - side: raiders\n    position: [3, 1]\n    creature: {id: ogre, name: Ogre, hp: 40, size: large}"),
     [("combatants[1].position", 13, "ogre cannot stand at [3, 1]: its space includes [3, 2], which is a wall")]),
    ("not-a-mapping", "- just\n- a list\n",
     [("", 1, "an encounter file is a mapping with name, sides and combatants")]),
    ("yaml-syntax", "name: [unclosed\n",
     [("", 2, "YAML syntax")]),
]


@pytest.mark.parametrize(("case", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_broken_encounter__reports_every_problem_with_path_and_line(
        case: str, text: str, expected: list[tuple[str, int, str]]) -> None:
    with pytest.raises(InputError) as info:
        load(text)
    got = [(p.file, p.path, p.line, p.message) for p in info.value.problems]
    assert len(got) == len(expected), "\n".join(str(p) for p in info.value.problems)
    for (file, path, line, message), (want_path, want_line, fragment) in zip(got, expected, strict=True):
        assert (file, path, line) == ("enc.yaml", want_path, want_line), message
        assert fragment in f"{path}: {message}", message


def test_broken_file__validate_encounter_and_validate_command_list_the_problems(tmp_path: Path) -> None:
    path = tmp_path / "raid.yaml"
    path.write_text(CASES[3][1], encoding="utf-8")
    problems = validate_encounter(path)
    assert [(p.file, p.path, p.line) for p in problems] == [(str(path), "combatants[0].creature", 6)]
    code, lines = validate_command(path)
    assert code == 1
    assert lines == [f"{path}:6: combatants[0].creature: no creature 'warior' in the library; did you mean "
                     "'warrior'?", "1 problem found"]


def test_missing_file__is_one_problem_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        load_encounter(tmp_path / "nope.yaml")
    assert "cannot read" in str(info.value)


def test_problems_in_a_content_file__name_that_file(tmp_path: Path) -> None:
    (tmp_path / "extra.yaml").write_text("creatures:\n  - {id: ghoul, name: Ghoul, hp: lots}\n", encoding="utf-8")
    enc = tmp_path / "enc.yaml"
    enc.write_text(encounter("content: [extra.yaml]\ncombatants:\n  - {creature: ghoul, side: party}\n"
                             "  - {creature: raider, side: raiders}"), encoding="utf-8")
    problems = validate_encounter(enc)
    assert [(Path(p.file).name, p.path, p.line) for p in problems] == [("extra.yaml", "creatures[0].hp", 2)]


def test_empty_folder__validate_command_fails(tmp_path: Path) -> None:
    assert validate_command(tmp_path) == (1, [f"{tmp_path}: no encounter files"])
