"""Recorded fights of encounter files: play a trial keeping its intents, and replay a stored one.

:func:`record_trial` plays trial ``index`` of a sweep exactly as :func:`~ashfall.sim.runner.replay_trial`
does and returns its :class:`~ashfall.engine.FightLog` (seed, intents, answers, events), labelled with
the encounter file, ruleset, sweep seed and trial. :func:`replay_recorded` builds that encounter's
initial state again from those labels and replays the log, checking every event
(:func:`ashfall.engine.replay`). Golden logs and the table's stored fights use both.
"""

from __future__ import annotations

from pathlib import Path

from ashfall.engine import Engine, FightLog, replay
from ashfall.sim.fight import FightResult, run_fight, trial_seed
from ashfall.sim.setups import EncounterSetup


def record_trial(encounter: str | Path, seed: int, index: int, *, ruleset: str | None = None,
                 max_rounds: int | None = None) -> tuple[FightResult, FightLog]:
    """Play trial ``index`` of the sweep with ``seed`` and keep its whole log, intents included.

    Args:
        encounter: The encounter file (its path is recorded as given: relative paths replay from the same place).
        seed: The sweep's seed (the fight's own seed is ``trial_seed(seed, index)``).
        index: The trial.
        ruleset: Play under this ruleset instead of the file's.
        max_rounds: Stop undecided after this round (default: the file's limit, else the simulator's).
    """
    setup = EncounterSetup(encounter, ruleset)
    fight_seed = trial_seed(seed, index)
    fight = setup.build_fight(fight_seed)
    engine = fight.engine
    result = run_fight(lambda _: engine, fight_seed, fight.policies, record_log=True, ambushers=fight.ambushers,
                       max_rounds=max_rounds or fight.round_limit)
    labels = {"encounter": Path(encounter).as_posix(), "sweep-seed": str(seed), "trial": str(index)}
    if ruleset is not None:
        labels["ruleset"] = ruleset
    if max_rounds is not None:
        labels["max-rounds"] = str(max_rounds)
    return result, engine.fight_log(labels)


def replay_recorded(log: FightLog, root: str | Path | None = None) -> Engine:
    """Replay a log made by :func:`record_trial`: build its encounter again and check every event.

    Args:
        log: The recorded fight.
        root: The folder its relative encounter path is relative to (default: the working directory).

    Raises:
        ValueError: The log names no encounter or has no seed.
        ashfall.engine.ReplayDivergence: The fight no longer plays as recorded.
    """
    encounter = log.setup.get("encounter")
    if encounter is None or log.seed is None:
        raise ValueError("the log does not say which encounter and seed it was recorded from")
    path = Path(root) / encounter if root is not None else Path(encounter)
    fight = EncounterSetup(path, log.setup.get("ruleset")).build_fight(log.seed)
    return replay(log, fight.engine.initial_state)


__all__ = ["record_trial", "replay_recorded"]
