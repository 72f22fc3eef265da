"""The AI's indexed path searches agree with the straightforward ones they replace (same squares, costs, paths).

``MoveGraph.nodes``, ``routes`` and ``path_to`` search a :class:`~ashfall.ai.board_cache.BoardIndex` (integer
squares, flat arrays) and stop early where nothing more can be found. Here they are checked against plain
dict-of-tuples searches that price every step with ``MoveGraph.cost`` (MOV-2..5, ACT-2, RX-21, G-37) on random
boards, for one- and two-square movers and both diagonal rules.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from ashfall.ai import movement
from ashfall.ai.board_cache import FAR, ORDER, index
from ashfall.ai.movement import MoveGraph, Reach, Route, leaving, path_to, provokers_along, threats
from ashfall.core.types import Size
from ashfall.engine import Combatant, EncounterState
from ashfall.families.attacks.engine_common import speed_ft
from ashfall.grid.board import SQUARE_FT, Board, Square, Terrain, footprint
from ashfall.grid.paths import Path, shortest_path
from ashfall.ruleset import preset
from tests.ai.kit import fight, unit

Found = dict[Square, tuple[int, tuple[Square, ...]]]


def reference_nodes(g: MoveGraph, start: Square, budget: int, reaches: Sequence[Reach] = (), *, safe: bool = False,
                    want: Callable[[Square], bool] | None = None, limit: int | None = None,
                    only: frozenset[Square] | None = None) -> Found:
    """The search ``MoveGraph.nodes`` used to run: every neighbour priced with ``g.cost``, paths built eagerly."""
    frontier: list[tuple[int, int, Square, int]] = [(0, 0, start, 0)]
    best: dict[tuple[Square, int], int] = {(start, 0): 0}
    came: dict[tuple[Square, int], tuple[Square, int]] = {}
    out: Found = {}
    settled: set[Square] = set()
    counter = 0
    while frontier:
        spent, _, here, parity = heapq.heappop(frontier)
        if spent > best.get((here, parity), spent):
            continue
        if here not in settled:
            settled.add(here)
            keep = (here in only) if only is not None else (want is None or (g.can_end(here) and want(here)))
            if keep and here != start:
                out[here] = (spent, _walk_back(came, (here, parity)))
                if (limit is not None and len(out) >= limit) or (only is not None and len(out) >= len(only)):
                    break
        for dx, dy in ORDER:
            nxt = (here[0] + dx, here[1] + dy)
            diagonal = bool(dx and dy)
            feet = g.cost(here, nxt, parity if diagonal else 0)  # a straight step priced as after even diagonals
            if feet is None or spent + feet > budget:
                continue
            if safe and reaches and leaving(reaches, here, nxt):
                continue
            key = (nxt, (parity + diagonal) % 2 if g.alternating else 0)
            total = spent + feet
            if best.get(key, budget + 1) <= total:
                continue
            best[key] = total
            came[key] = (here, parity)
            counter += 1
            heapq.heappush(frontier, (total, counter, nxt, key[1]))
    return out


def _walk_back(came: dict[tuple[Square, int], tuple[Square, int]], end: tuple[Square, int]) -> tuple[Square, ...]:
    squares: list[Square] = []
    node = end
    while node in came:
        squares.append(node[0])
        node = came[node]
    return tuple(reversed(squares))


def reference_routes(state: EncounterState, c: Combatant, g: MoveGraph, near: Sequence[Reach],
                     spaces: Sequence[Sequence[Square]], within_ft: int, limit: int | None) -> dict[Square, Route]:
    """What ``routes`` used to compute: two full searches (plain, then safe) and every way's provokers."""
    start = c.position
    assert start is not None
    found = {start: Route(start, (), 0, 0, True, ())}
    for dx, dy in ORDER:
        sq = (start[0] + dx, start[1] + dy)
        if g.cost(start, sq, 0) == SQUARE_FT and g.can_end(sq):
            found[sq] = Route(sq, (sq,), SQUARE_FT, 1, True, ())
    wanted: set[Square] = set()
    for space in spaces:
        wanted |= {(x, y) for x in range(-20, 40) for y in range(-20, 40)
                   if _gap(tuple(space), footprint((x, y), g.size)) <= within_ft}
    speed = speed_ft(c, state)
    budget = speed * 2
    plain = reference_nodes(g, start, budget, want=wanted.__contains__, limit=limit)
    goals = frozenset(sq for sq in plain if sq not in found)
    safe = reference_nodes(g, start, budget, near, safe=True, only=goals) if near and goals else {}
    for sq, (feet, path) in plain.items():
        if sq in found:
            continue
        if sq in safe:
            feet, path = safe[sq]
        actions = 1 if feet <= speed else 2
        costs: list[int] = []
        here, parity = start, 0
        for sq in path:
            costs.append(g.cost(here, sq, parity) or 0)
            parity = (parity + (here[0] != sq[0] and here[1] != sq[1])) % 2
            here = sq
        if actions == 2 and not Path(path, tuple(costs)).prefix(speed, g.can_end).squares:
            continue
        found[sq] = Route(sq, path, feet, actions, False, provokers_along(g, near, start, path))
    return found


def _gap(a: tuple[Square, ...], b: tuple[Square, ...]) -> int:
    return min(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for p in a for q in b) * SQUARE_FT


def scene(seed: int) -> tuple[EncounterState, Combatant]:
    """A random board (walls, difficult terrain, water) with a mover, two to four enemies and an ally."""
    rnd = random.Random(seed)
    width, height = rnd.randint(7, 12), rnd.randint(6, 10)
    cells = [(x, y) for x in range(width) for y in range(height)]
    walls = frozenset(sq for sq in cells if rnd.random() < 0.1)
    terrain = {sq: rnd.choice([Terrain.DIFFICULT, Terrain.WATER, Terrain.GREATER_DIFFICULT])
               for sq in cells if sq not in walls and rnd.random() < 0.15}
    board = Board(width, height, terrain=terrain, walls=walls)
    big = seed % 3 == 0
    taken: set[Square] = set()

    def place(side: int) -> Square:
        while True:
            sq = rnd.choice(cells)
            space = footprint(sq, side)
            if all(board.in_bounds(s) and s not in walls and s not in taken for s in space):
                taken.update(space)
                return sq

    me = unit("me", "party", place(2 if big else 1), "warrior", **({"size": Size.LARGE} if big else {}))
    others = [unit(f"foe{i}", "raiders", place(1), "raider") for i in range(rnd.randint(2, 4))]
    others.append(unit("ally", "party", place(1), "vanguard"))
    if rnd.random() < 0.3:  # a fallen enemy: no longer blocks passage, still fills its square (ACT-2)
        others[0] = replace(others[0], health=others[0].health.evolve(hp=0))
    alternating = preset().with_options(turn={"diagonals": "alternating"})
    engine, _ = fight([me, *others], board, ruleset=alternating if seed % 2 else None)
    return engine.state, engine.state.get("me")


SEEDS = range(40)


@pytest.mark.rule("MOV-2", "MOV-5", "ACT-2", "RX-21", "G-37")
@pytest.mark.parametrize("seed", SEEDS)
def test_nodes__the_indexed_search_finds_what_the_plain_search_finds(seed: int) -> None:
    state, c = scene(seed)
    g = MoveGraph.of(state, c)
    start = c.position
    assert start is not None
    reaches = tuple(Reach(e.id, e.space, 5, movement._within(e.space, 5, g.size))
                    for e in state.enemies_of(c.id) if e.space)
    targets = frozenset(sq for e in state.enemies_of(c.id) for sq in movement._within(e.space, 5, g.size))
    for budget in (15, 30, 60):
        assert g.nodes(start, budget) == reference_nodes(g, start, budget)
        assert g.nodes(start, budget, limit=7) == reference_nodes(g, start, budget, limit=7)
        assert g.nodes(start, budget, want=targets) == reference_nodes(g, start, budget, want=targets.__contains__)
        assert g.nodes(start, budget, want=targets, limit=3) == reference_nodes(
            g, start, budget, want=targets.__contains__, limit=3)
        odd = lambda sq: (sq[0] + sq[1]) % 2 == 1  # noqa: E731
        assert g.nodes(start, budget, want=odd) == reference_nodes(g, start, budget, want=odd)
        for safe in (False, True):
            assert g.nodes(start, budget, reaches, safe=safe, only=targets) == reference_nodes(
                g, start, budget, reaches, safe=safe, only=targets)


@pytest.mark.rule("RX-21", "ACT-3", "G-37")
@pytest.mark.parametrize("seed", SEEDS)
def test_routes__the_same_ways_as_two_full_searches(seed: int) -> None:
    state, c = scene(seed)
    g = MoveGraph.of(state, c)
    near = threats(state, c)
    spaces = [e.space for e in state.enemies_of(c.id) if e.space]
    for within_ft, limit in ((5, 24), (10, 4), (30, None)):
        got = movement._routes(state, c, 2, g, near, spaces, within_ft, limit)
        assert got == reference_routes(state, c, g, near, spaces, within_ft, limit)
        assert list(got) == list(reference_routes(state, c, g, near, spaces, within_ft, limit))


@pytest.mark.rule("MOV-2", "ACT-2", "G-37")
@pytest.mark.parametrize("seed", SEEDS)
def test_path_to__the_same_path_as_shortest_path(seed: int) -> None:
    state, c = scene(seed)
    g = MoveGraph.of(state, c)
    assert c.position is not None
    board = state.board
    assert board is not None
    for goal in ((lambda sq: sq[0] == board.width - 1), (lambda sq: sq == (0, 0)), (lambda sq: sq[1] == -3)):
        found = shortest_path(c.position, lambda sq, goal=goal: g.can_end(sq) and goal(sq), g.cost)
        assert path_to(state, c, goal, g) == (None if found is None else found.squares)


@pytest.mark.rule("MOV-2", "G-37")
@pytest.mark.parametrize("seed", SEEDS)
def test_board_index_floor__the_cheapest_way_with_nobody_in_the_way(seed: int) -> None:
    state, c = scene(seed)
    g = MoveGraph.of(state, c)
    empty = MoveGraph(state, c, g.size, frozenset(), frozenset(), g.alternating)
    ix = index(state, c, g.size)
    assert c.position is not None
    origin = ix.id_of(c.position)
    assert origin is not None
    everywhere = reference_nodes(empty, c.position, 10_000)
    floor = ix.floor(origin)
    for at, sq in enumerate(ix.squares):
        expected = 0 if sq == c.position else everywhere[sq][0] if sq in everywhere else FAR
        assert floor[at] == expected, sq
