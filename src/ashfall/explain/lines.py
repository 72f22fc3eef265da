"""Explaining a fight as text: pure functions from logged events to plain-text lines (rules never format).

:func:`event_lines` turns one event into its headline and, with ``explain``, the why: each d20 with
its faces, every modifier and DV part with its rule ID, advantage sources, damage dice with their
faces and the damage ledger rows (G-39). :func:`log_lines` does a whole log with round headings.
Dispatch is by event type (:data:`HEADLINES`, :data:`DETAILS`); events this module does not know get a
generic line naming their type and rule, so new event types never break a printout. Internal counters
(:data:`INTERNAL_COUNTERS`, e.g. the Strike-action count behind MAP) are no lines at all: the events
they count already have theirs. No rich markup: the lines are plain text that any front end (the CLI,
``examples/duel.py``, a web page) can show; :mod:`ashfall.explain.rows` gives the same as structured rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ashfall.engine import events as ev
from ashfall.explain.hazards import HAZARD_BOOKKEEPING, HAZARD_HEADLINES
from ashfall.rules.health import Vitality

Names = Mapping[str, str]
"""Display names by combatant id (an id without a name shows as itself)."""

NO_NAMES: Names = MappingProxyType({})
INDENT = "    "

Headline = Callable[[Any, Names], str]
Detail = Callable[[Any], list[str]]

INTERNAL_COUNTERS = frozenset({"strike-action", "free-action", "offhand", "feint"})
"""Resource pools that only count for the engine (MAP's Strike actions E-01, free actions AE-3, the off-hand
Strike TWF-3, feints against a target FNT-7): the actions they count have their own lines."""


def is_internal(event: object) -> bool:
    """Whether an event is an internal counter that is never shown as a line."""
    return type(event) is ev.ResourceUsed and event.resource.partition(":")[0] in INTERNAL_COUNTERS


def _n(names: Names, cid: str | None) -> str:
    return "-" if cid is None else names.get(cid, cid)


def signed(value: int) -> str:
    """``+3`` / ``-2``."""
    return f"{value:+d}"


def part_text(part: ev.Part) -> str:
    """One labelled number with its rule: ``+4 MIG [ATK-1]``."""
    return f"{signed(part.value)} {part.label} [{part.rule}]"


def roll_text(roll: ev.RollRecord) -> str:
    """A d20 test: faces (and which was kept), each modifier with its rule, the total."""
    faces = ", ".join(str(f) for f in roll.faces)
    kept = "" if len(roll.faces) == 1 else f" {roll.advantage}, kept {roll.natural}"
    mods = " ".join(part_text(p) for p in roll.modifiers)
    return f"d20 [{faces}]{kept} {mods} = {roll.total}".replace("  ", " ")


def source_lines(roll: ev.RollRecord) -> list[str]:
    """Each advantage or disadvantage source with its rule."""
    return [f"{'advantage' if s.advantage else 'disadvantage'}: {s.label} [{s.rule}]" for s in roll.sources]


def dv_text(dv: int, parts: Sequence[ev.Part]) -> str:
    """``DV 13 = +10 base [DV-1] +1 AGI [DV-1] ...``."""
    return f"DV {dv} = " + " ".join(part_text(p) for p in parts)


def rolled_part_text(p: ev.RolledPart) -> str:
    """One damage part: ``1d12 [7] slashing (Greataxe) [DMG-2]`` or ``+4 slashing (MIG) [DMG-2]``."""
    if p.dice:
        faces = ", ".join(str(f) for f in p.faces)
        doubled = " doubled on the crit" if p.doubled else ""
        flat = f" {signed(p.flat)}" if p.flat else ""
        return f"{p.dice}{doubled} [{faces}]{flat} = {p.total} {p.damage_type} ({p.label}) [{p.rule}]"
    return f"{signed(p.flat)} {p.damage_type} ({p.label}) [{p.rule}]"


def ledger_row_text(row: ev.LedgerLine) -> str:
    """One ledger row: ``dr: slashing 11 -> 8 (Combat Plate) [DR-1]``."""
    return f"{row.step}: {row.damage_type} {row.before} -> {row.after} ({row.label}) [{row.rule}]"


def _health(e: ev.DamageTaken | ev.HealthSet) -> str:
    h = e.health
    state = "" if h.vitality is Vitality.ALIVE else f", {h.vitality.value}"
    temp = f" (+{h.temp_hp} temp)" if h.temp_hp else ""
    return f"{h.hp}/{h.max_hp} HP{temp}{state}"


def _attack(e: ev.AttackRolled, n: Names) -> str:
    return (f"{_n(n, e.actor)}: {e.label} at {_n(n, e.target)} with {e.weapon}: {e.roll.total} vs DV {e.dv}"
            f" -> {e.outcome.upper()} [{e.rule}]")


def _damage_rolled(e: ev.DamageRolled, n: Names) -> str:
    crit = "critical " if e.critical else ""
    texts = [rolled_part_text(p) for p in e.parts]
    joined = " ".join([texts[0], *(t if t[0] in "+-" else f"+ {t}" for t in texts[1:])]) if texts else "nothing"
    return f"{crit}damage to {_n(n, e.target)}: {joined} = {e.total}"


def _check(e: ev.CheckRolled, n: Names) -> str:
    got = roll_text(e.roll) if e.roll is not None else f"automatic ({e.auto})"
    return f"{_n(n, e.actor)}: {e.label}: {got} vs {e.against} -> {'success' if e.success else 'failure'} [{e.rule}]"


def _ended(e: ev.CombatEnded, n: Names) -> str:
    who = f"{e.winner} wins" if e.winner else "nobody wins"
    return f"The fight is over after round {e.round}: {who} [{e.rule}]"


HEADLINES: dict[type, Headline] = {
    ev.CombatStarted: lambda e, n: f"Combat starts ({e.ruleset}, seed {e.seed}): "
                                   + ", ".join(_n(n, c) for c in e.roster),
    ev.InitiativeRolled: lambda e, n: f"{_n(n, e.actor)} rolls initiative: {roll_text(e.roll)} [{e.rule}]",
    ev.OrderSet: lambda e, n: "Turn order: " + ", ".join(_n(n, c) for c in e.order) + f" [{e.rule}]",
    ev.Surprise: lambda e, n: f"{_n(n, e.actor)} is {'surprised' if e.surprised else 'not surprised'}: "
                              f"Stealth {e.stealth} vs passive Perception {e.passive} [{e.rule}]",
    ev.RoundStarted: lambda e, n: f"== Round {e.round} ==",
    ev.TurnStarted: lambda e, n: f"{_n(n, e.actor)}'s turn: {e.actions} actions [{e.rule}]",
    ev.TurnSkipped: lambda e, n: f"{_n(n, e.actor)} skips its turn: {e.reason} [{e.rule}]",
    ev.ActionsSpent: lambda e, n: f"{_n(n, e.actor)}: {e.label} ({e.count} action{'s' if e.count != 1 else ''}"
                                  f"{', bonus' if e.bonus else ''}) [{e.rule}]",
    ev.ReactionSpent: lambda e, n: f"{_n(n, e.actor)} reacts: {e.label} [{e.rule}]",
    ev.Moved: lambda e, n: f"{_n(n, e.actor)} moves {e.frm} -> {e.to}: {e.cost_ft} ft ({e.mode}"
                           f"{', forced' if e.forced else ''}) [{e.rule}]",
    ev.MovementStopped: lambda e, n: f"{_n(n, e.actor)}'s movement stops [{e.rule}]",
    ev.AttackRolled: _attack,
    ev.DamageRolled: _damage_rolled,
    ev.DamageTaken: lambda e, n: f"{_n(n, e.target)} takes {e.amount} damage{' (critical)' if e.critical else ''}"
                                 f" -> {_health(e)} [{e.rule}]",
    ev.CheckRolled: _check,
    ev.HealthSet: lambda e, n: f"{_n(n, e.target)}: {e.label} -> {_health(e)} [{e.rule}]",
    ev.ConditionAdded: lambda e, n: f"{_n(n, e.target)} is {e.applied.condition.value} [{e.rule}]",
    ev.ConditionRemoved: lambda e, n: f"{_n(n, e.target)} is no longer {e.applied.condition.value} [{e.rule}]",
    ev.InitiativeChanged: lambda e, n: "New turn order: " + ", ".join(_n(n, c) for c in e.order) + f" [{e.rule}]",
    ev.MountChanged: lambda e, n: (f"{_n(n, e.actor)} mounts {_n(n, e.mount)}" if e.mount
                                   else f"{_n(n, e.actor)} dismounts") + (f" as {e.station}" if e.station else "")
                                  + f" [{e.rule}]",
    ev.CombatEnded: _ended,
    ev.GmRuled: lambda e, n: f"GM override ({e.kind}"
                             + (f": {', '.join(_n(n, t) for t in e.targets)}" if e.targets else "")
                             + f"): {e.reason} [{e.rule}]",
}
"""The line each event shows at the table."""

OTHER_HEADLINES: dict[str, Headline] = {
    "morale-checked": lambda e, n: f"Morale check ({e.group}{', ' + _n(n, e.actor) if e.actor else ''}): "
                                   f"{roll_text(e.roll)} vs DC {e.dc} -> {e.outcome} [{e.rule}]",
    "morale-changed": lambda e, n: f"Morale ({e.group}): "
                                   + (", ".join(f"{_n(n, c)} {s}" for c, s in e.members) or e.label) + f" [{e.rule}]",
    "spell-cast": lambda e, n: f"{_n(n, e.actor)} casts {e.spell}"
                               + (f" at {', '.join(_n(n, t) for t in e.targets)}" if e.targets else "")
                               + (f": countered [{e.countered}]" if e.countered else "") + f" [{e.rule}]",
    "combatant-joined": lambda e, n: f"{_n(n, e.id)} joins the fight on side {e.side}"
                                     + (f" at {list(e.position)}" if e.position is not None else "")
                                     + f", initiative {e.initiative} [{e.rule}]",
    "combatant-left": lambda e, n: f"{_n(n, e.actor)} leaves the fight [{e.rule}]",
    "action-noted": lambda e, n: f"{_n(n, e.actor)}: {e.label}{': ' + e.detail if e.detail else ''} [{e.rule}]",
    "item-dropped": lambda e, n: f"{_n(n, e.actor)} drops {e.item} [{e.rule}]",
    "item-picked-up": lambda e, n: f"{_n(n, e.actor)} picks up {e.item} [{e.rule}]",
    "dice-rolled": lambda e, n: f"{_n(n, e.actor)}: {e.label}: {e.dice} [{', '.join(map(str, e.faces))}]"
                                f" = {e.total} [{e.rule}]",
    "breath-changed": lambda e, n: (f"{_n(n, e.actor)} breathes freely" if e.rounds_left is None else
                                    f"{_n(n, e.actor)} holds its breath: {e.rounds_left} round"
                                    f"{'' if e.rounds_left == 1 else 's'} left"
                                    + (f" (-{e.spent}: {', '.join(e.reasons)})" if e.reasons else "")) + f" [{e.rule}]",
    "depth-changed": lambda e, n: f"{_n(n, e.actor)} {'sinks' if e.rule == 'UW-10' else 'swims'} "
                                  f"{'down' if e.change_ft > 0 else 'up'} {abs(e.change_ft)} ft to a depth of "
                                  f"{e.depth_ft} ft [{e.rule}]",
    "damage-spread": lambda e, n: f"{e.amount} {e.damage_type} damage spreads through the water from "
                                  f"{_n(n, e.target)} to {', '.join(_n(n, c) for c in e.affected)} "
                                  f"(within {e.radius_ft} ft{f', Reflex DC {e.dc} for half' if e.dc else ''})"
                                  f" [{e.rule}]",
    "vehicle-status": lambda e, n: f"{_n(n, e.vehicle)} is {e.status} [{e.rule}]",
    "ready-ended": lambda e, n: f"{_n(n, e.actor)}'s readied action is {'used' if e.used else 'lost'} [{e.rule}]",
    "guess-missed": lambda e, n: f"{_n(n, e.actor)} attacks square {list(e.square)} with {e.weapon}, guessing where "
                                 f"{_n(n, e.target)} is: wrong square, automatic miss [{e.rule}]",
}
"""Headlines of events other modules add, by their ``type`` (so a renamed class never breaks a printout)."""
OTHER_HEADLINES.update(HAZARD_HEADLINES)  # fire, smoke, gas, collapse, water (HAZ*)


def _object_destroyed(e: Any, n: Names) -> str:
    exposed = f"; {', '.join(_n(n, c) for c in e.exposed)} no longer covered by it" if e.exposed else ""
    return f"{e.name or e.object} {e.label}{exposed} [{e.rule}]"


_CHAIN_VERB = {"fuel": "explodes", "electrical": "discharges", "support": "gives way: the structure starts to collapse"}

OBJECT_HEADLINES: dict[str, Headline] = {
    "object-placed": lambda e, n: f"{e.obj.name} ({e.obj.id}): {e.label} [{e.rule}]",
    "object-damaged": lambda e, n: f"{e.name or e.object} takes {e.amount} damage ({e.label}) -> {e.hp} HP "
                                   f"[{e.rule}]",
    "object-destroyed": _object_destroyed,
    "chain-reaction": lambda e, n: f"{e.name or e.object} {_CHAIN_VERB.get(e.kind, 'reacts')} "
                                   f"({len(e.squares)} squares) [{e.rule}]",
    "chain-pending": lambda e, n: f"{e.name or e.object} "
                                  + ("may go off at the end of the round" if e.pending else "has its chain roll")
                                  + f" [{e.rule}]",
    "debris-fell": lambda e, n: f"Debris covers {len(e.squares)} square{'s' if len(e.squares) != 1 else ''}: "
                                f"difficult terrain [{e.rule}]",
}
"""Headlines of destructible objects and chain reactions (OBJ, STC, CHN, IEA)."""
OTHER_HEADLINES.update(OBJECT_HEADLINES)

BOOKKEEPING: dict[type, Headline] = {
    ev.ResourceUsed: lambda e, n: f"{_n(n, e.actor)}: {e.resource} {signed(e.delta)} [{e.rule}]",
    ev.DecisionMade: lambda e, n: f"{_n(n, e.actor)} decides {e.decision}: {e.choice or 'no'} [{e.rule}]",
    ev.TurnEnded: lambda e, n: f"{_n(n, e.actor)} ends its turn [{e.rule}]",
    ev.RoundEnded: lambda e, n: f"Round {e.round} ends [{e.rule}]",
    ev.BoundaryPassed: lambda e, n: f"{e.edge} of {_n(n, e.actor)}'s turn: "
                                    + (", ".join(f"{_n(n, cid)} no longer {a.condition.value}" for cid, a in e.expired)
                                       or "nothing expires"),
    ev.EffectAdded: lambda e, n: f"{_n(n, e.effect.bearer)} gains {e.effect.kind.value} [{e.rule}]",
    ev.EffectRemoved: lambda e, n: f"effect {e.key} ends [{e.rule}]",
}
"""Lines shown only when explaining (the counters and clocks behind the fight)."""
BOOKKEEPING[ev.FireTicked] = HAZARD_BOOKKEEPING["fire-ticked"]


def _attack_detail(e: ev.AttackRolled) -> list[str]:
    lines = [roll_text(e.roll), *source_lines(e.roll), dv_text(e.dv, e.dv_parts)]
    if e.reasons:
        lines.append("because: " + ", ".join(e.reasons))
    if not e.counts_for_map:
        lines.append("this attack does not count for the multiple attack penalty")
    return lines


DETAILS: dict[type, Detail] = {
    ev.AttackRolled: _attack_detail,
    ev.DamageTaken: lambda e: [ledger_row_text(r) for r in e.rows],
    ev.CheckRolled: lambda e: source_lines(e.roll) if e.roll is not None else [],
    ev.InitiativeRolled: lambda e: [f"tiebreak {e.tiebreak}"],
}
DETAILS[ev.ObjectDamaged] = lambda e: [ledger_row_text(r) for r in e.rows]
"""The breakdown lines under an event's headline when explaining."""


def _generic(e: Any, names: Names) -> str:
    who = getattr(e, "actor", None) or getattr(e, "target", None)
    prefix = f"{_n(names, who)}: " if isinstance(who, str) else ""
    return f"{prefix}{getattr(e, 'type', type(e).__name__)} [{getattr(e, 'rule', '?')}]"


def event_lines(event: Any, names: Names = NO_NAMES, explain: bool = True) -> list[str]:
    """The lines one event prints: a headline, then (``explain``) its breakdown indented.

    Bookkeeping events (resources, decisions, turn boundaries) print only when explaining; an event
    type this module does not know prints a generic line when explaining; internal counters
    (:func:`is_internal`) never print.
    """
    if is_internal(event):
        return []
    headline = HEADLINES.get(type(event)) or OTHER_HEADLINES.get(getattr(event, "type", ""))
    if headline is None:
        if not explain:
            return []
        headline = BOOKKEEPING.get(type(event), _generic)
    lines = [headline(event, names)]
    detail = DETAILS.get(type(event))
    if explain and detail is not None:
        lines += [INDENT + line for line in detail(event)]
    return lines


def log_lines(events: Iterable[Any], names: Names = NO_NAMES, explain: bool = True) -> list[str]:
    """A whole log, event after event (rounds start with a ``== Round n ==`` heading)."""
    return [line for e in events for line in event_lines(e, names, explain)]


def names_of(roster: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Display names from ``(id, name)`` pairs, numbering repeated names ("Raider 1", "Raider 2")."""
    pairs = list(roster)
    counts: dict[str, int] = {}
    for _, name in pairs:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for cid, name in pairs:
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            out[cid] = f"{name} {seen[name]}"
        else:
            out[cid] = name
    return out
