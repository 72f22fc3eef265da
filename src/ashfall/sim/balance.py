"""Balance search: the value of one path (``--vary 'combatants.ogre.hp=20..80'``) that gives a target metric.

The method is bisection on Wilson bounds with sequential sampling. A point is *classified* by playing
batches of trials at it until the metric's 95% interval lies wholly below or above the target (or holds it
after ``max_per_point`` trials: the point is on target). Points far from the target are settled after one
batch; trials are spent near it. Both ends are classified first; if they are on the same side of the target
the search stops and says so (the target is not inside the range, or the metric is not monotone there).
Otherwise the bracket is halved, keeping an end below and an end above, until a point is on target, the
bracket is one step wide, or the trial budget is spent.

Trials at a value ``x`` are trials ``0, 1, …`` of the variant ``path=x`` with the seeds a sweep would use
(:func:`ashfall.sim.variants.variant_seed`): adding a batch plays the next trial numbers, so the search's
answer does not depend on the backend or on how batches are split into chunks. The metric is assumed
monotone in the value over the range (true of HP and most single numbers); repeated looks at the same
point make each 95% interval a little optimistic, which is why the answer reports its bracket too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ashfall.sim.backends import Backend, InProcess, collect, split
from ashfall.sim.engines import EngineChooser
from ashfall.sim.fight import FightResult
from ashfall.sim.sweep import Estimate, Focus, measure
from ashfall.sim.variants import Value, VariantSetup, Vary, variant_key, variant_seed

BATCH = 100
"""Trials added to a point per look."""
MAX_PER_POINT = 1600
"""Trials at one point after which an interval that still holds the target counts as on target."""
BUDGET = 40_000
"""Trials in all after which the search stops with what it has."""
FLOAT_STEPS = 256
"""A range of non-integers is resolved to 1/256 of its width."""


@dataclass(frozen=True, slots=True)
class Probe:
    """One point looked at: its value, the metric there and which side of the target it lies on."""

    value: Value
    estimate: Estimate
    side: int
    """-1: the interval is below the target, +1: above, 0: it holds the target."""


@dataclass(frozen=True, slots=True)
class BalanceResult:
    """What the search found.

    Attributes:
        path: The varied path.
        metric: The metric aimed at.
        target: The target value of the metric.
        side: The side whose win rate counts.
        status: ``found`` (a value whose interval holds the target), ``between`` (the target lies between two
            neighbouring values, neither on target), ``not-bracketed`` (both ends on one side of the target) or
            ``budget`` (the trial budget ran out).
        value: The best value found (closest to the target).
        estimate: The metric at that value with its 95% interval.
        bracket: Values known to lie below and above the target (the answer is between them).
        trials: Trials played in all.
        probes: Every point looked at, in order.
    """

    path: str
    metric: str
    target: float
    side: str
    status: str
    value: Value
    estimate: Estimate
    bracket: tuple[Value, Value]
    trials: int
    probes: tuple[Probe, ...] = field(default=())


class _Points:
    """Trials played so far at each value (trial numbers 0 .. n-1 of that variant)."""

    def __init__(self, path: str, file: str | Path, seed: int, backend: Backend, ruleset: str | None,
                 max_rounds: int | None, allow_dirs: Sequence[str | Path], chooser: EngineChooser) -> None:
        self.path, self.file, self.seed, self.backend = path, file, seed, backend
        self.ruleset, self.max_rounds, self.allow_dirs, self.chooser = ruleset, max_rounds, allow_dirs, chooser
        self.results: dict[Value, list[FightResult]] = {}
        self.setups: dict[Value, VariantSetup] = {}
        self.engines: dict[Value, str] = {}
        self.played = 0

    def setup(self, value: Value) -> VariantSetup:
        if value not in self.setups:
            made = VariantSetup(self.file, ((self.path, value),), self.ruleset, self.allow_dirs)
            made.loaded  # noqa: B018 - a bad value fails here, before its trials
            self.engines[value] = self.chooser(made)
            self.setups[value] = made
        return self.setups[value]

    def ensure(self, wanted: dict[Value, int]) -> None:
        """Play the trials each value lacks to reach its wanted count (all values' chunks handed out at once)."""
        chunks = []
        for value, n in wanted.items():
            setup = self.setup(value)
            have = len(self.results.setdefault(value, []))
            if n > have:
                key = variant_key(setup.assignment)
                chunks.extend(split(key, setup, variant_seed(self.seed, key), have, n, self.max_rounds,
                                    engine=self.engines[value]))
        if not chunks:
            return
        got = collect(self.backend, chunks)
        for value, n in wanted.items():
            have = len(self.results[value])
            if n > have:
                key = variant_key(self.setups[value].assignment)
                self.results[value].extend(got.trials(key, have, n))
                self.played += n - have


def balance(file: str | Path, vary: Vary, target: float, *, metric: str = "win", side: str | None = None,
            seed: int = 0, backend: Backend | None = None, ruleset: str | None = None,
            max_rounds: int | None = None, allow_dirs: Sequence[str | Path] = (), batch: int = BATCH,
            max_per_point: int = MAX_PER_POINT, budget: int = BUDGET, engine: str = "reference",
            notice: Callable[[str], None] | None = None) -> BalanceResult:
    """Find the value of ``vary.path`` in ``vary.low .. vary.high`` where the metric is ``target``.

    ``engine`` (auto, kernel or reference) is decided for each value probed, ``notice`` gets auto's one-line
    fallback notice once: the kernel plays the same trials as the reference engine would.

    Raises:
        ValueError: For a list instead of a range, an unknown metric or side.
        InputError: For an unknown path or a value the schema refuses.
    """
    if not vary.is_range or vary.low is None or vary.high is None:
        raise ValueError(f"--vary {vary.path}: a balance search needs a range LOW..HIGH, not a list")
    points = _Points(vary.path, file, seed, backend or InProcess(), ruleset, max_rounds, allow_dirs,
                     EngineChooser(engine, notice))
    integral = vary.integral
    low: Value = int(vary.low) if integral else vary.low
    high: Value = int(vary.high) if integral else vary.high
    focus = Focus.of(points.setup(low).spec, side)
    probes: list[Probe] = []

    def estimate(value: Value) -> Estimate:
        return measure(points.results[value], metric, focus)

    def classify(values: Sequence[Value]) -> list[Probe]:
        """Look at points (together) until each is settled: below, above or on target."""
        settled: dict[Value, Probe] = {}
        wanted = {v: batch for v in values}
        while True:
            points.ensure(wanted)
            for value in list(wanted):
                est = estimate(value)
                if est.high < target or est.low > target or est.n >= max_per_point or points.played >= budget:
                    where = -1 if est.high < target else 1 if est.low > target else 0
                    settled[value] = Probe(value, est, where)
                    del wanted[value]
                else:
                    wanted[value] = min(max_per_point, est.n + batch)
            if not wanted:
                break
        found = [settled[v] for v in values]
        probes.extend(found)
        return found

    def result(status: str, best: Probe, bracket: tuple[Value, Value]) -> BalanceResult:
        return BalanceResult(vary.path, metric, target, focus.side, status, best.value, best.estimate, bracket,
                             points.played, tuple(probes))

    def closest(*candidates: Probe) -> Probe:
        return min(candidates, key=lambda p: (abs(p.estimate.value - target), -p.estimate.n))

    lo_probe, hi_probe = classify([low, high])
    for probe in (lo_probe, hi_probe):
        if probe.side == 0:
            return result("found", probe, (low, high))
    if lo_probe.side == hi_probe.side:
        return result("not-bracketed", closest(lo_probe, hi_probe), (low, high))
    resolution = 1.0 if integral else (float(high) - float(low)) / FLOAT_STEPS
    while float(hi_probe.value) - float(lo_probe.value) > resolution:
        if points.played >= budget:
            return result("budget", closest(lo_probe, hi_probe), (lo_probe.value, hi_probe.value))
        a, b = float(lo_probe.value), float(hi_probe.value)
        mid: Value = int((a + b) // 2) if integral else (a + b) / 2
        (probe,) = classify([mid])
        if probe.side == 0:
            return result("found", probe, _ordered(lo_probe.value, hi_probe.value))
        if probe.side == lo_probe.side:
            lo_probe = probe
        else:
            hi_probe = probe
    best = closest(lo_probe, hi_probe)
    return result("found" if best.estimate.contains(target) else "between", best,
                  _ordered(lo_probe.value, hi_probe.value))


def _ordered(a: Value, b: Value) -> tuple[Value, Value]:
    return (a, b) if float(a) <= float(b) else (b, a)


__all__ = ["BATCH", "BUDGET", "MAX_PER_POINT", "BalanceResult", "Probe", "balance"]
