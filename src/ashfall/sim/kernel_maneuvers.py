"""Edition 2's Trip and Feint in the fight kernel's lowering: the AI's openers, the contests, their effects (E-37).

Under ``checks.new_maneuvers`` the tactical AI weighs Feint (FNT-1..7) and Trip (TRP-1..4) as openers of the plans
it makes from the square it stands on (``ashfall.ai.openers``). This module lowers what the kernel needs to play
that exactly, every number read off the reference's own rules:

- the AI's plans with openers (:func:`opener_tables`): for the square it stands on against a target up (Trip and
  Feint where legal: TRP-1's size limit ``too_large``, FNT-6's senses) or prone (Feint only: a prone creature is
  not tripped again), and for a square it moves to against a prone target (no openers), each the best of
  ``plans_for`` by ``plan_key`` as ``TurnView.best_plan`` finds it, with the openers' odds of ``contest_win`` (the
  AI's ``openers``) and the prone target's odds inputs as its ``prone_copy`` gives them; after a Feint on the
  target this turn, the same without a Feint (FNT-7) and, with its advantage won, on the odds inputs the AI reads
  with the Feint's effect in the state (FNT-3); and what a prone enemy's attack is worth to it (``enemy_hit`` with
  the enemy prone: C-PRO's disadvantage). A Feint the kernel does not mirror is named (:func:`feint_problem`; the
  lowering checks every state a turn can reach: no more MAP steps than the actions spent allow);
- the contests (:func:`lower_maneuvers`, :func:`lower_feint_contest`): each side's d20s and total for every face
  (the rules' own ``contest`` on the fight's creatures, the initiator Dazed or not), whether a margin settles the
  contest (``contest_settled``: a tie is rolled again under ``checks.contest_tie = reroll``), wins
  (``initiator_wins``) or wins by ``checks.degree_margin`` (CON-5: Prone and Dazed, TRP-4; a Feint lost by it
  backfires, FNT-5), each side's skill as the reference logs it (the initiator's better one, the defender's
  controller's answer, X-09);
- the attack tables for a prone target that is up (melee advantage, C-PRO, AMOD-4) and for a prone attacker
  (its Attack of Opportunity at disadvantage), appended to ``outcome``/``draws`` as target states 4..9
  (:data:`PRONE_UP`, :data:`ATTACKER_PRONE`), and with a Feint's advantage on the attack (:data:`ADVANTAGED`);
- Dazed (G-13, the default: 2 actions on its next turn and no reactions until it ends; the flat-footed option
  is refused), and Stand's cost for everyone (ACT-5).

Trip on a creature with allies is refused (:func:`maneuver_problem`): a prone interceptor and the AI's judging
of an Intercept for a prone ally (RX-26) are not lowered. The AI's target choice for a scripted plan without a target
rule weighs the openers too (:func:`weighs_openers`): its plans are lowered with the AI's, the contests and prone
tables only where the AI itself may Trip (:func:`uses_trip`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
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
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.state import EncounterState
from ashfall.families.attacks.rules_activities import Activity, action_cost
from ashfall.families.maneuvers.engine import as_stat, defense_choice, end_of_this_turn, side, stat_name, too_large
from ashfall.families.maneuvers.moves import Trip
from ashfall.grid.board import SQUARE_FT
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
from ashfall.rules.condition_durations import AppliedCondition, Duration
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.health import falls_dying
from ashfall.rules.reach import attack_limit_ft
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import ContestTie
from ashfall.ruleset.sections.enums import DazedEffect
from ashfall.sim.kernel_faces import Faces
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
TRP_3, TRP_4 = rule("TRP-3"), rule("TRP-4")
FNT_3, FNT_5 = rule("FNT-3"), rule("FNT-5")

TRIP_FIRST = 9
"""A plan's first block as the kernel's code when it is a Trip (``plan_first``; 0..2 are the activities)."""
FEINT_FIRST = 8
"""A plan's first block as the kernel's code when it is a Feint (FNT-1)."""
OPEN_UP, OPEN_PRONE, MOVED_PRONE = 0, 1, 2
"""Variants of the opener tables: where it stands against a target up (openers), against one prone (Feint
only), and from a square it moves to against a prone target (no openers)."""
FEINTED_UP, ADV_UP, ADV_PRONE, ADV_MOVED_UP = 3, 4, 5, 6
"""Variants after a Feint on the target this turn (fights with a Feint only): where it stands against the target up
after a Feint that left it nothing (Trip only, FNT-7), where it stands against it up with the Feint's advantage
live (FNT-3: its next melee attack on it, Trip only), against it prone with the advantage (no openers, wherever it
stands), and from a square it moves to against it up with the advantage (no openers). After a Feint that left
nothing, a prone target's and a moved square's plans are those without it (``MOVED_PRONE``, ``plan_*``)."""
VARIANTS, FEINT_VARIANTS = 3, 7
"""The opener tables' variants without a Feint in the fight, and with one."""
PRONE_UP = 4
"""The attack tables' target state of a prone target that is up (after the base four of ``kernel_lower``)."""
ATTACKER_PRONE = 5
"""Added to a target state when the attacker lies prone (its Attack of Opportunity)."""
ALL_STATES = 10
"""Target states of the attack tables with prone ones (``2 * ATTACKER_PRONE``)."""
ADVANTAGED = ALL_STATES
"""Added to a target state when the attacker has "advantage on its next attack" against the target from a Feint
(FNT-3 for the feinter's melee attack, FNT-5 for the target's answer): the tables of a fight with a Feint hold
``2 * ALL_STATES`` target states."""
MV_ON, MV_TRIP_LABEL, MV_TRIP_COST, MV_DAZED_ACTIONS, MV_MARGIN_OFF = 0, 1, 2, 3, 4
MV_FEINT_LABEL, MV_FEINT_COST, MV_FEINT_OFF = 5, 6, 7
"""Slots of ``ManeuverTables.ints``: Trip in play, its ``actions-spent`` label (an index of ``action_names``),
the actions it costs, a Dazed creature's actions (G-13), and the offset of a margin in ``margins``; then Feint's
label, cost (FNT-1) and the offset of a margin in ``FeintContest.margins``."""
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
        feint: The AI's Feint contest (FNT-2; empty tables without Trip), its labels indices of ``check_names``.
        feinted: A scratch ``[bearer, other]`` matrix the compiled fight keeps a Feint's effects in (bits,
            ``ashfall.kernel.maneuvers.FX_*``).
    """

    ints: I64
    contest_draws: I64
    contest_total: I64
    margins: I64
    check_label: I64
    check_names: tuple[str, ...]
    dazed: I64
    feint: FeintContest
    feinted: I64


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


def weighs_openers(fight: Fight) -> bool:
    """Whether some choice in this fight weighs edition 2's openers Trip and Feint (E-37).

    The tactical AI's own turns (:func:`uses_trip`), or its target choice for a scripted plan without a target rule
    (``ashfall.ai.target_choice``: the AI's candidates with its default config, openers on), though such a plan
    itself never trips nor feints: its rows of the opener tables only rank targets.
    """
    from ashfall.sim.kernel_ai_lower import asks_the_ai, decision_config

    state = fight.engine.state
    return uses_trip(fight) or (state.ruleset.checks.new_maneuvers and any(
        asks_the_ai(fight, c) and decision_config(fight, c).openers for c in state.combatants.values()))


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
    actions left, HP left]``, variants :data:`OPEN_UP`, :data:`OPEN_PRONE`, :data:`MOVED_PRONE`, and with a Feint
    in the fight :data:`FEINTED_UP`, :data:`ADV_UP`, :data:`ADV_PRONE`, :data:`ADV_MOVED_UP`: the plans after a
    Feint on the target this turn, FNT-7, with its advantage live or not, FNT-3, each read off the AI's own
    ``base_for`` with the Feint's effect in the state) and ``enemy_hit_prone`` (``[enemy, combatant,
    situation]``, the enemy prone). A scripted plan's target choice (``kernel_ai_lower.asks_the_ai``) has its rows
    of the first three variants too, under the AI's default config: it never feints, so a Feint first is neither
    checked (:func:`feint_problem`) nor followed by the variants after one.

    Raises:
        KernelManeuverUnsupported: Where the AI would open with a Feint the kernel does not mirror
            (:func:`feint_problem`), or Dazed changes the odds it reads.
    """
    from ashfall.sim.kernel_ai_lower import FIRST_BLOCKS, _melee_code, _settled_base, asks_the_ai, decision_config

    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    codes = 4 * len(views)
    reroll = rs.checks.contest_tie is ContestTie.REROLL
    feints = any(True for _ in _ai_pairs(fight, roster, _feint_legal))
    shape = (FEINT_VARIANTS if feints else VARIANTS, n, n, codes, max_map, actions + 1, hp_most + 1)
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

    opening: set[tuple[int, int]] = set()  # each AI creature and target its plans may open with a Feint on
    for second in (False, True):
        for i, c in enumerate(roster):
            policy = fight.policies.get(c.id)
            # a scripted plan's target choice weighs the openers as the AI's candidates do (``target_choice``, its
            # default config), but the plan never Trips nor Feints: its rows are only read to rank targets
            chooses = not isinstance(policy, TacticalPolicy)
            if chooses and (second or not asks_the_ai(fight, c)):
                continue
            drop_step = decision_config(fight, c).drop_step
            view = TurnView(fight.engine, c, ())
            option = kernel_options(c, state)[0]  # its first melee option
            costs = view.costs(option)
            plain = view.available(option) - {Block.SWEEP, Block.FULL_AUTO}
            mine = max(stat_modifier(c.creature, s) for s in (athletics, acrobatics))
            deception = stat_modifier(c.creature, Skill.DECEPTION)
            for j, t in enumerate(roster):
                if t.side == c.side or (second and (i, j) not in opening):
                    continue
                theirs = max(stat_modifier(t.creature, s) for s in (athletics, acrobatics))
                feint = contest_win(deception, stat_modifier(t.creature, Skill.INSIGHT), reroll) \
                    if _feint_legal(fight, c, t) else None
                trip_ok = _trip_legal(fight, c, t)
                for code in range(codes):
                    flanking, close, seen = bool(code & 1), bool(code & 2), views[code // 4]
                    if not second:
                        with with_conditions(t, Condition.PRONE):
                            hit = _settled_base(fight, t, c, flanking, close, seen, own=False)
                        enemy_hit_prone[j, i, code] = attack_value(hit.key(1)).expected if hit is not None else 0.0
                        _dazed_changes_nothing(fight, t, c, flanking, close, seen, own=False)
                    if (not close and option.limit_ft <= SQUARE_FT) or (flanking and not state.allies_of(c.id)):
                        # as ``lower_ai``: the AI attacks from within its reach (a reach weapon's 10 ft too, where it
                        # Trips at that reach, TRP-1, and Feints within its melee reach, FNT-1), flanking only with
                        # allies
                        continue
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
                    melee = _melee_code(flanking, close, close, seen)
                    tripped = _prone_base(fight, c, t, melee) if trip_ok else None
                    # (variant, its target's odds inputs, Feint offered, Trip offered with these prone odds, openers)
                    settings: list[tuple[int, AttackBase | None, bool, AttackBase | None, bool]] = [] if second else [
                        (OPEN_UP, base, feint is not None, tripped, True),
                        (OPEN_PRONE, lying, feint is not None, None, True),
                        (MOVED_PRONE, lying, False, None, False)]
                    if second:  # after a Feint on it this turn: no second one (FNT-7), its advantage won or not
                        with with_effect(state, feint_effect(c, t)):  # its advantage (FNT-3), as the AI reads it
                            boosted = _settled_base(fight, c, t, flanking, close, seen, own=True)
                            with with_conditions(t, Condition.PRONE):
                                boosted_lying = _settled_base(fight, c, t, flanking, close, seen, own=True)
                            boosted_tripped = _prone_base(fight, c, t, melee) if trip_ok else None
                        settings += [(FEINTED_UP, base, False, tripped, True),
                                     (ADV_UP, boosted, False, boosted_tripped, True),
                                     (ADV_PRONE, boosted_lying, False, None, False),
                                     (ADV_MOVED_UP, boosted, False, None, False)]
                    for variant, target_base, feinting, trip_base, openers in settings:
                        odds: dict[tuple[Block, str], float] = {}
                        prone: dict[str, AttackBase] = {}
                        available = plain
                        if target_base is None:
                            continue
                        if feinting and feint is not None:
                            available = available | {Block.FEINT}
                            odds[(Block.FEINT, t.id)] = feint
                        if trip_base is not None:
                            available = available | {Block.TRIP}
                            odds[(Block.TRIP, t.id)] = contest_win(mine, theirs, reroll)
                            prone[t.id] = trip_base
                        for steps in range(max_map):
                            for left in range(1, actions + 1):
                                # the plans walked once, valued at every HP at once (``best_valued`` at each HP)
                                setting = Setting(option, {t.id: target_base}, prone, {}, {}, steps, None, available,
                                                  odds)
                                drafts = tuple(drafts_for(t.id, setting, costs, left, openers=openers))
                                best = best_at_each_hp(drafts, t.id, hp_most, drop_step)
                                for draft, hps in best.groups():
                                    block = draft.blocks[0]
                                    if block is Block.TRIP:
                                        first = TRIP_FIRST
                                    elif block is Block.FEINT:
                                        first = FEINT_FIRST
                                        problem = None if chooses else feint_problem(fight, c, t)
                                        if not chooses:
                                            opening.add((i, j))
                                        if problem is not None:
                                            if steps > most_steps(actions - left):
                                                continue  # no turn gets here: never read
                                            raise KernelManeuverUnsupported(problem)
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
    if not opening:  # no Feint: the variants after one are never read
        return open_frac[:VARIANTS], open_drop[:VARIANTS], open_first[:VARIANTS], enemy_hit_prone
    return open_frac, open_drop, open_first, enemy_hit_prone


@contextmanager
def with_effect(state: EncounterState, effect: TimedEffect) -> Iterator[None]:
    """The state with a timed effect added (a Feint's advantage, FNT-3, FNT-5), restored afterwards."""
    effects = state.effects
    state.effects = (*effects, effect)
    try:
        yield
    finally:
        state.effects = effects


def feint_effect(c: Combatant, t: Combatant) -> TimedEffect:
    """A won Feint's advantage on ``c``'s next melee attack on ``t`` this turn (FNT-3), as the engine adds it."""
    kind = EffectKind.ADVANTAGE_NEXT_ATTACK
    return TimedEffect(f"{kind.value}:{c.id}:kernel", kind, c.id, FNT_3, end_of_this_turn(c.id), against=t.id,
                       source=c.id, melee_only=True)


def backfire_effect(c: Combatant, t: Combatant) -> TimedEffect:
    """A Feint lost by the margin: ``t``'s advantage on its next attack on ``c`` (FNT-5, CON-5), as added."""
    kind = EffectKind.ADVANTAGE_NEXT_ATTACK
    return TimedEffect(f"{kind.value}:{t.id}:kernel", kind, t.id, FNT_5, Duration.end_of_next_turn(t.id),
                       against=c.id, source=c.id)


def feint_problem(fight: Fight, c: Combatant, t: Combatant) -> str | None:
    """What the kernel lacks to play the tactical AI's Feint of ``c`` on ``t`` (None: it plays it).

    The kernel mirrors the Feint's effects on the attacks of the first options and in the AI's plans of ``c``: a
    target whose own choices weigh the advantage it may win (FNT-5: one the AI plays or chooses targets for), a
    feinter or target with further ways to attack (their tables hold no advantage), a feinter with allies (its
    withdrawal's odds) are named.
    """
    from ashfall.sim.kernel_ai_lower import asks_the_ai

    state = fight.engine.state
    if isinstance(fight.policies.get(t.id), TacticalPolicy) or asks_the_ai(fight, t):
        return f"the tactical AI's feint on a creature whose choices weigh its answer (FNT-5, combatant {t.id})"
    for who in (c, t):
        if len(kernel_options(who, state)) > 1:
            return f"the tactical AI's feint beside further ways to attack (FNT-3, FNT-5, combatant {who.id})"
    if state.allies_of(c.id):
        return f"the tactical AI's feint by a creature with allies (combatant {c.id})"
    return None


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
    ints = np.zeros(8, np.int64)
    if not uses_trip(fight):
        return ManeuverTables(ints, np.ones((1, 1, 1, 2), np.int64), np.zeros((1, 1, 1, 2, 20, 20), np.int64),
                              np.zeros((3, 1), np.int64), np.zeros((1, 1, 2), np.int64), (), np.zeros(n, np.int64),
                              _no_feint(), np.zeros((n, n), np.int64))
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
    feint = lower_feint_contest(fight, roster, names)
    if Feint in state.rulebook.actions:
        ints[MV_FEINT_LABEL] = list(action_names).index(feint_action_names(fight)[0])
        ints[MV_FEINT_COST] = state.rulebook.actions[Feint].cost(state, Feint(probe_actor.id, target.id))
    ints[MV_FEINT_OFF] = feint.offset
    return ManeuverTables(ints, draws, totals, margins, labels, tuple(names), np.zeros(n, np.int64), feint,
                          np.zeros((n, n), np.int64))


def _no_feint() -> FeintContest:
    """The Feint tables of a fight without edition 2's maneuvers (never read)."""
    return FeintContest(np.ones((1, 1, 2), np.int64), np.zeros((1, 1, 2, 20, 20), np.int64),
                        np.zeros((2, 1), np.int64), 0)


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
    """Feint's contest for each pair (FNT-2), as the compiled fight rolls it (``ashfall.kernel.maneuvers``).

    Attributes:
        draws: ``[feinter, target, side]`` d20s each side rolls (side 0 the feinter: Deception; 1: Insight).
        totals: ``[feinter, target, side, first face - 1, second face - 1]`` the side's total.
        margins: ``[row, margin + offset]``: rows ``MARGIN_SETTLED``, then the outcome (``FEINT_*``).
        offset: Added to a margin to index ``margins``.
        labels: ``[feinter, target, side]`` the index in ``names`` of the side's logged check.
        names: The labels of the contest's two ``check-rolled`` steps (``Feint: deception`` ...).
    """

    draws: I64
    totals: I64
    margins: I64
    offset: int
    labels: I64 = field(default_factory=lambda: np.zeros((1, 1, 2), np.int64))
    names: tuple[str, ...] = ()


def lower_feint_contest(fight: Fight, roster: Sequence[Combatant], names: list[str] | None = None) -> FeintContest:
    """Each AI creature's Feint contest against each enemy, every face read off the rules' own ``contest``.

    The sides are the reference's (``_resolve_feint``: Deception against Insight, FNT-2), the margins' outcomes its
    ``initiator_wins`` and its degree of a loss (``_degree``: lost by ``checks.degree_margin``, CON-5). Charm's
    advantage on the Deception (C-CHA) is not lowered: a fight with starting conditions is refused. The contest
    must be the same with the feinter Dazed and the target prone or Dazed (TRP-3, TRP-4: checked). ``names``: the
    check labels so far (the labels are appended to it and indexed in ``labels``).

    Raises:
        KernelManeuverUnsupported: For a contest side rolling other than one or two d20s, or one that Dazed or
            prone changes.
    """
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    quiet = rs.with_options(checks={"contest_tie": ContestTie.STATUS_QUO.value})  # one round of rolls each
    context = Context(state, fight.engine.rng, [], fight.engine.controllers, ())
    draws = np.ones((n, n, 2), np.int64)
    totals = np.zeros((n, n, 2, 20, 20), np.int64)
    labels = np.zeros((n, n, 2), np.int64)
    found = [] if names is None else names
    low, high = 0, 0
    for i, a, j, t in _ai_pairs(fight, roster, _feint_legal):
        probe = _contest_faces(side(context, a, (Skill.DECEPTION,)), side(context, t, (Skill.INSIGHT,)), quiet,
                               draws[i, j], totals[i, j], "Feint", a)
        for mine, theirs in ((Condition.DAZED,), ()), ((), (Condition.PRONE,)), ((), (Condition.DAZED,)):
            other_draws, other_totals = np.ones(2, np.int64), np.zeros((2, 20, 20), np.int64)
            with with_conditions(a, *mine), with_conditions(t, *theirs):
                _contest_faces(side(context, a, (Skill.DECEPTION,)), side(context, t, (Skill.INSIGHT,)), quiet,
                               other_draws, other_totals, "Feint", a)
            if not (np.array_equal(other_draws, draws[i, j]) and np.array_equal(other_totals, totals[i, j])):
                raise KernelManeuverUnsupported(f"a Feint contest that Dazed or prone changes (combatant {a.id})")
        for k, stat in enumerate((probe.initiator_stat, probe.defender_stat)):
            name = f"Feint{' (defending)' if k else ''}: {stat_name(stat)}"  # as ``log_contest`` labels it
            if name not in found:
                found.append(name)
            labels[i, j, k] = found.index(name)
        low = min(low, int(totals[i, j, 0].min() - totals[i, j, 1].max()))
        high = max(high, int(totals[i, j, 0].max() - totals[i, j, 1].min()))
    margins = np.zeros((2, high - low + 1), np.int64)
    for m in range(low, high + 1):
        margins[MARGIN_SETTLED, m - low] = contest_settled(m, rs.checks.contest_tie)
        margins[1, m - low] = FEINT_WON if initiator_wins(m) else (
            FEINT_BACKFIRED if _degree(m, rs)[0] is Degree.CRITICAL_FAILURE else FEINT_NOTHING)
    return FeintContest(draws, totals, margins, -low, labels, tuple(found))


def feint_action_names(fight: Fight) -> tuple[str, ...]:
    """Feint's engine name (its ``actions-spent`` label), where the rulebook has it."""
    actions = fight.engine.state.rulebook.actions
    return (str(actions[Feint].name),) if Feint in actions else ()


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
    out, more = _grown(outcome, draws, ALL_STATES)
    every = [(i, a, j, t, ()) for i, a in enumerate(roster) for j, t in enumerate(roster) if a.side != t.side]
    _state_tables(fight, every, range(PRONE_UP, ALL_STATES), 0, out, more, variants, used, codes, sights, act_legal,
                  prepared)
    return out, more


def feint_attack_tables(fight: Fight, roster: Sequence[Combatant], outcome: npt.NDArray[np.int8], draws: I64,
                        open_first: I64, variants: Sequence[Any], used: dict[str, set[int]],
                        codes: Sequence[int | None], sights: Any, act_legal: I64,
                        prepared: Any) -> tuple[npt.NDArray[np.int8], I64]:
    """``outcome``/``draws`` with every target state again at :data:`ADVANTAGED`, where the AI may Feint.

    For each pair the AI's plans open with a Feint somewhere (``open_first``), the feinter's attacks on its target and
    the target's on the feinter, each with the Feint's advantage as the engine's ``next_attack_sources`` gives it
    (FNT-3, FNT-5); unchanged without one.
    """
    pairs = _feint_pairs(fight, roster, open_first)
    if not pairs:
        return outcome, draws
    out, more = _grown(outcome, draws, 2 * ALL_STATES)
    _state_tables(fight, pairs, range(ALL_STATES), ADVANTAGED, out, more, variants, used, codes, sights, act_legal,
                  prepared)
    return out, more


def _grown(outcome: npt.NDArray[np.int8], draws: I64, states: int) -> tuple[npt.NDArray[np.int8], I64]:
    """The attack tables with ``states`` target states, the first ones copied (the others: one d20, no hit)."""
    shape = list(outcome.shape)
    shape[4] = states
    out = np.zeros(tuple(shape), np.int8)
    more = np.ones(tuple(shape[:6]), np.int64)
    out[:, :, :, :, :outcome.shape[4]] = outcome
    more[:, :, :, :, :draws.shape[4]] = draws
    return out, more


def _feint_pairs(fight: Fight, roster: Sequence[Combatant], open_first: I64) -> list[tuple[
        int, Combatant, int, Combatant, tuple[Any, ...]]]:
    """Each attacker and target a Feint may give advantage, with the engine's roll sources of that attack.

    The feinter on its target (FNT-3) and the target on the feinter (FNT-5), as ``next_attack_sources`` gives them.
    """
    from ashfall.families.attacks.engine import next_attack_sources

    state = fight.engine.state
    found = []
    for i, a, j, t in _ai_pairs(fight, roster, _feint_legal):
        if open_first.shape[1] <= max(i, j) or not (open_first[:, i, j] == FEINT_FIRST).any():
            continue  # it never opens with a Feint on it
        for (x, p), (y, q), effect in (((i, a), (j, t), feint_effect(a, t)), ((j, t), (i, a), backfire_effect(a, t))):
            with with_effect(state, effect):
                context = Context(state, fight.engine.rng, [], fight.engine.controllers, ())
                sources = next_attack_sources(context, p.id, q.id, False)
            if not sources:
                raise KernelManeuverUnsupported(f"a Feint's advantage the engine does not give (combatant {p.id})")
            found.append((x, p, y, q, sources))
    return found


def _state_tables(fight: Fight, pairs: Sequence[tuple[int, Combatant, int, Combatant, tuple[Any, ...]]],
                  states: range, offset: int, out: npt.NDArray[np.int8], more: I64, variants: Sequence[Any],
                  used: dict[str, set[int]], codes: Sequence[int | None], sights: Any, act_legal: I64,
                  prepared: Any) -> None:
    """The attack tables of target states ``states`` (at ``offset + state``) for each pair, with its roll sources.

    Where Covering Fire may pin the attacker (``kernel_covering_lower``: the tables hold each activity twice) the
    second half is asked again with ``suppressed``'s roll sources after the pair's own (SUP-11).
    """
    from ashfall.sim import kernel_lower as kl
    from ashfall.sim.kernel_covering_lower import pinnable, pinned_sources

    state = fight.engine.state
    rs = state.ruleset
    moving = kl._moves(state)
    acts = len(kl.TABLE_ACTIVITIES)
    pins = [out.shape[2] == 2 * acts and pinnable(state, c) for c in state.combatants.values()]
    for i, a, j, t, extra in pairs:
        # a reach weapon attacks from 10 ft too (ATK-1), a prone target or as a prone attacker's AoO (as ``lower``)
        long = attack_limit_ft(kl._first_weapon(a), False, rs.attack.natural_reach) > SQUARE_FT
        for s in states:
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
                            if 0 < down < PRONE_UP and code is not None and not code & 2 and not long:
                                continue
                            if code is not None and code & 1 and not state.allies_of(a.id):
                                continue
                            if code is not None and not code & 2 and not state.allies_of(t.id) and not long:
                                continue
                            if code is not None and code // kl.SITUATIONS not in (
                                    sights.near if code & 2 else sights.far):
                                continue
                            view = sights.views[code // kl.SITUATIONS] if code is not None else None
                            count, table, _parts = kl._tabulate(state, a, t, kl.TABLE_ACTIVITIES[k], variants[v],
                                                                code, view, prepared, extra)
                            more[i, j, k, v, offset + s, s_] = count
                            out[i, j, k, v, offset + s, s_] = table
                            if pins[i]:  # pinned by Covering Fire: ``suppressed``'s sources after these (SUP-11)
                                count, table, _parts = kl._tabulate(state, a, t, kl.TABLE_ACTIVITIES[k], variants[v],
                                                                    code, view, prepared,
                                                                    (*extra, *pinned_sources(state, a)))
                                more[i, j, acts + k, v, offset + s, s_] = count
                                out[i, j, acts + k, v, offset + s, s_] = table


__all__ = [
    "ADVANTAGED",
    "ADV_MOVED_UP",
    "ADV_PRONE",
    "ADV_UP",
    "ALL_STATES",
    "ATTACKER_PRONE",
    "FEINTED_UP",
    "FEINT_BACKFIRED",
    "FEINT_FIRST",
    "FEINT_NOTHING",
    "FEINT_WON",
    "PRONE_UP",
    "TRIP_FIRST",
    "FeintContest",
    "KernelManeuverUnsupported",
    "ManeuverTables",
    "backfire_effect",
    "feint_action_names",
    "feint_effect",
    "feint_problem",
    "lower_feint_contest",
    "lower_maneuvers",
    "maneuver_problem",
    "opener_tables",
    "prone_attack_tables",
    "stand_costs",
    "uses_trip",
    "with_conditions",
    "with_effect",
]
