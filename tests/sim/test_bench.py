"""The benchmark script still runs (it is run by hand, so nothing else would notice it breaking)."""

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench.py"


@pytest.mark.parametrize("policy", ["default", "scripted"])
def test_bench__measures_a_few_skirmish_fights(policy: str) -> None:
    spec = importlib.util.spec_from_file_location("bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    elapsed, fights, attacks = bench.measure(3, 1, 1, policy)
    assert elapsed > 0 and fights == pytest.approx(3 / elapsed) and attacks > 0
