"""The underwater rule family.

Underwater combat: breath, swimming, water attacks and damage, depth, sight and speech.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
