"""Per-fight results as data: the rows of a :class:`~ashfall.sim.report.SimReport` as a table, and writing it.

``ashfall.sim.simulate(...)`` returns a :class:`~ashfall.sim.report.SimReport`: the summary the CLI prints
(``report.summary()``) *and* every fight it was built from (``report.fights``, in trial order). This module
turns those fights into a table (schema :data:`RESULTS_SCHEMA_VERSION`, columns :data:`FIGHT_COLUMNS` then
:data:`COMBATANT_COLUMNS`):

- ``report.rows()``: plain dicts in **long format**, one row per fight *and* combatant: the fight's columns
  repeat on each of its combatants' rows. This is what ``ashfall sim --out FILE`` writes (``.parquet``,
  ``.csv`` or ``.jsonl``) and what ``report.to_pandas()`` / ``report.to_polars()`` / ``report.to_arrow()``
  hold. A fight-level table is ``report.to_pandas(per="fight")`` (one row per fight: no combatant columns).
- Fight columns: ``trial`` (0-based index; ``ashfall sim --trial i`` replays it), ``seed`` (that trial's own
  seed), ``winner`` (side, or null), ``ended`` (``defeat``, ``morale``, ``surrender``, ``round-limit``;
  :attr:`~ashfall.sim.fight.FightResult.ended`), ``rounds``, ``pc_dropped`` and ``pc_died`` (any PC dropped /
  died in this fight), ``attacks``, ``refusals``.
- Combatant columns: ``combatant`` (id), ``name``, ``creature`` (stat block id: the grouping key), ``side``,
  ``pc`` (on a PC side), ``max_hp``, ``hp_left``, ``damage_dealt``, ``damage_taken``, ``dropped``, ``died``,
  ``morale`` (outcome or null).

PC sides (:func:`pc_sides_of`): the sides with ``controller: human``; when no side has one, the first side
listed. Parquet files carry ``ashfall.schema``, ``ashfall.encounter``, ``ashfall.ruleset`` and ``ashfall.seed``
in their key-value metadata. pandas and pyarrow are imported only when a table is asked for; polars only for
``to_polars()`` (optional: ``pip install polars``).

For the sweeps built on this: add the varied values as extra columns in front (one block of rows per
variant); trial seeds are per variant, so ``(variant columns, trial, combatant)`` is the key.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ashfall.sim.fight import FightResult

if TYPE_CHECKING:
    import pandas
    import polars
    import pyarrow

RESULTS_SCHEMA_VERSION = 1
"""Version of the table's columns and meaning: bumped whenever a column is renamed, dropped or changes meaning."""
FIGHT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("trial", "int64"), ("seed", "int64"), ("winner", "string"), ("ended", "string"), ("rounds", "int64"),
    ("pc_dropped", "bool"), ("pc_died", "bool"), ("attacks", "int64"), ("refusals", "int64"),
)
"""The per-fight columns and their types (``string`` columns may be null)."""
COMBATANT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("combatant", "string"), ("name", "string"), ("creature", "string"), ("side", "string"), ("pc", "bool"),
    ("max_hp", "int64"), ("hp_left", "int64"), ("damage_dealt", "int64"), ("damage_taken", "int64"),
    ("dropped", "bool"), ("died", "bool"), ("morale", "string"),
)
"""The per-combatant columns and their types."""
FORMATS = ("parquet", "csv", "jsonl")
"""File types ``--out`` writes (by suffix)."""


def pc_sides_of(setup: object) -> tuple[str, ...]:
    """The PC sides of a setup: sides with ``controller: human``, else () (the reports then take the first side).

    Reads ``setup.loaded.spec`` (an encounter file), ``setup.spec`` (a loaded encounter) or an encounter spec
    itself; or a ``pc_sides`` attribute when it has one.
    """
    explicit = getattr(setup, "pc_sides", None)
    if explicit is not None:
        return tuple(explicit)
    loaded = getattr(setup, "loaded", setup)
    sides = getattr(getattr(loaded, "spec", loaded), "sides", None)  # a setup's spec, or a spec itself
    if sides is None:
        return ()
    return tuple(s.name for s in sides if getattr(s.controller, "value", s.controller) == "human")


def resolve_pc_sides(pc_sides: Sequence[str], fights: Sequence[FightResult]) -> tuple[str, ...]:
    """The given PC sides, or the first side of the roster when none are given."""
    if pc_sides:
        return tuple(pc_sides)
    for f in fights[:1]:
        for c in f.combatants[:1]:
            return (c.side,)
    return ()


def fight_row(trial: int, f: FightResult, pc_sides: Sequence[str]) -> dict[str, Any]:
    """The fight-level columns of one fight."""
    pcs = [c for c in f.combatants if c.side in pc_sides]
    return {
        "trial": trial, "seed": f.seed, "winner": f.winner, "ended": f.ended, "rounds": f.rounds,
        "pc_dropped": any(c.dropped for c in pcs), "pc_died": any(c.died for c in pcs),
        "attacks": f.attacks, "refusals": f.refusals,
    }


def fight_rows(fights: Sequence[FightResult], pc_sides: Sequence[str]) -> list[dict[str, Any]]:
    """One row per fight (fight columns only)."""
    return [fight_row(i, f, pc_sides) for i, f in enumerate(fights)]


def rows(fights: Sequence[FightResult], pc_sides: Sequence[str]) -> list[dict[str, Any]]:
    """One row per fight and combatant (long format): the fight's columns, then the combatant's."""
    out: list[dict[str, Any]] = []
    for i, f in enumerate(fights):
        head = fight_row(i, f, pc_sides)
        for c in f.combatants:
            out.append({
                **head, "combatant": c.id, "name": c.name, "creature": c.creature, "side": c.side,
                "pc": c.side in pc_sides, "max_hp": c.max_hp, "hp_left": c.hp, "damage_dealt": c.damage_dealt,
                "damage_taken": c.damage_taken, "dropped": c.dropped, "died": c.died, "morale": c.morale,
            })
    return out


def _columns(per: str) -> tuple[tuple[str, str], ...]:
    if per == "combatant":
        return FIGHT_COLUMNS + COMBATANT_COLUMNS
    if per == "fight":
        return FIGHT_COLUMNS
    raise ValueError(f"per must be 'combatant' or 'fight', not {per!r}")


def to_arrow(data: Sequence[Mapping[str, Any]], per: str = "combatant",
             metadata: Mapping[str, str] | None = None) -> pyarrow.Table:
    """The rows as a pyarrow table with the schema's types (and ``metadata`` in its schema)."""
    import pyarrow as pa

    types = {"int64": pa.int64(), "string": pa.string(), "bool": pa.bool_()}
    cols = _columns(per)
    schema = pa.schema([pa.field(name, types[kind], nullable=kind == "string") for name, kind in cols],
                       metadata=dict(metadata or {}))
    return pa.Table.from_pydict({name: [r[name] for r in data] for name, _ in cols}, schema=schema)


def to_pandas(data: Sequence[Mapping[str, Any]], per: str = "combatant") -> pandas.DataFrame:
    """The rows as a pandas DataFrame (through arrow, so the column types are the schema's)."""
    frame: pandas.DataFrame = to_arrow(data, per).to_pandas()
    return frame


def to_polars(data: Sequence[Mapping[str, Any]], per: str = "combatant") -> polars.DataFrame:
    """The rows as a polars DataFrame (polars is optional: ``pip install polars``)."""
    try:
        import polars as pl
    except ImportError as error:  # optional dependency: say how to get it
        raise ImportError("to_polars() needs polars: pip install polars") from error
    frame = pl.from_arrow(to_arrow(data, per))
    assert isinstance(frame, pl.DataFrame)  # a Table always converts to a DataFrame
    return frame


def check_output(out: Path, option: str = "--out") -> str:
    """The format of an output file by its suffix, refusing (before anything runs) a path that cannot be written.

    Raises:
        ValueError: A folder, a missing or read-only folder, or a suffix not in :data:`FORMATS`.
    """
    import os

    suffix = out.suffix.lower().lstrip(".")
    if out.is_dir():
        raise ValueError(f"{option} {out}: is a folder, not a file")
    if not out.parent.is_dir():
        raise ValueError(f"{option} {out}: the folder {out.parent} does not exist")
    if not os.access(out.parent, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise ValueError(f"{option} {out}: cannot write there")
    if suffix not in FORMATS:
        raise ValueError(f"{option} {out}: the file must end in {', '.join('.' + f for f in FORMATS)}")
    return suffix


def write(data: Sequence[Mapping[str, Any]], out: Path, metadata: Mapping[str, str] | None = None,
          per: str = "combatant") -> Path:
    """Write rows to ``out`` as Parquet, CSV or JSON Lines (by suffix); nulls are empty cells in CSV."""
    kind = check_output(out)
    cols = [name for name, _ in _columns(per)]
    if kind == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(to_arrow(data, per, metadata), out)
    elif kind == "csv":
        with out.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=cols, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(_csv_values(data))
    else:
        with out.open("w", encoding="utf-8") as handle:
            for r in data:
                handle.write(json.dumps({c: r[c] for c in cols}, ensure_ascii=False) + "\n")
    return out


def _csv_values(data: Iterable[Mapping[str, Any]]) -> Iterable[dict[str, Any]]:
    for r in data:  # booleans as true/false (what pandas and polars read back as booleans)
        yield {k: ("true" if v else "false") if isinstance(v, bool) else v for k, v in r.items()}
