"""Attack situations read off the map fast, for many what-if squares: the facts the attack pipeline reads.

:func:`ashfall.families.attacks.engine.situation` reads one attack's situation off the battlefield. The AI asks the
same question for dozens of squares a creature could stand on, so :class:`Sights` answers it from data
gathered once per decision, with the engine's own rules for each fact: who counts as a hostile within 5 ft
(:func:`~ashfall.families.attacks.engine.threatens_nearby`, AMOD-7), which allies help flank a target
(:func:`~ashfall.families.attacks.engine.flanking_ally`, POS-1, POS-3, E-22), flat-footed in a surprise round and
unseen attackers (FF-1, AMOD-5), high ground (POS-4) and cover. Cover comes from the board cache (COV-1..3,
G-37), a pure function of the board; when a creature leans out of cover (COV-4) or an intact object may cover
(STC-10) it is the engine's :func:`~ashfall.families.attacks.engine.cover_level` itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ashfall.ai.board_cache import LIMIT, gap_ft, sight_bits, sightline
from ashfall.core.types import Condition
from ashfall.engine import Combatant, EncounterState
from ashfall.families.attacks.engine import (
    Situation,
    cover_level,
    flanking_ally,
    flat_footed_by_surprise,
    leaning_out,
    threatens_nearby,
    unseen_attacker,
)
from ashfall.families.attacks.engine_cover import intact
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square
from ashfall.grid.geometry import flanks, high_ground
from ashfall.rules.defense import Cover

Space = tuple[Square, ...]


COVERS = (Cover.NONE, Cover.PARTIAL, Cover.HEAVY, Cover.TOTAL)
"""The covers in the order of their code (:func:`situation_code`)."""
_COVER_CODE = {CoverLevel.NONE: 0, CoverLevel.PARTIAL: 1, CoverLevel.HEAVY: 2, CoverLevel.TOTAL: 3}
_FLANKING, _HIGH_GROUND, _HOSTILE, _CLOSE, _FLAT_FOOTED, _UNSEEN, _LEANING = 1, 2, 4, 8, 16, 32, 64
_COVER_SHIFT = 7
"""Where a code's two cover bits start."""
_SITUATIONS: dict[int, Situation] = {}
"""Situations by code: a pure table (at most 512 entries), so it is never invalidated."""


def situation_code(sit: Situation) -> int:
    """A situation as a small integer (every field one bit, the cover two): equal codes, equal situations."""
    return (sit.flanking * _FLANKING | sit.high_ground * _HIGH_GROUND | sit.hostile_within_5ft * _HOSTILE
            | sit.within_5ft * _CLOSE | sit.flat_footed * _FLAT_FOOTED | sit.unseen_attacker * _UNSEEN
            | sit.leaning_out * _LEANING | COVERS.index(sit.cover) << _COVER_SHIFT)


def situation_of(code: int) -> Situation:
    """The situation a code stands for (one shared frozen object per code)."""
    found = _SITUATIONS.get(code)
    if found is None:
        found = _SITUATIONS[code] = Situation(
            flanking=bool(code & _FLANKING), high_ground=bool(code & _HIGH_GROUND),
            hostile_within_5ft=bool(code & _HOSTILE), within_5ft=bool(code & _CLOSE),
            cover=COVERS[code >> _COVER_SHIFT], flat_footed=bool(code & _FLAT_FOOTED),
            unseen_attacker=bool(code & _UNSEEN), leaning_out=bool(code & _LEANING))
    return found


@dataclass(slots=True)
class Sights:
    """Situations between creatures, one of them possibly moved to a what-if space (cached per decision).

    Everything cached here is read off one state and lives as long as the decision that built it.

    Attributes:
        state: The encounter (read only).
        spaces: Every creature's space now.
        conditions: Every creature's conditions now.
    """

    state: EncounterState
    spaces: dict[str, Space] = field(default_factory=dict)
    conditions: dict[str, frozenset[Condition]] = field(default_factory=dict)
    _threatening: dict[str, bool] = field(default_factory=dict)
    _flankers: dict[tuple[str, str, Space], list[Space]] = field(default_factory=dict)
    _cache: dict[tuple[str, Space, str, Space, bool], int] = field(default_factory=dict)
    _near_sets: dict[tuple[str, str | None], frozenset[Square]] = field(default_factory=dict)
    _lean: dict[str, bool] = field(default_factory=dict)
    _pairs: dict[tuple[str, str], tuple[int, Space, frozenset[Square], bool, bool]] = field(default_factory=dict)
    _lines: dict[tuple[Space, Space], int] = field(default_factory=dict)
    """The board's cover and high-ground bits by pair of spaces (:func:`~ashfall.ai.board_cache.sight_bits`)."""
    _objects: bool = False
    """Some intact object may give cover (STC-10): the board alone does not tell the cover."""

    def __post_init__(self) -> None:
        for c in self.state.combatants.values():
            self.spaces[c.id] = c.space
            self.conditions[c.id] = c.condition_set
        if self.state.board is not None:
            self._lines = sight_bits(self.state.board)
            self._objects = bool(self.state.environment.objects) and any(True for _ in intact(self.state.environment))

    def _can_threaten(self, c: Combatant) -> bool:
        """Up and not incapacitated: it counts as a hostile within 5 ft (AMOD-7)."""
        found = self._threatening.get(c.id)
        if found is None:
            found = self._threatening[c.id] = threatens_nearby(c, self.conditions[c.id], self.state.ruleset)
        return found

    def _leaning(self, c: Combatant) -> bool:
        """Whether the creature leans out of its cover (COV-4): read once per creature."""
        found = self._lean.get(c.id)
        if found is None:
            found = self._lean[c.id] = bool(self.state.effects) and leaning_out(self.state, c)
        return found

    def situation(self, attacker: Combatant, a_space: Space, target: Combatant, t_space: Space,
                  ranged: bool) -> Situation:
        """The situation of ``attacker`` on ``a_space`` attacking ``target`` on ``t_space``.

        Either creature may stand somewhere it does not (a what-if); everyone else stands where they do.
        """
        return situation_of(self.code(attacker, a_space, target, t_space, ranged))

    def code(self, attacker: Combatant, a_space: Space, target: Combatant, t_space: Space, ranged: bool,
             gap: int = -1) -> int:
        """:meth:`situation` as its :func:`situation_code` (cached).

        ``gap``: the feet between the two spaces when the caller has them already (-1: not known).
        """
        key = (attacker.id, a_space, target.id, t_space, ranged)
        found = self._cache.get(key)
        if found is None:
            found = self._read(attacker, a_space, target, t_space, gap)
            if not ranged:
                if not (a_space and t_space):
                    found |= _CLOSE  # off the map a melee attack is one at hand
                elif any(flanks(a_space, ally, t_space)
                         for ally in self._allies_threatening(attacker, target, t_space)):
                    found |= _FLANKING
            self._cache[key] = found
        return found

    def _pair(self, attacker: Combatant, target: Combatant) -> tuple[int, Space, frozenset[Square], bool, bool]:
        """What :meth:`_read` needs of one attacker-target pair that no square changes (read once per pair).

        The bits no square changes (flat-footed in a surprise round, FF-1; unseen, AMOD-5; the target leaning
        out), the target's space now, the squares within 5 ft of a hostile with the target where it stands,
        whether the attacker leans out (COV-4), and whether the target, moved next to the attacker, counts as a
        hostile within 5 ft (AMOD-7).
        """
        key = (attacker.id, target.id)
        found = self._pairs.get(key)
        if found is None:
            fixed = (flat_footed_by_surprise(self.state, target) * _FLAT_FOOTED
                     | unseen_attacker(attacker) * _UNSEEN | self._leaning(target) * _LEANING)
            found = self._pairs[key] = (
                fixed, self.spaces[target.id], self._near(attacker.side, None), self._leaning(attacker),
                target.side != attacker.side and self._can_threaten(target))
        return found

    def _read(self, attacker: Combatant, a_space: Space, target: Combatant, t_space: Space, gap: int = -1) -> int:
        """The bits melee and ranged attacks share: cover, high ground, within 5 ft, a hostile within 5 ft (AMOD-7).

        For AMOD-7 the target is counted on ``t_space`` (where it would stand), everyone else where they stand.
        """
        pair = self._pairs.get((attacker.id, target.id))  # inline fast paths: ~40k reads a fight set
        code, home, near, lean, threatens = pair if pair is not None else self._pair(attacker, target)
        moved = t_space != home
        if moved:  # the target is counted where it would stand
            moved_near = self._near_sets.get((attacker.side, target.id))
            near = moved_near if moved_near is not None else self._near(attacker.side, target.id)
        hostile = bool(a_space) and not near.isdisjoint(a_space)
        if not (a_space and t_space):
            return code | hostile * _HOSTILE
        state = self.state
        board = state.board
        if board is not None:
            if lean or self._objects:
                here = attacker.standing_on(a_space[0]) if a_space != self.spaces[attacker.id] else attacker
                there = target.standing_on(t_space[0]) if moved else target
                code |= _COVER_CODE[cover_level(state, here, there)] << _COVER_SHIFT
                if high_ground(board, a_space, t_space):
                    code |= _HIGH_GROUND
            else:
                bits = self._lines.get((a_space, t_space))
                if bits is None:  # a pure function of the board and the two spaces (see ``sightline``)
                    level, hg = sightline(board, a_space, t_space)
                    bits = _COVER_CODE[level] << _COVER_SHIFT | hg * _HIGH_GROUND
                    if len(self._lines) >= LIMIT:
                        self._lines.clear()
                    self._lines[(a_space, t_space)] = bits
                code |= bits
        if (gap if gap >= 0 else gap_ft(a_space, t_space)) <= SQUARE_FT:
            code |= _CLOSE
            if moved and threatens:
                hostile = True
        return code | hostile * _HOSTILE

    def _near(self, side: str, without: str | None) -> frozenset[Square]:
        """Squares within 5 ft of a creature hostile to ``side`` that can threaten (one of them left out)."""
        key = (side, without)
        found = self._near_sets.get(key)
        if found is None:
            squares: set[Square] = set()
            for e in self.state.combatants.values():
                if e.side == side or e.id == without or not self._can_threaten(e):
                    continue
                squares.update((x + dx, y + dy) for x, y in self.spaces[e.id] for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            found = self._near_sets[key] = frozenset(squares)
        return found

    def _allies_threatening(self, attacker: Combatant, target: Combatant, t_space: Space) -> list[Space]:
        """Spaces of the attacker's allies that threaten the target and may flank it (POS-1, POS-3, E-22)."""
        key = (attacker.id, target.id, t_space)
        found = self._flankers.get(key)
        if found is None:
            state = self.state
            found = []
            for ally in state.allies_of(attacker.id):
                space = self.spaces[ally.id]
                if flanking_ally(state, ally, self.conditions[ally.id], space, t_space):
                    found.append(space)
            self._flankers[key] = found
        return found

