"""Per-fight results as data: how a fight ended, the long-format rows, DataFrames and the --out files."""

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from ashfall.sim import simulate, trial_seed
from ashfall.sim.fight import ENDINGS, CombatantResult, FightResult
from ashfall.sim.report import aggregate
from ashfall.sim.results import COMBATANT_COLUMNS, FIGHT_COLUMNS, RESULTS_SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
BANDITS = ROOT / "encounters" / "bandit-band.yaml"


def combatant(cid: str, side: str, *, dropped: bool = False, morale: str | None = None,
              creature: str = "") -> CombatantResult:
    return CombatantResult(cid, cid.title(), side, dropped, False, 3, 4, 0 if dropped else 5, 10, morale,
                           creature or cid)


def fight(winner: str | None, *foes: CombatantResult, timed_out: bool = False) -> FightResult:
    return FightResult(7, winner, 3, timed_out, (combatant("hero", "good"), *foes), 2, 0)


@pytest.mark.parametrize(("foes", "timed_out", "ended"), [
    ((combatant("a", "bad", dropped=True), combatant("b", "bad", dropped=True)), False, "defeat"),
    ((combatant("a", "bad", dropped=True), combatant("b", "bad", morale="fled (scatter)")), False, "morale"),
    ((combatant("a", "bad", morale="surrendered (with honour)"), combatant("b", "bad", morale="cowered")),
     False, "surrender"),
    ((combatant("a", "bad", morale="surrendered"), combatant("b", "bad", morale="routed")), False, "morale"),
    ((combatant("a", "bad"),), True, "round-limit"),
])
def test_fight_ended__the_losers_still_standing_say_how(foes: tuple[CombatantResult, ...], timed_out: bool,
                                                       ended: str) -> None:
    result = fight(None if timed_out else "good", *foes, timed_out=timed_out)
    assert result.ended == ended


def test_report__endings_pc_drops_and_rounds_by_ending_are_counted_per_fight() -> None:
    results = [fight("good", combatant("a", "bad", dropped=True)),
               fight("good", combatant("a", "bad", morale="fled")),
               fight("good", combatant("a", "bad", morale="fled")),
               FightResult(1, "bad", 5, False, (combatant("hero", "good", dropped=True), combatant("a", "bad")), 1, 0)]
    report = aggregate("t", "r", 0, results)
    assert [(k, r.count) for k, r in report.endings] == [("defeat", 2), ("morale", 2), ("surrender", 0),
                                                         ("round-limit", 0)]
    assert report.pc_sides == ("good",)  # no PC side given: the first side
    assert report.pc_dropped.count == 1 and report.pc_died.count == 0
    assert dict(report.rounds_by_ending)["defeat"].mean == 4  # 3 and 5
    assert set(dict(report.rounds_by_ending)) == {"defeat", "morale"}


def test_report_groups__combatants_of_one_creature_are_one_row_with_members() -> None:
    rats = [combatant(f"rat-{i}", "bad", dropped=i < 2, creature="rat") for i in range(4)]
    report = aggregate("t", "r", 0, [fight("good", *rats)] * 3)
    groups = {g.creature: g for g in report.groups()}
    assert set(groups) == {"hero", "rat"}
    rat = groups["rat"]
    assert [m.id for m in rat.members] == ["rat-0", "rat-1", "rat-2", "rat-3"]
    assert rat.any_dropped.count == 3 and rat.all_dropped.count == 0
    assert rat.drops.mean == 2
    assert rat.dealt.mean == 12  # 4 rats x 3 damage


@pytest.fixture(scope="module")
def bandits():  # type: ignore[no-untyped-def]
    return simulate(BANDITS, 12, 5)


def test_rows__one_per_fight_and_combatant_with_the_trials_own_seed(bandits) -> None:  # type: ignore[no-untyped-def]
    rows = bandits.rows()
    per_fight = len(bandits.combatants)
    assert len(rows) == 12 * per_fight
    assert list(rows[0]) == [name for name, _ in FIGHT_COLUMNS + COMBATANT_COLUMNS]
    for trial in range(12):
        block = rows[trial * per_fight:(trial + 1) * per_fight]
        assert {r["trial"] for r in block} == {trial}
        assert {r["seed"] for r in block} == {trial_seed(5, trial)}
        assert {r["winner"] for r in block} == {bandits.fights[trial].winner}
    for c in bandits.combatants:  # the rows add up to the report's statistics
        mine = [r for r in rows if r["combatant"] == c.id]
        assert sum(r["dropped"] for r in mine) == c.dropped.count
        assert sum(r["damage_dealt"] for r in mine) == sum(c.dealt_samples)
    assert {r["ended"] for r in rows} <= set(ENDINGS)
    assert bandits.pc_sides == ("travellers",)  # the side with controller: human
    assert {r["side"] for r in rows if r["pc"]} == {"travellers"}


def test_to_pandas__long_and_per_fight_tables_have_the_schema_types(bandits) -> None:  # type: ignore[no-untyped-def]
    df = bandits.to_pandas()
    assert list(df.columns) == [name for name, _ in FIGHT_COLUMNS + COMBATANT_COLUMNS]
    assert df["dropped"].dtype == bool and df["hp_left"].dtype == "int64"
    fights = bandits.to_pandas(per="fight")
    assert len(fights) == 12 and list(fights["trial"]) == list(range(12))
    assert fights["ended"].value_counts().sum() == 12
    pl = bandits.to_polars()
    assert pl.shape == df.shape


@pytest.mark.parametrize("suffix", ["parquet", "csv", "jsonl"])
def test_write__every_format_reads_back_as_the_same_table(bandits, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          suffix: str) -> None:
    out = bandits.write(tmp_path / f"r.{suffix}")
    expected = bandits.to_pandas()
    if suffix == "parquet":
        back = pd.read_parquet(out)
        meta = pq.read_schema(out).metadata
        assert meta[b"ashfall.schema"] == str(RESULTS_SCHEMA_VERSION).encode()
        assert meta[b"ashfall.seed"] == b"5"
    elif suffix == "csv":
        back = pd.read_csv(out, keep_default_na=False, na_values=[""])
    else:
        back = pd.DataFrame([json.loads(line) for line in out.read_text().splitlines()])
    assert len(back) == len(expected)
    for col in ("trial", "seed", "rounds", "hp_left", "damage_taken"):
        assert list(back[col].astype("int64")) == list(expected[col])
    assert list(back["dropped"].astype(str).str.lower()) == list(expected["dropped"].astype(str).str.lower())
    assert list(back["combatant"]) == list(expected["combatant"])


def test_write__an_unknown_suffix_is_refused(bandits, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=r"\.parquet, \.csv, \.jsonl"):
        bandits.write(tmp_path / "r.xlsx")


def test_summary__is_the_text_of_the_cli_tables(bandits) -> None:  # type: ignore[no-untyped-def]
    text = bandits.summary()
    assert "Highway Ambush" in text and "How fights ended" in text
