"""Every number and switch the rules use, grouped by area; defaults are the current edition.

Each section's ``LEGACY`` dict lists how the earlier edition (``ashfall-1``) differs, citing the
edition difference (E-nn) it implements. Rulings (G-nn, X-nn) are options whose default is our
ruling and whose ``alternative`` names the other reading. One module per area; import from here.
"""

from ashfall.ruleset.sections.battlefield import (
    HazardsSection as HazardsSection,
)
from ashfall.ruleset.sections.battlefield import (
    MountedSection as MountedSection,
)
from ashfall.ruleset.sections.battlefield import (
    ObjectsSection as ObjectsSection,
)
from ashfall.ruleset.sections.battlefield import (
    UnderwaterSection as UnderwaterSection,
)
from ashfall.ruleset.sections.battlefield import (
    VehiclesSection as VehiclesSection,
)
from ashfall.ruleset.sections.combat import (
    AttackSection as AttackSection,
)
from ashfall.ruleset.sections.combat import (
    ChecksSection as ChecksSection,
)
from ashfall.ruleset.sections.combat import (
    DefenseSection as DefenseSection,
)
from ashfall.ruleset.sections.enums import (
    ContestTie as ContestTie,
)
from ashfall.ruleset.sections.enums import (
    CoverApplies as CoverApplies,
)
from ashfall.ruleset.sections.enums import (
    CritDice as CritDice,
)
from ashfall.ruleset.sections.enums import (
    DazedEffect as DazedEffect,
)
from ashfall.ruleset.sections.enums import (
    DeflectStep as DeflectStep,
)
from ashfall.ruleset.sections.enums import (
    DrStacking as DrStacking,
)
from ashfall.ruleset.sections.enums import (
    GasPoisonEnds as GasPoisonEnds,
)
from ashfall.ruleset.sections.enums import (
    HardnessBypass as HardnessBypass,
)
from ashfall.ruleset.sections.enums import (
    HeavyObscurement as HeavyObscurement,
)
from ashfall.ruleset.sections.enums import (
    ManeuverContest as ManeuverContest,
)
from ashfall.ruleset.sections.enums import (
    MapCounting as MapCounting,
)
from ashfall.ruleset.sections.enums import (
    MassiveDamageBasis as MassiveDamageBasis,
)
from ashfall.ruleset.sections.enums import (
    MoraleGrouping as MoraleGrouping,
)
from ashfall.ruleset.sections.enums import (
    ProneMelee as ProneMelee,
)
from ashfall.ruleset.sections.enums import (
    ResistVuln as ResistVuln,
)
from ashfall.ruleset.sections.enums import (
    ResurrectionCost as ResurrectionCost,
)
from ashfall.ruleset.sections.enums import (
    StabiliseBy as StabiliseBy,
)
from ashfall.ruleset.sections.enums import (
    TwfSchedule as TwfSchedule,
)
from ashfall.ruleset.sections.flow import (
    MoraleSection as MoraleSection,
)
from ashfall.ruleset.sections.flow import (
    TurnSection as TurnSection,
)
from ashfall.ruleset.sections.harm import (
    DamageSection as DamageSection,
)
from ashfall.ruleset.sections.harm import (
    DyingSection as DyingSection,
)
from ashfall.ruleset.sections.harm import (
    HealingSection as HealingSection,
)
from ashfall.ruleset.sections.states import (
    ConcealmentSection as ConcealmentSection,
)
from ashfall.ruleset.sections.states import (
    ConditionsSection as ConditionsSection,
)
from ashfall.ruleset.sections.states import (
    MagicSection as MagicSection,
)
from ashfall.ruleset.sections.states import (
    PsionicsSection as PsionicsSection,
)
