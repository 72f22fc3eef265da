"""The fight kernel: a compiled (numba) engine that plays the reference engine's fights draw for draw.

:mod:`ashfall.kernel.rng` is CPython's Mersenne Twister and ``randint`` in compiled code, drawing exactly the
numbers the reference engine's :class:`~ashfall.core.rng.SeededRng` draws; :mod:`ashfall.kernel.lower` decides
whether the kernel supports a fight and lowers it into arrays (every number from the reference's rules);
:mod:`ashfall.kernel.fight` plays it compiled; :mod:`ashfall.kernel.run` turns its records into the differential
harness's signatures and the simulator's results. ``docs/dev/performance.md`` ("The fight kernel") says what it
covers and how to add a family. Only :mod:`ashfall.kernel.lower` may be imported without numba.
"""
