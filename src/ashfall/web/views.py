"""What each side of the table sees: the GM's full view and the players' projection, as pure functions.

:func:`player_view` is its own projection of the state, not the GM view with fields removed: it builds
only what players may know. PCs (creatures with a human controller) show their HP in full; NPCs show a
health band (unhurt, wounded, bloodied, down) or nothing, as the GM set; conditions and the initiative
order are visible; NPCs that are hidden or invisible (G-20, CONC) or that the GM hid are not in it at all,
not even in the initiative order; there are no GM notes, no NPC stat blocks and no pending NPC decisions.
"""

from __future__ import annotations

from typing import Any

from ashfall.engine import Combatant, EncounterState

UNSEEN = frozenset({"hidden", "invisible"})
"""Conditions that keep an NPC out of the player view (Hide's G-20, invisibility's CONC rules)."""


def _conditions(c: Combatant) -> list[dict[str, Any]]:
    out = []
    for applied in c.conditions:
        duration = getattr(applied, "duration", None)
        kind = getattr(duration, "kind", None)
        out.append({"condition": applied.condition.value, "rule": str(applied.rule),
                    "duration": getattr(kind, "value", None) if kind is not None else None,
                    "rounds": getattr(duration, "rounds", None)})
    return out


def is_pc(c: Combatant) -> bool:
    """A player character: a creature controlled by a person (its side's ``controller: human``)."""
    return c.controller == "human"


def band(c: Combatant) -> str:
    """An NPC's health band: unhurt (full), wounded (above half), bloodied (half or less), down (0 HP or worse)."""
    h = c.health
    if h.hp <= 0 or h.vitality.value != "alive":
        return "down"
    if h.hp >= h.max_hp:
        return "unhurt"
    return "wounded" if 2 * h.hp > h.max_hp else "bloodied"


def seen_by_players(c: Combatant, hidden: set[str]) -> bool:
    """Whether players see a creature: PCs always; an NPC unless the GM hid it or it is hidden/invisible."""
    if is_pc(c):
        return True
    if c.id in hidden:
        return False
    return not any(a.condition.value in UNSEEN for a in c.conditions)


def map_view(state: EncounterState) -> dict[str, Any] | None:
    """The battle map as data (None in theater of mind): size, walls, terrain, cover objects and heights."""
    board = state.board
    if board is None:
        return None
    return {
        "width": board.width, "height": board.height,
        "walls": sorted([list(sq) for sq in board.walls]),
        "terrain": sorted([[*sq, t.value] for sq, t in board.terrain.items()]),
        "cover": sorted([[*sq, o.level.value, o.name, o.blocks_movement] for sq, o in board.cover.items()]),
        "elevation": sorted([[*sq, h] for sq, h in board.elevation.items()]),
    }


def _turn(state: EncounterState, meta: dict[str, Any]) -> dict[str, Any]:
    return {"round": state.round, "active": state.active_id, "ended": state.ended, "winner": state.winner,
            **meta}


def player_view(state: EncounterState, meta: dict[str, Any], settings: dict[str, Any],
                pending: dict[str, Any] | None) -> dict[str, Any]:
    """The players' projection of a fight (see the module docstring for what it holds)."""
    hidden = set(settings.get("hidden", ()))
    show_bands = settings.get("npc_hp", "bands") == "bands"
    seen = {cid for cid, c in state.combatants.items() if seen_by_players(c, hidden)}
    creatures: list[dict[str, Any]] = []
    for cid in [*state.order, *(c for c in state.combatants if c not in state.order)]:
        if cid not in seen:
            continue
        c = state.combatants[cid]
        entry: dict[str, Any] = {"id": c.id, "name": c.name, "side": c.side, "pc": is_pc(c),
                                 "position": list(c.position) if c.position else None,
                                 "conditions": _conditions(c)}
        if is_pc(c):
            entry["hp"] = {"hp": c.health.hp, "max_hp": c.health.max_hp, "temp_hp": c.health.temp_hp,
                           "vitality": c.health.vitality.value}
        elif show_bands:
            entry["band"] = band(c)
        creatures.append(entry)
    active = state.active_id
    turn = _turn(state, {k: meta[k] for k in ("id", "name", "version", "ruleset") if k in meta})
    turn["active"] = active if active in seen else None
    prompt = None
    if pending is not None:
        asked = state.combatants.get(pending["decision"]["actor"])
        if asked is not None and is_pc(asked):
            prompt = pending["decision"]
    return {"view": "player", **turn, "order": [cid for cid in state.order if cid in seen],
            "creatures": creatures, "prompt": prompt, "map": map_view(state)}


def gm_view(state: EncounterState, meta: dict[str, Any], settings: dict[str, Any],
            pending: dict[str, Any] | None) -> dict[str, Any]:
    """The GM's full view: every creature with HP, stat block id, gear and budget; settings; the pending prompt."""
    creatures = []
    for c in state.combatants.values():
        h = c.health
        creatures.append({
            "id": c.id, "name": c.name, "side": c.side, "pc": is_pc(c), "creature": c.creature.id,
            "position": list(c.position) if c.position else None, "conditions": _conditions(c),
            "hp": {"hp": h.hp, "max_hp": h.max_hp, "temp_hp": h.temp_hp, "vitality": h.vitality.value,
                   "successes": h.successes, "failures": h.failures},
            "band": band(c), "initiative": c.initiative, "weapons": [w.id for w in c.weapons],
            "armor": c.armor.id if c.armor else None, "shield": c.shield.id if c.shield else None,
            "reaction_available": c.reaction_available, "seen_by_players": seen_by_players(c, set(settings["hidden"])),
            "turn": {"actions_left": c.turn.actions_left, "bonus_used": c.turn.bonus_used,
                     "movement_left_ft": c.turn.movement_left_ft, "strike_actions": c.turn.strike_actions},
        })
    return {"view": "gm", **_turn(state, meta), "order": list(state.order), "creatures": creatures,
            "settings": settings, "pending": pending, "map": map_view(state)}


__all__ = ["UNSEEN", "band", "gm_view", "is_pc", "map_view", "player_view", "seen_by_players"]
