"""Playing one fight to the end with policies, and what came out of it (:class:`FightResult`).

:func:`run_fight` is the simulator's hot path: it asks each creature's policy for intents, submits
them, ends turns, and at the end reads the outcome off the event log once. It formats no strings and
logs nothing; the event log is handed back only when asked for (``record_log``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from ashfall.core.rng import hash_seed
from ashfall.engine import Combatant, Engine, Event, NeedDecision, Refused
from ashfall.engine import events as ev
from ashfall.families.morale.engine import break_style
from ashfall.families.morale.rules import MoraleMark
from ashfall.ruleset.sections import BreakBehaviour
from ashfall.sim.policy import Policy

DEFAULT_MAX_ROUNDS = 100
"""A fight still undecided after this many rounds stops as a draw (a guard against stalemates)."""
MAX_INTENTS_PER_TURN = 64
"""A policy that keeps acting past this many intents in one turn has its turn ended (a guard, not a rule)."""
MORALE_OUTCOMES = ("fled", "surrendered", "routed", "broken", "falling-back")
"""Morale marks (:class:`~ashfall.families.morale.rules.MoraleMark` values), worst first: a combatant's morale
outcome is the first it bears."""

BuildFn = Callable[[int], Engine]
"""Builds a fresh, unstarted engine for a seed."""


@dataclass(frozen=True, slots=True)
class CombatantResult:
    """One combatant at the end of a fight.

    Attributes:
        id: Combatant id.
        name: Display name.
        side: Its side.
        dropped: It reached 0 HP at some point (DEATH-1).
        died: It was dead at the end.
        damage_dealt: Damage it dealt to others (after the ledger: what reached temp HP and HP).
        damage_taken: Damage it took.
        hp: HP left at the end.
        max_hp: Its maximum HP.
        morale: How morale took it out of the fight ("fled", "surrendered", …), or None.
        creature: The id of its stat block (what it is: ``rat`` for ``rat-7``); grouping key of the reports.
    """

    id: str
    name: str
    side: str
    dropped: bool
    died: bool
    damage_dealt: int
    damage_taken: int
    hp: int
    max_hp: int
    morale: str | None
    creature: str = ""


ENDINGS = ("defeat", "morale", "surrender", "round-limit")
"""How a fight can end (:attr:`FightResult.ended`), in the order reports list them."""
SURRENDER_OUTCOMES = ("surrendered", "cowered")
"""Morale outcomes that leave a creature on the field, out of the fight (MOR-23): a ``surrender`` ending."""


@dataclass(frozen=True, slots=True)
class FightResult:
    """How one fight ended.

    Attributes:
        seed: The seed the fight was played with.
        winner: The winning side, or None (everyone down, or the round limit was reached).
        rounds: The round the fight ended in (the last round played when the limit stopped it).
        timed_out: The round limit stopped it.
        combatants: Per-combatant results, in roster order.
        attacks: Attack rolls made (for benchmarks).
        refusals: Intents the engine refused (a policy bug if not zero; the turn was ended).
        log: The event log, when it was asked for.
    """

    seed: int
    winner: str | None
    rounds: int
    timed_out: bool
    combatants: tuple[CombatantResult, ...]
    attacks: int
    refusals: int
    log: tuple[Event, ...] | None = None

    @property
    def ended(self) -> str:
        """How the fight ended, one of :data:`ENDINGS`.

        ``round-limit``: the limit stopped it. Otherwise the losers (every side but the winner) that were still
        standing decide: none, or none that morale took out: ``defeat``; all of them surrendered (or cowered):
        ``surrender``; else ``morale`` (some fled, routed, broke). Everyone down with no winner is ``defeat``.
        """
        if self.timed_out:
            return "round-limit"
        standing = [c.morale for c in self.combatants
                    if c.side != self.winner and not c.dropped and not c.died and c.morale is not None]
        if not standing:
            return "defeat"
        if all(m.startswith(SURRENDER_OUTCOMES) for m in standing):
            return "surrender"
        return "morale"

    def combatant(self, cid: str) -> CombatantResult:
        """One combatant's result by id."""
        for c in self.combatants:
            if c.id == cid:
                return c
        raise KeyError(f"no combatant {cid!r}")


def trial_seed(seed: int, index: int) -> int:
    """The seed of trial ``index`` of a sweep: ``SeededRng(seed).spawn(index).seed`` (worker-independent)."""
    return hash_seed(seed, index)


def _policy_of(policies: Mapping[str, Policy] | Policy, actor: str) -> Policy:
    if isinstance(policies, Mapping):
        return policies[actor]
    return policies


def run_fight(build_fn: BuildFn, seed: int, policies: Mapping[str, Policy] | Policy, *, record_log: bool = False,
              ambushers: str | None = None, max_rounds: int | None = None) -> FightResult:
    """Play one fight to the end.

    Args:
        build_fn: Builds the unstarted engine for ``seed`` (an already started one is played on).
        seed: The fight's seed.
        policies: A policy per combatant id, or one policy for everyone.
        record_log: Return the event log with the result.
        ambushers: The side that ambushes (SUR-1), if any.
        max_rounds: Stop undecided after this round (default :data:`DEFAULT_MAX_ROUNDS`).
    """
    engine = build_fn(seed)
    limit = max_rounds or DEFAULT_MAX_ROUNDS
    if not engine.state.started:
        engine.start(ambushers)
    state = engine.state
    refusals = intents = 0
    turn_of: str | None = None
    timed_out = False
    while not engine.state.ended:
        state = engine.state
        if state.round > limit:
            timed_out = True
            break
        actor = state.active_id
        if actor is None:
            break
        if actor != turn_of:
            turn_of, intents = actor, 0
        intent = _policy_of(policies, actor).next_intent(engine, actor) if intents < MAX_INTENTS_PER_TURN else None
        if intent is None:
            engine.end_turn(actor)
            turn_of = None
            continue
        intents += 1
        try:
            engine.submit(intent)
        except (Refused, NeedDecision):
            refusals += 1
            engine.end_turn(actor)
            turn_of = None
    return outcome(engine, seed, timed_out, refusals, record_log)


def outcome(engine: Engine, seed: int, timed_out: bool = False, refusals: int = 0,
            record_log: bool = False) -> FightResult:
    """Read a finished (or stopped) fight's result off its state and log."""
    state = engine.state
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    dropped: set[str] = set()
    attacks = 0
    for e in engine.log:
        if type(e) is ev.AttackRolled:
            attacks += 1
        elif type(e) is ev.DamageTaken:
            taken[e.target] = taken.get(e.target, 0) + e.amount
            dealt[e.source] = dealt.get(e.source, 0) + e.amount
            if e.health.hp <= 0:
                dropped.add(e.target)
        elif type(e) is ev.HealthSet and e.health.hp <= 0:
            dropped.add(e.target)
    rows = tuple(_combatant(c, c.id in dropped, dealt.get(c.id, 0), taken.get(c.id, 0))
                 for c in state.combatants.values())
    winner = None if timed_out else state.winner
    rounds = state.round - 1 if timed_out else state.round  # stopped as the round after the limit began
    return FightResult(seed, winner, rounds, timed_out, rows, attacks, refusals,
                       tuple(engine.log) if record_log else None)


def morale_outcome(marks: Collection[MoraleMark], style: BreakBehaviour | None) -> str | None:
    """A combatant's morale outcome from its marks and break style (what results and signatures report), or None."""
    morale = next((key for key in MORALE_OUTCOMES if MoraleMark(key) in marks), None) if marks else None
    if morale is not None and style is BreakBehaviour.COWER:
        morale = "cowered"  # a cornered animal (MOR-23): out of the fight like a surrender
    elif morale is not None and style is not None and style is not BreakBehaviour.FLEE:
        morale = f"{morale} ({style.value})"  # what its type did on breaking (MOR-24): "fled (scatter)" …
    return morale


def _combatant(c: Combatant, dropped: bool, dealt: int, taken: int) -> CombatantResult:
    morale = morale_outcome(c.supplies.marks, break_style(c))
    return CombatantResult(c.id, c.name, c.side, dropped or c.health.hp <= 0, c.health.is_dead, dealt, taken,
                           c.health.hp, c.health.max_hp, morale, c.creature.id)
