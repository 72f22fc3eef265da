"""Golden replay: a scripted duel (fixed seed, fixed intents) must log exactly what golden/duel.jsonl holds.

Any change to the rules, the dice order or the event format shows up here as a diff. When the change
is intended, rewrite the file and review the diff before committing it:

    ASHFALL_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

import pytest

from ashfall.engine import Engine, Refused, Stride, Strike, make_combatant, new_engine, new_state
from ashfall.engine import apply_events as replay  # the state after some events
from ashfall.engine import events as ev
from ashfall.grid.board import Board
from ashfall.ruleset import preset
from tests.engine.map_kit import LIB

GOLDEN = Path(__file__).parent / "golden" / "duel.jsonl"
UPDATE = os.environ.get("ASHFALL_UPDATE_GOLDEN") == "1"
SEED = 7

END = "end"
SCRIPT: list[tuple[str, Any]] = [
    # round 1: the Warrior closes in (the Raider braces, RX-12) and swings twice; the Raider answers three times
    ("w", Stride("w", ((2, 2), (3, 2), (4, 2), (5, 2)))),
    ("w", Strike("w", "r", "greataxe")),
    ("w", Strike("w", "r", "greataxe")),
    ("w", END),
    ("r", Strike("r", "w", "spear")),
    ("r", Strike("r", "w", "spear")),
    ("r", Strike("r", "w", "spear")),
    ("r", END),
    # round 2: the Warrior finishes it
    ("w", Strike("w", "r", "greataxe")),
    ("w", Strike("w", "r", "greataxe")),
    ("w", Strike("w", "r", "greataxe")),
    ("w", END),
]


def duel() -> Engine:
    rs = preset("ashfall-2")
    warrior = make_combatant(LIB, "warrior", "w", "party", (1, 2), ruleset=rs)
    raider = make_combatant(LIB, "raider", "r", "raiders", (6, 2), ruleset=rs)
    return new_engine(new_state([warrior, raider], rs, Board(8, 5)), SEED)


def play_script(engine: Engine) -> None:
    engine.start()
    for actor, step in SCRIPT:
        if engine.state.ended:
            break
        assert engine.state.active_id == actor, f"the script expects {actor}'s turn, it is {engine.state.active_id}'s"
        try:
            engine.end_turn(actor) if step == END else engine.submit(step)
        except Refused as refused:
            pytest.fail(f"the golden script is no longer legal at {step!r}: {refused} — edit SCRIPT, then update")


@pytest.mark.rule("ACT-2", "ACT-7", "MAP-1", "AE-1")
def test_golden__scripted_duel_logs_byte_for_byte() -> None:
    engine = duel()
    play_script(engine)
    text = ev.dumps(engine.log)
    if UPDATE or not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"{GOLDEN} did not exist; it has been written: review it and run the test again")
    expected = GOLDEN.read_text(encoding="utf-8")
    if text != expected:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), text.splitlines(), "golden", "now", lineterm="",
                                              n=1))
        pytest.fail(f"the duel's log differs from {GOLDEN.name} (if intended: ASHFALL_UPDATE_GOLDEN=1):\n{diff[:4000]}")


@pytest.mark.rule("AE-1")
def test_golden__the_stored_log_replays_to_the_fight_it_came_from() -> None:
    expected = GOLDEN.read_text(encoding="utf-8")
    events = ev.loads(expected)
    assert ev.dumps(events) == expected  # loads -> dumps is byte-identical
    engine = duel()
    play_script(engine)
    assert replay(engine.initial_state, events) == engine.state
    assert engine.state.ended and engine.state.winner == "party"
