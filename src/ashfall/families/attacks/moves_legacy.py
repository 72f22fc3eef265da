"""Edition 1 actions: Extra Attack (E-01) and Aim (E-05); edition 2 refuses them, naming the difference.

Extra Attack: a creature with the feature makes two attacks with one Strike action; both share that
Strike's MAP step, because edition 1 counts MAP per Strike action (0/0, then 0/0/-3/-3 over two Strikes).
Aim: 1 action for +2 on the next ranged attack this turn, lost if the creature then Strides, Steps or
Crawls (moving before aiming is fine); the attack pipeline applies and uses it up. Reload and Draw/Stow
exist in both editions (G-31) and are in :mod:`ashfall.families.attacks.moves_gear`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ashfall.content import names
from ashfall.content.schema import WeaponKind
from ashfall.core.rule_ids import rule
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import EncounterState
from ashfall.families.attacks.engine import NOTHING_DECLARED, AttackPlan, Declared, perform_attack
from ashfall.families.attacks.engine_common import mode_for, require_target
from ashfall.families.attacks.moves_activities import validate_attack
from ashfall.families.attacks.moves_strike import check_ammo, check_attack_reach, chosen_weapon, spend_ammo
from ashfall.families.attacks.rules_activities import SINGLE_ACTION, Activity
from ashfall.families.attacks.rules_map import map_modifier
from ashfall.rules.condition_durations import Duration, DurationKind

E_01, E_05 = rule("E-01"), rule("E-05")
EXTRA_ATTACK = names.EXTRA_ATTACK
"""The talent (a class feature in edition 1) that grants Extra Attack."""


@dataclass(frozen=True, slots=True)
class ExtraAttackStrike:
    """1 action, edition 1: a Strike that makes two attacks sharing one MAP step (E-01).

    Attributes:
        target: The first attack's target.
        second_target: The second attack's target (default: the same).
    """

    actor: str
    target: str
    second_target: str | None = None
    weapon: str | None = None
    thrown: bool = False
    unarmed: bool = False
    declared: Declared = NOTHING_DECLARED


def _targets(intent: ExtraAttackStrike) -> tuple[str, str]:
    return intent.target, intent.second_target or intent.target


def _check_extra(state: EncounterState, intent: ExtraAttackStrike) -> None:
    if not state.ruleset.attack.extra_attack:
        raise refuse("E-01", "Extra Attack exists only in edition 1; this edition has one attack per Strike")
    c = state.get(intent.actor)
    if EXTRA_ATTACK not in c.creature.talents:
        raise refuse("E-01", f"{c.name} has no Extra Attack feature")
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    validate_attack(state, c, weapon, mode, Activity.STRIKE)
    for t in _targets(intent):
        check_attack_reach(state, c, require_target(state, c, t), weapon, mode)
    check_ammo(c, weapon, mode, len(_targets(intent)))


def _resolve_extra(ctx: Context, intent: ExtraAttackStrike) -> None:
    c = ctx.state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    shared = map_modifier(c.turn.attack_rolls, ctx.ruleset, strike_actions_before=c.turn.strike_actions)
    for i, target in enumerate(_targets(intent)):
        if not c.is_active or ctx.state.get(target).health.is_dead:
            continue
        spend_ammo(ctx, c, weapon, mode)
        perform_attack(ctx, AttackPlan(c.id, target, weapon, mode, Activity.STRIKE, declared=intent.declared,
                                       label="Strike (Extra Attack)" if i else "Strike", map_given=True,
                                       map_override=shared))
    ctx.emit(ev.ResourceUsed(c.id, "strike-action", 1, E_01))


def _extra_candidates(state: EncounterState, actor: str) -> Iterator[ExtraAttackStrike]:
    c = state.get(actor)
    for e in state.enemies_of(actor):
        if not e.health.is_dead:
            for w in c.weapons:
                yield ExtraAttackStrike(actor, e.id, weapon=w.id)


# ----- Aim (E-05) -----


@dataclass(frozen=True, slots=True)
class Aim:
    """1 action, edition 1: +2 to the next ranged attack this turn, lost on a Stride, Step or Crawl (E-05)."""

    actor: str


def _check_aim(state: EncounterState, intent: Aim) -> None:
    if not state.ruleset.attack.aim_available:
        raise refuse("E-05", "Aim exists only in edition 1")
    if state.effects_on(intent.actor, EffectKind.AIMED):
        raise refuse("E-05", "already aiming: the bonus applies once, to the next ranged attack")


def _resolve_aim(ctx: Context, intent: Aim) -> None:
    this_turn = Duration(DurationKind.END_OF_NEXT_TURN, intent.actor, next_turn_started=True)
    key = f"{EffectKind.AIMED.value}:{intent.actor}:{len(ctx.log)}"
    ctx.emit(ev.EffectAdded(TimedEffect(key, EffectKind.AIMED, intent.actor, E_05, this_turn,
                                        amount=ctx.ruleset.attack.aim_bonus, source=intent.actor), E_05))


def _aim_candidates(state: EncounterState, actor: str) -> Iterator[Aim]:
    if any(w.kind is WeaponKind.RANGED for w in state.get(actor).weapons):
        yield Aim(actor)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(ExtraAttackStrike, ActionDef("extra-attack-strike", E_01, fixed(SINGLE_ACTION), _resolve_extra,
                                             _check_extra, _extra_candidates))
    book.action(Aim, ActionDef("aim", E_05, fixed(SINGLE_ACTION), _resolve_aim, _check_aim, _aim_candidates))
