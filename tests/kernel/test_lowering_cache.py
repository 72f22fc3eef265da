"""The lowered tables kept on disk (``ashfall.sim.kernel_cache``): a later process reads what an earlier lowered.

A hit gives the very tables (every array equal, of the same dtype, shape and layout, so numba's cached code is
used as it is) and so the same fights, signatures included; a change to the fight or to the code is another key;
a damaged, partial or foreign entry is ignored and written again; ``ASHFALL_LOWERING_CACHE=off`` neither reads nor
writes; a fight the key cannot describe for certain is lowered every time.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.choice import TacticalConfig
from ashfall.ruleset import preset
from ashfall.sim import kernel_cache, kernel_lower
from ashfall.sim.kernel_lower import fight_parts, lowering
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup, Fight
from tests.kernel.kit import AI_DUEL, DUEL, seeds

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_DUEL = ROOT / "encounters" / "duel.yaml"


@dataclasses.dataclass(frozen=True, slots=True)
class Tables:
    """A stand-in for a lowering: what an entry holds."""

    name: str
    sizes: tuple[int, ...]
    weights: np.ndarray
    mean: float
    inner: Tables | None = None


CLASSES = {"Tables": Tables}


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache on, in a temporary folder (the folder of its entries is returned)."""
    monkeypatch.setenv(kernel_cache.DIR_ENV, str(tmp_path))
    monkeypatch.delenv(kernel_cache.CACHE_ENV, raising=False)
    return tmp_path / "lowered"


@pytest.fixture
def lowers(monkeypatch: pytest.MonkeyPatch) -> list[Fight]:
    """The fights really lowered (``kernel_lower._lowering_of`` calls)."""
    calls: list[Fight] = []
    real = kernel_lower._lowering_of

    def counted(fight: Fight) -> kernel_lower.Lowering:
        calls.append(fight)
        return real(fight)

    monkeypatch.setattr(kernel_lower, "_lowering_of", counted)
    return calls


def same(a: Any, b: Any, where: str = "") -> None:
    """Assert two table trees equal: the same classes, arrays of one dtype, shape, layout and numba type."""
    assert type(a) is type(b), where
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, np.ndarray):
        assert (a.dtype, a.shape, a.flags.c_contiguous, a.flags.writeable) == (
            b.dtype, b.shape, b.flags.c_contiguous, b.flags.writeable), where
        assert numba.typeof(a) == numba.typeof(b), where
        np.testing.assert_array_equal(a, b, err_msg=where)
    elif isinstance(a, tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b or (a != a and b != b), where  # NaN equals NaN here


def tables(n: int = 1) -> Tables:
    return Tables("t", (1, 2, n), np.arange(6, dtype=np.float64).reshape(2, 3) / 7, float("nan"),
                  Tables("u", (), np.zeros((2, 0), np.int8), -0.1))


def counting(made: list[int], n: int = 1) -> Callable[[], Tables]:
    def make() -> Tables:
        made.append(n)
        return tables(n)

    return make


@pytest.mark.parametrize(("path", "ruleset"), [(SHIPPED_DUEL, "ashfall-1"), (DUEL, None), (AI_DUEL, "ashfall-2")],
                         ids=["shipped-duel-ashfall-1", "scripted-duel", "ai-duel-ashfall-2"])
def test_warm_cache__gives_the_tables_and_fights_of_a_fresh_lowering(
        disk: Path, lowers: list[Fight], path: Path, ruleset: str | None) -> None:
    cold = lowering(EncounterSetup(path, ruleset))  # a fresh lowering, written to disk
    warm = lowering(EncounterSetup(path, ruleset))  # another setup object: read back, as a later process does
    assert len(lowers) == 1 and len(list(disk.glob("*.npz"))) == 1
    assert cold.lowered is not None and warm.lowered is not cold.lowered
    same(cold, warm)
    first, second = KernelSetup(EncounterSetup(path, ruleset)), KernelSetup(EncounterSetup(path, ruleset))
    assert len(lowers) == 1
    first.lowered, second.lowered = cold.with_round_limit(30), warm.with_round_limit(30)
    assert first.results(11, 0, 40) == second.results(11, 0, 40)
    assert [first.signature(s) for s in seeds(5)] == [second.signature(s) for s in seeds(5)]


def test_packed_arrays__come_back_with_their_dtype_layout_and_every_bit(disk: Path) -> None:
    """Mostly-zero arrays are stored by their non-zero places and integers narrowed; neither changes a table."""
    rng = np.random.default_rng(5)
    faces = np.zeros((4, 20, 20, 20), np.int8)
    faces[1, 2, 3, 4], faces[3, 19, 19, 19] = 7, -3
    odds = np.zeros((64, 128))
    odds[::9, ::5] = rng.random((8, 26))
    odds[0, 1] = -0.0  # equal to zero, but another number to the kernel
    small = rng.integers(-300, 300, (50, 100))  # int64 values an int16 holds
    wide = np.array([0, 2**40] * 3000, np.int64)
    fortran = np.asfortranarray(np.zeros((100, 100), np.int32))
    uint = np.zeros(5000, np.uint32)
    uint[7] = 2**32 - 1
    arrays = [faces, odds, small, wide, fortran, uint]
    stored: Tables | None = None
    for i, array in enumerate(arrays):
        stored = Tables(f"t{i}", (i,), array, 0.5, stored)
    kernel_cache.store("k" * 64, stored, {"Tables": Tables})
    back = kernel_cache.load("k" * 64, {"Tables": Tables})
    same(stored, back)
    got = []
    while back is not None:
        got.insert(0, back.weights)
        back = back.inner
    assert np.signbit(got[1][0, 1]) and not np.signbit(got[1][0, 2])
    assert got[4].flags.f_contiguous
    entry = next(disk.glob("*.npz"))
    assert entry.stat().st_size < 20_000  # 4.5 MB of arrays, stored by what is not zero or narrowed


def test_unsupported_fight__its_problem_is_kept_too(disk: Path, lowers: list[Fight]) -> None:
    from ashfall.encounters import encounters_root

    path = encounters_root() / "skirmish.yaml"
    cold, warm = lowering(EncounterSetup(path)), lowering(EncounterSetup(path))
    assert cold.lowered is None and cold.problem is not None
    assert warm == cold and len(lowers) == 1


def _changes() -> dict[str, Callable[[Fight], None]]:
    def first(fight: Fight) -> Any:
        return next(iter(fight.engine.state.combatants.values()))

    def hp(fight: Fight) -> None:
        c = first(fight)
        c.health = dataclasses.replace(c.health, hp=c.health.hp - 1)

    def moved(fight: Fight) -> None:
        c = first(fight)
        c.position = None if c.position is None else (c.position[0] + 1, c.position[1])

    def stat_block(fight: Fight) -> None:
        c = first(fight)
        c.creature = c.creature.model_copy(update={"name": c.creature.name + "!"})

    def ruleset(fight: Fight) -> None:
        state = fight.engine.state
        state.ruleset = preset("ashfall-1" if state.ruleset.name != "ashfall-1" else "ashfall-2")

    def policy(fight: Fight) -> None:
        cid = next(iter(fight.policies))
        fight.policies = {**fight.policies, cid: TacticalPolicy(TacticalConfig(max_routes=3))}

    def round_limit(fight: Fight) -> None:
        fight.round_limit = (fight.round_limit or 0) + 1

    def ambush(fight: Fight) -> None:
        fight.ambushers = first(fight).side

    return {"hp": hp, "position": moved, "stat block": stat_block, "ruleset": ruleset, "policy": policy,
            "round limit": round_limit, "ambush": ambush}


@pytest.mark.parametrize("change", list(_changes()))
def test_fight_digest__changes_with_anything_the_lowering_reads(change: str) -> None:
    setup = EncounterSetup(SHIPPED_DUEL)
    fight = setup.build_fight(0)
    before = kernel_cache.fight_digest(fight_parts(fight))
    assert kernel_cache.fight_digest(fight_parts(setup.build_fight(0))) == before  # built again: the same
    _changes()[change](fight)
    assert kernel_cache.fight_digest(fight_parts(fight)) != before


def test_fight_digest__is_the_same_in_another_process_with_other_string_hashes() -> None:
    code = ("from ashfall.sim.kernel_cache import fight_digest; from ashfall.sim.kernel_lower import fight_parts; "
            f"from ashfall.sim.setups import EncounterSetup; s = EncounterSetup({str(SHIPPED_DUEL)!r}); "
            "print(fight_digest(fight_parts(s.build_fight(0))))")
    here = kernel_cache.fight_digest(fight_parts(EncounterSetup(SHIPPED_DUEL).build_fight(0)))
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.stdout.strip() == here


def test_fight_digest__refuses_an_object_from_outside_the_package() -> None:
    fight = EncounterSetup(SHIPPED_DUEL).build_fight(0)
    fight.policies = {**fight.policies, "x": Path("elsewhere")}  # pathlib: not covered by the code's hash
    with pytest.raises(kernel_cache.Uncacheable):
        kernel_cache.fight_digest(fight_parts(fight))


def test_hit__gives_back_what_was_stored_and_makes_nothing(disk: Path) -> None:
    made: list[int] = []
    first = kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    second = kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    other = kernel_cache.cached(lambda: {"fight": 2}, counting(made, 2), CLASSES)
    assert made == [1, 2]
    same(first, second)
    assert other.sizes == (1, 2, 2) and len(list(disk.glob("*.npz"))) == 2


def test_code_change__misses(disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    monkeypatch.setattr(kernel_cache, "code_digest", lambda: "another version of the code")
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    assert made == [1, 1]


def test_code_digest__changes_with_any_file_of_the_tree(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n")
    before = kernel_cache.tree_digest([tmp_path])
    (tmp_path / "pkg" / "a.py").write_text("A = 2\n")
    edited = kernel_cache.tree_digest([tmp_path])
    (tmp_path / "pkg" / "b.yaml").write_text("x: 1\n")
    added = kernel_cache.tree_digest([tmp_path])
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "a.pyc").write_bytes(b"\0")
    assert len({before, edited, added}) == 3 and kernel_cache.tree_digest([tmp_path]) == added


def _entry(disk: Path) -> Path:
    (found,) = disk.glob("*.npz")
    return found


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "another key", "other fields"])
def test_damaged_entry__is_ignored_and_written_again(disk: Path, damage: str) -> None:
    made: list[int] = []
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    entry = _entry(disk)
    whole = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(whole[: len(whole) // 2])
    elif damage == "garbage":
        entry.write_bytes(whole[:100] + bytes(len(whole) - 100))
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "another key":  # an entry renamed, or a hash clash: the key inside it must match
        kernel_cache.cached(lambda: {"fight": 2}, counting(made, 2), CLASSES)
        (other,) = (p for p in disk.glob("*.npz") if p != entry)
        other.replace(entry)
    else:  # written by code whose tables had other fields
        older = dataclasses.make_dataclass("Tables", [("name", str)])
        kernel_cache.store(entry.stem, older("t"), {"Tables": older})
    made.clear()
    got = kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    assert made == [1]
    same(got, tables())
    same(kernel_cache.load(entry.stem, CLASSES), tables())  # written again, whole


def test_partial_file__is_never_read(disk: Path) -> None:
    made: list[int] = []
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    entry = _entry(disk)
    entry.rename(disk / f".partial-x{entry.suffix}")  # a write that never reached its rename
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    assert made == [1, 1]


@pytest.mark.parametrize("off", ["off", "0", "no", "False"])
def test_turned_off__neither_reads_nor_writes(disk: Path, monkeypatch: pytest.MonkeyPatch, off: str) -> None:
    made: list[int] = []
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    monkeypatch.setenv(kernel_cache.CACHE_ENV, off)
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    kernel_cache.cached(lambda: {"fight": 3}, counting(made, 3), CLASSES)
    assert made == [1, 1, 3] and len(list(disk.glob("*.npz"))) == 1


def test_uncacheable_fight_or_tables__are_made_every_time(disk: Path) -> None:
    made: list[int] = []
    for _ in range(2):
        kernel_cache.cached(lambda: {"fight": Path("x")}, counting(made), CLASSES)
        kernel_cache.cached(lambda: {"fight": 5}, lambda: made.append(5) or {"a": 1}, CLASSES)  # a dict: not stored
    assert made == [1, 5, 1, 5] and not list(disk.glob("*.npz"))


def test_key_that_fails_unexpectedly__lowers_without_the_cache(disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(parts: Any) -> str:
        raise RuntimeError("a model that cannot dump itself")

    monkeypatch.setattr(kernel_cache, "fight_digest", broken)
    made: list[int] = []
    same(kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES), tables())
    assert made == [1] and not disk.exists()


def test_full_folder__the_oldest_entries_go(disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    size = _entry(disk).stat().st_size
    monkeypatch.setattr(kernel_cache, "MAX_BYTES", 2 * size + size // 2)  # room for two entries, not three
    for n in (2, 3):
        os.utime(max(disk.glob("*.npz"), key=lambda p: p.stat().st_mtime), (n, n))  # older than the next
        kernel_cache.cached(lambda n=n: {"fight": n}, counting(made, n), CLASSES)
    assert len(list(disk.glob("*.npz"))) == 2
    made.clear()
    kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES)
    assert made == [1]  # the first, oldest entry went


@pytest.fixture
def unwritable(disk: Path) -> Iterator[Path]:
    disk.parent.mkdir(parents=True, exist_ok=True)
    disk.write_text("a file where the folder should be")
    yield disk
    disk.unlink()


def test_unwritable_folder__is_no_error(unwritable: Path) -> None:
    made: list[int] = []
    for _ in range(2):
        same(kernel_cache.cached(lambda: {"fight": 1}, counting(made), CLASSES), tables())
    assert made == [1, 1]


def _dataclasses_within(kind: type, found: set[type]) -> set[type]:
    """Every dataclass a field of ``kind`` may hold, by its type hints, ``kind`` included."""
    if kind in found:
        return found
    found.add(kind)
    for hint in typing.get_type_hints(kind).values():
        for inner in (hint, *_args_deep(hint)):
            if isinstance(inner, type) and dataclasses.is_dataclass(inner):
                _dataclasses_within(inner, found)
    return found


def _args_deep(hint: Any) -> Iterator[Any]:
    for arg in typing.get_args(hint):
        yield arg
        yield from _args_deep(arg)


def test_table_classes__name_every_dataclass_a_lowering_holds() -> None:
    # A class missing here makes every entry Uncacheable, and the cache silently lowers each fight again.
    held = _dataclasses_within(kernel_lower.Lowering, set())
    assert {kind.__qualname__ for kind in held} <= set(kernel_lower.TABLE_CLASSES)
    assert all(kernel_lower.TABLE_CLASSES[kind.__qualname__] is kind for kind in held)
