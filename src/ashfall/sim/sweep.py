"""Sweeps: play every variant of a grid (``--vary`` axes) and tabulate win rates with Wilson intervals.

Every variant is built and checked (:mod:`ashfall.sim.variants`) before any fight runs. Variant ``v`` of a
sweep with seed ``s`` plays trial ``i`` with ``trial_seed(variant_seed(s, key(v)), i)``: its results depend on
(s, v, i) only, so shuffling the variants, chunking them differently or playing them on other workers (local
processes or Dask) gives the same table. :mod:`ashfall.sim.backends` plays the chunks.

The metrics (:data:`METRICS`): ``win`` (the side's win rate), ``pc-drops`` (P(any PC reaches 0 HP)),
``pc-dies`` (P(any PC dies)) and ``rounds`` (mean rounds). PCs are the combatants of the PC sides,
as every report counts them (:func:`ashfall.sim.results.pc_sides_of`: ``controller: human`` sides, else the first).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ashfall.encounters import EncounterSpec
from ashfall.sim.backends import SWEEP_CHUNK, Backend, Chunk, InProcess, collect, split
from ashfall.sim.fight import FightResult
from ashfall.sim.report import SimReport, aggregate
from ashfall.sim.results import pc_sides_of
from ashfall.sim.runner import MAX_CHUNK
from ashfall.sim.setups import FightSetup, as_setup
from ashfall.sim.stats import wilson
from ashfall.sim.variants import Assignment, Value, VariantSetup, Vary, grid, variant_key, variant_seed

METRICS = ("win", "rounds", "pc-drops", "pc-dies")
"""What a sweep reports and a balance search can aim at."""
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A metric measured over ``n`` fights, with its 95% interval (Wilson for rates, normal for mean rounds)."""

    value: float
    low: float
    high: float
    n: int

    def contains(self, target: float) -> bool:
        """The interval contains ``target``."""
        return self.low <= target <= self.high


@dataclass(frozen=True, slots=True)
class Focus:
    """Whose outcome a metric reads: the side whose win rate counts, and the PCs' combatant ids."""

    side: str
    pcs: frozenset[str]

    @classmethod
    def of(cls, spec: EncounterSpec, side: str | None = None) -> Focus:
        """The named side (default: the first declared) and the encounter's PCs.

        Raises:
            ValueError: For a side the encounter does not have.
        """
        sides = [s.name for s in spec.sides]
        if side is not None and side not in sides:
            raise ValueError(f"--side {side!r}: the encounter's sides are {', '.join(sides)}")
        chosen = side or sides[0]
        party = set(pc_sides_of(spec)) or {sides[0]}  # the reports' PCs: controller: human sides, else the first
        return cls(chosen, frozenset(e.id for e in spec.roster if e.side in party))


def measure(results: Sequence[FightResult], metric: str, focus: Focus) -> Estimate:
    """A metric over fights, with its 95% interval.

    Raises:
        ValueError: For an unknown metric.
    """
    n = len(results)
    if metric == "rounds":
        values = [r.rounds for r in results]
        mean = sum(values) / n if n else 0.0
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n) if n else math.inf
        return Estimate(mean, mean - half, mean + half, n)
    if metric == "win":
        hits = sum(r.winner == focus.side for r in results)
    elif metric == "pc-drops":
        hits = sum(any(c.dropped for c in r.combatants if c.id in focus.pcs) for r in results)
    elif metric == "pc-dies":
        hits = sum(any(c.died for c in r.combatants if c.id in focus.pcs) for r in results)
    else:
        raise ValueError(f"--metric {metric!r}: choose one of {', '.join(METRICS)}")
    low, high = wilson(hits, n)
    return Estimate(hits / n if n else 0.0, low, high, n)


@dataclass(frozen=True, slots=True)
class VariantRow:
    """One variant of a sweep: its values, seed, report and metrics."""

    assignment: Assignment
    key: str
    seed: int
    report: SimReport
    metrics: dict[str, Estimate]

    def to_record(self) -> dict[str, Any]:
        """One flat row: the varied values, then each metric with its interval."""
        row: dict[str, Any] = {path: value for path, value in self.assignment}
        row.update({"variant": self.key, "seed": self.seed, "trials": self.report.trials})
        for name, est in self.metrics.items():
            column = name.replace("-", "_")
            row.update({column: est.value, f"{column}_lo": est.low, f"{column}_hi": est.high})
        row["undecided"] = self.report.undecided.rate
        return row


@dataclass(frozen=True, slots=True)
class SweepResult:
    """Every variant of a sweep, in grid order."""

    encounter: str
    axes: tuple[Vary, ...]
    side: str
    seed: int
    trials: int
    rows: tuple[VariantRow, ...]

    def records(self) -> list[dict[str, Any]]:
        """One flat dict per variant (see :meth:`VariantRow.to_record`)."""
        return [r.to_record() for r in self.rows]

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (pandas imported here, only when asked for)."""
        import pandas as pd

        return pd.DataFrame.from_records(self.records())

    def write(self, path: Path) -> None:
        """Write the table as ``.parquet``, ``.csv`` or ``.jsonl`` (by the file's suffix).

        Raises:
            ValueError: For another suffix.
        """
        suffix = path.suffix.lower()
        if suffix not in OUT_SUFFIXES:
            raise ValueError(f"--out {path}: write .parquet, .csv or .jsonl")
        frame = self.to_pandas()
        if suffix == ".parquet":
            frame.to_parquet(path, index=False)
        elif suffix == ".csv":
            frame.to_csv(path, index=False)
        else:
            frame.to_json(path, orient="records", lines=True)


OUT_SUFFIXES = (".parquet", ".csv", ".jsonl")


def variant_setups(path: str | Path, axes: Sequence[Vary], ruleset: str | None = None,
                   allow_dirs: Sequence[str | Path] = ()) -> list[VariantSetup]:
    """Every variant of the grid, each built and checked now (a bad path or value fails before any fight).

    Raises:
        InputError: For an unknown path or a value the schema refuses.
    """
    setups = [VariantSetup(path, a, ruleset, allow_dirs) for a in grid(axes)]
    for setup in setups:
        setup.loaded  # noqa: B018 - builds and checks the variant
    return setups


def sweep(path: str | Path, axes: Sequence[Vary], trials: int, seed: int, *, backend: Backend | None = None,
          side: str | None = None, ruleset: str | None = None, max_rounds: int | None = None,
          allow_dirs: Sequence[str | Path] = (), order: Callable[[list[Chunk]], list[Chunk]] | None = None,
          progress: Callable[[int, int], None] | None = None, engine: str = "reference",
          notice: Callable[[str], None] | None = None) -> SweepResult:
    """Play ``trials`` fights of every variant of the grid.

    Args:
        path: The encounter file.
        axes: The ``--vary`` axes (none: the encounter as written, one variant).
        trials: Fights per variant.
        seed: The sweep's seed (see :func:`ashfall.sim.variants.variant_seed`).
        backend: Who plays (default: this process).
        side: The side whose win rate is reported (default: the first).
        ruleset: Play under this ruleset instead of the file's.
        max_rounds: Stop each fight undecided after this round.
        allow_dirs: Folders the encounter may read files from besides its own.
        order: Reorders the chunks before they are handed out (tests: results do not depend on it).
        progress: Called with (trials done, trials in all).
        engine: ``--engine`` (auto, kernel or reference), decided per variant: the kernel plays the variants it
            supports, the same trials as the reference engine would.
        notice: Where auto's one-line fallback notice goes (once per sweep).
    """
    from ashfall.sim.engines import EngineChooser

    if trials < 1:
        raise ValueError("trials must be at least 1")
    setups = variant_setups(path, axes, ruleset, allow_dirs)
    focus = Focus.of(setups[0].spec, side)
    seeds = {s.key: variant_seed(seed, s.key) for s in setups}
    chooser = EngineChooser(engine, notice)
    engines = {s.key: chooser(s) for s in setups}  # every variant decided (kernel refusals raised) before any fight
    chunks = [c for s in setups for c in split(s.key, s, seeds[s.key], 0, trials, max_rounds,
                                                engine=engines[s.key])]
    if order is not None:
        chunks = order(chunks)
    total = trials * len(setups)
    got = collect(backend or InProcess(), chunks, (lambda done: progress(done, total)) if progress else None)
    rows = []
    for s in setups:
        results = got.trials(s.key, 0, trials)
        report = aggregate(s.name, s.ruleset_name, seeds[s.key], results, pc_sides=pc_sides_of(s))
        rows.append(VariantRow(s.assignment, s.key, seeds[s.key], report,
                               {m: measure(results, m, focus) for m in METRICS}))
    return SweepResult(setups[0].name, tuple(axes), focus.side, seed, trials, tuple(rows))


def simulate_on(backend: Backend, encounter: str | Path | FightSetup, trials: int, seed: int, *,
                ruleset: str | None = None, max_rounds: int | None = None,
                progress: Callable[[int, int], None] | None = None, engine: str = "reference") -> SimReport:
    """:func:`ashfall.sim.simulate` with the chunks played by a backend (e.g. Dask): the same report.

    Trial ``i`` uses ``trial_seed(seed, i)`` and the report is aggregated in trial order, exactly as a local run.
    ``engine`` is the engine :func:`ashfall.sim.engines.choose_engine` chose for the setup (``kernel`` or
    ``reference``): each worker plays its chunks on it, the same trials either way.

    Raises:
        ValueError: For a setup that cannot be sent to workers (an encounter only in memory).
    """
    setup = as_setup(encounter, ruleset)
    portable = setup.portable()
    if portable is None:
        raise ValueError(f"{setup.name}: an encounter held only in memory cannot be sent to workers; give its file")
    chunks = split(setup.name, portable, seed, 0, trials, max_rounds, size=min(MAX_CHUNK, SWEEP_CHUNK), engine=engine)
    got = collect(backend, chunks, (lambda done: progress(done, trials)) if progress else None)
    return aggregate(setup.name, setup.ruleset_name, seed, got.trials(setup.name, 0, trials),
                     pc_sides=pc_sides_of(setup))


def value_of(row: VariantRow, path: str) -> Value:
    """The value a path takes in a variant."""
    return dict(row.assignment)[path]


__all__ = ["METRICS", "OUT_SUFFIXES", "Estimate", "Focus", "SweepResult", "VariantRow", "measure", "simulate_on",
           "sweep", "value_of", "variant_key", "variant_setups"]
