"""Test-session settings: the lowered tables' disk cache lives in a folder of this session's own.

The suite lowers the same fights many times over (every comparison, every deliberately wrong kernel and every
command a test runs builds its own setup object, and a fight with guns among allies takes about 20 s to lower).
The disk cache (``ashfall.sim.kernel_cache``) shares those lowerings across the session. It never reads or writes
the user's cache: its folder is made empty when the session starts and removed when it ends, so no test depends on
what ran before the session. A test that needs the cache off or elsewhere sets the variables itself (the cache's
own tests use a temporary folder of their own).

The suite runs on two pytest-xdist workers (``addopts`` in pyproject.toml). Each worker imports this file too:
the controller makes the folder, the workers (which inherit its environment) use the same one, and only the
controller removes it, after every worker is done. The cache writes each entry to a temporary file renamed into
place, so workers reading and writing it at once see whole entries or none.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest

_SHARED = "ASHFALL_TEST_CACHE_FOLDER"
"""The session's folder, as the controller passes it to its pytest-xdist workers through the environment."""

if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(_SHARED):
    _FOLDER, _OWNED = os.environ[_SHARED], False
else:
    _FOLDER, _OWNED = tempfile.mkdtemp(prefix="ashfall-test-caches-"), True
    os.environ[_SHARED] = _FOLDER
os.environ["ASHFALL_CACHE_DIR"] = _FOLDER  # set before any test, and inherited by the commands tests run

_ROOT = Path(__file__).resolve().parents[1]
_WARM_UP_LIMIT_S = 900.0
"""How long the kernel's first compile may hold back the first test (about 100 s of CPU on a busy machine)."""
_warm_up: list[subprocess.Popen[bytes]] = []


def _ashfall() -> list[str]:
    script = Path(sys.executable).parent / "ashfall"
    return [str(script)] if script.exists() else [sys.executable, "-m", "ashfall.cli.stop_signals"]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist, compile the fight kernel once, while the workers start and collect.

    The kernel compiles on first use (about 100 s of CPU) into numba's cache beside its code; with an empty cache
    (a fresh clone, as in CI) each worker, and each command a test starts meanwhile, would compile it again at the
    same time: twice the CPU, and a command's time limit can run out. This runs before the workers are started
    (xdist starts them last), and :func:`pytest_xdist_node_collection_finished` holds the first test back until
    it is done. With a filled cache it takes a few seconds. A failure is left to the kernel's own tests to show.
    """
    if session.config.pluginmanager.hasplugin("dsession"):  # the xdist controller (not a worker, not -n 0)
        duel = str(_ROOT / "encounters" / "duel.yaml")
        _warm_up.append(subprocess.Popen([*_ashfall(), "sim", duel, "--trials", "1", "--engine", "kernel"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown (and never called) without xdist
def pytest_xdist_node_collection_finished(node: object, ids: Sequence[str]) -> None:
    """Hold the tests back until the kernel's warm-up is done (the controller schedules after this returns)."""
    for process in _warm_up:
        try:
            process.wait(timeout=_WARM_UP_LIMIT_S)
        except subprocess.TimeoutExpired:
            process.kill()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove the session's cache folder, if this process made it; stop a warm-up cut short."""
    for process in _warm_up:
        if process.poll() is None:
            process.kill()
            process.wait()
    if _OWNED:
        shutil.rmtree(_FOLDER, ignore_errors=True)
