"""Defaults built without validation: the presets and the models' default parts equal their validated selves.

The ruleset's sections, ``preset("ashfall-2")``, a creature's senses, speeds, attributes and morale, an
encounter's victory terms, empty hazard squares and the built-in map legend are built with ``model_construct``
(no validation), and the models build their validators on first use, so that checking an encounter file builds
no ruleset validator at all (the start-up budget of ``ashfall validate``, bench/bench_startup.py). These tests
hold them to what validation would have built.
"""

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from ashfall.content.schema import Model
from ashfall.encounters.maps import DEFAULT_LEGEND
from ashfall.encounters.schema import LegendEntry
from ashfall.ruleset import Ruleset, preset
from ashfall.ruleset.base import Section


def _models(root: type[BaseModel]) -> Iterator[type[BaseModel]]:
    for sub in root.__subclasses__():
        yield sub
        yield from _models(sub)


def _model_defaults() -> list[tuple[str, BaseModel]]:
    """Every field default that is itself a model, across the ruleset, content and encounter schemas."""
    import ashfall.encounters.loader  # noqa: F401  (defines the encounter models: hazards, lights, maps)

    found = []
    models: list[type[BaseModel]] = [Ruleset, *_models(Section), *_models(Model)]
    for model in models:
        for name, info in model.model_fields.items():
            if isinstance(info.default, BaseModel):
                found.append((f"{model.__name__}.{name}", info.default))
    return found


def test_ruleset_preset_ashfall_2__equals_the_validated_defaults() -> None:
    built = preset("ashfall-2")
    assert built == Ruleset.model_validate({})
    assert built == Ruleset.model_validate(built.model_dump())
    assert built.model_dump() == Ruleset.model_validate({}).model_dump()


def test_ruleset_preset_ashfall_1__still_validates_its_overrides() -> None:
    old = preset("ashfall-1")
    assert old.edition == 1
    assert old == Ruleset.model_validate(old.model_dump())


@pytest.mark.parametrize(("where", "default"), _model_defaults(), ids=lambda v: v if isinstance(v, str) else "")
def test_model_default__equals_the_model_validated_from_its_own_data(where: str, default: BaseModel) -> None:
    assert default == type(default).model_validate(default.model_dump()), where


def test_model_defaults__cover_the_sections_and_the_creature_parts() -> None:
    names = {where for where, _ in _model_defaults()}
    assert {"Ruleset.attack", "Ruleset.concealment", "Creature.senses", "Creature.morale",
            "EncounterFile.victory", "HazardsSpec.burning"} <= names


@pytest.mark.parametrize("char", sorted(DEFAULT_LEGEND))
def test_built_in_legend_entry__equals_the_validated_entry(char: str) -> None:
    entry = DEFAULT_LEGEND[char]
    assert entry == LegendEntry.model_validate(entry.model_dump())


def test_validate__builds_no_ruleset_validator_for_a_preset() -> None:
    probe = """
import json
from ashfall.cli.app import app
try:
    app(["validate", "encounters/duel.yaml"])
except SystemExit as stop:
    code = stop.code
from ashfall.ruleset import Ruleset
from ashfall.ruleset.base import Section
built = [m.__name__ for m in (Ruleset, *Section.__subclasses__()) if m.__pydantic_complete__]
print(json.dumps([code, built]))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    code, built = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0
    assert built == []
