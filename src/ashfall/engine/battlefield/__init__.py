"""The living battlefield: objects, chain reactions, improvised actions, light and spreading hazards.

Each module registers what it adds (intents, end-of-round hooks, damage hooks) when imported;
:mod:`ashfall.engine.moves` imports them. Light and senses: :mod:`.vision` (a square's obscurement, the
concealment matrix on attacks, Hide and Search, ``VISIBILITY_HOOKS`` for further layers such as water) and
:mod:`.guessing` (attacks on a hidden creature name a square, CONC-11).
"""
