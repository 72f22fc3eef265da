"""Strike: one attack with a weapon, unarmed or natural (ACT-7, MAP-1..7), with optional called shots.

The engine counts attack rolls for MAP (the rules core takes the count); ammunition is spent per
shot (G-31); a target behind total cover cannot be targeted (COV-3, RDY-5).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ashfall.content.schema import Weapon
from ashfall.core.rule_ids import rule
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Refused, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import (
    NOTHING_DECLARED,
    AttackPlan,
    Declared,
    cover_level,
    distance,
    is_ranged_attack,
    leaning_out,
    perform_attack,
)
from ashfall.families.attacks.engine_common import mode_for, require_target, weapon_of
from ashfall.families.attacks.moves_gear import require_in_hand
from ashfall.families.attacks.rules_activities import Activity, AttackMode, attack_traits
from ashfall.families.attacks.rules_called_shots import CalledShot
from ashfall.families.senses.engine_guessing import check_guess, guess_missed
from ashfall.grid.board import CoverLevel, Square
from ashfall.grid.geometry import cover_between
from ashfall.rules.defense import Cover, untargetable_behind
from ashfall.rules.reach import attack_limit_ft

ACT_7 = rule("ACT-7")


@dataclass(frozen=True, slots=True)
class Strike:
    """Make one attack (ACT-7).

    Attributes:
        actor: The attacker.
        target: The target.
        weapon: A weapon id of the attacker's (None: its first weapon, or unarmed if it has none).
        thrown: Throw a thrown weapon instead of swinging it.
        unarmed: Strike unarmed even with a weapon in hand.
        called_shot: A called shot declared before the roll (CS-0), or None.
        declared: GM declarations for theater of mind (flanking, cover, high ground).
        square: The square attacked when the target is hidden (a guess; a wrong one misses, CONC-11).
    """

    actor: str
    target: str
    weapon: str | None = None
    thrown: bool = False
    unarmed: bool = False
    called_shot: CalledShot | None = None
    declared: Declared = NOTHING_DECLARED
    square: Square | None = None


def chosen_weapon(c: Combatant, weapon: str | None, unarmed: bool) -> Weapon | None:
    """The weapon an attack uses (None for unarmed)."""
    return None if unarmed else weapon_of(c, weapon)


def check_attack_reach(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
                       mode: AttackMode, declared: Declared = NOTHING_DECLARED) -> None:
    """Refuse a target out of reach or range, or behind total cover (COV-3, STC-8); cover the GM declares wins."""
    if declared.cover is not None:
        refuse_untargetable(state, target, weapon, mode, declared.cover, "as the GM declared")
    if not attacker.space or not target.space:
        return
    dist = distance(state, attacker, target)
    limit = attack_limit(state, weapon, mode)
    if dist > limit:
        if is_ranged_attack(weapon, mode):
            assert weapon is not None
            raise refuse("ATK-2", f"{target.name} is {dist} ft away; {weapon.name} reaches {limit} ft")
        raise refuse("ATK-1", f"{target.name} is {dist} ft away; reach is {limit} ft")
    if state.board is not None and declared.cover is None:
        # a creature leaning out of its cover (COV-4, G-55) can be shot at, and shoot past that cover
        level = CoverLevel.NONE if leaning_out(state, target) else cover_level(state, attacker, target)
        if level is CoverLevel.TOTAL:  # only total cover refuses: the name is needed for the refusal alone
            name = cover_between(state.board, attacker.space, target.space)[1]
            refuse_untargetable(state, target, weapon, mode, Cover[level.name], name)


def attack_limit(state: EncounterState, weapon: Weapon | None, mode: AttackMode) -> int:
    """The farthest an attack reaches at all: a ranged attack's long range (ATK-2), else the reach (ATK-1)."""
    return attack_limit_ft(weapon, is_ranged_attack(weapon, mode), state.ruleset.attack.natural_reach)


def strike_out_of_reach(state: EncounterState, intent: Strike) -> bool:
    """True only when :func:`_check` would refuse this Strike whatever else holds: its target is out of reach.

    A cheap pre-test for policies that try many Strikes: with no guessed square, the check either refuses
    (a hidden target, CONC-11) or measures the distance against :func:`attack_limit` (ATK-1, ATK-2). False
    means only "not known to be refused here": the full check still decides.
    """
    if intent.square is not None:
        return False  # a guessed square is measured instead of the target (CONC-11)
    attacker, target = state.combatants.get(intent.actor), state.combatants.get(intent.target)
    if attacker is None or target is None or not attacker.space or not target.space:
        return False
    try:
        weapon = chosen_weapon(attacker, intent.weapon, intent.unarmed)
    except Refused:
        return True  # no such weapon (ACT-7): refused anyway
    return distance(state, attacker, target) > attack_limit(state, weapon, mode_for(weapon, intent.thrown))


def refuse_untargetable(state: EncounterState, target: Combatant, weapon: Weapon | None, mode: AttackMode,
                        cover: Cover, what: str) -> None:
    """Refuse a target no weapon can target directly: total cover, explosives included (COV-3, STC-8).

    The rules core decides (the same test :func:`~ashfall.families.attacks.rules.resolve_attack` makes), so an
    attack is refused before any die is rolled rather than failing halfway.
    """
    if cover is not Cover.TOTAL:
        return
    if untargetable_behind(cover, attack_traits(weapon, mode), state.ruleset) is not None:  # defense_value's test
        raise refuse("COV-3", f"{target.name} is behind total cover ({what}); ready an action instead")


def check_ammo(attacker: Combatant, weapon: Weapon | None, mode: AttackMode, need: int = 1) -> None:
    """Refuse a shot from an empty weapon (G-31, SUP-2)."""
    if weapon is not None and mode is AttackMode.RANGED and weapon.ammo_capacity is not None:
        left = attacker.ammo.get(weapon.id, weapon.ammo_capacity)
        if left < need:
            raise refuse("G-31", f"{weapon.name} has {left} rounds loaded; it needs {need}: reload")


def spend_ammo(ctx: Context, attacker: Combatant, weapon: Weapon | None, mode: AttackMode, n: int = 1) -> None:
    """Spend ammunition for a shot."""
    if weapon is not None and mode is AttackMode.RANGED and weapon.ammo_capacity is not None:
        if weapon.id not in attacker.ammo:
            ctx.emit(ev.ResourceUsed(attacker.id, f"ammo:{weapon.id}", weapon.ammo_capacity, rule("G-31")))
        ctx.emit(ev.ResourceUsed(attacker.id, f"ammo:{weapon.id}", -n, rule("G-31")))


def _check(state: EncounterState, intent: Strike) -> None:
    c = state.get(intent.actor)
    target = require_target(state, c, intent.target)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    if intent.called_shot is not None and not state.ruleset.attack.called_shots:
        raise refuse("CS-0", "called shots are not used in this ruleset")
    require_in_hand(c, weapon)
    if not check_guess(state, c, target, weapon, mode, intent.square):
        check_attack_reach(state, c, target, weapon, mode, intent.declared)
    check_ammo(c, weapon, mode)


def _resolve(ctx: Context, intent: Strike) -> None:
    c = ctx.state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    mode = mode_for(weapon, intent.thrown)
    spend_ammo(ctx, c, weapon, mode)
    if not guess_missed(ctx, c, intent.target, intent.square, weapon, mode):
        perform_attack(ctx, AttackPlan(c.id, intent.target, weapon, mode, Activity.STRIKE, intent.called_shot,
                                       intent.declared, label="Strike"))
    ctx.emit(ev.ResourceUsed(c.id, "strike-action", 1, ACT_7))


def _candidates(state: EncounterState, actor: str) -> Iterable[Strike]:
    c = state.get(actor)
    weapons: list[str | None] = [w.id for w in c.weapons] or [None]
    for e in state.enemies_of(actor):
        if e.health.is_dead:
            continue
        for w in weapons:
            yield Strike(actor, e.id, w)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Strike, ActionDef("strike", ACT_7, fixed(1), _resolve, _check, _candidates))
