"""Edition 2's Trip in the fight kernel's lowering: the AI's openers, the contest, prone and Dazed (E-37).

Under ``checks.new_maneuvers`` the tactical AI weighs Feint (FNT-1..7) and Trip (TRP-1..4) as openers of the plans
it makes from the square it stands on (``ashfall.ai.openers``). This module lowers what the kernel needs to play
that exactly, every number read off the reference's own rules:

- the AI's plans with openers (:func:`opener_tables`): for the square it stands on against a target up (Trip and
  Feint where legal: TRP-1's size limit ``too_large``, FNT-6's senses) or prone (Feint only: a prone creature is
  not tripped again), and for a square it moves to against a prone target, each the best of ``plans_for`` by
  ``plan_key`` as ``TurnView.best_plan`` finds it, with the openers' odds of ``contest_win`` (the AI's
  ``openers``) and the prone target's odds inputs as its ``prone_copy`` gives them; and what a prone enemy's
  attack is worth to it (``enemy_hit`` with the enemy prone: C-PRO's disadvantage). A plan whose first block
  is a Feint is refused by name: the kernel plays Trip, not Feint (the lowering checks every state a turn can
  reach: no more MAP steps than the actions spent allow);
- the contest (:func:`lower_maneuvers`): each side's d20s and total for every face (the rules' own ``contest`` on
  the fight's creatures, the initiator Dazed or not), whether a margin settles the contest (``contest_settled``:
  a tie is rolled again under ``checks.contest_tie = reroll``), wins (``initiator_wins``) or wins by
  ``checks.degree_margin`` (CON-5: Prone and Dazed, TRP-4), each side's skill as the reference logs it (the
  initiator's better one, the defender's controller's answer, X-09);
- the attack tables for a prone target that is up (melee advantage, C-PRO, AMOD-4) and for a prone attacker
  (its Attack of Opportunity at disadvantage), appended to ``outcome``/``draws`` as target states 4..9
  (:data:`PRONE_UP`, :data:`ATTACKER_PRONE`);
- Dazed (G-13, the default: 2 actions on its next turn and no reactions until it ends; the flat-footed option
  is refused), and Stand's cost for everyone (ACT-5).

Trip on a creature with allies is refused (:func:`maneuver_problem`): a prone interceptor and the AI's judging
of an Intercept for a prone ally (RX-26) are not lowered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.odds_cache import attack_value, contest_win, ruleset_token
from ashfall.ai.plan_tables import best_at_each_hp
from ashfall.ai.plans import Block, Setting, drafts_for
from ashfall.ai.profile import AttackBase, base_for, prone_copy
from ashfall.ai.sight import situation_of
from ashfall.ai.turn import TurnView
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, Skill
from ashfall.engine import Combatant, Feint, Stand
from ashfall.engine.context import Context
from ashfall.families.attacks.rules_activities import Activity, action_cost
from ashfall.families.maneuvers.engine import as_stat, defense_choice, side, stat_name, too_large
from ashfall.families.maneuvers.moves import Trip
from ashfall.rules import conditions as cond
from ashfall.rules.checks import (
    ContestResult,
    ContestSide,
    Degree,
    _degree,
    contest,
    contest_settled,
    initiator_wins,
    maneuver_stats,
    stat_modifier,
)
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.health import falls_dying
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import ContestTie
from ashfall.ruleset.sections.enums import DazedEffect
from ashfall.sim.kernel_faces import Faces
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
TRP_3, TRP_4 = rule("TRP-3"), rule("TRP-4")

TRIP_FIRST = 9
"""A plan's first block as the kernel's code when it is a Trip (``plan_first``; 0..2 are the activities)."""
OPEN_UP, OPEN_PRONE, MOVED_PRONE = 0, 1, 2
"""Variants of the opener tables: where it stands against a target up (openers), against one prone (Feint
only), and from a square it moves to against a prone target (no openers)."""
PRONE_UP = 4
"""The attack tables' target state of a prone target that is up (after the base four of ``kernel_lower``)."""
ATTACKER_PRONE = 5
"""Added to a target state when the attacker lies prone (its Attack of Opportunity)."""
ALL_STATES = 10
"""Target states of the attack tables with prone ones (``2 * ATTACKER_PRONE``)."""
MV_ON, MV_TRIP_LABEL, MV_TRIP_COST, MV_DAZED_ACTIONS, MV_MARGIN_OFF = 0, 1, 2, 3, 4
"""Slots of ``ManeuverTables.ints``: Trip in play, its ``actions-spent`` label (an index of ``action_names``),
the actions it costs, a Dazed creature's actions (G-13), and the offset of a margin in ``margins``."""
MARGIN_SETTLED, MARGIN_WINS, MARGIN_CRIT = 0, 1, 2
"""Rows of ``ManeuverTables.margins``."""


class KernelManeuverUnsupported(ValueError):
    """A maneuver the kernel cannot play exactly (the message names it)."""


@dataclass(frozen=True, slots=True)
class ManeuverTables:
    """Trip as the compiled fight plays it (``ashfall.kernel.maneuvers``).

    Attributes:
        ints: Switches and numbers (``MV_*``).
        contest_draws: ``[initiator, defender, initiator Dazed, side]`` d20s each side rolls (side 0 the initiator).
        contest_total: ``[initiator, defender, initiator Dazed, side, first face - 1, second face - 1]`` its total.
        margins: ``[MARGIN_*, margin + offset]``: the contest settled, the initiator wins, it wins by the degree
            margin (CON-2, CON-5, G-45).
        check_label: ``[initiator, defender, side]`` the index in ``check_names`` of the side's logged check.
        check_names: The labels of the contest's two ``check-rolled`` steps (``Trip: athletics`` ...).
        dazed: A scratch row the compiled fight keeps Dazed in (0 no, 1 Dazed, 2 Dazed on its own turn).
    """

    ints: I64
    contest_draws: I64
    contest_total: I64
    margins: I64
    check_label: I64
    check_names: tuple[str, ...]
    dazed: I64


def maneuver_problem(fight: Fight) -> str | None:
    """What of edition 2's maneuvers the kernel does not play for the AI in this fight (None: it plays them)."""
    state = fight.engine.state
    rs = state.ruleset
    if not rs.checks.new_maneuvers:
        return None
    if not any(isinstance(p, TacticalPolicy) for p in fight.policies.values()):
        return None
    if rs.conditions.dazed is not DazedEffect.TWO_ACTIONS_NO_REACTIONS:
        return "the tactical AI's Trip with Dazed as flat-footed (TRP-4, G-13 option)"
    for c in state.combatants.values():
        if not isinstance(fight.policies.get(c.id), TacticalPolicy):
            continue
        for e in state.enemies_of(c.id):
            if state.allies_of(e.id):  # a prone creature's Intercept and its allies' judging of it are not mirrored
                return f"the tactical AI's Trip on a creature with allies (prone interceptors, RX-26, combatant {e.id})"
    return None


def uses_trip(fight: Fight) -> bool:
    """Whether the tactical AI may Trip in this fight (edition 2's maneuvers, E-37)."""
    return fight.engine.state.ruleset.checks.new_maneuvers and any(
        isinstance(p, TacticalPolicy) for p in fight.policies.values())


@contextmanager
def with_conditions(c: Combatant, *added: Condition) -> Iterator[None]:
    """The creature with conditions added (prone after a Trip, TRP-3; Dazed, TRP-4), restored afterwards."""
    conditions = c.conditions
    c.conditions = (*conditions, *(AppliedCondition(x, TRP_4 if x is Condition.DAZED else TRP_3) for x in added))
    try:
        yield
    finally:
        c.conditions = conditions


def _trip_legal(fight: Fight, a: Combatant, t: Combatant) -> bool:
    """Trip's own limits on the pair (TRP-1: at most ``maneuver_max_larger`` sizes larger), the rules' ``too_large``."""
    state = fight.engine.state
    return Trip in state.rulebook.actions and not too_large(state, a, t)


def _feint_legal(fight: Fight, a: Combatant, t: Combatant) -> bool:
    """Feint's standing limits on the pair: the target perceives the actor (FNT-1, FNT-6)."""
    state = fight.engine.state
    blind = {Condition.BLINDED, Condition.UNCONSCIOUS} & t.condition_set
    hidden = a.has(Condition.HIDDEN) or Condition.INVISIBLE in a.condition_set
    return Feint in state.rulebook.actions and not blind and not hidden


def _prone_base(fight: Fight, a: Combatant, t: Combatant, code: int) -> AttackBase | None:
    """The odds inputs of ``a``'s attack on ``t`` once tripped, as ``TurnView._base_in(prone=True)`` builds them."""
    state = fight.engine.state
    option = kernel_options(a, state)[0]
    who = prone_copy(a, t)
    defenses = Defenses.of_creature(t.creature, t.armor, t.condition_set)
    token = ruleset_token(state.ruleset)
    return base_for(state, a, who, option, situation_of(code), token, defenses, (a.condition_set, who.condition_set))


def opener_tables(fight: Fight, roster: Sequence[Combatant], views: Sequence[int], max_map: int, actions: int,
                  hp_most: int) -> tuple[F64, F64, I64, F64]:
    """The AI's best plans with openers and against prone targets, and what a prone enemy's attack is worth.

    Returns ``open_frac``, ``open_drop``, ``open_first`` (``[variant, attacker, target, situation, MAP steps,
    actions left, HP left]``, variants :data:`OPEN_UP`, :data:`OPEN_PRONE`, :data:`MOVED_PRONE`) and
    ``enemy_hit_prone`` (``[enemy, combatant, situation]``, the enemy prone).

    Raises:
        KernelManeuverUnsupported: Where the AI would open with a Feint, or Dazed changes the odds it reads.
    """
    from ashfall.sim.kernel_ai_lower import FIRST_BLOCKS, _melee_code, _settled_base

    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    codes = 4 * len(views)
    reroll = rs.checks.contest_tie is ContestTie.REROLL
    shape = (3, n, n, codes, max_map, actions + 1, hp_most + 1)
    open_frac = np.zeros(shape, np.float64)
    open_drop = np.zeros(shape, np.float64)
    open_first = np.full(shape, -1, np.int64)
    enemy_hit_prone = np.zeros((n, n, codes), np.float64)
    athletics, acrobatics = maneuver_stats(rs)
    # the most MAP steps a turn can have counted after spending some actions: All-Out Attack's attacks for its
    # cost at best (MAA-7), else one per action
    per_action = max(1.0, rs.attack.all_out_attacks / (action_cost(Activity.ALL_OUT, rs) or 1))

    def most_steps(spent: int) -> int:
        return int(spent * per_action + 1e-9)

    for i, c in enumerate(roster):
        policy = fight.policies.get(c.id)
        if not isinstance(policy, TacticalPolicy):
            continue
        drop_step = policy.config.drop_step
        view = TurnView(fight.engine, c, ())
        option = kernel_options(c, state)[0]  # its first melee option
        costs = view.costs(option)
        plain = view.available(option) - {Block.SWEEP, Block.FULL_AUTO}
        mine = max(stat_modifier(c.creature, s) for s in (athletics, acrobatics))
        deception = stat_modifier(c.creature, Skill.DECEPTION)
        for j, t in enumerate(roster):
            if t.side == c.side:
                continue
            theirs = max(stat_modifier(t.creature, s) for s in (athletics, acrobatics))
            feint = contest_win(deception, stat_modifier(t.creature, Skill.INSIGHT), reroll) \
                if _feint_legal(fight, c, t) else None
            trip_ok = _trip_legal(fight, c, t)
            for code in range(codes):
                flanking, close, seen = bool(code & 1), bool(code & 2), views[code // 4]
                with with_conditions(t, Condition.PRONE):
                    hit = _settled_base(fight, t, c, flanking, close, seen, own=False)
                enemy_hit_prone[j, i, code] = attack_value(hit.key(1)).expected if hit is not None else 0.0
                _dazed_changes_nothing(fight, t, c, flanking, close, seen, own=False)
                if not close or (flanking and not state.allies_of(c.id)):
                    continue  # as ``lower_ai``: the AI attacks from beside its target, flanking only with allies
                base = _settled_base(fight, c, t, flanking, close, seen, own=True)
                if base is None:
                    continue
                _dazed_changes_nothing(fight, c, t, flanking, close, seen, own=True)
                with with_conditions(t, Condition.PRONE):
                    lying = _settled_base(fight, c, t, flanking, close, seen, own=True)
                    with with_conditions(t, Condition.DAZED):
                        if _settled_base(fight, c, t, flanking, close, seen, own=True) != lying:
                            raise KernelManeuverUnsupported(
                                f"the tactical AI's odds against a Dazed target (G-13, combatant {t.id})")
                tripped = _prone_base(fight, c, t, _melee_code(flanking, close, close, seen)) if trip_ok else None
                for variant in (OPEN_UP, OPEN_PRONE, MOVED_PRONE):
                    odds: dict[tuple[Block, str], float] = {}
                    prone: dict[str, AttackBase] = {}
                    available = plain
                    target_base = base if variant == OPEN_UP else lying
                    if target_base is None:
                        continue
                    if variant != MOVED_PRONE and feint is not None:
                        available = available | {Block.FEINT}
                        odds[(Block.FEINT, t.id)] = feint
                    if variant == OPEN_UP and tripped is not None:
                        available = available | {Block.TRIP}
                        odds[(Block.TRIP, t.id)] = contest_win(mine, theirs, reroll)
                        prone[t.id] = tripped
                    for steps in range(max_map):
                        for left in range(1, actions + 1):
                            # the plans walked once, valued at every HP at once (``best_valued`` at each HP)
                            setting = Setting(option, {t.id: target_base}, prone, {}, {}, steps, None, available,
                                              odds)
                            drafts = tuple(drafts_for(t.id, setting, costs, left, openers=variant != MOVED_PRONE))
                            best = best_at_each_hp(drafts, t.id, hp_most, drop_step)
                            for draft, hps in best.groups():
                                block = draft.blocks[0]
                                if block is Block.TRIP:
                                    first = TRIP_FIRST
                                elif block in FIRST_BLOCKS:
                                    first = FIRST_BLOCKS[block]
                                else:
                                    if steps > most_steps(actions - left):
                                        continue  # no turn gets here: never read
                                    raise KernelManeuverUnsupported(
                                        f"the tactical AI's {block.value} as an opener (combatant {c.id})")
                                at = (variant, i, j, code, steps, left, hps)
                                open_frac[at], open_drop[at], open_first[at] = best.frac[hps - 1], \
                                    best.p_drop[hps - 1], first
    return open_frac, open_drop, open_first, enemy_hit_prone


def _dazed_changes_nothing(fight: Fight, a: Combatant, t: Combatant, flanking: bool, close: bool, seen: int, *,
                           own: bool) -> None:
    """Dazed (G-13, its default) must not change the odds the AI reads of ``a``'s attack on ``t``: checked."""
    from ashfall.sim.kernel_ai_lower import _settled_base

    found = _settled_base(fight, a, t, flanking, close, seen, own=own)
    for who in (a, t):
        with with_conditions(who, Condition.DAZED):
            if _settled_base(fight, a, t, flanking, close, seen, own=own) != found:
                raise KernelManeuverUnsupported(f"the tactical AI's odds with a Dazed creature (G-13, combatant "
                                                f"{who.id})")


def lower_maneuvers(fight: Fight, roster: Sequence[Combatant], action_names: Sequence[str]) -> ManeuverTables:
    """Trip's contest, Dazed and its labels for the compiled fight (empty when the AI cannot Trip).

    Raises:
        KernelManeuverUnsupported: For a contest side rolling other than one or two d20s.
    """
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    ints = np.zeros(5, np.int64)
    if not uses_trip(fight):
        return ManeuverTables(ints, np.ones((1, 1, 1, 2), np.int64), np.zeros((1, 1, 1, 2, 20, 20), np.int64),
                              np.zeros((3, 1), np.int64), np.zeros((1, 1, 2), np.int64), (), np.zeros(n, np.int64))
    quiet = rs.with_options(checks={"contest_tie": ContestTie.STATUS_QUO.value})  # one round of rolls each
    context = Context(state, fight.engine.rng, [], fight.engine.controllers, ())
    mine = tuple(as_stat(s, context) for s in (Skill.ATHLETICS, Skill.ACROBATICS))
    draws = np.ones((n, n, 2, 2), np.int64)
    totals = np.zeros((n, n, 2, 2, 20, 20), np.int64)
    labels = np.zeros((n, n, 2), np.int64)
    names: list[str] = []
    low, high = 0, 0
    for i, a, j, t in _ai_pairs(fight, roster, _trip_legal):
        choice = defense_choice(context, t, a, "trip")
        for dazed in (0, 1):
            with with_conditions(a, *((Condition.DAZED,) if dazed else ())):
                first = side(context, a, mine)
                second = side(context, t, mine, as_stat(choice, context))
                probe = _contest_faces(first, second, quiet, draws[i, j, dazed], totals[i, j, dazed], "Trip", a)
                for k, stat in enumerate((probe.initiator_stat, probe.defender_stat)):
                    name = f"Trip{' (defending)' if k else ''}: {stat_name(stat)}"
                    if dazed and names[labels[i, j, k]] != name:
                        raise KernelManeuverUnsupported(f"a Dazed creature's Trip skill (combatant {a.id})")
                    if name not in names:
                        names.append(name)
                    labels[i, j, k] = names.index(name)
        used = totals[i, j]
        low = min(low, int(used[:, 0].min() - used[:, 1].max()))
        high = max(high, int(used[:, 0].max() - used[:, 1].min()))
    margins = np.zeros((3, high - low + 1), np.int64)
    tie = rs.checks.contest_tie
    for m in range(low, high + 1):
        margins[MARGIN_SETTLED, m - low] = contest_settled(m, tie)
        margins[MARGIN_WINS, m - low] = initiator_wins(m)
        margins[MARGIN_CRIT, m - low] = m >= rs.checks.degree_margin
    probe_actor = next(c for c in roster if isinstance(fight.policies.get(c.id), TacticalPolicy))
    target = next(c for c in roster if c.side != probe_actor.side)
    trip_cost = state.rulebook.actions[Trip].cost(state, Trip(probe_actor.id, target.id))
    dazed_actions = cond.max_actions(frozenset({Condition.DAZED}), rs).actions
    ints[MV_ON] = 1
    ints[MV_TRIP_LABEL] = list(action_names).index(state.rulebook.actions[Trip].name)
    ints[MV_TRIP_COST] = trip_cost
    ints[MV_DAZED_ACTIONS] = min(dazed_actions, rs.turn.actions_per_turn)
    ints[MV_MARGIN_OFF] = -low
    return ManeuverTables(ints, draws, totals, margins, labels, tuple(names), np.zeros(n, np.int64))


def _ai_pairs(fight: Fight, roster: Sequence[Combatant], legal: Callable[[Fight, Combatant, Combatant], bool],
              ) -> Iterator[tuple[int, Combatant, int, Combatant]]:
    """Each AI creature and each enemy it may use the maneuver on (``legal``), with their roster indices."""
    for i, a in enumerate(roster):
        if not isinstance(fight.policies.get(a.id), TacticalPolicy):
            continue
        for j, t in enumerate(roster):
            if t.side != a.side and legal(fight, a, t):
                yield i, a, j, t


def _contest_faces(first: ContestSide, second: ContestSide, quiet: Ruleset, draws: I64, totals: I64, name: str,
                   a: Combatant) -> ContestResult:
    """One contest's d20 counts per side into ``draws`` and each side's total for every face into ``totals``.

    Asked of the rules' ``contest`` on the two sides (one round of rolls, ``quiet``); returns a probe roll (its
    stats name the logged checks).

    Raises:
        KernelManeuverUnsupported: For a side rolling other than one or two d20s.
    """
    probe = contest(first, second, Faces(after=10), quiet)
    counts = (len(probe.initiator_roll.faces), len(probe.defender_roll.faces))
    if any(k not in (1, 2) for k in counts):
        raise KernelManeuverUnsupported(f"a {name} contest of {counts} d20s (combatant {a.id})")
    draws[0], draws[1] = counts
    for x in range(1, 21):
        for y in range(1, 21) if counts[0] == 2 else (1,):
            got = contest(first, second, Faces(*((x, y) if counts[0] == 2 else (x,)), after=10), quiet)
            totals[0, x - 1, y - 1] = got.initiator_roll.total
    for x in range(1, 21):
        for y in range(1, 21) if counts[1] == 2 else (1,):
            faces = (10,) * counts[0] + ((x, y) if counts[1] == 2 else (x,))
            got = contest(first, second, Faces(*faces, after=10), quiet)
            totals[1, x - 1, y - 1] = got.defender_roll.total
    return probe


FEINT_NOTHING, FEINT_WON, FEINT_BACKFIRED = 0, 1, 2
"""What a Feint did: nothing (FNT-4), advantage on the feinter's next melee attack against the target (FNT-3), the
target's advantage on its next attack against the feinter (lost by ``checks.degree_margin``, FNT-5, CON-5)."""


@dataclass(frozen=True, slots=True)
class FeintContest:
    """Feint's contest for each pair (FNT-2): the groundwork of the AI's Feint opener on the kernel.

    Attributes:
        draws: ``[feinter, target, side]`` d20s each side rolls (side 0 the feinter: Deception; 1: Insight).
        totals: ``[feinter, target, side, first face - 1, second face - 1]`` the side's total.
        margins: ``[row, margin + offset]``: rows ``MARGIN_SETTLED``, then the outcome (``FEINT_*``).
        offset: Added to a margin to index ``margins``.
    """

    draws: I64
    totals: I64
    margins: I64
    offset: int


def lower_feint_contest(fight: Fight, roster: Sequence[Combatant]) -> FeintContest:
    """Each AI creature's Feint contest against each enemy, every face read off the rules' own ``contest``.

    The sides are the reference's (``_resolve_feint``: Deception against Insight, FNT-2), the margins' outcomes its
    ``initiator_wins`` and its degree of a loss (``_degree``: lost by ``checks.degree_margin``, CON-5). Charm's
    advantage on the Deception (C-CHA) is not lowered: a fight with starting conditions is refused.

    Raises:
        KernelManeuverUnsupported: For a contest side rolling other than one or two d20s.
    """
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    quiet = rs.with_options(checks={"contest_tie": ContestTie.STATUS_QUO.value})  # one round of rolls each
    context = Context(state, fight.engine.rng, [], fight.engine.controllers, ())
    draws = np.ones((n, n, 2), np.int64)
    totals = np.zeros((n, n, 2, 20, 20), np.int64)
    low, high = 0, 0
    for i, a, j, t in _ai_pairs(fight, roster, _feint_legal):
        _contest_faces(side(context, a, (Skill.DECEPTION,)), side(context, t, (Skill.INSIGHT,)), quiet,
                       draws[i, j], totals[i, j], "Feint", a)
        low = min(low, int(totals[i, j, 0].min() - totals[i, j, 1].max()))
        high = max(high, int(totals[i, j, 0].max() - totals[i, j, 1].min()))
    margins = np.zeros((2, high - low + 1), np.int64)
    for m in range(low, high + 1):
        margins[MARGIN_SETTLED, m - low] = contest_settled(m, rs.checks.contest_tie)
        margins[1, m - low] = FEINT_WON if initiator_wins(m) else (
            FEINT_BACKFIRED if _degree(m, rs)[0] is Degree.CRITICAL_FAILURE else FEINT_NOTHING)
    return FeintContest(draws, totals, margins, -low)


def stand_costs(fight: Fight, roster: Sequence[Combatant]) -> I64:
    """Actions Stand costs each creature lying prone (ACT-5), asked of the rulebook with it prone."""
    state = fight.engine.state
    stand = state.rulebook.actions[Stand]
    found = np.zeros(len(roster), np.int64)
    for i, c in enumerate(roster):
        with with_conditions(c, Condition.PRONE):
            found[i] = stand.cost(state, Stand(c.id))
    return found


def trip_action_name(fight: Fight) -> str:
    """Trip's engine name (its ``actions-spent`` label)."""
    return str(fight.engine.state.rulebook.actions[Trip].name)


def prone_attack_tables(fight: Fight, roster: Sequence[Combatant], outcome: npt.NDArray[np.int8], draws: I64,
                        variants: Sequence[Any], used: dict[str, set[int]], codes: Sequence[int | None],
                        sights: Any, act_legal: I64, prepared: Any) -> tuple[npt.NDArray[np.int8], I64]:
    """``outcome``/``draws`` with the prone target states appended (:data:`PRONE_UP`, :data:`ATTACKER_PRONE`).

    The same attacks as ``kernel_lower.lower`` tabulates, asked of ``resolve_attack`` (``_tabulate``) with the target
    up and prone (melee advantage, C-PRO), and, for an Attack of Opportunity, the attacker prone (disadvantage)
    against a mover in each of the base states.
    """
    from ashfall.sim import kernel_lower as kl

    state = fight.engine.state
    rs = state.ruleset
    base_states = outcome.shape[4]
    shape = list(outcome.shape)
    shape[4] = ALL_STATES
    out = np.zeros(tuple(shape), np.int8)
    more = np.ones(tuple(shape[:6]), np.int64)
    out[:, :, :, :, :base_states] = outcome
    more[:, :, :, :, :base_states] = draws
    moving = kl._moves(state)
    for i, a in enumerate(roster):
        for j, t in enumerate(roster):
            if a.side == t.side:
                continue
            for s in range(PRONE_UP, ALL_STATES):
                down, lying = s % ATTACKER_PRONE, s >= ATTACKER_PRONE
                if down == kl.DOWN_DYING and not falls_dying(t.health, rs):
                    continue
                if kl.DOWN_DEAD <= down < PRONE_UP and not moving:
                    continue
                if down == kl.DOWN_DEAD_PRONE and not falls_dying(t.health, rs):
                    continue
                raised = (Condition.PRONE,) if lying else ()
                with kl._downed(t, down if down < PRONE_UP else 0), kl._beside(state, a, t), \
                        with_conditions(t, *((Condition.PRONE,) if down == PRONE_UP else ())), \
                        with_conditions(a, *raised):
                    for k, _ in enumerate(kl.TABLE_ACTIVITIES):
                        if k < kl.AOO and (lying or not act_legal[i, k]):
                            continue  # a prone creature stands before its own attacks (ACT-5)
                        if k == kl.AOO and not moving:
                            continue
                        if 0 < down < PRONE_UP and not (k == kl.AOO or (k == kl.ALL_OUT and down == kl.DOWN_DYING)):
                            continue
                        for v, _m in enumerate(variants):
                            if (k == kl.ALL_OUT and v not in used["all_out"]) or (k == kl.AOO and v != 0) or \
                                    (k in (kl.STRIKE, kl.POWER) and v not in used["map"]):
                                continue
                            for s_, code in enumerate(codes):
                                if 0 < down < PRONE_UP and code is not None and not code & 2:
                                    continue
                                if code is not None and code & 1 and not state.allies_of(a.id):
                                    continue
                                if code is not None and not code & 2 and not state.allies_of(t.id):
                                    continue
                                if code is not None and code // kl.SITUATIONS not in (
                                        sights.near if code & 2 else sights.far):
                                    continue
                                view = sights.views[code // kl.SITUATIONS] if code is not None else None
                                count, table, _parts = kl._tabulate(state, a, t, kl.TABLE_ACTIVITIES[k],
                                                                    variants[v], code, view, prepared)
                                more[i, j, k, v, s, s_] = count
                                out[i, j, k, v, s, s_] = table
    return out, more


__all__ = [
    "ALL_STATES",
    "ATTACKER_PRONE",
    "FEINT_BACKFIRED",
    "FEINT_NOTHING",
    "FEINT_WON",
    "PRONE_UP",
    "TRIP_FIRST",
    "FeintContest",
    "KernelManeuverUnsupported",
    "ManeuverTables",
    "lower_feint_contest",
    "lower_maneuvers",
    "maneuver_problem",
    "opener_tables",
    "prone_attack_tables",
    "stand_costs",
    "uses_trip",
    "with_conditions",
]
