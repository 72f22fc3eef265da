"""Attack of Opportunity (RX-21..25): leaving an enemy's reach, or shooting while in it (edition 2 only, E-18).

The attack is one melee attack that resolves before the triggering action (RX-22). A hit does not
stop the mover unless the attacker has the Sentinel talent (RX-23). It needs a melee weapon or an
unarmed strike (RX-24); natural weapons always count (NAT-4). Reactions take no MAP (G-41, MAP-6).
"""

from __future__ import annotations

from ashfall.content import names
from ashfall.core.rule_ids import rule
from ashfall.engine.context import Context
from ashfall.engine.reactions import NO_EFFECT, Effect, ReactionDef, Trigger, TriggerKind
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackPlan, cover_level, distance, perform_attack
from ashfall.families.attacks.engine_common import best_melee, can_make_melee_attack, melee_reach, mode_for
from ashfall.families.attacks.rules_activities import Activity
from ashfall.grid.board import CoverLevel

RX_21, RX_23 = rule("RX-21"), rule("RX-23")


def _eligible(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    if trigger.only is not None and reactor.id not in trigger.only:
        return False
    mover = state.get(trigger.actor)
    if mover.side == reactor.side or not can_make_melee_attack(reactor):
        return False
    in_reach = trigger.kind is TriggerKind.RANGED_ATTACK_IN_REACH
    if in_reach and not state.ruleset.turn.ranged_attack_provokes:
        return False  # edition 1: the AoO answers only leaving reach (E-18, 001:96)
    if not (mover.space and reactor.space):
        return not in_reach
    if in_reach and distance(state, reactor, mover) > melee_reach(reactor, state):
        return False
    # a creature behind total cover cannot be targeted (COV-3, STC-8): the cover the attack's situation reads
    # (only the cover is needed here, so the rest of the situation is not worked out)
    return state.board is None or cover_level(state, reactor, mover) is not CoverLevel.TOTAL


def _resolve(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    weapon = best_melee(reactor)
    result = perform_attack(ctx, AttackPlan(reactor.id, trigger.actor, weapon, mode_for(weapon),
                                            Activity.ATTACK_OF_OPPORTUNITY, label="Attack of Opportunity"))
    # RX-23's Sentinel stops the creature it hit: not the mover, if an ally Intercepted the attack (RX-27)
    if (result is not None and result.hit and result.target_id == trigger.actor
            and names.SENTINEL in reactor.creature.talents):
        return Effect(stop_movement=RX_23)
    return NO_EFFECT


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.reaction(ReactionDef(
        "attack-of-opportunity", "Attack of Opportunity", RX_21,
        frozenset({TriggerKind.LEAVES_REACH, TriggerKind.RANGED_ATTACK_IN_REACH}), _eligible, _resolve,
    ))
