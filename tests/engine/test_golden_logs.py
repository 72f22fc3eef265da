"""Golden logs: one recorded fight per shipped encounter and edition replays byte for byte from its intents.

tests/golden/<encounter>.<edition>.jsonl holds trial 0 of the sweep with seed 1, capped at three rounds:
the fight header (seed, ruleset, which encounter), then every intent, turn end and decision answer
followed by the events it produced (see docs/engine.md, "The log"). Each test here builds the
encounter again, replays the recorded intents with :func:`ashfall.engine.replay` (which checks every
event as it goes) and compares the whole text byte for byte.

Any change to the rules, the dice order, the AI's choices or the log format shows up here. When the
change is intended, regenerate the files and review the diff before committing it:

    .venv/bin/python scripts/regen_golden.py          # rewrite tests/golden/
    .venv/bin/python scripts/regen_golden.py --check  # exit 1 if any file would change
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ashfall.engine import ReplayDivergence, dumps_log, loads_log
from ashfall.sim.recorded import replay_recorded

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
EDITIONS = ("ashfall-1", "ashfall-2")
ENCOUNTERS = sorted(p.stem for p in (ROOT / "encounters").glob("*.yaml"))
FILES = sorted(GOLDEN.glob("*.jsonl"))


def test_golden_logs__every_shipped_encounter_has_one_per_edition() -> None:
    expected = {f"{stem}.{edition}.jsonl" for stem in ENCOUNTERS for edition in EDITIONS}
    assert {f.name for f in FILES} == expected


@pytest.mark.rule("INIT-1", "AE-1")
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_logs__replay_from_the_recorded_intents_byte_for_byte(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    log = loads_log(text)
    assert dumps_log(log) == text  # the stored text is canonical
    engine = replay_recorded(log, ROOT)
    assert dumps_log(engine.fight_log(log.setup)) == text


def test_golden_logs__a_changed_event_stops_the_replay_at_its_line() -> None:
    text = (GOLDEN / "duel.ashfall-2.jsonl").read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if '"type":"attack-rolled"' in line)
    lines[at] = lines[at].replace('"type":"attack-rolled"', '"type":"attack-rolled","label":"Tampered"', 1) \
        if '"label"' not in lines[at] else lines[at].replace('"label":"', '"label":"Tampered ', 1)
    log = loads_log("\n".join(lines) + "\n")
    events_before = sum(1 for line in lines[1:at] if '"type":"intent"' not in line)
    with pytest.raises(ReplayDivergence) as diverged:
        replay_recorded(log, ROOT)
    assert diverged.value.index == events_before
    assert diverged.value.expected is not None and "Tampered" in diverged.value.expected
    assert diverged.value.actual is not None and "Tampered" not in diverged.value.actual
