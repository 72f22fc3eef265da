"""The tactical AI: the default policy that plays NPCs (and PCs in simulations) the way a competent GM would.

:class:`TacticalPolicy` implements the simulator's :class:`~ashfall.sim.policy.Policy` (``next_intent``) and
the engine's :class:`~ashfall.engine.decisions.Controller` (``decide``). Each call reads the state afresh
(it keeps no memory, so :meth:`Engine.undo` and :meth:`Engine.copy` are safe) and returns one intent, whose
legality it has checked with ``engine.check``. In order, a turn:

1. honours morale (MOR-17..23): surrendered or fled creatures end their turn; broken ones spend every
   action striding toward an exit; falling-back ones first spend an action moving toward one, then fight
   from where they stand;
2. stands up when prone (ACT-5);
3. saves a dying ally within reach (Emergency Field Medicine, a stim, a healing spell, edition 1's Medicine
   check) and catches its breath below half HP (Second Wind, HEAL-5);
4. attacks: every square it can reach this turn, every target, every attack option and every plan of its
   remaining actions (:mod:`ashfall.ai.plans`) valued by the exact odds, net of the Attacks of Opportunity
   the move and a shot in reach provoke and of the ranged fire the square invites; it focuses fire
   (:mod:`ashfall.ai.targeting`) and submits the first step (a Step or Stride, or the plan's first action);
5. badly hurt and outmatched, with an ally still fighting, it withdraws: Dodge (DOD-1, DOD-2), then away;
6. otherwise it closes in along a shortest legal path, reloads, or Dodges rather than waste actions.

Every choice is a :class:`Choice` (the intent, a :class:`Reason` and the candidate behind it), so it can be
explained as data. Ties break on explicit keys (value, then fewer actions, then roster order); no dice
are rolled and nothing is random.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ashfall.ai.board_cache import cover as board_cover
from ashfall.ai.board_cache import gap_ft
from ashfall.ai.choice import Choice, Reason, TacticalConfig
from ashfall.ai.intents import (
    escape_actions,
    legal,
    moved_actions,
    normal_reach,
    plan_intent,
)
from ashfall.ai.movement import (
    MoveGraph,
    Route,
    can_move,
    edge_squares,
    exits_toward,
    first_stride,
    flee_path,
    path_to,
    provokers_along,
    routes,
    threats,
)
from ashfall.ai.outmatched import incoming
from ashfall.ai.plans import Plan
from ashfall.ai.profile import shots_left
from ashfall.ai.targeting import Candidate, downed_targets, focus, standing_targets
from ashfall.ai.turn import TurnView, hp_left
from ashfall.core.types import Condition
from ashfall.engine import Combatant, Decision, Dodge, EncounterState, Engine, Escape, Reload, Stand, Step, Stride
from ashfall.engine.records import Tally
from ashfall.families.chains.ai import best_sabotage
from ashfall.families.dying.ai import heal, rally, second_wind
from ashfall.families.morale.engine import break_style, member_status
from ashfall.families.morale.rules import Status
from ashfall.families.morale.rules_behaviour import DIRECTIONS
from ashfall.families.reactions import ai as reactions
from ashfall.grid.board import CoverLevel, Square
from ashfall.ruleset.sections import BreakBehaviour

FLEEING = frozenset({Status.BROKEN, Status.ROUTED})
_Raw = tuple[Route, Plan, float, float]
"""A candidate before the fire its square invites is weighed: route, plan, AoO damage, net value."""


def _raw_rank(raw: _Raw, drop_step: float) -> tuple[int, tuple[float, int, int, int, int]]:
    """:func:`~ashfall.ai.targeting.rank` of the :class:`Candidate` a raw candidate stands for."""
    route, plan, _, net = raw
    to = route.to
    tier = int(plan.p_drop / drop_step + 1e-9) if drop_step > 0 else 0
    return tier, (round(net, 9), -route.actions, -route.feet, -to[1], -to[0])


class TacticalPolicy:
    """The tactical AI (a simulator policy and an engine controller).

    Args:
        config: Switches and weights.
        exits: Squares where fleeing creatures leave the map (default: the map's passable edge).
    """

    __slots__ = ("config", "exits")

    def __init__(self, config: TacticalConfig | None = None, exits: tuple[Square, ...] = ()) -> None:
        self.config = config or TacticalConfig()
        self.exits = exits

    def __repr__(self) -> str:
        return f"TacticalPolicy({self.config!r})"

    # ----- the protocols -----

    def next_intent(self, engine: Engine, actor: str) -> Any | None:
        """The next intent for ``actor`` on its turn, or None to end the turn (Policy protocol)."""
        choice = self.choose(engine, actor)
        return None if choice is None else choice.intent

    def decide(self, state: EncounterState, decision: Decision) -> str | None:
        """Answer a decision for a creature it controls (Controller protocol): reactions and defense skills."""
        return reactions.answer(state, decision)

    # ----- the turn -----

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        """The next intent with the reason for it, or None to end the turn."""
        state = engine.state
        c = state.get(actor)
        if state.ended or state.active_id != actor or c.turn.actions_left <= 0 or not c.fighting:
            return None
        status = member_status(c)
        if status is Status.SURRENDERED:
            return None
        charging = status in FLEEING and break_style(c) is BreakBehaviour.CHARGE  # a zealot's last charge (MOR-24)
        if status in FLEEING and not charging:
            return self._flee(engine, c)
        if c.has(Condition.PRONE):
            stand = Stand(actor)
            if legal(engine, stand):
                return Choice(stand, Reason.STAND)
        view = self._view(engine, c, brutal=False)
        rallying = rally(view)
        if rallying is not None:
            return rallying
        if status is Status.FALL_BACK and moved_actions(engine, actor) < escape_actions(state):
            back = self._retreat(engine, c, Reason.FALL_BACK)
            if back is not None:
                return back
        for found in () if charging else (heal(view), second_wind(view, self.config)):
            if found is not None:
                return found
        advance = status is not Status.FALL_BACK
        sabotage = best_sabotage(engine, c)  # a fuel barrel or power panel among the enemy (CHN-1, CHN-5)
        if sabotage is not None:
            return Choice(sabotage.intent, Reason.SABOTAGE)
        best = self._attack(view, advance)
        if best is None and self.config.brutal:
            view = self._view(engine, c, brutal=True)
            best = self._attack(view, advance)
        withdraw = None if charging else self._withdraw(view, best)
        if withdraw is not None:
            return withdraw
        if best is not None:
            return best
        if status is Status.FALL_BACK:
            back = self._retreat(engine, c, Reason.FALL_BACK)  # nothing to shoot at: keep falling back (MOR-17)
            if back is not None:
                return back
        return self._idle(view, advance)

    def preferred_target(self, engine: Engine, actor: str) -> str | None:
        """Whom it would attack now: its focus-fire pick (:func:`~ashfall.ai.targeting.focus`), or None.

        For scripted plans that fix what a creature does but not whom it attacks (an encounter's ``tactics``
        without ``target``). No dice are rolled and nothing changes.
        """
        state = engine.state
        c = state.get(actor)
        if state.ended or not c.fighting:
            return None
        view = self._view(engine, c, brutal=False)
        best = self._best_candidates(view, True)
        pick = focus(best, view.targets, {t.id: _gap(view.c, t) for t in view.targets}, self.config.drop_step)
        return None if pick is None else pick.plan.target

    def _view(self, engine: Engine, c: Combatant, *, brutal: bool) -> TurnView:
        targets = downed_targets(engine.state, c) if brutal else standing_targets(engine.state, c)
        return TurnView(engine, c, targets, brutal)

    # ----- morale -----

    def _flee(self, engine: Engine, c: Combatant) -> Choice | None:
        """Broken or routed: every action a Stride toward an exit (MOR-21); off the map, a narrated Stride."""
        state = engine.state
        if state.board is None:
            intent = Stride(c.id, ())
            return Choice(intent, Reason.FLEE) if legal(engine, intent) else None
        if c.has(Condition.PRONE):
            stand = Stand(c.id)
            if legal(engine, stand):
                return Choice(stand, Reason.STAND)
        return self._retreat(engine, c, Reason.FLEE)

    def _retreat(self, engine: Engine, c: Combatant, reason: Reason) -> Choice | None:
        """A Stride toward an exit (MOR-20), carefully unless it must Stride (broken, MOR-21).

        A creature whose way out leaves an enemy's reach Steps away instead (ACT-3), or Dodges first so that
        the Stride provokes nothing (DOD-1, DOD-2).
        """
        state = engine.state
        if not can_move(state, c):
            return None
        graph = MoveGraph.of(state, c)
        exits: Sequence[Square] = self.exits or state.exits
        direction = c.supplies.count(Tally.FLEE_DIRECTION) if reason is Reason.FLEE else 0
        if direction:  # an animal flees in its rolled direction (MOR-24): the exits that way, else any
            exits = exits_toward(exits or edge_squares(state), c.position, DIRECTIONS[direction - 1]) or exits
        path = flee_path(state, c, exits, graph)
        if not path:
            return None
        part = first_stride(state, c, path, graph)
        if not part:
            return None
        if reason is not Reason.FLEE and c.position is not None:
            near = threats(state, c)
            if near and provokers_along(graph, near, c.position, part):
                step = Step(c.id, part[0])
                if not any(part[0] in r.inside for r in near) and legal(engine, step):
                    return Choice(step, reason)
                dodge = Dodge(c.id)
                if Condition.DODGING not in c.condition_set and legal(engine, dodge):
                    return Choice(dodge, reason)
        intent = Stride(c.id, part)
        return Choice(intent, reason) if legal(engine, intent) else None

    # ----- attacking -----

    def _attack(self, view: TurnView, advance: bool) -> Choice | None:
        best = self._best_candidates(view, advance)
        distance = {t.id: _gap(view.c, t) for t in view.targets}
        while best:
            pick = focus(best, view.targets, distance, self.config.drop_step)
            if pick is None:
                return None
            intent = self._first_intent(view, pick)
            if intent is not None and view.legal(intent):
                reason = Reason.ATTACK if pick.route.actions == 0 else Reason.MOVE_TO_ATTACK
                return Choice(intent, reason, pick)
            del best[pick.plan.target]
        return None

    def _best_candidates(self, view: TurnView, advance: bool) -> dict[str, Candidate]:
        """The best candidate against each target, the ranged fire a square invites included.

        Candidates are ranked by :func:`~ashfall.ai.targeting.rank` (drop chance, then net value). They are
        first valued without that fire (an upper bound of their worth); the fire is then weighed for the most
        promising ones only, until no remaining candidate could do better.
        """
        weight = self.config.self_weight / hp_left(view.c)
        per_target: dict[str, list[_Raw]] = {}
        for raw in self._candidates(view, advance, weight):
            per_target.setdefault(raw[1].target, []).append(raw)
        best: dict[str, Candidate] = {}
        tw = self.config.threat_weight * weight
        step = self.config.drop_step
        for tid, raws in per_target.items():
            # :func:`~ashfall.ai.targeting.rank` of each raw candidate, computed once; indices sorted by it
            # (a stable sort, like sorting the candidates themselves); only winners become Candidates
            keys = [_raw_rank(raw, step) for raw in raws]
            top: Candidate | None = None
            top_rank: tuple[int, tuple[float, int, int, int, int]] | None = None
            for i in sorted(range(len(raws)), key=keys.__getitem__, reverse=True):
                tier, (rounded, actions, feet, y, x) = keys[i]
                if top_rank is not None and (tier, rounded) < (top_rank[0], top_rank[1][0]):
                    break
                route, plan, aoo, net = raws[i]
                threat = view.ranged_threat(None if route.actions == 0 else route.to) if tw else 0.0
                scored = net - tw * threat
                scored_rank = (tier, (round(scored, 9), actions, feet, y, x))
                if top_rank is None or scored_rank > top_rank:
                    top, top_rank = Candidate(route, plan, aoo, threat, scored), scored_rank
            if top is not None:
                best[tid] = top
        return best

    def _candidates(self, view: TurnView, advance: bool, weight: float) -> Iterator[_Raw]:
        """Every (route, option, target) with its best plan, valued net of the Attacks of Opportunity it provokes.

        Yields ``(route, plan, aoo, net)``: a :class:`Candidate` without the fire the square invites.
        """
        c, state = view.c, view.state
        k = c.turn.actions_left
        here = c.position
        ways = [Route(here if here is not None else (0, 0), (), 0, 0, True, ())]
        shoot_anywhere = False
        if advance and k > 1 and here is not None and can_move(state, c):
            spaces, reach, shoot_anywhere = self._wanted(view)
            ways += [r for sq, r in routes(state, c, k - 1, view.graph, view.reaches, spaces, reach,
                                           self.config.max_routes).items() if sq != here]
        drop_step, use_openers = self.config.drop_step, self.config.openers
        best_plan, setting_at, aoo_damage = view.best_plan, view.setting, view.aoo_damage
        shot_provokes = view.state.ruleset.turn.ranged_attack_provokes  # RX-21; not in edition 1 (E-18)
        for route in ways:
            left = k - route.actions
            full = route.actions == 0
            square = None if full else route.to
            provokers = route.provokers
            aoo_path = sum(aoo_damage(e) for e in provokers) if provokers else 0
            openers = full and use_openers
            for option in view.options:
                if option.ranged and not (full or route.step or shoot_anywhere):
                    continue  # a shooter with a shot from here only weighs Steps (cover, AMOD-7), not walks
                setting = setting_at(square, option, full=full)
                if setting is None:
                    continue
                shooting = sum(aoo_damage(e) for e in view.in_reach_of(square)
                               if e not in provokers) if option.ranged and shot_provokes else 0.0
                aoo = aoo_path + shooting
                penalty = weight * aoo
                for target in setting.bases:
                    plan = best_plan(target, setting, left, full=full, openers=openers, drop_step=drop_step)
                    if plan is not None:
                        yield route, plan, aoo, plan.frac - penalty

    def _wanted(self, view: TurnView) -> tuple[tuple[tuple[Square, ...], ...], int, bool]:
        """Squares worth moving to: a target within melee reach, or within range if it cannot shoot from here.

        Returns:
            The targets' spaces, the distance from them that makes a square worth weighing, and whether
            squares are weighed for shooting too (no ranged option has a shot from where it stands).
        """
        spaces = tuple(s for t in view.targets if (s := view.spaces.get(t.id)))
        reach = max((o.limit_ft for o in view.options if not o.ranged), default=0)
        shoot = False
        for o in view.options:
            if o.ranged and view.setting(None, o, full=False) is None:
                reach = max(reach, normal_reach(o))
                shoot = True
        return spaces, reach, shoot

    def _first_intent(self, view: TurnView, cand: Candidate) -> Any | None:
        c = view.c
        route = cand.route
        if route.actions:
            if route.step:
                return Step(c.id, route.to)
            part = first_stride(view.state, c, route.path, view.graph)
            return Stride(c.id, part) if part else None
        return plan_intent(c.id, cand.plan)

    # ----- withdrawing and idling -----

    def _withdraw(self, view: TurnView, best: Choice | None) -> Choice | None:
        """Badly hurt and outmatched, with an ally still fighting: Dodge (DOD-1), then move away (DOD-2)."""
        c, state = view.c, view.state
        if c.health.hp > c.health.max_hp * self.config.withdraw_below:
            return None
        if not any(a.fighting for a in state.allies_of(c.id)):
            return None
        if best is not None and best.candidate is not None and best.candidate.plan.p_drop >= 0.5:
            return None
        if incoming(view) < hp_left(c):
            return None
        if Condition.DODGING not in c.condition_set:
            intent = Dodge(c.id)
            if view.legal(intent):
                return Choice(intent, Reason.WITHDRAW)
        return self._retreat(view.engine, c, Reason.WITHDRAW)

    def _idle(self, view: TurnView, advance: bool) -> Choice | None:
        """Nothing to attack this turn: reload an empty weapon, close in, or Dodge; never waste an action."""
        c, state = view.c, view.state
        if Condition.GRAPPLED in c.condition_set:
            for intent in _escapes(view):
                return Choice(intent, Reason.ESCAPE)
        for option in view.options:
            if shots_left(c, option) == 0 and option.weapon_id is not None:
                intent = Reload(c.id, option.weapon_id)
                if view.legal(intent):
                    return Choice(intent, Reason.RELOAD)
        if advance and view.targets and can_move(state, c):
            step = self._approach(view)
            if step is not None:
                return step
        for option in view.options:
            left = shots_left(c, option)
            w = option.weapon
            if left is not None and w is not None and w.ammo_capacity is not None and left < w.ammo_capacity:
                intent = Reload(c.id, w.id)
                if view.legal(intent):
                    return Choice(intent, Reason.RELOAD)
        if view.targets and Condition.DODGING not in c.condition_set:
            dodge = Dodge(c.id)
            if view.legal(dodge):
                return Choice(dodge, Reason.DODGE)
        return None

    def _approach(self, view: TurnView) -> Choice | None:
        """Stride along the shortest legal path toward the nearest square from which a target can be attacked.

        For a ranged option that square must be within normal range with a line of fire (no total cover, COV-3).
        """
        c, state = view.c, view.state
        spaces = [s for t in view.targets if (s := view.spaces.get(t.id))]
        if not spaces:
            return None
        reaches = [(normal_reach(o), o.ranged) for o in view.options] or [
            (state.ruleset.attack.natural_reach, False)]
        board = state.board

        def goal(sq: Square) -> bool:
            space = view.graph.space(sq)
            for t in spaces:
                gap = gap_ft(space, t)
                for reach, ranged in reaches:
                    if gap <= reach and not (ranged and board is not None
                                             and board_cover(board, space, t) is CoverLevel.TOTAL):
                        return True
            return False

        path = path_to(state, c, goal, view.graph)
        if not path:
            return None
        part = first_stride(state, c, path, view.graph)
        intent = Stride(c.id, part)
        return Choice(intent, Reason.APPROACH) if part and view.legal(intent) else None


def _gap(a: Combatant, b: Combatant) -> int:
    if not a.space or not b.space:
        return 0
    return gap_ft(a.space, b.space)


def _escapes(view: TurnView) -> Iterator[Any]:
    """Escape attempts from its grapplers the engine would accept (C-GRA), in the engine's order."""
    definition = view.state.rulebook.actions.get(Escape)
    if definition is None:
        return
    for intent in definition.candidates(view.state, view.c.id):
        if view.legal(intent):
            yield intent
