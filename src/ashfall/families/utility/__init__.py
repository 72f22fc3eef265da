"""The utility rule family.

The actions every creature has in any fight: Dodge, Help, Hide, Search, Use Object/Item, Identify, Use Skill and the
free actions.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
