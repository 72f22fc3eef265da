"""Aggregating many fights into a :class:`SimReport`, and comparing two reports.

A report keeps the per-trial samples it was built from (rounds, damage, HP left) so plots and
comparisons can use them; :meth:`SimReport.to_jsonable` leaves them out. Aggregation walks the
results in trial order, so the same trials give the same report however they were computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ashfall.sim.fight import FightResult
from ashfall.sim.stats import Summary, TestResult, summarize, two_proportion_z, welch_t, wilson


@dataclass(frozen=True, slots=True)
class Rate:
    """A proportion with its 95% Wilson interval."""

    count: int
    n: int
    rate: float
    ci95: tuple[float, float]

    @classmethod
    def of(cls, count: int, n: int) -> Rate:
        """``count`` out of ``n``."""
        return cls(count, n, count / n if n else 0.0, wilson(count, n))

    def to_jsonable(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"count": self.count, "rate": self.rate, "ci95": list(self.ci95)}


@dataclass(frozen=True, slots=True)
class SideStats:
    """How often one side won."""

    side: str
    wins: Rate


@dataclass(frozen=True, slots=True)
class CombatantStats:
    """One combatant over all trials.

    Attributes:
        id: Combatant id.
        name: Display name.
        side: Its side.
        max_hp: Its maximum HP.
        dropped: How often it reached 0 HP.
        died: How often it was dead at the end.
        dealt: Damage it dealt per fight (samples in ``dealt_samples``).
        taken: Damage it took per fight.
        hp_left: HP left at the end of each fight.
        morale: How often each morale outcome happened, in first-seen order.
    """

    id: str
    name: str
    side: str
    max_hp: int
    dropped: Rate
    died: Rate
    dealt: Summary
    taken: Summary
    hp_left: Summary
    morale: tuple[tuple[str, int], ...]
    dealt_samples: tuple[int, ...]
    taken_samples: tuple[int, ...]
    hp_samples: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SimReport:
    """The statistics of ``trials`` fights of one setup."""

    name: str
    ruleset: str
    trials: int
    seed: int
    sides: tuple[SideStats, ...]
    undecided: Rate
    timed_out: int
    rounds: Summary
    rounds_samples: tuple[int, ...]
    combatants: tuple[CombatantStats, ...]
    attacks: int
    refusals: int

    def side(self, name: str) -> SideStats:
        """One side's statistics."""
        for s in self.sides:
            if s.side == name:
                return s
        raise KeyError(f"no side {name!r}")

    def combatant(self, cid: str) -> CombatantStats:
        """One combatant's statistics."""
        for c in self.combatants:
            if c.id == cid:
                return c
        raise KeyError(f"no combatant {cid!r}")

    def to_jsonable(self) -> dict[str, Any]:
        """The report as plain JSON data (samples left out)."""
        return {
            "encounter": self.name,
            "ruleset": self.ruleset,
            "trials": self.trials,
            "seed": self.seed,
            "sides": {s.side: {"wins": s.wins.count, "win_rate": s.wins.rate, "ci95": list(s.wins.ci95)}
                      for s in self.sides},
            "undecided": self.undecided.to_jsonable(),
            "timed_out": self.timed_out,
            "rounds": _summary_json(self.rounds),
            "combatants": {c.id: _combatant_json(c) for c in self.combatants},
            "attacks": self.attacks,
            "refusals": self.refusals,
        }


def _summary_json(s: Summary) -> dict[str, Any]:
    return {"mean": s.mean, "sd": s.sd, "min": s.minimum, "max": s.maximum,
            "quantiles": {f"p{round(q * 100)}": v for q, v in s.quantiles}}


def _combatant_json(c: CombatantStats) -> dict[str, Any]:
    return {"name": c.name, "side": c.side, "max_hp": c.max_hp, "dropped": c.dropped.to_jsonable(),
            "died": c.died.to_jsonable(), "damage_dealt": _summary_json(c.dealt),
            "damage_taken": _summary_json(c.taken), "hp_left": _summary_json(c.hp_left), "morale": dict(c.morale)}


def aggregate(name: str, ruleset: str, seed: int, results: Sequence[FightResult]) -> SimReport:
    """Build the report of a sequence of fight results (in trial order)."""
    n = len(results)
    sides: list[str] = []
    for r in results[:1]:
        for c in r.combatants:
            if c.side not in sides:
                sides.append(c.side)
    wins = {s: 0 for s in sides}
    for r in results:
        if r.winner is not None:
            wins[r.winner] = wins.get(r.winner, 0) + 1
    undecided = sum(1 for r in results if r.winner is None)
    rounds = tuple(r.rounds for r in results)
    return SimReport(
        name=name, ruleset=ruleset, trials=n, seed=seed,
        sides=tuple(SideStats(s, Rate.of(w, n)) for s, w in wins.items()),
        undecided=Rate.of(undecided, n), timed_out=sum(1 for r in results if r.timed_out),
        rounds=summarize(rounds), rounds_samples=rounds,
        combatants=_combatants(results),
        attacks=sum(r.attacks for r in results), refusals=sum(r.refusals for r in results),
    )


def _combatants(results: Sequence[FightResult]) -> tuple[CombatantStats, ...]:
    if not results:
        return ()
    n = len(results)
    out = []
    for index, first in enumerate(results[0].combatants):
        rows = [r.combatants[index] for r in results]
        morale: dict[str, int] = {}
        for row in rows:
            if row.morale is not None:
                morale[row.morale] = morale.get(row.morale, 0) + 1
        dealt = tuple(row.damage_dealt for row in rows)
        taken = tuple(row.damage_taken for row in rows)
        hp = tuple(row.hp for row in rows)
        out.append(CombatantStats(
            first.id, first.name, first.side, first.max_hp,
            Rate.of(sum(1 for row in rows if row.dropped), n), Rate.of(sum(1 for row in rows if row.died), n),
            summarize(dealt), summarize(taken), summarize(hp), tuple(morale.items()), dealt, taken, hp,
        ))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Difference:
    """One statistic in two reports: both values, the difference (second minus first) and the test."""

    label: str
    first: float
    second: float
    test: TestResult

    @property
    def delta(self) -> float:
        """Second minus first."""
        return self.second - self.first


def compare(a: SimReport, b: SimReport) -> tuple[Difference, ...]:
    """Side win rates (two-proportion z-test), rounds and per-combatant damage and drop chance (Welch / z)."""
    rows: list[Difference] = []
    for side in a.sides:
        other = next((s for s in b.sides if s.side == side.side), None)
        if other is None:
            continue
        rows.append(Difference(f"{side.side} wins", side.wins.rate, other.wins.rate,
                               two_proportion_z(other.wins.count, other.wins.n, side.wins.count, side.wins.n)))
    rows.append(Difference("rounds (mean)", a.rounds.mean, b.rounds.mean, welch_t(b.rounds_samples, a.rounds_samples)))
    for c in a.combatants:
        d = next((x for x in b.combatants if x.id == c.id), None)
        if d is None:
            continue
        rows.append(Difference(f"{c.id} drops", c.dropped.rate, d.dropped.rate,
                               two_proportion_z(d.dropped.count, d.dropped.n, c.dropped.count, c.dropped.n)))
        rows.append(Difference(f"{c.id} damage dealt (mean)", c.dealt.mean, d.dealt.mean,
                               welch_t(d.dealt_samples, c.dealt_samples)))
    return tuple(rows)


def comparison_jsonable(a: SimReport, b: SimReport, rows: Sequence[Difference]) -> dict[str, Any]:
    """A comparison as plain JSON data."""
    return {
        "first": a.to_jsonable(), "second": b.to_jsonable(),
        "differences": [
            {"label": r.label, "first": r.first, "second": r.second, "delta": r.delta,
             "statistic": r.test.statistic if math.isfinite(r.test.statistic) else None,
             "p_value": r.test.p_value, "significant": r.test.significant}
            for r in rows
        ],
    }
