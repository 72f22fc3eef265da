"""The kernel benchmark still runs (it is run by hand, so nothing else would notice it breaking)."""

import importlib.util
import os
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


def test_bench_kernel_start__its_stage_timer_runs_and_its_rows_add_up() -> None:
    spec = importlib.util.spec_from_file_location("bench_kernel_start", START)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    stage_rows, _ = bench.stages(env=dict(os.environ))  # the session's caches: numba's is filled, nothing compiles
    labels = [label for label, _ in stage_rows]
    assert "numba: reading its cache" in labels and "the rest" in labels
    assert all(seconds >= 0 for label, seconds in stage_rows if label != "the rest")
