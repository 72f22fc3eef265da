"""The kernel's compiled Mersenne Twister draws exactly what random.Random (the engine's SeededRng) draws.

Seeding (init_by_array over the seed's 32-bit words), randint(1, n) (getrandbits(k) with rejection) and the
state (getstate / setstate both ways) are checked draw by draw against CPython for many seeds, including the
63-bit trial seeds of hash_seed, and sides from 1 to 1,000,000.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.core.rng import SeededRng, hash_seed
from ashfall.kernel.rng import (
    KernelRng,
    from_python_state,
    next_u32,
    reseed,
    reseed_many,
    roll,
    roll_many,
    seed_key,
    seeded,
    to_python_state,
)

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_rng.py"
SIDES = (1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 1000, 65536, 65537, 999_999, 1_000_000)


def test_seed_key__is_the_seeds_32_bit_words_least_significant_first() -> None:
    assert seed_key(0).tolist() == [0]
    assert seed_key(-7).tolist() == [7]
    assert seed_key(2**63 - 1).tolist() == [0xFFFFFFFF, 0x7FFFFFFF]
    assert seed_key(2**64).tolist() == [0, 0, 1]


@pytest.mark.parametrize("seed", [0, 1, -1, 42, 2**32 - 1, 2**32, 2**63 - 1, 2**70 + 3])
def test_seeded__state_equals_cpythons_after_seeding(seed: int) -> None:
    assert to_python_state(seeded(seed)) == random.Random(seed).getstate()


@pytest.mark.parametrize("index", range(0, 200, 7))
def test_roll__trial_seeds_draw_what_seeded_rng_draws(index: int) -> None:
    seed = hash_seed(2026, index)
    ours, theirs = KernelRng(seed), SeededRng(seed)
    for n in range(1500):  # past two twists of the 624-word state
        sides = SIDES[(n * 7 + index) % len(SIDES)]
        assert ours.roll(sides) == theirs.roll(sides), (seed, n, sides)
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(-(2**64), 2**64), sides=st.lists(st.integers(1, 1_000_000), min_size=1, max_size=60))
def test_roll__any_seed_and_sides_match_randint(seed: int, sides: list[int]) -> None:
    state, reference = seeded(seed), random.Random(seed)
    assert [roll(state, s) for s in sides] == [reference.randint(1, s) for s in sides]
    assert to_python_state(state) == reference.getstate()


@pytest.mark.parametrize("index", range(0, 60, 3))
def test_reseed__in_place_equals_a_fresh_random_random(index: int) -> None:
    state = seeded(123)  # a used state, reseeded in place as a kernel sweep does per trial
    roll(state, 20)
    seed = hash_seed(index, index * 31)
    reseed(state, seed)
    assert to_python_state(state) == random.Random(seed).getstate()
    reseed(state, 7)  # a seed of one 32-bit word
    assert to_python_state(state) == random.Random(7).getstate()


def test_reseed_many__draws_one_d20_after_each_seed() -> None:
    seeds = [hash_seed(3, i) for i in range(300)]
    total = reseed_many(seeded(0), np.array(seeds, dtype=np.int64))
    assert total == sum(random.Random(s).randint(1, 20) for s in seeds)


def test_next_u32__is_getrandbits_32() -> None:
    state, reference = seeded(5), random.Random(5)
    assert [next_u32(state) for _ in range(2000)] == [reference.getrandbits(32) for _ in range(2000)]


def test_roll_many__fills_the_same_draws_in_order() -> None:
    state, reference = seeded(hash_seed(9, 9)), random.Random(hash_seed(9, 9))
    out = np.zeros(5000, dtype=np.int64)
    roll_many(state, 20, out)
    assert out.tolist() == [reference.randint(1, 20) for _ in range(5000)]


def test_state__moves_between_seeded_rng_and_the_kernel_both_ways() -> None:
    engine, kernel = SeededRng(77), KernelRng(0)
    for _ in range(100):
        engine.roll(20)
    kernel.setstate(engine.getstate())  # the engine's checkpoint, resumed in the kernel
    assert [kernel.roll(12) for _ in range(50)] == [engine.roll(12) for _ in range(50)]
    mark = kernel.getstate()
    after = [kernel.roll(6) for _ in range(700)]
    engine.setstate(mark)  # the kernel's checkpoint, resumed in the engine
    assert [engine.roll(6) for _ in range(700)] == after
    kernel.setstate(mark)  # and rewound in the kernel itself
    assert [kernel.roll(6) for _ in range(700)] == after


def test_state__refuses_what_is_not_a_mersenne_twister_state() -> None:
    with pytest.raises(ValueError, match=r"not a random\.Random state"):
        from_python_state((2, (), None))
    bad = list(random.Random(1).getstate()[1])
    bad[0] = -1
    with pytest.raises(ValueError, match="out of range"):
        from_python_state((3, tuple(bad), None))


def test_roll__refuses_a_die_it_cannot_draw_in_one_output() -> None:
    with pytest.raises(ValueError, match="sides"):
        KernelRng(1).roll(0)
    with pytest.raises(ValueError, match="sides"):
        KernelRng(1).roll(2**31 + 1)


def test_bench_rng__measures_both_generators_in_one_run() -> None:
    spec = importlib.util.spec_from_file_location("bench_rng", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    cpython, kernel = bench.measure(draws=20_000, repeat=2)
    assert cpython > 0 and kernel > 0
    cpython_seed, kernel_seed = bench.measure_seeding(count=200, repeat=1)
    assert cpython_seed > 0 and kernel_seed > 0
