"""The dying family's turn hook: a dying creature's death save at the start of its turn (DEATH-2).

The core's turn loop names no family; it runs the rulebook's ``before_acting`` hooks once the creature is
known to be in the fight (not dead, not gone) and before the surprise and action-budget checks. This module
installs the death save there, so the log keeps its order: the roll, then the new health.
"""

from __future__ import annotations

from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.rulebook import RulebookDraft
from ashfall.families.dying.rules import DeathSaveOutcome, start_of_turn

_SAVED = frozenset({DeathSaveOutcome.SUCCESS, DeathSaveOutcome.NATURAL_20})
"""Death-save outcomes logged as a success (DEATH-5, DEATH-7)."""


def death_save_at_start(ctx: Context, cid: str) -> None:
    """Roll a dying creature's death save at the start of its turn (DEATH-2) and log the roll and new health."""
    state = ctx.state
    save = start_of_turn(state.get(cid).health, ctx.roller(cid, "death-save", "DEATH-4", dice=(1, 20)), state.ruleset)
    if save is not None:
        ctx.emit(ev.CheckRolled(cid, "death save", ev.RollRecord.of(save.roll), state.ruleset.dying.save_success_min,
                                save.outcome in _SAVED, save.rules[-1]))
        ctx.emit(ev.HealthSet(cid, save.health, f"death save: {save.outcome.value}", save.rules[-1]))


def install(book: RulebookDraft) -> None:
    """Add the start-of-turn death save (the ``before_acting`` hook)."""
    book.before_acting("death-save", death_save_at_start)


__all__ = ["death_save_at_start", "install"]
