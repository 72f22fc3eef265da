"""Playing sims, sweeps and balance searches on Dask gives the same results as a local run with the seed.

A LocalCluster of two worker processes, and a scheduler with two workers started as subprocesses on
loopback; killing one of those workers mid-sweep loses and doubles no trial (chunks are stored by
(variant, start), and Dask plays the dead worker's tasks again elsewhere).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ashfall.sim import simulate
from ashfall.sim.backends import ChunkId, Collected
from ashfall.sim.balance import balance
from ashfall.sim.dask_backend import DaskBackend
from ashfall.sim.fight import FightResult
from ashfall.sim.sweep import simulate_on, sweep
from ashfall.sim.variants import parse_vary

from .test_sweeps_and_balance import EVEN_DUEL

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "encounters" / "duel.yaml"
KERNEL_FIGHTS = ROOT / "tests" / "kernel" / "encounters"
DASK = Path(sys.executable).with_name("dask")
START_TIMEOUT_S = 60


@pytest.fixture(scope="module")
def even_duel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dask") / "even-duel.yaml"
    path.write_text(EVEN_DUEL)
    return path


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[DaskBackend]:
    backend = DaskBackend("local")
    assert len(backend.client.scheduler_info()["workers"]) == 2
    yield backend
    backend.close()


def test_dask_local__sweep_equals_the_in_process_sweep(local_cluster: DaskBackend, even_duel: Path) -> None:
    axes = [parse_vary("combatants.right.hp=5..13:4")]
    assert sweep(even_duel, axes, 150, 9, backend=local_cluster).records() == sweep(even_duel, axes, 150, 9).records()


def test_dask_local__sim_report_equals_simulate(local_cluster: DaskBackend) -> None:
    on_dask = simulate_on(local_cluster, DUEL, 60, 7)
    assert on_dask.to_jsonable() == simulate(DUEL, 60, 7).to_jsonable()
    assert on_dask.rounds_samples == simulate(DUEL, 60, 7).rounds_samples


def test_dask_local__balance_equals_the_in_process_search(local_cluster: DaskBackend, even_duel: Path) -> None:
    vary = parse_vary("combatants.right.hp=4..16")
    there = balance(even_duel, vary, 0.5, seed=3, backend=local_cluster, max_per_point=400)
    here = balance(even_duel, vary, 0.5, seed=3, max_per_point=400)
    assert (there.value, there.estimate, there.bracket, there.trials) == (here.value, here.estimate, here.bracket,
                                                                          here.trials)


def _kernel_loaded(backend: DaskBackend) -> list[bool]:
    """Whether each worker process has imported the compiled fight (the kernel played there)."""
    return sorted(backend.client.run(lambda: "ashfall.kernel.fight" in sys.modules).values())


def test_dask_local__kernel_chunks_equal_the_reference_engines_report(local_cluster: DaskBackend) -> None:
    fight = KERNEL_FIGHTS / "scripted-heroes-fall.yaml"  # death saves, dying PCs: the kernel's widest family
    on_kernel = simulate_on(local_cluster, fight, 600, 11, engine="kernel")
    assert _kernel_loaded(local_cluster) == [True, True]  # 600 trials are several chunks: both workers played
    reference = simulate(fight, 600, 11, engine="reference")
    assert on_kernel.to_jsonable() == reference.to_jsonable()
    assert on_kernel.rounds_samples == reference.rounds_samples


def test_dask_local__sweep_on_the_kernel_equals_the_reference_sweep(local_cluster: DaskBackend) -> None:
    fight = KERNEL_FIGHTS / "scripted-heroes-fall.yaml"
    axes = [parse_vary("combatants.kernel-brute-boss.hp=40..80:20")]
    on_kernel = sweep(fight, axes, 200, 4, backend=local_cluster, engine="kernel")
    assert on_kernel.records() == sweep(fight, axes, 200, 4, engine="reference").records()


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as sink:
        return subprocess.Popen([str(DASK), *args], stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def loopback_cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """``dask scheduler`` and two ``dask worker`` processes (no nanny: killing one kills the worker)."""
    info = tmp_path / "scheduler.json"
    processes = [_start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
                         str(info)], tmp_path / "scheduler.log")]
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not info.exists() or not info.read_text().strip():
            assert time.monotonic() < deadline, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for k in range(2):
            processes.append(_start(["worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                     "--host", "127.0.0.1"], tmp_path / f"worker-{k}.log"))
        yield address, processes
    finally:
        for process in reversed(processes):
            _stop(process)


def _wait_for_workers(backend: DaskBackend, n: int) -> None:
    backend.client.wait_for_workers(n, timeout=START_TIMEOUT_S)


def test_dask_subprocess_cluster__a_killed_worker_loses_and_doubles_no_trial(
        loopback_cluster: tuple[str, list[subprocess.Popen[bytes]]], even_duel: Path) -> None:
    address, processes = loopback_cluster
    axes = [parse_vary("combatants.right.hp=5..13:4")]
    expected = sweep(even_duel, axes, 300, 21).records()
    backend = DaskBackend(address)
    try:
        _wait_for_workers(backend, 2)
        assert sweep(even_duel, axes, 300, 21, backend=backend).records() == expected
        victim = processes[1]
        killed: list[int] = []

        def kill_once(done: int, total: int) -> None:
            if not killed and done >= 100:
                victim.send_signal(signal.SIGKILL)
                killed.append(done)

        again = sweep(even_duel, axes, 300, 21, backend=backend, progress=kill_once)
        assert killed and killed[0] < 900, "the worker was not killed mid-sweep"
        victim.wait(10)
        assert again.records() == expected
        assert [r.report.trials for r in again.rows] == [300, 300, 300]
    finally:
        backend.close()


def test_collected__a_chunk_reported_twice_is_counted_once() -> None:
    got = Collected()
    part: list[FightResult] = []
    chunk: ChunkId = ("v", 0)
    got(chunk, part)
    got(chunk, part)
    assert got.duplicates == 1 and list(got.parts) == [chunk]
