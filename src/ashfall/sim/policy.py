"""Who decides what a combatant does in a simulated fight: the :class:`Policy` protocol and scripted tactics.

A policy is asked for one intent at a time on its creature's turn and answers ``None`` to end the
turn. :class:`ScriptedTactics` follows a fixed plan every turn against the nearest enemy: it stands up
if prone, closes in by Stride along a shortest legal path (:mod:`ashfall.grid.paths`) until an enemy is
in reach or range, then attacks as the plan says (Strike, Power Strike MAA-5, All-Out Attack MAA-7).
The policy keeps no memory between calls: how far it is into this turn's plan is read off the log, so
it is safe with :meth:`Engine.undo` and :meth:`Engine.copy`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any, Protocol, runtime_checkable

from ashfall.content.schema import Weapon, WeaponKind
from ashfall.core.dice import parse
from ashfall.core.types import Condition
from ashfall.encounters.schema import TargetRule
from ashfall.engine import Combatant, EncounterState, Engine, Refused, Reload, Stand, Stride, Strike
from ashfall.engine import events as ev
from ashfall.families.attacks.engine_common import speed_ft
from ashfall.families.attacks.moves_activities import AllOutAttack, FullAutoBurst, PowerStrike, SweepingStrike
from ashfall.families.attacks.moves_strike import strike_out_of_reach
from ashfall.families.attacks.rules_activities import ACTIVITIES, Activity
from ashfall.families.morale.engine import break_style, member_status
from ashfall.families.morale.rules_behaviour import behaviour
from ashfall.grid.geometry import space_distance_ft
from ashfall.odds.dice import to_die
from ashfall.rules.reach import attack_limit_ft
from ashfall.sim.approach import stride_path


@runtime_checkable
class Policy(Protocol):
    """Chooses a combatant's next intent on its turn."""

    def next_intent(self, engine: Engine, actor: str) -> Any | None:
        """The next intent for ``actor`` (whose turn it is), or None to end its turn."""
        ...


NOT_PLAN_LABELS = frozenset({"stride", "step", "crawl", "stand", "sprint", "reload"})
"""Action names that move or reload rather than attack: they do not advance the plan."""

SCRIPTABLE = (Activity.STRIKE, Activity.POWER_STRIKE, Activity.ALL_OUT, Activity.FULL_AUTO, Activity.SWEEPING,
              Activity.SUPPRESSIVE_FIRE)
"""The activities a turn plan may name (the encounter format's ``tactics``)."""
_INTENT_CLASS: dict[Activity, type] = {
    Activity.POWER_STRIKE: PowerStrike, Activity.ALL_OUT: AllOutAttack, Activity.FULL_AUTO: FullAutoBurst,
    Activity.SWEEPING: SweepingStrike,
}
"""Intent classes of the activities (others are played as Strikes)."""
_MULTI_TARGET = frozenset({Activity.FULL_AUTO, Activity.SWEEPING})
"""Activities that take several targets: the nearest ones are offered, as many as the engine accepts."""


def activity_intent(activity: Activity) -> type | None:
    """The intent class of an activity, or None when it is played as a Strike."""
    return _INTENT_CLASS.get(activity)


def activity_intents(activity: Activity, actor: str, foes: Sequence[str], weapon: str | None) -> Iterator[Any]:
    """Intents for one plan step against ``foes[0]`` (nearest first), most ambitious first, then a Strike."""
    cls = activity_intent(activity)
    if cls is not None and activity in _MULTI_TARGET:
        for n in range(len(foes), 0, -1):
            yield cls(actor, tuple(foes[:n]), weapon)
    elif cls is not None and activity is Activity.ALL_OUT:
        yield cls(actor, (foes[0],), weapon)
    elif cls is not None:
        yield cls(actor, foes[0], weapon)
    yield Strike(actor, foes[0], weapon)


def parse_plan(plan: str | Activity | Sequence[str | Activity]) -> tuple[Activity, ...]:
    """A plan from an activity (name) or a list of them, refusing unknown or unscriptable steps."""
    steps = (plan,) if isinstance(plan, str | Activity) else tuple(plan)
    parsed: list[Activity] = []
    for step in steps:
        activity = step if isinstance(step, Activity) else Activity(step) if step in _NAMES else None
        if activity not in SCRIPTABLE:
            raise ValueError(f"unknown plan step {step!r}; use {[a.value for a in SCRIPTABLE]}")
        assert activity is not None
        parsed.append(activity)
    if not parsed:
        raise ValueError("an empty plan")
    return tuple(parsed)


_NAMES = frozenset(a.value for a in SCRIPTABLE)


def attack_actions_this_turn(log: Sequence[Any], actor: str) -> int:
    """Actions the actor has spent on its plan (not moving or reloading) since its turn started (read off the log)."""
    spent = 0
    for e in reversed(log):
        kind = type(e)
        if kind is ev.TurnStarted and e.actor == actor:
            break
        if kind is ev.ActionsSpent and e.actor == actor and e.label not in NOT_PLAN_LABELS:
            spent += e.count
    return spent


def may_attack(c: Combatant, state: EncounterState) -> bool:
    """Whether its morale status lets it attack (broken, routed and surrendered NPCs do not: MOR-21, MOR-23)."""
    if not state.ruleset.morale.enabled:
        return True
    return behaviour(member_status(c), state.ruleset, style=break_style(c)).may_attack


def weapon_distance(weapon: Weapon | None, state: EncounterState) -> int:
    """How far a Strike with it reaches without penalty: melee reach, or a ranged weapon's normal range."""
    if weapon is None:
        return state.ruleset.attack.natural_reach
    if weapon.kind is WeaponKind.RANGED:
        return weapon.range_normal or 0
    return weapon.reach


def weapon_limit(weapon: Weapon | None, state: EncounterState) -> int:
    """The farthest a Strike with it can reach at all: melee reach, or a ranged weapon's long range (ATK-1, ATK-2)."""
    ranged = weapon is not None and weapon.kind is WeaponKind.RANGED
    return attack_limit_ft(weapon, ranged, state.ruleset.attack.natural_reach)


def enemies_by_distance(state: EncounterState, c: Combatant) -> list[Combatant]:
    """Enemies still fighting, nearest first (roster order breaks ties)."""
    foes = [e for e in state.enemies_of(c.id) if e.fighting]
    if not c.space:
        return foes
    return sorted(foes, key=lambda e: space_distance_ft(c.space, e.space) if e.space else 0)


TargetChooser = Callable[[Engine, str], "str | None"]
"""Whom the AI would attack now (``ashfall.ai.target_choice``): scripted plans ask it when no target rule is set."""


@cache
def _dice_mean(damage: str) -> float:
    return float(to_die(parse(damage)).mean())


def threat_of(e: Combatant) -> float:
    """How dangerous an enemy is for ``target: highest-threat``: its deadliest weapon's average dice."""
    return max((_dice_mean(w.damage) for w in e.weapons), default=0.0)


_ORDER: dict[TargetRule, Callable[[Combatant], float]] = {
    TargetRule.WEAKEST: lambda e: e.health.hp,
    TargetRule.STRONGEST: lambda e: -e.health.hp,
    TargetRule.HIGHEST_THREAT: lambda e: -threat_of(e),
}
"""Sort keys of the target rules (a stable sort keeps the nearest first among equals)."""


class ScriptedTactics:
    """Follow a fixed plan every turn against the enemy its target rule (or the AI) picks.

    Each turn: Stand if prone; reload an empty weapon when nothing else can attack (G-31); if no enemy
    is in reach (or normal range), Stride along a shortest legal path towards the nearest one, as often
    as needed; then work through the plan. A step the creature
    cannot take (the activity is not in the engine yet, too few actions left after moving, refused) is
    replaced by a Strike, so ``[power-strike, strike]`` without Power Strike is three Strikes. The
    turn ends when the plan's actions are spent, no attack is possible, or no move gets closer.

    The plan fixes *what* it does; *whom* it attacks is its ``target`` rule, else the ``chooser``'s pick (the
    AI's focus fire: an encounter file's plan without ``target``), else the nearest enemy. The chosen enemy
    is attacked when it can be, and approached; otherwise the others, nearest first.

    Args:
        plan: Activities (or their names): ``strike``, ``power-strike``, ``all-out-attack`` … (:data:`SCRIPTABLE`).
        move: Whether to close in by Stride (False: stand still and attack what is in reach).
        target: A target rule, or None.
        chooser: Whom to attack when there is no target rule (None: the nearest).
    """

    __slots__ = ("chooser", "move", "plan", "target")

    def __init__(self, plan: str | Activity | Sequence[str | Activity] = ("strike", "strike", "strike"), *,
                 move: bool = True, target: TargetRule | None = None, chooser: TargetChooser | None = None) -> None:
        self.plan = parse_plan(plan)
        self.move = move
        self.target = target
        self.chooser = chooser

    def __repr__(self) -> str:
        return (f"ScriptedTactics({[a.value for a in self.plan]!r}, move={self.move}"
                + (f", target={self.target.value}" if self.target else "") + ")")

    def _ordered(self, engine: Engine, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
        """The enemies, the one to attack first: by the target rule, else the chooser's pick, else the nearest."""
        if len(foes) < 2 or self.target is TargetRule.NEAREST:
            return foes
        if self.target is not None:
            return sorted(foes, key=_ORDER[self.target])
        chosen = self.chooser(engine, c.id) if self.chooser is not None else None
        first = [f for f in foes if f.id == chosen]
        return first + [f for f in foes if f.id != chosen] if first else foes

    def _step_now(self, engine: Engine, actor: str) -> Activity | None:
        """The plan step the actor is on, from the actions it has spent on attacks this turn."""
        spent = attack_actions_this_turn(engine.log, actor)
        section = engine.state.ruleset.attack
        total = 0
        for step in self.plan:
            total += ACTIVITIES[step].actions(section) or 1
            if spent < total:
                return step
        return None

    def next_intent(self, engine: Engine, actor: str) -> Any | None:
        """The next intent of this turn's plan, or None to end the turn."""
        state = engine.state
        c = state.get(actor)
        if state.ended or state.active_id != actor or c.turn.actions_left <= 0:
            return None
        step = self._step_now(engine, actor)
        if step is None:
            return None
        if not may_attack(c, state):
            return None
        if c.has(Condition.PRONE):
            return _legal(engine, Stand(actor))
        nearest = enemies_by_distance(state, c)
        foes = self._ordered(engine, c, nearest)
        attack = self._attack(engine, c, step, foes) or _reload(engine, c)
        if attack is not None or not self.move or not foes:
            return attack
        if foes[0] is not nearest[0]:  # close in on the one it means to attack, else on whoever is nearest
            toward = self._stride(engine, c, foes[:1])
            if toward is not None:
                return toward
        return self._stride(engine, c, foes)

    def _attack(self, engine: Engine, c: Combatant, step: Activity, foes: Sequence[Combatant]) -> Any | None:
        weapons: list[str | None] = [w.id for w in c.weapons] or [None]
        state = engine.state
        if c.space:
            longest = max(weapon_limit(w, state) for w in (c.weapons or (None,)))
            foes = [f for f in foes if not f.space or space_distance_ft(c.space, f.space) <= longest]
        ids = [f.id for f in foes]
        for i in range(len(ids)):
            for weapon in weapons:
                for intent in activity_intents(step, c.id, ids[i:], weapon):
                    # a Strike out of reach is refused by the check too: skip the check (about a third of tries)
                    if type(intent) is Strike and strike_out_of_reach(state, intent):
                        continue
                    if _legal(engine, intent) is not None:
                        return intent
        return None

    def _stride(self, engine: Engine, c: Combatant, foes: Sequence[Combatant]) -> Any | None:
        state = engine.state
        reach = max(weapon_distance(w, state) for w in (c.weapons or (None,)))
        speed = speed_ft(c, state)
        path = stride_path(state, c, foes, reach, speed)
        if not path:
            return None
        intent = _legal(engine, Stride(c.id, path))
        if intent is None:  # the fast graph missed a rule: ask the engine about every step
            path = stride_path(state, c, foes, reach, speed, exact=True)
            intent = _legal(engine, Stride(c.id, path)) if path else None
        return intent


def _reload(engine: Engine, c: Combatant) -> Any | None:
    """Reload the first empty weapon (G-31) when nothing can be attacked with what is loaded."""
    for w in c.weapons:
        if w.ammo_capacity is not None and c.ammo.get(w.id, w.ammo_capacity) <= 0:
            intent = _legal(engine, Reload(c.id, w.id))
            if intent is not None:
                return intent
    return None


def _legal(engine: Engine, intent: Any) -> Any | None:
    """The intent if the engine would accept it now, else None (checking rolls no dice)."""
    try:
        engine.check(intent)
    except Refused:
        return None
    return intent
