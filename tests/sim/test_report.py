"""Aggregating fight results into a report, its JSON, and comparing two reports."""

import json

import pytest

from ashfall.sim.fight import CombatantResult, FightResult
from ashfall.sim.report import aggregate, compare, comparison_jsonable
from ashfall.sim.stats import wilson


def fight(winner: str | None, rounds: int, hero_hp: int, morale: str | None = None) -> FightResult:
    hero = CombatantResult("hero", "Hero", "good", hero_hp == 0, False, 10, 20 - hero_hp, hero_hp, 20, None)
    foe = CombatantResult("foe", "Foe", "bad", winner == "good", winner == "good", 20 - hero_hp, 10, 0, 10, morale)
    return FightResult(0, winner, rounds, winner is None, (hero, foe), 6, 0)


def test_aggregate__counts_rates_intervals_and_morale() -> None:
    results = [fight("good", 3, 12), fight("good", 4, 8, "fled"), fight("bad", 5, 0), fight(None, 10, 5)]
    report = aggregate("t", "ashfall-2", 1, results)
    good = report.side("good").wins
    assert (good.count, good.n, good.rate) == (2, 4, 0.5)
    assert good.ci95 == wilson(2, 4)
    assert report.undecided.count == 1 and report.timed_out == 1
    assert report.rounds.mean == 5.5
    assert report.rounds_samples == (3, 4, 5, 10)
    hero = report.combatant("hero")
    assert hero.dropped.count == 1
    assert hero.hp_left.mean == pytest.approx(25 / 4)
    assert report.combatant("foe").morale == (("fled", 1),)
    assert report.attacks == 24
    data = report.to_jsonable()
    json.dumps(data)  # plain JSON
    assert data["sides"]["bad"]["wins"] == 1
    assert data["combatants"]["foe"]["morale"] == {"fled": 1}


def test_compare__a_large_difference_in_win_rate_is_significant_and_equal_runs_are_not() -> None:
    strong = aggregate("a", "x", 1, [fight("good", 3, 10)] * 90 + [fight("bad", 3, 0)] * 10)
    weak = aggregate("b", "y", 1, [fight("good", 4, 10)] * 50 + [fight("bad", 4, 0)] * 50)
    rows = {r.label: r for r in compare(strong, weak)}
    assert rows["good wins"].delta == pytest.approx(-0.4)
    assert rows["good wins"].test.significant
    assert rows["rounds (mean)"].test.significant  # constant 3 vs constant 4
    same = {r.label: r for r in compare(strong, strong)}
    assert not any(r.test.significant for r in same.values())
    data = comparison_jsonable(strong, weak, list(rows.values()))
    json.dumps(data, allow_nan=False)
