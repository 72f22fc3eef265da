"""The shipped example encounters load, build and start; ``validate_command`` reports on them."""

from pathlib import Path

import pytest

from ashfall.encounters import build, load_encounter, shipped_encounters, validate_command
from ashfall.engine import events as ev
from ashfall.families.attacks.rules_activities import Activity

SHIPPED = shipped_encounters()
NAMES = {p.name for p in SHIPPED}


def test_shipped_encounters__are_the_four_documented_examples() -> None:
    assert {"duel.yaml", "skirmish.yaml", "bandit-band.yaml", "corridor.yaml"} <= NAMES


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_encounter__loads_builds_and_starts(path: Path) -> None:
    spec = load_encounter(path)
    engine, info = build(spec)
    assert not engine.state.started
    assert info.seed == spec.seed
    events = info.start(engine)
    assert engine.state.started and engine.state.round == 1
    assert any(isinstance(e, ev.CombatStarted) for e in events)
    assert list(engine.state.combatants) == [e.id for e in spec.roster]
    assert all(c.position is not None for c in engine.state.combatants.values())


def test_validate_command__shipped_folder_is_clean() -> None:
    code, lines = validate_command(SHIPPED[0].parent)
    assert code == 0
    assert len(lines) == len(SHIPPED) and all(": ok: " in line for line in lines)


@pytest.mark.rule("MOR-8")
def test_skirmish__four_against_four_veterans_who_check_morale_with_a_marksman_on_high_ground() -> None:
    spec = load_encounter(next(p for p in SHIPPED if p.name == "skirmish.yaml"))
    assert [len(spec.members(s.name)) for s in spec.sides] == [4, 4]
    assert {e.creature.id for e in spec.members("party")} == {"warrior", "gunslinger", "operative", "vanguard"}
    assert [e.id for e in spec.roster if e.leader] == ["raider-warlord"]
    raiders = spec.members("raiders")
    assert {e.creature.id for e in raiders} == {"raider-warlord", "raider-reaver", "raider-cutter", "raider-marksman"}
    # the veterans stand at the party's level (5-6 against 3-9) and are NPCs of one morale group (G-01)
    assert all(e.creature.level >= 5 and e.creature.morale is not None for e in raiders)
    assert {e.creature.morale.type for e in raiders if e.creature.morale is not None} == {"bandit"}
    marksman = next(e for e in spec.roster if e.id == "raider-marksman")
    assert spec.board is not None and marksman.position is not None
    assert spec.board.height_at(marksman.position) == 10
    assert (spec.board.width, spec.board.height) == (16, 12)


@pytest.mark.rule("SUR-1")
def test_bandit_band__bandits_ambush_and_check_morale() -> None:
    spec = load_encounter(next(p for p in SHIPPED if p.name == "bandit-band.yaml"))
    engine, info = build(spec)
    assert info.ambushers == "bandits"
    assert info.sides[1].morale is True
    events = info.start(engine)
    assert {e.actor for e in events if isinstance(e, ev.Surprise)} == {"operative", "gunslinger"}


def test_corridor__gunslinger_plans_suppressive_fire_and_mutant_all_out_attack() -> None:
    spec = load_encounter(next(p for p in SHIPPED if p.name == "corridor.yaml"))
    _engine, info = build(spec)
    assert info.tactics["gunslinger"].plan == (Activity.SUPPRESSIVE_FIRE, Activity.STRIKE)
    assert info.tactics["mutant"].plan == (Activity.ALL_OUT,)
    assert info.tactics["vanguard"].is_ai
    vanguard = _engine.state.get("vanguard")
    assert any(w.reach == 10 for w in vanguard.weapons)
