"""In-combat medicine: Emergency Field Medicine, Second Wind, stims and edition 1's Medicine stabilise.

Each calls the rules core (:mod:`ashfall.families.dying.rules_medicine`, :mod:`ashfall.families.dying.rules_healing`,
:mod:`ashfall.families.dying.rules`) with a :class:`~ashfall.families.dying.rules_recovery.Recovery` built from the
combatant's counters in ``uses``:

- ``medicine-kit``: uses left in the Medicine kit it carries (MAA-6 needs one; each attempt spends one);
- ``stim:<tier>``: stims of that tier it carries (G-31); ``stims-taken``: stims it has had (E-29:
  at most ``healing.stims_per_day`` a day, and a fight is well within one day);
- ``second-wind``: Second Wind uses spent since its last short rest (HEAL-5, E-30);
- ``efm-lockout``: hours a failed Emergency Field Medicine keeps it from benefiting (edition 1, E-12).

Emergency Field Medicine (MAA-6): 2 actions, DC 20 once initiative is rolled (X-23), 2d6 + WIS, which
stabilises a dying ally (G-57, DEATH-13). Edition 1 also stabilises with a DC 10 Medicine check
(E-31); edition 2 refuses it (DEATH-17).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ashfall.core.rule_ids import rule
from ashfall.core.types import Attribute
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, refuse
from ashfall.engine.context import Context
from ashfall.engine.records import Keyed, Tally, use_name
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.dying.rules import require_dying, stabilize_with_medicine
from ashfall.families.dying.rules_healing import SECOND_WIND, second_wind, use_stim
from ashfall.families.dying.rules_medicine import emergency_field_medicine
from ashfall.families.dying.rules_recovery import AbilityUse, Recovery
from ashfall.families.maneuvers.engine import adjacent, helped_sources
from ashfall.families.utility.moves import log_check
from ashfall.rules import conditions as cond
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset.sections import StabiliseBy

MAA_6, E_12, E_29, E_31, G_31, HEAL_5 = (
    rule("MAA-6"), rule("E-12"), rule("E-29"), rule("E-31"), rule("G-31"), rule("HEAL-5"))
KIT, STIMS_TAKEN, LOCKOUT = Tally.MEDICINE_KIT, Tally.STIMS_TAKEN, Tally.EFM_LOCKOUT


def recovery_of(c: Combatant, state: EncounterState) -> Recovery:
    """The rules core's recovery state for a combatant, from its supplies."""
    opts = state.ruleset.healing
    s = c.supplies
    used = min(s.count(Tally.SECOND_WIND), opts.second_wind_uses)
    return Recovery(
        level=max(1, c.creature.level),
        short_rest_uses=(AbilityUse(SECOND_WIND, opts.second_wind_uses, used),),
        stims_hours_ago=(0,) * s.count(STIMS_TAKEN),
        efm_lockout_hours=s.count(LOCKOUT),
    )


def _patient(state: EncounterState, medic: Combatant, target_id: str, why: str) -> Combatant:
    """A living target in touch range: yourself or a creature within 5 ft."""
    if target_id not in state.combatants:
        raise refuse(why, f"no creature {target_id!r} here")
    t = state.get(target_id)
    if t.health.is_dead:
        raise refuse("DEATH-3", f"{t.name} is dead: only resurrection brings it back")
    if t.id != medic.id and not adjacent(state, medic, t):
        raise refuse(why, f"{t.name} must be within 5 ft")
    blocked = cond.blocks_healing(t.condition_set)
    if blocked is not None:
        raise refuse(blocked, f"{t.name} cannot be healed now")
    return t


# ----- Emergency Field Medicine (MAA-6, X-23, E-12, G-57) -----


@dataclass(frozen=True, slots=True)
class EmergencyFieldMedicine:
    """Use a Medicine kit on yourself or a creature within 5 ft (MAA-6)."""

    actor: str
    target: str


def _efm_cost(state: EncounterState, intent: EmergencyFieldMedicine) -> int:
    return state.ruleset.healing.efm_actions


def _check_efm(state: EncounterState, intent: EmergencyFieldMedicine) -> None:
    c = state.get(intent.actor)
    t = _patient(state, c, intent.target, "MAA-6")
    if c.supplies.count(KIT) <= 0:
        raise refuse("MAA-6", f"{c.name} has no Medicine kit with uses left")
    if t.health.is_dying and not state.ruleset.healing.efm_stabilises:
        raise refuse("G-57", f"{t.name} is dying: Emergency Field Medicine cannot treat it under this ruleset")
    if t.supplies.count(LOCKOUT) > 0:
        hours = t.supplies.count(LOCKOUT)
        raise refuse("E-12", f"a failed attempt keeps {t.name} from benefiting for {hours} more hours")


def _resolve_efm(ctx: Context, intent: EmergencyFieldMedicine) -> None:
    state = ctx.state
    c, t = state.get(intent.actor), state.get(intent.target)
    result = emergency_field_medicine(t.health, recovery_of(t, state), c.creature, ctx.rng, ctx.ruleset,
                                      in_combat=state.started, conditions=c.condition_set,
                                      sources=helped_sources(ctx, c.id))
    ctx.emit(ev.ResourceUsed(c.id, use_name(KIT), -1, MAA_6))
    log_check(ctx, c.id, "Medicine (Emergency Field Medicine)", result.check)
    if result.heal is not None:
        ctx.emit(ev.HealthSet(t.id, result.health, "Emergency Field Medicine", result.rules[-1]))
    elif result.lockout_hours:
        ctx.emit(ev.ResourceUsed(t.id, use_name(LOCKOUT), result.lockout_hours, E_12))


# ----- Second Wind (HEAL-5, E-30) -----


@dataclass(frozen=True, slots=True)
class SecondWind:
    """Catch your breath: heal yourself, once per short rest (HEAL-5)."""

    actor: str


def _second_wind_cost(state: EncounterState, intent: SecondWind) -> int:
    return state.ruleset.healing.second_wind_actions


def _check_second_wind(state: EncounterState, intent: SecondWind) -> None:
    c = state.get(intent.actor)
    if c.supplies.count(Tally.SECOND_WIND) >= state.ruleset.healing.second_wind_uses:
        raise refuse("HEAL-5", "Second Wind is once per short rest and was already used")


def _resolve_second_wind(ctx: Context, intent: SecondWind) -> None:
    c = ctx.state.get(intent.actor)
    result = second_wind(c.health, recovery_of(c, ctx.state), c.creature.attributes[Attribute.END], ctx.rng,
                         ctx.ruleset)
    ctx.emit(ev.HealthSet(c.id, result.health, "Second Wind", result.rules[-1]))
    ctx.emit(ev.ResourceUsed(c.id, use_name(Tally.SECOND_WIND), 1, HEAL_5))


# ----- stims (G-31, E-29) -----


@dataclass(frozen=True, slots=True)
class UseStim:
    """Apply a stim you carry to yourself or an adjacent ally (G-31)."""

    actor: str
    target: str
    tier: int = 1


def _stim_cost(state: EncounterState, intent: UseStim) -> int:
    return state.ruleset.healing.stim_actions


def _check_stim(state: EncounterState, intent: UseStim) -> None:
    opts = state.ruleset.healing
    if not opts.stims_available:
        raise refuse("G-31", "stims are not in use in this ruleset")
    if not 1 <= intent.tier <= len(opts.stim_dice):
        raise refuse("G-31", f"there is no tier {intent.tier} stim")
    c = state.get(intent.actor)
    t = _patient(state, c, intent.target, "G-31")
    if t.side != c.side:
        raise refuse("G-31", "a stim goes to yourself or an adjacent ally")
    if c.supplies.of(Keyed.STIM, intent.tier) <= 0:
        raise refuse("G-31", f"{c.name} carries no tier {intent.tier} stim")
    if t.supplies.count(STIMS_TAKEN) >= opts.stims_per_day:
        raise refuse("E-29", f"{t.name} has had {opts.stims_per_day} stims today: another has no effect")


def _resolve_stim(ctx: Context, intent: UseStim) -> None:
    c, t = ctx.state.get(intent.actor), ctx.state.get(intent.target)
    result = use_stim(t.health, recovery_of(t, ctx.state), intent.tier, ctx.rng, ctx.ruleset)
    ctx.emit(ev.ResourceUsed(c.id, use_name((Keyed.STIM, intent.tier)), -1, G_31))
    ctx.emit(ev.ResourceUsed(t.id, use_name(STIMS_TAKEN), 1, E_29))
    ctx.emit(ev.HealthSet(t.id, result.health, f"tier {intent.tier} stim", G_31))


# ----- edition 1: stabilise with a Medicine check (E-31, DEATH-17) -----


@dataclass(frozen=True, slots=True)
class StabiliseWithMedicine:
    """Edition 1: a DC 10 Medicine check stabilises a dying creature within 5 ft (E-31)."""

    actor: str
    target: str


def _stabilise_cost(state: EncounterState, intent: StabiliseWithMedicine) -> int:
    return state.ruleset.dying.medicine_stabilise_actions


def _check_stabilise(state: EncounterState, intent: StabiliseWithMedicine) -> None:
    if state.ruleset.dying.stabilise_by is not StabiliseBy.HEALING_OR_MEDICINE_CHECK:
        raise refuse("DEATH-17", "only healing stabilises a dying creature in this ruleset")
    c = state.get(intent.actor)
    t = _patient(state, c, intent.target, "E-31")
    try:
        require_dying(t.health)
    except RuleViolation as err:
        raise refuse(err.rule, err.reason) from None


def _resolve_stabilise(ctx: Context, intent: StabiliseWithMedicine) -> None:
    c, t = ctx.state.get(intent.actor), ctx.state.get(intent.target)
    result = stabilize_with_medicine(t.health, c.creature, ctx.rng, ctx.ruleset, conditions=c.condition_set,
                                     sources=helped_sources(ctx, c.id))
    log_check(ctx, c.id, "Medicine (stabilise)", result.check)
    if result.check.success:
        ctx.emit(ev.HealthSet(t.id, result.health, "stabilised with Medicine", E_31))


# ----- candidates and registration -----


def _wounded(state: EncounterState, actor: str) -> list[Combatant]:
    c = state.get(actor)
    group = [c, *state.allies_of(actor)]
    return [a for a in group if not a.health.is_dead and a.health.hp < a.health.max_hp
            and (a.id == actor or adjacent(state, c, a))]


def _efm_candidates(state: EncounterState, actor: str) -> Iterable[EmergencyFieldMedicine]:
    dying_ok = state.ruleset.healing.efm_stabilises  # G-57
    return [EmergencyFieldMedicine(actor, a.id) for a in _wounded(state, actor) if dying_ok or not a.health.is_dying]


def _second_wind_candidates(state: EncounterState, actor: str) -> Iterable[SecondWind]:
    h = state.get(actor).health
    return [SecondWind(actor)] if h.hp < h.max_hp else []


def _stim_candidates(state: EncounterState, actor: str) -> Iterable[UseStim]:
    c = state.get(actor)
    tiers = [k for k in range(1, len(state.ruleset.healing.stim_dice) + 1) if c.supplies.of(Keyed.STIM, k) > 0]
    return [UseStim(actor, a.id, tier) for a in _wounded(state, actor) for tier in tiers[:1]]


def _stabilise_candidates(state: EncounterState, actor: str) -> Iterable[StabiliseWithMedicine]:
    return [StabiliseWithMedicine(actor, a.id) for a in _wounded(state, actor) if a.health.is_dying]


__all__ = ["EmergencyFieldMedicine", "SecondWind", "StabiliseWithMedicine", "UseStim", "recovery_of"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(EmergencyFieldMedicine, ActionDef("emergency-field-medicine", MAA_6, _efm_cost, _resolve_efm,
                                                  _check_efm, _efm_candidates))
    book.action(SecondWind, ActionDef("second-wind", HEAL_5, _second_wind_cost, _resolve_second_wind,
                                      _check_second_wind, _second_wind_candidates))
    book.action(UseStim, ActionDef("use-stim", G_31, _stim_cost, _resolve_stim, _check_stim, _stim_candidates))
    book.action(StabiliseWithMedicine, ActionDef("stabilise-with-medicine", E_31, _stabilise_cost, _resolve_stabilise,
                                                 _check_stabilise, _stabilise_candidates))
