"""Two-weapon fighting's off-hand Strike (TWF-1..8, X-11, E-40) and Coup de Grace (CDG-1..5, G-41).

Off-hand Strike: after a main-hand attack this turn (TWF-2), 1 more action (TWF-3) attacks with the
weapon in the other hand (TWF-1, two copies allowed TWF-7). By default the turn then follows the
two-weapon schedule (X-11): main hand 0, off-hand 0 (Light) or -2 (TWF-4, TWF-5), a third attack -3
(TWF-8); ``attack.twf_schedule = strict-map`` keeps MAP. Edition 1 needs both weapons Light (E-40).
Off-hand damage adds no attribute unless negative or the attacker has Two-Weapon Fighting (TWF-6).

Coup de Grace: 1 action against an adjacent unconscious, paralyzed or helpless creature (CDG-1); no
roll, an automatic critical hit (CDG-2) that takes no MAP but counts as an attack (G-41); a target left
at 0 HP dies (CDG-3), one that still has HP wakes up prone and aware (CDG-4).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ashfall.content import names
from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.harm import add, deal_damage, end_conditions
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import NOTHING_DECLARED, AttackPlan, Declared, distance, perform_attack
from ashfall.families.attacks.engine_common import mode_for, require_target
from ashfall.families.attacks.moves_activities import activity_cost, count_strike_action, validate_attack
from ashfall.families.attacks.moves_gear import named_weapon, require_in_hand
from ashfall.families.attacks.moves_strike import check_ammo, check_attack_reach, chosen_weapon, spend_ammo
from ashfall.families.attacks.rules_activities import SINGLE_ACTION, Activity
from ashfall.families.attacks.rules_coup_de_grace import aftermath, coup_de_grace, ineligible
from ashfall.families.attacks.rules_map import TwoWeapon
from ashfall.grid.board import SQUARE_FT
from ashfall.rules.condition_durations import AppliedCondition, EndEvent
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.damage import roll_damage
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Vitality

TWF_3, G_20 = rule("TWF-3"), rule("G-20")
CDG_1, CDG_2, CDG_3, CDG_4 = rule("CDG-1"), rule("CDG-2"), rule("CDG-3"), rule("CDG-4")
TWF_ABILITY = names.TWO_WEAPON_FIGHTING
"""The talent that adds the attribute to off-hand damage (TWF-6)."""
CDG_IMMUNE = names.COUP_DE_GRACE_IMMUNE
"""The talent (a GM ruling, CDG-5) that makes a creature immune to Coup de Grace."""
NO_ROLL = ev.RollRecord((), 0, "normal", (), (), 0)
"""The roll record of an attack that makes no roll (Coup de Grace, CDG-2)."""


# ----- two-weapon fighting -----


@dataclass(frozen=True, slots=True)
class OffHandStrike:
    """1 action: attack with the off-hand weapon after a main-hand attack this turn (TWF-1..8).

    Attributes:
        weapon: The off-hand weapon's id.
        main_hand: The main-hand weapon's id (default: the first other one-handed weapon it carries).
    """

    actor: str
    target: str
    weapon: str
    main_hand: str | None = None
    declared: Declared = NOTHING_DECLARED


def hands(c: Combatant, intent: OffHandStrike) -> tuple[Weapon, Weapon]:
    """The (main-hand, off-hand) weapons, refusing anything but one one-handed weapon in each hand (TWF-1, TWF-7)."""
    off = named_weapon(c, intent.weapon)
    index = next(i for i, w in enumerate(c.weapons) if w.id == off.id)
    others = [w for i, w in enumerate(c.weapons) if i != index]
    if intent.main_hand is not None:
        main = next((w for w in others if w.id == intent.main_hand), None)
    else:
        main = next((w for w in others if not w.has(WeaponProperty.TWO_HANDED)), None)
    if main is None:
        raise refuse("TWF-1", f"{c.name} needs a weapon in each hand (two copies of {off.name} for TWF-7)")
    for w in (main, off):
        if w.has(WeaponProperty.TWO_HANDED):
            raise refuse("TWF-1", f"{w.name} is two-handed: it leaves no hand for a second weapon")
        require_in_hand(c, w)
    return main, off


def _check_offhand(state: EncounterState, intent: OffHandStrike) -> None:
    c = state.get(intent.actor)
    main, off = hands(c, intent)
    if state.ruleset.attack.twf_requires_light:
        for w in (main, off):
            if not w.has(WeaponProperty.LIGHT):
                raise refuse("E-40", f"{w.name} is not Light; this edition needs two Light weapons")
    if c.turn.twf_offhand_used:
        raise refuse("TWF-3", f"{c.name} has already made its off-hand attack this turn")
    if c.turn.attack_rolls < 1:
        raise refuse("TWF-2", "attack with the main-hand weapon first; the off-hand attack is the additional one")
    target = require_target(state, c, intent.target)
    check_attack_reach(state, c, target, off, mode_for(off))
    check_ammo(c, off, mode_for(off))


def _resolve_offhand(ctx: Context, intent: OffHandStrike) -> None:
    c = ctx.state.get(intent.actor)
    main, off = hands(c, intent)
    mode = mode_for(off)
    spend_ammo(ctx, c, off, mode)
    twf = TwoWeapon(c.turn.attack_rolls + 1, True, main, TWF_ABILITY in c.creature.talents)
    perform_attack(ctx, AttackPlan(c.id, intent.target, off, mode, Activity.STRIKE, declared=intent.declared,
                                   label="Off-hand Strike", two_weapon=twf))
    ctx.emit(ev.ResourceUsed(c.id, "offhand", 1, TWF_3))
    count_strike_action(ctx, c.id)


def _offhand_candidates(state: EncounterState, actor: str) -> Iterator[OffHandStrike]:
    c = state.get(actor)
    for e in state.enemies_of(actor):
        if not e.health.is_dead:
            for w in dict.fromkeys(w.id for w in c.weapons):
                yield OffHandStrike(actor, e.id, w)


# ----- Coup de Grace -----


@dataclass(frozen=True, slots=True)
class CoupDeGrace:
    """1 action: a killing blow against an adjacent creature that cannot defend itself (CDG-1..4)."""

    actor: str
    target: str
    weapon: str | None = None
    unarmed: bool = False


def _check_cdg(state: EncounterState, intent: CoupDeGrace) -> None:
    c = state.get(intent.actor)
    target = require_target(state, c, intent.target)
    if distance(state, c, target) > SQUARE_FT:
        raise refuse("CDG-1", f"{target.name} is not adjacent (within {SQUARE_FT} ft)")
    why = ineligible(target.condition_set, immune=CDG_IMMUNE in target.creature.talents)
    if why is not None:
        raise refuse(why, f"{target.name} is not unconscious, paralyzed or helpless" if why == CDG_1
                     else f"{target.name} is immune to Coup de Grace")
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    validate_attack(state, c, weapon, mode_for(weapon), Activity.COUP_DE_GRACE)


def _resolve_cdg(ctx: Context, intent: CoupDeGrace) -> None:
    c = ctx.state.get(intent.actor)
    weapon = chosen_weapon(c, intent.weapon, intent.unarmed)
    try:
        blow = coup_de_grace(c.creature, weapon, mode_for(weapon), ctx.ruleset)
    except RuleViolation as err:  # checked before; kept for safety
        raise refuse(err.rule, err.reason) from None
    used = blow.weapon.id if blow.weapon else "unarmed"
    ctx.emit(ev.AttackRolled(c.id, intent.target, used, "Coup de Grace", NO_ROLL, 0, (), "crit",
                             tuple(blow.reasons), blow.counts_for_map, rule=CDG_2))
    if c.has(Condition.HIDDEN):
        end_conditions(ctx, c.id, EndEvent(EndTrigger.ATTACKS), G_20)
    damage = roll_damage(blow.damage_parts, ctx.rng, ctx.ruleset, critical=True)
    deal_damage(ctx, intent.target, damage, source=c.id, label="Coup de Grace", critical=True)
    target = ctx.state.get(intent.target)
    after = aftermath(target.health)
    if after.dies:
        dead = target.health.evolve(hp=0, vitality=Vitality.DEAD, successes=0, failures=0)
        ctx.emit(ev.HealthSet(target.id, dead, "Coup de Grace: no death saves", CDG_3))
    elif after.wakes:
        for a in target.conditions:
            if a.condition is Condition.UNCONSCIOUS:
                ctx.emit(ev.ConditionRemoved(target.id, a, CDG_4))
        if not target.has(Condition.PRONE):
            add(ctx, target.id, AppliedCondition(Condition.PRONE, CDG_4, c.id))
    count_strike_action(ctx, c.id)


def _cdg_candidates(state: EncounterState, actor: str) -> Iterator[CoupDeGrace]:
    c = state.get(actor)
    melee: list[str | None] = [w.id for w in c.weapons if w.kind is WeaponKind.MELEE]
    for e in state.enemies_of(actor):
        if not e.health.is_dead:
            for w in melee or [None]:
                yield CoupDeGrace(actor, e.id, w, unarmed=w is None)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(OffHandStrike, ActionDef("off-hand-strike", TWF_3, fixed(SINGLE_ACTION), _resolve_offhand,
                                         _check_offhand, _offhand_candidates))
    book.action(CoupDeGrace, ActionDef("coup-de-grace", CDG_2, activity_cost(Activity.COUP_DE_GRACE), _resolve_cdg,
                                       _check_cdg, _cdg_candidates))
