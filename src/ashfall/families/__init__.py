"""Rule families: one folder per family, a vertical slice whose layers are modules.

In a family, ``rules``/``rules_*`` modules are pure rules (they may import core, ruleset, content, grid,
the shared rules and other families' rules); ``engine``/``engine_*`` and ``moves``/``moves_*`` modules are
its engine part (no AI); ``ai``/``ai_*`` modules are its AI hints. Package ``__init__`` modules import
nothing, so importing a family's pure rules never loads its engine part. tests/test_layers.py checks it.
"""
