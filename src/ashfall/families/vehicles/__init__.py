"""The vehicles rule family.

Vehicles: crew and passengers, the System Damage Track, the hull's DV, and edition 1's pilot actions.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
