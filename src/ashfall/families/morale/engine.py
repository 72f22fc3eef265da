"""Morale in the engine: triggers per NPC group, one check per event, statuses on combatants, Rally (MOR).

The rules live in :mod:`ashfall.families.morale.rules` and :mod:`ashfall.families.morale.rules_behaviour`; this module
only
detects what happened and emits events.

* **Groups (MOR-4).** With ``morale.grouping = side`` (default) every NPC of a side that can check morale is
  one group, keyed by the side's name; with ``side-and-type`` there is one group per morale type within a
  side, keyed ``"side/type"``. PCs (MOR-2) and immune NPCs (MOR-33, MOR-35, G-01, MOR-37) belong to no group,
  so their falls are nobody's casualties. A leader (stat block ``leader``) commands every group of its side.
  A group rolls with the Will most of its checking members share (ties: the lower, MOR-4) and has
  disadvantage only from conditions every checking member has (Shaken on all of them, G-14, MOR-30).
* **Events (MOR-11..13).** One damage (an after-damage hook) or one condition taking
  hold (:data:`~ashfall.engine.harm.AFTER_CONDITION`) is one event, unless the code that causes several
  wraps them in :func:`one_event` (an area attack; a spell, with ``magical=True`` for the
  ``ally-killed-by-magic`` Breaking Point). Per event: Breaking Points first (no roll, MOR-27), then one
  check per group with all its triggers' modifiers; a Fear Effect checks the frightened NPC alone (MOR-10)
  unless its group checks for the same event anyway (MOR-12).
* **Statuses** live on combatants as :class:`~ashfall.families.morale.rules.MoraleMark` s in ``Combatant.supplies``
  (falling back, broken, routed, surrendered; fled once it left): reactions read broken and fled (MOR-22, MOR-20),
  the victory check surrendered and fled. A newly broken NPC acts by its morale type (MOR-24): the behaviour is
  logged (``action-noted``) and kept on the combatant (an animal's direction too); fleeing ones drop two-handed
  weapons (MOR-21). Each group's record is ``state.morale[key]``.
* **Off switches.** ``morale.enabled`` (off in edition 1, E-33), ``state.morale_enabled`` for one encounter
  (MOR-38), ``state.morale_immune`` for sides or creatures (MOR-37).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ashfall.content.schema import BreakingOutcome
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Refused, refuse
from ashfall.engine.context import Context
from ashfall.engine.records import Keyed, Tally, entry_name, use_name
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.morale import rules as mr
from ashfall.families.morale.rules import CHECKABLE, STATUS_MARKS, GroupMorale, MoraleMark, Status, Trigger
from ashfall.families.morale.rules_behaviour import (
    DIRECTIONS,
    BreakingFacts,
    break_behaviour,
    breaking_points_met,
    breaking_status,
    cornered,
    cornered_behaviour,
    deciding_point,
    dropped_on_break,
    flee_direction,
)
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import AppliedCondition, conditions_of
from ashfall.rules.damage import DamageResult
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset.sections import BreakBehaviour, MoraleGrouping

G_03, G_04, MOR_9, MOR_10, MOR_20, MOR_21, MOR_22, MOR_23, MOR_24, MOR_27 = (
    rule(i) for i in ("G-03", "G-04", "MOR-9", "MOR-10", "MOR-20", "MOR-21", "MOR-22", "MOR-23", "MOR-24", "MOR-27"))
FLEEING = frozenset({Status.BROKEN, Status.ROUTED})


# ----- reading the state -----


def morale_active(state: EncounterState) -> bool:
    """Morale applies: the ruleset has it (E-33) and this encounter uses it (MOR-38)."""
    return state.ruleset.morale.enabled and state.morale_enabled


def immune_rule(state: EncounterState, c: Combatant) -> RuleId | None:
    """Why a combatant never checks morale (MOR-2, MOR-33, MOR-35, G-01, MOR-37), or None."""
    declared = c.id in state.morale_immune or c.side in state.morale_immune
    return mr.immunity(c.creature, state.ruleset, encounter_immune=declared)


def group_key(state: EncounterState, c: Combatant) -> str | None:
    """The morale group of a combatant (MOR-4), or None for PCs and the immune."""
    if immune_rule(state, c) is not None:
        return None
    if state.ruleset.morale.grouping is MoraleGrouping.SIDE_AND_TYPE:
        return f"{c.side}/{c.creature.morale.type}"
    return c.side


def groups(state: EncounterState) -> dict[str, list[Combatant]]:
    """Every morale group and its members (dead ones included), in roster order."""
    out: dict[str, list[Combatant]] = {}
    for c in state.combatants.values():
        key = group_key(state, c)
        if key is not None:
            out.setdefault(key, []).append(c)
    return out


_MARKED = tuple((s, STATUS_MARKS[s]) for s in reversed(Status) if STATUS_MARKS[s])
"""The statuses that leave marks, worst first, with their marks (a constant table, read once at import)."""


def member_status(c: Combatant) -> Status:
    """A combatant's morale status, read from its marks."""
    marks = c.supplies.marks
    if not marks:
        return Status.HOLD  # no marks at all (read for every creature in every morale and policy question)
    for status, needed in _MARKED:
        if needed <= marks:
            return status
    return Status.HOLD


def side_counts(state: EncounterState, side: str) -> tuple[int, int]:
    """Active combatants of a side and of its opponents."""
    own = sum(1 for c in state.combatants.values() if c.fighting and c.side == side)
    others = sum(1 for c in state.combatants.values() if c.fighting and c.side != side)
    return own, others


# ----- events -----


@dataclass(slots=True)
class _Batch:
    """What one event did: creatures dropped to 0 HP, leaders put down, NPCs frightened."""

    magical: bool = False
    downed: list[str] = field(default_factory=list)
    leaders_down: list[str] = field(default_factory=list)
    feared: list[str] = field(default_factory=list)


_BATCH: ContextVar[_Batch | None] = ContextVar("morale_event", default=None)


@contextmanager
def one_event(ctx: Context, *, magical: bool = False) -> Iterator[_Batch]:
    """Treat all damage and conditions inside as one event: at most one check per group (MOR-12)."""
    outer = _BATCH.get()
    if outer is not None:
        outer.magical = outer.magical or magical
        yield outer
        return
    batch = _Batch(magical)
    token = _BATCH.set(batch)
    try:
        yield batch
    finally:
        _BATCH.reset(token)
    _resolve(ctx, batch)


def _after_damage(ctx: Context, target: str, source: str, result: DamageResult) -> None:
    state = ctx.state
    if not morale_active(state):
        return
    if not (result.health_after.is_down and not result.health_before.is_down):
        # Nothing to record: inside a wider event the outer one resolves it; alone it is an event of its own
        # (any damage can meet a Breaking Point, hp-below-N%), resolved without the context manager's cost.
        if _BATCH.get() is None:
            _resolve(ctx, _Batch())
        return
    c = state.get(target)
    with one_event(ctx) as batch:
        batch.downed.append(target)
        if c.creature.leader and not mr.unable_to_command(conditions_of(c.conditions)):
            batch.leaders_down.append(target)


def _after_condition(ctx: Context, target: str, applied: AppliedCondition, before: frozenset[Condition]) -> None:
    if not morale_active(ctx.state) or applied.condition in before:
        return
    c = ctx.state.get(target)
    with one_event(ctx) as batch:
        if cond.morale_fear(applied.condition):
            batch.feared.append(target)
        if c.creature.leader and not mr.unable_to_command(before) and mr.unable_to_command(c.condition_set):
            batch.leaders_down.append(target)


def _resolve(ctx: Context, batch: _Batch) -> None:
    if not morale_active(ctx.state) or ctx.state.ended:
        return
    _breaking_points(ctx, batch)
    if not (batch.downed or batch.leaders_down or batch.feared):
        return  # no drop, leader down or fear: no group trigger fires and every group's record stays (MOR-7..10)
    covered: set[str] = set()
    for key, members in groups(ctx.state).items():
        covered |= _group_event(ctx, key, members, batch)
    for cid in dict.fromkeys(batch.feared):
        if cid not in covered:
            _fear_check(ctx, cid)


def _change(ctx: Context, key: str, changes: list[tuple[str, Status, Status]], record: GroupMorale | None,
            label: str, rule_id: RuleId, forced: BreakingOutcome | None = None) -> None:
    """Emit the status changes (and the group's record); breaking NPCs act by their type (:func:`_breaks`)."""
    moved = [(cid, new.value) for cid, old, new in changes if new is not old]
    if not moved and (record is None or record == ctx.state.morale.get(key, GroupMorale())):
        return
    ctx.emit(ev.MoraleChanged(key, tuple(moved), record, label, rule_id))
    for cid, old, new in changes:
        if new in FLEEING and old not in FLEEING:
            _breaks(ctx, key, cid, forced)
        elif old in FLEEING and new not in FLEEING and new is not Status.SURRENDERED:
            _clear_style(ctx, ctx.state.get(cid))  # rallied (G-04): it will break afresh if it breaks again


# ----- what a breaking NPC does, by its type (MOR-21, MOR-23, MOR-24) -----


FLEE_DIRECTION = entry_name(Tally.FLEE_DIRECTION)
"""The name of a fleeing animal's direction in ``Combatant.uses`` (1..8, clockwise from north; MOR-24)."""


BREAK_WORDS = {
    BreakBehaviour.FLEE: "flees", BreakBehaviour.SCATTER: "scatters", BreakBehaviour.SURRENDER: "surrenders",
    BreakBehaviour.FLEE_RANDOM: "flees in a random direction", BreakBehaviour.CHARGE: "makes a final charge",
    BreakBehaviour.COWER: "cowers",
}
"""How the log names each behaviour (000:542's words)."""


def break_style(c: Combatant) -> BreakBehaviour | None:
    """What a broken NPC does (its type's behaviour, MOR-24), read from its supplies; None if it has not broken."""
    supplies = c.supplies
    if not supplies.keyed:
        return None
    for style in BreakBehaviour:
        if supplies.of(Keyed.BREAK, style.value):
            return style
    return None


def _clear_style(ctx: Context, c: Combatant) -> None:
    for style in BreakBehaviour:
        held = c.supplies.of(Keyed.BREAK, style.value)
        if held:
            ctx.emit(ev.ResourceUsed(c.id, use_name((Keyed.BREAK, style.value)), -held, MOR_24))
    direction = c.supplies.count(Tally.FLEE_DIRECTION)
    if direction:
        ctx.emit(ev.ResourceUsed(c.id, use_name(Tally.FLEE_DIRECTION), -direction, MOR_24))


def _breaks(ctx: Context, key: str, cid: str, forced: BreakingOutcome | None) -> None:
    """A newly broken NPC acts by its type (000:542): the behaviour is logged (MOR-24), then carried out.

    Fleeing ones drop two-handed weapons (MOR-21); a charging zealot keeps them; a soldier (or, under the other
    reading, a bandit) surrenders at once; an animal rolls its random direction with the fight's dice.
    """
    c = ctx.state.get(cid)
    kind = c.creature.morale.type
    style = break_behaviour(kind, ctx.state.ruleset, forced)
    why = "its breaking point says flee" if forced is BreakingOutcome.FLEE else f"a broken {kind}"
    ctx.emit(ev.ActionNoted(cid, "breaks", f"{BREAK_WORDS[style]} ({why})", MOR_24))
    ctx.emit(ev.ResourceUsed(cid, use_name((Keyed.BREAK, style.value)), 1, MOR_24))
    if style is not BreakBehaviour.CHARGE:
        for weapon in dropped_on_break(c.weapons):
            ctx.emit(ev.ItemDropped(cid, weapon.id, c.position, MOR_21))
    if style is BreakBehaviour.FLEE_RANDOM:
        direction = DIRECTIONS.index(flee_direction(ctx.rng)) + 1
        ctx.emit(ev.ResourceUsed(cid, use_name(Tally.FLEE_DIRECTION), direction, MOR_24))
    elif style in (BreakBehaviour.SURRENDER, BreakBehaviour.COWER):
        ctx.emit(ev.MoraleChanged(key, ((cid, Status.SURRENDERED.value),), None,
                                  f"breaks: {style.value} ({c.creature.morale.type})", MOR_24))


def _checked(ctx: Context, key: str, actor: str, kind: str, check: mr.MoraleCheck, outcome: str,
             rule_id: str = "MOR-3") -> None:
    ctx.emit(ev.MoraleChecked(key, actor, kind, tuple(t.value for t in check.triggers), ev.RollRecord.of(check.roll),
                              check.dc.total, ev.parts(check.dc.parts.applied), outcome, rule_id))


def _group_event(ctx: Context, key: str, members: list[Combatant], batch: _Batch) -> set[str]:
    """Count casualties and roll the group's one check for this event; return the frightened it covered."""
    state, rs = ctx.state, ctx.state.ruleset
    ids = {m.id for m in members}
    side = members[0].side
    record = state.morale.get(key, GroupMorale())
    new_drops = [d for d in dict.fromkeys(batch.downed) if d in ids and d not in record.casualties]
    feared = {f for f in batch.feared if f in ids}
    facts = mr.EventFacts(len(members), len(record.casualties), len(new_drops),
                          any(state.get(leader).side == side for leader in batch.leaders_down), bool(feared),
                          record.first_blood_done)
    triggers = mr.triggers_for(facts, rs)
    updated = mr.record_casualties(record, new_drops)
    checkers = [m for m in members if m.fighting and member_status(m) in CHECKABLE]
    if not (triggers & mr.GROUP_TRIGGERS) or not checkers:
        _change(ctx, key, [], updated, "casualties", MOR_9)
        return set()
    will = mr.group_will([mr.morale_will(m.creature, rs) for m in checkers])
    shared = frozenset.intersection(*(m.condition_set for m in checkers))
    dc = mr.morale_dc(triggers, rs, outnumbered=mr.is_outnumbered(*side_counts(state, side)))
    # the group rolls once: at a table the die is its first checker's (whose controller rolls for the group)
    dice = ctx.roller(checkers[0].id, "morale", "MOR-1", source=key, dice=(1, 20))
    check = mr.morale_check(will, dc, dice, rs, triggers=triggers, conditions=shared)
    _checked(ctx, key, "", "group", check, check.outcome.value)
    changes = [(m.id, member_status(m), mr.next_status(member_status(m), check.outcome, updated.rallied))
               for m in members if m.fighting]
    _change(ctx, key, changes, mr.after_check(updated, check), f"morale check: {check.outcome.value}", G_03)
    return feared


def _fear_check(ctx: Context, cid: str) -> None:
    """A Fear Effect's check for the frightened NPC alone (MOR-10)."""
    state, rs = ctx.state, ctx.state.ruleset
    c = state.get(cid)
    key = group_key(state, c)
    old = member_status(c)
    if key is None or not c.fighting or old not in CHECKABLE:
        return
    dc = mr.morale_dc({Trigger.FEAR_EFFECT}, rs, outnumbered=mr.is_outnumbered(*side_counts(state, c.side)))
    dice = ctx.roller(cid, "morale", "MOR-10", source=key, dice=(1, 20))
    check = mr.morale_check(mr.morale_will(c.creature, rs), dc, dice, rs, triggers={Trigger.FEAR_EFFECT},
                            conditions=c.condition_set)
    _checked(ctx, key, cid, "fear", check, check.outcome.value, "MOR-10")
    rallied = state.morale.get(key, GroupMorale()).rallied
    _change(ctx, key, [(cid, old, mr.next_status(old, check.outcome, rallied))], None, "fear check", MOR_10)


def _breaking_points(ctx: Context, batch: _Batch) -> None:
    """Breaking Points met now force their status without a roll (MOR-27, MOR-28)."""
    state = ctx.state
    for c in state.combatants.values():
        if not c.creature.morale.breaking_points:  # the usual case, read before the (pure) group key
            continue
        key = group_key(state, c)
        if key is None or not c.fighting:
            continue
        allies, enemies = side_counts(state, c.side)
        facts = BreakingFacts(
            c.health.hp, c.health.max_hp,
            leader_killed=any(o.creature.leader and o.health.is_down for o in state.allies_of(c.id)),
            allies_active=allies, enemies_active=enemies,
            ally_killed_by_magic=batch.magical and any(state.get(d).side == c.side and d != c.id
                                                       for d in batch.downed),
        )
        met = breaking_points_met(c.creature.morale.breaking_points, facts, state.ruleset)
        forced = breaking_status(met)
        old = member_status(c)
        point = deciding_point(met)
        if forced is not None and point is not None and mr.worse(old, forced) is not old:
            _change(ctx, key, [(c.id, old, forced)], None, f"breaking point: {point.text} -> {point.outcome.value}",
                    MOR_27, point.outcome)


# ----- the AI's and movement's hooks -----


def settle_cornered(ctx: Context, cid: str) -> None:
    """The NPC has no reachable exit: a broken one surrenders (MOR-23), Fall Back ends (MOR-19, MOR-20)."""
    if not morale_active(ctx.state):
        return
    c = ctx.state.get(cid)
    key = group_key(ctx.state, c)
    if key is None:
        return
    old = member_status(c)
    new = cornered(old, ctx.state.ruleset)
    style = break_style(c)
    give_up = cornered_behaviour(style, ctx.state.ruleset) if old in FLEEING else None
    if old in FLEEING and give_up is None:
        return  # a charging zealot never gives up (MOR-24)
    if give_up is BreakBehaviour.COWER and new is Status.SURRENDERED:
        _clear_style(ctx, c)
        ctx.emit(ev.ActionNoted(cid, "cornered", f"{BREAK_WORDS[give_up]} (a broken {c.creature.morale.type})",
                                MOR_23))
        ctx.emit(ev.ResourceUsed(cid, use_name((Keyed.BREAK, give_up.value)), 1, MOR_23))
    label = f"cornered: {give_up.value}" if give_up is not None and new is Status.SURRENDERED else "cornered"
    _change(ctx, key, [(cid, old, new)], None, label, MOR_23)


def escaped(ctx: Context, cid: str) -> None:
    """A falling-back or broken NPC left the battlefield: it has fled (MOR-20)."""
    ctx.emit(ev.ResourceUsed(cid, use_name(MoraleMark.FLED), 1, MOR_20))


# ----- Rally -----


@dataclass(frozen=True, slots=True)
class Rally:
    """A leader spends an action to rally a falling-back or broken group of its side (G-04, MOR-25, MOR-26)."""

    actor: str
    group: str


def _attempt_key(state: EncounterState) -> tuple[Keyed, str]:
    """A rally attempted this round (G-04: at most one per turn)."""
    return Keyed.RALLY, str(state.round)


def _rally_cost(state: EncounterState, intent: Any) -> int:
    return state.ruleset.morale.rally_actions


def _rally_check(state: EncounterState, intent: Any) -> None:
    if not state.ruleset.morale.enabled:
        raise refuse("E-33", "this ruleset has no morale rules")
    if not state.morale_enabled:
        raise refuse("MOR-38", "morale is off in this encounter")
    c = state.get(intent.actor)
    if not c.creature.leader or c.creature.is_pc:
        raise refuse("MOR-25", "only a leader NPC can rally")
    members = groups(state).get(intent.group, [])
    if not members or members[0].side != c.side:
        raise refuse("MOR-25", f"{intent.group!r} is not a morale group of {c.name}'s side")
    try:
        mr.check_rally(state.morale.get(intent.group, GroupMorale()), c.condition_set, state.ruleset)
    except RuleViolation as err:
        raise Refused(err.rule, err.reason) from None
    if c.supplies.keyed.get(_attempt_key(state)):
        raise refuse("G-04", "a leader tries to rally at most once per turn")


def _rally_resolve(ctx: Context, intent: Any) -> None:
    state, rs = ctx.state, ctx.state.ruleset
    c = state.get(intent.actor)
    ctx.emit(ev.ResourceUsed(c.id, use_name(_attempt_key(state)), 1, G_04))
    result = mr.rally(mr.morale_will(c.creature, rs), state.morale.get(intent.group, GroupMorale()), ctx.rng, rs,
                      leader_conditions=c.condition_set)
    _checked(ctx, intent.group, c.id, "rally", result.check, "rallied" if result.success else "not-rallied", "G-04")
    if result.success:
        members = groups(state)[intent.group]
        changes = [(m.id, member_status(m), Status.HOLD) for m in members
                   if m.fighting and member_status(m) in (Status.FALL_BACK, Status.BROKEN)]
        _change(ctx, intent.group, changes, result.group, "rallied", G_04)


def _rally_candidates(state: EncounterState, actor: str) -> Iterator[Rally]:
    c = state.get(actor)
    if not c.creature.leader or not morale_active(state):
        return
    for key, members in groups(state).items():
        if members[0].side == c.side and state.morale.get(key, GroupMorale()).status in (Status.FALL_BACK,
                                                                                         Status.BROKEN):
            yield Rally(actor, key)


def morale_forbids_reactions(c: Combatant) -> RuleId | None:
    """The morale rule that stops a creature reacting, or None (the AI asks it too, before weighing a reaction).

    Installed as the rulebook's ``reaction_veto`` (see :func:`install`), asked by the core's reaction offering.

    A broken NPC makes no reactions (MOR-22), and so does one worse off: routed or surrendered (MOR-23), both of
    which are broken too. One that fled has left the battlefield (MOR-20), whichever status it fled from.
    """
    marks = c.supplies.marks
    if not marks:
        return None
    if MoraleMark.BROKEN in marks:
        return MOR_22
    if MoraleMark.FLED in marks:
        return MOR_20
    return None


def _reaction_veto(state: EncounterState, c: Combatant) -> RuleId | None:
    """The ``reaction_veto`` hook: :func:`morale_forbids_reactions`."""
    return morale_forbids_reactions(c)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Rally, ActionDef("rally", G_04, _rally_cost, _rally_resolve, _rally_check, _rally_candidates))
    book.after_damage(_after_damage)
    book.after_condition(_after_condition)
    book.reaction_veto("morale-broken", _reaction_veto)
