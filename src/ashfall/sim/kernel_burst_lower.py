"""The tactical AI's Full Auto Burst among several enemies, as tables the fight kernel can add up (groundwork).

The AI weighs a burst (MAA-2: 2 actions, one roll at -2 plus MAP against each target's DV, one attack for MAP, a
round per target, G-35) only where it stands (``TurnView.setting(full=True)``). ``openers.multi_targets`` ranks
the targets it can shoot by their single-attack worth (one attack at MAP 1 capped at their HP, over their HP), the
first of equals first, and gives each primary target the next ones within ``full_auto_spread_ft`` of every one
chosen so far (X-12), up to ``full_auto_targets``; ``plans.drafts_for`` walks the burst drafts beside the
single-target ones (a burst's rounds counted per target, ``_ammo_need``) and ``best_valued`` keeps the first best
by ``plan_key``.

A draft's worth at given HP is a sum, in the AI's order (the primary target, then its further targets in group
order), of parts each of which depends on one target's HP only. So the kernel can hold every draft's part on each
target it attacks at every HP and add them at run time (a Python model of that sum, ``tests/kernel/burst_model.py``,
is held bit for bit to the AI's own choice by ``tests/kernel/test_kernel_ai_burst_choice.py``).

The same parts by situation code (:func:`lower_bursts`, :class:`BurstTables`, beside the further-option tables):
each target's worth and a burst's part on a further target by (target, code, MAP position), and every setting's
drafts where it stands (rounds loaded, Aim or aimed, target and code, MAP so far, actions left, further targets) as
rows of parts, the primary target's keys valued once per distinct keys. ``ashfall.kernel.ai.decide`` weighs them
where it stands; the compiled fight plays the burst's one roll against each target's DV with
:mod:`ashfall.sim.kernel_burst_rolls`' tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.odds_cache import AttackKey, ruleset_token, turn_values
from ashfall.ai.plans import Block, Draft, Setting, drafts_for
from ashfall.ai.profile import AttackBase, AttackOption, base_for
from ashfall.ai.sight import situation_of
from ashfall.ai.turn import TurnView
from ashfall.core.types import Condition
from ashfall.engine import Aim, Combatant
from ashfall.rules.damage_defenses import Defenses
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.setups import Fight

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]


def worth_row(base: AttackBase, most: int) -> F64:
    """``multi_targets``' worth of a target at every HP 1..``most`` (index ``hp - 1``): one attack capped, over HP."""
    capped, _ = turn_values((base.key(1),), most)
    return capped / np.arange(1, most + 1, dtype=np.float64)


BURST = 5
"""A further option's first block Full Auto Burst, as the kernel's code (after ``kernel_ranged_lower.RELOAD``)."""
D_ACTIONS, D_FIRST, D_MINE, D_WON, D_NUMBER = 0, 1, 2, 3, 4
"""Columns of :attr:`BurstTables.drafts` (``ashfall.kernel.ai`` reads them by these numbers)."""
_PLACEHOLDER = "\x00further-"
"""Ids standing for the further targets while a setting's drafts are walked (their keys are read by MAP position)."""


@dataclass(frozen=True, slots=True)
class BurstTables:
    """The AI's Full Auto Burst among several enemies where it stands, as parts ``decide`` adds up (G-35, MAA-2, X-12).

    Attributes:
        on: ``[i, xo]`` 1 where that further option weighs bursts among several enemies (:func:`weighs_bursts`).
        ints: ``[full_auto_targets, full_auto_spread_ft, prone halves]`` (the last 1 beside edition 2's openers,
            E-37: targets may lie prone, and ``worth``, ``further`` and the roll tables' codes have a second half for
            a prone target, its odds inputs and DV read with it prone, C-PRO).
        worth: ``[i, xo, j, code, hp - 1]`` ``multi_targets``' worth of target ``j`` in its code (-1.0: no base,
            it cannot be shot in that code; plus the codes' count where it lies prone).
        further: ``[i, xo, j, code, MAP position, hp - 1]`` the capped mean of one burst attack on ``j`` as a
            further target (``base.key(number, extra=multi_bonus)``).
        lists: ``[i, xo, mode, j, code, MAP steps, actions left, further targets - 1]`` the draft list of that setting
            (-1: none), ``mode`` the further-option tables' (rounds loaded, then where it stands or having aimed,
            plus ``kernel_weapons_lower.PRONE`` against a prone primary target beside edition 2's openers).
        start, size: ``[list]`` its first row in ``drafts`` and how many (``drafts_for``'s order).
        drafts: ``[row, column]`` actions, first block code, the primary's keys (a ``vals`` row; if the opener
            fails), those if the opener succeeds (-1: none), the burst's MAP position (-1: no burst).
        opened: ``[row]`` the opener's success chance (-1.0: none).
        vals: ``[row, 0 capped mean / 1 drop chance, hp - 1]`` of one target's keys.
        roll_draws: ``[i, first target, MAP variant, code]`` d20s the burst rolls (``kernel_burst_rolls``; the code
            hostile + 2 within 5 ft + 4 aimed + 8 ``eview``, as ``OptionTables.outcome``'s; plus the codes' count
            where the target lies prone, with prone halves).
        roll_outcome: ``[i, first target, target, MAP variant, first code, its code, face - 1, face - 1]`` the
            outcome against each target (0 miss, 1 hit, 2 crit; the target's code never aimed).
        rules: ``[actions a burst costs, rounds per target, its action name's index, counts for MAP]``.
    """

    on: I64
    ints: I64
    worth: F64
    further: F64
    lists: I64
    start: I64
    size: I64
    drafts: I64
    opened: F64
    vals: F64
    roll_draws: I64 = field(default_factory=lambda: np.ones((1, 1, 1, 1), np.int64))
    roll_outcome: I8 = field(default_factory=lambda: np.zeros((1,) * 6 + (20, 20), np.int8))
    rules: I64 = field(default_factory=lambda: np.array([2, 1, -1, 1], np.int64))


def empty_bursts(n: int) -> BurstTables:
    """Tables of a fight where nobody weighs a burst among several enemies."""
    return BurstTables(np.zeros((n, 1), np.int64), np.zeros(2, np.int64), np.full((1,) * 5, -1.0),
                       np.zeros((1,) * 6), np.full((1,) * 8, -1, np.int64), np.zeros(1, np.int64),
                       np.zeros(1, np.int64), np.full((1, 5), -1, np.int64), np.full(1, -1.0), np.zeros((1, 2, 1)))


def weighs_bursts(turn: TurnView, option: AttackOption) -> bool:
    """Whether the AI may weigh a Full Auto Burst with ``option`` taking a second target (MAA-2, G-35)."""
    state = turn.state
    return state.ruleset.attack.full_auto_targets > 1 and len(state.enemies_of(turn.c.id)) > 1 and \
        Block.FULL_AUTO in turn.available(option)


def lower_bursts(fight: Fight, roster: Sequence[Combatant], actions: int, max_map: int, views: Sequence[int],
                 modes: int, hp_most: int, slots: Mapping[tuple[int, int], int],
                 chooser: Sequence[int] = ()) -> BurstTables:
    """:class:`BurstTables` of the creatures the AI plays, beside edition 2's openers with prone targets too (E-37).

    ``views`` are the AI's view codes, ``modes`` the further-option tables' settings, ``slots`` their ammunition
    slots (``option_slots``); ``chooser[i]`` 1 where a scripted plan asks the AI whom to attack (its bursts are
    weighed, never made: ``kernel_burst_rolls`` lowers no roll for them). The settings are
    ``kernel_weapons_lower._option_settings``' where it stands (Aim may open, E-05) and having aimed, with the
    burst's group: its further targets stand in as placeholders, whose attacks are read back by MAP position (each
    is ``base.key(number, extra=multi_bonus)``, checked). Beside edition 2's openers (``weighs_openers``) each
    target is read standing and lying prone (C-PRO: a gun never opens with a Trip or Feint, but a melee option's Trip
    may have laid the target down), each setting against the primary target prone at the further-option tables' mode
    plus ``PRONE``.
    """
    from ashfall.sim import kernel_weapons_lower as kw  # it calls this module
    from ashfall.sim.kernel_maneuvers import weighs_openers, with_conditions  # it imports the weapons lowering

    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    opts = [kernel_options(c, state) for c in roster]
    played = [isinstance(fight.policies.get(c.id), TacticalPolicy) or (i < len(chooser) and chooser[i] == 1)
              for i, c in enumerate(roster)]
    turns = {i: TurnView(fight.engine, c, ()) for i, c in enumerate(roster) if played[i]}
    weighed = [(i, xo, o) for i, turn in turns.items() for xo, o in enumerate(opts[i][1:])
               if o.ranged and weighs_bursts(turn, o)]
    if not weighed:
        return empty_bursts(n)
    extra = max(len(opts[i]) - 1 for i, _, _ in weighed)
    codes = 4 * len(views)
    limit = rs.attack.full_auto_targets
    numbers = max_map + actions + 1
    token = ruleset_token(rs)
    aim_bonus = rs.attack.aim_bonus
    trip = weighs_openers(fight)  # edition 2's openers: targets may lie prone (E-37, C-PRO)
    lyings = (False, True) if trip else (False,)
    stride = kw.MODES * len(lyings)  # the further-option tables' settings of one number of rounds loaded
    on = np.zeros((n, extra), np.int64)
    worth = np.full((n, extra, n, codes * len(lyings), hp_most), -1.0)
    further = np.zeros((n, extra, n, codes * len(lyings), numbers, hp_most))
    lists = np.full((n, extra, modes, n, codes, max_map, actions + 1, limit - 1), -1, np.int64)
    parts = DraftParts(hp_most)
    for i, xo, o in weighed:
        c, turn = roster[i], turns[i]
        on[i, xo] = 1
        costs = turn.costs(o)
        bonus = costs.multi_bonus[Block.FULL_AUTO]
        plain = turn.available(o) - {Block.SWEEP, Block.FULL_AUTO}
        aim_ok = Aim in state.rulebook.actions and rs.attack.aim_available  # as ``lower_options`` reads it
        for (j, t), lying in ((jt, lying) for jt in enumerate(roster) for lying in lyings):
            if t.side == c.side:
                continue
            for code in range(codes):
                hostile, close, v = bool(code & 1), bool(code & 2), views[code // 4]
                if close and not hostile:
                    continue  # the target beside it is a hostile within 5 ft (AMOD-7)
                with with_conditions(t, *((Condition.PRONE,) if lying else ())):  # as ``_base_in`` reads it
                    defenses = Defenses.of_creature(t.creature, t.armor, t.condition_set)
                    b = base_for(state, c, t, o, situation_of(kw._code(hostile, close, v)), token, defenses,
                                 (c.condition_set, t.condition_set))
                if b is None:
                    continue
                at_code = code + codes * lying  # a prone target's odds inputs in the second half
                worth[i, xo, j, at_code] = worth_row(b, hp_most)
                for number in range(1, numbers):
                    further[i, xo, j, at_code, number] = turn_values((b.key(number, extra=bonus),), hp_most)[0]
                for ammo in (None,) if (i, xo) not in slots else range(slots[(i, xo)] + 1):
                    for mode in (kw.FULL, kw.AIMED):
                        first = replace(b, first_bonus=aim_bonus) if mode == kw.AIMED else b
                        available = plain | {Block.FULL_AUTO} | ({Block.AIM} if mode == kw.FULL and aim_ok else
                                                                 frozenset())
                        odds = {(Block.AIM, t.id): 1.0} if mode == kw.FULL and aim_ok else {}
                        at = stride * (ammo or 0) + mode + (kw.PRONE if lying else 0)
                        for g in range(1, limit):
                            others = tuple(f"{_PLACEHOLDER}{k}" for k in range(g))
                            bases = {t.id: first, **{x: b for x in others}}
                            for steps in range(max_map):
                                for left in range(1, actions + 1):
                                    setting = Setting(o, bases, {}, {}, {Block.FULL_AUTO: {t.id: others}}, steps,
                                                      ammo, frozenset(available), odds)
                                    drafts = tuple(drafts_for(t.id, setting, costs, left, openers=True))
                                    found = draft_rows(drafts, t.id, others, b, bonus, parts.row_of, _burst_first)
                                    lists[i, xo, at, j, code, steps, left, g - 1] = parts.listed(found)
    return parts.tables(on, np.array([limit, rs.attack.full_auto_spread_ft, int(trip)], np.int64), worth, further,
                        lists)


class DraftParts:
    """The draft lists of a multi-target block's settings as rows of parts, each list and each keys' values once."""

    def __init__(self, hp_most: int) -> None:
        self.hp_most = hp_most
        self.known: dict[tuple[object, ...], int] = {}
        self.rows: list[tuple[int, int, int, int, int]] = []
        self.chances: list[float] = []
        self.starts: list[int] = []
        self.sizes: list[int] = []
        self.valued: dict[tuple[AttackKey, ...], int] = {}
        self.vals: list[tuple[F64, F64]] = []

    def row_of(self, keys: tuple[AttackKey, ...]) -> int:
        """The ``vals`` row of one target's keys (valued at every HP once)."""
        if keys not in self.valued:
            self.valued[keys] = len(self.vals)
            self.vals.append(turn_values(keys, self.hp_most))
        return self.valued[keys]

    def listed(self, found: tuple[tuple[tuple[int, int, int, int, int], float], ...]) -> int:
        """The list of a setting's draft rows (:func:`draft_rows`), added where new."""
        if found not in self.known:
            self.known[found] = len(self.starts)
            self.starts.append(len(self.rows))
            self.sizes.append(len(found))
            for row, p in found:
                self.rows.append(row)
                self.chances.append(p)
        return self.known[found]

    def tables(self, on: I64, ints: I64, worth: F64, further: F64, lists: I64) -> BurstTables:
        """The :class:`BurstTables` with these lists' rows."""
        vals = self.vals
        table = np.array([(*np.stack(v),) for v in vals], np.float64) if vals else np.zeros((1, 2, self.hp_most))
        return BurstTables(on, ints, worth, further, lists, np.array(self.starts or [0], np.int64),
                           np.array(self.sizes or [0], np.int64),
                           np.array(self.rows or [(-1,) * 5], np.int64).reshape(-1, 5),
                           np.array(self.chances or [-1.0]), table)


def _burst_first(block: Block) -> int | None:
    """A burst setting's first block as the kernel's code (None: not one it plays)."""
    from ashfall.sim import kernel_weapons_lower as kw

    return BURST if block is Block.FULL_AUTO else kw.FIRST.get(block)


def draft_rows(drafts: Sequence[Draft], target: str, others: tuple[str, ...], b: AttackBase, bonus: int,
               row_of: Any, first_of: Callable[[Block], int | None], *,
               dice_only: bool = False) -> tuple[tuple[tuple[int, int, int, int, int], float], ...]:
    """Each draft's row of parts (:attr:`BurstTables.drafts`) and its opener's chance.

    ``first_of`` gives a first block's code; a further target's attack must be ``b.key(number, extra=bonus)`` at the
    multi-target block's MAP position (``dice_only``: Sweeping Strike's, SWP-3), one per draft (checked).
    """
    out = []
    for d in drafts:
        first = first_of(d.blocks[0])
        if first is None:
            raise ValueError(f"the AI's {d.blocks[0].value} beside a multi-target block (combatant of {target})")
        number = -1
        if d.others:
            if d.others != others:
                raise ValueError("a multi-target draft with other further targets than its setting's")
            keys = [d.attacks[x] for x in others]
            number = keys[0][0].attack_number
            if any(k != [b.key(number, extra=bonus, dice_only=dice_only)] for k in keys):
                raise ValueError("a multi-target block's further attack other than one at its MAP position")
        mine = row_of(tuple(d.attacks[target]))
        won, p = -1, -1.0
        if d.opened is not None:
            p, win = d.opened
            if any(keys for tid, keys in win.items() if tid != target):
                raise ValueError("an opened draft with further targets")
            won = row_of(tuple(win[target]))
        out.append(((d.actions, first, mine, won, number), p))
    return tuple(out)


__all__ = ["BURST", "BurstTables", "DraftParts", "draft_rows", "empty_bursts", "lower_bursts", "weighs_bursts",
           "worth_row"]
