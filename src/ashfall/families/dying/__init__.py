"""The dying rule family.

Dying and recovery: the dying track and death saves, healing, medicine, rest, resurrection, and the in-combat
medical actions.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
