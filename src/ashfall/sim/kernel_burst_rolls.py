"""The Full Auto Burst's one roll against several targets, as tables the compiled fight reads (G-35, MAA-2, X-12).

``perform_multi_attack`` rolls one d20 (two with advantage or disadvantage) with the first target's situation (its
modifiers, MAP once, Aim's bonus: ``_attack_context``) and judges it against each target's DV in that target's own
situation (``resolve_multi_target``: ``target_defense``, its crit rule), each hit taking the weapon's full damage.
:func:`lower_burst_rolls` asks ``resolve_multi_target`` itself for every face: by shooter, first target, MAP variant
and the first target's code (the d20s drawn), and by a target and its own code, the outcome against it (the first
target alone, or the first target then it). Beside edition 2's openers (``BurstTables.ints[2]``, E-37) every target
is read standing and lying prone (C-PRO), a prone one's codes in the second half. The damage of a hit must be the
Strike's with the same gun (checked), so the further option's Strike damage tables serve.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from ashfall.ai import TacticalPolicy
from ashfall.ai.profile import AttackOption
from ashfall.core.types import Condition
from ashfall.engine import Combatant, FullAutoBurst
from ashfall.families.attacks.engine import situation, target_defense
from ashfall.families.attacks.rules import AttackContext
from ashfall.families.attacks.rules_activities import Activity, action_cost, counts_for_map, takes_map
from ashfall.families.attacks.rules_multi_attack import Target, resolve_multi_target
from ashfall.families.senses.engine import concealment_sources
from ashfall.rules.damage_spec import DamagePart
from ashfall.ruleset import Ruleset
from ashfall.sim.kernel_burst_lower import BurstTables
from ashfall.sim.kernel_faces import Faces, attack_faces
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.setups import Fight

BURST_NAME = "full-auto-burst"
"""The action name :func:`burst_action_names` gives Full Auto Burst where the rulebook has none."""
BURST_LABEL = 5
"""The burst's attack label (``kernel_lower.ATTACK_LABELS``' index of ``"Full Auto Burst"``)."""
R_COST, R_ROUNDS, R_LABEL, R_COUNTS = 0, 1, 2, 3
"""Slots of :attr:`BurstTables.rules`: actions a burst costs, rounds per target, its action name's index, whether it
counts as an attack for MAP (G-41)."""


def burst_action_names(fight: Fight) -> tuple[str, ...]:
    """The engine's name of Full Auto Burst, appended to ``Lowered.action_names``."""
    action = fight.engine.state.rulebook.actions.get(FullAutoBurst)
    return (action.name if action is not None else BURST_NAME,)


def with_burst_label(burst: BurstTables, action_names: Sequence[str], name: str) -> BurstTables:
    """``burst`` with its action name's index among the lowered action names (read by name)."""
    rules = burst.rules.copy()
    names = list(action_names)
    rules[R_LABEL] = names.index(name) if name in names else -1
    return dataclasses.replace(burst, rules=rules)


def lower_burst_rolls(fight: Fight, roster: Sequence[Combatant], burst: BurstTables, variants: Sequence[Any],
                      used_map: set[int], eviews: Sequence[Any], near_views: set[int],
                      strike_parts: Mapping[tuple[int, int], tuple[DamagePart, ...]]) -> BurstTables:
    """``burst`` with the fight's tables of its one roll (``roll_draws``, ``roll_outcome``, ``rules``).

    ``variants``/``used_map``: the MAP variants a Strike meets; ``eviews``/``near_views``: the engine's ranged views
    (``kernel_weapons_lower``); ``strike_parts``: the damage of a Strike hit by ``(i, 3 xo)``.

    Raises:
        ValueError: One roll per target (``full_auto_single_roll`` off), or a burst's hit unlike a Strike's.
    """
    from ashfall.sim import kernel_weapons_lower as kw  # it calls this module
    from ashfall.sim.kernel_maneuvers import with_conditions  # it imports the weapons lowering

    made = [isinstance(fight.policies.get(c.id), TacticalPolicy) for c in roster]  # a scripted plan's: only weighed
    if not any(burst.on[i].any() for i in range(len(roster)) if made[i]):
        return burst
    state = fight.engine.state
    rs = state.ruleset
    if not rs.attack.full_auto_single_roll:
        raise ValueError("a Full Auto Burst rolled per target (MAA-2's option)")
    n = len(roster)
    codes = 8 * len(eviews)
    lyings = (False, True) if burst.ints.shape[0] > 2 and burst.ints[2] == 1 else (False,)  # prone halves (E-37)
    draws = np.ones((n, n, len(variants), codes * len(lyings)), np.int64)
    outcome = np.zeros((n, n, n, len(variants), codes * len(lyings), codes * len(lyings), 20, 20), np.int8)
    cost = action_cost(Activity.FULL_AUTO, rs)
    for i, xo in zip(*np.nonzero(burst.on), strict=True):
        a = roster[int(i)]
        if not made[int(i)]:
            continue  # a scripted plan's burst is only weighed by the AI's choice of its target (never made)
        o = kernel_options(a, state)[1 + int(xo)]
        enemies = [(j, t) for j, t in enumerate(roster) if t.side != a.side]
        marks: dict[tuple[int, int], Target] = {}
        for (j, t), lying in ((jt, lying) for jt in enemies for lying in lyings):
            with with_conditions(t, *((Condition.PRONE,) if lying else ())):  # its DV lying prone (C-PRO)
                plain = situation(state, a, t, True)
                for code in range(codes):
                    sit = kw._option_sit(plain, o, code, eviews, (), near_views)
                    if sit is not None and not code & 4:
                        marks[(j, code + codes * lying)] = Target(
                            target_defense(state, a, t, o.weapon, o.mode, sit), t.condition_set, sit.within_5ft)
        for (j0, t0), lying0 in ((jt, lying) for jt in enemies for lying in lyings):
            with with_conditions(t0, *((Condition.PRONE,) if lying0 else ())):  # the roll's situation (C-PRO)
                plain0 = situation(state, a, t0, True)
                conditions0 = t0.condition_set
            for v, m in enumerate(variants):
                if v not in used_map:
                    continue
                for code0 in range(codes):
                    sit0 = kw._option_sit(plain0, o, code0, eviews, (), near_views)
                    if sit0 is None or (code0 & 4 and not rs.attack.aim_available):
                        continue
                    context = AttackContext(
                        activity=Activity.FULL_AUTO, map_modifier=m if takes_map(Activity.FULL_AUTO, rs) else None,
                        flanking=sit0.flanking, high_ground=sit0.high_ground,
                        hostile_within_5ft=sit0.hostile_within_5ft, within_5ft=sit0.within_5ft,
                        target_conditions=conditions0, attacker_conditions=a.condition_set,
                        unseen_attacker=sit0.unseen_attacker, extra_sources=tuple(concealment_sources(state, a, t0)),
                        aimed=bool(code0 & 4))
                    own0 = (code0 & ~4) + codes * lying0  # the first target's own code
                    first = marks.get((j0, own0))
                    if first is None:
                        continue
                    at0 = code0 + codes * lying0
                    for (j, code), mark in marks.items():
                        chosen = [first] if j == j0 else [first, mark]
                        if j == j0 and code != own0:
                            continue  # the first target in its own code only
                        got, table, parts = attack_faces(_last_target(a, o, chosen, context, rs), a.id)
                        if parts is not None and parts != strike_parts.get((int(i), 3 * int(xo))):
                            raise ValueError(f"a Full Auto Burst's hit unlike its Strike's (combatant {a.id})")
                        draws[i, j0, v, at0] = got
                        outcome[i, j0, j, v, at0, code] = table
    rules = np.array([cost, rs.attack.full_auto_ammo_per_target, -1, counts_for_map(Activity.FULL_AUTO, rs)],
                     np.int64)
    return dataclasses.replace(burst, roll_draws=draws, roll_outcome=outcome, rules=rules)


def _last_target(a: Combatant, o: AttackOption, chosen: list[Target], context: AttackContext,
                 rs: Ruleset) -> Callable[[Faces], Any]:
    """``resolve_multi_target`` against ``chosen`` with the dice given, as ``attack_faces`` reads its last target."""

    def resolve(rng: Faces) -> Any:
        out = resolve_multi_target(a.creature, o.weapon, o.mode, chosen, context, rng, rs).targets[-1]
        return SimpleNamespace(outcome=out.outcome, hit=out.hit, riders=(), fumble=None,
                               damage_parts=out.damage_parts)

    return resolve


__all__ = ["BURST_LABEL", "BURST_NAME", "R_COST", "R_COUNTS", "R_LABEL", "R_ROUNDS", "burst_action_names",
           "lower_burst_rolls", "with_burst_label"]
