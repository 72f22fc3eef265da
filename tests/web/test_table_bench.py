"""The table benchmark still runs (it is run by hand, so nothing else would notice it breaking)."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_table.py"


def test_bench_table__plays_a_few_actions_on_two_fights_and_reports_latencies() -> None:
    spec = importlib.util.spec_from_file_location("bench_table", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.main(["--actions", "12", "--fights", "2", "--encounter", "duel"])
    assert result["actions"] >= 12
    assert 0 < result["write_p50_ms"] <= result["write_p99_ms"] and result["step_p50_ms"] >= result["write_p50_ms"]
