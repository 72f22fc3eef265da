"""Fights described in code (InlineSetup) build their combatants exactly as encounter files do (DV-1, G-38)."""

from __future__ import annotations

import pytest

from ashfall.content.loader import default_library
from ashfall.engine.setup import make_combatant
from ashfall.rules.defense import defense_value
from ashfall.ruleset import preset
from ashfall.sim.setups import InlineCombatant, InlineSetup

LIB = default_library()


def _built(creature_id: str, ruleset_name: str = "ashfall-2") -> InlineSetup:
    rs = preset(ruleset_name)
    return InlineSetup("one", (InlineCombatant("v", "a", LIB.creature(creature_id), (1, 1)),), rs)


@pytest.mark.rule("DV-1", "VEH-1")
@pytest.mark.parametrize(("creature_id", "dv"), [("dune-buggy", 13), ("armored-hauler", 15)])
def test_dv_1__an_inline_vehicle_has_its_stat_block_dv(creature_id: str, dv: int) -> None:
    """Regression: InlineSetup once gave vehicles no hull (a dune-buggy had DV 10, an armored hauler 9)."""
    setup = _built(creature_id)
    c = setup.build_fight(1).engine.state.get("v")
    assert defense_value(c.creature, c.armor, c.shield, setup.ruleset).total == dv


@pytest.mark.rule("G-38", "DEATH-2")
@pytest.mark.parametrize(("creature_id", "ruleset_name"), [
    ("raider", "ashfall-2"), ("raider", "ashfall-1"), ("warrior", "ashfall-2"), ("dune-buggy", "ashfall-2")])
def test_g_38__an_inline_combatant_makes_death_saves_as_an_encounter_one_does(creature_id: str,
                                                                            ruleset_name: str) -> None:
    setup = _built(creature_id, ruleset_name)
    inline = setup.build_fight(1).engine.state.get("v")
    made = make_combatant(LIB, creature_id, "v", "a", (1, 1), ruleset=setup.ruleset)
    assert inline == made
