"""The tactical AI: the default policy that plays creatures the way a competent GM would.

:class:`TacticalPolicy` is both a simulator policy (``next_intent(engine, actor)``) and an engine controller
(``decide(state, decision)``). :func:`default_policy` is what ``tactics: ai`` plays with;
:func:`ai_controller` plugs the AI into :func:`ashfall.encounters.build` as a controller factory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ashfall.ai.choice import Choice, Reason, TacticalConfig

if TYPE_CHECKING:
    from ashfall.ai.tactical import TacticalPolicy
    from ashfall.engine import Combatant, Engine


def __getattr__(name: str) -> Any:
    """:class:`TacticalPolicy`, imported on first use (PEP 562).

    The families' AI modules import this package's parts and the policy imports them, so an eager import here
    made a family's AI module that is imported first fail on the cycle.
    """
    if name == "TacticalPolicy":
        from ashfall.ai.tactical import TacticalPolicy

        return TacticalPolicy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_policy() -> TacticalPolicy:
    """The tactical AI with its default settings."""
    from ashfall.ai.tactical import TacticalPolicy

    return TacticalPolicy()


def target_choice(engine: Engine, actor: str) -> str | None:
    """Whom the AI would attack now (its focus fire): what a scripted plan without a ``target`` rule attacks."""
    from ashfall.ai.tactical import TacticalPolicy

    return TacticalPolicy().preferred_target(engine, actor)


def ai_controller(combatant: Combatant, tactics: Any = None) -> TacticalPolicy:
    """A controller factory for :func:`ashfall.encounters.build`: the AI answers the creature's decisions."""
    from ashfall.ai.tactical import TacticalPolicy

    return TacticalPolicy()


__all__ = ["Choice", "Reason", "TacticalConfig", "TacticalPolicy", "ai_controller", "default_policy", "target_choice"]
