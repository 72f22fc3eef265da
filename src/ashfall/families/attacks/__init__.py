"""The attacks rule family.

Attacks and damage: attack rolls, activities, MAP, called shots, damage and DR, cover, the attack pipeline, area
damage, Strike and the other attack actions, gear handling.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
