"""docs/encounters.md documents every field, map character and tactic of the encounter format."""

from pathlib import Path

import pytest
from pydantic import BaseModel

from ashfall.encounters import schema
from ashfall.encounters.maps import DEFAULT_LEGEND
from ashfall.encounters.objects_spec import ObjectPlacement

DOC = Path(__file__).resolve().parents[2] / "docs" / "encounters.md"
MODELS = [schema.EncounterFile, schema.MapSpec, schema.LegendEntry, schema.CoverSpec, schema.ElevationSpec,
          schema.SideSpec, schema.CombatantSpec, schema.VictorySpec, ObjectPlacement]


@pytest.mark.parametrize("model", MODELS, ids=[m.__name__ for m in MODELS])
def test_encounters_doc__documents_every_field(model: type[BaseModel]) -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [f for f in model.model_fields if f"| `{f}` |" not in text]
    assert not missing, f"docs/encounters.md does not document {model.__name__} fields {missing}"


@pytest.mark.parametrize("values", [
    [f"| `{ch}` |" for ch in DEFAULT_LEGEND],
    [f"| `{a.value}` |" for a in schema.TurnActivity],
    [f"`{k.value}`" for k in schema.ControllerKind],
    [f"`{c.value}`" for c in schema.CoverName],
], ids=["legend", "tactics", "controllers", "cover"])
def test_encounters_doc__names_every_allowed_value(values: list[str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert not [v for v in values if v not in text]


def test_encounters_doc__lists_the_shipped_examples() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in ("duel.yaml", "skirmish.yaml", "bandit-band.yaml", "corridor.yaml"):
        assert f"| `{name}` |" in text
