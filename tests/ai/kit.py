"""Small scripted fights for the tactical AI's tests: library creatures on an open board, a known turn order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ashfall.ai import TacticalConfig, TacticalPolicy
from ashfall.content.loader import default_library
from ashfall.core.rng import ScriptedRng, SeededRng
from ashfall.engine import Combatant, Controller, Decline, Engine, make_combatant, new_state
from ashfall.engine.records import supplies_of
from ashfall.grid.board import Board, Square
from ashfall.ruleset import Ruleset, preset

LIB = default_library()
TIEBREAK = 1_000_000


def unit(cid: str, side: str, pos: Square | None, creature: str = "warrior", *, weapons: Sequence[str] | None = None,
         hp: int | None = None, max_hp: int | None = None, uses: Mapping[str, int] | None = None,
         ruleset: Ruleset | None = None, **creature_changes: Any) -> Combatant:
    """A library creature at ``pos``; optionally re-armed, with other HP (``hp`` now, ``max_hp``) or counters."""
    c = make_combatant(LIB, creature, cid, side, pos, ruleset=ruleset)
    if max_hp is not None:
        creature_changes["hp"] = max_hp
    if creature_changes:
        c = replace(c, creature=c.creature.model_copy(update=creature_changes))
        if max_hp is not None:
            c = replace(c, health=c.health.evolve(hp=max_hp, max_hp=max_hp))
    if weapons is not None:
        c = replace(c, weapons=tuple(LIB.weapon(w) for w in weapons))
    if hp is not None:
        c = replace(c, health=c.health.evolve(hp=hp))
    if uses:
        c = replace(c, supplies=supplies_of(uses))
    return c


def fight(combatants: Sequence[Combatant], board: Board | None = None, *, first: str | None = None,
          ruleset: Ruleset | None = None, ai: Iterable[str] | None = None, config: TacticalConfig | None = None,
          seed: int | None = 1) -> tuple[Engine, TacticalPolicy]:
    """A started engine whose first turn is ``first``'s (default: the first combatant).

    The creatures in ``ai`` (default: all) answer decisions with the tactical AI, the others decline.
    With ``seed`` the dice after initiative are seeded; with None they must be scripted.
    """
    policy = TacticalPolicy(config)
    roster = [c.id for c in combatants]
    chosen: dict[str, Controller] = {cid: Decline() for cid in roster}
    chosen.update({cid: policy for cid in (roster if ai is None else ai)})
    state = new_state(combatants, ruleset or preset(), board if board is not None else Board(12, 12))
    lead = first or roster[0]
    faces: list[tuple[int, int]] = []
    for cid in roster:
        faces += [(20, 20 if cid == lead else 1), (TIEBREAK, 1)]
    engine = Engine(state, ScriptedRng(faces), chosen, seed=None)
    engine.start()
    if seed is not None:
        engine.rng = SeededRng(seed)
    return engine, policy


def play_turn(engine: Engine, policy: TacticalPolicy, actor: str, limit: int = 12) -> list[Any]:
    """Let the AI play ``actor``'s whole turn; return the intents it submitted (the turn is not ended)."""
    done: list[Any] = []
    for _ in range(limit):
        if engine.state.active_id != actor or engine.state.ended:
            break
        intent = policy.next_intent(engine, actor)
        if intent is None:
            break
        engine.submit(intent)
        done.append(intent)
    return done
