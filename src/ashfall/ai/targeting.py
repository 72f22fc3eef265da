"""Whom to attack: the targets the AI considers and how it ranks the best way to attack each.

Targets are enemies still fighting (up, not fled, not surrendered), in roster order; the dead never are,
and creatures already down only with the ``brutal`` switch and only when no standing enemy can be
attacked (NPCs attack conscious threats first). For each target the AI keeps its best :class:`Candidate`
(a square to attack from and a plan, valued net of the Attacks of Opportunity and ranged fire the
square invites): the likeliest to drop it this turn (the chance in steps of ``drop_step``), then the best
net value. It then focuses fire: the target it can most likely drop this turn, then the largest expected
share of the target's remaining HP removed (lowest HP first when the damage is equal), then the nearest,
then roster order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ashfall.ai.movement import Route
from ashfall.ai.plans import Plan
from ashfall.engine import Combatant, EncounterState


def standing_targets(state: EncounterState, c: Combatant) -> tuple[Combatant, ...]:
    """Enemies still in the fight (up, not fled or surrendered), in roster order."""
    return tuple(e for e in state.enemies_of(c.id) if e.fighting)


def downed_targets(state: EncounterState, c: Combatant) -> tuple[Combatant, ...]:
    """Enemies at 0 HP but alive (dying or stable), in roster order: only a brutal creature finishes them."""
    return tuple(e for e in state.enemies_of(c.id) if e.health.is_down and not e.health.is_dead
                 and not e.left_fight)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One way to spend the turn attacking: move (or not), then a plan.

    Attributes:
        route: How it gets to the square it attacks from (no actions: it stays).
        plan: The attack plan from there.
        aoo: Expected damage it takes from the Attacks of Opportunity the route and the plan provoke.
        threat: Expected damage of one ranged attack from each enemy shooter at it on that square.
        net: The plan's expected share of enemy HP removed, minus the weighted share of its own HP lost.
    """

    route: Route
    plan: Plan
    aoo: float
    threat: float
    net: float


def drop_tier(cand: Candidate, drop_step: float) -> int:
    """The chance to drop the primary target, in steps of ``drop_step`` (smaller differences do not count)."""
    return int(cand.plan.p_drop / drop_step + 1e-9) if drop_step > 0 else 0


def candidate_key(cand: Candidate) -> tuple[float, int, int, int, int]:
    """Among candidates of one drop tier: the best net value, then fewer actions and feet moved, then the square."""
    to = cand.route.to
    return (round(cand.net, 9), -cand.route.actions, -cand.route.feet, -to[1], -to[0])


def rank(cand: Candidate, drop_step: float) -> tuple[int, tuple[float, int, int, int, int]]:
    """How candidates against one target compare: the likelier drop first (focus fire), then :func:`candidate_key`."""
    return (drop_tier(cand, drop_step), candidate_key(cand))


def focus(best: dict[str, Candidate], order: Sequence[Combatant], distance: dict[str, int],
          drop_step: float) -> Candidate | None:
    """Focus fire: the target most likely dropped this turn, then the largest share of its HP, then the nearest."""
    ranked: list[tuple[tuple[float, float, int, int], Candidate]] = []
    for index, t in enumerate(order):
        cand = best.get(t.id)
        if cand is None:
            continue
        ranked.append(((drop_tier(cand, drop_step), round(cand.net, 9), -distance.get(t.id, 0), -index), cand))
    if not ranked:
        return None
    return max(ranked, key=lambda pair: pair[0])[1]
