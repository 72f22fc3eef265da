"""The morale rule family.

NPC morale: checks, outcomes, Breaking Points, Rally, fleeing and surrender.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
