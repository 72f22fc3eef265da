"""ASCII maps: walls, terrain, cover, elevation and zones; explicit lists applied on top (MOV, COV, POS-4)."""

import pytest

from ashfall.encounters import EncounterSpec
from ashfall.encounters.maps import DEFAULT_LEGEND
from ashfall.grid.board import Board, CoverLevel, Terrain
from ashfall.grid.geometry import cover_between, high_ground
from tests.encounters.kit import encounter, load

GRID = """
map:
  rows: |
    #######
    #A.:;~#
    #A=+H%#
    #B....#
    #######
combatants:
  - {creature: warrior, side: party, zone: A}
  - {creature: raider, side: raiders, zone: B}
"""


def _board(body: str = GRID) -> tuple[Board, EncounterSpec]:
    spec = load(encounter(body))
    assert spec.board is not None
    return spec.board, spec


def test_ascii_map__size_comes_from_the_rows() -> None:
    board, _ = _board()
    assert (board.width, board.height) == (7, 5)


def test_ascii_map__hash_is_a_wall_that_blocks_sight() -> None:
    board, _ = _board()
    assert (0, 0) in board.walls and (6, 4) in board.walls and len(board.walls) == 2 * 7 + 2 * 3
    assert board.blocks_sight((0, 2)) and board.terrain_at((0, 2)) is Terrain.IMPASSABLE


@pytest.mark.rule("MOV-2", "MOV-3", "MOV-4", "MOV-5", "X-03")
@pytest.mark.parametrize(("square", "terrain"), [
    ((2, 1), Terrain.NORMAL), ((3, 1), Terrain.DIFFICULT), ((4, 1), Terrain.GREATER_DIFFICULT),
    ((5, 1), Terrain.DIFFICULT), ((5, 2), Terrain.IMPASSABLE), ((1, 1), Terrain.NORMAL),
], ids=["dot", "colon", "semicolon", "water", "percent", "zone"])
def test_mov_2_to_5__terrain_characters(square: tuple[int, int], terrain: Terrain) -> None:
    board, _ = _board()
    assert board.terrain_at(square) is terrain
    assert square not in board.walls


@pytest.mark.rule("COV-1", "COV-2", "STC-2")
@pytest.mark.parametrize(("square", "level", "name", "light"), [
    ((2, 2), CoverLevel.PARTIAL, "low wall", False),
    ((3, 2), CoverLevel.PARTIAL, "barricade", True),
    ((4, 2), CoverLevel.HEAVY, "heavy cover", False),
])
def test_cov_1_cov_2__cover_characters(square: tuple[int, int], level: CoverLevel, name: str, light: bool) -> None:
    board, _ = _board()
    obj = board.cover[square]
    assert (obj.level, obj.name, obj.light, obj.blocks_movement) == (level, name, light, True)
    assert board.terrain_at(square) is Terrain.IMPASSABLE


@pytest.mark.rule("COV-2")
def test_cov_2__heavy_cover_from_the_map_protects_a_creature_behind_it() -> None:
    board, _ = _board()
    assert cover_between(board, [(4, 3)], [(4, 1)]) == (CoverLevel.HEAVY, "heavy cover")


def test_zones__letters_in_reading_order() -> None:
    _, spec = _board()
    assert dict(spec.zones) == {"A": ((1, 1), (1, 2)), "B": ((1, 3),)}


def test_rows_as_a_list__same_board_as_a_block() -> None:
    block, _ = _board()
    listed, _ = _board("""
        map:
          rows:
            - '#######'
            - '#A.:;~#'
            - '#A=+H%#'
            - '#B....#'
            - '#######'
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: B}
        """)
    assert listed == block


@pytest.mark.rule("POS-4", "G-37")
def test_pos_4__legend_height_and_explicit_elevation_give_high_ground() -> None:
    board, _ = _board("""
        map:
          rows: |
            ^^....
            A....B
          legend:
            "^": {height: 10}
          elevation:
            - {at: [5, 1], height: 5}
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: B}
        """)
    assert board.height_at((0, 0)) == 10 and board.height_at((1, 0)) == 10 and board.height_at((5, 1)) == 5
    assert high_ground(board, [(0, 0)], [(0, 1)])
    assert not high_ground(board, [(0, 1)], [(0, 0)])


def test_custom_legend__letter_is_cover_not_a_zone() -> None:
    board, spec = _board("""
        map:
          rows: |
            A.B.C
          legend:
            B: {cover: heavy, name: burnt-out bus}
            "*": {cover: total, name: pillar, blocks_movement: true}
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: C}
        """)
    assert "B" not in spec.zones
    assert board.cover[(2, 0)].name == "burnt-out bus" and board.cover[(2, 0)].level is CoverLevel.HEAVY


def test_custom_legend__can_redefine_a_built_in_character() -> None:
    board, _ = _board("""
        map:
          rows: ["A==B"]
          legend:
            "=": {terrain: difficult}
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: B}
        """)
    assert not board.cover and board.terrain_at((1, 0)) is Terrain.DIFFICULT
    assert DEFAULT_LEGEND["="].cover is not None


@pytest.mark.rule("MOV-3", "COV-3")
def test_explicit_lists__without_rows() -> None:
    board, spec = _board("""
        map:
          width: 6
          height: 4
          walls: [[2, 0], [2, 1]]
          terrain:
            difficult: [[3, 3], [4, 3]]
            greater-difficult: [[5, 3]]
          cover:
            - {at: [3, 1], level: total, name: steel door}
            - {at: [4, 1], level: partial, name: crates, light: true}
          zones:
            west: [[0, 1], [0, 0]]
            east: [[5, 0]]
        combatants:
          - {creature: warrior, side: party, zone: west}
          - {creature: raider, side: raiders, zone: east}
        """)
    assert board.walls == frozenset({(2, 0), (2, 1)})
    assert board.terrain_at((3, 3)) is Terrain.DIFFICULT and board.terrain_at((5, 3)) is Terrain.GREATER_DIFFICULT
    assert board.cover[(3, 1)].level is CoverLevel.TOTAL and board.cover[(4, 1)].light
    assert spec.zones["west"] == ((0, 0), (0, 1))
    assert spec.roster[0].position == (0, 0)


def test_explicit_lists__refine_an_ascii_map() -> None:
    board, _ = _board("""
        map:
          rows: |
            A:::B
          terrain:
            normal: [[2, 0]]
          walls: [[3, 0]]
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: B}
        """)
    assert board.terrain_at((1, 0)) is Terrain.DIFFICULT
    assert board.terrain_at((2, 0)) is Terrain.NORMAL
    assert (3, 0) in board.walls


def test_coordinates__x_is_the_column_and_y_the_row_from_the_top_left() -> None:
    _, spec = _board("""
        map:
          rows: |
            .....
            ...#.
            .....
        combatants:
          - {creature: warrior, side: party, position: [4, 1]}
          - {creature: raider, side: raiders, position: [0, 2]}
        """)
    assert spec.board is not None and (3, 1) in spec.board.walls
    assert [e.position for e in spec.roster] == [(4, 1), (0, 2)]


@pytest.mark.rule("MOR-20")
def test_exits__marked_with_the_arrow_or_listed() -> None:
    board, spec = _board("""
        map:
          rows: |
            #####
            #A.B>
            ##.##
          exits: [[2, 2]]
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: B}
        """)
    assert spec.exits == ((4, 1), (2, 2))
    assert board.terrain_at((4, 1)) is Terrain.NORMAL


@pytest.mark.rule("MOR-20")
def test_exits__default_to_every_enterable_edge_square() -> None:
    _, spec = _board("""
        map:
          rows: |
            #..
            A.B
            ##=
        combatants:
          - {creature: warrior, side: party, zone: A}
          - {creature: raider, side: raiders, zone: B}
        """)
    assert spec.exits == ((1, 0), (2, 0), (0, 1), (2, 1))


def test_exits__walled_map_without_exits_has_none_and_theater_of_mind_has_none() -> None:
    _, walled = _board()
    assert walled.exits == ()
    open_ = load(encounter("combatants:\n  - {creature: warrior, side: party}\n  - {creature: raider, side: raiders}"))
    assert open_.exits == ()
