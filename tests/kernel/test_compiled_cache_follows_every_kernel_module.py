"""The kernel's compiled cache goes stale when any module of the kernel changes, not only the defining one.

Numba stamps a cached function with a hash of the file that defines it, yet the compiled code holds every function
it calls, from other modules too. ``ashfall.kernel.jit`` stamps each entry with a hash of all the package's modules
(``kernel_digest``), so a change to ``morale.py`` alone recompiles ``fight.play`` instead of loading its old code.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from ashfall.kernel import ai, covering, fight, morale
from ashfall.kernel.jit import KERNEL_DIR, KernelCache, PlainTypes, kernel_digest

_HELPER = "from ashfall.kernel.jit import jit\n\n\n@jit\ndef value() -> int:\n    return {}\n"
_CALLER = ("from ashfall.kernel.jit import entry\nfrom pkg import helper\n\n\n@entry\ndef call() -> int:\n"
           "    return helper.value() + 1\n")


def test_kernel_digest__changes_when_any_kernel_module_changes(tmp_path: Path) -> None:
    copy = tmp_path / "kernel"
    shutil.copytree(KERNEL_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = kernel_digest(copy)
    assert before == kernel_digest(KERNEL_DIR)
    morale_py = copy / "morale.py"
    morale_py.write_text(morale_py.read_text() + "\n# changed\n")
    assert kernel_digest(copy) != before


def test_every_compiled_kernel_function__is_stamped_with_the_whole_kernel() -> None:
    found = 0
    for module in (fight, ai, morale, covering):
        for value in vars(module).values():
            if not isinstance(value, PlainTypes):
                continue
            for compiled in (value, *value.twins):
                assert isinstance(compiled._cache, KernelCache)
                assert compiled._cache._impl.locator.get_source_stamp() == kernel_digest()
                found += 1
    assert found > 50


def _run(pkg_root: Path) -> str:
    code = "from pkg import caller; print(caller.call())"
    env = {"PYTHONPATH": f"{pkg_root}:{Path(fight.__file__).resolve().parents[2]}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300,
                          check=True)
    return done.stdout.strip()


def test_cached_caller__is_compiled_again_when_only_its_callee_module_changes(tmp_path: Path) -> None:
    """Two processes: the second, after ``helper.py`` alone changed, must not load the caller's old code."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helper.py").write_text(_HELPER.format(1))
    (pkg / "caller.py").write_text(_CALLER)
    assert _run(tmp_path) == "2"
    assert list((pkg / "__pycache__").glob("caller.call-*.nbi"))  # the caller was cached on disk
    (pkg / "helper.py").write_text(_HELPER.format(41))
    assert _run(tmp_path) == "42"
