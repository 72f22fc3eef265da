"""The kernel benchmark still runs (it is run by hand, so nothing else would notice it breaking)."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_kernel.py"
START = BENCH.with_name("bench_kernel_start.py")


def test_bench_kernel__measures_both_engines_on_the_scripted_duel() -> None:
    spec = importlib.util.spec_from_file_location("bench_kernel", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    got = bench.measure(reference_trials=5, kernel_trials=200, repeat=1)
    assert set(got) == {"reference", "kernel_loop", "kernel_sim"} and all(v > 0 for v in got.values())


def test_bench_kernel_start__its_step_timer_is_valid_python() -> None:
    spec = importlib.util.spec_from_file_location("bench_kernel_start", START)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    code = bench._STEPS.format(path="encounters/duel.yaml", ruleset="ashfall-1")
    compile(code, "steps", "exec")
    assert "lowering(setup)" in code and "results(1, 0, 1)" in code
