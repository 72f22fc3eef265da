"""Property: what ``validate`` accepts, ``run`` plays to the end or the round limit; what it rejects gets clear errors.

Hypothesis writes encounter files (with house rules inline or in their own file, and stat blocks inline or in
a content file) whose numbers lie within, on the edges of, or just outside their documented ranges: the
ruleset options' ranges (``ashfall.ruleset.ranges``) and the schemas' ``Field(ge=..., le=...)`` bounds
(``ashfall.content.number_ranges``). Each file goes through the real CLI in-process under a time limit.
The default profile is a couple of dozen small fights; the ``slow`` test runs many more.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ashfall.content.number_ranges import number_ranges
from ashfall.content.schema import Creature
from ashfall.encounters.schema import MAX_SEED
from ashfall.ruleset import option_rows
from ashfall.ruleset.ranges import range_of
from tests.bad_inputs.test_bad_inputs import PROBLEM_LINE, invoke

RUN_SECONDS = 120.0
"""A run of three rounds of any accepted file finishes inside this (the harness fails a hang).

Why so long: the slowest files the ranges admit are slow, not hung. 39 Warriors with 6 actions each against a
brute whose claw deals 25d40 took 34.8 s for three rounds on the CI machine, almost all of it the AI weighing
exact turn-damage distributions of such dice while its caches are cold."""

INT_OPTIONS = sorted(r["option"] for r in option_rows()
                     if isinstance(r["ashfall-2"], int) and not isinstance(r["ashfall-2"], bool))
CREATURE_NUMBERS = {path: bounds for path, bounds in number_ranges(Creature).items()
                    if "[]" not in path and "{}" not in path and not path.startswith("vehicle")}
GOOD_DICE = ["1d6", "25d40", "1d1000", "4d6kh3", "1d6+9994", "2d8-1", "1d4*2"]
BAD_DICE = ["26d40", "1d6e6", "10d20!!!", "2d6 fire", "1d6//(1d2-1)", "1d6+9995"]
BAD_TYPES = [True, "3", 2.5, None]


def edged(low: int, high: int) -> st.SearchStrategy[Any]:
    """Mostly within the range, often on an edge, sometimes just outside it or of the wrong type."""
    within = st.integers(low, high)
    edges = st.sampled_from([low, high])
    outside = st.sampled_from([low - 1, high + 1, *BAD_TYPES])
    # Hypothesis leans towards small draws, so the rare choices get the large numbers.
    return st.integers(0, 19).flatmap(lambda k: within if k < 13 else edges if k < 19 else outside)


def mostly(good: list[Any], bad: list[Any]) -> st.SearchStrategy[Any]:
    """One of ``good`` nine times in ten, else one of ``bad``."""
    return st.integers(0, 9).flatmap(lambda k: st.sampled_from(bad if k == 9 else good))


@st.composite
def house_rules(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, dict[str, Any]] = {}
    for name in draw(st.lists(st.sampled_from(INT_OPTIONS), max_size=3, unique=True)):
        allowed = range_of(name)
        section, key = name.split(".")
        options.setdefault(section, {})[key] = draw(edged(allowed.lo, allowed.hi))
    return {"base": draw(st.sampled_from(["ashfall-2", "ashfall-1"])), "options": options}


def _put(block: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for part in parents:
        block = block.setdefault(part, {})
    block[last] = value


@st.composite
def stat_block(draw: st.DrawFn) -> dict[str, Any]:
    block: dict[str, Any] = {"id": "brute", "name": "Brute", "hp": 20}
    for path in draw(st.lists(st.sampled_from(sorted(CREATURE_NUMBERS)), max_size=3, unique=True)):
        low, high = CREATURE_NUMBERS[path]
        assert low is not None and high is not None
        _put(block, path, draw(edged(low, high)))
    claw: dict[str, Any] = {"id": "claw", "name": "Claw", "kind": "melee", "damage_type": "slashing",
                            "properties": ["natural"], "damage": draw(mostly(GOOD_DICE, BAD_DICE)),
                            "bonus": draw(edged(-10, 20))}
    block["natural_weapons"] = [claw]
    return block


@st.composite
def encounter_files(draw: st.DrawFn) -> dict[str, str]:
    """The files of one encounter folder: ``encounter.yaml`` and any house-rule or content file it names."""
    files: dict[str, str] = {}
    doc: dict[str, Any] = {"name": "Generated", "sides": [{"name": "a"}, {"name": "b"}]}
    if draw(st.booleans()):
        doc["seed"] = draw(edged(0, MAX_SEED))
    if draw(st.booleans()):
        doc["victory"] = {"round_limit": draw(edged(1, 1000))}
    rules = draw(house_rules())
    if draw(st.booleans()):
        files["rules.yaml"] = yaml.safe_dump(rules)
        doc["ruleset"] = "rules.yaml"
    else:
        doc["ruleset"] = rules
    brute = draw(stat_block())
    if draw(st.booleans()):
        files["gear.yaml"] = yaml.safe_dump({"creatures": [brute]})
        doc["content"] = ["gear.yaml"]
        foe: Any = "brute"
    else:
        foe = brute
    on_map = draw(st.booleans())
    a: dict[str, Any] = {"creature": "warrior", "side": "a"}
    b: dict[str, Any] = {"creature": foe, "side": "b"}
    if on_map:
        width = draw(mostly([2, 12, 200], [1, 0, 201]))
        doc["map"] = {"width": width, "height": draw(st.sampled_from([2, 3, 12]))}
        a["position"] = [0, 0]
        b["position"] = [draw(edged(0, max(width - 1, 0))), 1]
        if draw(st.booleans()):
            doc["hazards"] = {"gas": [{"at": [0, 1], "radius": draw(edged(0, 200))}],
                              "collapse": [{"at": [1, 0], "radius": draw(edged(0, 200)),
                                            "countdown": draw(edged(1, 100))}]}
    else:
        a["count"] = draw(edged(1, 99))
    doc["combatants"] = [a, b]
    files["encounter.yaml"] = yaml.safe_dump(doc, sort_keys=False)
    return files


def check_validate_then_run(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files.items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
        entry = str(Path(folder) / "encounter.yaml")
        checked = invoke(["validate", entry], RUN_SECONDS)
        if checked.code == 0:
            played = invoke(["run", entry, "--max-rounds", "3"], RUN_SECONDS)
            assert played.code == 0, f"validate accepted, run failed:\n{files}\n{played.output}"
            return
        lines = [line for line in checked.output.splitlines() if re.search(r"\.yaml", line)]
        assert lines, checked.output
        for line in lines:
            assert PROBLEM_LINE.match(line), f"a problem without its file and line: {line!r}\n{files}"


_NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
"""A failing file is reported as drawn: shrinking would rerun minute-long fights many times."""
_FEW = settings(max_examples=24, deadline=None, phases=_NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])


@_FEW
@given(encounter_files())
def test_validated_file__plays_to_the_end_or_round_limit_and_rejected_file_names_file_and_line(
        files: dict[str, str]) -> None:
    check_validate_then_run(files)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, phases=_NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(encounter_files())
def test_validated_file__plays__many_examples(files: dict[str, str]) -> None:
    check_validate_then_run(files)
