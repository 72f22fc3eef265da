"""The movement rule family.

Movement: Stride, Step, Crawl, Stand and Sprint, and what terrain does to movement costs.

Layers by module name: ``rules*`` pure rules, ``engine*`` and ``moves*`` the engine part, ``ai*``
AI hints. This package imports nothing.
"""
