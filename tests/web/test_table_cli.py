"""``ashfall serve`` on the command line: the web stack loads only for it, and a bad --open is a clear error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ashfall.web.local import ASHFALL


def test_serve__other_commands_do_not_import_the_web_stack() -> None:
    code = ("import sys, ashfall.cli.app; "
            "print(sorted(m for m in ('fastapi', 'uvicorn', 'ashfall.web') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_serve__unknown_encounter_to_open_exits_2_naming_it(tmp_path: Path) -> None:
    got = subprocess.run([ASHFALL, "serve", "--db", str(tmp_path / "deep" / "t.db"), "--open", "no-such-fight"],
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == 2 and "no-such-fight" in got.stderr
    assert (tmp_path / "deep" / "t.db").is_file()  # the database and its folders were created
