"""The living battlefield: objects, chain reactions, improvised actions, light and spreading hazards.

Each module registers what it adds (intents, end-of-round hooks, damage hooks) when imported;
:mod:`ashfall.engine.moves` imports them.
"""
