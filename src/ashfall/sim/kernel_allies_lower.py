"""The tactical AI with allies in the fight kernel: what it covers, and the tables its withdrawal and Medicine read.

A creature the AI plays that has allies decides as a lone one does (:mod:`ashfall.sim.kernel_ai_lower`), with three
differences the kernel mirrors:

- its own attacks flank where an ally stands across the target (POS-1, POS-3, E-22: the AI's ``Sights`` read the
  allies' squares, so its plan tables are lowered for flanking situations too);
- badly hurt and outmatched, with an ally still fighting, it withdraws (``TacticalPolicy._withdraw``, DOD-1,
  DOD-2): at or below ``withdraw_below`` of its maximum HP, when its best attack is less than an even chance to
  drop its target and the enemies' one-turn damage (``ashfall.ai.outmatched.incoming``: each active enemy that
  could reach it, the best of its ways to attack, every action a Strike, the plain mean of the exact odds) reaches
  its HP left. The kernel makes that judgement exactly (:class:`WithdrawTables`: ``way_mean``, each enemy's mean
  turn of Strikes on it with each of its ways in every situation, read off the AI's own ``turn_value``, and
  ``way_ft``, how far each way reaches) and stops the fight there: the Dodge it would take first and
  the retreat after it are not played, and the simulator plays that trial on the reference engine;
- it saves a dying ally (``families.dying.ai.heal``) before anything else: under edition 1 with a Medicine check
  beside the ally (E-31, DEATH-17), mirrored (``medic``: the check's success for every face of its d20, asked of
  the rules' ``stabilize_with_medicine``, and the HP a stabilised ally is left with); with a Medicine kit, a stim or a
  healing spell it would treat one or walk up to one: named (:func:`allies_problem`). Under edition 2 without them a
  dying ally rolls its death saves as any dying creature does, and the AI leaves it be.

The withdrawal weighs every way an enemy has to attack, as ``incoming`` does: each option ``attack_options`` gives
(a melee weapon and a second one, a melee weapon thrown, one gun or two, the unarmed strike of a creature without a
melee weapon, none for a machine without weapons), a melee way within its limit plus the enemy's walking speed, a
ranged one within its long range from where the enemy stands, loaded or not, the best of those that reach.

Under edition 1 a creature the AI plays with allies may carry one gun or crossbow with ammunition beside its one
melee weapon (G-31: shots, reloads and Return Fire as for a lone creature, :mod:`ashfall.sim.kernel_ranged_lower`),
and the AI's Intercept weighs an attacker's gun (``kernel_lower._guard_shots``). The gun may be listed before
the melee weapon (the shipped skirmish's raider marksman, ``[Hunting Rifle, Combat Knife]``, ATK-2): every table here
reads the options in the kernel's slots, the melee one first (``kernel_option_slots``), and ``incoming`` and
``_worth_intercepting`` take the best of them, so the order changes nothing; the AI's own tie-break between the rifle
and the knife at one square is the decision's (``AiTables.config``'s lead column).

The shipped Gunslinger's kit, two guns (``[Submachine Gun, Pistol]``) and no melee weapon, is played among allies
as alone on its side (``kernel_weapons_lower``: each gun's rounds, ``ammo[i, xo]``, and its Reload, G-31; Return Fire
with the first loaded gun in normal range, RX-31; its unarmed strike as its first option, RX-24, E-18): its plans are
the AI's own with flanking for the fists alone (a shot never flanks), the AI's Intercept weighs the better of its
two guns at any distance, loaded or not, and its fists within natural reach (``_worth_intercepting``,
``kernel_lower._guard_problem``), and the withdrawal weighs each of the three ways, loaded or not (``incoming``).

A melee weapon that can be thrown beside that gun (the shipped bandits' ``[Combat Knife, Crossbow]``) gives two ranged
options, weighed as a lone creature weighs them; the AI's Intercept weighs the better of the attacker's throw and shot
at any distance (an attacker's throw without a gun too). The thrown weapon stays in hand after a throw, as in the
engine (no ruling says otherwise yet).

What is still named: a thrown weapon without a gun, a second melee weapon, two guns beside a melee weapon or other
pairs of ranged options for a creature the AI plays with allies (its own decision; an enemy's ways are named only
where the AI's Intercept or the fire a square invites cannot weigh them, ``kernel_lower._guard_problem``,
``options_problem``); a throw beside a gun under edition 2 (E-18, E-37, by ``kernel_weapons_lower``); Brace with a
braceable weapon on the move (RX-12: the Spear, by ``kernel_lower``); treating a dying ally with a kit, a stim or a
spell. Edition 2's Trip on a creature with allies is named by :func:`~ashfall.sim.kernel_maneuvers.maneuver_problem`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.intents import can_treat
from ashfall.ai.odds_cache import ruleset_token, turn_value
from ashfall.ai.profile import base_for
from ashfall.ai.sight import situation_code, situation_of
from ashfall.core.rng import Rng
from ashfall.core.types import Condition
from ashfall.engine import Combatant, StabiliseWithMedicine
from ashfall.families.dying.rules import stabilize_with_medicine
from ashfall.grid.board import SQUARE_FT
from ashfall.rules.health import Vitality, falls_dying
from ashfall.ruleset.sections.enums import StabiliseBy
from ashfall.sim.kernel_faces import Faces
from ashfall.sim.kernel_maneuvers import with_conditions
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.kernel_ranged_lower import shot_ok
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


def _ways(fight: Fight, c: Combatant) -> str | None:
    """What of ``c``'s own ways to attack the allies' slice lacks (None: one melee weapon and a gun, or fists and two).

    None too for one melee weapon alone, or its fists beside one gun.

    A gun or crossbow with ammunition beside one melee weapon (G-31), or beside one melee weapon that can be thrown
    too (a Combat Knife, a Spear, a Javelin: two ranged options, the throw and the shot), is played as for a creature
    alone on its side (:mod:`ashfall.sim.kernel_ranged_lower`, :mod:`ashfall.sim.kernel_weapons_lower`); under
    edition 2 it is named there (E-18, E-37). The options are read in the kernel's slots (``kernel_options``): a gun
    listed before the melee weapon (a marksman's rifle, ATK-2) is the same kit. Without a melee weapon its unarmed
    strike is its first option, beside one gun or two (the Gunslinger's kit, RX-24, G-31). A thrown weapon without a
    gun, a second melee weapon, or no melee weapon and no gun are named here.
    """
    options = kernel_options(c, fight.engine.state)
    ranged = [o for o in options if o.ranged]
    if len(options) == 1 and not ranged:
        return None
    guns = [o for o in ranged if shot_ok(o)]
    # one gun, or two (the Gunslinger's kit, each counting its rounds, G-31), beside its unarmed strike (RX-24)
    fists = bool(options) and options[0].unarmed and len(guns) == len(ranged) in (1, 2)
    if not options or options[0].ranged or (options[0].unarmed and not fists) or \
            len(options) - len(ranged) != 1 or not 1 <= len(ranged) <= 2:
        return "several ways to attack"
    if fists:
        return None
    if len(guns) != 1:
        return "several ways to attack: a thrown weapon"
    thrown = [o for o in ranged if not shot_ok(o)]
    if thrown and (not thrown[0].thrown or thrown[0].weapon is not options[0].weapon):
        return "several ways to attack"
    return None


def allies_problem(fight: Fight, c: Combatant) -> str | None:
    """What the kernel lacks to play the tactical AI for ``c``, which has allies (None: it plays it).

    Args:
        fight: The fight.
        c: A creature the tactical AI plays, with at least one ally.
    """
    state = fight.engine.state
    rs = state.ruleset
    ways = _ways(fight, c)
    if ways is not None:
        return f"the tactical AI with allies and {ways} (combatant {c.id})"
    # its withdrawal weighs each enemy's turn of Strikes with each of its ways to attack, whatever they are (a
    # second melee weapon, a throw, one gun or two, its unarmed strike): ``WithdrawTables.way_mean``
    for ally in state.allies_of(c.id):
        if falls_dying(ally.health, rs) and can_treat(c):
            return f"the tactical AI treating a dying ally (MAA-6, G-31, HEAL-1, combatant {c.id})"
    return None


WD_ON, WD_BELOW = 0, 1
"""Slots of ``WithdrawTables.config``: whether the AI plays the creature with allies (withdrawing is weighed), and
its ``withdraw_below`` share of maximum HP."""
MED_ON, MED_COST, MED_REACH = 0, 1, 2
"""Slots of ``WithdrawTables.medic_ints``: whether a Medicine check stabilises (E-31, DEATH-17), what it costs, and
how near the patient must be (touch range, 5 ft)."""


@dataclass(frozen=True, slots=True)
class WithdrawTables:
    """What the AI's withdrawal check reads (DOD-1, DOD-2), every array indexed by roster position first.

    Each enemy's ways to attack are its options in the kernel's slots (``kernel_options``: every option
    ``attack_options`` gives, its first melee one first): a melee weapon, the same weapon thrown, a second melee
    weapon, a gun, a second gun, its unarmed strike where it carries no melee weapon. ``incoming`` takes the best of
    those that reach, so the order changes nothing.

    Attributes:
        config: ``[combatant, slot]`` (``WD_*``).
        way_mean: ``[enemy, combatant, way, code, prone]`` the plain mean damage of the enemy's turn of Strikes with
            that way on the combatant (``incoming``: ``turn_value`` of every action a Strike, MAP included, loaded
            or not). A melee way's code is flanking plus 2 within 5 ft plus 4 times the view (as in
            ``AiTables.enemy_hit``); a ranged way's is "a hostile within 5 ft" of the enemy (AMOD-7) plus 2 within
            5 ft plus 4 times the view; ``prone`` 1 for the enemy lying prone (C-PRO).
        way_ft: ``[enemy, way]`` how far the way reaches from where the enemy stands (``incoming``'s test: a melee
            way's limit plus its walking speed, a ranged way's long range, ATK-2); -1: no such way.
        medic: ``[combatant, 0]`` 1 where the AI tries edition 1's Medicine check on a dying ally beside it
            (``families.dying.ai.heal``: ``StabiliseWithMedicine``, E-31); ``[combatant, face]`` 1 where the check's
            d20 showing ``face`` succeeds (``stabilize_with_medicine``, asked for every face).
        medic_hp: ``[patient]`` its HP once stabilised (DEATH-9).
        medic_ints: ``MED_*``.
        way_melee: ``[enemy, way]`` 1 for a melee way (its situation code flanking's), 0 for a ranged one.
        medic_name: The action's name as the log spends it.
    """

    config: F64
    way_mean: F64
    way_ft: I64 = field(default_factory=lambda: np.full((1, 1), -1, np.int64))
    medic: I64 = field(default_factory=lambda: np.zeros((1, 21), np.int64))
    medic_hp: I64 = field(default_factory=lambda: np.zeros(1, np.int64))
    medic_ints: I64 = field(default_factory=lambda: np.zeros(3, np.int64))
    way_melee: I64 = field(default_factory=lambda: np.zeros((1, 1), np.int64))
    medic_name: str = ""


def no_withdrawing(n: int) -> WithdrawTables:
    """Tables of a fight where no AI creature has allies (never read)."""
    return WithdrawTables(np.zeros((n, 2), np.float64), np.zeros((1, 1, 1, 1, 2), np.float64),
                          np.full((n, 1), -1, np.int64), np.zeros((n, 21), np.int64), np.zeros(n, np.int64),
                          np.zeros(3, np.int64), np.zeros((n, 1), np.int64))


def lower_withdrawing(fight: Fight, roster: list[Combatant], views: list[int]) -> WithdrawTables:
    """The withdrawal tables of a fight whose AI creatures :func:`allies_problem` covers.

    ``views`` are the view codes of ``AiTables.view``'s indices (:func:`~ashfall.sim.kernel_ai_lower.ai_views`).
    Each enemy's odds are built as ``TurnView.enemy_base`` builds them (its conditions, the creature's without a
    Dodge, the enemy's with Prone too); "a hostile within 5 ft" (AMOD-7) must not change a melee turn: checked, not
    assumed.
    """
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    config = np.zeros((n, 2), np.float64)
    ways = [kernel_options(c, state) for c in roster]  # ``incoming`` takes the best of them: the order changes nothing
    width = max(1, *(len(o) for o in ways))
    way_ft = np.full((n, width), -1, np.int64)
    way_melee = np.zeros((n, width), np.int64)
    for i, c in enumerate(roster):
        policy = fight.policies.get(c.id)
        if isinstance(policy, TacticalPolicy) and state.allies_of(c.id):
            config[i] = (1.0, policy.config.withdraw_below)
        for w, o in enumerate(ways[i]):
            way_ft[i, w] = o.limit_ft + (0 if o.ranged else c.creature.speeds.walk)
            way_melee[i, w] = 0 if o.ranged else 1
    if not config[:, WD_ON].any():
        return no_withdrawing(n)
    medic, medic_hp, medic_ints, medic_name = _medicine(fight, roster, config)
    codes = 4 * len(views)
    way_mean = np.zeros((n, n, width, codes, 2), np.float64)
    token = ruleset_token(rs)
    actions = rs.turn.actions_per_turn
    for i, c in enumerate(roster):
        if not config[i, WD_ON]:
            continue
        for j, e in enumerate(roster):
            if e.side == c.side:
                continue
            for w, o in enumerate(ways[j]):
                for code in range(codes):
                    seen, close = views[code // 4], bool(code & 2)
                    for lying in (0, 1):
                        found = []
                        for hostile in (False, True):
                            # a ranged way's first bit is "a hostile within 5 ft", a melee way's flanking (the
                            # other asked both ways, and a melee turn must not change with it)
                            sit = replace(situation_of(seen), within_5ft=close,
                                          flanking=not o.ranged and bool(code & 1),
                                          hostile_within_5ft=bool(code & 1) if o.ranged else hostile)
                            with with_conditions(e, *((Condition.PRONE,) if lying else ())):
                                base = base_for(state, e, c, o, situation_of(situation_code(sit)), token, None,
                                                (e.condition_set, c.condition_set))
                            found.append(0.0 if base is None else
                                         turn_value(tuple(base.key(k) for k in range(1, actions + 1)), 1).expected)
                            if o.ranged:
                                break
                        if found[0] != found[-1]:
                            raise ValueError(f"a melee turn that changes with a hostile within 5 ft (combatant {e.id})")
                        way_mean[j, i, w, code, lying] = found[0]
    return WithdrawTables(config, way_mean, way_ft, medic, medic_hp, medic_ints, way_melee, medic_name)


def _medicine(fight: Fight, roster: list[Combatant], config: F64) -> tuple[I64, I64, I64, str]:
    """Edition 1's Medicine check on a dying ally (E-31) as the AI tries it: every face asked of the rules.

    ``stabilize_with_medicine`` with the d20 showing each face, on each patient at 0 HP dying: one d20 (no advantage,
    DEATH-17's switch on), success by face, the HP it leaves the patient with.
    """
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    medic = np.zeros((n, 21), np.int64)
    medic_hp = np.zeros(n, np.int64)
    ints = np.zeros(3, np.int64)
    if rs.dying.stabilise_by is not StabiliseBy.HEALING_OR_MEDICINE_CHECK:
        return medic, medic_hp, ints, ""
    stabilise = state.rulebook.actions[StabiliseWithMedicine]
    ints[MED_ON], ints[MED_COST], ints[MED_REACH] = 1, rs.dying.medicine_stabilise_actions, SQUARE_FT
    for j, t in enumerate(roster):
        if falls_dying(t.health, rs):
            dying = replace(t.health, hp=0, vitality=Vitality.DYING)
            medic_hp[j] = stabilize_with_medicine(dying, t.creature, cast(Rng, Faces(20)), rs).health.hp
    for i, c in enumerate(roster):
        patients = [a for a in state.allies_of(c.id) if falls_dying(a.health, rs)]
        if not config[i, WD_ON] or not patients:
            continue
        medic[i, 0] = 1
        patient = replace(patients[0].health, hp=0, vitality=Vitality.DYING)  # the check is the medic's alone
        for face in range(1, 21):
            faces = Faces(face)
            result = stabilize_with_medicine(patient, c.creature, cast(Rng, faces), rs, conditions=c.condition_set)
            if faces.sides != [20]:
                raise ValueError(f"the tactical AI's Medicine check with more than one d20 (E-31, combatant {c.id})")
            medic[i, face] = int(result.check.success)
    return medic, medic_hp, ints, stabilise.name


__all__ = ["MED_COST", "MED_ON", "MED_REACH", "WD_BELOW", "WD_ON", "WithdrawTables", "allies_problem",
           "lower_withdrawing", "no_withdrawing"]
