"""Ashfall: rules engine, exact odds and combat simulator for the Ashfall tabletop RPG.

Layers (each imports only its own layer and the ones before it; tests/test_layers.py checks it):
``core``, ``files`` <- ``ruleset``, ``content``, ``grid`` <- ``rules`` (pure resolution) <- ``engine``,
``odds`` <- ``ai``, ``encounters``, ``explain`` <- ``sim`` <- ``cli``. Each rule family has one folder,
``families/<family>/``, whose modules sit at those layers by name: ``rules*`` pure rules, ``engine*`` and
``moves*`` its engine part, ``ai*`` its AI hints.
"""

__version__ = "0.1.0"
