"""Lowering the morale family (MOR) for the fight kernel, and naming what of it the kernel does not play yet.

:func:`morale_problem` names the first morale feature of a fight the kernel lacks (with its rule ID), or None;
:func:`lower_morale` fills :class:`MoraleTables` for :mod:`ashfall.kernel.morale`. No number is copied here:
groups come from the engine's ``group_key`` (MOR-4, the grouping option), immunity from ``immune_rule`` (MOR-2,
MOR-33, MOR-35, MOR-37, G-01), triggers from ``triggers_for`` over every casualty count (MOR-7..9), each
checker's Will from ``morale_will`` (MOR-6, G-01) put through ``group_will`` (MOR-4), the DC from ``morale_dc``
for every set of triggers and being outnumbered or not (``is_outnumbered``, MOR-14, MOR-15, G-02), the outcome
of every d20 face from ``morale_check`` itself (MOR-3, G-03, G-45), statuses from ``next_status`` (MOR-20),
what each type does on breaking from ``break_behaviour`` and ``behaviour`` (MOR-21, MOR-24), the direction die
from ``DIRECTIONS`` (MOR-24), and a cornered NPC's fate from ``cornered`` and ``cornered_behaviour`` (MOR-19,
MOR-23), and where it can flee from ``exits_of`` and ``step_cost`` (MOR-20).

The slice: scripted plans, fights where nobody moves (off the map, or on a map, where a falling-back or broken NPC
flees as its turn starts on an exit square and is cornered when it can reach none), and fights on the move (the
tactical AI's, scripted plans that walk) on a map without exits where nobody surrenders (:func:`moving_problem`);
no Breaking Points (MOR-27),
no fear conditions (MOR-10), no rallies (MOR-25: only the tactical AI rallies), no group member or leader that
falls dying (MOR-8, MOR-9 count drops to 0 HP; a dying one's conditions are events of their own).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.profile import attack_options
from ashfall.core.morale import GroupMorale
from ashfall.core.types import Condition, Save
from ashfall.engine import Combatant
from ashfall.families.morale import rules as mr
from ashfall.families.morale.engine import BREAK_WORDS, Rally, group_key, immune_rule, morale_active
from ashfall.families.morale.engine_fleeing import exits_of
from ashfall.families.morale.rules_behaviour import (
    DIRECTIONS,
    Behaviour,
    behaviour,
    break_behaviour,
    cornered,
    cornered_behaviour,
    dropped_on_break,
)
from ashfall.families.movement.moves import step_cost
from ashfall.rules import conditions as cond
from ashfall.rules.health import falls_dying
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import BreakBehaviour
from ashfall.sim.fight import morale_outcome
from ashfall.sim.kernel_faces import Faces
from ashfall.sim.kernel_ranged_lower import shot_ok
from ashfall.sim.setups import Fight

if TYPE_CHECKING:  # the compiled module imports numba, which deciding and lowering never need
    from ashfall.kernel.morale import MoraleTab

I64 = npt.NDArray[np.int64]
STATUSES = tuple(mr.Status)
"""Status codes (``ashfall.kernel.morale.HOLD`` …), in the enum's order."""
OUTCOMES = tuple(mr.Outcome)
"""Check outcome codes: hold, fall back, break (G-03)."""
STYLES = tuple(BreakBehaviour)
"""Break style codes (what a broken NPC does, MOR-24)."""
TRIGGERS = tuple(mr.Trigger)
"""Trigger bits of a DC mask (bit ``k``: ``TRIGGERS[k]``)."""
NEVER_GIVES_UP, KEEPS_STYLE = -2, -1
D20 = 20


@dataclass(frozen=True, slots=True)
class MoraleTables:
    """Morale as the compiled fight reads it (:mod:`ashfall.kernel.morale`); ``on`` 0 when nobody checks.

    Attributes:
        conf: Morale on, on a map (flight and cornering at turn start), the charge style's code, the AI's broken
            NPCs Stride toward an exit (on the move).
        group: Each combatant's morale group (-1: none, MOR-2, MOR-33, MOR-35, MOR-37), groups in roster order.
        leader: Whether each combatant is a leader (MOR-8).
        will_idx: Each combatant's morale Will as an index into ``wills`` (sorted, so a lower index is lower).
        triggers: ``[group, casualties before, dropped now, leader down, First Blood done]`` -> the DC mask.
        outcome: ``[will, mask, outnumbered, face - 1]`` -> outcome code of a group check.
        next_status: ``[status, outcome]`` -> status after a check (no rally in these fights).
        style: What each combatant does when it breaks (a style code).
        style_rule: ``[style, (die sides drawn, surrenders at once)]``.
        acts: ``[status, style + 1, (attacks, reacts)]`` -> whether it still attacks (MOR-21) and takes reactions
            (MOR-22).
        corner: ``[status]`` -> status once cornered.
        corner_style: ``[style + 1]`` -> style once cornered into surrender (-1: kept, -2: never gives up).
        outnumbered: ``[own side fighting, others fighting]`` -> 1 when outnumbered.
        wills: The Will values, sorted.
        exits: ``[x, y]`` 1 on an exit square (``exits_of``, MOR-20).
        enterable: ``[x, y]`` 1 where a creature may step (``step_cost`` is not None), for ``can_reach_exit``.
        pos: Each combatant's square (where nobody moves).
        rally: Each combatant's row of ``rally_ok`` if it is a leader of the tactical AI's that may rally (G-04,
            MOR-25), else -1.
        rally_ok: ``[leader, DC index, face - 1]`` -> 1 when the leader's rally against that failed DC succeeds.
        dc_idx: ``[mask, outnumbered]`` -> the index of a group check's DC among those a rally is asked against.
        next_rallied: ``[status, outcome]`` -> status after a check once the group was rallied (MOR-26).
        rally_rules: The Rally's action cost, the successful rallies a group may have (G-04, MOR-26).
        rally_name: The Rally's action name (its steps).
    """

    conf: I64
    group: I64
    leader: I64
    will_idx: I64
    triggers: I64
    outcome: I64
    next_status: I64
    style: I64
    style_rule: I64
    acts: I64
    corner: I64
    corner_style: I64
    outnumbered: I64
    wills: tuple[int, ...]
    exits: I64
    enterable: I64
    pos: I64
    rally: I64
    rally_ok: I64
    dc_idx: I64
    next_rallied: I64
    rally_rules: I64
    rally_name: str = "rally"

    @property
    def on(self) -> bool:
        """Someone checks morale in this fight."""
        return bool(self.conf[0])

    def tab(self) -> MoraleTab:
        """The tables plus fresh per-fight state (status, style, counted down, fled; casualties, First Blood)."""
        groups = int(self.group.max()) + 1 if len(self.group) else 0
        return (self.conf, self.group, self.leader, self.will_idx, self.triggers, self.outcome, self.next_status,
                self.style, self.style_rule, self.acts, self.corner, self.corner_style, self.outnumbered,
                np.zeros((len(self.group), 5), np.int64), np.zeros((max(groups, 0), 5), np.int64), self.exits,
                self.enterable, self.pos, self.rally, self.rally_ok, self.dc_idx, self.next_rallied, self.rally_rules)


def _checks(fight: Fight) -> list[Combatant]:
    state = fight.engine.state
    if not morale_active(state):
        return []
    return [c for c in state.combatants.values() if immune_rule(state, c) is None]


def may_rally(fight: Fight, c: Combatant) -> bool:
    """Whether a Rally could ever be legal for ``c`` in this fight (G-04, MOR-25), as the reference AI asks it.

    ``families.dying.ai.rally`` tries only the Rally action's candidates, and ``_rally_candidates`` offers one only to
    a leader while morale is on (E-33, MOR-38), for a morale group of its own side (MOR-4) whose record is falling
    back or broken, which only a failed group check makes it (``after_check``); a PC never rallies. Where no group of
    its side exists (morale off, its side immune: MOR-37) the leader's turn is any other creature's.
    """
    state = fight.engine.state
    if not c.creature.leader or c.creature.is_pc or not morale_active(state):
        return False
    return any(o.side == c.side and group_key(state, o) is not None for o in state.combatants.values())


def morale_problem(fight: Fight) -> str | None:
    """The first morale feature of a fight the kernel does not play yet (named with its rule), or None."""
    state = fight.engine.state
    checkers = _checks(fight)
    if not checkers:
        return None
    if any(isinstance(p, TacticalPolicy) for p in fight.policies.values()):
        problem = moving_problem(fight)  # the tactical AI's fights are on the move
        if problem is not None:
            return problem
    for c in state.combatants.values():
        if c.creature.morale.breaking_points:
            return f"Breaking Points (MOR-27, combatant {c.id})"
        if (c in checkers or c.creature.leader) and falls_dying(c.health, state.ruleset):
            return f"morale for a group member or leader that falls dying (MOR-8, MOR-9, combatant {c.id})"
    return None


def moving_problem(fight: Fight) -> str | None:
    """What of morale on the move (the tactical AI's fights, scripted plans that walk) the kernel lacks, or None.

    The kernel plays morale on the move where nobody ever leaves the fight or changes its ways: a map without exits
    (``exits_of``: none declared, no passable edge square; the AI's own none), so a falling-back NPC is cornered
    back to Hold as its turn starts (MOR-19, MOR-20) and a broken one stays broken where it stands (the ruleset's
    cornered broken NPCs do not surrender, MOR-23), doing nothing but standing up (MOR-21: the AI finds no way out,
    ``TacticalPolicy._flee``) and taking no reactions (MOR-22); broken NPCs that flee or scatter (MOR-24) and keep
    their weapons (no two-handed ones, MOR-21); no guns (a shot and its Return Fire), so that every attack is one
    damage and one morale event (MOR-12); no condition the fight can bring that changes a morale check (G-14).
    """
    state = fight.engine.state
    rs = state.ruleset
    checkers = _checks(fight)
    if not checkers:
        return None
    first = checkers[0].id
    if any(isinstance(p, TacticalPolicy) and p.exits for p in fight.policies.values()):
        return f"the tactical AI's own exits on the move (MOR-20: combatant {first} checks morale)"
    problem = _exit_problem(fight, checkers)
    if problem is not None:
        return problem
    if rs.morale.broken_cornered_surrenders or rs.morale.fall_back_cornered_surrenders:
        return f"surrendering when cornered on the move (MOR-19, MOR-23: combatant {first} checks morale)"
    for c in checkers:
        style = break_behaviour(c.creature.morale.type, rs)
        if style not in (BreakBehaviour.FLEE, BreakBehaviour.SCATTER):
            return f"a broken NPC that {BREAK_WORDS[style]} on the move (MOR-23, MOR-24, combatant {c.id})"
        if dropped_on_break(c.weapons):
            return f"a broken NPC dropping its two-handed weapon on the move (MOR-21, combatant {c.id})"
    for c in state.combatants.values():
        if any(shot_ok(o) for o in attack_options(c, state)):
            return f"shots and Return Fire with morale on the move (MOR-12, combatant {c.id})"
    if cond.save_sources(frozenset({Condition.PRONE, Condition.DAZED}), Save.WILL):
        return "a prone or dazed creature's morale check (G-14)"
    return None


def _exit_problem(fight: Fight, checkers: list[Combatant]) -> str | None:
    """What of fleeing toward an exit on the move the kernel lacks (None on a map without exits).

    It plays a broken NPC of the tactical AI's Striding toward an exit every action (``_flee``, MOR-21) and leaving
    the battlefield as it steps onto one (MOR-20), and a scripted one standing where it is (its plan ends its turn),
    fleeing if its turn starts on an exit. Not falling back (G-03: a check that fails by no more than the ruleset's
    band): the AI's (MOR-17: a Stride, or a Step or a Dodge first when the way out leaves an enemy's reach, DOD-1),
    nor a scripted NPC's, whose plan walks on and attacks after its Stride crossed an exit (the reference's
    ``ScriptedTactics`` does not stop a creature that fled, MOR-20); nor an animal's flight in its rolled direction
    (MOR-24).
    """
    state = fight.engine.state
    if not exits_of(state):
        return None
    rs = state.ruleset
    for c in checkers:
        ai = isinstance(fight.policies.get(c.id), TacticalPolicy)
        if rs.morale.fall_back_band > 0 and ai:
            return (f"the tactical AI's falling back toward an exit on the move (MOR-17, G-03: a Stride, or a Step or "
                    f"a Dodge first, DOD-1; combatant {c.id})")
        if rs.morale.fall_back_band > 0:
            return (f"a falling-back scripted NPC crossing an exit on the move (MOR-17, MOR-20, G-03: combatant "
                    f"{c.id})")
        if ai and break_behaviour(c.creature.morale.type, rs) is BreakBehaviour.FLEE_RANDOM:
            return f"the tactical AI's flight in a rolled direction toward an exit (MOR-24, combatant {c.id})"
    return None


def lower_morale(fight: Fight, roster: list[Combatant], moves: bool) -> MoraleTables:
    """The morale tables of a fight :func:`morale_problem` accepts (``on`` 0 when nobody checks).

    Raises:
        ValueError: Morale on the move (MOR-17, MOR-20) beyond :func:`moving_problem`'s slice.
    """
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    checkers = _checks(fight)
    if not checkers:
        return _off(n)
    if moves:
        problem = moving_problem(fight)
        if problem is not None:
            raise ValueError(problem)
    keys: list[str] = []
    group = np.full(n, -1, np.int64)
    for i, c in enumerate(roster):
        key = group_key(state, c)
        if key is None:
            continue
        if key not in keys:
            keys.append(key)
        group[i] = keys.index(key)
    leader = np.array([c.creature.leader for c in roster], np.int64)
    bases = [mr.morale_will(c.creature, rs) if group[i] >= 0 else None for i, c in enumerate(roster)]
    values = [b.value if b is not None else 0 for b in bases]
    wills = tuple(sorted(set(values)))
    member = {b.value: b for b in bases if b is not None}
    will_idx = np.array([wills.index(v) for v in values], np.int64)
    sizes = [int((group == g).sum()) for g in range(len(keys))]
    most = max(sizes)
    triggers = np.zeros((len(keys), most + 1, most + 1, 2, 2), np.int64)
    for g, size in enumerate(sizes):
        for before, dropped, leader_down, done in product(range(size + 1), range(size + 1), (0, 1), (0, 1)):
            if before + dropped > size:
                continue
            fired = mr.triggers_for(mr.EventFacts(size, before, dropped, bool(leader_down), False, bool(done)), rs)
            triggers[g, before, dropped, leader_down, done] = _mask(fired & mr.GROUP_TRIGGERS)
    masks = 1 << len(TRIGGERS)
    outcome = np.zeros((len(wills), masks, 2, D20), np.int64)
    for w, value in enumerate(wills):
        if value not in member:
            continue  # the place-holder Will of creatures in no group
        basis = mr.group_will([member[value]])  # the group's Will when most of its checkers have this one (MOR-4)
        for mask in range(masks):
            chosen = [t for k, t in enumerate(TRIGGERS) if mask >> k & 1]
            for against in (0, 1):
                dc = mr.morale_dc(chosen, rs, outnumbered=bool(against))
                for face in range(1, D20 + 1):
                    check = mr.morale_check(basis, dc, Faces(face), rs, triggers=chosen)
                    outcome[w, mask, against, face - 1] = OUTCOMES.index(check.outcome)
    next_status = np.array([[STATUSES.index(mr.next_status(s, o, False)) for o in OUTCOMES] for s in STATUSES],
                           np.int64)
    style = np.array([STYLES.index(break_behaviour(c.creature.morale.type, rs)) if group[i] >= 0 else 0
                      for i, c in enumerate(roster)], np.int64)
    style_rule = np.zeros((len(STYLES), 2), np.int64)
    for s, behaviour_ in enumerate(STYLES):
        style_rule[s] = (len(DIRECTIONS) if behaviour_ is BreakBehaviour.FLEE_RANDOM else 0,
                         behaviour_ in (BreakBehaviour.SURRENDER, BreakBehaviour.COWER))
    acts = np.array([[_acts(behaviour(s, rs))] + [_acts(behaviour(s, rs, style=b)) for b in STYLES]
                     for s in STATUSES], np.int64)
    corner = np.array([STATUSES.index(cornered(s, rs)) for s in STATUSES], np.int64)
    corner_style = np.array([_give_up(None, rs)] + [_give_up(b, rs) for b in STYLES], np.int64)
    outnumbered = np.array([[mr.is_outnumbered(own, other) for other in range(n + 1)] for own in range(n + 1)],
                           np.int64)
    board = state.board
    exits = np.zeros((1, 1), np.int64)
    enterable = np.zeros((1, 1), np.int64)
    pos = np.zeros((n, 2), np.int64)
    if board is not None:
        exits = np.zeros((board.width, board.height), np.int64)
        for sq in exits_of(state):
            exits[sq] = 1
        enterable = np.array([[step_cost(state, (x, y), (x, y), 0) is not None for y in range(board.height)]
                              for x in range(board.width)], np.int64)
        for i, c in enumerate(roster):
            assert c.position is not None  # on a map every creature has its square (``_map_problem``)
            pos[i] = c.position
    conf = np.array([1, board is not None, STYLES.index(BreakBehaviour.CHARGE), moves and board is not None], np.int64)
    return MoraleTables(conf, group, leader, will_idx, triggers, outcome, next_status, style, style_rule, acts, corner,
                        corner_style, outnumbered, wills, exits, enterable, pos, *_rallies(fight, roster))


def _rallies(fight: Fight, roster: list[Combatant]) -> tuple[I64, I64, I64, I64, I64, str]:
    """The Rally's tables (G-04, MOR-25, MOR-26), asked of the morale rules.

    Who rallies (a leader of the tactical AI's that ``may_rally``), each one's check against every DC a group check
    can fail (``morale_dc`` for every set of triggers and being outnumbered or not, then ``rally`` itself on a group
    record that failed it, for every d20 face), the statuses after a check once rallied (``next_status``), the
    Rally's cost and the rallies a group may have.
    """
    state = fight.engine.state
    rs = state.ruleset
    masks = 1 << len(TRIGGERS)
    totals = [[mr.morale_dc([t for k, t in enumerate(TRIGGERS) if mask >> k & 1], rs, outnumbered=bool(a)).total
               for a in (0, 1)] for mask in range(masks)]
    dcs = sorted({dc for row in totals for dc in row})
    dc_idx = np.array([[dcs.index(dc) for dc in row] for row in totals], np.int64)
    rally = np.full(len(roster), -1, np.int64)
    leaders = [c for c in roster if isinstance(fight.policies.get(c.id), TacticalPolicy) and may_rally(fight, c)]
    rally_ok = np.zeros((max(len(leaders), 1), len(dcs), D20), np.int64)
    for k, c in enumerate(leaders):
        rally[roster.index(c)] = k
        will = mr.morale_will(c.creature, rs)
        for d, dc in enumerate(dcs):
            failed = GroupMorale(status=mr.Status.BROKEN, failed_dc=dc)
            for face in range(1, D20 + 1):
                rally_ok[k, d, face - 1] = mr.rally(will, failed, Faces(face), rs).success
    next_rallied = np.array([[STATUSES.index(mr.next_status(s, o, True)) for o in OUTCOMES] for s in STATUSES],
                            np.int64)
    rules = np.array([rs.morale.rally_actions, rs.morale.rallies_per_encounter], np.int64)
    definition = state.rulebook.actions.get(Rally)
    return rally, rally_ok, dc_idx, next_rallied, rules, definition.name if definition is not None else "rally"


def _acts(found: Behaviour) -> tuple[bool, bool]:
    """A behaviour's ``acts`` row: it still attacks (MOR-21), it still takes reactions (MOR-22)."""
    return found.may_attack, found.reactions


def _give_up(style: BreakBehaviour | None, rs: Ruleset) -> int:
    """What a cornered broken NPC of ``style`` gives up as (``cornered_behaviour``): cowering's style, or a code."""
    found = cornered_behaviour(style, rs)
    if found is None:
        return NEVER_GIVES_UP
    return STYLES.index(found) if found is BreakBehaviour.COWER else KEEPS_STYLE


def _mask(fired: frozenset[mr.Trigger]) -> int:
    return sum(1 << k for k, t in enumerate(TRIGGERS) if t in fired)


def _off(n: int) -> MoraleTables:
    return MoraleTables(np.zeros(4, np.int64), np.full(n, -1, np.int64), np.zeros(n, np.int64),
                        np.zeros(n, np.int64), np.zeros((1, 1, 1, 2, 2), np.int64), np.zeros((1, 1, 2, D20), np.int64),
                        np.zeros((len(STATUSES), len(OUTCOMES)), np.int64), np.zeros(n, np.int64),
                        np.zeros((len(STYLES), 2), np.int64), np.ones((len(STATUSES), len(STYLES) + 1, 2), np.int64),
                        np.arange(len(STATUSES), dtype=np.int64), np.full(len(STYLES) + 1, -1, np.int64),
                        np.zeros((n + 1, n + 1), np.int64), (0,), np.zeros((1, 1), np.int64),
                        np.zeros((1, 1), np.int64), np.zeros((n, 2), np.int64), np.full(n, -1, np.int64),
                        np.zeros((1, 1, D20), np.int64), np.zeros((1 << len(TRIGGERS), 2), np.int64),
                        np.zeros((len(STATUSES), len(OUTCOMES)), np.int64), np.zeros(2, np.int64))


__all__ = ["MoraleTables", "lower_morale", "may_rally", "morale_of", "morale_problem", "moving_problem"]


def morale_of(status: int, style: int, fled: int) -> str | None:
    """A combatant's morale outcome (``ashfall.sim.fight.morale_outcome``) from the kernel's codes and its flight."""
    marks = mr.STATUS_MARKS[STATUSES[status]] | ({mr.MoraleMark.FLED} if fled else set())
    return morale_outcome(marks, STYLES[style] if style >= 0 else None)
