"""Running a fight many times: :func:`simulate` (optionally over worker processes) and :func:`replay_trial`.

Trial ``i`` of a sweep with seed ``s`` is played with the seed ``SeededRng(s).spawn(i).seed``
(:func:`~ashfall.sim.fight.trial_seed`), whoever plays it, and the results are aggregated in trial
order, so a report does not depend on the number of workers. With ``K`` workers this process plays
chunks of consecutive trials alongside ``K - 1`` worker processes, started with the ``spawn`` method
(no state is inherited).

Workers never outlive the sweep: they ignore SIGINT (Ctrl-C reaches the whole process group; this process
decides), any exception or signal that unwinds :func:`simulate` here terminates them at once instead of waiting
for their queued chunks, and each worker exits by itself within :data:`PARENT_POLL_S` if this process dies
without cleaning up (SIGKILL).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ashfall.encounters import EncounterSpec
from ashfall.engine import Event
from ashfall.sim.fight import FightResult, run_fight, trial_seed
from ashfall.sim.report import SimReport, aggregate
from ashfall.sim.results import pc_sides_of
from ashfall.sim.setups import FightSetup, as_setup

if TYPE_CHECKING:
    from ashfall.sim.kernel_lower import Lowering

Progress = Callable[[int, int], None]
"""Called with (trials done, trials in all) as chunks finish."""
Source = FightSetup | EncounterSpec | str | Path
"""What can be simulated: an encounter file, a loaded encounter or a :class:`FightSetup`."""

CHUNKS_PER_WORKER = 8
"""Chunks handed to each worker at the least (smaller chunks: smoother progress, more overhead)."""
PROGRESS_STEPS = 100
"""A run is cut into at least this many chunks (unless it has fewer trials): progress moves every 1% or sooner."""
IN_FLIGHT_PER_WORKER = 2
"""Chunks queued for each worker process while this process plays one (so none of them idles meanwhile)."""
MAX_CHUNK = 50
"""The most trials in one chunk: about a second of fights, so progress moves every second even in long runs."""
START_METHOD = "spawn"
"""How worker processes start: fresh interpreters, nothing inherited (same on every platform)."""
PARENT_POLL_S = 0.25
"""How often a worker checks that the process that started it is still alive."""
STOP_JOIN_S = 2.0
"""How long a stopped sweep waits for each terminated worker before killing it."""


def play(setup: FightSetup, seed: int, *, record_log: bool = False, max_rounds: int | None = None) -> FightResult:
    """Build and play one fight of a setup with the given seed."""
    fight = setup.build_fight(seed)
    limit = max_rounds or fight.round_limit
    return run_fight(lambda _: fight.engine, seed, fight.policies, record_log=record_log,
                     ambushers=fight.ambushers, max_rounds=limit)


def play_trials(setup: FightSetup, seed: int, start: int, stop: int,
                max_rounds: int | None = None, engine: str = "reference") -> list[FightResult]:
    """Trials ``start`` to ``stop - 1`` of a sweep, on the reference engine or (``engine="kernel"``) the kernel.

    The kernel (:mod:`ashfall.kernel`, imported only here) plays the same trials, draw for draw; choose it with
    :func:`ashfall.sim.engines.choose_engine`, which checks that it supports the fight.
    """
    if engine == "kernel":
        from ashfall.sim.kernel_run import kernel_for

        return kernel_for(setup, max_rounds).results(seed, start, stop)
    with _few_collections():
        return [play(setup, trial_seed(seed, i), max_rounds=max_rounds) for i in range(start, stop)]


SWEEP_GC_THRESHOLD = 50_000
"""Allocations between young-generation collections while fights are played (Python's default: 700)."""


@contextmanager
def _few_collections() -> Iterator[None]:
    """Fewer garbage collections while fights are played; the settings in force before come back after.

    A fight allocates many short-lived objects and few cycles, so the default young-generation threshold runs
    the cycle collector thousands of times a sweep over the long-lived caches and modules: those are frozen
    out of its sight (``gc.freeze``) and the threshold is raised. Memory is still freed by reference
    counting; cycles wait for the next, rarer collection. Nothing a fight computes depends on this.
    """
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(SWEEP_GC_THRESHOLD, before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def chunks(trials: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive ``(start, stop)`` ranges covering ``range(trials)``."""
    size = max(1, min(MAX_CHUNK, -(-trials // max(PROGRESS_STEPS, workers * CHUNKS_PER_WORKER))))
    return [(start, min(trials, start + size)) for start in range(0, trials, size)]


_worker_setup: list[FightSetup] = []
"""The setup a worker process plays (set once by :func:`_init_worker`; empty in the parent)."""


def _init_worker(setup: FightSetup, parent: int, lowering: Lowering | None = None) -> None:
    # Ctrl-C in a terminal signals every process of the group: the parent stops the workers itself, so a
    # worker must not turn the signal into a KeyboardInterrupt of its own (a traceback, then a broken pool).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True).start()
    _worker_setup[:] = [setup]
    if lowering is not None:  # the parent's lowering of the kernel's fight: this worker plays it without lowering
        from ashfall.sim.kernel_lower import remember

        remember(setup, lowering)


def _exit_with_parent(parent: int) -> None:
    """End this worker once its parent is gone (re-parented), even mid-chunk: nobody will read its results."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


@contextmanager
def _sigint_ignored(starting: bool) -> Iterator[None]:
    """While a worker process starts, ignore SIGINT here so that the new process inherits "ignored".

    A spawned worker imports the whole engine before :func:`_init_worker` runs; a Ctrl-C in that second would
    otherwise print a KeyboardInterrupt traceback from inside it. Only an ignored disposition survives the
    exec that starts it. A Ctrl-C in the few milliseconds this lasts is not seen. Signal dispositions belong
    to the main thread: elsewhere (or once every worker is up) this does nothing.
    """
    if not starting or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate a pool's worker processes now, dropping queued chunks (a sweep being abandoned)."""
    # Python 3.11 has no public way to end a pool's processes (3.14 adds terminate_workers()); the executor
    # keeps them in ``_processes``. Copy before shutdown, which may clear it.
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(STOP_JOIN_S)
        if process.is_alive():
            process.kill()
            process.join()


def _lowering(setup: FightSetup, engine: str) -> Lowering | None:
    """The kernel's lowering of the setup to hand each worker (None on the reference engine).

    Lowering a fight on the move takes seconds and this process has it already (the engine choice lowered it):
    the arrays pickle in a fraction of that, and every process then plays the very same tables.
    """
    if engine != "kernel":
        return None
    from ashfall.sim.kernel_lower import lowering

    return lowering(setup)


def _work(seed: int, start: int, stop: int, max_rounds: int | None,
          engine: str = "reference") -> tuple[int, list[FightResult]]:
    return start, play_trials(_worker_setup[0], seed, start, stop, max_rounds, engine)


def simulate(encounter: Source, trials: int, seed: int, workers: int = 1, progress: Progress | None = None, *,
             ruleset: str | None = None, max_rounds: int | None = None, engine: str = "reference") -> SimReport:
    """Play ``trials`` fights and report the statistics, with every fight (``report.fights``, ``report.rows()``).

    Args:
        encounter: An encounter file, a loaded encounter or a setup.
        trials: How many fights.
        seed: The sweep's seed (trial ``i`` uses ``trial_seed(seed, i)``).
        workers: Processes that play, this one included (1: only this one). A setup that cannot be sent to workers is
            played here; the report is the same either way.
        progress: Called with ``(0, trials)`` before the first fight, then as each chunk finishes (at least every
            1% of the trials, and at most :data:`MAX_CHUNK` trials apart).
        ruleset: Play an encounter file under this ruleset instead of its own.
        max_rounds: Stop each fight undecided after this round (default: the file's limit, else 100).
        engine: ``reference``, or ``kernel`` for a fight :func:`ashfall.sim.engines.choose_engine` chose it for
            (the same trials and results, faster).
    """
    if trials < 1:
        raise ValueError("trials must be at least 1")
    setup = as_setup(encounter, ruleset)
    portable = setup.portable() if workers > 1 else None
    results: list[FightResult] = []
    for _start, part in _run(setup, portable, trials, seed, workers, progress, max_rounds, engine):
        results.extend(part)
    return aggregate(setup.name, setup.ruleset_name, seed, results, pc_sides=pc_sides_of(setup))


def _run(setup: FightSetup, portable: FightSetup | None, trials: int, seed: int, workers: int,
         progress: Progress | None, max_rounds: int | None,
         engine: str = "reference") -> Iterator[tuple[int, list[FightResult]]]:
    """Chunks of results in trial order.

    With ``workers`` > 1 this process is one of the workers: it starts ``workers - 1`` others and plays
    chunks itself between handing chunks out, so no core waits while the others start (a spawned worker
    needs about a second to import and load). Which process plays a chunk never changes its results.
    """
    ranges = chunks(trials, workers if portable is not None else 1)
    done = 0
    if progress is not None:
        progress(0, trials)  # the total is known before the first fight: the bar shows it from the start

    def report(part: list[FightResult]) -> None:
        nonlocal done
        done += len(part)
        if progress is not None:
            progress(done, trials)

    if portable is None or workers < 2:
        for start, stop in ranges:
            part = play_trials(setup, seed, start, stop, max_rounds, engine)
            report(part)
            yield start, part
        return
    finished: dict[int, list[FightResult]] = {}
    waiting = deque(ranges)
    context = multiprocessing.get_context(START_METHOD)
    pool = ProcessPoolExecutor(workers - 1, mp_context=context, initializer=_init_worker,
                               initargs=(portable, os.getpid(), _lowering(setup, engine)))
    try:
        pending: set[Future[tuple[int, list[FightResult]]]] = set()
        in_flight = IN_FLIGHT_PER_WORKER * (workers - 1)
        while waiting or pending:
            while waiting and len(pending) < in_flight:  # keep the others busy before playing a chunk here
                start, stop = waiting.popleft()
                with _sigint_ignored(len(pool._processes or {}) < workers - 1):  # this submit starts a worker
                    pending.add(pool.submit(_work, seed, start, stop, max_rounds, engine))
            ready = {f for f in pending if f.done()}
            if not ready and waiting:
                start, stop = waiting.pop()  # from the back: the others take the front
                finished[start] = play_trials(setup, seed, start, stop, max_rounds, engine)
                report(finished[start])
                continue
            if not ready:
                ready, _ = wait(pending, return_when=FIRST_COMPLETED)
            pending -= ready
            for future in ready:
                start, part = future.result()
                finished[start] = part
                report(part)
    except BaseException:
        # An error, Ctrl-C or a stop signal here: the queued chunks are of no use, so do not wait for them.
        _stop_workers(pool)
        raise
    pool.shutdown()
    for start, _stop in ranges:
        yield start, finished[start]


def replay_trial(encounter: Source, seed: int, index: int, *, ruleset: str | None = None,
                 max_rounds: int | None = None) -> tuple[FightResult, list[Event]]:
    """Play trial ``index`` of the sweep with ``seed`` again, with its full event log."""
    setup = as_setup(encounter, ruleset)
    result = play(setup, trial_seed(seed, index), record_log=True, max_rounds=max_rounds)
    return result, list(result.log or ())
