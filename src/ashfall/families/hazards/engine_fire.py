"""Fire (HAZF-1..6, G-51; X-18 / EX-6 as a switch): burning squares, their spread, burnout and smoke.

* **Damage** (HAZF-1): a creature that enters a burning square or starts its turn in one takes
  ``hazards.fire_damage`` (1d6 fire), at most once per turn (G-51).
* **Spread** (HAZF-2): at the end of each round fire spreads from every burning square to every
  adjacent square (8 neighbours) with flammable material: the map's flammable squares and squares
  holding an intact flammable object. Walls, water (``hazards.water_stops_fire`` ft or deeper) and
  squares without fuel (stone, metal) stop it. It spreads only from the squares burning as the round
  ends (no cascade within one round).
* **Burnout** (HAZF-5): each burning square burns out after ``hazards.fire_burnout`` (1d4+1) rounds,
  rolled at the first end of round it burns and counted down at each end of round. Lighting a burning
  square again (an explosion, a thrown torch) is fresh fuel: the count starts over. A square that
  burned out has no fuel left (``hazards.burnout_spends_fuel``): fire does not spread back into it.
* **Smoke** (HAZF-6): a square that has burned ``smoke_light_rounds`` (2) ends of round is lightly
  obscured by smoke, ``smoke_heavy_rounds`` (4) heavily in an enclosed space. On a flat map "10 ft
  above the flames" is the burning square itself; the smoke clears when its fire goes out.
* **Extinguishing** (HAZF-3, HAZF-4): :func:`extinguish` puts squares out (the Extinguish action, a
  suppression system, rising water).
* **Burning cover** (X-18, EX-6, off by default): a creature that starts its turn next to a burning
  object that gives cover takes the fire damage too.
"""

from __future__ import annotations

from collections.abc import Iterable

from ashfall.core.rule_ids import RuleId, rule
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.environment import Cause, Obscurement
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.hazards.engine_kit import (
    changed,
    hazards_on,
    hurt,
    once_this_turn,
    parts_of,
    roll_rounds,
)
from ashfall.grid.areas import adjacent_to
from ashfall.grid.board import Square, neighbours

HAZF_1, HAZF_2, HAZF_3, HAZF_4, HAZF_5, HAZF_6 = (rule(f"HAZF-{n}") for n in range(1, 7))
X_18 = rule("X-18")
FIRE = "fire"


def can_hold_fire(state: EncounterState, sq: Square) -> bool:
    """A square fire can burn in: on the map, not a wall, not under water (HAZF-2)."""
    board = state.board
    if board is None or not board.in_bounds(sq) or board.blocks_sight(sq):
        return False
    return state.environment.water_depth.get(sq, 0) < state.ruleset.hazards.water_stops_fire


def flammable(state: EncounterState, sq: Square) -> bool:
    """Whether a square has flammable material fire spreads into: the map's or an intact flammable object's (HAZF-2).

    A square that burned out has no fuel left (``burnt``, HAZF-5), whatever stands in it.
    """
    if not can_hold_fire(state, sq):
        return False
    env = state.environment
    if sq in env.burnt:
        return False
    if sq in env.flammable:
        return True
    return any(o.flammable and not o.broken and sq in o.squares for o in env.objects.values())


def ignite(ctx: Context, squares: Iterable[Square], rule_id: RuleId, cause: str = "") -> tuple[Square, ...]:
    """Set squares on fire (an explosion CHN-3, a kicked brazier IEA-1, an incendiary); returns those lit.

    A square already burning gets fresh fuel (its burnout starts over, HAZF-5). Walls, squares off the
    map and squares under water cannot burn.
    """
    state = ctx.state
    if not hazards_on(state):
        return ()
    lit = tuple(sorted({sq for sq in squares if can_hold_fire(state, sq)}))
    if lit:
        changed(ctx, ev.FireChanged(lit, True, rule_id, cause))
    return lit


def extinguish(ctx: Context, squares: Iterable[Square], rule_id: RuleId, cause: str = "") -> tuple[Square, ...]:
    """Put out the fire in these squares (HAZF-3 one square, HAZF-4 a whole area); returns those put out."""
    env = ctx.state.environment
    out = tuple(sorted({sq for sq in squares if sq in env.fire}))
    if out:
        changed(ctx, ev.FireChanged(out, False, rule_id, cause))
        _clear_smoke(ctx, out)
    return out


def _clear_smoke(ctx: Context, squares: Iterable[Square]) -> None:
    veils = ctx.state.environment.veils
    smoky = tuple(sq for sq in squares if sq in veils and veils[sq].cause is Cause.SMOKE)
    if smoky:
        changed(ctx, ev.SmokeChanged(smoky, Obscurement.NONE.value, HAZF_6))


def fire_round(ctx: Context) -> None:
    """End of round (HAZ-0): fire spreads (HAZF-2), ages and burns out (HAZF-5), and smokes (HAZF-6)."""
    state = ctx.state
    env = state.environment
    if not env.fire or not hazards_on(state):
        return
    burning = sorted(env.fire)
    spread = sorted({n for sq in burning for n in neighbours(sq) if n not in env.fire and flammable(state, n)})
    ticks: list[tuple[Square, int, int]] = []
    out: list[Square] = []
    for sq in burning:
        left = env.fire_burnout.get(sq)
        if left is None:
            left = roll_rounds(ctx, state.ruleset.hazards.fire_burnout)
        if left - 1 <= 0:
            out.append(sq)
        else:
            ticks.append((sq, env.fire[sq] + 1, left - 1))
    if ticks:
        ctx.emit(ev.FireTicked(tuple(ticks), HAZF_5))
    if out:
        changed(ctx, ev.FireChanged(tuple(out), False, HAZF_5, "burned out",
                                    state.ruleset.hazards.burnout_spends_fuel))
        _clear_smoke(ctx, out)
    if spread:
        changed(ctx, ev.FireChanged(tuple(spread), True, HAZF_2, "spreads"))
    _smoke(ctx)


def smoke_level(state: EncounterState, sq: Square) -> Obscurement:
    """The smoke a burning square gives after its rounds of sustained fire (HAZF-6)."""
    h = state.ruleset.hazards
    burned = state.environment.fire.get(sq)
    if burned is None:
        return Obscurement.NONE
    if state.environment.enclosed and burned >= h.smoke_heavy_rounds:
        return Obscurement.HEAVY
    return Obscurement.LIGHT if burned >= h.smoke_light_rounds else Obscurement.NONE


def _smoke(ctx: Context) -> None:
    env = ctx.state.environment
    by_level: dict[Obscurement, list[Square]] = {}
    for sq in sorted(env.fire):
        level = smoke_level(ctx.state, sq)
        veil = env.veils.get(sq)
        now = veil.level if veil is not None and veil.cause is Cause.SMOKE else Obscurement.NONE
        if level is not now and level is not Obscurement.NONE:
            by_level.setdefault(level, []).append(sq)
    for level in sorted(by_level, key=lambda o: o.value):
        changed(ctx, ev.SmokeChanged(tuple(by_level[level]), level.value, HAZF_6))


# ----- harm -----


def burn(ctx: Context, c: Combatant, whose: str) -> None:
    """The burning-square damage (HAZF-1), at most once per turn (G-51)."""
    if c.health.is_dead or not once_this_turn(ctx, FIRE, c.id, whose, HAZF_1):
        return
    hurt(ctx, c.id, FIRE, parts_of(ctx.ruleset.hazards.fire_damage, HAZF_1, "burning square"))


def fire_at_turn_start(ctx: Context, c: Combatant) -> None:
    """Starting a turn in a burning square (HAZF-1) or, with the X-18 switch, beside burning cover (EX-6)."""
    env = ctx.state.environment
    if not env.fire or not c.space:
        return
    if env.fire.keys() & set(c.space) or (ctx.ruleset.hazards.burning_cover_damages
                                         and _beside_burning_cover(ctx.state, c)):
        burn(ctx, c, c.id)


def _beside_burning_cover(state: EncounterState, c: Combatant) -> bool:
    """X-18 / EX-6: a burning square next to the creature holds an object (or board cover) that gives cover."""
    env = state.environment
    board = state.board
    for sq in adjacent_to(c.space):
        if sq not in env.fire:
            continue
        if board is not None and sq in board.cover:
            return True
        if any(not o.broken and o.cover != "none" and sq in o.squares for o in env.objects.values()):
            return True
    return False


def fire_on_entering(ctx: Context, c: Combatant, new_squares: Iterable[Square], whose: str) -> None:
    """Entering a burning square (HAZF-1)."""
    env = ctx.state.environment
    if env.fire and any(sq in env.fire for sq in new_squares):
        burn(ctx, c, whose)


__all__ = ["FIRE", "burn", "can_hold_fire", "extinguish", "fire_at_turn_start", "fire_on_entering", "fire_round",
           "flammable", "ignite", "smoke_level"]
