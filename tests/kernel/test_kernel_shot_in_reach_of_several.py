"""A shot from within several enemies' reach in the fight kernel: every reactor still attacks a shooter that fell.

Where a ranged attack in reach provokes (edition 2, or edition 1 with ``turn.ranged_attack_provokes``: E-18), each
enemy with the shooter in its melee reach is offered its Attack of Opportunity in reactor order before the shot
(RX-21, RX-22). The reference asks every one of them even after an earlier one dropped the shooter: a creature at
0 HP can be attacked (C-UNC, X-16), as when a mover falls leaving two reaches. The kernel must do the same; it used
to stop at the fall, and diverged on about 1 in 70 of these fights. The set lies with the stopped ones: in about
3 of 1,000 fights a brawler takes the AI's idle Dodge, which the kernel does not play.
"""

from __future__ import annotations

import pytest

from ashfall.engine.events import AttackRolled
from ashfall.sim.kernel_lower import check
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import OWN, STOPPED, seeds, setup_of, stops_at_the_dodge

BETWEEN_TWO = STOPPED / "ai-pistol-between-two-brawlers-where-shots-provoke.yaml"


def _attacks_on_the_fallen(n: int) -> int:
    """Attacks of Opportunity at a shooter already unconscious (advantage for X-16) in ``n`` reference fights."""
    setup = setup_of(BETWEEN_TWO, OWN)
    return sum(1 for seed in seeds(n) for e in reference_fight(setup, seed).log
               if isinstance(e, AttackRolled) and e.label == "Attack of Opportunity" and "X-16" in repr(e.roll))


@pytest.mark.rule("E-18", "RX-21", "RX-22", "X-16", "C-UNC")
def test_shot_in_reach_of_two__the_second_brawler_attacks_the_shooter_the_first_dropped() -> None:
    assert _attacks_on_the_fallen(300) >= 2


@pytest.mark.rule("E-18", "RX-21", "RX-22", "X-16")
def test_kernel_shot_in_reach_of_two__plays_every_step_of_the_reference_fight() -> None:
    """Step for step, except the few fights where a brawler Dodges (DOD-1), where the kernel stops."""
    setup = setup_of(BETWEEN_TWO, OWN)
    assert check(setup) is None
    assert stops_at_the_dodge(setup, 300) < 10
