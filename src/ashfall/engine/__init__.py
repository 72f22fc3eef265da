"""The turn engine: encounter state, intents, events, legality, reactions and the turn loop.

Controllers (a person through the CLI or web, or an AI policy) submit intents; the engine refuses
illegal ones before any die is rolled, resolves legal ones with the rules core, asks controllers
for the decisions it needs, and records every state change as an event. Events are the only way
state changes (:mod:`ashfall.engine.apply`).
"""
