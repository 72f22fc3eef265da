"""Psi Strike, Focus and Psionic Backlash in a fight (PSI-1..18, E-23).

Psi Strike is a ranged psionic attack (60 ft, 1d8 + WIS force, PSI-18): 1d20 + WIS + proficiency against
DV (PSI-3), following the general attack rules, MAP included (PSI-2, MAP-2). Psionics are not spells
(PSI-1): the casting offers no Counterspell (PSI-6, RX-20). Each use adds Focus (the amount per ability is
in Classes: Psion, PSI-13; ``psionics.focus_per_psionic_action`` is a placeholder). Focus above 10 + MIG
(PSI-14) causes Backlash as a normal combat event (PSI-15, PSI-16): Focus resets to 0, the psion takes
3d6 psychic, every other creature within 15 ft takes 2d6 psychic (Reflex for half, against the psionic
DC, G-26), and the psion is stunned until the end of its next turn. Edition 1 has no psionics (E-23).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ashfall.content import names
from ashfall.core.rule_ids import rule
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind
from ashfall.engine.harm import add, deal_damage
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import NOTHING_DECLARED, AttackPlan, Declared, distance, perform_attack
from ashfall.families.attacks.engine_area import area_damage, area_saves
from ashfall.families.attacks.engine_common import require_target
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.psionics.rules import Backlash, FocusState, gain_focus, psi_strike, require_psionics
from ashfall.families.spells.moves import end_kept
from ashfall.grid.board import CoverLevel
from ashfall.grid.geometry import cover_between
from ashfall.rules.damage import roll_damage
from ashfall.rules.errors import RuleViolation

PSI_13, PSI_15, PSI_18 = rule("PSI-13"), rule("PSI-15"), rule("PSI-18")
PSI_STRIKE = names.PSI_STRIKE
"""The talent that grants Psi Strike (Psion level 1)."""


@dataclass(frozen=True, slots=True)
class PsiStrike:
    """Psi Strike: a ranged psionic attack, 60 ft, 1d8 + WIS force (PSI-18)."""

    actor: str
    target: str
    declared: Declared = NOTHING_DECLARED


def _cost(state: EncounterState, intent: PsiStrike) -> int:
    return state.ruleset.psionics.psi_strike_actions


def _check(state: EncounterState, intent: PsiStrike) -> None:
    try:
        require_psionics(state.ruleset)
    except RuleViolation as err:
        raise refuse(err.rule, err.reason) from None
    c = state.get(intent.actor)
    if PSI_STRIKE not in c.creature.talents:
        raise refuse("PSI-18", f"{c.name} has no Psi Strike")
    target = require_target(state, c, intent.target)
    reach = state.ruleset.psionics.psi_strike_range_ft
    if distance(state, c, target) > reach:
        raise refuse("PSI-18", f"{target.name} is beyond Psi Strike's {reach} ft")
    if state.board is not None and c.space and target.space and cover_between(
            state.board, c.space, target.space)[0] is CoverLevel.TOTAL:
        raise refuse("COV-3", f"{target.name} is behind total cover")


def _resolve(ctx: Context, intent: PsiStrike) -> None:
    c = ctx.state.get(intent.actor)
    a, prof = c.creature.attributes, c.creature.proficiency
    ability = psi_strike(a.WIS, prof, ctx.ruleset)
    perform_attack(ctx, AttackPlan(c.id, intent.target, None, AttackMode.PSIONIC, Activity.STRIKE,
                                   declared=intent.declared, label=ability.name, extra_damage=ability.damage))
    gain(ctx, c, ctx.ruleset.psionics.focus_per_psionic_action)


def gain(ctx: Context, psion: Combatant, amount: int) -> None:
    """Add Focus after a psionic action (PSI-13); past the threshold, Backlash (PSI-14, PSI-15)."""
    a = psion.creature.attributes
    result = gain_focus(FocusState(psion.id, psion.focus), amount, a.MIG, ctx.ruleset, wis=a.WIS,
                        proficiency=psion.creature.proficiency)
    ctx.emit(ev.ResourceUsed(psion.id, "focus", amount, PSI_13))
    if result.backlash is not None:
        ctx.emit(ev.ResourceUsed(psion.id, "focus", -psion.focus, PSI_15))
        backlash(ctx, psion, result.backlash)


def backlash(ctx: Context, psion: Combatant, b: Backlash) -> None:
    """Psionic Backlash as a combat event (PSI-15, PSI-16): 3d6 to the psion, 2d6 around it, stunned."""
    if not psion.health.is_dead:
        deal_damage(ctx, psion.id, roll_damage(b.self_damage, ctx.rng, ctx.ruleset, critical=False), source=psion.id,
                    label="Psionic Backlash")
    near = [c.id for c in ctx.state.combatants.values()
            if c.id != psion.id and not c.health.is_dead and distance(ctx.state, psion, c) <= b.area_radius_ft]
    saved = area_saves(ctx, psion.id, near, psion.space, b.area_save, b.area_save_dc, "Psionic Backlash")
    area_damage(ctx, psion.id, saved, b.area_damage, half_on_save=True, label="Psionic Backlash")
    if not psion.health.is_dead and add(ctx, psion.id, b.stunned):
        for kind in (EffectKind.CONCENTRATION, EffectKind.SUSTAINED_SPELL):
            for e in ctx.state.effects_on(psion.id, kind):
                end_kept(ctx, e, PSI_15)


def _candidates(state: EncounterState, actor: str) -> Iterator[PsiStrike]:
    for e in state.enemies_of(actor):
        if not e.health.is_dead:
            yield PsiStrike(actor, e.id)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(PsiStrike, ActionDef("psi-strike", PSI_18, _cost, _resolve, _check, _candidates))
