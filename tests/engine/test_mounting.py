"""Mount and Dismount (ACT-6, MNT-1): 1 action that also uses 5 ft of movement; the rider moves with the mount."""

from __future__ import annotations

import pytest

from ashfall.core.types import Condition, Size
from ashfall.engine import Dismount, Engine, Mount, Refused, Step, Stride, legal_intents
from ashfall.engine import apply_events as replay  # the state after some events
from ashfall.engine import events as ev
from ashfall.grid.board import Board
from tests.engine.map_kit import fighter, of_type, snapshot, started

BOARD = Board(10, 10)


def stable(*, rider_conditions: tuple[Condition, ...] = (), horse_size: Size = Size.LARGE,
           rider_at: tuple[int, int] = (1, 1), board: Board | None = BOARD) -> Engine:
    on_map = board is not None
    roster = [
        fighter("w", "party", rider_at if on_map else None, conditions=rider_conditions),
        fighter("h", "party", (2, 1) if on_map else None, "raider", size=horse_size),
        fighter("r", "raiders", (9, 9) if on_map else None, "raider"),
    ]
    return started(roster, board)


def refused(engine: Engine, intent: object) -> str:
    before = snapshot(engine)
    with pytest.raises(Refused) as info:
        engine.submit(intent)
    assert snapshot(engine) == before
    return str(info.value.rule)


def turn_of(engine: Engine, cid: str) -> None:
    while engine.state.active_id != cid:
        engine.end_turn(engine.state.active_id)  # type: ignore[arg-type]


@pytest.mark.rule("ACT-6", "MNT-1", "ACT-1")
def test_act_6__mounting_costs_one_action_and_5_ft_of_movement() -> None:
    engine = stable()
    events = engine.submit(Mount("w", "h"))
    assert [(e.count, e.label) for e in of_type(events, ev.ActionsSpent)] == [(1, "mount")]
    assert [(e.resource, e.delta, e.rule) for e in of_type(events, ev.ResourceUsed)] == [("movement", 5, "MNT-1")]
    (step,) = of_type(events, ev.Moved)
    assert (step.frm, step.to, step.cost_ft, step.mode) == ((1, 1), (2, 1), 5, "mount")
    rider = engine.state.get("w")
    assert rider.mounted_on == "h" and rider.position == (2, 1)
    assert rider.turn.actions_left == 2


@pytest.mark.rule("MNT-4", "ACT-6")
def test_mnt_4__the_rider_moves_with_its_mount_and_does_not_stride_alone() -> None:
    engine = stable()
    engine.submit(Mount("w", "h"))
    assert refused(engine, Stride("w", ((1, 1),))) == "MNT-4"
    assert refused(engine, Step("w", (1, 1))) == "MNT-4"
    turn_of(engine, "h")
    engine.submit(Stride("h", ((3, 2), (4, 3))))
    assert engine.state.get("h").position == (4, 3)
    assert engine.state.get("w").position == (4, 3)
    assert replay(engine.initial_state, engine.log) == engine.state  # the rider's ride replays too


@pytest.mark.rule("ACT-6", "MNT-1")
def test_act_6__dismounting_lands_next_to_the_mount() -> None:
    engine = stable()
    engine.submit(Mount("w", "h"))
    assert refused(engine, Dismount("w", (6, 6))) == "MNT-1"  # not next to the mount
    assert refused(engine, Dismount("w", (3, 1))) == "MNT-1"  # inside the mount's space
    assert refused(engine, Dismount("w")) == "ACT-6"  # on a map, name the square
    events = engine.submit(Dismount("w", (4, 1)))
    assert of_type(events, ev.MountChanged)[0].mount is None
    assert of_type(events, ev.Moved)[0].to == (4, 1)
    assert engine.state.get("w").mounted_on is None
    assert engine.state.get("w").turn.actions_left == 1
    assert Dismount("w", (4, 1)) not in legal_intents(engine, "w")


@pytest.mark.rule("ACT-6", "MNT-1", "ACT-4", "C-GRA")
@pytest.mark.parametrize(
    ("kwargs", "intent", "rule_id"),
    [
        ({}, Mount("w", "r"), "ACT-6"),  # not a willing mount
        ({}, Mount("w", "w"), "ACT-6"),
        ({"horse_size": Size.MEDIUM}, Mount("w", "h"), "ACT-6"),  # not larger than the rider
        ({"rider_at": (6, 6)}, Mount("w", "h"), "MNT-1"),  # more than 5 ft away
        ({"rider_conditions": (Condition.PRONE,)}, Mount("w", "h"), "ACT-4"),
        ({"rider_conditions": (Condition.GRAPPLED,)}, Mount("w", "h"), "C-GRA"),  # no 5 ft of movement
        ({}, Dismount("w", (0, 0)), "ACT-6"),  # not mounted
    ],
    ids=["enemy", "itself", "same-size", "too-far", "prone", "grappled", "dismount-unmounted"],
)
def test_act_6__mounting_is_refused_when(kwargs: dict, intent: object, rule_id: str) -> None:
    assert refused(stable(**kwargs), intent) == rule_id


@pytest.mark.rule("ACT-6")
def test_act_6__one_rider_per_mount_and_no_mounting_twice() -> None:
    engine = stable()
    engine.submit(Mount("w", "h"))
    assert refused(engine, Mount("w", "h")) == "ACT-6"


@pytest.mark.rule("ACT-6", "MNT-1", "POS-2")
def test_act_6__theater_of_mind_mount_and_dismount_need_no_squares() -> None:
    engine = stable(board=None)
    engine.submit(Mount("w", "h"))
    assert engine.state.get("w").mounted_on == "h"
    assert Dismount("w") in legal_intents(engine, "w")
    engine.submit(Dismount("w"))
    assert engine.state.get("w").mounted_on is None
    assert engine.state.get("w").turn.actions_left == 1
