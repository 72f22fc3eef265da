"""Every number and switch the rules use, grouped by area; defaults are the current edition.

Each section's ``LEGACY`` dict lists how the earlier edition (``ashfall-1``) differs, citing the
edition difference (E-nn) it implements. Rulings (G-nn, X-nn) are options whose default is our
ruling and whose ``alternative`` names the other reading. One module per area; import from here.
"""

from ashfall.ruleset.sections.battlefield import (
    HazardsSection,
    MountedSection,
    ObjectsSection,
    UnderwaterSection,
    VehiclesSection,
)
from ashfall.ruleset.sections.combat import (
    AttackSection,
    ChecksSection,
    DefenseSection,
)
from ashfall.ruleset.sections.enums import (
    BreakBehaviour,
    ContestTie,
    CoverApplies,
    CritDice,
    DazedEffect,
    DeflectStep,
    Diagonals,
    DrStacking,
    GasPoisonEnds,
    HardnessBypass,
    HeavyObscurement,
    InitiativeProficiency,
    ManeuverContest,
    MapCounting,
    MassiveDamageBasis,
    MoraleGrouping,
    ProneMelee,
    ResistVuln,
    ResurrectionCost,
    SecondWindAdds,
    StabiliseBy,
    TwfSchedule,
)
from ashfall.ruleset.sections.flow import (
    MoraleSection,
    TurnSection,
)
from ashfall.ruleset.sections.harm import (
    DamageSection,
    DyingSection,
    HealingSection,
)
from ashfall.ruleset.sections.states import (
    ConcealmentSection,
    ConditionsSection,
    MagicSection,
    PsionicsSection,
)

__all__ = [
    "AttackSection",
    "BreakBehaviour",
    "ChecksSection",
    "ConcealmentSection",
    "ConditionsSection",
    "ContestTie",
    "CoverApplies",
    "CritDice",
    "DamageSection",
    "DazedEffect",
    "DefenseSection",
    "DeflectStep",
    "Diagonals",
    "DrStacking",
    "DyingSection",
    "GasPoisonEnds",
    "HardnessBypass",
    "HazardsSection",
    "HealingSection",
    "HeavyObscurement",
    "InitiativeProficiency",
    "MagicSection",
    "ManeuverContest",
    "MapCounting",
    "MassiveDamageBasis",
    "MoraleGrouping",
    "MoraleSection",
    "MountedSection",
    "ObjectsSection",
    "ProneMelee",
    "PsionicsSection",
    "ResistVuln",
    "ResurrectionCost",
    "SecondWindAdds",
    "StabiliseBy",
    "TurnSection",
    "TwfSchedule",
    "UnderwaterSection",
    "VehiclesSection",
]
