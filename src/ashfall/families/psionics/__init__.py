"""The psionics rule family.

Psionics: Psi Strike, Focus, the psionic save DC and Psionic Backlash.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
