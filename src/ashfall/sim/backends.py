"""Who plays chunks of trials: this process, a pool of local worker processes, or a Dask cluster.

A :class:`Chunk` is trials ``start`` to ``stop - 1`` of one setup with one seed (trial ``i`` is played with
``trial_seed(seed, i)``, see :func:`ashfall.sim.runner.play_trials`), so a chunk's results depend only on
what it names, never on where or when it is played. A backend plays a list of chunks and hands back each
one's results once, keyed by ``(key, start)``: a chunk played twice (a worker that died after finishing
it, a retry) is stored once, so no trial is lost or counted twice. :func:`collect` checks the cover.

The Dask backend lives in :mod:`ashfall.sim.dask_backend` and imports ``distributed`` only when used.
"""

from __future__ import annotations

import itertools
import multiprocessing
import pickle
import signal
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Protocol

from ashfall.sim.fight import FightResult
from ashfall.sim.runner import START_METHOD, play_trials
from ashfall.sim.setups import FightSetup

SWEEP_CHUNK = 50
"""Trials per chunk in sweeps and balance searches: small enough to spread a variant over many workers and
report progress often, large enough that scheduling costs little next to the fights."""

ChunkId = tuple[str, int]
"""A chunk's identity: (the key of what it plays, its first trial)."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Trials ``start`` .. ``stop - 1`` of ``setup`` with ``seed``.

    Attributes:
        key: What it plays (a variant key, or the encounter's name for a plain simulation).
        setup: A setup that pickles cheaply (:meth:`FightSetup.portable`).
        seed: The seed of this setup's trials.
        start: The first trial.
        stop: One past the last trial.
        max_rounds: The round limit override, or None.
        engine: ``reference``, or ``kernel`` for a setup :func:`ashfall.sim.engines.choose_engine` chose it for.
    """

    key: str
    setup: FightSetup
    seed: int
    start: int
    stop: int
    max_rounds: int | None = None
    engine: str = "reference"

    @property
    def id(self) -> ChunkId:
        """(key, start): how its results are stored."""
        return (self.key, self.start)


_SAME_SETUP: dict[bytes, FightSetup] = {}
"""The first copy of each kernel setup a process received (a chunk sent to a worker arrives as a new object)."""


def play_chunk(chunk: Chunk) -> tuple[ChunkId, list[FightResult]]:
    """Play one chunk (in whichever process runs this)."""
    setup = chunk.setup
    if chunk.engine == "kernel":  # lower a variant once per process, not once per chunk: reuse its first copy
        if len(_SAME_SETUP) >= 64:
            _SAME_SETUP.clear()
        setup = _SAME_SETUP.setdefault(pickle.dumps(setup), setup)
    return chunk.id, play_trials(setup, chunk.seed, chunk.start, chunk.stop, chunk.max_rounds, chunk.engine)


def split(key: str, setup: FightSetup, seed: int, start: int, stop: int, max_rounds: int | None = None,
          size: int = SWEEP_CHUNK, engine: str = "reference") -> list[Chunk]:
    """Trials ``start`` .. ``stop - 1`` as chunks of at most ``size`` trials (boundaries at multiples of ``size``)."""
    edges = sorted({start, stop, *range((start // size + 1) * size, stop, size)})
    return [Chunk(key, setup, seed, a, b, max_rounds, engine) for a, b in itertools.pairwise(edges)]


Done = Callable[[ChunkId, list[FightResult]], None]
"""Called once per finished chunk (in this process)."""


class Backend(Protocol):
    """Plays chunks and reports each one's results as it finishes; keeps its workers until closed."""

    def run(self, chunks: Sequence[Chunk], done: Done) -> None:
        """Play every chunk; call ``done`` for each (in any order)."""
        ...

    def close(self) -> None:
        """Let the workers go (a backend may be run many times before, as a balance search does)."""
        ...


class InProcess:
    """Plays chunks one after another in this process."""

    def run(self, chunks: Sequence[Chunk], done: Done) -> None:
        """Play every chunk here."""
        for chunk in chunks:
            done(*play_chunk(chunk))

    def close(self) -> None:
        """Nothing to let go."""


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group; the parent decides and stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalPool:
    """Plays chunks on ``workers`` local worker processes (spawned: nothing inherited).

    Args:
        workers: Worker processes.
    """

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def run(self, chunks: Sequence[Chunk], done: Done) -> None:
        """Play every chunk on the pool; any error or stop terminates the workers at once."""
        if self._pool is None:
            context = multiprocessing.get_context(START_METHOD)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_ignore_sigint)
        pool = self._pool
        try:
            pending: set[Future[tuple[ChunkId, list[FightResult]]]] = {pool.submit(play_chunk, c) for c in chunks}
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    done(*future.result())
        except BaseException:
            processes = list((pool._processes or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            self._pool = None
            raise

    def close(self) -> None:
        """Shut the worker processes down."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def backend_for(workers: int = 1, dask: str | None = None) -> Backend:
    """The backend for ``--workers K`` / ``--dask ADDRESS|local``."""
    if dask is not None:
        from ashfall.sim.dask_backend import DaskBackend

        return DaskBackend(dask)
    return LocalPool(workers) if workers > 1 else InProcess()


class Collected:
    """Chunk results by (key, start); a chunk reported twice is kept once."""

    def __init__(self) -> None:
        self.parts: dict[ChunkId, list[FightResult]] = {}
        self.duplicates = 0

    def __call__(self, chunk_id: ChunkId, results: list[FightResult]) -> None:
        """Store one chunk's results (the first report of a chunk wins; later ones are counted, not stored)."""
        if chunk_id in self.parts:
            self.duplicates += 1
            return
        self.parts[chunk_id] = results

    def trials(self, key: str, start: int, stop: int) -> list[FightResult]:
        """Trials ``start`` .. ``stop - 1`` of ``key`` in trial order.

        Raises:
            RuntimeError: If a trial is missing or covered twice (a backend bug).
        """
        out: list[FightResult] = []
        at = start
        while at < stop:
            part = self.parts.get((key, at))
            if not part:
                raise RuntimeError(f"no results for trials {at}.. of {key!r}")
            out.extend(part)
            at += len(part)
        if at != stop:
            raise RuntimeError(f"chunks of {key!r} cover trials {start}..{at - 1}, not {start}..{stop - 1}")
        return out


def collect(backend: Backend, chunks: Iterable[Chunk], progress: Callable[[int], None] | None = None) -> Collected:
    """Run chunks on a backend and gather their results (``progress`` gets the trials done so far)."""
    got = Collected()
    listed = list(chunks)
    trials = 0

    def done(chunk_id: ChunkId, results: list[FightResult]) -> None:
        nonlocal trials
        fresh = chunk_id not in got.parts
        got(chunk_id, results)
        if fresh:
            trials += len(results)
            if progress is not None:
                progress(trials)

    backend.run(listed, done)
    return got


__all__ = ["SWEEP_CHUNK", "Backend", "Chunk", "ChunkId", "Collected", "InProcess", "LocalPool", "backend_for",
           "collect", "play_chunk", "split"]
