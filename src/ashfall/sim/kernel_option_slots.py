"""The order in which the fight kernel holds a creature's attack options: its first melee option first.

The kernel's first-option tables (``AiTables.plan_*``, the opener tables, ``Lowered.outcome`` and the creature's
reach) are a melee weapon's; every other option is a further one (``OptionTables``, ``kernel_weapons_lower``). The
AI's own order (``attack_options``: its weapons as listed) puts a marksman's rifle or a crossbow ahead of its knife
(ATK-2); the kernel then holds the knife first and the gun as its first further option, and the compiled decision
weighs that gun before the knife at every square (``AiTables.config``'s lead column), so that of two equally good
plans at one square the gun's wins, as the AI keeps the first of equals (``_best_candidates``).
"""

from __future__ import annotations

from ashfall.ai.profile import AttackOption, attack_options
from ashfall.engine import Combatant, EncounterState


def kernel_options(c: Combatant, state: EncounterState) -> tuple[AttackOption, ...]:
    """``c``'s attack options in the kernel's slots: its first melee option, then the others in the AI's order.

    The AI's own order where no ranged option comes before the first melee one, or where there is no melee one.
    """
    options = attack_options(c, state)
    k = next((i for i, o in enumerate(options) if not o.ranged), 0)
    return options if k == 0 else (options[k], *options[:k], *options[k + 1:])


def leads(c: Combatant, state: EncounterState) -> int:
    """How many ranged options the AI weighs before ``c``'s first melee option (its first further ones, ATK-2)."""
    options = attack_options(c, state)
    return next((i for i, o in enumerate(options) if not o.ranged), 0)


__all__ = ["kernel_options", "leads"]
