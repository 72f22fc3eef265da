"""The README's Python example runs, and its quick start names the test command .ci/run runs."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme__python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme__ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = re.search(r"## Quick start.*?```sh\n(.*?)```", readme, re.S)
    assert quick is not None
    commands = [line for line in quick.group(1).splitlines() if line.strip()]
    assert len(commands) == 2  # one for the main job, one for the tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()
