"""The objects rule family.

Destructible objects: object damage, shooting through cover, striking objects, improvised environmental actions and
weapons (the cover objects give is traced in attacks.engine_cover).

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
