"""Starting `ashfall serve` as a local subprocess on a free loopback port, and waiting until it answers.

For the table's benchmark and its crash and browser tests, and for tool builders who script a local table:
one place knows how to launch the server and when it is ready.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ASHFALL = str(Path(sys.executable).parent / "ashfall")
"""The ``ashfall`` console script of this interpreter's environment."""
READY_WITHIN_S = 60.0
"""How long a starting server may take to answer (a cold start on a busy machine)."""


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    """``ashfall serve --db DB --port PORT`` as a subprocess, returned once it answers.

    Raises:
        RuntimeError: It did not answer within :data:`READY_WITHIN_S` (the process is killed).
    """
    proc = subprocess.Popen([ASHFALL, "serve", "--db", str(db), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + READY_WITHIN_S
    while time.monotonic() < deadline:
        try:  # the standard library's client: httpx is only a test dependency
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/encounters", timeout=1) as answer:
                if answer.status == 200:
                    return proc
        except (urllib.error.URLError, OSError):
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("ashfall serve did not start")


__all__ = ["ASHFALL", "free_port", "start_server"]
