"""The tactical AI under morale (MOR-17..23) and as a controller: reactions and defense skills."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.ai import Reason, TacticalPolicy
from ashfall.core.types import Skill
from ashfall.engine import Decision, Dodge, Option, Rally, Step, Stride
from ashfall.families.morale.rules import GroupMorale, Status
from ashfall.families.reactions.ai import PREFERENCE, answer
from ashfall.grid.board import Board
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules.checks import maneuver_stats, stat_modifier
from ashfall.ruleset import preset
from tests.ai.kit import fight, play_turn, unit


def _edge_gap(board: Board, sq: tuple[int, int]) -> int:
    return min(sq[0], sq[1], board.width - 1 - sq[0], board.height - 1 - sq[1])


@pytest.mark.rule("MOR-21")
def test_mor_21__a_broken_creature_strides_away_toward_the_edge() -> None:
    board = Board(12, 12)
    raider = unit("r", "raiders", (4, 5), "raider", uses={"broken": 1})
    w = unit("w", "party", (5, 5), "warrior")
    engine, policy = fight([raider, w], board, ai=["r"])
    intents = play_turn(engine, policy, "r")
    assert intents and all(isinstance(i, Stride) for i in intents)
    end = engine.state.get("r").position
    assert end is not None
    assert space_distance_ft((end,), w.space) > space_distance_ft(((4, 5),), w.space)
    assert _edge_gap(board, end) < _edge_gap(board, (4, 5))


@pytest.mark.rule("MOR-22")
def test_mor_22__a_broken_creature_takes_no_reaction() -> None:
    raider = unit("r", "raiders", (4, 5), "raider", uses={"broken": 1})
    w = unit("w", "party", (5, 5), "warrior")
    engine, _ = fight([raider, w], ai=["r"])
    offer = Decision("r", "reaction", "leaves-reach", (Option("attack-of-opportunity", "AoO", "RX-21"),), True,
                     "RX-3", "w")
    assert TacticalPolicy().decide(engine.state, offer) is None


@pytest.mark.rule("MOR-23")
def test_mor_23__a_surrendered_creature_does_nothing() -> None:
    raider = unit("r", "raiders", (4, 5), "raider", uses={"broken": 1, "surrendered": 1})
    w = unit("w", "party", (5, 5), "warrior")
    other = unit("o", "raiders", (9, 9), "raider")
    engine, policy = fight([raider, w, other], ai=["r"])
    assert policy.next_intent(engine, "r") is None


@pytest.mark.rule("MOR-17", "MOR-18")
def test_mor_17__falling_back_moves_away_first_without_provoking_then_fights() -> None:
    raider = unit("r", "raiders", (5, 5), "raider", uses={"falling-back": 1})
    w = unit("w", "party", (6, 5), "warrior", max_hp=300)
    engine, policy = fight([raider, w], ai=["r"])
    first = policy.choose(engine, "r")
    assert first is not None and first.reason is Reason.FALL_BACK
    assert isinstance(first.intent, Step | Dodge | Stride)
    intents = play_turn(engine, policy, "r")
    moved = engine.state.get("r").position
    assert moved is not None and space_distance_ft((moved,), w.space) > 5
    assert engine.state.get("w").health.hp == 300 or any(getattr(i, "target", None) == "w" for i in intents)
    assert not any(e.actor == "w" for e in engine.log if type(e).__name__ == "AttackRolled")  # no AoO provoked


@pytest.mark.rule("RX-3", "RX-21")
@pytest.mark.parametrize("offered", [("attack-of-opportunity",), ("deflect", "attack-of-opportunity"),
                                     ("return-fire",), ("brace",)])
def test_rx_3__takes_the_reaction_it_prefers(offered: tuple[str, ...]) -> None:
    w = unit("w", "party", (5, 5), "warrior")
    r = unit("r", "raiders", (6, 5), "raider")
    engine, _ = fight([w, r], ai=["w"])
    decision = Decision("w", "reaction", "leaves-reach", tuple(Option(k, k, "RX-3") for k in offered), True,
                        "RX-3", "r")
    best = min(offered, key=PREFERENCE.index)
    assert answer(engine.state, decision) == best


def test_rx_3__declines_what_it_does_not_know() -> None:
    w = unit("w", "party", (5, 5), "warrior")
    r = unit("r", "raiders", (6, 5), "raider")
    engine, _ = fight([w, r], ai=["w"])
    decision = Decision("w", "reaction", "moved", (Option("something-new", "?", "RX-3"),), True, "RX-3", "r")
    assert answer(engine.state, decision) is None
    required = Decision("w", "choice", "pick", (Option("a", "a", "G-01"), Option("b", "b", "G-01")), False, "G-01")
    assert answer(engine.state, required) == "a"


@pytest.mark.rule("RX-26")
def test_rx_26__intercepts_only_a_blow_that_would_drop_an_ally() -> None:
    guard = unit("guard", "party", (5, 5), "warrior")
    weak = unit("weak", "party", (6, 5), "operative", hp=2)
    strong = unit("strong", "party", (6, 5), "warrior")
    brute = unit("brute", "raiders", (7, 5), "raider-boss")
    decision = Decision("guard", "reaction", "melee-attack-declared", (Option("intercept", "I", "RX-26"),),
                        True, "RX-3", "brute")
    engine, _ = fight([guard, weak, brute], ai=["guard"])
    assert answer(engine.state, decision) == "intercept"
    engine, _ = fight([guard, strong, brute], ai=["guard"])
    assert answer(engine.state, decision) is None


@pytest.mark.rule("X-09")
@pytest.mark.parametrize("ruleset", ["ashfall-2", "ashfall-1"])
@pytest.mark.parametrize("creature", ["warrior", "operative", "gunslinger"])
def test_x_09__defends_with_its_higher_skill(creature: str, ruleset: str) -> None:
    rs = preset(ruleset)
    me = unit("me", "party", (5, 5), creature, ruleset=rs)
    foe = unit("foe", "raiders", (6, 5), "raider", ruleset=rs)
    engine, _ = fight([me, foe], ai=["me"], ruleset=rs)
    options = (Option(Skill.ATHLETICS.value, "athletics", "X-09"), Option(Skill.ACROBATICS.value, "acrobatics", "X-09"))
    decision = Decision("me", "defense-skill", "trip", options, False, "X-09")
    stats = dict(zip((Skill.ATHLETICS.value, Skill.ACROBATICS.value), maneuver_stats(rs), strict=True))
    chosen = answer(engine.state, decision)
    assert chosen is not None
    assert stat_modifier(me.creature, stats[chosen]) == max(stat_modifier(me.creature, s) for s in stats.values())


def test_an_attack_reaction_is_declined_against_a_creature_behind_total_cover() -> None:
    walls = frozenset({(5, 4), (4, 5)})
    w = unit("w", "party", (4, 4), "warrior")
    r = unit("r", "raiders", (5, 5), "raider")
    engine, _ = fight([w, replace(r)], Board(12, 12, walls=walls), ai=["w"])
    decision = Decision("w", "reaction", "leaves-reach", (Option("attack-of-opportunity", "AoO", "RX-21"),),
                        True, "RX-3", "r")
    assert answer(engine.state, decision) is None


@pytest.mark.rule("G-04", "MOR-25")
def test_g_04__a_leader_rallies_its_falling_back_group_first() -> None:
    boss = unit("boss", "raiders", (5, 5), "raider-boss")
    mate = unit("mate", "raiders", (4, 4), "raider", uses={"falling-back": 1})
    w = unit("w", "party", (6, 5), "warrior")
    engine, policy = fight([boss, mate, w], ai=["boss"])
    engine.state.morale = {"raiders": GroupMorale(Status.FALL_BACK, failed_dc=12)}
    choice = policy.choose(engine, "boss")
    assert choice is not None and choice.reason is Reason.RALLY
    assert choice.intent == Rally("boss", "raiders")


@pytest.mark.rule("MOR-24")
def test_mor_24__a_charging_zealot_attacks_instead_of_fleeing() -> None:
    """000:542 "zealots may make a final suicidal charge": broken, it still attacks the enemy next to it."""
    zealot = unit("r", "raiders", (4, 5), "raider", uses={"broken": 1, "break-charge": 1})
    w = unit("w", "party", (5, 5), "warrior")
    engine, policy = fight([zealot, w], Board(12, 12), ai=["r"])
    choice = policy.choose(engine, "r")
    assert choice is not None and choice.reason in (Reason.ATTACK, Reason.MOVE_TO_ATTACK)


@pytest.mark.rule("MOR-24")
@pytest.mark.parametrize(("direction", "edge"), [(3, "east"), (7, "west")])
def test_mor_24__an_animal_flees_in_its_rolled_direction(direction: int, edge: str) -> None:
    """000:542 "animals flee in a random direction": the rolled direction (east 3, west 7) picks the way out."""
    board = Board(15, 9)
    animal = unit("r", "raiders", (7, 4), "raider", uses={"broken": 1, "break-flee-random": 1,
                                                         "flee-direction": direction})
    w = unit("w", "party", (7, 8), "warrior")
    engine, policy = fight([animal, w], board, ai=["r"])
    play_turn(engine, policy, "r")
    end = engine.state.get("r").position
    assert end is not None
    assert (end[0] > 7) if edge == "east" else (end[0] < 7)
