"""The tactical AI: the default policy that plays creatures the way a competent GM would.

:class:`TacticalPolicy` is both a simulator policy (``next_intent(engine, actor)``) and an engine controller
(``decide(state, decision)``). :func:`default_policy` is what ``tactics: ai`` plays with;
:func:`ai_controller` plugs the AI into :func:`ashfall.encounters.build` as a controller factory.
"""

from __future__ import annotations

from typing import Any

from ashfall.ai.choice import Choice, Reason, TacticalConfig
from ashfall.ai.tactical import TacticalPolicy
from ashfall.engine import Combatant, Engine


def default_policy() -> TacticalPolicy:
    """The tactical AI with its default settings."""
    return TacticalPolicy()


def target_choice(engine: Engine, actor: str) -> str | None:
    """Whom the AI would attack now (its focus fire): what a scripted plan without a ``target`` rule attacks."""
    return TacticalPolicy().preferred_target(engine, actor)


def ai_controller(combatant: Combatant, tactics: Any = None) -> TacticalPolicy:
    """A controller factory for :func:`ashfall.encounters.build`: the AI answers the creature's decisions."""
    return TacticalPolicy()


__all__ = ["Choice", "Reason", "TacticalConfig", "TacticalPolicy", "ai_controller", "default_policy", "target_choice"]
