"""The bad-input corpus: every malformed file gets exactly one clear error, or plays to the end; none hangs or crashes.

See tests/bad_inputs/README.md for the case format. The commands run in-process through the real CLI, each under
a SIGALRM time limit, so a hang fails its case instead of the whole run.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app

CASES = Path(__file__).parent / "cases"
PROBLEM_LINE = re.compile(r"^(?:error: )?(?P<file>\S[^:]*):(?P<line>\d+): ")
"""A problem line: ``FILE:LINE: field.path: why`` (``run`` puts ``error:`` before the first one)."""


@dataclass(frozen=True)
class Case:
    """One corpus entry: the file the commands are given and what must come of it."""

    name: str
    entry: Path
    outcome: str
    error: str
    commands: tuple[str, ...]
    timeout: float


def _expectation(path: Path) -> dict[str, str]:
    fields: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        key, sep, value = raw.partition(":")
        if not sep:
            raise ValueError(f"{path}: '{raw}' is not a 'key: value' line")
        fields[key.strip()] = value.strip()
    return fields


def _case(name: str, entry: Path, expect: Path) -> Case:
    fields = _expectation(expect)
    unknown = set(fields) - {"error", "outcome", "commands", "timeout", "why"}
    if unknown:
        raise ValueError(f"{expect}: unknown keys {sorted(unknown)}")
    outcome = fields.get("outcome", "error")
    if outcome not in ("error", "plays"):
        raise ValueError(f"{expect}: outcome must be 'error' or 'plays', not {outcome!r}")
    if outcome == "error" and not fields.get("error"):
        raise ValueError(f"{expect}: an error case needs an 'error' pattern")
    return Case(name, entry, outcome, fields.get("error", ""), tuple(fields.get("commands", "validate").split()),
                float(fields.get("timeout", "10")))


def collect() -> list[Case]:
    """Every case under cases/, in a stable order."""
    found: list[Case] = []
    for expect in sorted(CASES.rglob("*")):
        if expect.name == "expect" and expect.is_file():
            found.append(_case(str(expect.parent.relative_to(CASES)), expect.parent / "encounter.yaml", expect))
        elif expect.suffix == ".expect":
            entry = expect.with_suffix(".yaml")
            found.append(_case(str(entry.relative_to(CASES)), entry, expect))
    return found


class Hung(Exception):
    """A command ran past its case's time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hung` in this (main) thread after ``seconds`` of this process's CPU, or five times as long.

    A hang spins (an endless loop burns CPU) or waits; the CPU clock catches the first whatever else shares the
    machine (the suite runs on two workers, and a valid generated fight can take a minute of CPU alone), and the
    wall clock, at five times the limit, catches the second.
    """

    def _alarm(_signum: int, _frame: FrameType | None) -> None:
        raise Hung(f"still running after {seconds} s of CPU (or {5 * seconds} s in all)")

    previous = signal.signal(signal.SIGPROF, _alarm), signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, 5 * seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


@dataclass(frozen=True)
class Ran:
    """What one command did."""

    code: int
    output: str


def invoke(args: list[str], seconds: float) -> Ran:
    """Run ``ashfall ARGS`` in-process; fail the test on a hang or a traceback."""
    runner = CliRunner()
    with time_limit(seconds):
        result = runner.invoke(app, args, catch_exceptions=True)
    if isinstance(result.exception, Hung):
        pytest.fail(f"ashfall {' '.join(args)} hung: {result.exception}")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"ashfall {' '.join(args)} raised {result.exception!r}:\n{result.output}") \
            from result.exception
    assert "Traceback" not in result.output, result.output
    return Ran(result.exit_code, result.output)


def problem_lines(output: str) -> list[str]:
    """The lines of the output that name a file and a line."""
    return [line for line in output.splitlines() if PROBLEM_LINE.match(line)]


CORPUS = collect()


def test_corpus__is_not_empty_and_every_entry_file_exists() -> None:
    assert CORPUS
    missing = [c.name for c in CORPUS if not c.entry.exists()]
    assert not missing, f"cases without their entry file: {missing}"


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_bad_input__gives_one_clear_error_or_plays(case: Case) -> None:
    entry = str(case.entry)
    checked = invoke(["validate", entry], case.timeout)
    if case.outcome == "plays":
        assert checked.code == 0, checked.output
        if "run" in case.commands:
            played = invoke(["run", entry, "--max-rounds", "20"], case.timeout)
            assert played.code == 0, played.output
        return
    assert checked.code != 0, f"validate accepted a bad file:\n{checked.output}"
    lines = problem_lines(checked.output)
    assert len(lines) == 1, f"expected exactly one problem line, got {len(lines)}:\n{checked.output}"
    assert re.search(case.error, lines[0]), f"{lines[0]!r} does not match {case.error!r}"
    if "run" in case.commands:
        refused = invoke(["run", entry], case.timeout)
        assert refused.code != 0, f"run accepted what validate refused:\n{refused.output}"
        assert any(re.search(case.error, line) for line in problem_lines(refused.output)), refused.output
