"""Building blocks for ruleset sections: a frozen section model and the ``option`` field helper.

Every field of a section is one number or switch of the rules, with its rule ID and (for rulings)
the alternative a designer can switch to. The docs table of options is generated from these.
"""

from typing import Any, ClassVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from ashfall.core.dice import parse
from ashfall.ruleset.ranges import (
    CHOICES,
    DAMAGE_TYPE_OPTIONS,
    OPTION_MAX_DICE,
    check_dice,
    check_number,
    check_word,
    is_dice_default,
    range_of,
)


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

    # defer_build: a section's validator is built when a house rule or with_options first validates one, not
    # at import (17 sections of options cost tens of milliseconds of start-up)
    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False, defer_build=True)

    LEGACY: ClassVar[dict[str, Any]] = {}
    """Overrides that turn this section's defaults (edition 2) into edition 1 (``ashfall-1``)."""

    SECTION: ClassVar[str] = ""
    """The section's name in a ruleset (``turn``); set by the Ruleset for range lookups."""

    @field_validator("*", mode="before")
    @classmethod
    def _bounded(cls, value: Any, info: ValidationInfo) -> Any:
        """Whole numbers are strict and in range, dice options stay bounded dice (see ranges.py)."""
        name = info.field_name or ""
        key = (cls, name, type(value), value) if isinstance(value, int | str) else None
        if key is not None and key in _ACCEPTED:  # presets and with_options re-validate the same values
            return value
        field = cls.model_fields[name]
        try:
            checked = checked_option(f"{cls.SECTION}.{name}", field.annotation, field.default, value)
        except ValueError as err:  # pydantic would prefix "Value error, "
            raise PydanticCustomError("option_range", "{why}", {"why": str(err)}) from None
        if key is not None and checked is value:
            if len(_ACCEPTED) > _ACCEPTED_MAX:
                _ACCEPTED.clear()
            _ACCEPTED.add(key)
        return checked


_ACCEPTED: set[tuple[type, str, type, Any]] = set()
"""Option values already checked, by section, option and the value's type (so ``true`` never passes as ``1``)."""
_ACCEPTED_MAX = 10_000


def checked_option(option: str, annotation: Any, default: Any, value: Any) -> Any:
    """``value`` checked against the option's range (numbers) or dice rules (dice notation).

    Containers are checked item by item: ``tuple[int, ...]`` values, ``dict[int, str]`` keys and
    ``dict[str, str]`` or ``tuple[str, ...]`` dice. Anything else is left to pydantic.

    Raises:
        ValueError: Naming what is expected.
    """
    args = [a for a in get_args(annotation) if a is not type(None)]
    if option in CHOICES:  # word options, typed as string enums: say which words, before the enum refuses it
        return check_word(option, value)
    if annotation is int or (args == [int] and value is not None):
        return check_number(option, value)
    if annotation is str and is_dice_default(default):
        return check_dice(value, tagged=_tagged(default))
    if annotation is str:
        return check_word(option, value)
    if isinstance(default, tuple) and args[:1] == [int] and isinstance(value, list | tuple):
        return tuple(check_number(option, v) for v in value)
    if isinstance(default, tuple) and default and is_dice_default(default[0]) and isinstance(value, list | tuple):
        return tuple(check_dice(v, tagged=_tagged(default[0])) for v in value)
    if isinstance(default, dict) and args[:1] == [int] and isinstance(value, dict):
        return {check_number(option, k): v for k, v in value.items()}
    if isinstance(default, dict) and default and is_dice_default(next(iter(default.values()))) \
            and isinstance(value, dict):
        return {k: check_dice(v, tagged=False) for k, v in value.items()}
    return value


def option_range_text(option: str, annotation: Any, default: Any) -> str:
    """What values an option takes, for the docs: ``1 to 6``, ``dice``, ``dice + type`` or nothing."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    if annotation is int or args[:1] == [int]:
        return str(range_of(option)) + (" (each)" if isinstance(default, tuple) else
                                        " (keys)" if isinstance(default, dict) else "")
    sample = next(iter(default.values()), None) if isinstance(default, dict) else \
        default[0] if isinstance(default, tuple) and default else default
    if isinstance(sample, str) and is_dice_default(sample):
        return f"dice (at most {OPTION_MAX_DICE})" + (" + damage type" if _tagged(sample) else "")
    if option in CHOICES:
        return " or ".join(CHOICES[option])
    return "a damage type" if option in DAMAGE_TYPE_OPTIONS else ""


def _tagged(default: str) -> bool:
    return parse(default).tag is not None
