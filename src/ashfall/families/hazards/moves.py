"""Actions against spreading hazards (HAZF-3, HAZF-4, HAZG-6, HAZC-4, HAZW-5, EX-9) and the hazards' movement hook.

* **Extinguish** (HAZF-3): ``hazards.extinguish_actions`` (1) puts out one burning square in or next to
  the creature's space (stomping, smothering).
* **Activate Suppression** (HAZF-4): ``suppression_actions`` (1) at a fire-suppression system's control
  (in or next to the creature's space) puts out every fire in the system's area.
* **Seal Gas** (HAZG-6): ``seal_actions`` (1) at a gas source (in or next to it): the cloud stops
  growing and lingers 1d4 rounds.
* **Dig Out** (HAZC-4, G-18, X-22): ``dig_out_actions`` (1), the buried creature's own or an adjacent
  ally's: Buried ends. No check.
* **Find Drain** (EX-9): ``drain_actions`` (1): Perception against a hidden drain's DC; success reveals it.
* **Open Drain** (HAZW-5, EX-9): ``drain_actions`` (1) at a found drain (in or next to it): a MIG check
  (the drain's DC, else ``hazards.drain_dc`` 12); success opens it and the water starts going down.

The movement hook (after every step): entering a burning square or hazardous terrain, leaving deep
water (:func:`ashfall.families.hazards.engine.after_step`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, Condition, Skill
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Cost, refuse
from ashfall.engine.context import Context
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.hazards.engine import after_step, dig_out, extinguish, open_drain, seal_gas, suppress
from ashfall.grid.board import SQUARE_FT, Square
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules.checks import Stat, ability_check
from ashfall.rules.dc import fixed_dc

HAZF_3, HAZF_4, HAZG_6, HAZC_4, HAZW_5, EX_9 = (rule(r) for r in ("HAZF-3", "HAZF-4", "HAZG-6", "HAZC-4", "HAZW-5",
                                                                  "EX-9"))


def _near(c: Combatant, sq: Square | None) -> bool:
    """The square is in or next to the creature's space (within 5 ft)."""
    return sq is not None and bool(c.space) and space_distance_ft(c.space, (sq,)) <= SQUARE_FT


def _near_squares(c: Combatant, squares: Iterable[Square]) -> list[Square]:
    return sorted(sq for sq in squares if _near(c, sq))


def _check_roll(ctx: Context, c: Combatant, stat: Stat, dc_value: int, rule_id: RuleId, label: str) -> bool:
    dc = fixed_dc(dc_value, rule_id, label)
    roller = ctx.roller(c.id, "check", dc.rule)
    result = ability_check(c.creature, stat, dc, roller, ctx.ruleset, conditions=c.condition_set)
    ctx.emit(ev.CheckRolled(c.id, label, ev.RollRecord.of(result.roll), dc.total, result.success, rule_id))
    return result.success


# ----- Extinguish (HAZF-3) -----


@dataclass(frozen=True, slots=True)
class Extinguish:
    """Put out the fire in one 5-ft square in or next to your space (HAZF-3)."""

    actor: str
    square: Square


def _check_extinguish(state: EncounterState, intent: Extinguish) -> None:
    c = state.get(intent.actor)
    if intent.square not in state.environment.fire:
        raise refuse("HAZF-3", f"{intent.square} is not burning")
    if not _near(c, intent.square):
        raise refuse("HAZF-3", f"{intent.square} is not in or next to {c.name}'s space")


def _resolve_extinguish(ctx: Context, intent: Extinguish) -> None:
    extinguish(ctx, (intent.square,), HAZF_3, "extinguished")


def _extinguish_candidates(state: EncounterState, actor: str) -> Iterable[Extinguish]:
    fire = state.environment.fire
    return [Extinguish(actor, sq) for sq in _near_squares(state.get(actor), fire)] if fire else []


# ----- Activate Suppression (HAZF-4) -----


@dataclass(frozen=True, slots=True)
class ActivateSuppression:
    """Set off a fire-suppression system from its control (HAZF-4)."""

    actor: str
    system: str


def _check_suppression(state: EncounterState, intent: ActivateSuppression) -> None:
    system = state.environment.suppressors.get(intent.system)
    if system is None:
        raise refuse("HAZF-4", f"there is no suppression system {intent.system!r}")
    if not _near(state.get(intent.actor), system.control):
        raise refuse("HAZF-4", f"{intent.actor} is not at the control of {intent.system}")


def _resolve_suppression(ctx: Context, intent: ActivateSuppression) -> None:
    suppress(ctx, intent.system, HAZF_4)


def _suppression_candidates(state: EncounterState, actor: str) -> Iterable[ActivateSuppression]:
    env = state.environment
    if not env.fire:
        return []
    c = state.get(actor)
    return [ActivateSuppression(actor, k) for k in sorted(env.suppressors)
            if _near(c, env.suppressors[k].control) and env.fire.keys() & set(env.suppressors[k].squares)]


# ----- Seal Gas (HAZG-6) -----


@dataclass(frozen=True, slots=True)
class SealGas:
    """Seal a gas cloud's source, in or next to your space (HAZG-6)."""

    actor: str
    cloud: str


def _check_seal(state: EncounterState, intent: SealGas) -> None:
    cloud = state.environment.gas_clouds.get(intent.cloud)
    if cloud is None:
        raise refuse("HAZG-6", f"there is no gas cloud {intent.cloud!r}")
    if cloud.sealed:
        raise refuse("HAZG-6", f"{intent.cloud} is already sealed")
    if not _near(state.get(intent.actor), cloud.centre):
        raise refuse("HAZG-6", f"the source of {intent.cloud} is not in or next to {intent.actor}'s space")


def _resolve_seal(ctx: Context, intent: SealGas) -> None:
    seal_gas(ctx, intent.cloud, HAZG_6)


def _seal_candidates(state: EncounterState, actor: str) -> Iterable[SealGas]:
    c = state.get(actor)
    clouds = state.environment.gas_clouds
    return [SealGas(actor, k) for k in sorted(clouds) if not clouds[k].sealed and _near(c, clouds[k].centre)]


# ----- Dig Out (HAZC-4) -----


@dataclass(frozen=True, slots=True)
class DigOut:
    """Dig a buried creature out: yourself, or an adjacent ally (HAZC-4, G-18, X-22)."""

    actor: str
    target: str


def _check_dig(state: EncounterState, intent: DigOut) -> None:
    c, t = state.get(intent.actor), state.get(intent.target)
    if not t.has(Condition.BURIED):
        raise refuse("HAZC-4", f"{t.name} is not buried")
    if t.id != c.id and (t.side != c.side or not c.space or not t.space
                         or space_distance_ft(c.space, t.space) > SQUARE_FT):
        raise refuse("HAZC-4", f"{c.name} can dig out only itself or an adjacent ally")


def _resolve_dig(ctx: Context, intent: DigOut) -> None:
    dig_out(ctx, intent.target, HAZC_4)


def _dig_candidates(state: EncounterState, actor: str) -> Iterable[DigOut]:
    c = state.get(actor)
    found = [DigOut(actor, actor)] if c.has(Condition.BURIED) else []
    return found + [DigOut(actor, a.id) for a in state.allies_of(actor) if a.has(Condition.BURIED) and a.space
                    and c.space and space_distance_ft(c.space, a.space) <= SQUARE_FT]


# ----- Find Drain / Open Drain (HAZW-5, EX-9) -----


@dataclass(frozen=True, slots=True)
class FindDrain:
    """Search the flooded room for a hidden drain: Perception against its DC (EX-9)."""

    actor: str
    drain: str


def _check_find(state: EncounterState, intent: FindDrain) -> None:
    drain = state.environment.drains.get(intent.drain)
    if drain is None:
        raise refuse("EX-9", f"there is no drain {intent.drain!r}")
    if drain.found:
        raise refuse("EX-9", f"{intent.drain} has been found already")


def _resolve_find(ctx: Context, intent: FindDrain) -> None:
    drain = ctx.state.environment.drains[intent.drain]
    if _check_roll(ctx, ctx.state.get(intent.actor), Skill.PERCEPTION, drain.find_dc, EX_9, "Perception: find drain"):
        ctx.emit(ev.DrainChanged(replace(drain, found=True), EX_9))


def _find_candidates(state: EncounterState, actor: str) -> Iterable[FindDrain]:
    env = state.environment
    if not env.floods:
        return []
    return [FindDrain(actor, k) for k in sorted(env.drains) if not env.drains[k].found]


@dataclass(frozen=True, slots=True)
class OpenDrain:
    """Pry a found drain open: a MIG check (EX-9); the water then goes down (HAZW-5)."""

    actor: str
    drain: str


def _check_open(state: EncounterState, intent: OpenDrain) -> None:
    drain = state.environment.drains.get(intent.drain)
    if drain is None:
        raise refuse("HAZW-5", f"there is no drain {intent.drain!r}")
    if not drain.found:
        raise refuse("EX-9", f"{intent.drain} has not been found (Find Drain)")
    if drain.open:
        raise refuse("HAZW-5", f"{intent.drain} is open already")
    if not _near(state.get(intent.actor), drain.at):
        raise refuse("HAZW-5", f"{intent.drain} is not in or next to {intent.actor}'s space")


def _resolve_open(ctx: Context, intent: OpenDrain) -> None:
    drain = ctx.state.environment.drains[intent.drain]
    dc = drain.open_dc or ctx.ruleset.hazards.drain_dc
    if _check_roll(ctx, ctx.state.get(intent.actor), Attribute.MIG, dc, EX_9, "MIG: pry the drain open"):
        open_drain(ctx, intent.drain, HAZW_5)


def _open_candidates(state: EncounterState, actor: str) -> Iterable[OpenDrain]:
    c, drains = state.get(actor), state.environment.drains
    return [OpenDrain(actor, k) for k in sorted(drains)
            if drains[k].found and not drains[k].open and _near(c, drains[k].at)]


def _option_cost(name: str) -> Cost:
    """The action cost set by a ``hazards`` option."""

    def cost(state: EncounterState, intent: object) -> int:
        return int(getattr(state.ruleset.hazards, name))

    return cost


def _hazard_hook(ctx: Context, mover: str, frm: Square | None, to: Square | None) -> RuleId | None:
    """The hazards' movement hook: it harms but never stops the movement."""
    after_step(ctx, mover, frm, to)
    return None


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Extinguish, ActionDef("extinguish", HAZF_3, _option_cost("extinguish_actions"), _resolve_extinguish,
                                      _check_extinguish, _extinguish_candidates))
    book.action(ActivateSuppression, ActionDef("activate-suppression", HAZF_4, _option_cost("suppression_actions"),
                                               _resolve_suppression, _check_suppression, _suppression_candidates))
    book.action(SealGas, ActionDef("seal-gas", HAZG_6, _option_cost("seal_actions"), _resolve_seal, _check_seal,
                                   _seal_candidates))
    book.action(DigOut, ActionDef("dig-out", HAZC_4, _option_cost("dig_out_actions"), _resolve_dig, _check_dig,
                                  _dig_candidates))
    book.action(FindDrain, ActionDef("find-drain", EX_9, _option_cost("drain_actions"), _resolve_find, _check_find,
                                     _find_candidates))
    book.action(OpenDrain, ActionDef("open-drain", HAZW_5, _option_cost("drain_actions"), _resolve_open, _check_open,
                                     _open_candidates))
    book.movement_hook("hazards", _hazard_hook)
