"""The mounted rule family.

Mounted combat: riders and mounts, Mount and Dismount, falling off.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
