"""Counterspell (RX-16..18, X-09): stopping a spell as it is cast; never a psionic ability (RX-20, PSI-6).

A creature within 60 ft that can see the caster may react to a SPELL_CAST trigger if it is a spellcaster
with a free hand or a held spellcasting focus (RX-18). It makes a spellcasting check (the stat block's
Spellcasting, else spell attribute + proficiency) against DC 10 + the spell's level (RX-17, X-09: a
check, not a contest); on a success the spell fails. The Mystic's level-4 feature (RX-19) and the
spell slot the generic Counterspell uses are in the Magic and Classes chapters (reference only).
"""

from __future__ import annotations

from ashfall.content import names
from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Skill
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.reactions import NO_EFFECT, Effect, ReactionDef, Trigger, TriggerKind
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import distance
from ashfall.families.attacks.moves_gear import has_free_hand
from ashfall.families.psionics.rules import PowerKind, can_be_counterspelled
from ashfall.families.senses.engine import can_see
from ashfall.families.spells.moves import spell_attribute
from ashfall.rules.checks import ability_check
from ashfall.rules.dc import DC, fixed_dc

RX_16, RX_17 = rule("RX-16"), rule("RX-17")
FOCUS = names.SPELLCASTING_FOCUS
"""The talent for holding a spellcasting focus (RX-18: Counterspell needs it or a free hand)."""


def _counter_eligible(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    power = PowerKind(str(trigger.get("power", PowerKind.SPELL.value)))
    if not can_be_counterspelled(power).allowed:
        return False
    caster = state.get(trigger.actor)
    if caster.side == reactor.side or reactor.creature.spell_attribute is None:
        return False
    if not (has_free_hand(reactor, state) or FOCUS in reactor.creature.talents):
        return False
    return distance(state, reactor, caster) <= state.ruleset.magic.counterspell_range_ft and can_see(state, reactor,
                                                                                                 caster)


def spellcasting_check(ctx: Context, c: Combatant, dc: DC, rule_id: RuleId) -> tuple[bool, ev.RollRecord]:
    """A spellcasting check: the stat block's Spellcasting, else spell attribute + proficiency."""
    if Skill.SPELLCASTING in c.creature.skills:
        roller = ctx.roller(c.id, "check", dc.rule)
        result = ability_check(c.creature, Skill.SPELLCASTING, dc, roller, ctx.ruleset, conditions=c.condition_set)
    else:
        prof = Modifier(c.creature.proficiency, ModifierKind.PROFICIENCY, rule_id, "proficiency")
        roller = ctx.roller(c.id, "check", dc.rule)
        result = ability_check(c.creature, spell_attribute(c), dc, roller, ctx.ruleset, conditions=c.condition_set,
                               modifiers=(prof,))
    return result.success, ev.RollRecord.of(result.roll)


def _counter_resolve(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    level = int(str(trigger.get("level", 0)))
    base = ctx.ruleset.magic.counterspell_dc_base
    dc = fixed_dc(base + level, RX_17, f"{base} + spell level {level}")
    success, record = spellcasting_check(ctx, reactor, dc, RX_17)
    ctx.emit(ev.CheckRolled(reactor.id, f"Counterspell vs {trigger.get('spell')}", record, dc.total, success, RX_17))
    return Effect(cancelled=RX_17) if success else NO_EFFECT


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.reaction(ReactionDef("counterspell", "Counterspell", RX_16, frozenset({TriggerKind.SPELL_CAST}),
                                  _counter_eligible, _counter_resolve))
