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


def test_bench_sweep__measures_throughput_and_scaling_of_a_tiny_sweep() -> None:
    path = BENCH.with_name("bench_sweep.py")
    spec = importlib.util.spec_from_file_location("bench_sweep", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    got = bench.measure(2, 2, vary="combatants.champion.hp=40,50")
    assert got["fights"] == 4 and got["one_fps"] > 0 and got["many_fps"] > 0
    assert got["efficiency"] == pytest.approx(got["speedup"] / 2)
