"""How outmatched a creature is: the damage the enemies standing now could deal it in one turn.

A rough guide for withdrawing (DOD-1, DOD-2): each enemy's best option, every action a Strike, valued by the
exact odds (MAP included, G-41) and capped at the creature's remaining HP.
"""

from __future__ import annotations

from ashfall.ai.board_cache import gap_ft
from ashfall.ai.odds_cache import turn_value
from ashfall.ai.profile import attack_options
from ashfall.ai.turn import TurnView, hp_left
from ashfall.core.types import Condition


def incoming(view: TurnView) -> float:
    """Expected damage the enemies standing now could deal the actor in one turn of Strikes (a rough guide).

    A Dodge the actor is under does not count: whether it is outmatched does not change by dodging.
    """
    c, state = view.c, view.state
    total = 0.0
    undodged = view.conds[c.id] - {Condition.DODGING}
    actions = state.ruleset.turn.actions_per_turn
    mine = view.spaces.get(c.id, ())
    for e in state.enemies_of(c.id):
        theirs = view.spaces.get(e.id, ())
        if not e.is_active or not theirs or not mine:
            continue
        gap = gap_ft(theirs, mine)
        best = 0.0
        for option in attack_options(e, state):
            if gap > option.limit_ft + (0 if option.ranged else e.creature.speeds.walk):
                continue
            b = view.enemy_base(e, option, c, mine, undodged)
            if b is not None:
                keys = tuple(b.key(n) for n in range(1, actions + 1))
                best = max(best, turn_value(keys, hp_left(c)).expected)
        total += best
    return total
