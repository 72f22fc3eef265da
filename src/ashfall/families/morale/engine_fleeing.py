"""Fleeing NPCs leave the battlefield, or give up when cornered (MOR-20, MOR-23, MOR-19).

A broken or falling-back NPC that steps onto an exit square has fled (MOR-20). At the start of its
turn, one that cannot reach any exit is cornered (MOR-23: a broken NPC surrenders; Fall Back ends).
Exits are the encounter's declared exits, else every passable edge square of the map.
"""

from __future__ import annotations

from ashfall.engine.context import Context
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.morale.engine import break_style, escaped, member_status, settle_cornered
from ashfall.families.morale.rules import MoraleMark, Status
from ashfall.families.movement.moves import step_cost
from ashfall.grid.board import Square, Terrain
from ashfall.grid.paths import reachable
from ashfall.ruleset.sections import BreakBehaviour

_FLEEING = frozenset({Status.FALL_BACK, Status.BROKEN})


def exits_of(state: EncounterState) -> frozenset[Square]:
    """The encounter's exits, else the passable squares of the map's edge."""
    if state.exits:
        return frozenset(state.exits)
    board = state.board
    if board is None:
        return frozenset()
    return frozenset(
        (x, y) for y in range(board.height) for x in range(board.width)
        if (x in (0, board.width - 1) or y in (0, board.height - 1))
        and board.terrain_at((x, y)) is not Terrain.IMPASSABLE
    )


def _fleeing(c: Combatant) -> bool:
    # a charging zealot is broken but does not flee: no exit ends its charge and it is never cornered (MOR-24)
    return (not c.creature.is_pc and c.is_active and member_status(c) in _FLEEING
            and not c.supplies.has(MoraleMark.FLED) and break_style(c) is not BreakBehaviour.CHARGE)


def can_reach_exit(state: EncounterState, c: Combatant) -> bool:
    """Whether some exit can be reached at all (enemies' squares block; allies' don't)."""
    if c.position is None or state.board is None:
        return True
    exits = exits_of(state)
    enemies = {sq for e in state.enemies_of(c.id) if e.is_active for sq in e.space}

    def cost(frm: Square, to: Square, parity: int) -> int | None:
        if to in enemies:
            return None
        return step_cost(state, frm, to, parity)

    return reachable(c.position, exits.__contains__, cost)  # only whether a way exists: no need to weigh paths


def _after_step(ctx: Context, mover: str, frm: Square | None, to: Square | None) -> None:
    c = ctx.state.get(mover)
    if to is not None and _fleeing(c) and to in exits_of(ctx.state):
        escaped(ctx, mover)


def _start_of_turn(ctx: Context, cid: str) -> None:
    c = ctx.state.get(cid)
    if not _fleeing(c) or ctx.state.board is None:
        return
    if c.position in exits_of(ctx.state):
        escaped(ctx, cid)
    elif not can_reach_exit(ctx.state, c):
        settle_cornered(ctx, cid)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.movement_hook("morale-escape", _after_step)
    book.start_of_turn("morale-cornered", _start_of_turn)
