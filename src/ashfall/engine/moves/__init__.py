"""Every action, activity and reaction the engine knows, one module per family.

Importing this package registers them all (in a fixed order, which is the order ``legal_intents``
lists them and reactions are offered).
"""

from ashfall.engine import fleeing as fleeing  # fled at an exit, cornered (MOR-20, MOR-23)
from ashfall.engine import morale_hooks as morale_hooks  # Rally, and the morale hooks (MOR)
from ashfall.engine.battlefield import chains as chains  # fuel, electrical, support (CHN)
from ashfall.engine.battlefield import improvised as improvised  # kick, push, flip, drop (IEA, ENVW)
from ashfall.engine.battlefield import object_actions as object_actions  # Strike an object (OBJ-1)
from ashfall.engine.battlefield import objects as objects  # object damage, shooting through cover (STC-11)
from ashfall.engine.battlefield import underwater as underwater  # breath, water attacks and damage, depth (UW)
from ashfall.engine.moves import activities as activities  # Power Strike, All-Out, Full Auto, Sweeping Strike
from ashfall.engine.moves import counterspell as counterspell  # RX-16..18
from ashfall.engine.moves import defensive as defensive
from ashfall.engine.moves import finishing as finishing  # off-hand Strike (TWF), Coup de Grace
from ashfall.engine.moves import gear as gear  # Reload, Draw/Stow (G-31)
from ashfall.engine.moves import hazard_actions as hazard_actions  # Extinguish, Dig Out, drains (HAZ*)
from ashfall.engine.moves import legacy as legacy  # edition 1: Extra Attack, Aim
from ashfall.engine.moves import maneuvers as maneuvers  # Grapple, Escape, Drag, Constrict, Shove, Trip
from ashfall.engine.moves import medical as medical  # Emergency Field Medicine, Second Wind, stims
from ashfall.engine.moves import mounted as mounted  # trained mounts, rider bonuses, falling off (MNT-2..9)
from ashfall.engine.moves import mounting as mounting
from ashfall.engine.moves import movement as movement
from ashfall.engine.moves import opportunity as opportunity
from ashfall.engine.moves import psionic as psionic  # Psi Strike, Focus, Backlash
from ashfall.engine.moves import spells as spells  # Cast Spell, Sustain
from ashfall.engine.moves import strike as strike
from ashfall.engine.moves import suppressive as suppressive
from ashfall.engine.moves import tactics as tactics  # Disarm, Feint, Overrun
from ashfall.engine.moves import turn_actions as turn_actions
from ashfall.engine.moves import utility as utility  # Dodge, Help, Hide, Search, Use Object, free actions
from ashfall.engine.moves import vehicles as vehicles  # crew, passengers, Drive/Evasive/Ram (VEH, E-43)
