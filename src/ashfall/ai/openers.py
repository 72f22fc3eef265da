"""What only the square the actor stands on adds to a plan setting: openers and multi-target groups.

Feint (FNT-3), Trip (TRP-3) and Aim (E-05) open a plan where the engine allows them, each with its exact
success chance (a d20 contest, :func:`~ashfall.ai.odds_cache.contest_win`); Sweeping Strike and Full Auto
Burst take further targets with each primary target, best single value first (SWP-3, MAA-2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ashfall.ai.odds_cache import contest_win, turn_value
from ashfall.ai.plans import Block
from ashfall.ai.profile import AttackBase, AttackOption
from ashfall.core.types import Condition, Skill
from ashfall.engine import Aim, Feint, Trip
from ashfall.grid.board import Square
from ashfall.rules.checks import maneuver_stats, stat_modifier
from ashfall.ruleset.sections import ContestTie

if TYPE_CHECKING:
    from ashfall.ai.turn import TurnView

_HUGE = 1 << 30
_NO_TRIP = frozenset({Condition.PRONE})
"""A prone creature is not tripped again."""


def multi_targets(view: TurnView, option: AttackOption, bases: dict[str, AttackBase],
                  available: frozenset[Block]) -> dict[Block, dict[str, tuple[str, ...]]]:
    """Further targets for Sweeping Strike / Full Auto Burst with each primary target, best single value first."""
    rs = view.state.ruleset
    out: dict[Block, dict[str, tuple[str, ...]]] = {}
    if len(bases) < 2:
        return out
    worth = {tid: turn_value((b.key(1),), view.hp[tid]).capped / view.hp[tid] for tid, b in bases.items()}
    ranked = sorted(bases, key=lambda tid: -worth[tid])
    for block, limit in ((Block.SWEEP, rs.attack.sweeping_targets), (Block.FULL_AUTO, rs.attack.full_auto_targets)):
        if block not in available:
            continue
        spread = rs.attack.full_auto_spread_ft if block is Block.FULL_AUTO else _HUGE
        per: dict[str, tuple[str, ...]] = {}
        for primary in bases:
            chosen = [primary]
            for other in ranked:
                if other in chosen or len(chosen) >= limit:
                    continue
                if all(view.gap(other, x) <= spread for x in chosen):
                    chosen.append(other)
            if len(chosen) > 1:
                per[primary] = tuple(chosen[1:])
        out[block] = per
    return out


def openers(view: TurnView, square: Square | None, option: AttackOption,
            bases: dict[str, AttackBase]) -> tuple[dict[tuple[Block, str], float], dict[str, AttackBase],
                                                   frozenset[Block]]:
    """Success chances of Feint and Trip against each target, and Aim, where the engine allows them."""
    state, c = view.state, view.c
    odds: dict[tuple[Block, str], float] = {}
    prone: dict[str, AttackBase] = {}
    blocks: set[Block] = set()
    reroll = state.ruleset.checks.contest_tie is ContestTie.REROLL
    if option.ranged:
        if Aim in state.rulebook.actions and view.legal(Aim(c.id)):
            blocks.add(Block.AIM)
            for tid in bases:
                odds[(Block.AIM, tid)] = 1.0
        return odds, prone, frozenset(blocks)
    mine = max(stat_modifier(c.creature, s) for s in maneuver_stats(state.ruleset))
    deception = stat_modifier(c.creature, Skill.DECEPTION)
    for t in view.targets:
        if t.id not in bases:
            continue
        if view.legal(Feint(c.id, t.id)):
            blocks.add(Block.FEINT)
            odds[(Block.FEINT, t.id)] = contest_win(deception, stat_modifier(t.creature, Skill.INSIGHT), reroll)
        if view.legal(Trip(c.id, t.id, option.weapon_id)) and not view.conds[t.id] & _NO_TRIP:
            p = view.base(square, t, option, prone=True)
            if p is not None:
                blocks.add(Block.TRIP)
                theirs = max(stat_modifier(t.creature, s) for s in maneuver_stats(state.ruleset))
                odds[(Block.TRIP, t.id)] = contest_win(mine, theirs, reroll)
                prone[t.id] = p
    return odds, prone, frozenset(blocks)
