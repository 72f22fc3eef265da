"""One search for several goals (``shortest_paths``) finds, for each goal, exactly the path its own search finds.

The table lists a Stride towards every enemy from one search (MOV-1..5, G-37); these properties pin that it is the
same path, square for square and foot for foot, as one search per enemy, on random boards with walls and rough
ground.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.grid.board import Square
from ashfall.grid.paths import StepCost, shortest_path, shortest_paths

W, H = 9, 7


def costs(walls: frozenset[Square], rough: frozenset[Square]) -> StepCost:
    def cost(frm: Square, to: Square, parity: int) -> int | None:
        if not (0 <= to[0] < W and 0 <= to[1] < H) or to in walls:
            return None
        diagonal = frm[0] != to[0] and frm[1] != to[1]
        feet = (10 if parity else 5) if diagonal else 5  # G-37's alternating diagonals
        return feet * (2 if to in rough else 1)
    return cost


squares = st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))


@settings(max_examples=150, deadline=None)
@given(walls=st.frozensets(squares, max_size=20), rough=st.frozensets(squares, max_size=15), start=squares,
       targets=st.lists(st.tuples(squares, st.integers(0, 2)), min_size=1, max_size=4))
def test_shortest_paths__each_goal_gets_the_single_search_path(walls: frozenset[Square], rough: frozenset[Square],
                                                              start: Square,
                                                              targets: list[tuple[Square, int]]) -> None:
    cost = costs(walls - {start}, rough)
    goals = [(lambda sq, t=t, r=r: max(abs(sq[0] - t[0]), abs(sq[1] - t[1])) <= r and sq not in walls)
             for t, r in targets]
    assert shortest_paths(start, goals, cost) == [shortest_path(start, g, cost) for g in goals]
