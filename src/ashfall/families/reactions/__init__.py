"""The reactions rule family.

The universal reactions: Attack of Opportunity, Deflect, Dive for Cover, Brace, Intercept, Return Fire, and the AI's
choice among reactions.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
