"""The conditions rule family.

Conditions: what each condition does, the condition table, and applied conditions over time (durations, expiry,
ending events).

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
