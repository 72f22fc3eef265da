"""Attack situations read off the map fast, for many what-if squares: the facts the attack pipeline reads.

:func:`ashfall.engine.attacking.situation` reads one attack's situation off the battlefield. The AI asks the
same question for dozens of squares a creature could stand on, so :class:`Sights` answers it from data
gathered once per decision: every creature's space and conditions, who stands within 5 ft of a hostile
(AMOD-7), which allies threaten each target (flanking, POS-1; edition 2: not while down, POS-3), cover
along the centre line from the board cache (COV-1..3, G-37; a creature leaning out of cover goes through
the engine's :func:`~ashfall.engine.attacking.cover_level`, COV-4), high ground (POS-4), flat-footed in a
surprise round (FF-1) and unseen attackers (AMOD-5). A test compares it with the engine's own reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ashfall.ai.board_cache import gap_ft, sightline
from ashfall.core.types import Condition
from ashfall.engine.attacking import Situation, cover_level, leaning_out
from ashfall.engine.moves.common import melee_reach
from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square
from ashfall.grid.geometry import flanks, high_ground
from ashfall.rules import conditions as cond
from ashfall.rules.activities import provides_flanking
from ashfall.rules.defense import Cover

COVER = {CoverLevel.NONE: Cover.NONE, CoverLevel.PARTIAL: Cover.PARTIAL, CoverLevel.HEAVY: Cover.HEAVY,
         CoverLevel.TOTAL: Cover.TOTAL}
Space = tuple[Square, ...]


@dataclass(slots=True)
class Sights:
    """Situations between creatures, one of them possibly moved to a what-if space (cached per decision).

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
    _cache: dict[tuple[str, Space, str, Space, bool], Situation] = field(default_factory=dict)
    _near_sets: dict[tuple[str, str | None], frozenset[Square]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for c in self.state.combatants.values():
            self.spaces[c.id] = c.space
            self.conditions[c.id] = c.condition_set

    def _can_threaten(self, c: Combatant) -> bool:
        """Up and not incapacitated: it counts as a hostile within 5 ft (AMOD-7)."""
        found = self._threatening.get(c.id)
        if found is None:
            found = c.is_active and bool(self.spaces[c.id]) and Condition.INCAPACITATED not in cond.expand(
                self.conditions[c.id], self.state.ruleset)
            self._threatening[c.id] = found
        return found

    def situation(self, attacker: Combatant, a_space: Space, target: Combatant, t_space: Space,
                  ranged: bool) -> Situation:
        """The situation of ``attacker`` on ``a_space`` attacking ``target`` on ``t_space``.

        Either creature may stand somewhere it does not (a what-if); everyone else stands where they do.
        """
        key = (attacker.id, a_space, target.id, t_space, ranged)
        found = self._cache.get(key)
        if found is None:
            found = self._read(attacker, a_space, target, t_space, ranged)
            self._cache[key] = found
        return found

    def _read(self, attacker: Combatant, a_space: Space, target: Combatant, t_space: Space,
              ranged: bool) -> Situation:
        state = self.state
        board = state.board
        on_map = bool(a_space and t_space)
        cover, hg = Cover.NONE, False
        if board is not None and on_map:
            if state.effects and leaning_out(state, attacker):
                here = attacker.standing_on(a_space[0]) if a_space != self.spaces[attacker.id] else attacker
                there = target.standing_on(t_space[0]) if t_space != self.spaces[target.id] else target
                cover = COVER[cover_level(state, here, there)]
                hg = high_ground(board, a_space, t_space)
            else:
                level, hg = sightline(board, a_space, t_space)
                cover = COVER[level]
        close = gap_ft(a_space, t_space) <= SQUARE_FT if on_map else not ranged
        return Situation(
            flanking=not ranged and on_map and any(flanks(a_space, ally, t_space)
                                                   for ally in self._allies_threatening(attacker, target, t_space)),
            high_ground=hg,
            hostile_within_5ft=self._hostile_near(attacker, a_space, target, t_space),
            within_5ft=close,
            cover=cover,
            flat_footed=target.surprised and state.round <= 1,
            unseen_attacker=attacker.has(Condition.HIDDEN),
            leaning_out=bool(state.effects) and leaning_out(state, target),
        )

    def _hostile_near(self, attacker: Combatant, a_space: Space, target: Combatant, t_space: Space) -> bool:
        """An enemy of the attacker that is up and not incapacitated stands within 5 ft (AMOD-7).

        The target is counted on ``t_space`` (where it would stand), everyone else where they stand.
        """
        if not a_space:
            return False
        moved = t_space != self.spaces[target.id]
        near = self._near(attacker.side, target.id if moved else None)
        if any(sq in near for sq in a_space):
            return True
        return (moved and target.side != attacker.side and bool(t_space) and self._can_threaten(target)
                and gap_ft(a_space, t_space) <= SQUARE_FT)

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
                if not space or not t_space or ally.health.is_dead:
                    continue
                if provides_flanking(self.conditions[ally.id], state.ruleset) is not None:
                    continue
                if gap_ft(space, t_space) <= melee_reach(ally, state):
                    found.append(space)
            self._flankers[key] = found
        return found

