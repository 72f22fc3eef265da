"""The senses rule family.

Concealment and senses: light, obscurement, seeing and being seen, hidden creatures and guessing their square.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
