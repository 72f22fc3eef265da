"""Building blocks for ruleset sections: a frozen section model and the ``option`` field helper.

Every field of a section is one number or switch of the rules, with its rule ID and (for rulings)
the alternative a designer can switch to. The docs table of options is generated from these.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field


def option(default: Any, rule: str, doc: str, alternative: str = "") -> Any:
    """Declare a ruleset option.

    Args:
        default: The current edition's value (``ashfall-2``).
        rule: The catalog rule or ruling that sets it (``"MAP-1"``, ``"G-41"``).
        doc: One sentence on what it controls.
        alternative: For rulings, the alternative the ruling names.
    """
    extra: dict[str, Any] = {"rule": rule}
    if alternative:
        extra["alternative"] = alternative
    return Field(default=default, description=doc, json_schema_extra=extra)


class Section(BaseModel):
    """A frozen group of ruleset options; unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)

    LEGACY: ClassVar[dict[str, Any]] = {}
    """Overrides that turn this section's defaults (edition 2) into edition 1 (``ashfall-1``)."""
