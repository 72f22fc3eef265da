"""The documented range of every whole number in a content or encounter file, read from the schemas.

Each bounded field of a file model declares its range with ``Field(ge=..., le=...)``; this module walks a
model (and the models nested in it) and lists those ranges by field path, so the docs tables
(docs/content.md, docs/encounters.md) and the validate-then-run property test read one source of truth.
Paths use ``[]`` for an item of a list and ``{}`` for a value of a mapping: ``natural_weapons[].bonus``.
"""

from __future__ import annotations

from types import NoneType, UnionType
from typing import Annotated, Any, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo


def _bounds(metadata: list[Any]) -> tuple[int | None, int | None]:
    low: int | None = next((int(m.ge) for m in metadata if isinstance(m, annotated_types.Ge)), None)  # type: ignore[call-overload]
    high: int | None = next((int(m.le) for m in metadata if isinstance(m, annotated_types.Le)), None)  # type: ignore[call-overload]
    for item in metadata:
        if isinstance(item, FieldInfo):
            inner = _bounds(item.metadata)
            low = inner[0] if low is None else low
            high = inner[1] if high is None else high
    return low, high


def _walk(annotation: Any, metadata: list[Any], path: str, out: dict[str, tuple[int | None, int | None]],
          seen: frozenset[type]) -> None:
    origin = get_origin(annotation)
    if origin is Annotated:
        inner, *extra = get_args(annotation)
        _walk(inner, [*metadata, *extra], path, out, seen)
        return
    if origin in (Union, UnionType):
        for arg in get_args(annotation):
            if arg is not NoneType:
                _walk(arg, metadata, path, out, seen)
        return
    if annotation is int:
        low, high = _bounds(metadata)
        if low is not None or high is not None:
            out[path] = (low, high)
        return
    if origin in (tuple, list, frozenset, set):
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        if len(set(map(str, args))) == 1:
            _walk(args[0], [], f"{path}[]", out, seen)
        return
    if origin is dict:
        _walk(get_args(annotation)[1], [], f"{path}{{}}", out, seen)
        return
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and annotation not in seen:
        for name, info in annotation.model_fields.items():
            sub = f"{path}.{name}" if path else name
            _walk(info.annotation, list(info.metadata), sub, out, seen | {annotation})


def number_ranges(model: type[BaseModel]) -> dict[str, tuple[int | None, int | None]]:
    """Every bounded whole number of ``model`` and the models inside it: field path -> (least, greatest)."""
    out: dict[str, tuple[int | None, int | None]] = {}
    _walk(model, [], "", out, frozenset())
    return out


__all__ = ["number_ranges"]
