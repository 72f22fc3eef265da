"""The loader benchmark still runs (it is run by hand, so nothing else would notice it breaking)."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_loader.py"


def test_bench_loader__times_a_small_content_file_against_safe_load() -> None:
    spec = importlib.util.spec_from_file_location("bench_loader", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.measure(50)
    assert result["values"] > 50 * 10 and result["parse_yaml"] > 0 and result["safe_load"] > 0
    assert result["ratio"] == result["parse_yaml"] / result["safe_load"] and result["library_from_text"] > 0
