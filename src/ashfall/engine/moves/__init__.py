"""Every action, activity and reaction the engine knows, one module per family.

Importing this package registers them all (in a fixed order, which is the order ``legal_intents``
lists them and reactions are offered).
"""

from ashfall.engine import morale_hooks as morale_hooks  # Rally, and the morale hooks (MOR)
from ashfall.engine.moves import defensive as defensive
from ashfall.engine.moves import maneuvers as maneuvers  # Grapple, Escape, Drag, Constrict, Shove, Trip
from ashfall.engine.moves import medical as medical  # Emergency Field Medicine, Second Wind, stims
from ashfall.engine.moves import mounting as mounting
from ashfall.engine.moves import movement as movement
from ashfall.engine.moves import opportunity as opportunity
from ashfall.engine.moves import strike as strike
from ashfall.engine.moves import suppressive as suppressive
from ashfall.engine.moves import tactics as tactics  # Disarm, Feint, Overrun
from ashfall.engine.moves import turn_actions as turn_actions
from ashfall.engine.moves import utility as utility  # Dodge, Help, Hide, Search, Use Object, free actions
