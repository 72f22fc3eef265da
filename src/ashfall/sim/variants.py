"""Variants of an encounter by path: ``--vary 'combatants.ogre.hp=30..60:5'`` parsed, checked and applied.

A *path* names one number (or switch) of a fight:

- ``ruleset.SECTION.OPTION`` — a ruleset option (``ruleset.attack.map_step``), see docs/ruleset-options.md;
- ``combatants.WHO.FIELD[.SUB…]`` — a field of the stat block of the combatants ``WHO`` names (a combatant
  id such as ``champion`` or ``raider-2``, or a creature id such as ``raider`` for all of them), overriding
  the library's stat block for that fight only (``combatants.ogre.hp``, ``combatants.ogre.attributes.might``);
  ``combatants.WHO.count`` changes how many the file's entry puts in the fight;
- any other path is a field of the encounter file itself (``victory.round_limit``).

Every path is checked against the schema before anything runs: an unknown path is an error with the
closest known paths; a bad value gets the schema's own message (the same validation that loading a file
or a house-rule file does). :func:`apply_variant` returns a fully checked :class:`EncounterSpec`, and
:class:`VariantSetup` is a :class:`~ashfall.sim.setups.FightSetup` that pickles as (file, assignments) so
worker processes and Dask workers rebuild the same variant themselves.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import itertools
import re
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from types import NoneType, UnionType
from typing import Any

from pydantic import BaseModel, ValidationError

from ashfall.content.library import Library, close_matches, suggestion_text
from ashfall.content.schema import Creature
from ashfall.encounters import EncounterSpec, RosterEntry
from ashfall.encounters.loader import encounter_from_marked
from ashfall.encounters.schema import EncounterFile
from ashfall.files.yaml_marks import InputError, Marked, Problem, load_yaml, problems_from_validation
from ashfall.ruleset import Ruleset
from ashfall.sim.setups import FileSetup, SpecSetup

Value = int | float | bool | str
"""One value a path can take."""
Assignment = tuple[tuple[str, Value], ...]
"""One variant: (path, value) pairs, in the order the axes were given."""

MAX_RANGE_VALUES = 10_000
"""The most values one ``a..b:step`` range may expand to (a guard against typos such as a step of 0.0001)."""
_COMBATANT_FIELDS = ("count",)
"""Fields of a combatants entry (not of its stat block) that a path may vary."""


@dataclass(frozen=True, slots=True)
class Vary:
    """One ``--vary PATH=VALUES`` argument.

    Attributes:
        path: The dotted path as written (``combatants.ogre.hp``).
        values: The values in the order given (a range expanded, ends included).
        low: The range's lower end (None for a list).
        high: The range's upper end (None for a list).
    """

    path: str
    values: tuple[Value, ...]
    low: float | None = None
    high: float | None = None

    @property
    def is_range(self) -> bool:
        """Given as ``a..b`` (an interval a balance search may look inside), not as a list."""
        return self.low is not None and self.high is not None

    @property
    def integral(self) -> bool:
        """Every value is an integer."""
        return all(isinstance(v, int) and not isinstance(v, bool) for v in self.values)


def _scalar(text: str) -> Value:
    """A list item: an int, a float, true/false, else the text itself (an enum value such as ``strict-map``)."""
    word = text.strip()
    if re.fullmatch(r"[+-]?\d+", word):
        return int(word)
    try:
        number = float(word)
    except ValueError:
        lowered = word.lower()
        return {"true": True, "false": False}.get(lowered, word)
    return number


def _number(text: str, what: str, arg: str) -> Decimal:
    try:
        return Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"--vary {arg!r}: the range's {what} {text.strip()!r} is not a number") from None


def parse_vary(arg: str) -> Vary:
    """Parse ``PATH=a..b[:step]`` (both ends included; step 1 by default) or ``PATH=v1,v2,…`` or ``PATH=v``.

    Raises:
        ValueError: Naming the argument and what is wrong with it.
    """
    path, sep, rest = arg.partition("=")
    path = path.strip()
    if not sep or not path or not rest.strip():
        raise ValueError(f"--vary {arg!r}: expected PATH=VALUES, e.g. 'combatants.ogre.hp=30..60:5' or "
                         "'ruleset.attack.map_step=-2,-3'")
    if ".." in rest:
        low, _dots, upper = rest.partition("..")
        high, colon, step_text = upper.partition(":")
        if "," in rest or ".." in upper or ":" in step_text:
            raise ValueError(f"--vary {arg!r}: a range is LOW..HIGH or LOW..HIGH:STEP, e.g. 30..60:5")
        lo, hi = _number(low, "low end", arg), _number(high, "high end", arg)
        step = _number(step_text, "step", arg) if colon else Decimal(1)
        if step <= 0:
            raise ValueError(f"--vary {arg!r}: the step must be positive")
        if hi < lo:
            raise ValueError(f"--vary {arg!r}: the high end {hi} is below the low end {lo}")
        count = int((hi - lo) / step) + 1
        if count > MAX_RANGE_VALUES:
            raise ValueError(f"--vary {arg!r}: {count} values (at most {MAX_RANGE_VALUES}); use a larger step")
        exact = [lo + k * step for k in range(count)]
        integral = all(v == v.to_integral_value() for v in (lo, hi, step))
        values: tuple[Value, ...] = tuple(int(v) if integral else float(v) for v in exact)
        return Vary(path, values, float(lo), float(hi))
    items = [item for item in rest.split(",")]
    if any(not item.strip() for item in items):
        raise ValueError(f"--vary {arg!r}: an empty value in the list")
    return Vary(path, tuple(_scalar(item) for item in items))


def grid(axes: Sequence[Vary]) -> list[Assignment]:
    """Every combination of the axes' values (the first axis varies slowest)."""
    if len({a.path for a in axes}) != len(axes):
        raise ValueError("the same path is varied twice")
    return [tuple(zip((a.path for a in axes), combo, strict=True))
            for combo in itertools.product(*(a.values for a in axes))]


def variant_key(assignment: Assignment) -> str:
    """A canonical name of a variant (paths sorted), independent of the order the axes were given in."""
    return ";".join(f"{path}={value!r}" for path, value in sorted(assignment))


def variant_seed(seed: int, key: str) -> int:
    """The seed of one variant: a 63-bit hash of the sweep's seed and the variant's key.

    Trial ``i`` of the variant then uses ``trial_seed(variant_seed(seed, key), i)`` like any simulation, so a
    variant's fights depend only on (seed, key, i): not on the other variants, their order or who plays them.
    """
    digest = hashlib.blake2b(f"{seed}\x00{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & (2**63 - 1)


# ----- checking paths against the schema -----


def _problem(spec: EncounterSpec, path: str, message: str) -> InputError:
    return InputError([Problem(spec.file, path, None, message)])


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model an annotation holds (``X | None`` included), if any."""
    args = typing.get_args(annotation) if isinstance(annotation, UnionType) or typing.get_origin(annotation) is \
        typing.Union else (annotation,)
    for arg in args:
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def _is_mapping(annotation: Any) -> bool:
    args = typing.get_args(annotation) if typing.get_origin(annotation) in (typing.Union, UnionType) else (annotation,)
    return any(typing.get_origin(a) in (dict, Mapping) or a is dict for a in args if a is not NoneType)


def _all_paths(model: type[BaseModel], prefix: str = "") -> list[str]:
    out: list[str] = []
    for name, info in model.model_fields.items():
        inner = _model_of(info.annotation)
        out.extend(_all_paths(inner, f"{prefix}{name}.") if inner is not None else [f"{prefix}{name}"])
    return out


def _check_fields(spec: EncounterSpec, model: type[BaseModel], parts: Sequence[str], written: str,
                  prefix: str) -> None:
    """Check that ``parts`` names a field (or a key of a mapping field) of ``model``."""
    current: type[BaseModel] = model
    for k, part in enumerate(parts):
        info = current.model_fields.get(part)
        if info is None:
            known = _all_paths(model)
            tail = ".".join(parts)
            hint = suggestion_text(f"{prefix}{m}" for m in _near(tail, known))
            raise _problem(spec, written, f"unknown path {written!r}: {current.__name__} has no field {part!r}{hint}")
        inner = _model_of(info.annotation)
        if inner is not None:
            if k == len(parts) - 1:
                fields = ", ".join(inner.model_fields)
                raise _problem(spec, written, f"{written!r} is a group of fields, not a number ({fields})")
            current = inner
            continue
        if _is_mapping(info.annotation) and k == len(parts) - 2:
            return  # a key of a mapping field (skills.athletics): the value check names a bad key
        if k != len(parts) - 1:
            raise _problem(spec, written, f"unknown path {written!r}: {part!r} is a value, it has no fields")
        return
    raise _problem(spec, written, f"{written!r} names no field")


def _near(wanted: str, known: Sequence[str]) -> list[str]:
    """Close paths: by spelling, else those that contain a word of ``wanted`` (``map`` finds ``attack.map_step``)."""
    found = close_matches(wanted, known)
    if found:
        return found
    words = [w for w in re.split(r"[._-]", wanted) if len(w) >= 3]
    return [p for p in known if any(w in p for w in words)][:3]


def _combatant_targets(spec: EncounterSpec, who: str, written: str) -> list[RosterEntry]:
    chosen = [e for e in spec.roster if e.id == who] or [e for e in spec.roster if e.creature.id == who]
    if not chosen:
        names = sorted({e.id for e in spec.roster} | {e.creature.id for e in spec.roster})
        raise _problem(spec, written, f"no combatant or creature {who!r} in this encounter "
                                      f"(ids: {', '.join(names)}){suggestion_text(close_matches(who, names))}")
    return chosen


def check_path(spec: EncounterSpec, path: str) -> None:
    """Check that a path names something of this encounter that can be varied.

    Raises:
        InputError: For an unknown path, with the closest known ones.
    """
    parts = path.split(".")
    if any(not p for p in parts):
        raise _problem(spec, path, f"{path!r} is not a dotted path (e.g. combatants.ogre.hp)")
    if parts[0] == "ruleset":
        if len(parts) != 3:
            raise _problem(spec, path, f"a ruleset path is ruleset.SECTION.OPTION (e.g. ruleset.attack.map_step), "
                                       f"not {path!r}{suggestion_text(_near('.'.join(parts[1:]), _option_paths()))}")
        _check_fields(spec, Ruleset, parts[1:], path, "ruleset.")
        return
    if parts[0] == "combatants":
        if len(parts) < 3:
            raise _problem(spec, path, f"a combatant path is combatants.WHO.FIELD (e.g. combatants.ogre.hp), "
                                       f"not {path!r}")
        _combatant_targets(spec, parts[1], path)
        if parts[2] in _COMBATANT_FIELDS and len(parts) == 3:
            return
        _check_fields(spec, Creature, parts[2:], path, f"combatants.{parts[1]}.")
        return
    rest = parts[1:] if parts[0] == "encounter" else parts
    _check_fields(spec, EncounterFile, rest, path, "")


def _option_paths() -> list[str]:
    return [p for p in _all_paths(Ruleset) if "." in p]


# ----- applying a variant -----


def _set(data: dict[str, Any], parts: Sequence[str], value: Value) -> dict[str, Any]:
    out = dict(data)
    if len(parts) == 1:
        out[parts[0]] = value
        return out
    inner = out.get(parts[0])
    out[parts[0]] = _set(inner if isinstance(inner, dict) else {}, parts[1:], value)
    return out


def _shown(spec: EncounterSpec, path: str, value: Value, err: ValidationError | InputError,
           model_prefix: Sequence[str | int]) -> InputError:
    """The schema's own messages, re-homed on the path as written."""
    problems = (err.problems if isinstance(err, InputError)
                else problems_from_validation(err, Marked({}, {}, spec.file), tuple(model_prefix)))
    return InputError([Problem(spec.file, path, None, f"{value!r}: {p.message}"
                               + (f" (at {p.path})" if p.path and p.path != path else ""))
                       for p in problems])


def _apply_ruleset(spec: EncounterSpec, changes: Sequence[tuple[str, Value]]) -> EncounterSpec:
    sections: dict[str, dict[str, Any]] = {}
    for path, value in changes:
        _root, section, option = path.split(".")
        sections.setdefault(section, {})[option] = value
    try:
        ruleset = spec.ruleset.with_options(name=spec.ruleset.name, **sections)
    except InputError as err:
        path, value = changes[0] if len(changes) == 1 else (", ".join(p for p, _ in changes), changes[0][1])
        raise _shown(spec, path, value, err, ()) from None
    return dataclasses.replace(spec, ruleset=ruleset)


def _apply_creatures(spec: EncounterSpec, changes: Sequence[tuple[str, Value]]) -> EncounterSpec:
    """Override stat blocks for this fight: per combatant, a validated copy with the changed fields."""
    blocks: dict[str, Creature] = {e.id: e.creature for e in spec.roster}
    for path, value in changes:
        parts = path.split(".")
        for entry in _combatant_targets(spec, parts[1], path):
            data = _set(blocks[entry.id].model_dump(), parts[2:], value)
            try:
                blocks[entry.id] = Creature.model_validate(data)
            except ValidationError as err:
                raise _shown(spec, path, value, err, ("combatants", parts[1])) from None
    changed = {cid: c for cid, c in blocks.items() if c != next(e.creature for e in spec.roster if e.id == cid)}
    if not changed:
        return spec
    library_map = dict(spec.library.creature_map)
    roster = []
    for entry in spec.roster:
        creature = changed.get(entry.id)
        if creature is None:
            roster.append(entry)
            continue
        same = [e.id for e in spec.roster if e.creature.id == entry.creature.id]
        if all(changed.get(cid) == creature for cid in same):
            fight_id = creature.id  # every combatant of that stat block changes alike: keep its id
        else:
            fight_id = f"{creature.id}-as-{entry.id}"  # only some do: a stat block of their own
            creature = creature.model_copy(update={"id": fight_id})
        library_map[fight_id] = creature
        roster.append(dataclasses.replace(entry, creature=creature))
    library = Library(creature_map=library_map, weapon_map=spec.library.weapon_map, armor_map=spec.library.armor_map,
                      shield_map=spec.library.shield_map, object_map=spec.library.object_map,
                      origins=spec.library.origins)
    return dataclasses.replace(spec, library=library, roster=tuple(roster))


def _apply_file(spec: EncounterSpec, changes: Sequence[tuple[str, Value]],
                allow_dirs: Sequence[str | Path]) -> EncounterSpec:
    """Change the file's own fields (and combatant counts) and load it again, checking everything."""
    marked = load_yaml(Path(spec.file))
    data = copy.deepcopy(marked.data)
    for path, value in changes:
        parts = path.split(".")
        if parts[0] == "combatants":
            who = parts[1]
            entries = data.get("combatants") or []
            hits = [c for c in entries if isinstance(c, dict) and (c.get("id") == who or c.get("creature") == who)]
            if not hits:  # a roster id such as raider-2: its entry is the one that made it
                source = next(e.source for e in spec.roster if e.id == who or e.creature.id == who)
                hits = [entries[int(source.split("[")[1].rstrip("]"))]]
            for hit in hits:
                hit[parts[2]] = value
            continue
        rest = parts[1:] if parts[0] == "encounter" else parts
        data = _set(data, rest, value)
    try:
        return encounter_from_marked(Marked(data, marked.lines, marked.file), Path(spec.file).parent, allow_dirs)
    except InputError as err:
        path, value = changes[0]
        raise InputError([Problem(p.file, path if len(changes) == 1 else p.path, p.line,
                                  f"{value!r}: {p.message}" if len(changes) == 1 else p.message)
                          for p in err.problems]) from None


def _kind(path: str) -> str:
    parts = path.split(".")
    if parts[0] == "ruleset":
        return "ruleset"
    if parts[0] == "combatants" and not (len(parts) == 3 and parts[2] in _COMBATANT_FIELDS):
        return "creature"
    return "file"


def apply_variant(spec: EncounterSpec, assignment: Iterable[tuple[str, Value]],
                  allow_dirs: Sequence[str | Path] = ()) -> EncounterSpec:
    """The encounter with each path set to its value, fully checked.

    The file's own fields are applied first (they reload the file), then stat blocks, then ruleset options.

    Raises:
        InputError: For an unknown path (with the closest known ones) or a value the schema refuses.
    """
    changes = list(assignment)
    for path, _value in changes:
        check_path(spec, path)
    file_changes = [c for c in changes if _kind(c[0]) == "file"]
    if file_changes:
        ruleset = spec.ruleset
        spec = _apply_file(spec, file_changes, allow_dirs)
        spec = dataclasses.replace(spec, ruleset=ruleset)  # an override of the file's ruleset (--ruleset) stays
    creature_changes = [c for c in changes if _kind(c[0]) == "creature"]
    if creature_changes:
        spec = _apply_creatures(spec, creature_changes)
    ruleset_changes = [c for c in changes if _kind(c[0]) == "ruleset"]
    if ruleset_changes:
        spec = _apply_ruleset(spec, ruleset_changes)
    return spec


_LOADED: dict[tuple[str, str | None, tuple[str, ...], Assignment], SpecSetup] = {}
"""Variants this process has built, by (file, ruleset, allowed folders, assignment): a worker builds each once."""
_LOADED_MAX = 256


class VariantSetup(FileSetup):
    """One variant of an encounter file: a :class:`FightSetup` that pickles as its file and assignment.

    Args:
        path: The encounter file.
        assignment: The (path, value) pairs of this variant.
        ruleset: Play it under this ruleset instead of the file's (before the variant's ruleset options).
        allow_dirs: Folders besides the file's own that the files it names may be read from.
    """

    def __init__(self, path: str | Path, assignment: Assignment, ruleset: str | None = None,
                 allow_dirs: Sequence[str | Path] = ()) -> None:
        self.path = str(path)
        self.assignment = tuple(assignment)
        self.ruleset = ruleset
        self.allow_dirs = tuple(str(d) for d in allow_dirs)

    def __getstate__(self) -> tuple[str, Assignment, str | None, tuple[str, ...]]:
        return (self.path, self.assignment, self.ruleset, self.allow_dirs)

    def __setstate__(self, state: tuple[str, Assignment, str | None, tuple[str, ...]]) -> None:
        self.path, self.assignment, self.ruleset, self.allow_dirs = state

    def __repr__(self) -> str:
        return f"VariantSetup({self.path!r}, {self.assignment!r}, ruleset={self.ruleset!r})"

    @property
    def key(self) -> str:
        """The variant's canonical key (:func:`variant_key`)."""
        return variant_key(self.assignment)

    @property
    def loaded(self) -> SpecSetup:
        """The variant, built and checked once per process."""
        cache_key = (self.path, self.ruleset, self.allow_dirs, self.assignment)
        found = _LOADED.get(cache_key)
        if found is None:
            found = SpecSetup(apply_variant(self.load_spec(), self.assignment, self.allow_dirs), self.ruleset)
            if len(_LOADED) >= _LOADED_MAX:
                _LOADED.clear()
            _LOADED[cache_key] = found
        return found

    @property
    def spec(self) -> EncounterSpec:
        """The variant's checked encounter."""
        return self.loaded.spec


__all__ = [
    "Assignment",
    "Value",
    "VariantSetup",
    "Vary",
    "apply_variant",
    "check_path",
    "grid",
    "parse_vary",
    "variant_key",
    "variant_seed",
]
