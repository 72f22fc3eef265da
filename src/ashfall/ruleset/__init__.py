"""The :class:`Ruleset`: every number and switch the rules read, with the two edition presets.

``ashfall-2`` (the current edition, default) and ``ashfall-1`` (the earlier edition) differ exactly
as each section's ``LEGACY`` overrides say. A designer's house rules are a YAML file that names a
base preset and overrides options (:func:`load_ruleset`).
"""

import difflib
from collections.abc import Iterable
from dataclasses import replace
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from ashfall.files.yaml_marks import InputError, Marked, Problem, load_yaml, parse_yaml, problems_from_validation
from ashfall.ruleset.base import Section, option_range_text
from ashfall.ruleset.sections import (
    AttackSection,
    ChecksSection,
    ConcealmentSection,
    ConditionsSection,
    DamageSection,
    DefenseSection,
    DyingSection,
    HazardsSection,
    HealingSection,
    MagicSection,
    MoraleSection,
    MountedSection,
    ObjectsSection,
    PsionicsSection,
    TurnSection,
    UnderwaterSection,
    VehiclesSection,
)

DEFAULT_PRESET = "ashfall-2"


class Ruleset(BaseModel):
    """Every number and switch the rules use. Frozen; build variants with :meth:`with_options`."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str = Field(DEFAULT_PRESET, description="Preset or house-rule name.")
    edition: int = Field(2, ge=1, le=2, strict=True, description="1 for the earlier edition, 2 for the current one.")
    # The default sections are built without validation (they hold each option's own default) and the models
    # build their validators on first use (defer_build): loading a preset builds none, which keeps pydantic's
    # schema building out of `ashfall validate`'s start-up. A test checks they equal the validated defaults.
    attack: AttackSection = AttackSection.model_construct()
    defense: DefenseSection = DefenseSection.model_construct()
    checks: ChecksSection = ChecksSection.model_construct()
    damage: DamageSection = DamageSection.model_construct()
    dying: DyingSection = DyingSection.model_construct()
    healing: HealingSection = HealingSection.model_construct()
    psionics: PsionicsSection = PsionicsSection.model_construct()
    conditions: ConditionsSection = ConditionsSection.model_construct()
    turn: TurnSection = TurnSection.model_construct()
    morale: MoraleSection = MoraleSection.model_construct()
    magic: MagicSection = MagicSection.model_construct()
    hazards: HazardsSection = HazardsSection.model_construct()
    underwater: UnderwaterSection = UnderwaterSection.model_construct()
    mounted: MountedSection = MountedSection.model_construct()
    vehicles: VehiclesSection = VehiclesSection.model_construct()
    objects: ObjectsSection = ObjectsSection.model_construct()
    concealment: ConcealmentSection = ConcealmentSection.model_construct()

    def with_options(self, name: str | None = None, **sections: dict[str, Any]) -> "Ruleset":
        """A copy with some options changed, e.g. ``rs.with_options(attack={"map_step": -2})``.

        Raises:
            InputError: On an unknown section or option, or a bad value.
        """
        data = _merge(self.model_dump(), sections)
        if name:
            data["name"] = name
        try:
            return Ruleset.model_validate(data)
        except ValidationError as err:
            raise InputError(problems_from_validation(err, Marked(data, {}, "<options>"))) from None

    @property
    def section_names(self) -> tuple[str, ...]:
        """Names of the option sections, in order."""
        return tuple(n for n, f in Ruleset.model_fields.items() if isinstance(f.default, BaseModel))


for _section, _info in Ruleset.model_fields.items():  # each section knows its name, for its options' ranges
    if isinstance(_info.default, Section):
        type(_info.default).SECTION = _section


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _legacy_overrides() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, info in Ruleset.model_fields.items():
        section = info.default
        if isinstance(section, BaseModel) and type(section).LEGACY:  # type: ignore[attr-defined]
            out[name] = dict(type(section).LEGACY)  # type: ignore[attr-defined]
    return out


@cache
def preset(name: str = DEFAULT_PRESET) -> Ruleset:
    """A built-in ruleset: ``ashfall-2`` (current edition, default) or ``ashfall-1`` (earlier edition).

    Raises:
        KeyError: For an unknown preset name.
    """
    if name == "ashfall-2":
        return Ruleset.model_construct()  # the defaults, unvalidated as above: equal to Ruleset() (tested)
    if name == "ashfall-1":
        return Ruleset().with_options(name="ashfall-1", **_legacy_overrides()).model_copy(update={"edition": 1})
    raise KeyError(f"unknown ruleset preset {name!r}; choose one of: {', '.join(PRESETS)}")


PRESETS = ("ashfall-2", "ashfall-1")


def _jsonable(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def ruleset_from_data(marked: Marked) -> Ruleset:
    """Build a ruleset from parsed house-rule data: ``{base: ashfall-1, name: ..., options: {...}}``.

    Raises:
        InputError: Naming the key and line of every unknown key or bad value.
    """
    data = marked.data if marked.data is not None else {}
    if not isinstance(data, dict):
        raise InputError([Problem(marked.file, "", marked.line_of(()), "a ruleset file is a mapping")])
    unknown = [k for k in data if k not in ("base", "name", "options")]
    problems = [Problem(marked.file, str(k), marked.line_of((k,)),
                        f"unknown key {k!r} (base, name, options){_did_you_mean(str(k), ('base', 'name', 'options'))}")
                for k in unknown]
    base_name = data.get("base", DEFAULT_PRESET)
    try:
        base = preset(str(base_name))
    except KeyError as err:
        problems.append(Problem(marked.file, "base", marked.line_of(("base",)), str(err.args[0])))
        base = preset()
    options = data.get("options") or {}
    if not isinstance(options, dict):
        problems.append(Problem(marked.file, "options", marked.line_of(("options",)), "options is a mapping"))
        options = {}
    for key, instead in (("edition", "choose it with base: ashfall-1 or ashfall-2"),
                         ("name", "give the name at the top level, beside base")):
        if key in options:
            problems.append(Problem(marked.file, f"options.{key}", marked.line_of(("options", key)),
                                    f"{key} is not an option section: {instead}"))
    if problems:
        raise InputError(problems)
    merged = _merge(base.model_dump(), options)
    merged["name"] = str(data.get("name", f"{base.name}+house"))
    try:
        return Ruleset.model_validate(merged)
    except ValidationError as err:
        found = problems_from_validation(err, marked, ("options",))
        raise InputError([_hinted(p, item) for p, item in zip(found, err.errors(), strict=True)]) from None


def _did_you_mean(wanted: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest known names, or nothing."""
    close = [repr(k) for k in difflib.get_close_matches(wanted, sorted(known), n=2, cutoff=0.6)]
    return f"; did you mean {' or '.join(close)}?" if close else ""


def _hinted(problem: Problem, item: ErrorDetails) -> Problem:
    """An unknown section or option, with the names it may be a typo of."""
    loc = item["loc"]
    if item["type"] != "extra_forbidden" or not loc or len(loc) > 2:
        return problem
    sections = Ruleset().section_names
    if len(loc) == 1:
        known: Iterable[str] = sections
    elif loc[0] in sections:
        known = type(getattr(Ruleset(), str(loc[0]))).model_fields
    else:
        return problem
    hint = _did_you_mean(str(loc[-1]), known)
    return replace(problem, message=problem.message + hint) if hint else problem


def load_ruleset(source: str | Path) -> Ruleset:
    """A preset by name, or a house-rule YAML file that starts from a preset and overrides options."""
    if isinstance(source, str) and source in PRESETS:
        return preset(source)
    path = Path(source)
    if not path.exists():
        raise InputError([Problem(str(source), "", None, f"no such preset or file (presets: {', '.join(PRESETS)})")])
    marked = load_yaml(path)
    if marked.data is None:
        raise InputError([Problem(marked.file, "", marked.line_of(()), "the file is empty: a house-rule file is a "
                                                                       "mapping with base, name and options")])
    return ruleset_from_data(marked)


def ruleset_from_text(text: str, file: str = "<string>") -> Ruleset:
    """Like :func:`load_ruleset` for YAML text (used by tests and docs)."""
    return ruleset_from_data(parse_yaml(text, file))


def option_rows() -> list[dict[str, Any]]:
    """One row per option: path, ashfall-2 default, ashfall-1 value, rule, description, alternative, range."""
    ed2, ed1 = preset("ashfall-2"), preset("ashfall-1")
    rows = []
    for section in ed2.section_names:
        model = getattr(ed2, section)
        for field, info in type(model).model_fields.items():
            extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
            rows.append({
                "option": f"{section}.{field}",
                "ashfall-2": _jsonable(getattr(model, field)),
                "ashfall-1": _jsonable(getattr(getattr(ed1, section), field)),
                "rule": extra.get("rule", ""),
                "description": info.description or "",
                "alternative": extra.get("alternative", ""),
                "range": option_range_text(f"{section}.{field}", info.annotation, info.default),
            })
    return rows


__all__ = ["PRESETS", "Ruleset", "load_ruleset", "option_rows", "preset", "ruleset_from_text"]
