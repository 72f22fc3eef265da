"""The Covering Fire talent's reaction (SUP-11) lowered for the compiled fight (``ashfall.kernel.covering``).

The reference (``families.suppression.moves``): when an enemy a talented creature can see and can shoot with a
drawn, loaded ranged weapon declares an attack (``attack_declared``: the ATTACKED trigger, before every other
reaction the attack offers), it may spend its reaction and ``attack.covering_fire_ammo`` rounds; the tactical AI
takes it whenever nothing it prefers is offered (``reactions.ai.PREFERENCE``). The enemy is then SUPPRESSED until the
start of the shooter's next turn: disadvantage on all its attacks, the triggering one included (``suppressed``), and
the first time it moves before then the shooter makes one free ranged attack at it (``_covering_hook``: a movement
hook after each step, ``Activity.READIED``, no reaction, one round, if ``covering_weapon`` still finds a loaded
weapon in range).

Lowered here, by the reference's own functions on the built fight, never restated:

- ``ok[i, x, y, tx, ty]``: whether ``roster[i]`` at ``(x, y)`` may take the reaction on an enemy's attack from
  ``(tx, ty)`` (``_covering_ok`` itself, the talent, the sides, ``can_see`` and ``covering_weapon``: range, total
  cover), its weapon loaded; ``free[i, ...]`` the free attack's test (``covering_weapon`` alone);
- the free attack's tables ``outcome``/``draws`` ``[shooter, target, 0, 0, 0, code, faces]`` (``resolve_attack`` with
  ``Activity.READIED`` through the weapon options' own ``_tabulate`` and ``_option_sit``; the code is
  ``_ranged_code``'s: a hostile within 5 ft, within 5 ft, no Aim, the engine's view between the squares) and its
  damage (``dice``, ``flat``, ``dealt``, ``low``);
- what the AI reads of a pinned enemy: ``enemy_hit``/``melee_best`` with a SUPPRESSED effect on the enemy in the
  state (``base_for`` adds ``suppressed``'s disadvantage when it sees the effect);
- the pinned attacker's own attack tables (``kernel_lower.lower``: the first option's activities again, asked of
  ``_tabulate`` with ``suppressed``'s roll sources, the effect in place: :func:`pinned_sources`);
- among allies, and for an enemy the AI plays or chooses targets for, what else reads the pin (``base_for`` sees the
  effect): the AI's Intercept's mean hit of a pinned attacker (:func:`pinned_guard`), a pinned creature's own plan
  tables and the withdrawal's turn of a pinned enemy (:func:`pinned_plans`), each the reference's own lowering asked
  again with every creature Covering Fire may pin pinned (:func:`all_pinned`).

The reaction reads the attacker alone (``_covering_ok``): an attack on the shooter's ally is covered as one on the
shooter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ashfall.ai import TacticalPolicy
from ashfall.ai.odds_cache import attack_value, ruleset_token
from ashfall.content.names import COVERING_FIRE
from ashfall.content.schema import Weapon, WeaponKind
from ashfall.core.types import Condition
from ashfall.engine import Combatant, EncounterState
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.reactions import Trigger, TriggerKind
from ashfall.families.attacks.engine import situation, suppressed
from ashfall.families.attacks.rules_activities import Activity
from ashfall.families.suppression.moves import _covering_ok, covering_weapon
from ashfall.grid.board import Terrain
from ashfall.rules.condition_durations import Duration
from ashfall.sim.kernel_ai_lower import AiTables, _settled_base, asks_the_ai
from ashfall.sim.kernel_maneuvers import with_conditions
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.kernel_weapons_lower import _engine_views, _fire, _option_sit, _tabulate
from ashfall.sim.setups import Fight

I64 = Any
F64 = Any
I8 = Any

COV_ON, COV_NEED, COV_INTERCEPTS, COV_PROVOKES = 0, 1, 2, 3
"""Slots of :attr:`CoveringTables.ints`: Covering Fire in play, the rounds the reaction needs and spends, whether a
ranged attack may be Intercepted (E-19) and whether one in reach provokes (E-18)."""


@dataclass(frozen=True, slots=True)
class CoveringTables:
    """The Covering Fire talent's reaction as the compiled fight plays it (``ashfall.kernel.covering``).

    Attributes:
        ints: ``COV_*``.
        talent: ``[i, g]`` 0: no ``g``-th gun (all 0: it may not take Covering Fire); else 1 + the further-option slot
            of its ``g``-th gun in the order ``covering_weapon`` tries them (its weapons as listed), whose rounds
            (``ammo_left[i, slot]``, G-31) it spends.
        ok: ``[i, g, x, y, tx, ty]`` 1 where it may take it with its ``g``-th gun loaded on an attack by an enemy at
            ``(tx, ty)`` (``_covering_ok`` with that gun alone loaded: sight, range, total cover).
        free: ``[i, g, x, y, tx, ty]`` 1 where its free attack may be made with that gun at a mover at ``(tx, ty)``
            (``covering_weapon`` so).
        outcome: ``[shooter, target, g, 0, 0, code, first - 1, second - 1]`` the free attack's outcome with its
            ``g``-th gun (0 miss, 1 hit, 2 critical hit).
        draws: ``[shooter, target, g, 0, 0, code]`` d20s it draws.
        dice: ``[shooter, g, crit, group, (count, sides)]``.
        flat: ``[shooter, g, crit]``.
        dealt: ``[shooter, g, target, crit, total - low]`` what the ledger lets through.
        low: ``[low]``.
        enemy_hit: ``[e, c, code]`` the AI's ``enemy_hit`` with ``e`` pinned (``(1, 1, 1)``: nobody is pinned).
        melee_best: ``[e, c, code]`` the further options' ``melee_best`` with ``e`` pinned (``(1, 1, 1)``: none).
        enemy_hit_prone: ``enemy_hit`` with ``e`` pinned and lying prone (edition 2's Trip, C-PRO; else ``(1, 1, 1)``).
        melee_best_prone: ``melee_best`` so (``(1, 1, 1)``: none).
    """

    ints: I64
    talent: I64
    ok: I64
    free: I64
    outcome: I8
    draws: I64
    dice: I64
    flat: I64
    dealt: I64
    low: I64
    enemy_hit: F64
    melee_best: F64
    enemy_hit_prone: F64
    melee_best_prone: F64

    def tab(self) -> tuple[Any, ...]:
        """The tuple the compiled fight takes (``ashfall.kernel.covering.CovTab``), every array C-ordered.

        Per-gun tables are cut from wider ones (a two-gun creature's), and a sliced array has another numba type:
        without this one fight would compile ``play`` a second time.
        """
        return tuple(np.ascontiguousarray(a) for a in (
            self.ints, self.talent, self.ok, self.free, self.outcome, self.draws, self.dice, self.flat, self.dealt,
            self.low, self.enemy_hit, self.melee_best, self.enemy_hit_prone, self.melee_best_prone))


def no_covering(n: int) -> CoveringTables:
    """The tables of a fight where nobody has the talent (never read)."""
    return CoveringTables(np.zeros(4, np.int64), np.zeros((n, 1), np.int64), np.zeros((1, 1, 1, 1, 1, 1), np.int64),
                          np.zeros((1, 1, 1, 1, 1, 1), np.int64), np.zeros((1, 1, 1, 1, 1, 1, 20, 20), np.int8),
                          np.ones((1, 1, 1, 1, 1, 1), np.int64), np.zeros((1, 1, 2, 1, 2), np.int64),
                          np.zeros((1, 1, 2), np.int64), np.zeros((1, 1, 1, 2, 1), np.int64),
                          np.zeros(1, np.int64), *(np.zeros((1, 1, 1), np.float64) for _ in range(4)))


def covers(state: EncounterState) -> bool:
    """Whether anyone in the fight has the Covering Fire talent (SUP-11)."""
    return any(COVERING_FIRE in c.creature.talents for c in state.combatants.values())


def pinnable(state: EncounterState, a: Combatant) -> bool:
    """Whether Covering Fire may pin ``a``: an enemy of a creature with the talent."""
    return any(COVERING_FIRE in c.creature.talents and c.side != a.side for c in state.combatants.values())


def covering_problem(fight: Fight) -> str | None:
    """What of Covering Fire the kernel does not play in this fight (None: it plays it, or nobody has the talent).

    Played: a creature the tactical AI plays with the talent and one gun or several (every ranged weapon of its counts
    rounds: the kernel's ``ammo_left`` per gun, G-31; ``covering_weapon`` takes the first loaded with the rounds and
    in range, as its weapons are listed, for the reaction and for the free shot alike), the only one with the talent,
    alone on its side or among allies (the AI's or scripted, as far as the rest of the kernel plays them: their
    Intercept and withdrawal weigh a pinned enemy's attacks at disadvantage, :func:`pinned_guard`,
    :func:`pinned_plans`), against enemies with one melee weapon each, scripted
    or played by the AI (then its plans, target choice and withdrawal weigh its own disadvantage while pinned,
    ``base_for``: :func:`pinned_plans`) with no further way to attack and, under edition 2, never (its openers and
    Sweeping Strikes where it stands would need pinned variants: named).
    """
    state = fight.engine.state
    talented = [c for c in state.combatants.values() if COVERING_FIRE in c.creature.talents]
    for c in talented:
        why = (f"the Covering Fire talent (SUP-11, combatant {c.id}: a round on an enemy's attack, disadvantage "
               f"until its next turn, a free shot when it moves")
        if not isinstance(fight.policies.get(c.id), TacticalPolicy):
            return f"{why}; taken without the tactical AI)"
        if len(talented) > 1:
            return f"{why}; beside another creature with the talent: two pins on one enemy)"
        guns = _guns(c)
        if not guns or len(guns) != sum(w.kind is WeaponKind.RANGED for w in c.weapons):
            return f"{why}; with no gun, or a ranged weapon that counts no rounds)"
        try:
            _gun_slots(c, state)
        except ValueError:
            return f"{why}; with a gun that is not among its further options)"
        for e in state.enemies_of(c.id):
            if len(e.weapons) != 1 or e.weapons[0].kind is not WeaponKind.MELEE:
                return f"{why}; pinning a creature with other than one melee weapon, combatant {e.id})"
            planned = isinstance(fight.policies.get(e.id), TacticalPolicy) or asks_the_ai(fight, e)
            if not planned:
                continue
            if state.ruleset.checks.new_maneuvers:
                # its openers and Sweeping Strikes where it stands would need pinned variants too (E-37)
                return f"{why}; pinning a creature the AI plays or chooses for under edition 2's openers (E-37), " \
                       f"combatant {e.id})"
            if len(kernel_options(e, state)) != 1:
                return f"{why}; pinning a creature the AI plays or chooses for with further ways to attack, " \
                       f"combatant {e.id})"
    return None


def _effect(a: Combatant, shooter: Combatant) -> TimedEffect:
    """The SUPPRESSED effect ``_covering`` puts on ``a`` (SUP-11)."""
    return TimedEffect(f"covering-fire:{shooter.id}:lowering", EffectKind.SUPPRESSED, a.id, "SUP-11",
                       Duration.start_of_next_turn(shooter.id), used_up=False, source=shooter.id)


@contextmanager
def pinned(state: EncounterState, a: Combatant) -> Iterator[None]:
    """``a`` pinned by Covering Fire (a SUPPRESSED effect from an enemy with the talent), restored afterwards."""
    shooter = next(c for c in state.combatants.values()
                   if COVERING_FIRE in c.creature.talents and c.side != a.side)
    effects = state.effects
    state.effects = (*effects, _effect(a, shooter))
    try:
        yield
    finally:
        state.effects = effects


@contextmanager
def all_pinned(state: EncounterState) -> Iterator[None]:
    """Every creature Covering Fire may pin, pinned at once (each by the first enemy with the talent), restored after.

    What the AI reads of an attacker depends on the effects on it alone (``base_for``: ``suppressed`` of the
    attacker), so one pass asks every pinned attacker's row.
    """
    effects = state.effects
    pins = [_effect(a, next(c for c in state.combatants.values()
                            if COVERING_FIRE in c.creature.talents and c.side != a.side))
            for a in state.combatants.values() if pinnable(state, a)]
    state.effects = (*effects, *pins)
    try:
        yield
    finally:
        state.effects = effects


def pinned_guard(state: EncounterState, guard_hit: F64, crowd: Callable[[], F64]) -> F64:
    """The AI's Intercept's mean hits (``kernel_lower`` ``guard_hit``) with their pinned half after the plain one.

    ``_worth_intercepting`` weighs the attacker's hit as ``base_for`` reads it, after Covering Fire (ATTACKED, offered
    first) may have pinned it: ``crowd`` (``kernel_lower._crowd``'s ``guard_hit``) asked again with every creature
    Covering Fire may pin pinned (:func:`all_pinned`); the compiled Intercept reads the second half for a pinned
    attacker (``ashfall.kernel.covering.pinned``).
    """
    with all_pinned(state):
        pinned_hit = crowd()
    return np.concatenate((guard_hit, pinned_hit), axis=2)


def pinned_plans(state: EncounterState, ai: AiTables, again: Callable[[], AiTables]) -> AiTables:
    """The AI's tables with a pinned creature's plans and the withdrawal's pinned enemies beside the plain ones.

    ``again`` (``kernel_ai_lower.lower_ai`` on the same fight) is asked with every creature Covering Fire may pin
    pinned (:func:`all_pinned`): its own plans (``base_for`` adds ``suppressed``'s disadvantage to its attacks) become
    the second half of the plan tables' situation axis, read for a pinned planner (the AI's, or a scripted plan's
    target choice); ``incoming`` weighs a pinned enemy's turn of Strikes at disadvantage: the withdrawal's
    ``way_mean`` gains a last axis of prone + 2 × pinned.
    """
    with all_pinned(state):
        pinned_ai = again()
    way = replace(ai.withdraw, way_mean=np.concatenate((ai.withdraw.way_mean, pinned_ai.withdraw.way_mean), axis=4))
    return replace(ai, plan_frac=np.concatenate((ai.plan_frac, pinned_ai.plan_frac), axis=2),
                   plan_drop=np.concatenate((ai.plan_drop, pinned_ai.plan_drop), axis=2),
                   plan_first=np.concatenate((ai.plan_first, pinned_ai.plan_first), axis=2), withdraw=way)


def pinned_sources(state: EncounterState, a: Combatant) -> tuple[Any, ...]:
    """The roll sources ``perform_attack`` adds for a pinned attacker (``suppressed``, the effect in place)."""
    with pinned(state, a):
        return suppressed(state, a)


def _squares(state: EncounterState) -> list[tuple[int, int]]:
    board = state.board
    assert board is not None
    return [(x, y) for x in range(board.width) for y in range(board.height)
            if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]


def _geometry(state: EncounterState, roster: Sequence[Combatant], talent: I64) -> tuple[I64, I64]:
    """``ok`` and ``free`` of :class:`CoveringTables`, asked of the reference with the creatures set on each square.

    Each gun's rows with that gun alone loaded (the others' rounds set to none, restored after): ``covering_weapon``
    then finds that gun or nothing.
    """
    board = state.board
    assert board is not None
    w, h = board.width, board.height
    n, guns = talent.shape
    ok = np.zeros((n, guns, w, h, w, h), np.int64)
    free = np.zeros((n, guns, w, h, w, h), np.int64)
    for i, c in enumerate(roster):
        for g, gun in enumerate(_guns(c) if talent[i, 0] else ()):
            ammo = c.ammo
            c.ammo = {o.id: 0 for o in _guns(c) if o is not gun}
            try:
                ok[i, g], free[i, g] = _gun_geometry(state, c, gun)
            finally:
                c.ammo = ammo
    return ok, free


def _gun_geometry(state: EncounterState, c: Combatant, gun: Weapon) -> tuple[I64, I64]:
    """``ok`` and ``free`` of ``c`` with ``gun`` alone loaded, the same against every enemy."""
    board = state.board
    assert board is not None
    w, h = board.width, board.height
    squares = _squares(state)
    seen: tuple[I64, I64] | None = None
    for e in state.enemies_of(c.id):
        rows = (np.zeros((w, h, w, h), np.int64), np.zeros((w, h, w, h), np.int64))
        home_c, home_e = c.position, e.position
        try:
            for sq in squares:
                c.position = sq
                for tq in squares:
                    if tq == sq:
                        continue
                    e.position = tq
                    trigger = Trigger(TriggerKind.ATTACKED, e.id, c.id, (("ranged", False),))
                    rows[0][sq[0], sq[1], tq[0], tq[1]] = _covering_ok(state, c, trigger)
                    found = covering_weapon(state, c, e)
                    if found is not None and found is not gun:
                        raise ValueError(f"Covering Fire with an unloaded gun (SUP-11, combatant {c.id})")
                    rows[1][sq[0], sq[1], tq[0], tq[1]] = found is not None
        finally:
            c.position, e.position = home_c, home_e
        if seen is not None and not (np.array_equal(seen[0], rows[0]) and np.array_equal(seen[1], rows[1])):
            raise ValueError(f"Covering Fire that differs between enemies (SUP-11, combatant {c.id})")
        seen = rows
    if seen is None:
        return np.zeros((w, h, w, h), np.int64), np.zeros((w, h, w, h), np.int64)
    return seen


def lower_covering(fight: Fight, roster: Sequence[Combatant], eview: I64, views: Sequence[int],
                   tables: Callable[..., tuple[I64, I64, I64, int]], options_melee: bool) -> CoveringTables:
    """The Covering Fire tables of a supported fight (check :func:`covering_problem` first).

    ``eview``: the engine's view table of ranged attacks (``OptionTables.eview``, checked the same); ``views``: the
    AI's view codes (``ai_views``); ``tables``: ``kernel_lower._damage_tables``; ``options_melee``: whether the further
    options' ``melee_best`` is lowered (then its pinned variant is too).
    """
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    if not covers(state):
        return no_covering(n)
    slots = [_gun_slots(c, state) if COVERING_FIRE in c.creature.talents else () for c in roster]
    guns = max(len(s) for s in slots)
    talent = np.zeros((n, guns), np.int64)
    for i, own in enumerate(slots):
        talent[i, :len(own)] = [xo + 1 for xo in own]
    ok, free = _geometry(state, roster, talent)
    a0 = next(c for c in roster if talent[roster.index(c), 0])
    t0 = next(c for c in roster if c.side != a0.side)
    table, eviews = _engine_views(state, a0, t0)
    if not np.array_equal(table, eview):
        raise ValueError("Covering Fire's free attack reads other views than the weapon options (SUP-11)")
    squares = _squares(state)
    near_views = {int(eview[a[0], a[1], b[0], b[1]]) for a in squares for b in squares
                  if a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1}
    codes = 8 * len(eviews)
    outcome = np.zeros((n, n, guns, 1, 1, codes, 20, 20), np.int8)
    draws = np.ones((n, n, guns, 1, 1, codes), np.int64)
    hit_parts: dict[tuple[int, int], Any] = {}
    weapons: dict[tuple[int, int], Weapon] = {}
    for i, a in enumerate(roster):
        for g, gun in enumerate(_guns(a) if talent[i, 0] else ()):
            weapons[i, g] = gun
            _free_attack(state, a, i, g, gun, roster, codes, eviews, near_views, outcome, draws, hit_parts)
    dice, flat, dealt, low = tables(state, roster, hit_parts, guns, lambda i, g: weapons[i, g])
    ai_codes = 4 * len(views)
    token = ruleset_token(rs)
    enemy_hit = np.zeros((n, n, ai_codes), np.float64)
    melee_best = np.zeros((n, n, ai_codes) if options_melee else (1, 1, 1), np.float64)
    trip = rs.checks.new_maneuvers  # a prone enemy's attacks weighed lying prone (C-PRO, ``kernel_maneuvers``)
    enemy_hit_prone = np.zeros((n, n, ai_codes) if trip else (1, 1, 1), np.float64)
    melee_best_prone = np.zeros((n, n, ai_codes) if trip and options_melee else (1, 1, 1), np.float64)
    for i, c in enumerate(roster):
        if not isinstance(fight.policies.get(c.id), TacticalPolicy) and not asks_the_ai(fight, c):
            continue  # a scripted plan's target choice weighs the enemies' fire as the AI does (``_enemy_values``)
        for j, e in enumerate(roster):
            if e.side == c.side or not pinnable(state, e):
                continue
            for lying, hits, best in ((False, enemy_hit, melee_best), (True, enemy_hit_prone, melee_best_prone)):
                if lying and not trip:
                    continue
                with pinned(state, e), with_conditions(e, *((Condition.PRONE,) if lying else ())):
                    for code in range(ai_codes):
                        hit = _settled_base(fight, e, c, bool(code & 1), bool(code & 2), views[code // 4], own=False)
                        hits[j, i, code] = _expected(hit)
                    if options_melee:
                        _fire(state, e, c, kernel_options(e, state), views, ai_codes, token, best[j, i],
                              np.zeros(ai_codes, np.float64))
    ints = np.array([1, rs.attack.covering_fire_ammo, not rs.turn.intercept_melee_only, rs.turn.ranged_attack_provokes],
                    np.int64)
    return CoveringTables(ints, talent, ok, free, outcome, draws, dice, flat, dealt, np.array([low], np.int64),
                          enemy_hit, melee_best, enemy_hit_prone, melee_best_prone)


def _guns(c: Combatant) -> list[Weapon]:
    """``c``'s ranged weapons with rounds, in the order ``covering_weapon`` tries them (its weapons as listed)."""
    return [w for w in c.weapons if w.kind is WeaponKind.RANGED and w.ammo_capacity is not None]


def _gun_slots(c: Combatant, state: EncounterState) -> list[int]:
    """The further-option slot (``kernel_options``' index after the first) of each gun of :func:`_guns`."""
    further = kernel_options(c, state)[1:]
    found = []
    for gun in _guns(c):
        xo = next((xo for xo, o in enumerate(further) if o.ranged and o.weapon is gun), None)
        if xo is None:
            raise ValueError(f"Covering Fire with a gun not among the further options (SUP-11, combatant {c.id})")
        found.append(xo)
    return found


def _free_attack(state: EncounterState, a: Combatant, i: int, g: int, gun: Weapon, roster: Sequence[Combatant],
                 codes: int, eviews: Any, near_views: set[int], outcome: I8, draws: I64,
                 hit_parts: dict[tuple[int, int], Any]) -> None:
    """The free attack's rows of ``roster[i]``'s ``g``-th gun (``outcome``/``draws`` ``[i, j, g]``, ``_tabulate``)."""
    option = next(o for o in kernel_options(a, state) if o.weapon is gun and o.ranged)
    for j, t in enumerate(roster):
        if t.side == a.side:
            continue
        plain = situation(state, a, t, True)
        for code in range(codes):
            if code & 4:
                continue  # the free attack is never aimed: Aim lasts to the end of the shooter's turn (E-05)
            met = _option_sit(plain, option, code, eviews, (), near_views)
            if met is None:
                continue
            got, faces, parts = _tabulate(state, a, t, option, Activity.READIED, None, met, False)
            draws[i, j, g, 0, 0, code] = got
            outcome[i, j, g, 0, 0, code] = faces
            if parts is not None:
                hit_parts.setdefault((i, g), parts)


def _expected(hit: Any) -> float:
    """The mean damage of one attack (``attack_value``), 0 for none."""
    return attack_value(hit.key(1)).expected if hit is not None else 0.0


__all__ = ["COV_INTERCEPTS", "COV_NEED", "COV_ON", "COV_PROVOKES", "CoveringTables", "all_pinned", "covering_problem",
           "covers", "lower_covering", "no_covering", "pinnable", "pinned", "pinned_guard", "pinned_plans",
           "pinned_sources"]
