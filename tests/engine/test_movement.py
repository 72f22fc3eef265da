"""Movement on the grid: terrain costs, diagonals, who blocks whom, prone, Sprint, speed 0 and Step (MOV, ACT-2..5)."""

from __future__ import annotations

import pytest

from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, Size
from ashfall.engine import (
    Combatant,
    Crawl,
    EncounterState,
    Engine,
    FirstOption,
    Refused,
    Sprint,
    Stand,
    Step,
    Stride,
    catalog,
    legal_intents,
)
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.harm import add
from ashfall.engine.reactions import NO_EFFECT, Effect, ReactionDef, Trigger, TriggerKind
from ashfall.engine.rulebook import Family
from ashfall.grid.board import Board, Square, Terrain
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.ruleset import preset
from tests.engine.map_kit import fighter, of_type, seeded, snapshot, started

OPEN = Board(10, 10)


def duel(board: Board = OPEN, *, me: Square = (1, 1), foe: Square = (8, 8), ruleset_options: dict | None = None,
         **mine: object) -> Engine:
    rs = preset().with_options(**ruleset_options) if ruleset_options else preset()
    return started([fighter("w", "party", me, **mine), fighter("r", "raiders", foe, "raider")],  # type: ignore[arg-type]
                   board, ruleset=rs)


def moved_costs(events: list) -> list[int]:
    return [e.cost_ft for e in of_type(events, ev.Moved)]


def refused(engine: Engine, intent: object) -> str:
    before = snapshot(engine)
    with pytest.raises(Refused) as info:
        engine.submit(intent)
    assert snapshot(engine) == before  # nothing happened
    return str(info.value.rule)


# ----- terrain (MOV-2..5) -----


@pytest.mark.rule("MOV-2", "MOV-3", "MOV-4")
@pytest.mark.parametrize(
    ("terrain", "cost"),
    [(Terrain.NORMAL, 5), (Terrain.DIFFICULT, 10), (Terrain.GREATER_DIFFICULT, 15)],
)
def test_mov_2_to_4__entering_a_square_costs_by_its_terrain(terrain: Terrain, cost: int) -> None:
    engine = duel(Board(10, 10, terrain={(2, 1): terrain}))
    events = engine.submit(Stride("w", ((2, 1), (3, 1))))
    assert moved_costs(events) == [cost, 5]
    assert engine.state.get("w").position == (3, 1)


@pytest.mark.rule("MOV-5")
def test_mov_5__impassable_terrain_and_walls_cannot_be_entered() -> None:
    engine = duel(Board(10, 10, terrain={(2, 1): Terrain.IMPASSABLE}, walls=frozenset({(2, 2)})))
    assert refused(engine, Stride("w", ((2, 1),))) == "MOV-5"
    assert refused(engine, Stride("w", ((2, 2),))) == "MOV-5"
    assert refused(engine, Stride("w", ((0, 1), (-1, 1)))) == "MOV-5"  # off the map


@pytest.mark.rule("ACT-2", "MOV-1", "MOV-3")
def test_act_2__a_stride_costs_at_most_the_speed() -> None:
    rough = {(x, 1): Terrain.DIFFICULT for x in range(2, 6)}
    engine = duel(Board(10, 10, terrain=rough))
    assert refused(engine, Stride("w", ((2, 1), (3, 1), (4, 1), (5, 1)))) == "ACT-2"  # 40 ft > 30 ft
    events = engine.submit(Stride("w", ((2, 1), (3, 1), (4, 1))))  # 30 ft
    assert sum(moved_costs(events)) == 30
    assert engine.state.get("w").turn.actions_left == 2


@pytest.mark.rule("ACT-2", "MOV-1")
def test_act_2__six_squares_of_open_ground_is_one_stride() -> None:
    engine = duel(me=(0, 0))
    engine.submit(Stride("w", tuple((x, 0) for x in range(1, 7))))
    assert engine.state.get("w").position == (6, 0)
    assert refused(engine, Stride("w", tuple((x, 1) for x in range(6, -1, -1)))) == "ACT-2"  # 7 squares


@pytest.mark.rule("X-03", "MOV-3")
@pytest.mark.parametrize(
    ("swim", "options", "cost"),
    [(0, None, 10), (20, None, 5), (0, {"turn": {"water_cost": 3}}, 15)],
    ids=["no-swim-speed-as-difficult", "swimmer-pays-nothing-extra", "option-greater-difficult"],
)
def test_x_03__water_costs_double_without_a_swim_speed(swim: int, options: dict | None, cost: int) -> None:
    engine = duel(Board(10, 10, terrain={(2, 1): Terrain.WATER}), ruleset_options=options, swim=swim)
    assert moved_costs(engine.submit(Stride("w", ((2, 1),)))) == [cost]


# ----- diagonals (G-37) -----


@pytest.mark.rule("G-37", "MOV-1")
@pytest.mark.parametrize(
    ("rule", "diagonals", "costs"),
    [("five", 3, [5, 5, 5]), ("alternating", 3, [5, 10, 5]), ("five", 6, [5] * 6)],
)
def test_g_37__diagonal_steps_cost_by_the_option(rule: str, diagonals: int, costs: list[int]) -> None:
    engine = duel(me=(0, 0), ruleset_options={"turn": {"diagonals": rule}})
    events = engine.submit(Stride("w", tuple((i, i) for i in range(1, diagonals + 1))))
    assert moved_costs(events) == costs


@pytest.mark.rule("G-37", "ACT-2")
def test_g_37__alternating_diagonals_make_six_diagonal_squares_too_far() -> None:
    engine = duel(me=(0, 0), foe=(9, 0), ruleset_options={"turn": {"diagonals": "alternating"}})
    assert refused(engine, Stride("w", tuple((i, i) for i in range(1, 7)))) == "ACT-2"  # 45 ft
    engine.submit(Stride("w", tuple((i, i) for i in range(1, 5))))  # 5 + 10 + 5 + 10 = 30


@pytest.mark.rule("G-37", "MOV-1")
@pytest.mark.parametrize("size", [Size.MEDIUM, Size.LARGE])
def test_g_37__a_straight_step_after_a_diagonal_costs_5_ft_whatever_the_size(size: Size) -> None:
    # A large creature's whole space moves the same way: a straight step is never priced as a diagonal one
    # (each square of its new space is entered from the square beside it, not from its top-left square).
    engine = duel(me=(0, 0), foe=(9, 9), size=size, ruleset_options={"turn": {"diagonals": "alternating"}})
    events = engine.submit(Stride("w", ((1, 1), (2, 1), (3, 2), (4, 2))))
    assert moved_costs(events) == [5, 5, 10, 5]


@pytest.mark.rule("G-37", "MOV-5")
def test_g_37__no_squeezing_diagonally_between_two_walls_meeting_at_a_corner() -> None:
    engine = duel(Board(10, 10, walls=frozenset({(2, 1), (1, 2)})))
    assert refused(engine, Stride("w", ((2, 2),))) == "MOV-5"
    assert refused(engine, Step("w", (2, 2))) == "MOV-5"
    one_wall = duel(Board(10, 10, walls=frozenset({(2, 1)})))
    one_wall.submit(Stride("w", ((2, 2),)))  # cutting past one wall's corner is fine
    assert one_wall.state.get("w").position == (2, 2)


# ----- creatures in the way (ACT-2) -----


def crowd(*others: tuple[str, str, Square], board: Board = OPEN, **mine: object) -> Engine:
    roster = [fighter("w", "party", (1, 1), **mine)]  # type: ignore[arg-type]
    roster += [fighter(cid, side, pos, "raider") for cid, side, pos in others]
    return started(roster, board)


@pytest.mark.rule("ACT-2")
def test_act_2__allies_can_be_passed_through_enemies_cannot() -> None:
    engine = crowd(("a", "party", (2, 1)), ("r", "raiders", (2, 3)), ("r2", "raiders", (9, 9)))
    engine.submit(Stride("w", ((2, 1), (3, 1))))  # through the ally
    assert engine.state.get("w").position == (3, 1)
    assert refused(engine, Stride("w", ((2, 2), (2, 3), (2, 4)))) == "ACT-2"  # through the enemy


@pytest.mark.rule("ACT-2")
def test_act_2__cannot_end_a_move_in_an_occupied_square() -> None:
    engine = crowd(("a", "party", (2, 1)), ("r", "raiders", (9, 9)))
    assert refused(engine, Stride("w", ((2, 1),))) == "ACT-2"
    assert refused(engine, Step("w", (2, 1))) == "ACT-2"


@pytest.mark.rule("ACT-2", "DEATH-1")
def test_act_2__a_downed_enemy_can_be_stepped_over_but_not_stood_on() -> None:
    roster = [fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider", down=True),
              fighter("r2", "raiders", (9, 9), "raider")]
    engine = started(roster, OPEN)
    assert refused(engine, Stride("w", ((2, 1),))) == "ACT-2"
    engine.submit(Stride("w", ((2, 1), (3, 1))))
    assert engine.state.get("w").position == (3, 1)


@pytest.mark.rule("ACT-2", "MOV-5")
def test_act_2__a_large_creature_needs_room_for_its_whole_space() -> None:
    walls = frozenset({(4, 0), (4, 2)})  # a 1-square gap at (4, 1)
    engine = crowd(("r", "raiders", (9, 9)), board=Board(10, 10, walls=walls), size=Size.LARGE)
    assert engine.state.get("w").space == ((1, 1), (2, 1), (1, 2), (2, 2))
    assert refused(engine, Stride("w", ((2, 1), (3, 1)))) == "MOV-5"  # (4, 2) is in its way
    engine.submit(Stride("w", ((2, 2), (3, 3))))
    assert engine.state.get("w").space == ((3, 3), (4, 3), (3, 4), (4, 4))


# ----- prone: Crawl or Stand (ACT-4, ACT-5, POS-5) -----


@pytest.mark.rule("ACT-4", "POS-5")
@pytest.mark.parametrize("intent", [Stride("w", ((2, 1),)), Step("w", (2, 1)), Sprint("w", ((2, 1),))],
                         ids=["stride", "step", "sprint"])
def test_act_4__a_prone_creature_must_crawl_or_stand(intent: object) -> None:
    engine = duel(conditions=[Condition.PRONE])
    assert refused(engine, intent) == "ACT-4"


@pytest.mark.rule("ACT-4", "C-PRO")
def test_act_4__crawling_moves_at_half_speed() -> None:
    engine = duel(conditions=[Condition.PRONE])
    assert refused(engine, Crawl("w", ((2, 1), (3, 1), (4, 1), (5, 1)))) == "ACT-4"  # 20 ft > 15 ft
    events = engine.submit(Crawl("w", ((2, 1), (3, 1), (4, 1))))
    assert moved_costs(events) == [5, 5, 5]
    assert [e.mode for e in of_type(events, ev.Moved)] == ["crawl"] * 3
    assert engine.state.get("w").has(Condition.PRONE)


@pytest.mark.rule("ACT-4", "MOV-3")
def test_act_4__crawling_through_difficult_terrain_still_doubles() -> None:
    engine = duel(Board(10, 10, terrain={(2, 1): Terrain.DIFFICULT}), conditions=[Condition.PRONE])
    assert refused(engine, Crawl("w", ((2, 1), (3, 1), (4, 1)))) == "ACT-4"  # 10 + 5 + 5 > 15
    assert moved_costs(engine.submit(Crawl("w", ((2, 1), (3, 1))))) == [10, 5]


@pytest.mark.rule("ACT-4")
def test_act_4__crawl_is_only_for_the_prone() -> None:
    engine = duel()
    assert refused(engine, Crawl("w", ((2, 1),))) == "ACT-4"


@pytest.mark.rule("ACT-5", "C-PRO", "ACT-1")
def test_act_5__standing_up_costs_one_action_and_ends_prone() -> None:
    engine = duel(conditions=[Condition.PRONE])
    events = engine.submit(Stand("w"))
    assert of_type(events, ev.ActionsSpent)[0].count == 1
    assert not engine.state.get("w").has(Condition.PRONE)
    assert refused(engine, Stand("w")) == "ACT-5"
    engine.submit(Stride("w", ((2, 1),)))


@pytest.mark.rule("ACT-5", "C-PRO")
def test_act_5__the_stand_cost_option_is_read() -> None:
    engine = duel(conditions=[Condition.PRONE], ruleset_options={"conditions": {"prone_stand_actions": 2}})
    events = engine.submit(Stand("w"))
    assert of_type(events, ev.ActionsSpent)[0].count == 2
    assert engine.state.get("w").turn.actions_left == 1


# ----- Sprint (MAA-8) -----


@pytest.mark.rule("MAA-8", "AE-1")
def test_maa_8__sprint_is_three_actions_in_a_straight_line_up_to_triple_speed() -> None:
    engine = started([fighter("w", "party", (0, 0)), fighter("r", "raiders", (0, 2), "raider")], Board(25, 3))
    assert refused(engine, Sprint("w", tuple((x, 0) for x in range(1, 20)))) == "MAA-8"  # 95 ft
    assert refused(engine, Sprint("w", ((1, 0), (2, 1)))) == "MAA-8"  # not straight
    events = engine.submit(Sprint("w", tuple((x, 0) for x in range(1, 19))))  # 90 ft
    assert of_type(events, ev.ActionsSpent)[0].count == 3
    assert engine.state.get("w").position == (18, 0)
    assert engine.state.get("w").turn.actions_left == 0


@pytest.mark.rule("MAA-8", "AE-1")
def test_maa_8__sprint_needs_all_three_actions() -> None:
    engine = started([fighter("w", "party", (0, 0)), fighter("r", "raiders", (0, 2), "raider")], Board(25, 3))
    engine.submit(Step("w", (1, 0)))
    assert refused(engine, Sprint("w", ((2, 0),))) == "AE-1"


# ----- speed 0 (C-GRA, C-RES) -----


@pytest.mark.rule("C-GRA", "C-RES")
@pytest.mark.parametrize(("condition", "rule_id"), [(Condition.GRAPPLED, "C-GRA"), (Condition.RESTRAINED, "C-RES")])
@pytest.mark.parametrize("intent", [Stride("w", ((2, 1),)), Step("w", (2, 1)), Sprint("w", ((2, 1),))],
                         ids=["stride", "step", "sprint"])
def test_speed_zero__grappled_or_restrained_cannot_move(condition: Condition, rule_id: str, intent: object) -> None:
    engine = duel(conditions=[condition])
    assert refused(engine, intent) == rule_id


@pytest.mark.rule("C-GRA", "ACT-4")
def test_speed_zero__a_grappled_prone_creature_cannot_crawl_either() -> None:
    engine = duel(conditions=[Condition.GRAPPLED, Condition.PRONE])
    assert refused(engine, Crawl("w", ((2, 1),))) == "C-GRA"


# ----- Step (ACT-3) -----


@pytest.mark.rule("ACT-3", "MOV-3")
@pytest.mark.parametrize("terrain", [Terrain.DIFFICULT, Terrain.GREATER_DIFFICULT, Terrain.WATER])
def test_act_3__step_refuses_costly_terrain(terrain: Terrain) -> None:
    engine = duel(Board(10, 10, terrain={(2, 1): terrain}))
    assert refused(engine, Step("w", (2, 1))) == "ACT-3"
    assert refused(engine, Step("w", (3, 1))) == "ACT-2"  # and it is one square


@pytest.mark.rule("ACT-3", "G-37")
def test_act_3__a_diagonal_step_is_5_ft_under_either_diagonal_rule() -> None:
    engine = duel(ruleset_options={"turn": {"diagonals": "alternating"}})
    assert moved_costs(engine.submit(Step("w", (2, 2)))) == [5]


@pytest.mark.rule("ACT-3", "RX-21")
def test_act_3__step_out_of_reach_provokes_no_reaction_stride_does() -> None:
    def roster() -> list:
        return [fighter("w", "party", (1, 1)), fighter("r", "raiders", (2, 1), "raider")]

    stepping = started(roster(), OPEN, controllers={"r": FirstOption()})
    events = stepping.submit(Step("w", (0, 1)))
    assert not of_type(events, ev.ReactionSpent) and not of_type(events, ev.AttackRolled)
    striding = started(roster(), OPEN, controllers={"r": FirstOption()})
    seeded(striding, 3)
    events = striding.submit(Stride("w", ((0, 1), (0, 2))))
    assert [e.actor for e in of_type(events, ev.ReactionSpent)] == ["r"]
    assert of_type(events, ev.AttackRolled)[0].label == "Attack of Opportunity"


# ----- candidates and theater of mind -----


@pytest.mark.rule("ACT-2")
def test_act_2__legal_intents_offer_a_stride_towards_each_enemy_out_of_reach() -> None:
    engine = duel(me=(0, 0), foe=(5, 0))
    strides = [i for i in legal_intents(engine, "w") if isinstance(i, Stride)]
    assert strides == [Stride("w", ((1, 0), (2, 0), (3, 0), (4, 0)))]
    far = duel(me=(0, 0), foe=(9, 9))
    (stride,) = [i for i in legal_intents(far, "w") if isinstance(i, Stride)]
    assert len(stride.path) == 6  # as far as the speed allows


@pytest.mark.rule("POS-2", "ACT-2")
def test_pos_2__without_a_map_a_stride_is_narrated_with_an_empty_path() -> None:
    engine = started([fighter("w", "party", None), fighter("r", "raiders", None, "raider")])
    assert refused(engine, Stride("w", ((1, 1),))) == "POS-2"
    events = engine.submit(Stride("w", ()))
    assert of_type(events, ev.ActionsSpent)[0].label == "stride" and not of_type(events, ev.Moved)
    assert engine.state.get("w").turn.actions_left == 2


# ----- knocked down mid-move (ACT-4): the rest of the path is not walked -----


def _tripwire_eligible(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    return reactor.id == "tripwire" and trigger.actor != reactor.id and not state.get(trigger.actor).has(
        Condition.PRONE)


def _tripwire(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    add(ctx, trigger.actor, AppliedCondition(Condition.PRONE, "C-PRO", reactor.id))
    return NO_EFFECT


TRIPWIRE = catalog.build(extra=(Family("test-tripwire", lambda book: book.reaction(ReactionDef(
    "test-tripwire", "Tripwire (test only)", rule("C-PRO"), frozenset({TriggerKind.MOVED}), _tripwire_eligible,
    _tripwire))),))


@pytest.mark.rule("ACT-4", "ACT-2", "C-PRO")
def test_act_4__a_creature_knocked_prone_mid_stride_stops_there() -> None:
    roster = [fighter("w", "party", (1, 1)), fighter("tripwire", "raiders", (9, 9), "raider")]
    engine = started(roster, OPEN, controllers={"tripwire": FirstOption()}, rulebook=TRIPWIRE)
    events = engine.submit(Stride("w", ((2, 1), (3, 1), (4, 1))))
    assert [e.to for e in of_type(events, ev.Moved)] == [(2, 1)]
    w = engine.state.get("w")
    assert w.position == (2, 1) and w.has(Condition.PRONE)
    assert refused(engine, Stride("w", ((3, 1),))) == "ACT-4"
