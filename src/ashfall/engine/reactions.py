"""Reactions: triggers, the registry of reactions, and offering them to controllers (RX-1..5).

A resolver that reaches a trigger point calls :func:`offer`. Eligible creatures are asked in a fixed
order (initiative order, then roster order); each may spend its one reaction per round (AE-2, RX-1)
on one of the reactions it qualifies for, and at most one reaction per triggering event (RX-4;
edition 1 lets a creature with more reactions per round spend several on one event, E-13).
Flat-footed, surprised (round 1) and incapacitated creatures cannot react (FF-3, SUR-2, C-INC).
A reaction's resolver returns an :class:`Effect` that the triggering resolver reads (Intercept
redirects, Deflect reduces, Sentinel stops movement).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ashfall.core.rule_ids import RuleId, rule
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.decisions import Decision, Option
from ashfall.engine.effects import EffectKind
from ashfall.engine.state import Combatant, EncounterState
from ashfall.rules import conditions as cond


class TriggerKind(Enum):
    """The kinds of triggering events reactions answer."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast (hot dict keys)

    LEAVES_REACH = "leaves-reach"
    RANGED_ATTACK_IN_REACH = "ranged-attack-in-reach"
    MELEE_ATTACK_DECLARED = "melee-attack-declared"
    HIT_BY_RANGED = "hit-by-ranged"
    RANGED_HIT = "ranged-hit"
    AREA_TARGETED = "area-targeted"
    CHARGE_ENDS = "charge-ends"
    SPELL_CAST = "spell-cast"
    DISARM_FAILED = "disarm-failed"
    MOVED = "moved"
    ATTACKED = "attacked"
    EMERGES = "emerges"


@dataclass(frozen=True, slots=True)
class Trigger:
    """One triggering event.

    Attributes:
        kind: What happened.
        actor: The creature that caused it (the mover, the shooter, the caster).
        target: The creature it concerns (the attack's target), or None.
        data: Extra facts reactions need (``("damage", 7)``, ``("from", (3, 4))`` …), as sorted pairs.
        only: If set, the only creatures that may react (the AoO after a failed Disarm goes to the target).
    """

    kind: TriggerKind
    actor: str
    target: str | None = None
    data: tuple[tuple[str, object], ...] = ()
    only: frozenset[str] | None = None

    def get(self, key: str, default: object = None) -> object:
        """A value from ``data``."""
        return dict(self.data).get(key, default)


@dataclass(frozen=True, slots=True)
class Effect:
    """What a reaction did to the triggering action."""

    redirect_to: str | None = None
    damage_reduction: int = 0
    stop_movement: RuleId | None = None
    reflex_bonus: int = 0
    cancelled: RuleId | None = None
    notes: tuple[RuleId, ...] = ()


NO_EFFECT = Effect()

Eligible = Callable[[EncounterState, Combatant, Trigger], bool]
ResolveReaction = Callable[[Context, Combatant, Trigger], Effect]


@dataclass(frozen=True, slots=True)
class ReactionDef:
    """A reaction: its rule, what triggers it, who qualifies and what it does."""

    key: str
    label: str
    rule: RuleId
    triggers: frozenset[TriggerKind]
    eligible: Eligible
    resolve: ResolveReaction


_RX_1, _RX_3, _DEATH_1, _SUR_2, _C_INC = (rule(r) for r in ("RX-1", "RX-3", "DEATH-1", "SUR-2", "C-INC"))


ReactionVeto = Callable[[EncounterState, Combatant], "RuleId | None"]
"""A family's veto on reacting (the rulebook's ``reaction_veto``): the rule that stops this creature, or None."""


def can_react(state: EncounterState, c: Combatant) -> RuleId | None:
    """None if the creature may spend a reaction now, else the rule that stops it."""
    if not c.reaction_available:
        return _RX_1
    if c.health.is_down:
        return _DEATH_1
    if c.surprised and state.round <= 1:
        return _SUR_2
    for veto in state.rulebook.reaction_vetoes:  # installed by families: morale's broken or fled (MOR-20, MOR-22)
        barred = veto(state, c)
        if barred is not None:
            return barred
    if not c.conditions:  # up (tested above) with none applied: condition_set is empty, which may react
        return None
    verdict = cond.can_react(c.condition_set, state.ruleset)
    if not verdict.allowed:
        return verdict.rule or _C_INC
    return None


def shielded(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    """Whether the trigger's actor is safe from this reactor (Overrun, OVR-4, OVR-6).

    An Overrun target cannot react against the mover; a critical Overrun lets it provoke no reactions.
    """
    if state.effects_on(trigger.actor, EffectKind.NO_REACTIONS_PROVOKED):
        return True
    return any(e.against == trigger.actor for e in state.effects_on(reactor.id, EffectKind.NO_REACTIONS_AGAINST))

_ORDERS: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
_ORDERS_MAX = 256
"""Who is asked first, by (initiative order, roster order): the ids sorted as :func:`_reactors` sorts them.

Why: every trigger asks for this order and it changes only when initiative or the roster does. The key holds
both orders in full, so an entry is a pure function of its key and never stale; bounded, emptied when full."""


def _reactors(state: EncounterState, trigger: Trigger) -> list[Combatant]:
    combatants = state.combatants
    key = (tuple(state.order), tuple(combatants))
    ids = _ORDERS.get(key)
    if ids is None:
        order = {cid: i for i, cid in enumerate(key[0])}
        roster = key[1]
        ids = tuple(sorted(roster, key=lambda cid: (order.get(cid, len(order)), roster.index(cid))))
        if len(_ORDERS) >= _ORDERS_MAX:
            _ORDERS.clear()
        _ORDERS[key] = ids
    only = trigger.only
    if only is None:
        return [combatants[cid] for cid in ids]
    return [combatants[cid] for cid in ids if cid in only]


def offer(ctx: Context, trigger: Trigger) -> list[Effect]:
    """Offer the reactions this trigger allows to every eligible creature; resolve the ones taken.

    Returns:
        The effects of the reactions taken, in the order they resolved.
    """
    effects: list[Effect] = []
    answering = ctx.state.rulebook.reactions_by_kind.get(trigger.kind, ())
    if not answering:
        return effects  # no reaction answers this kind of trigger: nobody need be asked
    state = ctx.state  # a context's state is never replaced while it resolves
    for c in _reactors(state, trigger):
        if not c.reaction_available:
            continue  # can_react's first test (RX-1), made here: most creatures asked have spent theirs
        while can_react(state, c) is None and not shielded(state, c, trigger):
            effect = _ask(ctx, c, trigger, answering)
            if effect is None:
                break
            effects.append(effect)
            if ctx.ruleset.turn.one_reaction_per_trigger:
                break  # RX-4: one reaction per triggering event; edition 1 has no such limit (E-13)
    return effects


def _ask(ctx: Context, c: Combatant, trigger: Trigger, answering: tuple[ReactionDef, ...]) -> Effect | None:
    """Offer one creature the reactions it qualifies for (of ``answering``, the ones for this trigger's kind).

    Resolves the one it takes; None when it takes none.
    """
    state = ctx.state
    options = [d for d in answering if d.eligible(state, c, trigger)]
    if not options:
        return None
    decision = Decision(c.id, "reaction", trigger.kind.value, tuple(Option(d.key, d.label, d.rule) for d in options),
                        True, _RX_3, trigger.actor)
    choice = ctx.decide(decision)
    if choice is None:
        return None
    chosen = state.rulebook.reactions[choice]
    ctx.emit(ev.ReactionSpent(c.id, chosen.label, chosen.rule))
    return chosen.resolve(ctx, c, trigger)


@dataclass(slots=True)
class Combined:
    """Several reactions' effects folded together for the triggering resolver."""

    redirect_to: str | None = None
    damage_reduction: int = 0
    stop_movement: RuleId | None = None
    reflex_bonus: int = 0
    cancelled: RuleId | None = None
    notes: list[RuleId] = field(default_factory=list)


def combine(effects: list[Effect]) -> Combined:
    """Fold effects: the first redirect and stop win; reductions and bonuses add."""
    out = Combined()
    for e in effects:
        out.redirect_to = out.redirect_to or e.redirect_to
        out.stop_movement = out.stop_movement or e.stop_movement
        out.cancelled = out.cancelled or e.cancelled
        out.damage_reduction += e.damage_reduction
        out.reflex_bonus = max(out.reflex_bonus, e.reflex_bonus)
        out.notes.extend(e.notes)
    return out
