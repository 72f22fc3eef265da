"""Brace in the fight kernel (RX-12..15, X-20): what is covered, and the tables :mod:`ashfall.kernel.brace` reads.

A creature that ends a Stride (or a Sprint; the kernel's Strides) having walked at least ``turn.brace_charge_ft`` in a
straight line, every step closer to a creature with a drawn bracing weapon (reach, polearm or braceable, RX-15) and
within that weapon's reach, sets off that creature's Brace (``walk``'s CHARGE_ENDS trigger, ``_brace_ok``). The AI
takes it whenever it is offered (``reactions.ai``: nothing it prefers answers the trigger) unless the charger is
behind total cover from it (``_walled_off``). Brace is one melee attack with ``attack.brace_damage`` more
(Activity.BRACE, RX-13; Intercept may redirect it, RX-26, as any melee attack); on a hit with the charger still up and
of the reactor's size or smaller, the charger makes a Fortitude save against ``8 + proficiency + MIG`` (RX-14) and on
a failure cannot move again this turn (X-20; its Strides and Steps are refused: a scripted plan ends its turn, the
AI drops the ways that move).

Lowered here, by the reference's own functions: each creature's bracing weapon's reach (``bracing_weapon``, -1 for
none), whether a step from every square in every direction brings the mover closer to a reactor (``charge_ft`` of
that one-step path, a table by offset from the reactor) and the feet each such step counts, the Brace attack's
outcome and damage tables (``resolve_attack`` with Activity.BRACE in every situation code and view a melee attack
meets, ``_tabulate``; the damage ``_damage_tables``' with the Brace dice in the parts), whether the size rule lets
the save happen (``Size.rank``), the save's success for every face (``saving_throw`` against ``formula_dc``), the
charge's length (``turn.brace_charge_ft``) and X-20's switch (``turn.brace_stops_turn_movement``).

Named (:func:`brace_problem`): a thrown bracing weapon (a Spear: the AI weighs its throw too), a creature whose
bracing weapon is not the first weapon of its tables, more than one
creature that could Brace (a second Brace on a charger the first dropped would attack a creature down), saves of two
d20s or that fail without a roll. Beside edition 2's Trip the reactor may lie prone when a charge ends: its Brace is
asked of ``resolve_attack`` with it prone too (disadvantage, C-PRO), the attack tables' ``ATTACKER_PRONE`` row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.content.schema import WeaponProperty
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, Save
from ashfall.engine import Combatant
from ashfall.families.attacks.engine_common import speed_ft
from ashfall.families.attacks.rules_activities import Activity
from ashfall.families.reactions.moves_defensive import bracing_weapon, charge_ft
from ashfall.rules.checks import saving_throw
from ashfall.rules.dc import formula_dc
from ashfall.sim.kernel_covering_lower import pinnable, pinned_sources
from ashfall.sim.kernel_faces import Faces
from ashfall.sim.kernel_maneuvers import ATTACKER_PRONE, uses_trip, with_conditions
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
RX_14 = rule("RX-14")
BR_ON, BR_CHARGE, BR_STEP, BR_STOPS, BR_LOW = 0, 1, 2, 3, 4
"""Slots of ``ints`` (``ashfall.kernel.brace.BR_*``; a test holds them equal)."""
BRACE_LABEL = 7
"""The Brace attack's label (``kernel_lower.ATTACK_LABELS``)."""
SAVE_STEP = "check-rolled:Fortitude save vs Brace"
"""The charger's save as the reference logs it (``_brace``'s ``save_logged`` label)."""


@dataclass(frozen=True, slots=True)
class BraceTables:
    """Brace as the compiled fight reads it (``ashfall.kernel.brace``).

    Attributes:
        ints: ``BR_*``: on, the charge that sets it off (feet), feet a closer step counts, X-20's switch, the lowest
            rolled total ``dealt`` covers.
        reach: Each creature's bracing weapon's reach (-1: none).
        closer: ``[ox + w - 1, oy + h - 1, dx + 1, dy + 1]`` 1 where a step by ``(dx, dy)`` from the square ``(ox, oy)``
            from the reactor's brings the mover closer (``charge_ft``).
        size_ok: ``[reactor, charger]`` 1 where a hit makes the charger save (its size no larger, RX-14).
        save_ok: ``[charger, reactor, face - 1]`` 1 where the save succeeds.
        outcome: ``[reactor, target, kind, 1, state, situation, first face - 1, second face - 1]`` the Brace
            attack's outcome (kind 1: a reactor pinned by Covering Fire, SUP-11; state 0, and beside edition 2's Trip
            ``ATTACKER_PRONE``: the reactor lying prone, C-PRO).
        draws: ``[reactor, target, kind, 1, state, situation]`` its d20s.
        dice: ``[reactor, kind, crit, group, (count, sides)]`` its damage dice (the Brace dice included, RX-13).
        flat: ``[reactor, kind, crit]`` its flat damage.
        dealt: ``[reactor, kind, target, crit, total - low]`` the damage after the ledger.
    """

    ints: I64
    reach: I64
    closer: I64
    size_ok: I64
    save_ok: I64
    outcome: npt.NDArray[np.int8]
    draws: I64
    dice: I64
    flat: I64
    dealt: I64

    def tab(self) -> tuple[Any, ...]:
        """The tables as the compiled fight takes them (``ashfall.kernel.brace.BraceTab``)."""
        return (self.ints, self.reach, self.closer, self.size_ok, self.save_ok, self.outcome, self.draws, self.dice,
                self.flat, self.dealt)


def no_brace(n: int) -> BraceTables:
    """Tables for a fight where nobody Braces."""
    return BraceTables(np.zeros(5, np.int64), np.full(n, -1, np.int64), np.zeros((1, 1, 3, 3), np.int64),
                       np.zeros((n, n), np.int64), np.ones((n, n, 20), np.int64),
                       np.zeros((n, n, 1, 1, 1, 1, 20, 20), np.int8), np.ones((n, n, 1, 1, 1, 1), np.int64),
                       np.zeros((n, 1, 2, 1, 2), np.int64), np.zeros((n, 1, 2), np.int64),
                       np.zeros((n, 1, n, 2, 1), np.int64))


def bracers(fight: Fight) -> list[Combatant]:
    """The creatures whose Brace some enemy could set off: a bracing weapon, an enemy fast enough to charge (RX-12)."""
    state = fight.engine.state
    need = state.ruleset.turn.brace_charge_ft
    return [c for c in state.combatants.values() if bracing_weapon(c) is not None
            and any(speed_ft(e, state) >= need for e in state.enemies_of(c.id))]


def brace_problem(fight: Fight, first_weapon: Any) -> str | None:
    """What of Brace the kernel does not play in this fight on the move (None: it plays it, or nobody Braces).

    ``first_weapon(c)``: the weapon of a creature's first option (``kernel_lower._first_weapon``), the one its attack
    tables are asked about.
    """
    found = bracers(fight)
    if not found:
        return None
    for c in found:
        weapon = bracing_weapon(c)
        assert weapon is not None
        if weapon.has(WeaponProperty.THROWN):
            return f"Brace with a thrown weapon (RX-15, combatant {c.id})"
    c = found[0]
    if len(found) > 1:
        return f"Brace by two creatures (a second Brace on a charger the first dropped, RX-12, combatant {found[1].id})"
    if bracing_weapon(c) is not first_weapon(c):
        return f"Brace with a weapon other than its first (RX-15, combatant {c.id})"
    return None


def _closer(width: int, height: int) -> I64:
    """Whether each step from each offset from a reactor brings a one-square mover closer (``charge_ft``)."""
    rx, ry = width - 1, height - 1
    table = np.zeros((2 * width - 1, 2 * height - 1, 3, 3), np.int64)
    for ox in range(-(width - 1), width):
        for oy in range(-(height - 1), height):
            start = (rx + ox, ry + oy)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if dx or dy:
                        path = (start, (start[0] + dx, start[1] + dy))
                        table[ox + width - 1, oy + height - 1, dx + 1, dy + 1] = charge_ft(path, 1, ((rx, ry),)) > 0
    return table


def _saves(reactor: Combatant, charger: Combatant, rs: Any) -> I64:
    """The charger's Fortitude save against the reactor's Brace DC for every face (RX-14)."""
    dc = formula_dc(RX_14, "MIG", reactor.creature.attributes.MIG, reactor.creature.proficiency, rs)
    out = np.zeros(20, np.int64)
    for face in range(1, 21):
        rng = Faces(face)
        result = saving_throw(charger.creature, Save.FORTITUDE, dc, rng, rs, conditions=charger.condition_set)
        if result.roll is None or rng.draws != 1:
            raise ValueError(f"a save against Brace of other than one d20 (RX-14, combatant {charger.id})")
        out[face - 1] = result.success
    return out


def lower_brace(fight: Fight, roster: Sequence[Combatant], codes: Sequence[int | None], views: Sequence[Any],
                near: frozenset[int], far: frozenset[int], situations: int, width: int, height: int) -> BraceTables:
    """Brace's tables for a fight on the move (:func:`no_brace` where nobody Braces).

    ``codes``/``views``/``near``/``far``/``situations``: the attack tables' situation codes, the views by index, those
    met within 5 ft and further (``kernel_lower.read_sights``) and the codes per view. Raises ``ValueError`` for what
    the tables cannot hold.
    """
    from ashfall.sim import kernel_lower as kl  # the attack tables' own asking (it imports this module)

    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    found = bracers(fight)
    if not found:
        return no_brace(n)
    reactor = found[0]
    i = roster.index(reactor)
    weapon = bracing_weapon(reactor)
    assert weapon is not None
    reach = np.full(n, -1, np.int64)
    reach[i] = weapon.reach
    pins = pinnable(state, reactor)
    kinds = 2 if pins else 1
    # beside edition 2's Trip the reactor may lie prone when the charge ends: its Brace at disadvantage (C-PRO), the
    # target state ``ATTACKER_PRONE`` of the attack tables (``fight._attack_hit`` reads it off the prone row)
    lying = (False, True) if uses_trip(fight) else (False,)
    states = ATTACKER_PRONE + 1 if uses_trip(fight) else 1
    outcome = np.zeros((n, n, kinds, 1, states, len(codes), 20, 20), np.int8)
    draws = np.ones((n, n, kinds, 1, states, len(codes)), np.int64)
    hit_parts: dict[tuple[int, int], Any] = {}
    prepared: dict[Any, Any] = {}
    size_ok = np.zeros((n, n), np.int64)
    save_ok = np.ones((n, n, 20), np.int64)
    for j, t in enumerate(roster):
        if t.side == reactor.side:
            continue
        size_ok[i, j] = t.creature.size.rank <= reactor.creature.size.rank
        save_ok[j, i] = _saves(reactor, t, rs)
        for prone in lying:
            row = ATTACKER_PRONE if prone else 0
            with kl._beside(state, reactor, t), with_conditions(reactor, *((Condition.PRONE,) if prone else ())):
                for s_, code in enumerate(codes):
                    if code is not None and code & 1 and not state.allies_of(reactor.id):
                        continue  # nobody to flank with
                    if code is not None and code // situations not in (near if code & 2 else far):
                        continue  # no two squares so far apart give this view (or it is total cover)
                    view = views[code // situations] if code is not None else None
                    for kind in range(kinds):
                        extra = pinned_sources(state, reactor) if kind else ()
                        count, table, parts = kl._tabulate(state, reactor, t, Activity.BRACE, None, code, view,
                                                           prepared, extra)
                        draws[i, j, kind, 0, row, s_] = count
                        outcome[i, j, kind, 0, row, s_] = table
                        if parts is not None:
                            hit_parts.setdefault((i, kind), parts)
    dice, flat, dealt, low = kl._damage_tables(state, roster, hit_parts, kinds,
                                               lambda a, _k: kl._first_weapon(roster[a]))
    step_ft = charge_ft(((2, 0), (1, 0)), 1, ((0, 0),))  # the feet one closer step counts
    ints = np.array([1, rs.turn.brace_charge_ft, step_ft, int(rs.turn.brace_stops_turn_movement), low], np.int64)
    return BraceTables(ints, reach, _closer(width, height), size_ok, save_ok, outcome, draws, dice, flat, dealt)


__all__ = ["BRACE_LABEL", "SAVE_STEP", "BraceTables", "brace_problem", "bracers", "lower_brace", "no_brace"]
