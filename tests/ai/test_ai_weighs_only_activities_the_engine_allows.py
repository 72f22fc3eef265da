"""The AI weighs an activity with a way to attack only where the engine would let it be made (MAA-2, SWP-1).

Full Auto Burst and Sweeping Strike name a weapon but no mode: the engine checks and makes them in the weapon's own
mode (``mode_for``). A thrown option of a melee weapon (a javelin, a combat knife) is not that mode, so the AI must
not weigh a burst of throws the engine then refuses (it used to, and fell through to its next target).
"""

from __future__ import annotations

import pytest

from ashfall.ai.plans import Block
from ashfall.ai.profile import attack_options
from ashfall.ai.turn import TurnView
from ashfall.families.attacks.engine_common import mode_for
from ashfall.families.attacks.moves_activities import validate_attack
from ashfall.families.attacks.rules_activities import Activity
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import preset
from tests.ai.shipped_kit import shipped_engine

_ACTIVITY = {Block.FULL_AUTO: Activity.FULL_AUTO, Block.SWEEP: Activity.SWEEPING}


@pytest.mark.rule("MAA-2", "SWP-1", "G-35")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
@pytest.mark.parametrize("name", ["skirmish.yaml", "bandit-band.yaml", "corridor.yaml"])
def test_available__multi_target_blocks_are_the_engines_own_mode_check(name: str, edition: str) -> None:
    engine = shipped_engine(name)
    engine.state.ruleset = preset(edition)
    weighed = refused = 0
    for c in engine.state.combatants.values():
        view = TurnView(engine, c, ())
        for option in attack_options(c, engine.state):
            for block, activity in _ACTIVITY.items():
                try:  # the engine's own first check of the intent (``_check_full_auto``, ``_check_sweeping``)
                    validate_attack(engine.state, c, option.weapon, mode_for(option.weapon), activity)
                    engine_allows = option.mode is mode_for(option.weapon)
                except RuleViolation:
                    engine_allows = False
                weighed += block in view.available(option)
                refused += not engine_allows
                assert (block in view.available(option)) <= engine_allows, (c.id, option.weapon_id, option.mode, block)
    assert weighed > 0 and refused > 0


@pytest.mark.rule("MAA-2")
def test_available__no_burst_of_javelin_throws() -> None:
    engine = shipped_engine("skirmish.yaml")
    warrior = engine.state.get("warrior")
    view = TurnView(engine, warrior, ())
    thrown = [o for o in attack_options(warrior, engine.state) if o.thrown]
    assert thrown and all(Block.FULL_AUTO not in view.available(o) for o in thrown)
    with pytest.raises(RuleViolation):  # what the engine answers a burst with the javelin
        validate_attack(engine.state, warrior, thrown[0].weapon, mode_for(thrown[0].weapon), Activity.FULL_AUTO)
