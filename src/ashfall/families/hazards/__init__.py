"""The hazards rule family.

Spreading hazards: fire, smoke, gas, collapse and flooding, hazardous terrain, and the actions against them.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
