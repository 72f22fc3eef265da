"""Entered dice: a creature whose dice a person rolls gets a dice request per die, and its faces replay exactly.

The engine rolls back a command whose entered die has no face (``NeedDice``), like an unanswered decision;
the command submitted again with the faces resolves with them, records them, and replays and redoes them.
Every die still draws the seeded RNG, so entering exactly the faces it would have drawn changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.content.loader import default_library
from ashfall.engine import events as ev
from ashfall.engine.decisions import Decline
from ashfall.engine.dice_entry import DiceRequest, Face, FaceOutOfRange, NeedDice
from ashfall.engine.engine import CheckpointRng, Engine, clone_state, legal_intents
from ashfall.engine.intents import Command, EndTurn
from ashfall.engine.record import dumps_log, loads_log
from ashfall.engine.replaying import replay
from ashfall.engine.setup import make_combatant, new_engine, new_state
from ashfall.families.attacks.moves_strike import Strike
from ashfall.grid.board import Board

LIB = default_library()


def duel(seed: int, entered: frozenset[str] = frozenset()) -> Engine:
    """A warrior and a raider side by side; nobody takes reactions."""
    state = new_state([make_combatant(LIB, "warrior", "w", "party", (1, 2)),
                       make_combatant(LIB, "raider", "r", "raiders", (2, 2))], board=Board(8, 5))
    engine = new_engine(state, seed=seed, controllers={"w": Decline(), "r": Decline()})
    engine.entered = entered
    return engine


def next_command(engine: Engine) -> Command:
    """The active creature strikes while it can, else ends its turn."""
    actor = engine.state.active_id
    assert actor is not None
    strikes = [i for i in legal_intents(engine, actor) if isinstance(i, Strike)]
    return strikes[0] if strikes else EndTurn(actor)


Oracle = Callable[[Engine, DiceRequest], Face]


def perform(engine: Engine, command: Command | None, oracle: Oracle) -> list[ev.Event]:
    """Resolve a command (None: the start), answering each dice request with the oracle's face."""
    faces: dict[int, Face] = {}
    while True:
        try:
            if command is None:
                return engine.start(faces=faces)
            return engine.perform(command, (), faces)
        except NeedDice as asked:
            assert asked.request.index not in faces
            faces[asked.request.index] = oracle(engine, asked.request)


class Spy:
    """A rewindable RNG that writes down every face it draws."""

    def __init__(self, rng: CheckpointRng) -> None:
        self.rng = rng
        self.drawn: list[int] = []

    def roll(self, sides: int) -> int:
        face = self.rng.roll(sides)
        self.drawn.append(face)
        return face

    def getstate(self) -> object:
        return self.rng.getstate()

    def setstate(self, state: object) -> None:
        self.rng.setstate(state)


def seeded_oracle(command: Command | None) -> Oracle:
    """The face the seeded RNG would draw for a die: the command played on a copy with the engine's dice."""

    def oracle(engine: Engine, request: DiceRequest) -> Face:
        twin = engine.copy()
        twin.entered = frozenset()
        spy = twin.rng = Spy(twin.rng)
        if command is None:
            twin.start()
        else:
            twin.perform(command)
        return spy.drawn[request.index]

    return oracle


def play(engine: Engine, commands: int, oracle: Callable[[Command | None], Oracle]) -> None:
    perform(engine, None, oracle(None))
    for _ in range(commands):
        if engine.state.ended:
            return
        command = next_command(engine)
        perform(engine, command, oracle(command))


def always(face: Callable[[Engine, DiceRequest], Face]) -> Callable[[Command | None], Oracle]:
    """The same oracle for every command."""
    return lambda command: face


def start_with_faces(engine: Engine) -> None:
    perform(engine, None, lambda e, r: None)  # initiative: roll it for me


@pytest.mark.rule("ATK-1")
def test_entered_dice__attack_roll_waits_for_a_face_in_1_to_20() -> None:
    engine = duel(3, frozenset({"w", "r"}))
    start_with_faces(engine)
    actor = engine.state.active_id
    assert actor is not None
    strike = next_command(engine)
    assert isinstance(strike, Strike)
    before, state = len(engine.log), clone_state(engine.state)
    with pytest.raises(NeedDice) as asked:
        engine.submit(strike)
    request = asked.value.request
    assert (request.roll.owner, request.roll.kind, request.roll.target) == (actor, "attack", strike.target)
    assert (request.sides, request.count, request.nth, request.roll.dice) == (20, 1, 1, (1, 20))
    assert len(engine.log) == before and engine.state == state  # nothing changed
    for bad in (0, 21):
        with pytest.raises(FaceOutOfRange):
            engine.submit(strike, faces={request.index: bad})
        assert len(engine.log) == before
    with pytest.raises(NeedDice) as damage:  # a natural 20 hits: the damage is the attacker's to roll too
        engine.submit(strike, faces={request.index: 20})
    assert damage.value.request.roll.kind == "damage" and damage.value.request.roll.owner == actor
    assert damage.value.request.index == request.index + 1
    assert len(engine.log) == before


@pytest.mark.rule("DMG-1")
def test_entered_dice__damage_request_names_the_dice_and_faces_are_used() -> None:
    engine = duel(3, frozenset({"w", "r"}))
    start_with_faces(engine)
    strike = next_command(engine)
    with pytest.raises(NeedDice) as damage:
        engine.submit(strike, faces={0: 20})
    request = damage.value.request
    assert request.roll.dice is not None and request.roll.dice[1] == request.sides
    faces: dict[int, Face] = {0: 20}
    faces.update({request.index + k: request.sides for k in range(request.count)})  # every die at its maximum
    events = engine.submit(strike, faces=faces)
    attack = next(e for e in events if isinstance(e, ev.AttackRolled))
    rolled = next(e for e in events if isinstance(e, ev.DamageRolled))
    assert attack.roll.natural == 20 and attack.outcome == "crit"
    assert all(f == request.sides for p in rolled.parts for f in p.faces)
    assert engine.records[-1].faces == tuple(sorted(faces.items()))


@pytest.mark.rule("INIT-1")
def test_entered_dice__only_the_entered_creatures_dice_are_asked_for() -> None:
    engine = duel(5, frozenset({"w"}))
    asked: list[DiceRequest] = []

    def oracle(e: Engine, r: DiceRequest) -> Face:
        asked.append(r)
        return None

    play(engine, 12, always(oracle))
    assert asked and {r.roll.owner for r in asked} == {"w"}
    assert {r.roll.kind for r in asked} >= {"initiative"}


@pytest.mark.rule("AE-1")
def test_entered_dice__faces_replay_from_the_log_and_redo_exactly() -> None:
    engine = duel(7, frozenset({"w"}))
    play(engine, 10, always(lambda e, r: 1 + (r.index * 7) % r.sides))
    text = dumps_log(engine.fight_log())
    assert '"faces":[[' in text
    again = replay(loads_log(text), engine.initial_state)  # no one is entered in the replay: the log suffices
    assert again.log == engine.log and again.state == engine.state
    kept = list(engine.log)
    engine.undo(3)
    while engine.redo_available:
        engine.redo()
    assert engine.log == kept


@pytest.mark.rule("INIT-1")
def test_entered_dice__roll_it_for_me_is_the_engine_fight() -> None:
    plain, entered = duel(11), duel(11, frozenset({"w", "r"}))
    play(plain, 15, always(lambda e, r: None))
    play(entered, 15, always(lambda e, r: None))
    assert entered.log == plain.log
    assert any(r.faces for r in entered.records) and not any(r.faces for r in plain.records)


@pytest.mark.rule("INIT-1")
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), who=st.sampled_from([frozenset({"w"}), frozenset({"r"}), frozenset({"w", "r"})]))
def test_entered_dice__faces_equal_to_the_seeded_draws_give_the_engine_dice_fight(seed: int,
                                                                                    who: frozenset[str]) -> None:
    plain, entered = duel(seed), duel(seed, who)
    play(plain, 12, always(lambda e, r: None))
    play(entered, 12, seeded_oracle)
    assert ev.dumps(entered.log) == ev.dumps(plain.log)
