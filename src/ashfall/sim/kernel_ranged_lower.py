"""Ranged weapons with ammunition for the tactical AI in the fight kernel: what is covered, and the ammunition tables.

A creature the AI plays may carry, besides its melee weapons, one ranged weapon that uses ammunition (a Pistol, a
Crossbow: ``Weapon.ammo_capacity``, G-31). The AI weighs it like a thrown option
(:mod:`ashfall.sim.kernel_weapons_lower` lowers its plans and attack tables: within its long range, ATK-2; cover and
high ground against ranged attacks, X-01, AMOD-2, AMOD-3; "a hostile within 5 ft", AMOD-7), and its plans count the
rounds loaded: a plan reloads where the magazine runs dry (``plans._walk``: Reload costs the weapon's
``reload_actions``, G-31, E-03) and the plan tables hold one slot per number of rounds loaded, up to the most rounds
any plan of a turn can spend (:func:`ammo_slots`; with more loaded no plan ever reloads, so the plans are those of a
full load). The compiled fight keeps the rounds loaded of every creature (:class:`RangedTables`: the rounds at the
start, the capacity a Reload fills, its cost and label), spends one per shot (``spend_ammo``), reloads where the AI's
plan or its idle turn says so (``TacticalPolicy._idle``: an empty weapon first, a partly spent one when it cannot
close in), and counts an enemy's ranged option among the fire a square invites only while it is loaded
(``TurnView._attackers``). A ranged hit on a creature the AI plays that carries a gun it is trained with sets off its
Return Fire (RX-29..31, :func:`lower_fire_back`: loaded, the shooter within normal range, one reaction a round, so
the first shooter may answer it in turn). Under edition 2 a shot in an enemy's reach provokes its Attack of
Opportunity as a throw does (E-18, ``kernel_weapons_lower``'s ``shot``; the round is spent first), and the plan
tables hold each number of rounds loaded against a target up and prone (E-37).

Covered: one ranged option a creature (thrown, or shot with ammunition; under edition 1 also a thrown melee
weapon's throw beside one gun, which spends no round and never fires back), or two guns and no melee weapon alone on
its side (the shipped Gunslinger's: the rounds are counted per creature and further option slot, ``ammo[i, xo]``,
each Reload fills the gun the plan or the idle turn names, and Return Fire takes the first gun loaded with the
shooter within its normal range, ``return_fire_weapon``, RX-31), single-target blocks only (Strike, Power
Strike, All-Out Attack, Aim first under edition 1, E-05). Under edition 2 a creature with one gun also fires back
for an ally hit within 30 ft of it (E-20, G-56: :mod:`ashfall.sim.kernel_fire_back_lower`, every responder asked in
reactor order). Named (:func:`ranged_problem`): targets that could Deflect (RX-6: a free hand) or Return Fire other
than as above (RX-29: a scripted creature, several ranged options, two guns firing back among allies), a Return
Fire that could itself provoke (E-18, :func:`_answer_provokes`), Full Auto Burst among several enemies rolled per
target (:func:`bursts_played`; else the AI's burst is :mod:`ashfall.sim.kernel_burst_lower`'s and
:mod:`ashfall.sim.kernel_burst_rolls`', with prone targets beside edition 2's openers, E-37); and, by the weapons
lowering, several ranged options (two guns beside a melee weapon, or
among allies), guns out of range of some square, total cover one way only, and a ranged weapon first with no melee
weapon beside it (a throw out of range, and a throw or shot behind total cover, are played: a shot's target always
has a line of fire back, so no Return Fire is walled off). A gun listed before the melee weapon (a marksman's rifle
and knife, ATK-2) is the first further option (``kernel_option_slots``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.plans import Block, Costs, attack_sequences
from ashfall.ai.profile import AttackOption, attack_options, shots_left
from ashfall.ai.turn import TurnView
from ashfall.content.schema import WeaponKind
from ashfall.core.types import Condition
from ashfall.engine import Combatant, EncounterState, Reload
from ashfall.families.attacks.engine import situation
from ashfall.families.attacks.engine_common import can_make_melee_attack, melee_reach
from ashfall.families.attacks.moves_gear import has_free_hand
from ashfall.families.attacks.rules_activities import Activity
from ashfall.families.reactions.moves_defensive import trained_to_deflect
from ashfall.rules.health import falls_dying
from ashfall.sim.kernel_burst_lower import weighs_bursts
from ashfall.sim.kernel_fire_back_lower import fire_clear, fire_ints
from ashfall.sim.kernel_maneuvers import ALL_STATES, ATTACKER_PRONE, PRONE_UP, uses_trip, with_conditions
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]

RELOAD = 4
"""A further option's first block Reload (G-31), as the kernel's code (after ``kernel_weapons_lower.AIM``)."""
RELOAD_NAME = "reload"
"""The action name :func:`ranged_action_names` gives Reload where the rulebook has none."""


@dataclass(frozen=True, slots=True)
class RangedTables:
    """The ammunition of the creatures in a fight the AI plays, as the compiled fight reads it.

    Attributes:
        ammo: ``[i, xo]`` rounds loaded at the start in each further option with ammunition (``shots_left``; -1:
            none): rounds are counted per gun (G-31), so two guns (the Gunslinger's) each have their own.
        capacity: ``[i, xo]`` rounds a Reload of that gun loads (G-31; 0: none).
        reload: ``[i, xo]`` actions a Reload of that gun costs (``reload_actions``, G-31, E-03).
        slots: ``[i, xo]`` the highest ammunition slot of that further option's plan tables (-1: it counts no
            ammunition): the plans with ``r`` rounds loaded are at mode ``MODES * min(r, slots) + setting``
            (``2 * MODES`` a load with edition 2's prone settings, ``kernel_weapons_lower.PRONE``).
        label: ``[Reload's index in Lowered.action_names]`` (filled in with the names: :func:`with_reload_label`).
        fire_back: ``[i, g]`` the normal range of each gun it may answer a ranged hit with, in the order the engine
            tries them (Return Fire, RX-29..31: the first loaded one with the shooter within its normal range,
            ``return_fire_weapon``; the AI takes it, ``reactions.ai``; -1: none).
        fire_slot: ``[i, g]`` that gun's further option slot (``xo``), whose rounds it spends.
        fire_ints: ``[ally_ft]``: under edition 2 a hit sets off the Return Fire of the creature hit and of every
            creature of its side within that many feet of it (E-20, G-56; -1: the creature hit alone),
            ``kernel_fire_back_lower.fire_ints``.
        fire_clear: ``[rx, ry, sx, sy]`` whether a responder there may fire back at a shooter there (sight, total
            cover, the AI's ``_walled_off``: ``kernel_fire_back_lower.fire_clear``; a single 1: no wall).
        threat_slot: ``[e, k]`` the further option slot of the gun in the enemy's ``throw_hit`` (k 0) and
            ``throw2_hit`` (k 1) rows (``kernel_weapons_lower.gun_first``; -1: no rounds counted): an enemy's empty
            gun invites no fire (``TurnView._attackers``).
        outcome, draws: ``[reactor, shooter, g, 0, state, code, face - 1, face - 1]`` Return Fire's attack (RX-30:
            at the ruleset's penalty, no MAP) as ``OptionTables.outcome``, the code hostile + 2 within 5 ft + 8
            ``eview``; with edition 2's Trip the states are ``kernel_maneuvers``' (the shooter or the reactor lying
            prone: ``PRONE_UP``, ``ATTACKER_PRONE``, C-PRO), else one.
        dice, flat, dealt, low: its damage (``kernel_lower._damage_tables``, kind 0).
        intercepts: ``[shots may be Intercepted]`` (E-19, edition 1: Intercept answers any attack, RX-26).
    """

    ammo: I64
    capacity: I64
    reload: I64
    slots: I64
    label: I64
    fire_back: I64 = field(default_factory=lambda: np.full((1, 1), -1, np.int64))
    outcome: I8 = field(default_factory=lambda: np.zeros((1,) * 6 + (20, 20), np.int8))
    draws: I64 = field(default_factory=lambda: np.ones((1,) * 6, np.int64))
    dice: I64 = field(default_factory=lambda: np.zeros((1, 1, 2, 1, 2), np.int64))
    flat: I64 = field(default_factory=lambda: np.zeros((1, 1, 2), np.int64))
    dealt: I64 = field(default_factory=lambda: np.zeros((1, 1, 1, 2, 1), np.int64))
    low: I64 = field(default_factory=lambda: np.zeros(1, np.int64))
    intercepts: I64 = field(default_factory=lambda: np.zeros(1, np.int64))
    fire_slot: I64 = field(default_factory=lambda: np.full((1, 1), -1, np.int64))
    threat_slot: I64 = field(default_factory=lambda: np.full((1, 2), -1, np.int64))
    fire_ints: I64 = field(default_factory=lambda: np.full(1, -1, np.int64))
    fire_clear: I64 = field(default_factory=lambda: np.ones((1, 1, 1, 1), np.int64))


def empty_ranged(n: int) -> RangedTables:
    """Tables of a fight where nobody counts ammunition (nor fires back)."""
    return RangedTables(np.full((n, 1), -1, np.int64), np.zeros((n, 1), np.int64), np.ones((n, 1), np.int64),
                        np.full((n, 1), -1, np.int64), np.full(1, -1, np.int64), np.full((n, 1), -1, np.int64),
                        fire_slot=np.full((n, 1), -1, np.int64), threat_slot=np.full((n, 2), -1, np.int64))


def ranged_action_names(state: EncounterState) -> tuple[str, ...]:
    """The engine's name of Reload (G-31), appended to ``Lowered.action_names``."""
    reload = state.rulebook.actions.get(Reload)
    return (reload.name if reload is not None else RELOAD_NAME,)


def with_reload_label(ranged: RangedTables, action_names: Sequence[str]) -> I64:
    """``ranged.label`` with Reload's index among the lowered action names (read by name; -1: none)."""
    names = list(action_names)
    return np.array([names.index(RELOAD_NAME) if RELOAD_NAME in names else -1], np.int64)


def shot_ok(o: AttackOption) -> bool:
    """A ranged weapon that uses ammunition, shot (G-31, ATK-2)."""
    return o.weapon is not None and o.ranged and not o.thrown and o.weapon.kind is WeaponKind.RANGED and \
        o.weapon.ammo_capacity is not None


def two_guns(c: Combatant, state: EncounterState) -> bool:
    """Whether ``c`` carries two guns or more (G-31): the Gunslinger's ``[Submachine Gun, Pistol]``, say."""
    return sum(shot_ok(o) for o in attack_options(c, state)) > 1


def ranged_problem(fight: Fight, c: Combatant) -> str | None:
    """What the kernel lacks around ``c``'s ranged option (None: covered, or it has none).

    Deflect (RX-6) is not played by the kernel, Return Fire (RX-29) only as :func:`_fire_back_guns` says, nor Full
    Auto Burst's further targets (G-35, X-12) beyond :func:`bursts_played`. Several ranged options (two guns, a gun
    and a thrown knife) are named by ``kernel_weapons_lower.options_problem``.
    """
    state = fight.engine.state
    options = attack_options(c, state)
    ranged = [o for o in options if o.ranged]
    if not ranged:
        return None
    guns = [o for o in ranged if shot_ok(o)]
    if guns and len(state.enemies_of(c.id)) > 1 and bursts(state) and not bursts_played(fight) and \
            Block.FULL_AUTO in TurnView(fight.engine, c, ()).available(guns[0]):
        return f"Full Auto Burst among several enemies rolled per target (MAA-2, G-35, combatant {c.id})"
    reactions = state.rulebook.reactions
    for e in state.enemies_of(c.id):
        if "deflect" in reactions and has_free_hand(e, state) and \
                (not state.ruleset.turn.deflect_needs_proficiency or trained_to_deflect(e)):
            return f"Deflect against ranged attacks (RX-6, combatant {e.id} has a free hand)"
        if _fires_back(state, e) and not _fire_back_guns(fight, e):
            if two_guns(e, state):  # ``return_fire_weapon``: the first loaded one in normal range (RX-31)
                return f"Return Fire (RX-29, RX-31, combatant {e.id} could shoot back at {c.id} with either gun)"
            return f"Return Fire (RX-29, combatant {e.id} could shoot back at {c.id})"
        if _fires_back(state, e) and state.ruleset.turn.ranged_attack_provokes and _answer_provokes(state, e):
            return f"Return Fire from within a shooter's reach (E-18, combatant {e.id})"
    return None


def _answer_provokes(state: EncounterState, e: Combatant) -> bool:
    """Whether ``e``'s Return Fire could provoke an Attack of Opportunity (E-18: a ranged attack in reach).

    A shooter within ``e``'s melee reach has provoked ``e``'s own Attack of Opportunity first (RX-21), which spends
    the one reaction a round Return Fire needs; so the answer is never made from within reach unless some enemy
    reaches farther than ``e``, ``e`` cannot make a melee attack (RX-24), or another enemy stands by.
    """
    enemies = state.enemies_of(e.id)
    return len(enemies) > 1 or not can_make_melee_attack(e) or \
        any(melee_reach(s, state) > melee_reach(e, state) for s in enemies)


def bursts(state: EncounterState) -> bool:
    """Whether a Full Auto Burst may take a second target (MAA-2): with one, the AI never weighs the block.

    ``openers.multi_targets`` groups further targets up to ``full_auto_targets``; ``drafts_for`` drops the block for
    a target without a group, so a ruleset of one-target bursts leaves the AI's single-target plans only.
    """
    return state.ruleset.attack.full_auto_targets > 1


def bursts_played(fight: Fight) -> bool:
    """Whether the kernel plays the AI's Full Auto Burst among several enemies here (``kernel_burst_lower``, G-35).

    One roll for all the targets (MAA-2). Beside edition 2's openers (E-37) its targets may lie prone (C-PRO: the
    tables read each standing and prone; the shooter never does, as a creature the AI plays stands up before its
    turn's plan, ACT-5, and nobody trips on another's turn). Where a
    ranged attack in reach provokes (E-18) the burst is offered once to the enemies whose reach holds the shooter,
    after an Intercept (E-19) and before the roll (``perform_multi_attack``; ``ashfall.kernel.fight._burst_declared``),
    and the AI weighs it net of those Attacks of Opportunity as any shot from the square (``_candidates``'
    ``shooting``).
    """
    return fight.engine.state.ruleset.attack.full_auto_single_roll


def _fires_back(state: EncounterState, e: Combatant) -> bool:
    """Whether ``e`` could ever Return Fire: the reaction is in the rulebook and it carries a gun it is trained with."""
    return "return-fire" in state.rulebook.reactions and any(
        w.kind is WeaponKind.RANGED and e.creature.is_proficient_with(w) for w in e.weapons)


def _fire_back_guns(fight: Fight, e: Combatant) -> tuple[AttackOption, ...]:
    """The guns ``e`` fires back with where the kernel plays its Return Fire (RX-29..31), in the engine's order.

    The tactical AI decides its reactions (``reactions.ai``: Return Fire is the one a ranged hit offers it, Deflect
    being named), one reaction a round, and every ranged weapon of its is a gun with ammunition it is trained with
    (RX-31). Among allies under edition 2 it also fires back for an ally hit near it (E-20,
    :mod:`ashfall.sim.kernel_fire_back_lower`) with one gun; two guns there are named (:func:`two_guns_problem`).
    ``return_fire_weapon`` tries its weapons as listed, which is the order of its ranged options: the first loaded
    one with the shooter within its normal range answers (the Gunslinger's Pistol only once its Submachine Gun is
    empty or out of range). Empty: not played.
    """
    state = fight.engine.state
    rs = state.ruleset
    if not isinstance(fight.engine.controllers.get(e.id), TacticalPolicy) or rs.turn.reactions_per_round != 1:
        return ()
    allies = rs.turn.return_fire_allies and bool(state.allies_of(e.id))
    # its guns: a thrown melee weapon beside one never fires back (``return_fire_weapon`` takes ranged weapons)
    ranged = [o for o in attack_options(e, state) if o.ranged and o.weapon is not None and
              o.weapon.kind is WeaponKind.RANGED]
    if not ranged or len(ranged) > (1 if allies else 2) or any(not shot_ok(o) or o.weapon is None or
                                            not e.creature.is_proficient_with(o.weapon) for o in ranged):
        return ()
    return tuple(ranged)


def ammo_slots(turn: TurnView, option: AttackOption, costs: Costs, actions: int) -> int:
    """The highest ammunition slot of an option's plan tables (-1: it counts no ammunition).

    The most rounds a plan of ``actions`` actions could spend (every block costs an action at least; each Strike
    or Power Strike spends a round, an All-Out Attack one per attack, MAA-5, a Full Auto Burst among several enemies
    one per target, G-35), or the magazine if smaller: with as
    many loaded no plan runs dry (``plans._walk`` reloads only when fewer are loaded than a block needs).
    """
    if shots_left(turn.c, option) is None or costs.capacity is None:
        return -1
    need = {Block.ALL_OUT: costs.all_out_attacks, Block.EXTRA: 2,
            Block.FULL_AUTO: costs.ammo_per_target * turn.state.ruleset.attack.full_auto_targets}  # per target
    plain = turn.available(option) - {Block.SWEEP, Block.FULL_AUTO}
    if weighs_bursts(turn, option):
        plain = plain | {Block.FULL_AUTO}
    most = max((sum(need.get(b, 1) for b in seq) for seq in attack_sequences(actions, costs, plain)), default=0)
    return min(costs.capacity, max(1, most))


def option_slots(fight: Fight, roster: Sequence[Combatant], actions: int) -> dict[tuple[int, int], int]:
    """:func:`ammo_slots` of every further option with ammunition of the creatures the AI plays, by ``(i, xo)``."""
    state = fight.engine.state
    found: dict[tuple[int, int], int] = {}
    for i, c in enumerate(roster):
        if not isinstance(fight.policies.get(c.id), TacticalPolicy):
            continue
        turn = TurnView(fight.engine, c, ())
        for xo, o in enumerate(kernel_options(c, state)[1:]):  # the further options' slots
            k = ammo_slots(turn, o, turn.costs(o), actions)
            if k >= 0:
                found[(i, xo)] = k
    return found


def lower_ranged(fight: Fight, roster: Sequence[Combatant], actions: int, tables: Any) -> RangedTables:
    """The ammunition tables of a fight, with Return Fire's.

    The rounds each starts with, a Reload's capacity and cost, the plans' slots, and :func:`lower_fire_back`'s
    tables (``tables`` is ``kernel_lower._damage_tables``).
    """
    from ashfall.sim.kernel_weapons_lower import gun_first  # it imports this module

    state = fight.engine.state
    n = len(roster)
    slots = option_slots(fight, roster, actions)
    opts = [kernel_options(c, state)[1:] for c in roster]  # the further options: the kernel's slots ``xo``
    width = max(1, max((len(o) for o in opts), default=1))  # as wide as the option tables
    ammo = np.full((n, width), -1, np.int64)
    capacity = np.zeros((n, width), np.int64)
    reload = np.ones((n, width), np.int64)
    slot = np.full((n, width), -1, np.int64)
    threat_slot = np.full((n, 2), -1, np.int64)
    action = state.rulebook.actions.get(Reload)
    for i, c in enumerate(roster):
        for xo, o in enumerate(opts[i]):
            left = shots_left(c, o)
            if left is None or o.weapon is None or o.weapon.ammo_capacity is None:
                continue
            ammo[i, xo] = left  # rounds per gun (G-31)
            capacity[i, xo] = o.weapon.ammo_capacity
            # the engine's own cost (G-31, E-03)
            reload[i, xo] = action.cost(state, Reload(c.id, o.weapon.id)) if action is not None else \
                o.weapon.reload_actions
        for k, o in enumerate(gun_first([o for o in opts[i] if o.ranged])[:2]):  # an enemy's fire (``_attackers``)
            if shots_left(c, o) is not None:
                threat_slot[i, k] = next(xo for xo, p in enumerate(opts[i]) if p is o)
    for (i, xo), k in slots.items():
        slot[i, xo] = k
    ranged = RangedTables(ammo, capacity, reload, slot, empty_ranged(n).label, np.full((n, 1), -1, np.int64),
                          intercepts=np.array([not state.ruleset.turn.intercept_melee_only], np.int64),
                          fire_slot=np.full((n, 1), -1, np.int64), threat_slot=threat_slot)
    return lower_fire_back(fight, roster, ranged, tables)


def lower_fire_back(fight: Fight, roster: Sequence[Combatant], ranged: RangedTables, tables: Any) -> RangedTables:
    """Return Fire's tables (RX-29..31): who fires back and how far, its attack from every square at every other.

    The attack is the engine's own (``resolve_attack`` with ``Activity.RETURN_FIRE``: its penalty, no MAP, RX-30)
    in the situation of a shot from the reactor's square at the shooter's (``kernel_weapons_lower``'s codes: "a
    hostile within 5 ft", AMOD-7, within 5 ft, the engine's cover and high ground between the squares, X-01), and
    with edition 2's Trip also with either lying prone (C-PRO: a reactor tripped on the shooter's turn, which then
    shot it from outside its reach, fires back at disadvantage).
    """
    from ashfall.sim import kernel_weapons_lower as kw  # it lowers the further options with this module's help
    from ashfall.sim.kernel_lower import DOWN_DEAD, DOWN_DEAD_PRONE, DOWN_DYING, TARGET_STATES, _downed  # imports us

    state = fight.engine.state
    n = len(roster)
    guns = {i: kit for i, c in enumerate(roster) if (kit := _fire_back_guns(fight, c))}
    if not guns or state.board is None:
        return ranged
    board = state.board
    most = max(len(g) for g in guns.values())
    fire_back = np.full((n, most), -1, np.int64)
    fire_slot = np.full((n, most), -1, np.int64)
    a0 = roster[0]
    t0 = next(c for c in roster if c.side != a0.side)
    eview, eviews = kw._engine_views(state, a0, t0)
    near_views = {int(eview[ax, ay, tx, ty]) for ax in range(board.width) for ay in range(board.height)
                  for tx in range(board.width) for ty in range(board.height)
                  if (ax, ay) != (tx, ty) and max(abs(ax - tx), abs(ay - ty)) <= 1}
    codes = 8 * len(eviews)
    trip = uses_trip(fight)
    # among allies a later responder may shoot a shooter an earlier one dropped (E-20): the fallen target states
    fallen = (DOWN_DYING, DOWN_DEAD, DOWN_DEAD_PRONE) if fire_ints(state)[0] >= 0 and any(
        state.allies_of(roster[i].id) for i in guns) else ()
    bases = (0, *fallen, *((PRONE_UP,) if trip else ()))
    states = (*bases, *((ATTACKER_PRONE + b for b in bases) if trip else ()))
    size = ALL_STATES if trip else TARGET_STATES if fallen else 1
    outcome = np.zeros((n, n, most, 1, size, codes, 20, 20), np.int8)
    draws = np.ones((n, n, most, 1, size, codes), np.int64)
    hit_parts: dict[tuple[int, int], Any] = {}
    for i, found in guns.items():
        a = roster[i]
        further = kernel_options(a, state)[1:]
        for g, o in enumerate(found):
            assert o.weapon is not None
            fire_back[i, g] = o.weapon.range_normal or 0  # RX-31: the shooter within normal range
            fire_slot[i, g] = next(xo for xo, p in enumerate(further) if p is o)  # the rounds it spends (G-31)
            for j, t in enumerate(roster):
                if t.side == a.side:
                    continue
                for s in states:
                    base = s - ATTACKER_PRONE if trip and s >= ATTACKER_PRONE else s
                    if base == DOWN_DYING and not falls_dying(t.health, state.ruleset):
                        continue  # it dies at 0 HP: never shot dying
                    shooter_prone = (Condition.PRONE,) if base == PRONE_UP else ()
                    with _downed(t, base if base in fallen else 0), with_conditions(t, *shooter_prone), \
                            with_conditions(a, *((Condition.PRONE,) if base != s else ())):
                        plain = situation(state, a, t, True)
                        for code in range(codes):
                            met = None if code & 4 else kw._option_sit(plain, o, code, eviews, (), near_views)
                            if met is None:
                                continue  # never aimed (a reaction), or a code never met
                            got, table, parts = kw._tabulate(state, a, t, o, Activity.RETURN_FIRE, None, met, False)
                            draws[i, j, g, 0, s, code] = got
                            outcome[i, j, g, 0, s, code] = table
                            if parts is not None:
                                hit_parts.setdefault((i, g), parts)
    dice, flat, dealt, low = tables(state, roster, hit_parts, most, lambda i, k: guns[i][k].weapon)
    return replace(ranged, fire_back=fire_back, fire_slot=fire_slot, outcome=outcome, draws=draws, dice=dice,
                   flat=flat, dealt=dealt, low=np.array([low], np.int64), fire_ints=fire_ints(state),
                   fire_clear=fire_clear(state, eview, eviews))


__all__ = ["RELOAD", "RELOAD_NAME", "RangedTables", "ammo_slots", "bursts", "bursts_played", "empty_ranged",
           "lower_fire_back", "lower_ranged", "option_slots", "ranged_action_names", "ranged_problem", "shot_ok",
           "two_guns", "with_reload_label"]
