"""CPython's ``random.Random`` in compiled code: MT19937 seeded from an int, and ``randint(1, sides)``.

A fight kernel must draw the very numbers the reference engine draws, in the same order, so that trial *i* of a
kernel run is trial *i* of a reference run. The engine rolls with :class:`ashfall.core.rng.SeededRng`, which is
``random.Random(seed).randint(1, sides)``; this module reproduces it draw for draw:

- seeding as CPython's ``random_seed``: ``init_by_array`` over the 32-bit words of ``abs(seed)``, least
  significant first (``[0]`` for 0), after ``init_genrand(19650218)``;
- ``randint(1, n)`` as ``1 + _randbelow_with_getrandbits(n)``: ``k = n.bit_length()`` bits from the top of one
  32-bit output (``getrandbits(k)``), drawn again while the result is ``>= n``;
- the state as CPython's ``getstate()`` (624 words and the position), so a state moves between the two.

The state is one ``int64`` array of 625 entries (624 words, then the position). Arithmetic is in ``int64`` with
32-bit masks: every product here stays below 2**63. Sides are limited to ``2**31`` (one 32-bit output per try).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ashfall.kernel.jit import jit

N = 624
M = 397
MATRIX_A = 0x9908B0DF
UPPER_MASK = 0x80000000
LOWER_MASK = 0x7FFFFFFF
MASK32 = 0xFFFFFFFF
MAX_SIDES = 1 << 31
"""The largest die :func:`roll` takes: ``getrandbits(k)`` for ``k <= 32`` is one output of the generator."""
STATE_VERSION = 3
"""The version tag of ``random.Random.getstate()``."""

State = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])


def _jit(fn: F) -> F:
    """``numba.njit(cache=True)`` for plain argument types (:func:`ashfall.kernel.jit.jit`), typed for mypy."""
    return jit(fn)


@_jit
def _init_genrand(mt: State, s: int) -> None:
    mt[0] = s & MASK32
    for i in range(1, N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32
    mt[N] = N


@_jit
def init_by_array(key: State) -> State:
    """MT19937's ``init_by_array`` over 32-bit words ``key``: the state ``random.Random`` seeds to."""
    mt = np.zeros(N + 1, dtype=np.int64)
    _init_by_array_into(mt, key)
    return mt


@_jit
def reseed(mt: State, seed: int) -> None:
    """Seed ``mt`` in place as ``random.Random(seed)`` for ``0 <= seed < 2**63`` (a trial seed of ``hash_seed``).

    The kernel's per-trial seeding: no allocation of a state, no trip through Python.
    """
    key = np.empty(2, dtype=np.int64)
    key[0] = seed & MASK32
    key[1] = seed >> 32
    _init_by_array_into(mt, key[:2] if key[1] else key[:1])


@_jit
def _init_by_array_into(mt: State, key: State) -> None:
    _init_genrand(mt, 19650218)
    i, j = 1, 0
    klen = len(key)
    for _ in range(max(N, klen)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = UPPER_MASK
    mt[N] = N


@_jit
def _twist(mt: State) -> None:
    # The reference's three loops (no modulo in the index arithmetic): words 0..226 read ahead by M, 227..622
    # wrap back by N - M, and the last one reads word 0.
    for kk in range(N - M):
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK)
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    for kk in range(N - M, N - 1):
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK)
        mt[kk] = mt[kk + M - N] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK)
    mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    mt[N] = 0


@_jit
def next_u32(mt: State) -> int:
    """The generator's next 32-bit output (``genrand_uint32``)."""
    if mt[N] >= N:
        _twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & MASK32)


@_jit
def roll(mt: State, sides: int) -> int:
    """``random.Random.randint(1, sides)`` on state ``mt`` (``1 <= sides <= MAX_SIDES``), advancing it."""
    k = 0
    n = sides
    while n:
        k += 1
        n >>= 1
    r = next_u32(mt) >> (32 - k)
    while r >= sides:
        r = next_u32(mt) >> (32 - k)
    return 1 + r


@_jit
def reseed_many(mt: State, seeds: State) -> int:
    """Seed ``mt`` with each of ``seeds`` in turn and draw one d20 after each; the sum (a benchmark's loop)."""
    total = 0
    for i in range(len(seeds)):
        reseed(mt, seeds[i])
        total += roll(mt, 20)
    return total


@_jit
def roll_many(mt: State, sides: int, out: State) -> None:
    """Fill ``out`` with successive ``roll(mt, sides)`` draws."""
    for i in range(len(out)):
        out[i] = roll(mt, sides)


def seed_key(seed: int) -> State:
    """The 32-bit words CPython seeds ``random.Random(seed)`` with: ``abs(seed)``, least significant first."""
    n = abs(seed)
    words = []
    while n:
        words.append(n & MASK32)
        n >>= 32
    return np.array(words or [0], dtype=np.int64)


def seeded(seed: int) -> State:
    """The state of ``random.Random(seed)`` for an int seed (as the engine's ``SeededRng(seed)``)."""
    return init_by_array(seed_key(seed))


def to_python_state(mt: State) -> tuple[int, tuple[int, ...], None]:
    """The state as ``random.Random.getstate()`` gives it (no pending Gaussian)."""
    return STATE_VERSION, tuple(int(x) for x in mt), None


def from_python_state(state: object) -> State:
    """A ``random.Random.getstate()`` (or ``SeededRng.getstate()``) as a kernel state.

    Raises:
        ValueError: For anything that is not a version-3 Mersenne Twister state.
    """
    if not (isinstance(state, tuple) and len(state) == 3 and state[0] == STATE_VERSION
            and isinstance(state[1], tuple) and len(state[1]) == N + 1):
        raise ValueError("not a random.Random state (version 3, 624 words and a position)")
    words = np.array(state[1], dtype=np.int64)
    if words.min() < 0 or words[:N].max() > MASK32 or not 0 <= words[N] <= N:
        raise ValueError("random.Random state out of range")
    return words


class KernelRng:
    """The kernel's generator behind the engine's RNG interface: draws, saves and rewinds like ``SeededRng``.

    Args:
        seed: The seed; the same faces as ``SeededRng(seed)``.
    """

    __slots__ = ("seed", "state")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.state = seeded(seed)

    def roll(self, sides: int) -> int:
        """Roll one die with ``sides`` faces.

        Raises:
            ValueError: For fewer than 1 or more than :data:`MAX_SIDES` sides.
        """
        if not 1 <= sides <= MAX_SIDES:
            raise ValueError(f"a die has 1 to {MAX_SIDES} sides (got {sides})")
        return int(roll(self.state, sides))

    def getstate(self) -> object:
        """The state, in ``random.Random.getstate()``'s form (a ``SeededRng`` can ``setstate`` it)."""
        return to_python_state(self.state)

    def setstate(self, state: object) -> None:
        """Rewind to a state from :meth:`getstate` or from ``SeededRng.getstate()``."""
        self.state = from_python_state(state)


__all__ = [
    "MAX_SIDES", "KernelRng", "from_python_state", "init_by_array", "next_u32", "reseed", "reseed_many", "roll",
    "roll_many", "seed_key", "seeded", "to_python_state",
]
