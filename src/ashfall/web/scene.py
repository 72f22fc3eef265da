"""What the pages show beyond the views, read off a fight's state by the rules' own functions; it decides nothing.

* :func:`scene`: the battlefield's layers beyond the board (light, fire, gas, veils, water, hazards) for the
  map. The board itself (walls, terrain, cover, heights) is :func:`ashfall.web.views.map_view`.
* :func:`tactics`: flanking and cover against one target, from each creature hostile to it, as the attack
  pipeline reads them (:func:`~ashfall.families.attacks.engine.situation`, ``flanking_ally`` and
  :func:`~ashfall.grid.geometry.flanks` for who flanks, ``target_defense`` for the DV and its cover part).
* :func:`morale_panel`: each NPC group's morale (MOR): its status, Will, and the checks the next drop, the
  leader's fall or a fear effect would call for, with their DC parts from
  :func:`~ashfall.families.morale.rules.morale_dc`; the check due now (a pending morale dice request) and the
  last one made.
* :func:`rail_marks`: Delay and Ready in the initiative rail: who delayed this round (DEL-2) and each
  readied action with its trigger (RDY-2).

GM-only data (the pages' endpoints check the role): the player view never carries it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.morale import GroupMorale
from ashfall.engine import EncounterState
from ashfall.engine import events as ev
from ashfall.engine.state import Combatant
from ashfall.families.attacks.engine import flanking_ally, is_ranged_attack, situation, target_defense
from ashfall.families.attacks.engine_common import mode_for
from ashfall.families.attacks.rules_activities import provides_flanking
from ashfall.families.morale import engine as morale
from ashfall.families.morale import rules as mr
from ashfall.grid.geometry import flanks


def scene(state: EncounterState) -> dict[str, Any]:
    """The battlefield's layers beyond the board, as data for the map: light, fire, gas, veils, water, hazards."""
    env = state.environment
    return {
        "ambient": env.ambient.value,
        "light": sorted([[*sq, lvl.value] for sq, lvl in env.light.items()]),
        "fire": sorted([list(sq) for sq in env.fire]),
        "gas": sorted([list(sq) for sq in env.gas]),
        "veils": sorted([[*sq, v.cause.value, v.level.value] for sq, v in env.veils.items()]),
        "water": sorted([[*sq, d] for sq, d in env.water_depth.items()]),
        "hazards": sorted([[*sq, kind] for sq, kind in env.hazard_terrain.items()]),
        "rubble": sorted([list(sq) for sq in env.rubble | env.debris]),
    }


def _mod(m: Modifier) -> dict[str, Any]:
    return {"value": m.value, "label": m.label, "rule": str(m.rule)}


def _attack_from(state: EncounterState, attacker: Combatant, target: Combatant,
                 weapon_id: str | None = None) -> dict[str, Any]:
    """Flanking (a melee attack's) and cover (an attack with the weapon named, else its first) against the target."""
    melee = situation(state, attacker, target, ranged=False)
    flank_with: list[str] = []
    not_flanking: list[dict[str, str]] = []
    for ally in state.allies_of(attacker.id):
        if not (ally.space and target.space and attacker.space and flanks(attacker.space, ally.space, target.space)):
            continue
        if flanking_ally(state, ally, ally.condition_set, ally.space, target.space):
            flank_with.append(ally.id)
        else:  # opposite the attacker, but down, out of reach, or unable to flank (POS-3)
            stopped = provides_flanking(ally.condition_set, state.ruleset)
            not_flanking.append({"ally": ally.id, "rule": str(stopped or "POS-1")})
    weapon = next((w for w in attacker.weapons if w.id == weapon_id), attacker.weapons[0] if attacker.weapons else None)
    mode = mode_for(weapon)
    ranged = is_ranged_attack(weapon, mode)
    sit = melee if not ranged else situation(state, attacker, target, ranged=True)
    dv = target_defense(state, attacker, target, weapon, mode, sit)
    cover_mods = [_mod(m) for m in dv.modifiers.applied if m.kind is ModifierKind.COVER]
    return {
        "attacker": attacker.id,
        "flanking": {"flanked": melee.flanking, "with": flank_with if melee.flanking else [],
                     "not_flanking": not_flanking, "rule": "POS-1",
                     "modifier": {"value": state.ruleset.attack.flanking, "label": "flanking", "rule": "AMOD-1"}
                     if melee.flanking else None},
        "cover": {"weapon": weapon.id if weapon else None, "ranged": ranged, "level": sit.cover.value,
                  "counted": dv.cover.value, "modifiers": cover_mods,
                  "untargetable": str(dv.untargetable_reason) if dv.untargetable_reason else None,
                  "notes": [str(n) for n in dv.notes]},
        "high_ground": sit.high_ground,
        "dv": {"total": dv.total, "parts": [_mod(m) for m in dv.modifiers.applied]},
    }


def tactics(state: EncounterState, target_id: str, attacker_id: str | None = None,
            weapon_id: str | None = None) -> dict[str, Any]:
    """Flanking and cover against one target from each creature hostile to it that is fighting on the map.

    The chosen attacker (default: the active creature, when hostile to the target) comes first. Each entry
    says whether a melee attack from it flanks the target (POS-1, AMOD-1) and with which allies, which allies
    stand opposite but do not flank (POS-3 …), and the cover an attack with its first weapon (the chosen
    attacker's: ``weapon_id`` when it has it) meets (COV-1..3, X-01, STC) with the target's DV parts.

    Raises:
        KeyError: For an unknown target or attacker.
    """
    target = state.get(target_id)
    first = state.get(attacker_id) if attacker_id else state.combatants.get(state.active_id or "")
    out: dict[str, Any] = {"target": target.id, "attacker": None, "on_map": bool(state.board and target.space),
                           "attackers": []}
    if not out["on_map"]:
        return out
    hostile = [c for c in state.combatants.values() if c.side != target.side and c.fighting and c.space]
    if first is not None and first in hostile:
        out["attacker"] = first.id
        hostile = [first, *(c for c in hostile if c is not first)]
    out["attackers"] = [_attack_from(state, c, target, weapon_id if c.id == out["attacker"] else None)
                        for c in hostile]
    return out


def _dc(triggers: Iterable[mr.Trigger], state: EncounterState, outnumbered: bool) -> dict[str, Any]:
    dc = mr.morale_dc(triggers, state.ruleset, outnumbered=outnumbered)
    return {"dc": dc.total, "rule": str(dc.rule), "parts": [_mod(m) for m in dc.parts.applied],
            "outnumbered": outnumbered}


def _forecast(state: EncounterState, key: str, members: list[Combatant], leader: Combatant | None
              ) -> list[dict[str, Any]]:
    """The checks the group's next events would call for (MOR-7..10, MOR-12), each with its DC's parts."""
    rs = state.ruleset
    record = state.morale.get(key, GroupMorale())
    own, others = morale.side_counts(state, members[0].side)
    size, before = len(members), len(record.casualties)
    out: list[dict[str, Any]] = []

    def when(event: str, facts: mr.EventFacts, own_after: int) -> None:
        fired = mr.triggers_for(facts, rs) & mr.GROUP_TRIGGERS
        if fired:
            out.append({"event": event, "triggers": [{"trigger": t.value, "rule": str(mr.TRIGGERS[t].rule)}
                                                     for t in mr.Trigger if t in fired],
                        **_dc(fired, state, mr.is_outnumbered(own_after, others))})

    if any(m.fighting for m in members):
        when("next-drop", mr.EventFacts(size, before, 1, first_blood_done=record.first_blood_done), own - 1)
    if leader is not None:
        in_group = any(m.id == leader.id for m in members)
        when("leader-down", mr.EventFacts(size, before, 1 if in_group else 0, leader_down=True,
                                          first_blood_done=record.first_blood_done), own - 1)
    out.append({"event": "fear", "triggers": [{"trigger": mr.Trigger.FEAR_EFFECT.value,
                                               "rule": str(mr.TRIGGERS[mr.Trigger.FEAR_EFFECT].rule)}],
                **_dc({mr.Trigger.FEAR_EFFECT}, state, mr.is_outnumbered(own, others))})
    for more in range(1, size - before + 1):  # how many more drops until Half Strength (MOR-9)
        if mr.Trigger.HALF_STRENGTH in mr.triggers_for(mr.EventFacts(size, before, more), rs):
            out.append({"event": "half-strength", "drops": more,
                        "rule": str(mr.TRIGGERS[mr.Trigger.HALF_STRENGTH].rule)})
            break
    return out


def _last_checks(events: Sequence[ev.Event]) -> dict[str, dict[str, Any]]:
    last: dict[str, dict[str, Any]] = {}
    for e in events:
        if isinstance(e, ev.MoraleChecked):
            last[e.group] = {"actor": e.actor or None, "kind": e.kind, "triggers": list(e.triggers),
                             "total": e.roll.total, "dc": e.dc, "outcome": e.outcome, "rule": e.rule,
                             "parts": [{"value": p.value, "label": p.label, "rule": str(p.rule)} for p in e.dc_parts]}
    return last


def morale_panel(state: EncounterState, events: Sequence[ev.Event] = (),
                 pending: dict[str, Any] | None = None) -> dict[str, Any]:
    """Each NPC group's morale for the GM: status, Will, the checks due and forecast, the last check made.

    Args:
        state: The fight now.
        events: The live line's events (for the last check each group made).
        pending: The fight's pending request: a morale dice request is the check due now.
    """
    if not state.ruleset.morale.enabled:
        return {"active": False, "rule": "E-33", "reason": "this ruleset has no morale rules", "groups": []}
    if not state.morale_enabled:
        return {"active": False, "rule": "MOR-38", "reason": "morale is off for this encounter", "groups": []}
    rs = state.ruleset
    due = pending.get("dice") if pending and pending.get("dice", {}).get("kind") == "morale" else None
    last = _last_checks(events)
    groups = []
    for key, members in morale.groups(state).items():
        side = members[0].side
        record = state.morale.get(key, GroupMorale())
        checkers = [m for m in members if m.fighting and morale.member_status(m) in mr.CHECKABLE]
        will = mr.group_will([mr.morale_will(m.creature, rs) for m in checkers]) if checkers else None
        leader = next((c for c in state.combatants.values() if c.side == side and c.creature.leader
                       and c.fighting and mr.unable_to_command(c.condition_set) is None), None)
        groups.append({
            "group": key, "side": side, "status": record.status.value, "rallied": record.rallied,
            "first_blood_done": record.first_blood_done, "casualties": list(record.casualties),
            "size": len(members), "leader": leader.id if leader else None,
            "members": [{"id": m.id, "status": morale.member_status(m).value, "fighting": m.fighting}
                        for m in members],
            "will": _mod(will.modifier) if will else None,
            "due": due if due is not None and due.get("source") == key else None,
            "forecast": _forecast(state, key, members, leader) if checkers else [],
            "rally_dc": {"dc": record.failed_dc, "rule": "G-04"}
            if record.failed_dc is not None and record.status is not mr.Status.HOLD else None,
            "last_check": last.get(key),
        })
    immune = [{"id": c.id, "rule": str(rule_id)} for c in state.combatants.values()
              if c.controller != "human" and (rule_id := morale.immune_rule(state, c)) is not None]
    return {"active": True, "rule": "MOR-1", "groups": groups, "immune": immune}


def rail_marks(state: EncounterState, events: Sequence[ev.Event] = ()) -> dict[str, Any]:
    """Delay and Ready for the initiative rail: who delayed and waits for its new place, each readied action.

    A creature that delayed (DEL-2) is marked until its next turn starts; a readied action (RDY-2) lasts
    until it fires or its creature's next turn starts (RDY-4), as the state keeps it.
    """
    delayed: dict[str, dict[str, Any]] = {}
    for e in events:
        if isinstance(e, ev.InitiativeChanged) and e.rule == "DEL-2":  # not a GM's new order, nor a mount's
            at = e.order.index(e.actor)
            delayed[e.actor] = {"actor": e.actor, "after": e.order[at - 1] if at else None, "rule": e.rule}
        elif isinstance(e, ev.TurnStarted):
            delayed.pop(e.actor, None)
    readied = [{"actor": r.actor, "rule": r.rule,
                "action": {"kind": r.action.kind, "target": r.action.target, "weapon": r.action.weapon,
                           "path": [list(sq) for sq in r.action.path]},
                "trigger": {"kind": r.trigger.kind, "squares": [list(sq) for sq in r.trigger.squares],
                            "creature": r.trigger.creature},
                "until": "start of its next turn (RDY-4)"} for r in state.readied]
    return {"delayed": list(delayed.values()), "readied": readied}


__all__ = ["morale_panel", "rail_marks", "scene", "tactics"]
