"""Looking after the side: saving dying allies, Second Wind, and a leader's Rally.

A creature carrying a Medicine kit, a stim or a healing spell treats a dying ally within 5 ft (Emergency
Field Medicine MAA-6, a stim G-31, a healing spell HEAL-1..3, edition 1's Medicine check E-31), or first
Strides next to one it can then treat this turn. Below ``second_wind_below`` of its HP a PC, or an NPC
whose stat block has the talent, catches its breath (HEAL-5). A leader NPC rallies a falling-back or
broken group of its side (G-04, MOR-25, MOR-26).
"""

from __future__ import annotations

from collections.abc import Callable

from ashfall.ai.board_cache import gap_ft
from ashfall.ai.choice import Choice, Reason, TacticalConfig
from ashfall.ai.intents import can_treat, treatments
from ashfall.ai.movement import can_move, first_stride, path_to
from ashfall.ai.turn import TurnView
from ashfall.content import names
from ashfall.engine import Combatant, Rally, SecondWind, Stride
from ashfall.grid.board import SQUARE_FT, Square

SECOND_WIND_TALENT = names.SECOND_WIND
"""The stat-block talent that lets an NPC use Second Wind (PCs always may, HEAL-5)."""


def heal(view: TurnView) -> Choice | None:
    """Stabilise or heal a dying ally within 5 ft, or move next to one it can then treat this turn."""
    state, c = view.state, view.c
    dying = [a for a in state.allies_of(c.id) if a.health.is_dying and not a.health.is_dead]
    if not dying:
        return None
    for ally in dying:
        for intent in treatments(c, ally.id):
            if view.legal(intent):
                return Choice(intent, Reason.HEAL_ALLY)
    if not can_treat(c) or not can_move(state, c) or c.turn.actions_left <= state.ruleset.healing.efm_actions:
        return None
    for ally in dying:
        if not ally.space:
            continue
        path = path_to(state, c, _beside(view, ally), view.graph)
        if path is None:
            continue
        part = first_stride(state, c, path, view.graph)
        if part and part == path:
            intent = Stride(c.id, part)
            if view.legal(intent):
                return Choice(intent, Reason.REACH_ALLY)
    return None


def _beside(view: TurnView, ally: Combatant) -> Callable[[Square], bool]:
    """A goal: squares within touch range (5 ft) of the ally."""

    def goal(sq: Square) -> bool:
        return gap_ft(view.graph.space(sq), ally.space) <= SQUARE_FT

    return goal


def second_wind(view: TurnView, config: TacticalConfig) -> Choice | None:
    """Second Wind below the configured share of maximum HP (HEAL-5), if its stat block has it."""
    c = view.c
    h = c.health
    if h.hp >= h.max_hp * config.second_wind_below:
        return None
    if not (config.second_wind_for_all or c.creature.is_pc or SECOND_WIND_TALENT in c.creature.talents):
        return None
    intent = SecondWind(c.id)
    return Choice(intent, Reason.SECOND_WIND) if view.legal(intent) else None


def rally(view: TurnView) -> Choice | None:
    """A leader NPC rallies its side's falling-back or broken group (G-04, MOR-25, MOR-26), once a turn."""
    c = view.c
    if not c.creature.leader or c.creature.is_pc:
        return None
    definition = view.state.rulebook.actions.get(Rally)
    if definition is None:
        return None
    for intent in definition.candidates(view.state, c.id):
        if view.legal(intent):
            return Choice(intent, Reason.RALLY)
    return None
