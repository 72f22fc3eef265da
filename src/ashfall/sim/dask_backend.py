"""Playing chunks of trials as Dask tasks on ``dask.distributed``: ``--dask local`` or ``--dask tcp://host:port``.

Each :class:`~ashfall.sim.backends.Chunk` is one task (its setup pickles as a file path and a variant, so a
worker loads the encounter itself, once). Results come back keyed by (key, start), so a task that a dead
worker's replacement plays again is stored once: no trial is lost or counted twice. Dask reschedules the
tasks of a worker that dies; ``retries`` also replays a task that raised on a worker (e.g. one killed mid-import).
Workers need the same ``ashfall`` version and the encounter files at the same paths (docs/scaling.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from ashfall.sim.backends import Chunk, Done, play_chunk

LOCAL = "local"
"""The ``--dask`` value that starts a LocalCluster on this machine."""
LOCAL_WORKERS = 2
"""Worker processes of ``--dask local`` (one thread each: fights are pure Python)."""
RETRIES = 3
"""How often a task that raised on a worker is tried again."""


def _distributed() -> Any:
    """``dask.distributed``, imported when a Dask backend is first used (its functions are not all typed)."""
    import distributed

    return distributed


class DaskBackend:
    """Plays chunks on a Dask cluster: a new LocalCluster (``"local"``) or a running scheduler's address.

    Args:
        address: ``"local"`` or a scheduler address such as ``tcp://127.0.0.1:8786``.
        local_workers: Worker processes of a LocalCluster.
    """

    def __init__(self, address: str, local_workers: int = LOCAL_WORKERS) -> None:
        self.address = address
        self.local_workers = local_workers
        self._client: Any = None
        self._cluster: Any = None

    @property
    def client(self) -> Any:
        """The ``distributed.Client`` (connected on first use)."""
        if self._client is None:
            dist = _distributed()
            if self.address == LOCAL:
                self._cluster = dist.LocalCluster(n_workers=self.local_workers, threads_per_worker=1,
                                                  processes=True, dashboard_address=None)
                self._client = dist.Client(self._cluster)
            else:
                self._client = dist.Client(self.address)
        return self._client

    def run(self, chunks: Sequence[Chunk], done: Done) -> None:
        """Submit every chunk as a task and hand back results as they finish."""
        as_completed = _distributed().as_completed
        run = uuid.uuid4().hex[:12]
        futures = [self.client.submit(play_chunk, chunk, key=f"ashfall-{run}-{n}", pure=False, retries=RETRIES)
                   for n, chunk in enumerate(chunks)]
        try:
            for future in as_completed(futures):
                done(*future.result())
        except BaseException:
            self.client.cancel(futures)
            raise

    def close(self) -> None:
        """Close the client (and the LocalCluster it started)."""
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


__all__ = ["LOCAL", "DaskBackend"]
