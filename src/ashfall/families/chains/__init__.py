"""The chains rule family.

Chain reactions: fuel containers, electrical systems and support columns that explode, discharge or collapse when
harmed (they set off the hazards), and the AI's use of them.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
