"""The fight kernel's compiled parts (numba): the foundations a compiled fight is built on.

So far: :mod:`ashfall.kernel.rng`, CPython's Mersenne Twister and ``randint`` in compiled code, drawing exactly
the numbers the reference engine's :class:`~ashfall.core.rng.SeededRng` draws. The kernel plays no fight yet;
``docs/dev/performance.md`` ("The kernel's foundations") lists what comes next.
"""
