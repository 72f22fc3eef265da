"""Ashfall: rules engine, exact odds and combat simulator for the Ashfall tabletop RPG.

Layers (each imports only from the ones before it):
``core`` (dice, rng, modifiers, rule refs) <- ``ruleset`` (editions and options) <- ``content``
(validated stat blocks and gear) <- ``rules`` (pure resolution) <- ``odds`` (exact probabilities)
<- ``cli`` (presentation).
"""

__version__ = "0.1.0"
