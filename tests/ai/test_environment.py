"""The AI sets off a chain-reaction element when the blast pays (CHN-1, CHN-5, CHN-6)."""

from __future__ import annotations

import pytest

from ashfall.engine import StrikeObject
from ashfall.families.chains.ai import best_sabotage
from ashfall.sim.setups import EncounterSetup


def _basement(turn_of: str):  # type: ignore[no-untyped-def]
    """The flooding basement at the start of ``turn_of``'s first turn (everyone before it passes)."""
    engine = EncounterSetup("encounters/flooding-basement.yaml").build_fight(1).engine
    engine.start()
    while engine.state.active_id != turn_of:
        engine.end_turn(engine.state.active_id)
    return engine


@pytest.mark.rule("CHN-5", "CHN-6")
def test_chn_5__the_scavenger_shoots_the_panel_between_the_two_drones() -> None:
    engine = _basement("scavenger")
    pick = best_sabotage(engine, engine.state.get("scavenger"))
    assert pick is not None and pick.intent == StrikeObject("scavenger", "panel", "shotgun")
    assert pick.enemies_caught == 2


@pytest.mark.rule("CHN-6")
def test_chn_6__no_sabotage_when_an_ally_stands_in_the_blast() -> None:
    engine = _basement("scavenger")
    engine.state.get("warrior").position = (11, 2)  # next to the panel: it would be caught too
    assert best_sabotage(engine, engine.state.get("scavenger")) is None


def test_sabotage__a_creature_without_a_gun_does_not_try() -> None:
    engine = _basement("warrior")
    assert best_sabotage(engine, engine.state.get("warrior")) is None
