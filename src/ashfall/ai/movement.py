"""Where the AI can move this turn and what the way there costs: routes, provoked reactions, exits.

A :class:`MoveGraph` mirrors the engine's movement check (:func:`ashfall.families.movement.moves.path_cost`):
the engine's own :func:`~ashfall.families.movement.moves.step_cost` prices each step (terrain, water, the
alternating-diagonal rule, G-37), enemies still standing block passage and any living creature blocks the
last square (ACT-2), walls meeting at a corner cannot be squeezed between (MOV-5). :func:`routes` finds,
for every square reachable with one or two Strides (or one Step, ACT-3), the cheapest way there that
leaves no enemy's reach when one exists, and names the enemies whose reach it leaves (RX-21). The searches
run on the board's integer index (:mod:`ashfall.ai.move_search`) and give exactly what the plain searches
over squares gave (:func:`ashfall.grid.paths.shortest_path` where the index does not apply). The engine
checks every move again before it happens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ashfall.ai.board_cache import ORDER, BoardIndex, adjacency, gap_ft, index, static_step
from ashfall.ai.move_search import Search, goals, reach_bits, search, shortest
from ashfall.core.types import Condition
from ashfall.engine import Combatant, EncounterState, Refused
from ashfall.engine.reactions import can_react
from ashfall.families.attacks.engine_common import can_make_melee_attack, melee_reach, speed_ft
from ashfall.families.movement.moves import blocking, board_only_costs, entry_cost, provokes
from ashfall.grid.board import SQUARE_FT, Square, Terrain, footprint
from ashfall.grid.paths import Expand, Path, shortest_path
from ashfall.ruleset.sections import Diagonals

_ORDER = ORDER


@dataclass(frozen=True, slots=True)
class Reach:
    """An enemy that could take an Attack of Opportunity: its space and melee reach (RX-21).

    Attributes:
        id: The enemy.
        space: Its space.
        reach_ft: Its melee reach.
        inside: Top-left squares of the mover's space that are within that reach.
    """

    id: str
    space: tuple[Square, ...]
    reach_ft: int
    inside: frozenset[Square] = frozenset()


def threats(state: EncounterState, mover: Combatant) -> tuple[Reach, ...]:
    """The enemies whose reach the mover must not leave without provoking (none while it cannot provoke)."""
    if state.board is None or not provokes(state, mover):
        return ()
    found = []
    size = mover.creature.size.squares
    for e in state.enemies_of(mover.id):
        if not e.space or not e.is_active or not can_make_melee_attack(e) or can_react(state, e) is not None:
            continue
        space = e.space
        reach = melee_reach(e, state)
        found.append(Reach(e.id, space, reach, _within(space, reach, size)))
    return tuple(found)


@lru_cache(maxsize=4096)
def _within(space: tuple[Square, ...], reach_ft: int, size: int) -> frozenset[Square]:
    """Top-left squares of a ``size`` x ``size`` space within ``reach_ft`` of ``space`` (pure geometry: cached)."""
    if size == 1 and len(space) == 1:  # one square each: gap_ft is the king-move distance in squares
        (sx, sy), r = space[0], reach_ft // SQUARE_FT
        return frozenset((x, y) for x in range(sx - r, sx + r + 1) for y in range(sy - r, sy + r + 1))
    n = reach_ft // SQUARE_FT + size
    xs = [sq[0] for sq in space]
    ys = [sq[1] for sq in space]
    return frozenset(
        (x, y) for x in range(min(xs) - n, max(xs) + n + 1) for y in range(min(ys) - n, max(ys) + n + 1)
        if gap_ft(space, footprint((x, y), size)) <= reach_ft)


def leaving(reaches: Sequence[Reach], a: Square, b: Square) -> list[str]:
    """Enemies whose reach a step from the space at ``a`` to the space at ``b`` leaves (RX-21)."""
    return [r.id for r in reaches if a in r.inside and b not in r.inside]


@dataclass(slots=True)
class MoveGraph:
    """How one creature may walk the board now (mirrors ``path_cost`` and ``entry_cost``).

    The AI's searches and the scripted tactics' approach (:mod:`ashfall.sim.approach`) both walk it. With
    ``exact`` every step is priced by the engine's own ``entry_cost`` (a fallback when the engine refuses a path
    the fast pricing found).
    """

    state: EncounterState
    mover: Combatant
    size: int
    blocked: frozenset[Square]
    occupied: frozenset[Square]
    alternating: bool
    _costs: dict[tuple[Square, Square, int], int | None] = field(default_factory=dict)
    _index: BoardIndex | None = None
    _barred: tuple[bytearray, bytearray] | None = None
    _reach_bits: tuple[Sequence[Reach], list[int]] | None = None
    exact: bool = False

    @classmethod
    def of(cls, state: EncounterState, mover: Combatant, *, exact: bool = False) -> MoveGraph:
        """Enemies still standing block passage; any living creature blocks the final square (ACT-2)."""
        blocked, occupied = blocking(state, mover)
        return cls(state, mover, mover.creature.size.squares, blocked, occupied,
                   state.ruleset.turn.diagonals is Diagonals.ALTERNATING, exact=exact)

    def space(self, sq: Square) -> tuple[Square, ...]:
        """The mover's space with its top-left square at ``sq``."""
        return (sq,) if self.size == 1 else footprint(sq, self.size)

    space_at = space

    def price(self, frm: Square, to: Square, parity: int) -> int | None:
        """Feet to step from ``frm`` into ``to`` (None if it cannot be entered), uncached: for one path search."""
        if self.exact:
            cost = entry_cost(self.state, self.mover, frm, to, parity, final=False)
            return None if isinstance(cost, Refused) else cost
        return self._price(frm, to, parity)

    def expander(self) -> Expand | None:
        """The steps out of a square (:data:`~ashfall.grid.paths.Expand`) as :meth:`price` prices them, or None.

        Only for a one-square mover on a map whose step prices are cached (``board_only_costs``): the board's
        :func:`~ashfall.ai.board_cache.adjacency` lists each square's steps in the search's neighbour order;
        the creatures standing in the way now (``blocked``) are left out on every call, as :meth:`price` checks
        them before the map.
        """
        if self.exact or self.size != 1 or not board_only_costs(self.state):
            return None
        edges, blocked = adjacency(self.state, self.mover, 1), self.blocked

        def expand(here: Square, parity: int) -> list[tuple[Square, int, int]]:
            return [(to, feet, diagonal) for to, diagonal, even, odd in edges.get(here, ())
                    if (feet := odd if parity and diagonal else even) is not None and to not in blocked]

        return expand

    def can_stop(self, sq: Square) -> bool:
        """Whether the mover may end its move with its space at ``sq``, on the map (MOV-5) and off creatures (ACT-2)."""
        if self.exact:
            return not isinstance(entry_cost(self.state, self.mover, sq, sq, 0, final=True), Refused)
        board = self.state.board
        assert board is not None
        return all(board.in_bounds(s) and board.terrain_at(s) is not Terrain.IMPASSABLE and s not in self.occupied
                   for s in self.space(sq))

    def cost(self, frm: Square, to: Square, parity: int) -> int | None:
        """Feet to enter ``to`` from ``frm`` after ``parity`` diagonals (mod 2), or None if it cannot be entered."""
        if not self.alternating:
            parity = 0
        key = (frm, to, parity)
        found = self._costs.get(key, -1)
        if found != -1:
            return found
        value = self._price(frm, to, parity)
        self._costs[key] = value
        return value

    def _price(self, frm: Square, to: Square, parity: int) -> int | None:
        if self.blocked and any(sq in self.blocked for sq in self.space(to)):
            return None
        return static_step(self.state, self.mover, self.size, frm, to, parity)

    def can_end(self, sq: Square) -> bool:
        """Whether the mover may end its move with its space at ``sq``."""
        return not any(s in self.occupied for s in self.space(sq))

    def index(self) -> BoardIndex:
        """The board's integer index for this mover (see :func:`ashfall.ai.board_cache.index`), kept per graph."""
        if self._index is None:
            self._index = index(self.state, self.mover, self.size)
        return self._index

    def barred(self) -> tuple[bytearray, bytearray]:
        """Per square id: whether the mover's space there overlaps a blocking enemy / any creature (cannot end).

        Built once per graph from ``blocked`` and ``occupied``, which never change for it.
        """
        if self._barred is None:
            ix = self.index()
            self._barred = (ix.mark(self.blocked, self.size), ix.mark(self.occupied, self.size))
        return self._barred

    def nodes(self, start: Square, budget_ft: int, reaches: Sequence[Reach] = (), *, safe: bool = False,
              want: Callable[[Square], bool] | frozenset[Square] | None = None, limit: int | None = None,
              only: frozenset[Square] | None = None) -> dict[Square, tuple[int, tuple[Square, ...]]]:
        """Cheapest feet and path to squares within ``budget_ft``, nearest first.

        Args:
            start: Where the mover stands.
            budget_ft: The most the paths may cost.
            reaches: Enemies whose reach must not be left when ``safe``.
            safe: Only steps that leave no enemy's reach (RX-21).
            want: Keep only squares the mover may end on where this holds, or that are in this set (None: every
                square).
            limit: Stop after this many squares were kept.
            only: Stop once every one of these squares was reached (and keep only them).

        Ties go to the path found first (straight steps before diagonal ones), so results are deterministic.
        """
        found = self._search(start, budget_ft, reaches, safe, want, limit, only)
        if found is None:
            return {}
        squares = self.index().squares
        return {squares[node >> 1]: (spent, found.path(node)) for node, spent in found.kept}

    def _search(self, start: Square, budget_ft: int, reaches: Sequence[Reach], safe: bool,
                want: Callable[[Square], bool] | frozenset[Square] | None, limit: int | None,
                only: frozenset[Square] | None) -> Search | None:
        """:meth:`nodes` on square ids (None: nothing can be kept). Also notes whether a step left a reach."""
        ix = self.index()
        origin = ix.id_of(start)
        if origin is None:
            return None
        blocked, taken = self.barred()
        stop = limit
        if only is not None or isinstance(want, frozenset):
            # A finite set of squares to keep: stop once every one that could be kept was. A square the budget
            # cannot reach even with no creature in the way cannot be reached; nor can one a blocking enemy stands
            # on; nor, searching safely, one outside a reach the mover stands in (it may not leave it). None of
            # this changes what is kept, only when the search may stop.
            pool = only if only is not None else want
            assert isinstance(pool, frozenset)
            fences = [r.inside for r in reaches if start in r.inside] if safe else []
            keep, count = goals(ix, pool, origin, budget_ft, blocked, taken if only is None else None, fences)
            if count == 0:
                return None
            stop = count if stop is None else min(stop, count)
        elif want is None:
            keep = bytearray(b"\x01") * len(ix.squares)
        else:
            keep = bytearray(len(ix.squares))
            for at, sq in enumerate(ix.squares):
                if not taken[at] and want(sq):
                    keep[at] = 1
        keep[origin] = 0  # the start is never kept
        masks = None
        if reaches:
            # The plain and the safe search of one decision weigh the same reaches: build their bits once. The
            # entry holds the reaches it was built for and is compared by identity, so it is never stale.
            held = self._reach_bits
            if held is None or held[0] is not reaches:
                held = self._reach_bits = (reaches, reach_bits(ix, [r.inside for r in reaches]))
            masks = held[1]
        return search(ix, origin, budget_ft, blocked, keep, stop, masks, safe)


@dataclass(frozen=True, slots=True)
class Route:
    """A way to a square this turn.

    Attributes:
        to: Where it ends.
        path: The squares entered, in order (empty: staying put).
        feet: What the path costs.
        actions: Actions it takes (a Step or a Stride is one, two Strides two).
        step: It is a Step (ACT-3): it provokes nothing.
        provokers: Enemies whose reach it leaves (RX-21), each of which may take an Attack of Opportunity.
    """

    to: Square
    path: tuple[Square, ...]
    feet: int
    actions: int
    step: bool
    provokers: tuple[str, ...]


def provokers_along(graph: MoveGraph, reaches: Sequence[Reach], start: Square,
                    path: Iterable[Square]) -> tuple[str, ...]:
    """The enemies whose reach a path leaves (each can react once)."""
    found: list[str] = []
    here = start
    for sq in path:
        for eid in leaving(reaches, here, sq):
            if eid not in found:
                found.append(eid)
        here = sq
    return tuple(found)


def can_move(state: EncounterState, c: Combatant) -> bool:
    """Whether it can Stride or Step now: on a map, standing, not riding, speed above 0."""
    return (state.board is not None and c.position is not None and c.mounted_on is None
            and not c.has(Condition.PRONE) and speed_ft(c, state) > 0)


def routes(state: EncounterState, c: Combatant, max_actions: int, graph: MoveGraph | None = None,
           reaches: Sequence[Reach] | None = None, near: Sequence[Sequence[Square]] = (), within_ft: int = 0,
           limit: int | None = None) -> dict[Square, Route]:
    """Squares it can end on with up to ``max_actions`` (at most two) movement actions, and the best way there.

    Every Step (ACT-3) is included; Stride destinations are the nearest ``limit`` squares within
    ``within_ft`` of one of the ``near`` spaces. The best way to a square is a Step when one reaches it,
    else the cheapest path that provokes nothing, else the cheapest path. Staying put is included (no
    actions). Results are cached: the same board, creatures and budget give the same routes.
    """
    start = c.position
    if start is None:
        return {}
    g = graph or MoveGraph.of(state, c)
    threat = threats(state, c) if reaches is None else tuple(reaches)
    key = None
    if state.board is not None:
        key = (id(state.board), start, g.size, g.blocked, g.occupied, g.alternating, max_actions,
               speed_ft(c, state), can_move(state, c), tuple((r.id, r.inside) for r in threat),
               tuple(tuple(s) for s in near), within_ft, limit, state.ruleset.turn.water_cost,
               c.creature.speeds.swim > 0)
        cached = _ROUTES.get(key)
        if cached is not None and cached[0] is state.board:
            return cached[1]
    found = _routes(state, c, max_actions, g, threat, near, within_ft, limit)
    if key is not None:
        if len(_ROUTES) >= _ROUTES_MAX:
            _ROUTES.clear()
        _ROUTES[key] = (state.board, found)
    return found


_ROUTES: dict[tuple[object, ...], tuple[object, dict[Square, Route]]] = {}
_ROUTES_MAX = 4096


def _routes(state: EncounterState, c: Combatant, max_actions: int, g: MoveGraph, near: Sequence[Reach],
            spaces: Sequence[Sequence[Square]], within_ft: int, limit: int | None) -> dict[Square, Route]:
    start = c.position
    assert start is not None
    found: dict[Square, Route] = {start: Route(start, (), 0, 0, True, ())}
    if max_actions < 1 or not can_move(state, c):
        return found

    wanted = _within_any(spaces, within_ft, g.size)
    search = within_ft > 0 and bool(spaces)
    if not search and not board_only_costs(state):  # only Steps: not worth indexing a board that is not cached
        for dx, dy in _ORDER:
            sq = (start[0] + dx, start[1] + dy)
            if g.cost(start, sq, 0) == SQUARE_FT and g.can_end(sq):
                found[sq] = Route(sq, (sq,), SQUARE_FT, 1, True, ())
        return found
    ix = g.index()
    origin = ix.id_of(start)
    blocked, taken = g.barred()
    if origin is not None:
        # The Steps, from the index: the same squares in the same order as pricing each neighbour with ``g.cost``.
        squares = ix.squares
        for nxt, _, feet in ix.steps[origin * 2]:
            if feet == SQUARE_FT and not blocked[nxt] and not taken[nxt]:
                sq = squares[nxt]
                found[sq] = Route(sq, (sq,), SQUARE_FT, 1, True, ())
    if not search:
        return found
    speed = speed_ft(c, state)
    budget = speed * min(max_actions, 2)
    plain = g._search(start, budget, near, False, wanted, limit, None)
    if plain is None:
        return found
    goals = frozenset(sq for node, _ in plain.kept if (sq := ix.squares[node >> 1]) not in found)
    # When no step the plain search weighed left a reach, the safe search takes exactly the same steps (it only
    # skips such steps) and stops no later, so its ways are the plain ones and none of them provokes.
    safe = g._search(start, budget, near, True, None, None, goals) if near and goals and plain.left_reach else None
    safe_at = {ix.squares[node >> 1]: (safe, node, spent) for node, spent in safe.kept} if safe is not None else {}
    for node, spent in plain.kept:
        sq = ix.squares[node >> 1]
        if sq in found:
            continue
        way, at = plain, node
        if sq in safe_at:
            way, at, spent = safe_at[sq]
        actions = 1 if spent <= speed else 2
        path = way.path(at)
        if actions == 2 and not way.stops_within(at, speed, taken):
            continue
        found[sq] = Route(sq, path, spent, actions, False,
                          provokers_along(g, near, start, path) if plain.left_reach else ())
    return found


def _within_any(spaces: Sequence[Sequence[Square]], within_ft: int, size: int) -> frozenset[Square]:
    """Top-left squares of a ``size`` x ``size`` space within ``within_ft`` of one of ``spaces``."""
    return _within_all(tuple(tuple(space) for space in spaces), within_ft, size)


@lru_cache(maxsize=4096)
def _within_all(spaces: tuple[tuple[Square, ...], ...], within_ft: int, size: int) -> frozenset[Square]:
    """:func:`_within_any` on hashable spaces (pure geometry: cached; allies deciding in turn share targets)."""
    found: set[Square] = set()
    for space in spaces:
        found |= _within(space, within_ft, size)
    return frozenset(found)


def _costs(g: MoveGraph, start: Square, path: Sequence[Square]) -> tuple[int, ...]:
    out: list[int] = []
    here, parity = start, 0
    for sq in path:
        out.append(g.cost(here, sq, parity) or 0)
        parity = (parity + (here[0] != sq[0] and here[1] != sq[1])) % 2
        here = sq
    return tuple(out)


def first_stride(state: EncounterState, c: Combatant, path: Sequence[Square], graph: MoveGraph | None = None) -> tuple[
        Square, ...]:
    """The part of a path one Stride covers: as far as speed allows, ending on a free square."""
    if c.position is None:
        return ()
    g = graph or MoveGraph.of(state, c)
    part = Path(tuple(path), _costs(g, c.position, path)).prefix(speed_ft(c, state), g.can_end)
    return part.squares


def path_to(state: EncounterState, c: Combatant, goal: Callable[[Square], bool],
            graph: MoveGraph | None = None) -> tuple[Square, ...] | None:
    """The cheapest whole path to a square where ``goal`` holds and the mover may stop (None: unreachable)."""
    if c.position is None or state.board is None:
        return None
    g = graph or MoveGraph.of(state, c)
    # The index prices steps as ``g.cost`` does; while steps are priced afresh (the index is not cached), search
    # lazily.
    origin = g.index().id_of(c.position) if board_only_costs(state) else None
    if origin is None:
        found = shortest_path(c.position, lambda sq: g.can_end(sq) and goal(sq), g.cost)
        return None if found is None else found.squares
    return shortest(g.index(), origin, goal, *g.barred())


def edge_squares(state: EncounterState) -> list[Square]:
    """Passable squares on the map's edge, in reading order (the default exits, MOR-20)."""
    board = state.board
    if board is None:
        return []
    ring = [(x, y) for y in range(board.height) for x in range(board.width)
            if x in (0, board.width - 1) or y in (0, board.height - 1)]
    return [sq for sq in ring if board.terrain_at(sq) is not Terrain.IMPASSABLE]


def exits_toward(exits: Sequence[Square], origin: Square | None, direction: tuple[int, int]) -> list[Square]:
    """The exits within 45 degrees of ``direction`` as seen from ``origin`` (an animal's random flight, MOR-24)."""
    if origin is None:
        return []
    dx, dy = direction
    out = []
    for sq in exits:
        vx, vy = sq[0] - origin[0], sq[1] - origin[1]
        dot = vx * dx + vy * dy
        # cos(angle) >= cos(45°)  <=>  2 * dot^2 >= |v|^2 |d|^2, with dot > 0 (exact integer arithmetic)
        if dot > 0 and 2 * dot * dot >= (vx * vx + vy * vy) * (dx * dx + dy * dy):
            out.append(sq)
    return out


def nearest_enemy_ft(state: EncounterState, c: Combatant, space: Sequence[Square]) -> int:
    """Feet from a space to the nearest enemy still standing (a large number when there is none)."""
    gaps = [gap_ft(space, e.space) for e in state.enemies_of(c.id) if e.is_active and e.space]
    return min(gaps, default=10_000)


def flee_path(state: EncounterState, c: Combatant, exits: Sequence[Square],
              graph: MoveGraph | None = None) -> tuple[Square, ...] | None:
    """The way out: the cheapest path to an exit no enemy is nearer to than the mover, else to any exit.

    None when no exit can be reached (or the mover already stands on one).
    """
    if c.position is None or state.board is None:
        return None
    g = graph or MoveGraph.of(state, c)
    doors = set(exits) if exits else set(edge_squares(state))
    if c.position in doors:
        return None
    here = nearest_enemy_ft(state, c, c.space)
    safe = {sq for sq in doors if nearest_enemy_ft(state, c, g.space(sq)) >= min(here, gap_ft(
        c.space, g.space(sq)))}
    for wanted in (safe, doors):
        if not wanted:
            continue
        path = path_to(state, c, wanted.__contains__, g)
        if path:
            return path
    return None
