"""The gm rule family.

The GM's overrides at the table (rule ``GM``): set or adjust HP, damage several creatures at once with a save
each, add or remove a condition with a duration, move a token, change the order, skip a turn, mark a morale
outcome. Each is an intent only the GM submits (the engine knows no roles; the table's web layer checks them),
resolved into ordinary events tagged GM after a :class:`~ashfall.engine.events.GmRuled` naming the GM's reason.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
