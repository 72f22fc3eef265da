"""The suppression rule family.

Suppressive Fire and the Covering Fire talent's reaction.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
