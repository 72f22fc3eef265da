"""The turns rule family.

Turn-shaping actions: Delay, Ready (the readied action as a reaction) and leaning out around cover.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
