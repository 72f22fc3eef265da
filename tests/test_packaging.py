"""Packaging: ``python -m build`` makes a wheel that installs into a fresh venv and runs the quick start.

The wheel carries the shipped content, encounters and rule catalog as package data, and the licence. The fresh
venv gets the wheel only (``--no-deps``); its dependencies come from this venv's site-packages through a path
file, so the test needs no network and checks what the wheel itself holds (the installed ``ashfall`` must be the
wheel's, not this checkout's).
"""

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (found,) = out.glob("ashfall-*.whl")
    return found


@pytest.fixture(scope="module")
def fresh(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True, text=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


@pytest.mark.slow
def test_wheel__holds_the_licence_content_encounters_and_catalog(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "ashfall/_encounters/bandit-band.yaml" in names
    assert "ashfall/_content/weapons/melee.yaml" in names
    assert "ashfall/core/catalog.json" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata


@pytest.mark.slow
def test_wheel__installs_into_a_fresh_venv_and_runs_the_quick_start(fresh: Path, tmp_path: Path) -> None:
    where = subprocess.run([str(fresh / "bin" / "python"), "-c", "import ashfall; print(ashfall.__file__)"],
                           check=True, capture_output=True, text=True, cwd=tmp_path).stdout
    assert str(fresh) in where  # the wheel's copy, not this checkout's source
    quick = subprocess.run([str(fresh / "bin" / "ashfall"), "sim", "encounters/bandit-band.yaml", "--trials", "20"],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert quick.returncode == 0, quick.stderr
    assert "Highway Ambush — 20 fights" in quick.stdout
    packaged = Path(where.strip()).parent / "_encounters"
    check = subprocess.run([str(fresh / "bin" / "ashfall"), "validate", str(packaged)], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count(": ok:") == len(list(packaged.glob("*.yaml")))
