"""The turn structure: initiative, surprise, start and end of turns and rounds (INIT, SUR, AE, RX-1).

Start of turn: durations that end "at the start of …" expire, the reaction returns (RX-1), the
``before_acting`` hooks run (the dying family's death save, DEATH-2), and the action budget is set (AE-1,
Dazed G-13). The core names no family: what a family adds at these points it installs as a hook. End of
turn: "until the end of …" durations expire. End of round: the end-of-round hooks run in a fixed,
installed order (spreading hazards and chain reactions plug in here, HAZ-0).
"""

from __future__ import annotations

from collections.abc import Callable

from ashfall.core.d20 import D20Roll, roll_d20
from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.morale import MoraleMark
from ashfall.core.rng import Rng, ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Skill
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.effects import expire_effects
from ashfall.engine.state import Combatant, EncounterState
from ashfall.rules import conditions as cond
from ashfall.rules.checks import passive_perception
from ashfall.rules.condition_durations import TurnBoundary, TurnEdge, expire
from ashfall.ruleset.sections import InitiativeProficiency

INIT_1, INIT_3, SUR_1, SUR_2, E_21 = rule("INIT-1"), rule("INIT-3"), rule("SUR-1"), rule("SUR-2"), rule("E-21")
TIEBREAK_SIDES = 1_000_000

EndOfRoundHook = Callable[[Context], None]
"""A hook run at the end of each round (the rulebook's ``end_of_round``, in a documented, fixed order)."""
END_OF_ROUND_ORDER: tuple[str, ...] = ("chains", "fire", "gas", "collapse", "flood")
"""The fixed order of the named end-of-round hooks whatever the install order (HAZ-0, docs/battlefield.md):
pending chain reactions, fire, gas, the collapse countdown, then water. Other names run after, as installed."""

EndOfTurnHook = Callable[[Context, str], None]
"""Hooks (the rulebook's ``end_of_turn``) run at the end of every turn, before its boundary passes:
hook(ctx, whose turn). What lasts "until it ends a turn outside …" ends here (gas poisoning, G-29)."""

OrderHook = Callable[[EncounterState, list[str]], list[str]]
"""Hooks (the rulebook's ``order_hooks``) that adjust the rolled initiative order, in order:
hook(state, order) -> order. Trained mounts act right after their riders (MNT-2); vehicles have no turn of their
own, their crew act (VEH-3)."""

StartOfTurnHook = Callable[[Context, str], None]
"""Hooks (the rulebook's ``start_of_turn``) run at the start of every turn, right after its boundary passes, in
order: hook(ctx, whose turn). What lasts "until the start of your next turn" outside conditions and effects
ends here (zones SUP-4, readied actions RDY-4)."""

def initiative_modifiers(c: Combatant, state: EncounterState) -> list[Modifier]:
    """1d20 + AGI + proficiency + equipment (INIT-1); edition 1 adds proficiency only if trained (E-21)."""
    mods = [Modifier(c.creature.attributes.AGI, ModifierKind.ABILITY, INIT_1, "AGI")]
    trained_only = state.ruleset.turn.initiative_proficiency is InitiativeProficiency.COMBAT_TRAINED
    if not trained_only or c.creature.combat_trained:
        mods.append(Modifier(c.creature.proficiency, ModifierKind.PROFICIENCY, E_21 if trained_only else INIT_1,
                             "proficiency"))
    if c.creature.initiative_bonus:
        mods.append(Modifier(c.creature.initiative_bonus, ModifierKind.ITEM, INIT_1, "equipment"))
    return mods


def roll_initiative(ctx: Context) -> None:
    """Roll initiative for everyone and set the order: total, then AGI, then a seeded coin flip (INIT-1..3).

    Members of an initiative group (``state.initiative_groups``) share the die rolled for the group's first member
    and its coin, each adding its own modifiers: identical members act one after another.
    """
    keys: dict[str, tuple[int, int, int, int]] = {}
    groups = ctx.state.initiative_groups
    shared: dict[str, tuple[tuple[int, ...], int]] = {}
    for index, c in enumerate(ctx.state.combatants.values()):
        group = groups.get(c.id) if groups else None
        if group is not None and group in shared:
            faces, flip = shared[group]
            roll = roll_d20(ScriptedRng(faces), initiative_modifiers(c, ctx.state))
        else:
            roll = roll_d20(ctx.roller(c.id, "initiative", INIT_1, dice=(1, 20)), initiative_modifiers(c, ctx.state))
            flip = ctx.roller(None, "tie-break", INIT_1).roll(TIEBREAK_SIDES)  # the engine's coin, never a player's
            if group is not None:
                shared[group] = (roll.faces, flip)
        ctx.emit(ev.InitiativeRolled(c.id, ev.RollRecord.of(roll), flip))
        keys[c.id] = (-roll.total, -c.creature.attributes.AGI, -flip, index)
    order = sorted(keys, key=keys.__getitem__)
    for hook in ctx.state.rulebook.order_hooks:
        order = hook(ctx.state, order)
    ctx.emit(ev.OrderSet(tuple(order), rule=INIT_3))


AMBUSH_STEALTH_LABEL = "Stealth (ambush)"
"""The label of an ambusher's Stealth check in the log (SUR-1)."""


def ambush_stealth(state: EncounterState, hider: Combatant, rng: Rng) -> D20Roll:
    """One ambusher's Stealth roll (SUR-1), with its conditions' and the battlefield's sources (CONC-5)."""
    return roll_d20(rng, [Modifier(hider.creature.skill_modifier(Skill.STEALTH), ModifierKind.ABILITY, SUR_1,
                                   "Stealth")], (*cond.check_sources(hider.condition_set, Skill.STEALTH),
                                                 *(s for hook in state.rulebook.ambush_stealth
                                                   for s in hook(state, hider))))


def surprise_perception(state: EncounterState, target: Combatant) -> int:
    """The passive Perception an ambush's Stealth is held against (SUR-1, G-24, X-09)."""
    return passive_perception(target.creature, target.condition_set, state.ruleset,
                              modifiers=state.rulebook.passive_perception_modifiers(state)).total


def is_surprised(lowest: int, passive: int) -> bool:
    """Whether the ambushers' lowest Stealth surprises a target of this passive Perception (a tie does, G-45)."""
    return lowest >= passive


def resolve_surprise(ctx: Context, ambushers: str) -> None:
    """The ambushing side's Stealth against each target's passive Perception (SUR-1).

    A target is surprised when every ambusher's Stealth meets or beats its passive Perception
    (a tie keeps the ambushers hidden, G-45); one ambusher it notices is enough to not be surprised.
    """
    state = ctx.state
    hiders = [c for c in state.combatants.values() if c.side == ambushers]
    stealth = []
    for h in hiders:
        r = ambush_stealth(state, h, ctx.roller(h.id, "check", SUR_1, source="stealth", dice=(1, 20)))  # CONC-5
        ctx.emit(ev.CheckRolled(h.id, AMBUSH_STEALTH_LABEL, ev.RollRecord.of(r), 0, True, SUR_1))
        stealth.append(r.total)
    lowest = min(stealth, default=0)
    for target in state.combatants.values():
        if target.side == ambushers or not hiders:
            continue
        passive = surprise_perception(state, target)
        ctx.emit(ev.Surprise(target.id, is_surprised(lowest, passive), lowest, passive))


def _boundary(ctx: Context, cid: str, edge: TurnEdge) -> None:
    """Pass a turn boundary: every creature's durations advance; the log lists what ended."""
    b = TurnBoundary(cid, edge, ctx.state.round)
    expired = tuple((c.id, a) for c in ctx.state.combatants.values() for a in expire(c.conditions, b)[1])
    gone_effects = expire_effects(ctx.state.effects, b)[1]
    ctx.emit(ev.BoundaryPassed(cid, edge.value, ctx.state.round, expired, gone_effects))


def start_turn(ctx: Context, cid: str) -> bool:
    """Begin a creature's turn. Returns False when it cannot act (its turn is skipped)."""
    state = ctx.state
    c = state.get(cid)
    _boundary(ctx, cid, TurnEdge.START)
    for hook in state.rulebook.start_of_turn:
        hook(ctx, cid)
    if c.health.is_dead:
        ctx.emit(ev.TurnSkipped(cid, "dead", rule("DEATH-3")))
        return False
    if c.left_fight:
        gone = MoraleMark.FLED if c.supplies.has(MoraleMark.FLED) else MoraleMark.SURRENDERED
        ctx.emit(ev.TurnSkipped(cid, gone.value, rule("MOR-20")))
        return False
    for hook in state.rulebook.before_acting:  # a dying creature's death save (DEATH-2)
        hook(ctx, cid)
    if c.surprised and state.round == 1:
        ctx.emit(ev.TurnSkipped(cid, "surprised", SUR_2))
        return False
    budget = cond.max_actions(c.condition_set, state.ruleset)
    if budget.actions <= 0 or c.health.is_down:
        ctx.emit(ev.TurnSkipped(cid, "cannot act", budget.rule or rule("C-INC")))
        return False
    actions = min(budget.actions, state.ruleset.turn.actions_per_turn)
    ctx.emit(ev.TurnStarted(cid, state.round, actions, 0, rule=budget.rule or rule("AE-1")))
    return True


def end_turn(ctx: Context, cid: str) -> None:
    """End a creature's turn: durations "until the end of …" expire."""
    ctx.emit(ev.TurnEnded(cid))
    for hook in ctx.state.rulebook.end_of_turn:
        hook(ctx, cid)
    _boundary(ctx, cid, TurnEdge.END)


def end_round(ctx: Context) -> None:
    """Close the round: the registered end-of-round hooks run in order (HAZ-0)."""
    ctx.emit(ev.RoundEnded(ctx.state.round))
    for hook in ctx.state.rulebook.end_of_round:
        hook(ctx)

