"""Stopping ``ashfall sim`` with SIGTERM, Ctrl-C (SIGINT to the process group) or SIGKILL: every process ends.

These start the real console script on a shipped encounter with far more trials than the test waits for,
send the signal once the worker process is up and playing, and read the process table in /proc: the command
must exit with 128 + the signal number, print no traceback, and leave no worker behind, within two seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ashfall.encounters import encounters_root

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")

SKIRMISH = str(encounters_root() / "skirmish.yaml")
STOP_WITHIN_S = 2.0
"""The most a stop may take: the signal to the exit of the command and of every worker."""
ORPHAN_WITHIN_S = 5.0
"""The most an orphaned worker may take to notice SIGKILL took its parent (it polls; busy CI machines are slow)."""
STARTUP_LIMIT_S = 60.0
"""How long the command may take to start its worker on a busy machine."""
PLAYING_S = 1.5
"""How long the test lets the worker play before the signal (so it is mid-chunk, not starting up)."""


def _command() -> list[str]:
    script = Path(sys.executable).parent / "ashfall"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "ashfall.cli.stop_signals"]


def _children(pid: int) -> list[int]:
    """The live (not zombie) processes whose parent is ``pid``."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _is_worker(pid: int) -> bool:
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@dataclass
class Sweep:
    """A running ``ashfall sim --workers 2`` and its worker process."""

    process: subprocess.Popen[bytes]
    worker: int

    def others(self) -> list[int]:
        """Every child of the command (its worker, and the helper that tracks shared semaphores)."""
        return _children(self.process.pid)


@pytest.fixture
def sweep() -> Iterator[Sweep]:
    process = subprocess.Popen([*_command(), "sim", SKIRMISH, "--trials", "1000000", "--workers", "2", "--json"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    started: list[int] = []
    try:
        deadline = time.monotonic() + STARTUP_LIMIT_S
        while time.monotonic() < deadline and process.poll() is None:
            workers = [pid for pid in _children(process.pid) if _is_worker(pid)]
            if workers:
                started = workers
                break
            time.sleep(0.05)
        assert started, "the worker process never started"
        time.sleep(PLAYING_S)
        assert process.poll() is None, "the sweep ended before the signal"
        yield Sweep(process, started[0])
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for pid in started:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if process.stderr is not None:
            process.stderr.close()


def _stop(sweep: Sweep, send: signal.Signals, to_group: bool) -> tuple[int, float, str]:
    """Send the signal; the exit code, the seconds until the command and its worker were gone, and stderr."""
    children = sweep.others()
    assert sweep.worker in children
    sent = time.monotonic()
    if to_group:
        os.killpg(sweep.process.pid, send)
    else:
        os.kill(sweep.process.pid, send)
    code = sweep.process.wait(timeout=30)
    while any(_alive(pid) for pid in children) and time.monotonic() - sent < 30:
        time.sleep(0.01)
    took = time.monotonic() - sent
    for pid in children:  # a survivor would hold standard error open (and fail the test below)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    assert sweep.process.stderr is not None
    return code, took, sweep.process.stderr.read().decode(errors="replace")


def test_sim_with_workers__sigterm_stops_the_command_and_its_workers_at_once_with_143(sweep: Sweep) -> None:
    code, took, stderr = _stop(sweep, signal.SIGTERM, to_group=False)
    assert code == 143, stderr
    assert took < STOP_WITHIN_S
    assert not _alive(sweep.worker)
    assert "Traceback" not in stderr
    assert "stopped by SIGTERM" in stderr


def test_sim_with_workers__ctrl_c_to_the_process_group_stops_everything_at_once_with_130(sweep: Sweep) -> None:
    code, took, stderr = _stop(sweep, signal.SIGINT, to_group=True)
    assert code == 130, stderr
    assert took < STOP_WITHIN_S
    assert not _alive(sweep.worker)
    assert "Traceback" not in stderr
    assert "KeyboardInterrupt" not in stderr


def test_sim_with_workers__sigint_to_the_command_alone_stops_its_workers_too(sweep: Sweep) -> None:
    code, took, stderr = _stop(sweep, signal.SIGINT, to_group=False)
    assert code == 130, stderr
    assert took < STOP_WITHIN_S
    assert not _alive(sweep.worker)
    assert "Traceback" not in stderr


def test_sim_with_workers__a_killed_command_leaves_no_worker_running(sweep: Sweep) -> None:
    # SIGKILL runs no clean-up at all: the worker notices it has been orphaned and exits by itself.
    code, took, _stderr = _stop(sweep, signal.SIGKILL, to_group=False)
    assert code == -signal.SIGKILL
    assert took < ORPHAN_WITHIN_S
    assert not _alive(sweep.worker)


@pytest.fixture
def handlers() -> Iterator[None]:
    """The signal handlers and the threads' exception hook as they were, restored after the test."""
    import threading

    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    hook = threading.excepthook
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        threading.excepthook = hook


def _thread_failing_after(command_stops: bool) -> tuple[int, list[str]]:
    """Run a command whose background thread raises (after a SIGTERM to this process when ``command_stops``).

    Returns the exit code and the exceptions that reached the threads' hook in place before (the printer).
    """
    import threading

    from ashfall.cli.stop_signals import run

    printed: list[str] = []
    threading.excepthook = lambda args: printed.append(repr(args.exc_value))
    release = threading.Event()

    def failing() -> None:
        release.wait(10)
        raise RuntimeError("the pool's manager thread, its workers gone")

    def command() -> None:
        worker = threading.Thread(target=failing)
        worker.start()
        try:
            if command_stops:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(10)  # the handler raises Stopped here
        finally:
            release.set()
            worker.join()

    return run(command), printed


@pytest.mark.usefixtures("handlers")
def test_stop__a_background_thread_failing_during_the_stop_prints_no_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, printed = _thread_failing_after(command_stops=True)
    assert code == 143
    assert printed == []
    err = capsys.readouterr().err
    assert "stopped by SIGTERM" in err and "Traceback" not in err


@pytest.mark.usefixtures("handlers")
def test_stop__a_background_thread_failing_without_a_stop_is_still_printed() -> None:
    code, printed = _thread_failing_after(command_stops=False)
    assert code == 0
    assert printed == ["RuntimeError(\"the pool's manager thread, its workers gone\")"]
