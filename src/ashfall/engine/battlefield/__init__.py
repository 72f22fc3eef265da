"""The living battlefield: objects, chain reactions, improvised actions, light and spreading hazards.

Each module's ``install(book)`` adds what it brings (intents, end-of-round hooks, damage hooks) to a
rulebook; :mod:`ashfall.engine.catalog` lists them. Light and senses: :mod:`.vision` (a square's obscurement,
the concealment matrix on attacks, Hide and Search, the rulebook's ``visibility`` hooks for further layers such
as water) and :mod:`.guessing` (attacks on a hidden creature name a square, CONC-11).
"""
