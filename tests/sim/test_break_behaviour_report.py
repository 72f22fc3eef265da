"""The simulator's report names what broken NPCs did by their type (MOR-23, MOR-24; 000:541–542).

A nest of ash rats (animals) cornered in a walled room: after the first deaths they break, flee in
random directions and, with no way out, cower (000:541) rather than all "surrender" at once.
"""

import pytest

from ashfall.encounters import encounter_from_text
from ashfall.sim.runner import simulate

NEST = """
name: Rat nest
seed: 1
map:
  rows: |
    ########
    #RRRRRR#
    #......#
    #..WW..#
    ########
sides:
  - name: party
  - name: rats
combatants:
  - {creature: warrior, side: party, zone: W, count: 2}
  - side: rats
    zone: R
    count: 6
    creature:
      id: ash-rat
      name: Ash Rat
      hp: 4
      attributes: {MIG: -1, AGI: 2, END: 0}
      weapons: [combat-knife]
      morale: %s
victory:
  round_limit: 6
"""


@pytest.mark.rule("MOR-24", "MOR-23")
def test_mor_24__cornered_broken_animals_cower_and_the_report_says_so() -> None:
    """000:542 "animals flee in a random direction"; 000:541 "who cannot flee may … cower"."""
    report = simulate(encounter_from_text(NEST % "{type: animal}"), 4, 1)
    outcomes = {k for c in report.combatants if c.side == "rats" for k, _ in c.morale}
    assert "cowered" in outcomes
    assert "surrendered" not in outcomes  # animals do not surrender


@pytest.mark.rule("MOR-24", "MOR-23")
def test_mor_24__cornered_broken_bandits_surrender_after_scattering() -> None:
    """000:542 "bandits surrender or scatter": they scatter, and surrender when cornered (000:541)."""
    report = simulate(encounter_from_text(NEST % "{type: bandit, will: -6}"), 4, 1)  # cowards: they break
    outcomes = {k for c in report.combatants if c.side == "rats" for k, _ in c.morale}
    assert "surrendered (scatter)" in outcomes
    assert "cowered" not in outcomes
