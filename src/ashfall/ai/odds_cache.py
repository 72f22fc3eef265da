"""Expected values from the exact odds (:mod:`ashfall.odds`), cached by their inputs, for the tactical AI.

The AI never rolls or samples: every number it weighs comes from the exact odds' whole-number counts
(:func:`ashfall.odds.attack.attack_counts`, :func:`ashfall.odds.attack_odds`'s core, divided into floats),
computed once and cached on a hashable :class:`AttackKey` (bonus, DV, damage, advantage, MAP position,
Power Strike, DR, resistance …). A turn of attacks against one target is the convolution of its attacks'
distributions (:func:`turn_value`), also cached, so a decision on the hot path is dictionary lookups.

Rulesets are not hashed on the hot path: :func:`ruleset_token` maps each ruleset object to a small integer
once (equal rulesets share a token).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ashfall.core.dice import DiceExpr
from ashfall.core.modifiers import Advantage
from ashfall.odds.attack import attack_counts
from ashfall.odds.contest import contest_odds
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import ContestTie

_BY_ID: dict[int, int] = {}
_BY_VALUE: dict[str, int] = {}
_RULESETS: list[Ruleset] = []
_KEEP: list[Ruleset] = []
"""Every ruleset object seen, kept alive so that its ``id`` is never reused for another object."""
_KEEP_MAX = 1024


def ruleset_token(ruleset: Ruleset) -> int:
    """A small integer standing for the ruleset in cache keys (equal rulesets get the same token)."""
    token = _BY_ID.get(id(ruleset))
    if token is None:
        if len(_KEEP) >= _KEEP_MAX:
            _KEEP.clear()
            _BY_ID.clear()
        value = ruleset.model_dump_json()
        token = _BY_VALUE.get(value)
        if token is None:
            token = len(_RULESETS)
            _RULESETS.append(ruleset)
            _BY_VALUE[value] = token
        _KEEP.append(ruleset)
        _BY_ID[id(ruleset)] = token
    return token


def ruleset_of(token: int) -> Ruleset:
    """The ruleset a token stands for."""
    return _RULESETS[token]


_EXPRS: dict[tuple[DiceExpr, DiceExpr | None], int] = {}
_EXPR_LIST: list[tuple[DiceExpr, DiceExpr | None]] = []


def damage_token(hit: DiceExpr, crit: DiceExpr | None = None) -> int:
    """A small integer standing for a hit's damage and a crit's in cache keys (hashing the expressions once).

    ``crit``: the damage of a critical hit as the rules build it
    (:func:`~ashfall.rules.damage_ledger.damage_expression`, ``attack.crit_dice``); None doubles every
    die of ``hit``.
    """
    key = (hit, crit)
    token = _EXPRS.get(key)
    if token is None:
        token = _EXPRS[key] = len(_EXPR_LIST)
        _EXPR_LIST.append(key)
    return token


def expr_token(expr: DiceExpr) -> int:
    """:func:`damage_token` of an expression whose dice are all the weapon's (a crit doubles every die)."""
    return damage_token(expr)


def expr_of(token: int) -> DiceExpr:
    """The damage of a hit a token stands for."""
    return _EXPR_LIST[token][0]


def crit_expr_of(token: int) -> DiceExpr | None:
    """The damage of a critical hit a token stands for (None: every die of the hit's doubled)."""
    return _EXPR_LIST[token][1]


class AttackKey(NamedTuple):
    """Everything the exact odds of one attack depend on.

    Attributes:
        bonus: Attack bonus before MAP and Power Strike (situational and activity modifiers included).
        dv: The target's DV against this attack.
        damage: Damage on a hit and on a crit (:func:`damage_token`).
        advantage: Net advantage state (G-21), by its value ("normal", "advantage", "disadvantage").
        attack_number: Its place for MAP: 1 + earlier attacks this turn that count (MAP-1, E-01).
        power_strike: A Power Strike (MAA-5).
        dr: The target's DR against the damage type.
        resist: The target resists it.
        vulnerable: The target is vulnerable to it.
        immune: The target is immune to it.
        auto_crit: Every hit is a crit (CRIT-5, CS-6); modelled by doubling the dice of a hit.
        rules: :func:`ruleset_token` of the ruleset.
    """

    bonus: int
    dv: int
    damage: int
    advantage: str
    attack_number: int
    power_strike: bool
    dr: int
    resist: bool
    vulnerable: bool
    immune: bool
    auto_crit: bool
    rules: int


class AttackValue(NamedTuple):
    """One attack's odds as floats: mean damage, hit chance and the damage distribution (index = damage)."""

    expected: float
    p_hit: float
    dist: tuple[float, ...]


class TurnValue(NamedTuple):
    """Several attacks on one target: mean damage capped at its HP, the chance to drop it, and the plain mean."""

    capped: float
    p_drop: float
    expected: float


@lru_cache(maxsize=1 << 16)
def attack_value(key: AttackKey) -> AttackValue:
    """The odds of one attack as floats (:meth:`ashfall.odds.attack.AttackCounts.float_distribution`), cached by key.

    An automatic crit (CRIT-5) deals a crit's damage on every hit; a natural 20 then doubles every die again, a
    small overestimate the exact odds module has no switch for.
    """
    expr = expr_of(key.damage)
    crit = crit_expr_of(key.damage)
    if key.auto_crit:
        expr, crit = (expr.doubled() if crit is None else crit), None
    # The exact counts divided into floats (the float path's division, without numpy): each float is the one
    # nearest the exact Fraction, as float(Fraction) gave before, without building the Fractions.
    counts = attack_counts(
        key.bonus, key.dv, expr, ruleset=ruleset_of(key.rules), advantage=Advantage(key.advantage),
        attack_number=key.attack_number, power_strike=key.power_strike, dr=key.dr, resist=key.resist,
        vulnerable=key.vulnerable, immune=key.immune, crit_damage=crit,
    )
    return AttackValue(counts.damage_numerator / counts.denominator, counts.hits / counts.d20_total,
                       counts.float_distribution())


@lru_cache(maxsize=1 << 16)
def total_distribution(keys: tuple[AttackKey, ...]) -> tuple[float, ...]:
    """The distribution of the total damage of independent attacks (index = damage)."""
    if not keys:
        return (1.0,)
    if len(keys) == 1:
        return attack_value(keys[0]).dist
    head = total_distribution(keys[:-1])
    last = attack_value(keys[-1]).dist
    out = [0.0] * (len(head) + len(last) - 1)
    nonzero = [(j, q) for j, q in enumerate(last) if q]  # adding 0.0 changes no sum: skip those terms
    for i, p in enumerate(head):
        if p:
            for j, q in nonzero:
                out[i + j] += p * q
    return tuple(out)


@lru_cache(maxsize=1 << 17)
def turn_value(keys: tuple[AttackKey, ...], hp: int) -> TurnValue:
    """Mean damage capped at ``hp``, the chance the total reaches ``hp`` (0 HP: DEATH-1) and the plain mean."""
    dist = total_distribution(keys)
    capped = p_drop = expected = 0.0
    for dealt, p in enumerate(dist):
        expected += dealt * p
        if dealt >= hp:
            p_drop += p
            capped += hp * p
        else:
            capped += dealt * p
    return TurnValue(capped, p_drop, expected)


@lru_cache(maxsize=1 << 14)
def turn_values(keys: tuple[AttackKey, ...], most: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """:func:`turn_value`'s capped mean and drop chance at every HP from 1 to ``most`` at once (index ``hp - 1``).

    Each float equals :func:`turn_value`'s, bit for bit: row ``hp - 1`` holds the same terms (``dealt * p`` below
    ``hp``, ``hp * p`` from it on; ``p`` from it on for the drop chance, 0.0 before, which adds nothing), summed
    one float addition at a time from 0 damage up (``np.add.accumulate`` is that running sum, never pairwise). The
    arrays are shared by every caller: read-only.
    """
    dist = np.array(total_distribution(keys), np.float64)[None, :]
    hp = np.arange(1, most + 1, dtype=np.float64)[:, None]
    dealt = np.arange(dist.shape[1], dtype=np.float64)[None, :]
    reached = dealt >= hp
    capped = np.add.accumulate(np.where(reached, hp * dist, dealt * dist), axis=1)[:, -1]
    p_drop = np.add.accumulate(np.where(reached, dist, 0.0), axis=1)[:, -1]
    capped.flags.writeable = False
    p_drop.flags.writeable = False
    return capped, p_drop


@lru_cache(maxsize=4096)
def contest_win(initiator: int, defender: int, reroll_ties: bool) -> float:
    """Exact chance that d20 + ``initiator`` beats d20 + ``defender`` (:func:`ashfall.odds.contest.contest_odds`)."""
    return float(contest_odds(initiator, defender, ContestTie.REROLL if reroll_ties else ContestTie.STATUS_QUO))


_DERIVED: list[Callable[[], None]] = []
"""The ``cache_clear`` of caches built from these values elsewhere (:func:`clears_with_odds`)."""


def clears_with_odds(clear: Callable[[], None]) -> None:
    """Have :func:`clear_caches` also empty a cache built from these values in another module.

    Such modules import this one, so this one cannot name their caches itself.
    """
    _DERIVED.append(clear)


def clear_caches() -> None:
    """Empty every cache of values derived from the odds, here and registered (tests, long sweeps)."""
    for clear in _DERIVED:
        clear()
    attack_value.cache_clear()
    total_distribution.cache_clear()
    turn_value.cache_clear()
    turn_values.cache_clear()
    contest_win.cache_clear()
