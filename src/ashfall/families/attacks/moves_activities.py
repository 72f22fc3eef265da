"""Attack activities: Power Strike, All-Out Attack, Full Auto Burst and Sweeping Strike (MAA-1..7, SWP, G-09).

Each is checked whole before any die is rolled and resolved through the attack pipeline. Power Strike
is one attack at -2 for +4 damage (MAA-5, G-36); All-Out Attack makes 3 attacks at 0/-3/-6 (MAA-7,
MAP-5); Full Auto Burst (MAA-2, G-35, X-12) and Sweeping Strike (SWP-1..3, G-09, edition 2 only E-10) make
one roll against up to 3 DVs, counting as one attack for MAP (G-41). Every activity that counts for MAP
also counts as a Strike action for edition 1's per-Strike MAP (E-01). Two-weapon fighting and Coup de
Grace are in :mod:`ashfall.families.attacks.moves_finishing`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ashfall.content.schema import Weapon, WeaponKind
from ashfall.core.rule_ids import rule
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Cost, refuse
from ashfall.engine.context import Context
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import (
    NOTHING_DECLARED,
    AttackPlan,
    Declared,
    distance,
    perform_attack,
    perform_multi_attack,
)
from ashfall.families.attacks.engine_common import mode_for, require_target
from ashfall.families.attacks.moves_gear import require_in_hand
from ashfall.families.attacks.moves_strike import check_ammo, check_attack_reach, chosen_weapon, spend_ammo
from ashfall.families.attacks.rules import AttackContext, prepare_attack
from ashfall.families.attacks.rules_activities import SINGLE_ACTION, Activity, AttackMode, action_cost
from ashfall.families.attacks.rules_map import all_out_schedule
from ashfall.rules.errors import RuleViolation
from ashfall.rules.reach import attack_limit_ft

E_01, G_35, MAA_2, MAA_5, MAA_7, SWP_1, X_12 = (
    rule("E-01"), rule("G-35"), rule("MAA-2"), rule("MAA-5"), rule("MAA-7"), rule("SWP-1"), rule("X-12"))


def activity_cost(activity: Activity) -> Cost:
    """The cost of an activity, read from the ruleset (MAA-1)."""

    def cost(state: EncounterState, intent: Any) -> int:
        return action_cost(activity, state.ruleset) or SINGLE_ACTION

    return cost


def validate_attack(state: EncounterState, attacker: Combatant, weapon: Weapon | None, mode: AttackMode,
                    activity: Activity) -> None:
    """Refuse an attack the rules core would refuse (E-10, G-36, a weapon that cannot make it …), before rolling."""
    require_in_hand(attacker, weapon)
    try:
        prepare_attack(attacker.creature, weapon, mode, state.ruleset, AttackContext(activity=activity))
    except RuleViolation as err:
        raise refuse(err.rule, err.reason) from None


def count_strike_action(ctx: Context, actor: str, n: int = 1) -> None:
    """Count the activity as Strike actions for edition 1's per-Strike MAP (E-01)."""
    ctx.emit(ev.ResourceUsed(actor, "strike-action", n, E_01))


def _weapons(c: Combatant) -> list[str | None]:
    return [w.id for w in c.weapons] or [None]


def _living_enemies(state: EncounterState, actor: str) -> list[Combatant]:
    return [e for e in state.enemies_of(actor) if not e.health.is_dead]


# ----- Power Strike (MAA-5, G-36) -----


@dataclass(frozen=True, slots=True)
class PowerStrike:
    """2 actions: one attack at -2 to hit and +4 damage, added once on a crit (MAA-5, G-36)."""

    actor: str
    target: str
    weapon: str | None = None
    thrown: bool = False
    unarmed: bool = False
    declared: Declared = NOTHING_DECLARED


def _check_single(state: EncounterState, intent: Any, activity: Activity, shots: int = 1) -> None:
    c = state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    validate_attack(state, c, weapon, mode, activity)
    targets = getattr(intent, "targets", None) or (intent.target,)
    for t in targets:
        check_attack_reach(state, c, require_target(state, c, t), weapon, mode)
    check_ammo(c, weapon, mode, shots)


def _check_power(state: EncounterState, intent: PowerStrike) -> None:
    _check_single(state, intent, Activity.POWER_STRIKE)


def _resolve_power(ctx: Context, intent: PowerStrike) -> None:
    c = ctx.state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    spend_ammo(ctx, c, weapon, mode)
    perform_attack(ctx, AttackPlan(c.id, intent.target, weapon, mode, Activity.POWER_STRIKE,
                                   declared=intent.declared, label="Power Strike"))
    count_strike_action(ctx, c.id)


def _power_candidates(state: EncounterState, actor: str) -> Iterator[PowerStrike]:
    for e in _living_enemies(state, actor):
        for w in _weapons(state.get(actor)):
            yield PowerStrike(actor, e.id, w)


# ----- All-Out Attack (MAA-7, MAP-5) -----


@dataclass(frozen=True, slots=True)
class AllOutAttack:
    """3 actions: 3 attacks at 0/-3/-6 (MAA-7, MAP-5).

    Attributes:
        targets: One target for every attack, or one target per attack in order.
    """

    actor: str
    targets: tuple[str, ...]
    weapon: str | None = None
    thrown: bool = False
    unarmed: bool = False
    declared: Declared = NOTHING_DECLARED


def _all_out_targets(state: EncounterState, intent: AllOutAttack) -> list[str]:
    n = state.ruleset.attack.all_out_attacks
    if len(intent.targets) == 1:
        return list(intent.targets) * n
    if len(intent.targets) != n:
        raise refuse("MAA-7", f"All-Out Attack makes {n} attacks: name one target, or one per attack")
    return list(intent.targets)


def _check_all_out(state: EncounterState, intent: AllOutAttack) -> None:
    _all_out_targets(state, intent)
    _check_single(state, intent, Activity.ALL_OUT, shots=state.ruleset.attack.all_out_attacks)


def _resolve_all_out(ctx: Context, intent: AllOutAttack) -> None:
    c = ctx.state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    targets = _all_out_targets(ctx.state, intent)
    for i, (target, step) in enumerate(zip(targets, all_out_schedule(ctx.ruleset), strict=True)):
        if not c.is_active or ctx.state.get(target).health.is_dead:
            continue
        spend_ammo(ctx, c, weapon, mode)
        perform_attack(ctx, AttackPlan(c.id, target, weapon, mode, Activity.ALL_OUT, declared=intent.declared,
                                       label=f"All-Out Attack ({i + 1})", map_given=True, map_override=step))
    count_strike_action(ctx, c.id, len(targets))


def _all_out_candidates(state: EncounterState, actor: str) -> Iterator[AllOutAttack]:
    for e in _living_enemies(state, actor):
        for w in _weapons(state.get(actor)):
            yield AllOutAttack(actor, (e.id,), w)


# ----- multi-target: Full Auto Burst (MAA-2, G-35, X-12) and Sweeping Strike (SWP-1..3, G-09, E-10) -----


@dataclass(frozen=True, slots=True)
class FullAutoBurst:
    """2 actions: one roll at -2 against up to 3 targets within 10 ft of one another (MAA-2, G-35, X-12)."""

    actor: str
    targets: tuple[str, ...]
    weapon: str | None = None
    declared: Declared = NOTHING_DECLARED


@dataclass(frozen=True, slots=True)
class SweepingStrike:
    """2 actions: one roll at -2 against up to 3 creatures in melee reach; the first takes dice + MIG (SWP-1..3)."""

    actor: str
    targets: tuple[str, ...]
    weapon: str | None = None
    unarmed: bool = False
    declared: Declared = NOTHING_DECLARED


def spread_ft(state: EncounterState, targets: Sequence[Combatant]) -> int:
    """The greatest distance between two of the targets (0 off the map)."""
    return max((distance(state, a, b) for a, b in combinations(targets, 2)), default=0)


def _distinct(intent: Any, limit: int, rule_id: str, what: str) -> None:
    if not 1 <= len(intent.targets) <= limit or len(set(intent.targets)) != len(intent.targets):
        raise refuse(rule_id, f"{what} attacks 1 to {limit} different creatures")


def _ammo_per_target(state: EncounterState) -> int:
    return state.ruleset.attack.full_auto_ammo_per_target


def _check_full_auto(state: EncounterState, intent: FullAutoBurst) -> None:
    c = state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, False)
    validate_attack(state, c, weapon, mode_for(weapon), Activity.FULL_AUTO)
    _distinct(intent, state.ruleset.attack.full_auto_targets, "MAA-2", "Full Auto Burst")
    targets = [require_target(state, c, t) for t in intent.targets]
    for t in targets:
        check_attack_reach(state, c, t, weapon, AttackMode.RANGED)
    limit = state.ruleset.attack.full_auto_spread_ft
    if spread_ft(state, targets) > limit:
        raise refuse("X-12", f"Full Auto Burst targets must be within {limit} ft of one another")
    need = _ammo_per_target(state) * len(targets)
    if weapon is not None and weapon.ammo_capacity is not None:
        left = c.ammo.get(weapon.id, weapon.ammo_capacity)
        if left < need:
            raise refuse("G-35", f"{weapon.name} has {left} rounds loaded; the burst needs {need}")


def _resolve_full_auto(ctx: Context, intent: FullAutoBurst) -> None:
    c = ctx.state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, False)
    spend_ammo(ctx, c, weapon, AttackMode.RANGED, _ammo_per_target(ctx.state) * len(intent.targets))
    spread = spread_ft(ctx.state, [ctx.state.get(t) for t in intent.targets])
    perform_multi_attack(ctx, AttackPlan(c.id, intent.targets[0], weapon, AttackMode.RANGED, Activity.FULL_AUTO,
                                         declared=intent.declared, label="Full Auto Burst"), intent.targets, spread)
    count_strike_action(ctx, c.id)


def _check_sweeping(state: EncounterState, intent: SweepingStrike) -> None:
    c = state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    validate_attack(state, c, weapon, mode_for(weapon), Activity.SWEEPING)
    _distinct(intent, state.ruleset.attack.sweeping_targets, "SWP-1", "Sweeping Strike")
    reach = attack_limit_ft(weapon, False, state.ruleset.attack.natural_reach)
    for t in intent.targets:
        target = require_target(state, c, t)
        if distance(state, c, target) > reach:
            raise refuse("SWP-1", f"{target.name} is not within {c.name}'s {reach}-ft melee reach")
        check_attack_reach(state, c, target, weapon, mode_for(weapon))


def _resolve_sweeping(ctx: Context, intent: SweepingStrike) -> None:
    c = ctx.state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    perform_multi_attack(ctx, AttackPlan(c.id, intent.targets[0], weapon, mode_for(weapon), Activity.SWEEPING,
                                         declared=intent.declared, label="Sweeping Strike"), intent.targets)
    count_strike_action(ctx, c.id)


def _clusters(state: EncounterState, actor: str, ok: Callable[[Combatant, Combatant], bool],
              limit: int) -> Iterator[tuple[str, ...]]:
    """For each enemy as the first target, it and the next enemies that fit with all chosen so far."""
    enemies = [e for e in _living_enemies(state, actor) if e.is_active]
    for first in enemies:
        chosen = [first]
        for other in enemies:
            if other is not first and len(chosen) < limit and all(ok(other, x) for x in chosen):
                chosen.append(other)
        yield tuple(x.id for x in chosen)


def _full_auto_candidates(state: EncounterState, actor: str) -> Iterator[FullAutoBurst]:
    c = state.get(actor)
    limit = state.ruleset.attack.full_auto_spread_ft
    for w in c.weapons:
        if w.kind is WeaponKind.RANGED:
            for group in _clusters(state, actor, lambda a, b: distance(state, a, b) <= limit,
                                   state.ruleset.attack.full_auto_targets):
                yield FullAutoBurst(actor, group, w.id)


def _within(state: EncounterState, c: Combatant, reach: int) -> Callable[[Combatant, Combatant], bool]:
    def ok(a: Combatant, b: Combatant) -> bool:
        return distance(state, c, a) <= reach

    return ok


def _sweeping_candidates(state: EncounterState, actor: str) -> Iterator[SweepingStrike]:
    c = state.get(actor)
    for w in c.weapons:
        if w.kind is WeaponKind.MELEE:
            for group in _clusters(state, actor, _within(state, c, w.reach), state.ruleset.attack.sweeping_targets):
                yield SweepingStrike(actor, group, w.id)


def _register(book: RulebookDraft, intent: type, name: str, activity: Activity, resolve: Any, check: Any,
              candidates: Callable[[EncounterState, str], Iterable[Any]]) -> None:
    spec_rule = {Activity.POWER_STRIKE: MAA_5, Activity.ALL_OUT: MAA_7, Activity.FULL_AUTO: MAA_2,
                 Activity.SWEEPING: SWP_1}[activity]
    book.action(intent, ActionDef(name, spec_rule, activity_cost(activity), resolve, check, candidates))


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    _register(book, PowerStrike, "power-strike", Activity.POWER_STRIKE, _resolve_power, _check_power, _power_candidates)
    _register(book, AllOutAttack, "all-out-attack", Activity.ALL_OUT, _resolve_all_out, _check_all_out,
              _all_out_candidates)
    _register(book, FullAutoBurst, "full-auto-burst", Activity.FULL_AUTO, _resolve_full_auto, _check_full_auto,
              _full_auto_candidates)
    _register(book, SweepingStrike, "sweeping-strike", Activity.SWEEPING, _resolve_sweeping, _check_sweeping,
              _sweeping_candidates)
