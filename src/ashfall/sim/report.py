"""Aggregating many fights into a :class:`SimReport`, and comparing two reports.

A report is the simulator's results object: the statistics (what ``ashfall sim`` prints, also as text from
:meth:`SimReport.summary`) and every fight it was built from (``fights``, in trial order), which
:meth:`SimReport.rows`, :meth:`SimReport.to_pandas`, :meth:`SimReport.to_polars` and :meth:`SimReport.write`
give as a table (schema in :mod:`ashfall.sim.results`). :meth:`SimReport.to_jsonable` leaves the samples
and fights out. Aggregation walks the results in trial order, so the same trials give the same report however
they were computed.

Besides win rates: how fights ended (:data:`~ashfall.sim.fight.ENDINGS`, ``endings``), rounds per ending,
P(any PC drops) and P(any PC dies) (PC sides: :func:`~ashfall.sim.results.pc_sides_of`), and the combatants
grouped by creature (:meth:`SimReport.groups`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ashfall.sim import results as table
from ashfall.sim.fight import ENDINGS, FightResult
from ashfall.sim.stats import (
    ALPHA,
    Summary,
    TestResult,
    cohens_h,
    hedges_g,
    holm,
    summarize,
    two_proportion_z,
    welch_t,
    wilson,
)

if TYPE_CHECKING:
    import pandas
    import polars
    import pyarrow


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
    creature: str = ""


@dataclass(frozen=True, slots=True)
class GroupStats:
    """The combatants of one creature type on one side, taken together (16 rats as one row).

    Attributes:
        creature: The stat block id.
        name: The first member's display name.
        side: Their side.
        members: The member combatants, in roster order.
        any_dropped: Fights in which at least one of them dropped.
        all_dropped: Fights in which all of them dropped.
        drops: How many of them dropped per fight.
        deaths: How many of them died per fight.
        dealt: Damage they dealt together per fight.
        taken: Damage they took together per fight.
        hp_share: Their HP left at the end as a share of their maximum HP together, per fight.
        morale: How often each morale outcome happened to a member (count over members and fights).
        drops_samples: How many of them dropped, per fight.
        dealt_samples: Damage they dealt together, per fight.
    """

    creature: str
    name: str
    side: str
    members: tuple[CombatantStats, ...]
    any_dropped: Rate
    all_dropped: Rate
    drops: Summary
    deaths: Summary
    dealt: Summary
    taken: Summary
    hp_share: Summary
    morale: tuple[tuple[str, int], ...]
    drops_samples: tuple[int, ...] = ()
    dealt_samples: tuple[int, ...] = ()


_NO_RATE = Rate(0, 0, 0.0, (0.0, 1.0))


@dataclass(frozen=True, slots=True)
class SimReport:
    """The statistics of ``trials`` fights of one setup, and the fights themselves.

    Attributes (besides the statistics): ``fights``: every fight in trial order; ``pc_sides``: the sides
    counted as PCs; ``endings``: how fights ended (each of :data:`~ashfall.sim.fight.ENDINGS` with its rate);
    ``pc_dropped`` / ``pc_died``: fights in which any PC dropped / died; ``rounds_by_ending``: rounds of the
    fights that ended each way (only endings that happened).
    """

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
    fights: tuple[FightResult, ...] = ()
    pc_sides: tuple[str, ...] = ()
    endings: tuple[tuple[str, Rate], ...] = ()
    pc_dropped: Rate = _NO_RATE
    pc_died: Rate = _NO_RATE
    rounds_by_ending: tuple[tuple[str, Summary], ...] = ()

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

    def ending(self, name: str) -> Rate:
        """How often fights ended one way (one of :data:`~ashfall.sim.fight.ENDINGS`)."""
        for key, rate in self.endings:
            if key == name:
                return rate
        raise KeyError(f"no ending {name!r}")

    def groups(self) -> tuple[GroupStats, ...]:
        """The combatants grouped by (side, creature), in roster order of each group's first member."""
        keys: dict[tuple[str, str], list[int]] = {}
        for index, c in enumerate(self.combatants):
            keys.setdefault((c.side, c.creature or c.id), []).append(index)
        return tuple(_group(self, creature, side, members) for (side, creature), members in keys.items())

    def rows(self) -> list[dict[str, Any]]:
        """One row per fight and combatant (long format; columns in :mod:`ashfall.sim.results`)."""
        return table.rows(self.fights, self.pc_sides)

    def fight_rows(self) -> list[dict[str, Any]]:
        """One row per fight (the fight columns only)."""
        return table.fight_rows(self.fights, self.pc_sides)

    def _data(self, per: str) -> list[dict[str, Any]]:
        return self.rows() if per == "combatant" else self.fight_rows()

    def metadata(self) -> dict[str, str]:
        """What the table was made from (stored in Parquet files)."""
        return {"ashfall.schema": str(table.RESULTS_SCHEMA_VERSION), "ashfall.encounter": self.name,
                "ashfall.ruleset": self.ruleset, "ashfall.seed": str(self.seed)}

    def to_arrow(self, per: str = "combatant") -> pyarrow.Table:
        """The fights as a pyarrow table, ``per`` ``"combatant"`` (long format) or ``"fight"``."""
        return table.to_arrow(self._data(per), per, self.metadata())

    def to_pandas(self, per: str = "combatant") -> pandas.DataFrame:
        """The fights as a pandas DataFrame, ``per`` ``"combatant"`` (long format) or ``"fight"``."""
        return table.to_pandas(self._data(per), per)

    def to_polars(self, per: str = "combatant") -> polars.DataFrame:
        """The fights as a polars DataFrame (polars is optional)."""
        return table.to_polars(self._data(per), per)

    def write(self, out: str | Path, per: str = "combatant") -> Path:
        """Write the fights to a ``.parquet``, ``.csv`` or ``.jsonl`` file."""
        return table.write(self._data(per), Path(out), self.metadata(), per)

    def summary(self, width: int = 120) -> str:
        """The tables ``ashfall sim`` prints, as plain text."""
        import io

        from rich.console import Console

        from ashfall.sim.tables import report_tables  # the tables import this module: loaded on demand

        console = Console(width=width, file=io.StringIO(), color_system=None)
        for t in report_tables(self):
            console.print(t)
        assert isinstance(console.file, io.StringIO)
        return console.file.getvalue()

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
            "ended": {k: r.to_jsonable() for k, r in self.endings},
            "rounds_by_ending": {k: _summary_json(v) for k, v in self.rounds_by_ending},
            "pc_sides": list(self.pc_sides),
            "any_pc_dropped": self.pc_dropped.to_jsonable(),
            "any_pc_died": self.pc_died.to_jsonable(),
            "creatures": [_group_json(g) for g in self.groups()],
        }


def _group(report: SimReport, creature: str, side: str, indices: list[int]) -> GroupStats:
    members = tuple(report.combatants[i] for i in indices)
    n = report.trials
    fights = report.fights
    per_fight = [[f.combatants[i] for i in indices] for f in fights] if fights else []
    morale: dict[str, int] = {}
    for m in members:
        for k, v in m.morale:
            morale[k] = morale.get(k, 0) + v
    max_total = sum(m.max_hp for m in members) or 1
    drops = tuple(sum(c.dropped for c in row) for row in per_fight)
    dealt = tuple(sum(c.damage_dealt for c in row) for row in per_fight)
    return GroupStats(
        creature=creature, name=members[0].name, side=side, members=members,
        any_dropped=Rate.of(sum(1 for row in per_fight if any(c.dropped for c in row)), n),
        all_dropped=Rate.of(sum(1 for row in per_fight if all(c.dropped for c in row)), n),
        drops=summarize(drops),
        deaths=summarize([sum(c.died for c in row) for row in per_fight]),
        dealt=summarize(dealt),
        taken=summarize([sum(c.damage_taken for c in row) for row in per_fight]),
        hp_share=summarize([sum(max(0, c.hp) for c in row) / max_total for row in per_fight]),
        morale=tuple(morale.items()), drops_samples=drops, dealt_samples=dealt,
    )


def _group_json(g: GroupStats) -> dict[str, Any]:
    return {"creature": g.creature, "name": g.name, "side": g.side, "members": [m.id for m in g.members],
            "any_dropped": g.any_dropped.to_jsonable(), "all_dropped": g.all_dropped.to_jsonable(),
            "drops": _summary_json(g.drops), "deaths": _summary_json(g.deaths),
            "damage_dealt": _summary_json(g.dealt), "damage_taken": _summary_json(g.taken),
            "hp_share": _summary_json(g.hp_share), "morale": dict(g.morale)}


def _summary_json(s: Summary) -> dict[str, Any]:
    return {"mean": s.mean, "sd": s.sd, "min": s.minimum, "max": s.maximum,
            "quantiles": {f"p{round(q * 100)}": v for q, v in s.quantiles}}


def _combatant_json(c: CombatantStats) -> dict[str, Any]:
    return {"name": c.name, "side": c.side, "max_hp": c.max_hp, "dropped": c.dropped.to_jsonable(),
            "died": c.died.to_jsonable(), "damage_dealt": _summary_json(c.dealt),
            "damage_taken": _summary_json(c.taken), "hp_left": _summary_json(c.hp_left), "morale": dict(c.morale)}


def aggregate(name: str, ruleset: str, seed: int, results: Sequence[FightResult], *,
              pc_sides: Sequence[str] = ()) -> SimReport:
    """Build the report of a sequence of fight results (in trial order).

    Args:
        name: The encounter's name.
        ruleset: The ruleset's name.
        seed: The sweep's seed.
        results: The fights, in trial order.
        pc_sides: The sides whose creatures count as PCs (default: the first side of the roster).
    """
    n = len(results)
    pcs = table.resolve_pc_sides(pc_sides, results)
    ended = [r.ended for r in results]
    rounds_by = {e: tuple(r.rounds for r, how in zip(results, ended, strict=True) if how == e) for e in ENDINGS}
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
        fights=tuple(results), pc_sides=pcs,
        endings=tuple((e, Rate.of(ended.count(e), n)) for e in ENDINGS),
        pc_dropped=Rate.of(sum(1 for r in results if any(c.dropped for c in r.combatants if c.side in pcs)), n),
        pc_died=Rate.of(sum(1 for r in results if any(c.died for c in r.combatants if c.side in pcs)), n),
        rounds_by_ending=tuple((e, summarize(v)) for e, v in rounds_by.items() if v),
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
            creature=first.creature,
        ))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Difference:
    """One statistic in two reports: both values, the difference (second minus first), the test and the effect.

    Attributes:
        label: What is compared.
        first: Its value in the first report.
        second: Its value in the second.
        test: The raw two-sided test (two-proportion z for rates, Welch's t for means).
        rate: A proportion (else a mean).
        effect: Cohen's h (rates) or Hedges' g (means) of second against first.
        p_holm: The p-value adjusted with Holm's method over all the comparison's rows.
    """

    label: str
    first: float
    second: float
    test: TestResult
    rate: bool = False
    effect: float = 0.0
    p_holm: float = 1.0

    @property
    def delta(self) -> float:
        """Second minus first."""
        return self.second - self.first

    @property
    def significant(self) -> bool:
        """Significant at :data:`~ashfall.sim.stats.ALPHA` after Holm's correction."""
        return self.p_holm < ALPHA

    @property
    def effect_name(self) -> str:
        """``h`` (Cohen's h) or ``g`` (Hedges' g)."""
        return "h" if self.rate else "g"


def _rate_row(label: str, a: Rate, b: Rate) -> Difference:
    return Difference(label, a.rate, b.rate, two_proportion_z(b.count, b.n, a.count, a.n), True,
                      cohens_h(a.rate, b.rate))


def _mean_row(label: str, a: Sequence[float], b: Sequence[float], ma: float, mb: float) -> Difference:
    return Difference(label, ma, mb, welch_t(b, a), False, hedges_g(a, b))


def compare(a: SimReport, b: SimReport) -> tuple[Difference, ...]:
    """Every statistic both reports have, tested, with effect sizes and Holm-adjusted p-values.

    Rows: side win rates, P(any PC drops), P(any PC dies), how often fights ended each way (endings seen in
    either), rounds, and per creature group: drop chance and damage dealt (a group of one: that combatant;
    a larger group: drops per fight and damage dealt together). Holm's correction runs over all rows.
    """
    rows: list[Difference] = []
    for side in a.sides:
        other = next((s for s in b.sides if s.side == side.side), None)
        if other is not None:
            rows.append(_rate_row(f"{side.side} wins", side.wins, other.wins))
    if a.pc_sides == b.pc_sides and a.fights and b.fights:
        rows.append(_rate_row("any PC drops", a.pc_dropped, b.pc_dropped))
        rows.append(_rate_row("any PC dies", a.pc_died, b.pc_died))
    other_endings = dict(b.endings)
    for key, rate in a.endings:
        if key in other_endings and (rate.count or other_endings[key].count):
            rows.append(_rate_row(f"ended by {key}", rate, other_endings[key]))
    rows.append(_mean_row("rounds (mean)", a.rounds_samples, b.rounds_samples, a.rounds.mean, b.rounds.mean))
    b_groups = {(g.side, g.creature): g for g in b.groups()}
    for g in a.groups():
        h = b_groups.get((g.side, g.creature))
        if h is None or [m.id for m in g.members] != [m.id for m in h.members]:
            continue
        if len(g.members) == 1:
            c, d = g.members[0], h.members[0]
            rows.append(_rate_row(f"{c.id} drops", c.dropped, d.dropped))
            rows.append(_mean_row(f"{c.id} damage dealt (mean)", c.dealt_samples, d.dealt_samples,
                                  c.dealt.mean, d.dealt.mean))
            continue
        label = f"{g.creature} ×{len(g.members)}"
        rows.append(_mean_row(f"{label} drops per fight (mean)", g.drops_samples, h.drops_samples,
                              g.drops.mean, h.drops.mean))
        rows.append(_mean_row(f"{label} damage dealt (mean)", g.dealt_samples, h.dealt_samples,
                              g.dealt.mean, h.dealt.mean))
    adjusted = holm([r.test.p_value for r in rows])
    return tuple(dataclasses.replace(r, p_holm=p) for r, p in zip(rows, adjusted, strict=True))


def comparison_jsonable(a: SimReport, b: SimReport, rows: Sequence[Difference]) -> dict[str, Any]:
    """A comparison as plain JSON data."""
    return {
        "first": a.to_jsonable(), "second": b.to_jsonable(),
        "differences": [
            {"label": r.label, "first": r.first, "second": r.second, "delta": r.delta,
             "statistic": r.test.statistic if math.isfinite(r.test.statistic) else None,
             "p_value": r.test.p_value, "p_holm": r.p_holm,
             "effect": {"name": "cohens_h" if r.rate else "hedges_g",
                        "value": r.effect if math.isfinite(r.effect) else None},
             "significant": r.significant}
            for r in rows
        ],
    }
