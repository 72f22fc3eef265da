"""Every action, activity and reaction the engine knows, one module per family.

Importing this package registers them all (in a fixed order, which is the order ``legal_intents``
lists them and reactions are offered).
"""

from ashfall.engine.moves import movement as movement
from ashfall.engine.moves import opportunity as opportunity
from ashfall.engine.moves import strike as strike
