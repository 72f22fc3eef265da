"""The fight kernel's compiled parts (numba): a fight engine that plays the reference engine's fights draw for draw.

:mod:`ashfall.kernel.rng` is CPython's Mersenne Twister and ``randint`` in compiled code, drawing exactly the
numbers the reference engine's :class:`~ashfall.core.rng.SeededRng` draws; :mod:`ashfall.kernel.fight` plays a
lowered fight. Deciding whether the kernel supports a fight and lowering it into arrays (every number from the
reference's rules) is the simulator's (:mod:`ashfall.sim.kernel_lower`, no numba), and so is turning the kernel's
records into signatures and results (:mod:`ashfall.sim.kernel_run`). ``docs/dev/performance.md`` ("The fight
kernel") says what it covers and how to add a family.
"""
