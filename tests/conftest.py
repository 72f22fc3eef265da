"""Test-session settings: the lowered tables' disk cache lives in a folder of this session's own.

The suite lowers the same fights many times over (every comparison, every deliberately wrong kernel and every
command a test runs builds its own setup object, and a fight with guns among allies takes about 20 s to lower).
The disk cache (``ashfall.sim.kernel_cache``) shares those lowerings across the session. It never reads or writes
the user's cache: its folder is made empty when the session starts and removed when it ends, so no test depends on
what ran before the session. A test that needs the cache off or elsewhere sets the variables itself (the cache's
own tests use a temporary folder of their own).
"""

import os
import shutil
import tempfile

import pytest

_FOLDER = tempfile.mkdtemp(prefix="ashfall-test-caches-")
os.environ["ASHFALL_CACHE_DIR"] = _FOLDER  # set before any test, and inherited by the commands tests run


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove the session's cache folder."""
    shutil.rmtree(_FOLDER, ignore_errors=True)
