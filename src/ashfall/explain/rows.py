"""Explaining a fight as structured rows: each event as data a page lays out (names linked, rules listed).

:func:`event_row` turns one event into a :class:`Row`: its kind (the event's ``type``), who acts and who
is acted on, the headline as :class:`TextPart` pieces (a piece that names a combatant carries its id,
so a page can link or colour it), every rule ID it cites, the modifiers of its d20 and DV and the
parts of its damage (:class:`ModifierRow`, each with its rule), its damage-ledger rows
(:class:`LedgerRow`) and the breakdown lines the text form prints under it. The headline and
breakdown are the same words :mod:`ashfall.explain.lines` prints, so the CLI and a web page agree.
Internal counters give no row (:func:`~ashfall.explain.lines.is_internal`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ashfall.engine import events as ev
from ashfall.explain.lines import (
    BOOKKEEPING,
    DETAILS,
    HEADLINES,
    INDENT,
    NO_NAMES,
    OTHER_HEADLINES,
    Names,
    _generic,
    is_internal,
)

RowLevel = Literal["headline", "bookkeeping"]
"""``headline``: shown at the table; ``bookkeeping``: the counters and clocks shown only when explaining."""
ModifierTarget = Literal["d20", "dv", "damage"]
"""What a modifier row adds to: the d20 total, the defence value, or the damage."""

_MARK = "\x1f"
"""Wraps a combatant id in a headline while it is built, so the pieces that name someone can be found."""


@dataclass(frozen=True, slots=True)
class TextPart:
    """A piece of a headline; ``ref`` is the id of the combatant it names, if it names one."""

    text: str
    ref: str | None = None


@dataclass(frozen=True, slots=True)
class ModifierRow:
    """One number that went into a d20 total, a DV or a damage roll, with its rule."""

    applies_to: ModifierTarget
    label: str
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One step of the damage ledger (G-39): what a damage type was before and after it, and why."""

    step: str
    damage_type: str
    before: int
    after: int
    label: str
    rule: str


@dataclass(frozen=True, slots=True)
class Row:
    """One event, explained.

    Attributes:
        kind: The event's ``type`` tag (``attack-rolled``, ``damage-taken`` …).
        level: Shown at the table, or only when explaining.
        actor: Who acts, if anyone.
        target: Who is acted on, if anyone.
        parts: The headline in pieces (join their ``text`` for the plain line).
        rules: Every rule ID the row cites, the event's own first.
        modifiers: The d20 modifiers, DV parts and damage parts, each with its rule.
        ledger: The damage ledger rows.
        details: The breakdown lines under the headline (plain text, not indented).
    """

    kind: str
    level: RowLevel
    actor: str | None
    target: str | None
    parts: tuple[TextPart, ...]
    rules: tuple[str, ...]
    modifiers: tuple[ModifierRow, ...] = ()
    ledger: tuple[LedgerRow, ...] = ()
    details: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The headline as one line."""
        return "".join(p.text for p in self.parts)

    def lines(self, explain: bool = True) -> list[str]:
        """The plain-text lines: the headline and (``explain``) the breakdown, indented."""
        return [self.text, *(INDENT + d for d in self.details)] if explain else [self.text]


class _Marked(Mapping[str, str]):
    """Names that come out wrapped in marks, so a headline built with them shows where each combatant is named."""

    def __getitem__(self, cid: str) -> str:
        return f"{_MARK}{cid}{_MARK}"

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def get(self, cid: str, default: Any = None) -> str:
        return self[cid]


_MARKED = _Marked()


def _parts(marked: str, names: Names) -> tuple[TextPart, ...]:
    pieces = marked.split(_MARK)
    out = [TextPart(names.get(p, p), p) if i % 2 else TextPart(p) for i, p in enumerate(pieces)]
    return tuple(p for p in out if p.text)


def _roll_modifiers(roll: ev.RollRecord | None) -> list[ModifierRow]:
    return [] if roll is None else [ModifierRow("d20", p.label, p.value, p.rule) for p in roll.modifiers]


def _modifiers(event: object) -> tuple[ModifierRow, ...]:
    rows = _roll_modifiers(getattr(event, "roll", None))
    rows += [ModifierRow("dv", p.label, p.value, p.rule) for p in getattr(event, "dv_parts", ())]
    if type(event) is ev.DamageRolled:
        rows += [ModifierRow("damage", p.label, p.total, p.rule) for p in event.parts]
    return tuple(rows)


def _ledger(event: object) -> tuple[LedgerRow, ...]:
    rows = getattr(event, "rows", ())
    return tuple(LedgerRow(r.step, r.damage_type, r.before, r.after, r.label, r.rule) for r in rows
                 if isinstance(r, ev.LedgerLine))


def _rules(event: object, modifiers: Iterable[ModifierRow], ledger: Iterable[LedgerRow]) -> tuple[str, ...]:
    found: list[str] = []
    own = getattr(event, "rule", None)
    roll = getattr(event, "roll", None)
    sources = roll.sources if isinstance(roll, ev.RollRecord) else ()
    for rule_id in (own, *(m.rule for m in modifiers), *(s.rule for s in sources), *(r.rule for r in ledger)):
        if isinstance(rule_id, str) and rule_id and rule_id not in found:
            found.append(rule_id)
    return tuple(found)


def _who(event: object, name: str) -> str | None:
    value = getattr(event, name, None)
    return value if isinstance(value, str) else None


def event_row(event: Any, names: Names = NO_NAMES) -> Row | None:
    """One event as a row (None for an internal counter)."""
    if is_internal(event):
        return None
    level: RowLevel = "headline"
    headline = HEADLINES.get(type(event)) or OTHER_HEADLINES.get(getattr(event, "type", ""))
    if headline is None:
        level = "bookkeeping"
        headline = BOOKKEEPING.get(type(event), _generic)
    detail = DETAILS.get(type(event))
    modifiers, ledger = _modifiers(event), _ledger(event)
    return Row(
        kind=str(getattr(event, "type", type(event).__name__)),
        level=level,
        actor=_who(event, "actor"),
        target=_who(event, "target"),
        parts=_parts(headline(event, _MARKED), names),
        rules=_rules(event, modifiers, ledger),
        modifiers=modifiers,
        ledger=ledger,
        details=tuple(detail(event)) if detail is not None else (),
    )


def log_rows(events: Iterable[Any], names: Names = NO_NAMES, explain: bool = True) -> list[Row]:
    """A whole log as rows, in order; without ``explain`` only the rows shown at the table."""
    rows = (event_row(e, names) for e in events)
    return [r for r in rows if r is not None and (explain or r.level == "headline")]


__all__ = ["LedgerRow", "ModifierRow", "ModifierTarget", "Row", "RowLevel", "TextPart", "event_row", "log_rows"]
