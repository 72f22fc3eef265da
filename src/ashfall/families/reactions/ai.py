"""The tactical AI as a controller: which reaction to take, which skill to defend with, other choices.

Reactions (RX-3: optional) are taken in a fixed order of preference among those the engine offers:
Counterspell, Intercept (only to shield an ally a hit would likely drop, when the reactor can take the
blow), Deflect, Attack of Opportunity, Return Fire, Brace, the AoO after a failed Disarm, a readied
action, Covering Fire, Dive for Cover. Anything else is declined. A broken, routed or surrendered
creature takes none (MOR-22). For a defense skill (X-09) it picks its higher modifier. Other required
decisions take the first option; other optional ones are declined.
"""

from __future__ import annotations

from dataclasses import replace

from ashfall.ai.board_cache import cover, gap_ft
from ashfall.ai.odds_cache import attack_value, ruleset_token
from ashfall.ai.profile import attack_base, attack_options
from ashfall.core.types import Skill
from ashfall.engine import Combatant, Decision, EncounterState
from ashfall.families.morale.engine import morale_forbids_reactions
from ashfall.grid.board import CoverLevel
from ashfall.rules.checks import maneuver_stats, stat_modifier

PREFERENCE = ("counterspell", "intercept", "deflect", "attack-of-opportunity", "return-fire", "brace",
              "disarm-riposte", "readied", "covering-fire", "dive-for-cover")
"""Reactions the AI takes, most wanted first (keys of :attr:`ashfall.engine.rulebook.Rulebook.reactions`)."""
ATTACKS = frozenset({"attack-of-opportunity", "return-fire", "brace", "disarm-riposte"})
"""Reactions that attack the creature that set them off."""
REACTION = "reaction"
DEFENSE_SKILL = "defense-skill"
_HUGE = 1 << 30


def answer(state: EncounterState, decision: Decision) -> str | None:
    """The AI's answer to one decision."""
    if decision.kind == REACTION:
        return _reaction(state, decision)
    if decision.kind == DEFENSE_SKILL:
        return _defense_skill(state, decision)
    if decision.optional or not decision.options:
        return None
    return decision.options[0].key


def _reaction(state: EncounterState, decision: Decision) -> str | None:
    c = state.combatants.get(decision.actor)
    if c is None or morale_forbids_reactions(c) is not None:
        return None if decision.optional else decision.options[0].key
    offered = {o.key for o in decision.options}
    for key in PREFERENCE:
        if key not in offered:
            continue
        if key == "intercept" and not _worth_intercepting(state, c, decision):
            continue
        if key in ATTACKS and _walled_off(state, c, decision):
            continue
        return key
    return None if decision.optional else decision.options[0].key


def trigger_actor(decision: Decision) -> str:
    """The creature that set the reaction off (the decision's ``about``; empty when it names none)."""
    return decision.about or ""


def _walled_off(state: EncounterState, reactor: Combatant, decision: Decision) -> bool:
    """Whether the creature to be attacked has total cover from the reactor (COV-3): the attack could not be made."""
    other = state.combatants.get(trigger_actor(decision))
    if state.board is None or other is None or not other.space or not reactor.space:
        return False
    return cover(state.board, reactor.space, other.space) is CoverLevel.TOTAL


def _worth_intercepting(state: EncounterState, reactor: Combatant, decision: Decision) -> bool:
    """Intercept (RX-26) when an ally near the attacker would likely drop from a hit that the reactor can take.

    The decision does not name the attacked ally, so every ally within Intercept range of the reactor and
    within the attacker's reach counts: the mean damage of the attacker's hit on it must reach its HP, and
    the reactor must have more than twice that HP left.
    """
    attacker = state.combatants.get(trigger_actor(decision))
    if attacker is None or not attacker.space or not reactor.space:
        return False
    token = ruleset_token(state.ruleset)
    options = [replace(o, limit_ft=_HUGE) for o in attack_options(attacker, state)]
    reach = state.ruleset.turn.intercept_range_ft
    for ally in state.allies_of(reactor.id):
        if not ally.is_active or not ally.space or gap_ft(ally.space, reactor.space) > reach:
            continue
        hit = 0.0
        for option in options:
            near = gap_ft(attacker.space, ally.space) <= (option.weapon.reach if option.weapon and not
                                                                     option.ranged else 5)
            if not option.ranged and not near:
                continue
            base = attack_base(state, attacker, None, ally, option, token)
            if base is None:
                continue
            value = attack_value(base.key(1))
            if value.p_hit:
                hit = max(hit, value.expected / value.p_hit)
        left = ally.health.hp + ally.health.temp_hp
        if hit and hit >= left and reactor.health.hp + reactor.health.temp_hp > 2 * hit:
            return True
    return False


def _defense_skill(state: EncounterState, decision: Decision) -> str | None:
    """The defense skill with the higher modifier (X-09); options are Skill values."""
    c = state.combatants.get(decision.actor)
    if c is None or not decision.options:
        return None if decision.optional else (decision.options[0].key if decision.options else None)
    athletics, acrobatics = maneuver_stats(state.ruleset)
    stat_of = {Skill.ATHLETICS.value: athletics, Skill.ACROBATICS.value: acrobatics}
    best, best_mod = decision.options[0].key, None
    for o in decision.options:
        stat = stat_of.get(o.key)
        if stat is None:
            continue
        mod = stat_modifier(c.creature, stat)
        if best_mod is None or mod > best_mod:
            best, best_mod = o.key, mod
    return best
