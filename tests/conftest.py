"""Test-session settings: the lowered tables' disk cache is off unless a test turns it on.

The suite lowers hundreds of fights, counts lowerings and swaps tables for deliberately wrong kernels; reading or
writing the user's cache (``ashfall.sim.kernel_cache``) would make it depend on what ran before. The cache's own
tests turn it on in a temporary folder.
"""

import os

os.environ.setdefault("ASHFALL_LOWERING_CACHE", "off")
