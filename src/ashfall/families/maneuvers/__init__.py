"""The maneuvers rule family.

Maneuvers: Grapple, Escape, Drag, Constrict, Shove, Trip, Disarm, Feint and Overrun.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
