"""Return Fire among allies in the fight kernel's lowering (RX-29..31, G-56, E-20): who may answer, from where.

Under edition 2 (``turn.return_fire_allies``, E-20) a ranged hit on a creature sets off the Return Fire of every
creature of its side within ``turn.return_fire_ally_ft`` of it (measured from the responder, G-56), itself included:
the engine's ``offer`` asks each creature in reactor order (initiative order), each that is eligible
(``_return_fire_ok``: up, its reaction left, a loaded gun it is trained with and the shooter within that gun's normal
range, RX-31, a creature it can see) is asked by the AI (``reactions.ai``: Return Fire whenever offered, unless the
shooter is walled off, ``_walled_off``), and each that takes it shoots there and then (RX-30: at the ruleset's
penalty, no MAP, a round spent), a hit of its own setting off the shooter's side's Return Fire before the next
creature is asked. A later responder may shoot a shooter an earlier one dropped (``_hostile`` asks only its side):
the Return Fire tables hold every target state (``kernel_lower._downed``).

This module lowers what the compiled fight needs besides :func:`ashfall.sim.kernel_ranged_lower.lower_fire_back`'s
attack tables: the distance an ally's hit sets a responder off from (:func:`fire_ints`) and whether a responder on
one square may answer a shooter on another (:func:`fire_clear`: the engine's ``can_see``, ``return_fire_weapon``'s
total cover, COV-3, and the AI's own ``_walled_off``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ashfall.ai.board_cache import cover
from ashfall.engine import EncounterState
from ashfall.grid.board import CoverLevel, Terrain
from ashfall.grid.geometry import has_line_of_sight
from ashfall.rules.defense import Cover

I64 = npt.NDArray[np.int64]


def fire_ints(state: EncounterState) -> I64:
    """``[ally_ft]``: how near a hit ally must stand to a responder (G-56); -1 where only the creature hit answers."""
    turn = state.ruleset.turn
    return np.array([turn.return_fire_ally_ft if turn.return_fire_allies else -1], np.int64)


def fire_clear(state: EncounterState, eview: I64, views: list[tuple[Cover, bool]]) -> I64:
    """``[rx, ry, sx, sy]``: 1 where a responder on the first square may fire back at a shooter on the second.

    It must see the shooter (``can_see``: on the maps the kernel plays, walls alone block sight, the kernel naming
    light, obscurement and cover objects of total cover), the engine must not refuse the attack for total cover
    (``return_fire_weapon``'s ``check_attack_reach``: the engine's own ``situation`` cover in ``eview``, COV-3), and
    the AI must not decline it (``_walled_off``, the AI's cover). A single 1 where no wall stands.
    """
    board = state.board
    if board is None or not board.walls:
        return np.ones((1, 1, 1, 1), np.int64)
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]
    total = [c is Cover.TOTAL for c, _ in views]
    clear = np.zeros((board.width, board.height, board.width, board.height), np.int64)
    for r in squares:
        for s in squares:
            if r == s:
                continue
            clear[r[0], r[1], s[0], s[1]] = has_line_of_sight(board, (r,), (s,)) and \
                not total[int(eview[r[0], r[1], s[0], s[1]])] and cover(board, (r,), (s,)) is not CoverLevel.TOTAL
    return clear


__all__ = ["fire_clear", "fire_ints"]
