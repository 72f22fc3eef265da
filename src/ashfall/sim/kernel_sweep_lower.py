"""The AI's Sweeping Strike among several enemies in its target choice for a scripted plan, as parts (SWP-1..3, E-37).

Under edition 2 the AI's candidates where it stands weigh a Sweeping Strike with each melee option (E-10: 2
actions, one attack at -2 plus MAP on the primary target, and on up to ``sweeping_targets - 1`` further targets
within the option's reach an attack with the weapon's dice only, SWP-3; one attack for MAP). ``openers.multi_targets``
ranks the targets the option can attack from the square by their single-attack worth (one attack at MAP 1 capped at
their HP, over their HP; the first of equals first) and gives each primary target the next best ones (no spread
limit: all are within reach); ``plans.drafts_for`` walks the sweep drafts beside the single-target ones and those
opened by Trip or Feint (which never sweep), and ``best_valued`` keeps the first best by ``plan_key``.

A draft's worth is a sum, in the AI's order (the primary target, then its further targets in group order), of parts
each depending on one target's HP: the layout of :class:`~ashfall.sim.kernel_burst_lower.BurstTables` holds them
(``xo`` there is the option's slot here: 0 the first melee option, ``k`` the ``k``-th further one). The further
targets' parts and worth are keyed by their code plus ``codes`` when they lie prone (their odds inputs read with
them prone, C-PRO); each setting's drafts by the primary target standing (0) or prone (1: Feint only, TRP-3), with
the openers of ``kernel_weapons_lower._option_settings``' setting where it stands. Only a scripted plan's target
choice weighs them (``kernel_ai_lower.asks_the_ai``): the plan itself never sweeps, so nothing is rolled; the AI's
own Sweeping Strike stays named (``ai_problem``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ashfall.ai.odds_cache import contest_win, ruleset_token, turn_values
from ashfall.ai.plans import Block, Setting, drafts_for
from ashfall.ai.profile import AttackOption, base_for
from ashfall.ai.sight import situation_of
from ashfall.ai.turn import TurnView
from ashfall.core.types import Condition, Skill
from ashfall.engine import Combatant
from ashfall.grid.board import SQUARE_FT
from ashfall.rules.checks import maneuver_stats, stat_modifier
from ashfall.rules.damage_defenses import Defenses
from ashfall.ruleset.sections import ContestTie
from ashfall.sim.kernel_burst_lower import BurstTables, DraftParts, draft_rows, empty_bursts, worth_row
from ashfall.sim.kernel_maneuvers import FEINT_FIRST, TRIP_FIRST, _feint_legal, _trip_legal, with_conditions
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.setups import Fight

SWEEP = 7
"""A plan's first block Sweeping Strike, as the kernel's code (after ``kernel_burst_lower.BURST``; below
``kernel_maneuvers.FEINT_FIRST``)."""
_PLACEHOLDER = "\x00swept-"
"""Ids standing for the further targets while a setting's drafts are walked (their keys are read by MAP position)."""
_HUGE = 1 << 30
"""``multi_targets``' spread for Sweeping Strike: none (every target is within the option's reach)."""


def _first_of(block: Block) -> int | None:
    """A sweep setting's first block as the kernel's code (a target choice's: a Feint first only ranks the target)."""
    from ashfall.sim.kernel_ai_lower import FIRST_BLOCKS

    return {Block.SWEEP: SWEEP, Block.TRIP: TRIP_FIRST, Block.FEINT: FEINT_FIRST}.get(block, FIRST_BLOCKS.get(block))


def weighs_sweeps(turn: TurnView, option: AttackOption) -> bool:
    """Whether the AI's target choice weighs a Sweeping Strike with ``option`` taking a second target (SWP-1)."""
    state = turn.state
    return not option.ranged and state.ruleset.attack.sweeping_targets > 1 and \
        len(state.enemies_of(turn.c.id)) > 1 and Block.SWEEP in turn.available(option)


def lower_sweeps(fight: Fight, roster: Sequence[Combatant], views: Sequence[int], max_map: int, actions: int,
                 hp_most: int, chooser: Sequence[int]) -> BurstTables:
    """The sweep tables of the scripted plans whose target choice weighs them (``chooser[i]`` 1), under edition 2.

    Each melee option of 5-ft reach (a first option of 10 ft too, as ``lower_ai`` reads it) in every situation code
    its attack may have: each target's worth and its part as a further target, standing and prone, and the drafts of
    the setting where it stands against the target standing and prone, every MAP so far, actions left and number of
    further targets, as rows of parts (``kernel_burst_lower.draft_rows``: its further targets' keys checked).
    """
    from ashfall.sim import kernel_weapons_lower as kw  # they import this module
    from ashfall.sim.kernel_ai_lower import _melee_code

    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    opts = [kernel_options(c, state) for c in roster]
    turns = {i: TurnView(fight.engine, c, ()) for i, c in enumerate(roster) if i < len(chooser) and chooser[i] == 1}
    weighed = [(i, s, o) for i, turn in turns.items() for s, o in enumerate(opts[i]) if weighs_sweeps(turn, o)]
    if not weighed:
        return empty_bursts(n)
    slots = max(len(opts[i]) for i, _, _ in weighed)
    codes = 4 * len(views)
    limit = rs.attack.sweeping_targets
    numbers = max_map + actions + 1
    token = ruleset_token(rs)
    reroll = rs.checks.contest_tie is ContestTie.REROLL
    on = np.zeros((n, slots), np.int64)
    worth = np.full((n, slots, n, 2 * codes, hp_most), -1.0)
    further = np.zeros((n, slots, n, 2 * codes, numbers, hp_most))
    lists = np.full((n, slots, 2, n, codes, max_map, actions + 1, limit - 1), -1, np.int64)
    parts = DraftParts(hp_most)
    for i, s, o in weighed:
        on[i, s] = 1
        c, costs = roster[i], turns[i].costs(o)
        bonus, plain = costs.multi_bonus[Block.SWEEP], turns[i].available(o) - {Block.SWEEP, Block.FULL_AUTO}
        flanks = s == 0 or bool(state.allies_of(c.id))  # as ``lower_ai`` and ``lower_options`` read the codes
        mine = max(stat_modifier(c.creature, x) for x in maneuver_stats(rs))
        for j, t in enumerate(roster):
            if t.side == c.side:
                continue
            feint = contest_win(stat_modifier(c.creature, Skill.DECEPTION), stat_modifier(t.creature, Skill.INSIGHT),
                                reroll) if _feint_legal(fight, c, t) else None
            theirs = max(stat_modifier(t.creature, x) for x in maneuver_stats(rs))
            trip_odds = contest_win(mine, theirs, reroll) if _trip_legal(fight, c, t) else None
            for code in range(codes):
                flanking, close, seen = bool(code & 1), bool(code & 2), views[code // 4]
                if (flanking and not flanks) or not (close or (s == 0 and o.limit_ft > SQUARE_FT)):
                    continue  # the AI attacks from within the option's reach (ATK-1), flanking only with allies
                sit = situation_of(_melee_code(flanking, close, close, seen))
                base = None
                for lying in (False, True):
                    with with_conditions(t, *((Condition.PRONE,) if lying else ())):  # as ``_base_in`` reads it
                        defenses = Defenses.of_creature(t.creature, t.armor, t.condition_set)
                        b = base_for(state, c, t, o, sit, token, defenses, (c.condition_set, t.condition_set))
                    if b is None:
                        continue
                    if not lying:
                        base = b
                    at = code + codes * lying
                    worth[i, s, j, at] = worth_row(b, hp_most)
                    for number in range(1, numbers):
                        further[i, s, j, at, number] = turn_values(
                            (b.key(number, extra=bonus, dice_only=True),), hp_most)[0]
                if base is None:
                    continue
                settings = kw._option_settings(fight, c, t, o, sit, base, plain, False, True, feint, trip_odds)
                for target_base, prone, available, odds, into in settings:
                    if kw.FULL not in into and kw.FULL + kw.PRONE not in into:
                        continue  # a square it moves to: no group (``TurnView.setting(full=False)``)
                    var = 0 if kw.FULL in into else 1
                    for g in range(1, limit):
                        others = tuple(f"{_PLACEHOLDER}{k}" for k in range(g))
                        bases = {t.id: target_base, **{x: target_base for x in others}}
                        for steps in range(max_map):
                            for left in range(1, actions + 1):
                                setting = Setting(o, bases, prone, {}, {Block.SWEEP: {t.id: others}}, steps, None,
                                                  available | {Block.SWEEP}, odds)
                                drafts = tuple(drafts_for(t.id, setting, costs, left, openers=True))
                                found = draft_rows(drafts, t.id, others, target_base, bonus, parts.row_of,
                                                   _first_of, dice_only=True)
                                lists[i, s, var, j, code, steps, left, g - 1] = parts.listed(found)
    return parts.tables(on, np.array([limit, _HUGE], np.int64), worth, further, lists)


__all__ = ["SWEEP", "lower_sweeps", "weighs_sweeps"]
