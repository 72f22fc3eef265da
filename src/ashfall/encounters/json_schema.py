"""JSON Schema of the input files, generated from their pydantic models, for editors (``ashfall schema KIND``).

Three kinds (:data:`KINDS`): ``encounter`` (:class:`~ashfall.encounters.schema.EncounterFile`, with an inline
``ruleset`` mapping checked as a house-rule file and an inline ``creature`` as a stat block), ``content`` (a
mapping of the content sections, each a list of its model's entries) and ``ruleset`` (a house-rule file:
``base``, ``name`` and ``options``, a partial :class:`~ashfall.ruleset.Ruleset` whose keys are all optional).

The schemas check shapes, types, ranges and names an editor can show as you type; references between files
(a creature id, a weapon of the library, a map's legend) are for ``ashfall validate``, which also names the
file, field path and line of each problem. Everything here is generated, so it cannot drift from the models.
"""

from __future__ import annotations

import copy
from typing import Any

KINDS = ("encounter", "content", "ruleset")
"""The file kinds that have a schema."""
DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect pydantic generates."""


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one kind of file (one of :data:`KINDS`).

    Raises:
        ValueError: An unknown kind.
    """
    if kind == "encounter":
        return _encounter()
    if kind == "content":
        return _content()
    if kind == "ruleset":
        return _ruleset_file()
    raise ValueError(f"no schema for {kind!r}; choose one of: {', '.join(KINDS)}")


def _document(title: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "$schema": DIALECT, "title": title}


def _optional_everywhere(schema: Any) -> Any:
    """A copy of ``schema`` with no ``required`` lists: house rules override any part of a ruleset."""
    if isinstance(schema, dict):
        return {k: _optional_everywhere(v) for k, v in schema.items() if k != "required"}
    if isinstance(schema, list):
        return [_optional_everywhere(v) for v in schema]
    return schema


def _ruleset_parts() -> tuple[dict[str, Any], dict[str, Any]]:
    """The house-rule file object schema and the definitions it refers to."""
    from ashfall.ruleset import PRESETS, Ruleset

    options = _optional_everywhere(Ruleset.model_json_schema(ref_template="#/$defs/{model}"))
    defs = options.pop("$defs", {})
    options.get("properties", {}).pop("name", None)  # the file's own `name` names it
    defs["RulesetOptions"] = options
    shape = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "base": {"enum": list(PRESETS), "default": PRESETS[0], "description": "The preset the rules start from."},
            "name": {"type": "string", "description": "The house rules' name (shown in reports)."},
            "options": {"$ref": "#/$defs/RulesetOptions", "description": "Options that differ from the base."},
        },
    }
    return shape, defs


SHORTHANDS: tuple[tuple[str, str | None, dict[str, Any]], ...] = (
    ("MapSpec", "rows", {"type": "string", "description": "The rows as one block of lines."}),
    ("CombatantSpec", "tactics", {"type": "string", "description": "One activity every turn, or 'ai'."}),
    ("BreakingPointSpec", None, {"type": "string", "description": "'leader-killed' or 'leader-killed -> surrender'."}),
)
"""Shorter forms the models' ``before`` validators accept, added to the generated schema: (model, field or None
for the whole model, the extra form). A test checks every shipped file against the result."""


def _accept_shorthands(defs: dict[str, Any]) -> None:
    for model, field, extra in SHORTHANDS:
        if model not in defs:
            continue
        if field is None:
            defs[model] = {"anyOf": [defs[model], extra]}
            continue
        properties = defs[model].get("properties", {})
        if field in properties:
            current = properties[field]
            described = {k: current.pop(k) for k in ("description", "default", "title") if k in current}
            properties[field] = {"anyOf": [current, extra], **described}


def _ruleset_file() -> dict[str, Any]:
    shape, defs = _ruleset_parts()
    return _document("Ashfall house rules", {**shape, "$defs": defs})


def _content_parts() -> tuple[dict[str, Any], dict[str, Any]]:
    from pydantic import TypeAdapter

    from ashfall.content.loader import SECTIONS

    defs: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    for key, (kind, model) in SECTIONS.items():
        schema = TypeAdapter(model).json_schema(ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        defs[model.__name__] = schema
        properties[key] = {"type": ["array", "null"], "items": {"$ref": f"#/$defs/{model.__name__}"},
                           "description": f"{kind} entries"}
    _accept_shorthands(defs)
    return {"type": ["object", "null"], "additionalProperties": False, "properties": properties}, defs


def _content() -> dict[str, Any]:
    shape, defs = _content_parts()
    return _document("Ashfall content", {**shape, "$defs": defs})


def _encounter() -> dict[str, Any]:
    from ashfall.encounters.schema import EncounterFile

    schema = EncounterFile.model_json_schema(ref_template="#/$defs/{model}")
    defs: dict[str, Any] = schema.pop("$defs", {})
    rules_shape, rules_defs = _ruleset_parts()
    _content_shape, content_defs = _content_parts()
    defs.update({k: v for k, v in rules_defs.items() if k not in defs})
    defs.update({k: v for k, v in content_defs.items() if k not in defs})
    defs["HouseRules"] = rules_shape
    _accept_shorthands(defs)
    _replace_free_mapping(schema["properties"]["ruleset"], {"$ref": "#/$defs/HouseRules"})
    combatant = defs.get("CombatantSpec", {})
    if "creature" in combatant.get("properties", {}):
        _replace_free_mapping(combatant["properties"]["creature"], {"$ref": "#/$defs/Creature"})
    return _document("Ashfall encounter", {**schema, "$defs": defs})


def _replace_free_mapping(field: dict[str, Any], with_schema: dict[str, Any]) -> None:
    """Swap the ``dict[str, Any]`` branch of a ``str | dict`` field for a real schema (in place)."""
    for branch in field.get("anyOf", []):
        if branch.get("type") == "object" and "$ref" not in branch:
            branch.clear()
            branch.update(copy.deepcopy(with_schema))
