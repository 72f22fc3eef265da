"""How the ``ashfall`` command stops on Ctrl-C (SIGINT) and SIGTERM: at once, quietly, with the shell's exit code.

The console script enters through :func:`main`, which installs the handlers *before* the commands are imported,
so a signal during start-up is handled too. The first SIGINT or SIGTERM raises :class:`Stopped` wherever the
main thread is (a fight being played, a wait on worker processes); ``Stopped`` derives from ``BaseException``
so no ``except Exception`` on the way swallows it, and the simulator's runner stops its worker processes as it
unwinds (:mod:`ashfall.sim.runner`). Further signals are ignored while that clean-up runs. The process then
exits with ``128 + signal number`` (130 for SIGINT, 143 for SIGTERM) and a one-line note, no traceback.
Once a stop has begun, an exception that ends a background thread is not printed either: the worker pool's
manager thread can fail as the runner terminates the workers under it, and that traceback is part of the stop.

After a stop, :func:`main` runs the exit handlers and leaves without tearing the interpreter down: freeing
a simulation's caches object by object takes longer than the stop itself (about a second on a busy machine).

This module imports nothing heavy, so installing the handlers costs nothing before the real work starts.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a command."""
_stopping = [False]
"""Whether a stop signal has arrived (set once, by the handler)."""
_thread_hook = [threading.excepthook]
"""The hook that prints a thread's uncaught exception, as it was when the handlers were installed."""


class Stopped(BaseException):
    """A stop signal arrived; unwinding releases what the command holds (worker processes above all)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")

    @property
    def exit_code(self) -> int:
        """The shell's convention for a process ended by a signal: 128 + the signal number."""
        return 128 + self.signum


def _stop(signum: int, _frame: FrameType | None) -> None:
    # Only the first signal raises: a second Ctrl-C must not interrupt the clean-up the first one started.
    _stopping[0] = True
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    raise Stopped(signum)


def _quiet_after_stop(args: threading.ExceptHookArgs) -> None:
    """Threads' uncaught exceptions as Python prints them, except once a stop has begun (the pool's teardown)."""
    if not _stopping[0]:
        _thread_hook[0](args)


def install() -> None:
    """Make SIGINT and SIGTERM raise :class:`Stopped` in the main thread (and background threads quiet after it)."""
    _stopping[0] = False
    if threading.excepthook is not _quiet_after_stop:
        _thread_hook[0] = threading.excepthook
    threading.excepthook = _quiet_after_stop
    for sig in STOP_SIGNALS:
        signal.signal(sig, _stop)


def run(command: Callable[[], object]) -> int:
    """Run ``command`` with the stop handlers installed; the exit code a stop calls for, else 0 after it returns.

    Exits raised by the command (``SystemExit``) pass through unchanged. Once the command is over, the signals
    take their default action: a Ctrl-C while the interpreter shuts down ends the process there and then.
    """
    install()
    try:
        command()
    except Stopped as stopped:
        sys.stderr.write(f"\n{stopped}\n")
        sys.stderr.flush()
        return stopped.exit_code
    finally:
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_DFL)
    return 0


def _app() -> None:
    from ashfall.cli.app import app  # imported after the handlers are in place: start-up can be stopped too

    app()


def exit_stopped(code: int) -> None:
    """Leave with ``code`` after a stop: the exit handlers run, the interpreter is not torn down object by object."""
    atexit._run_exitfuncs()  # what a normal exit would run (multiprocessing's clean-up among them)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main() -> None:
    """The ``ashfall`` console script."""
    code = run(_app)
    if code:
        exit_stopped(code)


if __name__ == "__main__":
    main()
