"""What a broken NPC does follows its morale type (MOR-21, MOR-23, MOR-24; 000:539–542).

000:542: "bandits surrender or scatter, soldiers may surrender with honor, animals flee in a random
direction, zealots may make a final suicidal charge instead of surrendering"; 000:541: "Broken NPCs who
cannot flee may surrender unconditionally, cower, or beg for mercy". Each type's behaviour is a ``morale``
option (``break_<type>``); the log names it (an ``action-noted`` event with MOR-24) and so does the report.
"""

from dataclasses import replace
from typing import Any

import pytest

from ashfall.content.loader import default_library
from ashfall.content.schema import MoraleProfile
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import DamageType
from ashfall.engine import events as ev
from ashfall.engine import harm
from ashfall.engine.context import Context
from ashfall.engine.setup import make_combatant, new_state
from ashfall.engine.state import EncounterState
from ashfall.families.morale.engine import FLEE_DIRECTION, break_style, member_status, settle_cornered
from ashfall.families.morale.rules import Status
from ashfall.ruleset import Ruleset, preset
from ashfall.ruleset.sections import BreakBehaviour
from ashfall.sim.fight import _combatant

LIB = default_library()
ED2 = preset("ashfall-2")
BREAK_ROLL = (20, 1)
"""The group's morale check: a natural 1 fails by far more than the Fall Back band (G-03): Break."""


def pack(kind: str, n: int = 3, rs: Ruleset = ED2, weapons: tuple[str, ...] = ()) -> EncounterState:
    """``n`` bandits whose stat block says morale type ``kind``, against one Warrior."""
    cs = []
    for i in range(1, n + 1):
        c = make_combatant(LIB, "bandit", f"n{i}", "npcs", ruleset=rs)
        creature = c.creature.model_copy(update={"morale": MoraleProfile(will=2, type=kind)})  # type: ignore[arg-type]
        c = replace(c, creature=creature, weapons=tuple(LIB.weapon(w) for w in weapons) or c.weapons)
        cs.append(c)
    cs.append(make_combatant(LIB, "warrior", "p1", "party", ruleset=rs))
    return new_state(cs, rs)


def break_pack(state: EncounterState, faces: list[tuple[int, int]]) -> list[Any]:
    """Kill the first NPC (First Blood, MOR-7): the group checks and breaks; return the log."""
    with ScriptedRng([BREAK_ROLL, *faces]) as rng:
        ctx = Context(state, rng, [], {})
        harm.deal_damage(ctx, "n1", {DamageType.SLASHING: 300}, source="p1", label="test")
    return ctx.log


def noted(log: list[Any]) -> list[tuple[str, str, str]]:
    return [(e.actor, e.detail, e.rule) for e in log if isinstance(e, ev.ActionNoted)]


@pytest.mark.rule("MOR-24", "MOR-21")
def test_mor_24__bandits_scatter_and_the_log_says_so() -> None:
    """000:542 "bandits surrender or scatter": by default they scatter (flee, MOR-21) while a way out exists."""
    state = pack("bandit")
    log = break_pack(state, [])
    assert noted(log) == [(f"n{i}", "scatters (a broken bandit)", "MOR-24") for i in (2, 3)]
    assert [member_status(state.get(f"n{i}")) for i in (2, 3)] == [Status.BROKEN, Status.BROKEN]
    assert break_style(state.get("n2")) is BreakBehaviour.SCATTER


@pytest.mark.rule("MOR-24", "MOR-23")
def test_mor_24__scattered_bandits_surrender_once_cornered() -> None:
    """000:541: a broken NPC that cannot flee surrenders; the report says it scattered first."""
    state = pack("bandit")
    break_pack(state, [])
    with ScriptedRng([]) as rng:
        settle_cornered(Context(state, rng, [], {}), "n2")
    assert member_status(state.get("n2")) is Status.SURRENDERED
    assert _combatant(state.get("n2"), False, 0, 0).morale == "surrendered (scatter)"


@pytest.mark.rule("MOR-24")
def test_mor_24__the_other_reading_bandits_surrender_at_once() -> None:
    """000:542 "surrender or scatter": ``morale.break_bandit: surrender`` takes the other branch."""
    state = pack("bandit", rs=ED2.with_options(morale={"break_bandit": "surrender"}))
    log = break_pack(state, [])
    assert noted(log)[0] == ("n2", "surrenders (a broken bandit)", "MOR-24")
    assert member_status(state.get("n2")) is Status.SURRENDERED


@pytest.mark.rule("MOR-24")
def test_mor_24__soldiers_surrender_with_honour() -> None:
    """000:542 "soldiers may surrender with honor": a broken soldier lays down arms at once."""
    state = pack("soldier")
    log = break_pack(state, [])
    assert noted(log)[0] == ("n2", "surrenders (a broken soldier)", "MOR-24")
    assert member_status(state.get("n2")) is Status.SURRENDERED
    assert any(isinstance(e, ev.MoraleChanged) and e.rule == "MOR-24" and e.members == (("n2", "surrendered"),)
               for e in log)
    assert _combatant(state.get("n2"), False, 0, 0).morale == "surrendered (surrender)"


@pytest.mark.rule("MOR-24", "MOR-23")
def test_mor_24__animals_flee_in_a_random_direction_from_the_fights_dice_and_cower_when_cornered() -> None:
    """000:542 "animals flee in a random direction" (one d8 each, from the injected RNG); 000:541 "cower"."""
    state = pack("animal")
    log = break_pack(state, [(8, 3), (8, 7)])  # n2 flees east (3rd of 8 clockwise from north), n3 west
    assert noted(log) == [("n2", "flees in a random direction (a broken animal)", "MOR-24"),
                          ("n3", "flees in a random direction (a broken animal)", "MOR-24")]
    assert (state.get("n2").uses[FLEE_DIRECTION], state.get("n3").uses[FLEE_DIRECTION]) == (3, 7)
    with ScriptedRng([]) as rng:
        ctx = Context(state, rng, [], {})
        settle_cornered(ctx, "n2")
    assert member_status(state.get("n2")) is Status.SURRENDERED  # out of the fight
    assert break_style(state.get("n2")) is BreakBehaviour.COWER
    assert noted(ctx.log) == [("n2", "cowers (a broken animal)", "MOR-23")]
    assert _combatant(state.get("n2"), False, 0, 0).morale == "cowered"


@pytest.mark.rule("MOR-24", "MOR-21", "MOR-22")
def test_mor_24__zealots_make_a_final_charge_keep_their_weapons_and_never_give_up() -> None:
    """000:542 "zealots may make a final suicidal charge instead of surrendering"."""
    state = pack("fanatic", weapons=("greataxe",))
    log = break_pack(state, [])
    assert noted(log)[0] == ("n2", "makes a final charge (a broken fanatic)", "MOR-24")
    assert not any(isinstance(e, ev.ItemDropped) for e in log)  # a two-handed greataxe is kept for the charge
    with ScriptedRng([]) as rng:
        settle_cornered(Context(state, rng, [], {}), "n2")
    assert member_status(state.get("n2")) is Status.BROKEN  # cornered, it still does not surrender


@pytest.mark.rule("MOR-21", "MOR-24")
def test_mor_21__other_npcs_flee_and_drop_two_handed_weapons() -> None:
    """000:539 "Broken NPCs drop any two-handed weapons and flee"."""
    state = pack("other", weapons=("greataxe",))
    log = break_pack(state, [])
    assert noted(log)[0] == ("n2", "flees (a broken other)", "MOR-24")
    assert [(e.actor, e.item) for e in log if isinstance(e, ev.ItemDropped)] == [("n2", "greataxe"), ("n3", "greataxe")]
