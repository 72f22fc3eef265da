"""The spells rule family.

Spells: the spellbook, casting and sustaining, area spells, and Counterspell.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
