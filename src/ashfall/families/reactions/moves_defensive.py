"""The universal reactions besides the Attack of Opportunity: Deflect, Dive for Cover, Brace, Intercept, Return Fire.

* **Deflect** (RX-6..8, E-14): hit by a ranged attack, with a free hand and (edition 2) proficiency
  with a melee weapon or shields: the damage drops by ``turn.deflect_dice`` + AGI, never below 0
  (where it falls in the ledger: G-39). Read by the attack pipeline at HIT_BY_RANGED.
* **Dive for Cover** (RX-9..11, X-14, X-21, G-37): targeted by an area effect with partial, heavy or
  total cover from the area's origin within ``turn.dive_for_cover_ft``: move there without provoking
  (the cheapest best-covered square is chosen), and gain that cover's Reflex bonus against the
  effect. Area effects call :func:`area_targeted`. On a map only: in theater of mind the GM rules.
* **Brace** (RX-12..15, X-20): a creature that Strode or Sprinted at least ``turn.brace_charge_ft``
  in a straight line, every step closer to you, and ended within the reach of your reach, polearm or
  braceable weapon: one melee attack with +1d6 (Activity.BRACE); on a hit against a charger your
  size or smaller, a Fortitude save (DC 8 + proficiency + MIG) or its movement ends and it cannot
  move again this turn.
* **Intercept** (RX-26..28, E-19): a creature you can see targets an ally within
  ``turn.intercept_range_ft`` of you with a melee attack (edition 1: any attack): it targets you,
  against your DV. Nobody moves on the map, so nothing is provoked.
* **Return Fire** (RX-29..32, G-56, E-20): a creature you can see hits you, or an ally within
  ``turn.return_fire_ally_ft`` of you, with a ranged attack: one ranged attack back at −2 (no MAP),
  with a loaded weapon you are proficient with, the shooter within its normal range. It is a ranged
  attack: AMOD-7 disadvantage and AoO apply as to any other (RX-32).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.dice import parse, roll
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Save
from ashfall.engine import events as ev
from ashfall.engine.actions import Refused
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.reactions import NO_EFFECT, Combined, Effect, ReactionDef, Trigger, TriggerKind, combine, offer
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackPlan, distance, perform_attack
from ashfall.families.attacks.engine_cover import board_with_objects
from ashfall.families.attacks.moves_gear import has_free_hand, stowed
from ashfall.families.attacks.moves_strike import check_attack_reach, spend_ammo
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.movement.moves import path_cost, walk
from ashfall.families.senses.engine import can_see
from ashfall.grid.board import SQUARE_FT, CoverLevel, Square, footprint, neighbours
from ashfall.grid.geometry import centre, cover_between
from ashfall.rules.checks import saving_throw
from ashfall.rules.condition_durations import Duration, DurationKind
from ashfall.rules.dc import DC, formula_dc

RX_6, RX_7, RX_8, RX_9, RX_10 = rule("RX-6"), rule("RX-7"), rule("RX-8"), rule("RX-9"), rule("RX-10")
RX_12, RX_13, RX_14, RX_15 = rule("RX-12"), rule("RX-13"), rule("RX-14"), rule("RX-15")
RX_26, RX_27, RX_29, RX_30 = rule("RX-26"), rule("RX-27"), rule("RX-29"), rule("RX-30")
X_20 = rule("X-20")
MELEE_CATEGORIES = frozenset({"simple", "martial", "exotic", "shields"})
"""Proficiencies that include a melee weapon or shields (every weapon category has melee weapons)."""
BRACING = (WeaponProperty.REACH, WeaponProperty.POLEARM, WeaponProperty.BRACEABLE)


# ----- shared -----


def save_logged(ctx: Context, c: Combatant, save: Save, dc: DC, label: str, rule_id: RuleId) -> bool:
    """Roll a saving throw with the rules core and log it; returns whether it succeeded."""
    roller = ctx.roller(c.id, "save", dc.rule, source=save.value)
    result = saving_throw(c.creature, save, dc, roller, ctx.ruleset, conditions=c.condition_set)
    ctx.emit(ev.CheckRolled(c.id, label, ev.RollRecord.of(result.roll) if result.roll else None, dc.total,
                            result.success, rule_id, result.auto_fail or ""))
    return result.success


def _hostile(state: EncounterState, reactor: Combatant, other_id: str) -> Combatant | None:
    other = state.combatants.get(other_id)
    if other is None or other.side == reactor.side or other.id == reactor.id:
        return None
    return other


# ----- Deflect -----


def trained_to_deflect(c: Combatant) -> bool:
    """Proficiency with at least one melee weapon or with shields (RX-8)."""
    if c.creature.weapon_proficiencies & MELEE_CATEGORIES:
        return True
    return any(w.kind is WeaponKind.MELEE and c.creature.is_proficient_with(w) for w in c.weapons)


def _deflect_ok(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    if trigger.target != reactor.id or not has_free_hand(reactor, state):
        return False
    return not state.ruleset.turn.deflect_needs_proficiency or trained_to_deflect(reactor)


def _deflect(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    dice = ctx.ruleset.turn.deflect_dice
    rolled = roll(parse(dice), ctx.rng)
    agi = reactor.creature.attributes.AGI
    amount = max(0, rolled.total + agi)
    ctx.emit(ev.DiceRolled(reactor.id, "Deflect", f"{dice}{agi:+d} (AGI)", tuple(f.value for f in rolled.faces),
                           amount, RX_7))
    return Effect(damage_reduction=amount, notes=(RX_7,))


# ----- Dive for Cover -----


def area_targeted(ctx: Context, source: str, targets: Sequence[str], origin: Sequence[Square] | None = None, *,
                  explosive: bool = False) -> dict[str, Combined]:
    """The AREA_TARGETED trigger point: each target of an area effect may react to it (Dive for Cover).

    Args:
        ctx: The resolution context.
        source: Who made the area effect.
        targets: The creatures in the area, asked one by one in this order.
        origin: The space the effect comes from (default: the source's space).
        explosive: An explosive effect: cover's Reflex bonus counts only when ``defense.explosives_keep_cover_reflex``
            (X-14).

    Returns:
        Per target, its reactions' combined effect. ``reflex_bonus`` is the cover bonus it dived to; the caller
        uses the larger of it and the cover it already had, and reads the target's position again (it moved).
    """
    data: tuple[tuple[str, object], ...] = (("explosive", explosive),)
    if origin is not None:
        data = (("origin", tuple(origin)), *data)
    return {t: combine(offer(ctx, Trigger(TriggerKind.AREA_TARGETED, source, t, data, only=frozenset({t}))))
            for t in targets}


def reflex_bonus(level: CoverLevel, state: EncounterState) -> int:
    """The Reflex bonus a cover level gives against area effects (COV-1, COV-2, X-21; total counts as heavy)."""
    d = state.ruleset.defense
    return {CoverLevel.NONE: 0, CoverLevel.PARTIAL: d.cover_reflex_partial}.get(level, d.cover_reflex_heavy)


def _paths(state: EncounterState, c: Combatant, budget_ft: int) -> list[tuple[Square, ...]]:
    """Every legal path of at most ``budget_ft`` (the cheapest found per destination, in a fixed order)."""
    assert c.position is not None
    best: dict[Square, tuple[int, tuple[Square, ...]]] = {}
    frontier: list[tuple[Square, ...]] = [()]
    for _ in range(budget_ft // SQUARE_FT):
        grown: list[tuple[Square, ...]] = []
        for path in frontier:
            for sq in neighbours(path[-1] if path else c.position):
                candidate = (*path, sq)
                try:
                    cost = path_cost(state, c, candidate)
                except Refused:
                    continue
                if cost <= budget_ft and (sq not in best or cost < best[sq][0]):
                    best[sq] = (cost, candidate)
                    grown.append(candidate)
        frontier = grown
    return [p for _, p in sorted(best.values())]


def dive_path(state: EncounterState, c: Combatant, origin: Sequence[Square]) -> tuple[tuple[Square, ...],
                                                                                       CoverLevel] | None:
    """Where Dive for Cover takes the creature: the best cover from ``origin`` within reach, cheapest first."""
    if state.board is None or c.position is None or not origin:
        return None
    best: tuple[tuple[Square, ...], CoverLevel] | None = None
    board = board_with_objects(state.board, state.environment, origin)
    for path in _paths(state, c, state.ruleset.turn.dive_for_cover_ft):
        level = cover_between(board, origin, footprint(path[-1], c.creature.size.squares))[0]
        if level is not CoverLevel.NONE and (best is None or level.value > best[1].value):
            best = (path, level)
    return best


def _origin(state: EncounterState, trigger: Trigger) -> tuple[Square, ...]:
    """The space an area effect comes from: as given, else its source's space."""
    origin = trigger.get("origin")
    if isinstance(origin, tuple):
        return origin
    source = state.combatants.get(trigger.actor)
    return source.space if source is not None else ()


def _dive_ok(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    if trigger.target != reactor.id:
        return False
    if trigger.get("explosive") and not state.ruleset.defense.explosives_keep_cover_reflex:
        return False
    return dive_path(state, reactor, _origin(state, trigger)) is not None


def _dive(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    found = dive_path(ctx.state, reactor, _origin(ctx.state, trigger))
    assert found is not None
    path, level = found
    walk(ctx, reactor.id, path, "dive", RX_10, may_provoke=False)
    return Effect(reflex_bonus=reflex_bonus(level, ctx.state), notes=(RX_10,))


# ----- Brace -----


def bracing_weapon(c: Combatant) -> Weapon | None:
    """A drawn melee weapon it can brace: reach, polearm or braceable (RX-15)."""
    return next((w for w in c.weapons if w.kind is WeaponKind.MELEE and not stowed(c, w.id)
                 and any(w.has(p) for p in BRACING)), None)


def charge_ft(path: Sequence[Square], side: int, toward: Sequence[Square]) -> int:
    """Feet of the path's last straight run in which every step brought the mover closer to ``toward`` (RX-12)."""
    if len(path) < 2:
        return 0
    goal = centre(toward)

    def gap(sq: Square) -> float:
        x, y = centre(footprint(sq, side))
        return math.hypot(x - goal[0], y - goal[1])

    step = (path[-1][0] - path[-2][0], path[-1][1] - path[-2][1])
    run = 0
    for a, b in zip(reversed(path[:-1]), reversed(path[1:]), strict=True):
        if (b[0] - a[0], b[1] - a[1]) != step or gap(b) >= gap(a):
            break
        run += 1
    return run * SQUARE_FT


def _brace_ok(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    charger = _hostile(state, reactor, trigger.actor)
    weapon = bracing_weapon(reactor)
    path = trigger.get("path")
    if charger is None or weapon is None or not isinstance(path, tuple) or not reactor.space or not charger.space:
        return False
    if distance(state, reactor, charger) > weapon.reach:
        return False
    return charge_ft(path, charger.creature.size.squares, reactor.space) >= state.ruleset.turn.brace_charge_ft


def _brace(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    charger = ctx.state.get(trigger.actor)
    weapon = bracing_weapon(reactor)
    result = perform_attack(ctx, AttackPlan(reactor.id, charger.id, weapon, AttackMode.MELEE, Activity.BRACE,
                                            label="Brace"))
    if result is None or not result.hit or result.target_id != charger.id or not charger.is_active:
        return NO_EFFECT  # RX-14 asks for a hit on the charger: one an ally Intercepted (RX-27) stops nobody
    if charger.creature.size.rank > reactor.creature.size.rank:
        return NO_EFFECT
    mig = reactor.creature.attributes.MIG
    dc = formula_dc(RX_14, "MIG", mig, reactor.creature.proficiency, ctx.ruleset)
    if save_logged(ctx, charger, Save.FORTITUDE, dc, "Fortitude save vs Brace", RX_14):
        return NO_EFFECT
    ctx.emit(ev.MovementStopped(charger.id, RX_14))
    if not ctx.ruleset.turn.brace_stops_turn_movement:
        return Effect(stop_movement=RX_14)  # X-20's alternative: only this move ends
    # no more movement this turn (a Duration whose "next turn" is the current one ends with it)
    this_turn = Duration(DurationKind.END_OF_NEXT_TURN, ctx.state.active_id or charger.id, next_turn_started=True)
    ctx.emit(ev.EffectAdded(TimedEffect(f"braced:{charger.id}:{len(ctx.log)}", EffectKind.CANNOT_MOVE, charger.id,
                                        "X-20", this_turn, used_up=False, source=reactor.id), X_20))
    return Effect(stop_movement=RX_14)


# ----- Intercept -----


def _intercept_ok(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    # every test is a pure read, so the one that rules out most triggers (any ATTACKED in edition 2) comes first
    if trigger.kind is TriggerKind.ATTACKED and (state.ruleset.turn.intercept_melee_only or not trigger.get("ranged")):
        return False  # melee attacks come through MELEE_ATTACK_DECLARED; edition 1 also intercepts others (E-19)
    attacker = _hostile(state, reactor, trigger.actor)
    ally = state.combatants.get(trigger.target or "")
    if attacker is None or ally is None or ally.id == reactor.id or ally.side != reactor.side:
        return False
    near = distance(state, reactor, ally) <= state.ruleset.turn.intercept_range_ft
    return near and reactor.is_active and can_see(state, reactor, attacker)


def _intercept(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    return Effect(redirect_to=reactor.id, notes=(RX_27,))


# ----- Return Fire -----


def _in_range(state: EncounterState, reactor: Combatant, shooter: Combatant, w: Weapon) -> bool:
    """The cheap half of :func:`return_fire_weapon`'s test for one weapon: all but the cover check."""
    if w.kind is not WeaponKind.RANGED or stowed(reactor, w.id) or not reactor.creature.is_proficient_with(w):
        return False
    if w.ammo_capacity is not None and reactor.ammo.get(w.id, w.ammo_capacity) < 1:
        return False
    return distance(state, reactor, shooter) <= (w.range_normal or 0)


def return_fire_weapon(state: EncounterState, reactor: Combatant, shooter: Combatant) -> Weapon | None:
    """A loaded, drawn ranged weapon it is proficient with that reaches the shooter at normal range (RX-31)."""
    for w in reactor.weapons:
        if not _in_range(state, reactor, shooter, w):
            continue
        try:
            check_attack_reach(state, reactor, shooter, w, AttackMode.RANGED)
        except Refused:
            continue
        return w
    return None


def _return_fire_ok(state: EncounterState, reactor: Combatant, trigger: Trigger) -> bool:
    shooter = _hostile(state, reactor, trigger.actor)
    hit = state.combatants.get(trigger.target or "")
    if shooter is None or hit is None or not reactor.is_active:
        return False
    if hit.id != reactor.id:
        rs = state.ruleset.turn
        if not rs.return_fire_allies or hit.side != reactor.side or distance(state, reactor, hit) > (
                rs.return_fire_ally_ft):
            return False
    # no weapon passes the cheap tests (a melee reactor, out of range): return_fire_weapon would find none, so
    # the sight question (layers on every square of both spaces) is skipped; all three reads are pure
    if not any(_in_range(state, reactor, shooter, w) for w in reactor.weapons):
        return False
    return can_see(state, reactor, shooter) and return_fire_weapon(state, reactor, shooter) is not None


def _return_fire(ctx: Context, reactor: Combatant, trigger: Trigger) -> Effect:
    shooter = ctx.state.get(trigger.actor)
    weapon = return_fire_weapon(ctx.state, reactor, shooter)
    assert weapon is not None
    spend_ammo(ctx, reactor, weapon, AttackMode.RANGED)
    perform_attack(ctx, AttackPlan(reactor.id, shooter.id, weapon, AttackMode.RANGED, Activity.RETURN_FIRE,
                                   label="Return Fire"))
    return NO_EFFECT


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.reaction(ReactionDef("deflect", "Deflect", RX_6, frozenset({TriggerKind.HIT_BY_RANGED}), _deflect_ok,
                              _deflect))
    book.reaction(ReactionDef("dive-for-cover", "Dive for Cover", RX_9, frozenset({TriggerKind.AREA_TARGETED}),
                              _dive_ok, _dive))
    book.reaction(ReactionDef("brace", "Brace", RX_12, frozenset({TriggerKind.CHARGE_ENDS}), _brace_ok, _brace))
    book.reaction(ReactionDef("intercept", "Intercept", RX_26,
                              frozenset({TriggerKind.MELEE_ATTACK_DECLARED, TriggerKind.ATTACKED}), _intercept_ok,
                              _intercept))
    book.reaction(ReactionDef("return-fire", "Return Fire", RX_29, frozenset({TriggerKind.RANGED_HIT}),
                              _return_fire_ok, _return_fire))
