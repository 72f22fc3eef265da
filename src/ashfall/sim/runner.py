"""Running a fight many times: :func:`simulate` (optionally over worker processes) and :func:`replay_trial`.

Trial ``i`` of a sweep with seed ``s`` is played with the seed ``SeededRng(s).spawn(i).seed``
(:func:`~ashfall.sim.fight.trial_seed`), whoever plays it, and the results are aggregated in trial
order, so a report does not depend on the number of workers. Workers are started with the
``spawn`` method (no state is inherited) and receive chunks of consecutive trials.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from ashfall.encounters import EncounterSpec
from ashfall.sim.fight import FightResult, run_fight, trial_seed
from ashfall.sim.report import SimReport, aggregate
from ashfall.sim.setups import FightSetup, as_setup

Progress = Callable[[int, int], None]
"""Called with (trials done, trials in all) as chunks finish."""
Source = FightSetup | EncounterSpec | str | Path
"""What can be simulated: an encounter file, a loaded encounter or a :class:`FightSetup`."""

CHUNKS_PER_WORKER = 8
"""Chunks handed to each worker (smaller chunks: smoother progress, more overhead)."""
MAX_CHUNK = 250
"""The most trials in one chunk."""
START_METHOD = "spawn"
"""How worker processes start: fresh interpreters, nothing inherited (same on every platform)."""


def play(setup: FightSetup, seed: int, *, record_log: bool = False, max_rounds: int | None = None) -> FightResult:
    """Build and play one fight of a setup with the given seed."""
    fight = setup.build_fight(seed)
    limit = max_rounds or fight.round_limit
    return run_fight(lambda _: fight.engine, seed, fight.policies, record_log=record_log,
                     ambushers=fight.ambushers, max_rounds=limit)


def play_trials(setup: FightSetup, seed: int, start: int, stop: int,
                max_rounds: int | None = None) -> list[FightResult]:
    """Trials ``start`` to ``stop - 1`` of a sweep."""
    return [play(setup, trial_seed(seed, i), max_rounds=max_rounds) for i in range(start, stop)]


def chunks(trials: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive ``(start, stop)`` ranges covering ``range(trials)``."""
    size = max(1, min(MAX_CHUNK, -(-trials // max(1, workers * CHUNKS_PER_WORKER))))
    return [(start, min(trials, start + size)) for start in range(0, trials, size)]


_worker_setup: list[FightSetup] = []
"""The setup a worker process plays (set once by :func:`_init_worker`; empty in the parent)."""


def _init_worker(setup: FightSetup) -> None:
    _worker_setup[:] = [setup]


def _work(seed: int, start: int, stop: int, max_rounds: int | None) -> tuple[int, list[FightResult]]:
    return start, play_trials(_worker_setup[0], seed, start, stop, max_rounds)


def simulate(encounter: Source, trials: int, seed: int, workers: int = 1, progress: Progress | None = None, *,
             ruleset: str | None = None, max_rounds: int | None = None) -> SimReport:
    """Play ``trials`` fights and report the statistics.

    Args:
        encounter: An encounter file, a loaded encounter or a setup.
        trials: How many fights.
        seed: The sweep's seed (trial ``i`` uses ``trial_seed(seed, i)``).
        workers: Worker processes (1: play in this process). A setup that cannot be sent to workers is
            played here; the report is the same either way.
        progress: Called as chunks finish.
        ruleset: Play an encounter file under this ruleset instead of its own.
        max_rounds: Stop each fight undecided after this round (default: the file's limit, else 100).
    """
    if trials < 1:
        raise ValueError("trials must be at least 1")
    setup = as_setup(encounter, ruleset)
    portable = setup.portable() if workers > 1 else None
    results: list[FightResult] = []
    for _start, part in _run(setup, portable, trials, seed, workers, progress, max_rounds):
        results.extend(part)
    return aggregate(setup.name, setup.ruleset_name, seed, results)


def _run(setup: FightSetup, portable: FightSetup | None, trials: int, seed: int, workers: int,
         progress: Progress | None, max_rounds: int | None) -> Iterator[tuple[int, list[FightResult]]]:
    """Chunks of results in trial order."""
    ranges = chunks(trials, workers if portable is not None else 1)
    if portable is None:
        done = 0
        for start, stop in ranges:
            part = play_trials(setup, seed, start, stop, max_rounds)
            done += len(part)
            if progress is not None:
                progress(done, trials)
            yield start, part
        return
    finished: dict[int, list[FightResult]] = {}
    context = multiprocessing.get_context(START_METHOD)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(portable,)) as pool:
        pending: set[Future[tuple[int, list[FightResult]]]] = {
            pool.submit(_work, seed, start, stop, max_rounds) for start, stop in ranges
        }
        done = 0
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                start, part = future.result()
                finished[start] = part
                done += len(part)
            if progress is not None:
                progress(done, trials)
    for start, _stop in ranges:
        yield start, finished[start]


def replay_trial(encounter: Source, seed: int, index: int, *, ruleset: str | None = None,
                 max_rounds: int | None = None) -> tuple[FightResult, list[Any]]:
    """Play trial ``index`` of the sweep with ``seed`` again, with its full event log."""
    setup = as_setup(encounter, ruleset)
    result = play(setup, trial_seed(seed, index), record_log=True, max_rounds=max_rounds)
    return result, list(result.log or ())
