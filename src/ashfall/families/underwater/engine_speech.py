"""Who can speak in a fight: a verbal component fails for a creature that cannot (UW-27, UW-28, C-UNC).

Kept apart from :mod:`ashfall.families.underwater.engine` so that the spell actions can ask without
importing the whole underwater layer.
"""

from __future__ import annotations

from ashfall.core.rule_ids import RuleId
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.underwater import rules as uw
from ashfall.rules import conditions as cond


def cannot_speak(state: EncounterState, c: Combatant) -> RuleId | None:
    """Why the creature cannot speak (a verbal component fails): a condition, or water without air (UW-28)."""
    silenced = cond.cannot_speak(c.condition_set)
    if silenced is not None or state.environment.underwater is None:
        return silenced
    return uw.verbal_spell_blocked(True, uw.can_speak(c.creature, state.round, state.ruleset))


__all__ = ["cannot_speak"]
