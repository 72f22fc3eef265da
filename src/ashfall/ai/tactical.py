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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ashfall.ai import reactions
from ashfall.ai.board_cache import cover as board_cover
from ashfall.ai.board_cache import gap_ft
from ashfall.ai.movement import Route, can_move, first_stride, flee_path, path_to, routes
from ashfall.ai.plans import Block, Plan
from ashfall.ai.profile import AttackOption, shots_left
from ashfall.ai.targeting import Candidate, candidate_key, downed_targets, focus, standing_targets
from ashfall.ai.turn import TurnView, hp_left
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import Refused
from ashfall.engine.decisions import Decision
from ashfall.engine.engine import Engine
from ashfall.engine.morale_hooks import fighting, member_status
from ashfall.engine.moves.activities import AllOutAttack, FullAutoBurst, PowerStrike, SweepingStrike
from ashfall.engine.moves.gear import Reload
from ashfall.engine.moves.legacy import Aim, ExtraAttackStrike
from ashfall.engine.moves.maneuvers import Trip
from ashfall.engine.moves.medical import EmergencyFieldMedicine, SecondWind, StabiliseWithMedicine, UseStim
from ashfall.engine.moves.movement import Stand, Step, Stride
from ashfall.engine.moves.spellbook import SPELLS
from ashfall.engine.moves.spells import CastSpell
from ashfall.engine.moves.strike import Strike
from ashfall.engine.moves.tactics import Feint
from ashfall.engine.moves.utility import Dodge
from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square
from ashfall.rules.morale import Status
from ashfall.rules.morale_behaviour import behaviour

FLEEING = frozenset({Status.BROKEN, Status.ROUTED})
MOVES = frozenset({"stride", "step", "sprint", "crawl"})
SECOND_WIND_TALENT = "second-wind"


class Reason(Enum):
    """Why the AI chose an intent."""

    FLEE = "flee"
    FALL_BACK = "fall-back"
    STAND = "stand"
    HEAL_ALLY = "heal-ally"
    REACH_ALLY = "reach-ally"
    SECOND_WIND = "second-wind"
    WITHDRAW = "withdraw"
    MOVE_TO_ATTACK = "move-to-attack"
    ATTACK = "attack"
    APPROACH = "approach"
    RELOAD = "reload"
    DODGE = "dodge"


@dataclass(frozen=True, slots=True)
class Choice:
    """One decision: the intent, why, and the candidate attack behind it (if any)."""

    intent: Any
    reason: Reason
    candidate: Candidate | None = None


@dataclass(frozen=True, slots=True)
class TacticalConfig:
    """The policy's switches and weights.

    Attributes:
        brutal: Finish enemies that are down (dying PCs) when no standing enemy can be attacked.
        self_weight: How much a share of its own HP lost weighs against the same share of an enemy's removed.
        threat_weight: How much the ranged fire a square invites weighs (cover, distance from shooters).
        drop_step: Drop chances are compared in steps of this size (smaller differences do not decide).
        withdraw_below: Withdraw at or below this share of maximum HP when outmatched.
        second_wind_below: Use Second Wind below this share of maximum HP.
        second_wind_for_all: Every creature may use Second Wind (default: PCs and stat blocks with the talent).
        openers: Consider Feint, Trip and Aim before attacks.
        max_routes: The most squares weighed as places to attack from.
    """

    brutal: bool = False
    self_weight: float = 1.0
    threat_weight: float = 0.5
    drop_step: float = 0.05
    withdraw_below: float = 0.25
    second_wind_below: float = 0.5
    second_wind_for_all: bool = False
    openers: bool = True
    max_routes: int = 24


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
        return reactions.answer(state, decision, self.config.brutal)

    # ----- the turn -----

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        """The next intent with the reason for it, or None to end the turn."""
        state = engine.state
        c = state.get(actor)
        if state.ended or state.active_id != actor or c.turn.actions_left <= 0 or not fighting(c):
            return None
        status = member_status(c)
        if status is Status.SURRENDERED:
            return None
        if status in FLEEING:
            return self._flee(engine, c)
        if c.has(Condition.PRONE):
            stand = Stand(actor)
            if _legal(engine, stand):
                return Choice(stand, Reason.STAND)
        if status is Status.FALL_BACK and _moved_actions(engine, actor) < _escape_actions(state):
            back = self._retreat(engine, c, Reason.FALL_BACK)
            if back is not None:
                return back
        view = self._view(engine, c, brutal=False)
        for found in (self._heal(view), self._second_wind(view)):
            if found is not None:
                return found
        advance = status is not Status.FALL_BACK
        best = self._attack(view, advance)
        if best is None and self.config.brutal:
            view = self._view(engine, c, brutal=True)
            best = self._attack(view, advance)
        withdraw = self._withdraw(view, best)
        if withdraw is not None:
            return withdraw
        if best is not None:
            return best
        return self._idle(view, advance)

    def _view(self, engine: Engine, c: Combatant, *, brutal: bool) -> TurnView:
        targets = downed_targets(engine.state, c) if brutal else standing_targets(engine.state, c)
        return TurnView(engine, c, targets, brutal)

    # ----- morale -----

    def _flee(self, engine: Engine, c: Combatant) -> Choice | None:
        """Broken or routed: every action a Stride toward an exit (MOR-21); off the map, a narrated Stride."""
        state = engine.state
        if state.board is None:
            intent = Stride(c.id, ())
            return Choice(intent, Reason.FLEE) if _legal(engine, intent) else None
        if c.has(Condition.PRONE):
            stand = Stand(c.id)
            if _legal(engine, stand):
                return Choice(stand, Reason.STAND)
        return self._retreat(engine, c, Reason.FLEE)

    def _retreat(self, engine: Engine, c: Combatant, reason: Reason) -> Choice | None:
        if not can_move(engine.state, c):
            return None
        path = flee_path(engine.state, c, self.exits)
        if not path:
            return None
        part = first_stride(engine.state, c, path)
        intent = Stride(c.id, part)
        return Choice(intent, reason) if part and _legal(engine, intent) else None

    # ----- healing -----

    def _heal(self, view: TurnView) -> Choice | None:
        """Stabilise or heal a dying ally within 5 ft, or move next to one it can then treat this turn."""
        state, c = view.state, view.c
        dying = [a for a in state.allies_of(c.id) if a.health.is_dying and not a.health.is_dead]
        if not dying:
            return None
        for ally in dying:
            for intent in _treatments(c, ally.id):
                if view.legal(intent):
                    return Choice(intent, Reason.HEAL_ALLY)
        if not _can_treat(c) or not can_move(state, c):
            return None
        need = state.ruleset.healing.efm_actions
        if c.turn.actions_left <= need:
            return None
        for ally in dying:
            if not ally.space:
                continue
            path = path_to(state, c, _beside(view, ally), view.graph)
            if path is None:
                continue
            part = first_stride(state, c, path, view.graph)
            if part and part == path:
                intent = Stride(c.id, part)
                if view.legal(intent):
                    return Choice(intent, Reason.REACH_ALLY)
        return None

    def _second_wind(self, view: TurnView) -> Choice | None:
        c = view.c
        h = c.health
        if h.hp >= h.max_hp * self.config.second_wind_below:
            return None
        if not (self.config.second_wind_for_all or c.creature.is_pc or SECOND_WIND_TALENT in c.creature.talents):
            return None
        intent = SecondWind(c.id)
        return Choice(intent, Reason.SECOND_WIND) if view.legal(intent) else None

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

        Candidates are first valued without that fire (an upper bound of their worth); the fire is then
        weighed for the most promising ones only, until no remaining candidate could do better.
        """
        weight = self.config.self_weight / hp_left(view.c)
        per_target: dict[str, list[Candidate]] = {}
        for cand in self._candidates(view, advance, weight):
            per_target.setdefault(cand.plan.target, []).append(cand)
        best: dict[str, Candidate] = {}
        tw = self.config.threat_weight * weight
        for tid, cands in per_target.items():
            cands.sort(key=candidate_key, reverse=True)
            top: Candidate | None = None
            for cand in cands:
                if top is not None and round(cand.net, 9) < round(top.net, 9):
                    break
                threat = view.ranged_threat(None if cand.route.actions == 0 else cand.route.to) if tw else 0.0
                scored = Candidate(cand.route, cand.plan, cand.aoo, threat, cand.net - tw * threat)
                if top is None or candidate_key(scored) > candidate_key(top):
                    top = scored
            if top is not None:
                best[tid] = top
        return best

    def _candidates(self, view: TurnView, advance: bool, weight: float) -> Iterator[Candidate]:
        """Every (route, option, target) with its best plan, valued net of the Attacks of Opportunity it provokes."""
        c, state = view.c, view.state
        k = c.turn.actions_left
        here = c.position
        ways = [Route(here if here is not None else (0, 0), (), 0, 0, True, ())]
        shoot_anywhere = False
        if advance and k > 1 and here is not None and can_move(state, c):
            spaces, reach, shoot_anywhere = self._wanted(view)
            ways += [r for sq, r in routes(state, c, k - 1, view.graph, view.reaches, spaces, reach,
                                           self.config.max_routes).items() if sq != here]
        for route in ways:
            left = k - route.actions
            full = route.actions == 0
            square = None if full else route.to
            aoo_path = sum(view.aoo_damage(e) for e in route.provokers)
            for option in view.options:
                if option.ranged and not (full or route.step or shoot_anywhere):
                    continue  # a shooter with a shot from here only weighs Steps (cover, AMOD-7), not walks
                setting = view.setting(square, option, full=full)
                if setting is None:
                    continue
                shooting = sum(view.aoo_damage(e) for e in view.in_reach_of(square)
                               if e not in route.provokers) if option.ranged else 0.0
                penalty = weight * (aoo_path + shooting)
                for target in setting.bases:
                    plan = view.best_plan(target, setting, left, full=full, openers=full and self.config.openers)
                    if plan is not None:
                        yield Candidate(route, plan, aoo_path + shooting, 0.0, plan.frac - penalty)

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
                reach = max(reach, _normal_reach(o))
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
        if not any(fighting(a) for a in state.allies_of(c.id)):
            return None
        if best is not None and best.candidate is not None and best.candidate.plan.p_drop >= 0.5:
            return None
        if view.incoming() < hp_left(c):
            return None
        if Condition.DODGING not in c.condition_set:
            intent = Dodge(c.id)
            if view.legal(intent):
                return Choice(intent, Reason.WITHDRAW)
        return self._retreat(view.engine, c, Reason.WITHDRAW)

    def _idle(self, view: TurnView, advance: bool) -> Choice | None:
        """Nothing to attack this turn: reload an empty weapon, close in, or Dodge; never waste an action."""
        c, state = view.c, view.state
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
        reaches = [(_normal_reach(o), o.ranged) for o in view.options] or [
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


def plan_intent(actor: str, plan: Plan) -> Any:
    """The intent of a plan's first block."""
    o, t = plan.option, plan.target
    block = plan.blocks[0]
    if block is Block.RELOAD:
        assert o.weapon_id is not None
        return Reload(actor, o.weapon_id)
    return _BLOCK_INTENT[block](actor, t, o, plan.others)


def _strike_args(o: AttackOption) -> dict[str, Any]:
    return o.intent_args()


_BLOCK_INTENT: dict[Block, Any] = {
    Block.STRIKE: lambda a, t, o, _: Strike(a, t, **_strike_args(o)),
    Block.EXTRA: lambda a, t, o, _: ExtraAttackStrike(a, t, **_strike_args(o)),
    Block.POWER: lambda a, t, o, _: PowerStrike(a, t, **_strike_args(o)),
    Block.ALL_OUT: lambda a, t, o, _: AllOutAttack(a, (t,), **_strike_args(o)),
    Block.SWEEP: lambda a, t, o, others: SweepingStrike(a, (t, *others), o.weapon_id, o.unarmed),
    Block.FULL_AUTO: lambda a, t, o, others: FullAutoBurst(a, (t, *others), o.weapon_id),
    Block.FEINT: lambda a, t, o, _: Feint(a, t),
    Block.TRIP: lambda a, t, o, _: Trip(a, t, o.weapon_id),
    Block.AIM: lambda a, t, o, _: Aim(a),
}


def _treatments(c: Combatant, ally: str) -> Iterator[Any]:
    """Ways to save a dying ally, best first: EFM (MAA-6), a stim (G-31), a healing spell, a Medicine check (E-31)."""
    yield EmergencyFieldMedicine(c.id, ally)
    for tier in (1, 2, 3):
        if c.uses.get(f"stim:{tier}", 0) > 0:
            yield UseStim(c.id, ally, tier)
    for spell_id in sorted(c.creature.talents & SPELLS.keys()):
        if SPELLS[spell_id].healing is not None:
            yield CastSpell(c.id, spell_id, (ally,))
    yield StabiliseWithMedicine(c.id, ally)


def _beside(view: TurnView, ally: Combatant) -> Callable[[Square], bool]:
    """A goal: squares within touch range (5 ft) of the ally."""

    def goal(sq: Square) -> bool:
        return gap_ft(view.graph.space(sq), ally.space) <= SQUARE_FT

    return goal


def _can_treat(c: Combatant) -> bool:
    """Whether it carries something to treat a dying ally with (kit, stim or healing spell)."""
    if c.uses.get("medicine-kit", 0) > 0 or any(c.uses.get(f"stim:{t}", 0) > 0 for t in (1, 2, 3)):
        return True
    return any(SPELLS[s].healing is not None for s in c.creature.talents & SPELLS.keys())


def _normal_reach(o: AttackOption) -> int:
    if o.ranged and o.weapon is not None:
        return o.weapon.range_normal or o.limit_ft
    return o.limit_ft


def _gap(a: Combatant, b: Combatant) -> int:
    if not a.space or not b.space:
        return 0
    return gap_ft(a.space, b.space)


def _moved_actions(engine: Engine, actor: str) -> int:
    """Actions the actor has spent moving since its turn started (read off the log)."""
    spent = 0
    for e in reversed(engine.log):
        kind = type(e)
        if kind is ev.TurnStarted and e.actor == actor:
            break
        if kind is ev.ActionsSpent and e.actor == actor and e.label in MOVES:
            spent += e.count
    return spent


def _escape_actions(state: EncounterState) -> int:
    """Least actions a falling-back creature moves toward an exit each turn (MOR-17)."""
    if not state.ruleset.morale.enabled:
        return 1
    return behaviour(Status.FALL_BACK, state.ruleset).escape_actions


def _legal(engine: Engine, intent: Any) -> bool:
    try:
        engine.check(intent)
    except Refused:
        return False
    return True
