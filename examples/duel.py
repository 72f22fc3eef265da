"""A duel, explained: the Warrior (greataxe) against a Raider (spear) on a small map.

Both follow the same simple plan every turn: close in by Stride until the enemy is in reach, then
Strike with their first weapon until no actions are left. Every event is printed with its reasons:
each d20 with its faces, every modifier and DV part with its rule ID, the damage dice and the
damage ledger rows. Run it from the repository root:

    .venv/bin/python examples/duel.py            # seed 7
    .venv/bin/python examples/duel.py --seed 3 --brief
"""

from __future__ import annotations

import argparse
from typing import Any

from ashfall.cli.explain import event_lines, names_of
from ashfall.content.loader import default_library
from ashfall.engine.engine import Engine, legal_intents
from ashfall.engine.moves.movement import Stride
from ashfall.engine.moves.strike import Strike
from ashfall.engine.setup import make_combatant, new_engine, new_state
from ashfall.grid.board import Board
from ashfall.ruleset import preset

MAX_ROUNDS = 20


def build(seed: int, ruleset: str = "ashfall-2") -> Engine:
    """The Warrior at one end of an 8 x 5 map, a Raider at the other."""
    library = default_library()
    rs = preset(ruleset)
    warrior = make_combatant(library, "warrior", "w", "party", (1, 2), ruleset=rs)
    raider = make_combatant(library, "raider", "r", "raiders", (6, 2), ruleset=rs)
    return new_engine(new_state([warrior, raider], rs, Board(8, 5)), seed)


def next_intent(engine: Engine, actor: str) -> Any | None:
    """The plan: Strike with the first weapon if the enemy is in reach, else Stride towards it; None ends the turn."""
    c = engine.state.get(actor)
    options = legal_intents(engine, actor)
    weapon = c.weapons[0].id if c.weapons else None
    strikes = [i for i in options if isinstance(i, Strike) and i.weapon == weapon]
    if strikes:
        return strikes[0]
    strides = [i for i in options if isinstance(i, Stride)]
    return strides[0] if strides else None


def play(engine: Engine, show: Any = print, explain: bool = True) -> str | None:
    """Run the duel to the end, showing every event; returns the winning side."""
    names = names_of((c.id, c.name) for c in engine.state.combatants.values())

    def emit(events: list[Any]) -> None:
        for e in events:
            for line in event_lines(e, names, explain):
                show(line)

    emit(engine.start())
    while not engine.state.ended and engine.state.round <= MAX_ROUNDS:
        actor = engine.state.active_id
        assert actor is not None
        intent = next_intent(engine, actor)
        emit(engine.submit(intent) if intent is not None else engine.end_turn(actor))
    return engine.state.winner


def main() -> None:
    """Parse the options and play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="the dice seed (default 7)")
    parser.add_argument("--ruleset", default="ashfall-2", help="ashfall-2 (default) or ashfall-1")
    parser.add_argument("--brief", action="store_true", help="headlines only, no breakdowns")
    args = parser.parse_args()
    winner = play(build(args.seed, args.ruleset), explain=not args.brief)
    print(f"Winner: {winner or 'nobody'}")


if __name__ == "__main__":
    main()
