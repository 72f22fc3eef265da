"""The tactical AI's several ways to attack in the fight kernel: which it covers, and their tables.

A creature the AI plays weighs every attack option it has (``attack_options``: each drawn weapon swung, a thrown
weapon also thrown) at every square it weighs, and every enemy's options weigh in the fire a square invites
(``TurnView.ranged_threat``). The first slice of the AI (:mod:`ashfall.sim.kernel_ai_lower`) lowers one melee
option; this module lowers the others, as :class:`OptionTables` (appended to ``AiTables``):

- the AI's own best plans with each further option (``plans_for`` ranked by ``plan_key``, as ``TurnView.best_plan``
  does), in three settings for a thrown one: from a square it Steps to (plain), from where it stands (Aim may
  open the plan, E-05: ``openers``), and after it has aimed (the first attack's bonus, ``base_for``'s
  ``first_bonus``); a thrown option's situation is the AI's own (``Sights``): "a hostile within 5 ft" (AMOD-7),
  within 5 ft, and the cover and high ground between the squares (the view table of ``kernel_ai_lower``);
- each enemy's best melee option where it could walk (``_melee_value``) and its thrown option's attack on every
  square within range, in the situation the AI reads (``_enemy_value``);
- the attack tables of every further option as the engine resolves them (``resolve_attack`` per d20 face, as
  ``kernel_lower._tabulate`` does), for a thrown attack with "a hostile within 5 ft", within 5 ft, Aim's bonus and
  the engine's own cover and high ground between any two squares (``situation``, COV-1..3, POS-4, AMOD-2); damage
  dice and the ledger's damage per rolled total.

Under edition 2's maneuvers (E-37) each setting comes twice, against the target up and lying prone (``PRONE``
added), and a melee option's plans where it stands may open with a Trip (``kernel_maneuvers.TRIP_FIRST``) or Feint
(:func:`_option_settings`, as ``TurnView.setting`` and ``openers`` build them); the enemies' fire is lowered with
them lying prone too (``prone_fire``), and the attack tables hold ``kernel_maneuvers``' target states (a prone
target up); with ammunition (:mod:`ashfall.sim.kernel_ranged_lower`) each number of rounds loaded has both. Where a
ranged attack in reach provokes (E-18, edition 2: ``shot``) the AI weighs a throw or shot net of the Attacks of
Opportunity it provokes and the compiled turn plays them first.

Covered: melee options reaching 5 ft and at most one ranged option (thrown, or a gun with ammunition) a creature, or
a thrown weapon's throw beside one gun (its gun in ``throw_*``, its throw in ``throw2_*``: :func:`gun_first`; under
edition 2 both with their plans against a prone target, the enemy's throw lying prone in ``prone_fire[2]``, and
both provoking in reach, E-18); a gun may be listed before the melee weapon (ATK-2: the kernel's slots hold the
melee option first and weigh that gun before it, ``kernel_option_slots``); a gun in the range of every square from
every square. A throw may be out of range, and a throw or a shot behind total cover (COV-3): there it has no plan
against that target from that square (``decide`` reads ``limit``; the plan tables hold none in a view of total cover,
``base_for``), and with no target in range of it where the AI stands, or none but behind total cover (``total``), the
AI weighs walks to squares within its normal range (``normal``) and closes in to within the longest normal reach with
a line of fire when nothing is in reach (``TacticalPolicy._wanted``, ``_approach``). A gun's rounds and the Return
Fire a hit sets off need nothing more behind walls: the AI declines a Return Fire at a shooter walled off from it
(``reactions.ai._walled_off``) and the engine refuses one (``return_fire_weapon``), but total cover here comes from
walls alone (``kernel_lower._sight_problem`` names cover objects of total cover), walls are what blocks sight, and
total cover one way only is named, so the creature a shot hits, or an Interceptor that sees the shooter (RX-26),
always has a line of fire back; under edition 1 a shot or throw across walls may be Intercepted (E-19), the compiled
Intercept reading whether the interceptor sees the shooter at any distance (``kernel_lower.seen_table``). Everything
else is named
(:func:`options_problem`), and a plan a Feint would open (FNT-1..7) is refused by name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.ai import TacticalPolicy
from ashfall.ai.intents import normal_reach
from ashfall.ai.odds_cache import attack_value, contest_win, ruleset_token
from ashfall.ai.plan_tables import best_at_each_hp
from ashfall.ai.plans import Block, Setting, drafts_for
from ashfall.ai.profile import AttackBase, AttackOption, base_for, prone_copy
from ashfall.ai.sight import Sights, situation_code, situation_of
from ashfall.ai.turn import TurnView
from ashfall.content.schema import WeaponKind
from ashfall.core.types import Condition, Skill
from ashfall.engine import Aim, Combatant, EncounterState
from ashfall.engine.actions import Refused
from ashfall.families.attacks.engine import situation, target_defense
from ashfall.families.attacks.moves_activities import validate_attack
from ashfall.families.attacks.rules import AttackContext, resolve_attack
from ashfall.families.attacks.rules_activities import Activity, AttackMode, action_cost, takes_map
from ashfall.families.senses.engine import concealment_sources
from ashfall.grid.board import SQUARE_FT, Terrain
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules.checks import maneuver_stats, stat_modifier
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.defense import Cover
from ashfall.rules.health import falls_dying
from ashfall.ruleset.sections import ContestTie
from ashfall.sim.kernel_burst_lower import BurstTables, empty_bursts, lower_bursts
from ashfall.sim.kernel_burst_rolls import lower_burst_rolls
from ashfall.sim.kernel_faces import attack_faces
from ashfall.sim.kernel_maneuvers import (
    ALL_STATES,
    FEINT_FIRST,
    PRONE_UP,
    TRIP_FIRST,
    KernelManeuverUnsupported,
    _feint_legal,
    _trip_legal,
    weighs_openers,
    with_conditions,
)
from ashfall.sim.kernel_option_slots import kernel_options, leads
from ashfall.sim.kernel_ranged_lower import RELOAD, option_slots, ranged_problem, shot_ok, two_guns
from ashfall.sim.setups import Fight

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
I8 = npt.NDArray[np.int8]

ACTS = 3
"""Attack activities per option in the tables: Strike, Power Strike, All-Out Attack (``ACTIVITY_CODES``)."""
AIM = 3
"""A plan's first block Aim (E-05), as the kernel's code for a further option's first block."""
FIRST = {Block.STRIKE: 0, Block.POWER: 1, Block.ALL_OUT: 2, Block.AIM: AIM, Block.RELOAD: RELOAD}
PLAIN, FULL, AIMED = 0, 1, 2
"""Settings of a thrown option's plans: from a Step's square, from where it stands (Aim may open), having aimed."""
MODES = 3
PRONE = 3
"""Added to a setting where the target lies prone (edition 2's Trip, E-37): the tables then hold ``2 * MODES``."""
DOWN_STATES = 2
"""Target states of the further options' attack tables: up, and dying (an All-Out Attack's later attacks, MAA-7)."""


@dataclass(frozen=True, slots=True)
class OptionTables:
    """The further attack options of the creatures the AI plays, as the compiled turn reads them.

    Attributes:
        count: ``[i]`` further options (after the first, which ``AiTables.plan_*`` hold).
        ranged: ``[i, xo]`` 1 for a thrown option.
        limit: ``[i, xo]`` the farthest it attacks (reach, or long range: ATK-1, ATK-2).
        frac, drop, first: ``[i, xo, setting, target, code, MAP steps, actions left, HP left]`` the best plan's
            share of HP removed, drop chance and first block (0-2 the attack activities, 3 Aim, 4 Reload; -1 none);
            for an option with ammunition the setting is ``MODES * rounds loaded + setting`` (``2 * MODES`` per
            number of rounds with edition 2's prone settings; G-31,
            :mod:`ashfall.sim.kernel_ranged_lower`). The code
            is flanking (never) + 2 within 5 ft + 4 view for a melee option, "a hostile within 5 ft" + 2 within
            5 ft + 4 view for a thrown one (views: ``AiTables.view``'s).
        melee_best: ``[e, c, code]`` the best of the enemy's melee options on ``c`` (the fire a square it can walk
            to invites), in the melee code.
        throw_hit: ``[e, c, code]`` the enemy's thrown option on ``c`` in the thrown code.
        throw_ft: ``[e]`` how far that option reaches (-1: none).
        outcome: ``[a, t, 3 xo + activity, MAP variant, target state, code, face - 1, face - 1]`` as
            ``Lowered.outcome``; a thrown attack's code is hostile + 2 within 5 ft + 4 aimed + 8 ``eview``, a melee
            one's ``kernel_lower``'s situation code.
        draws: ``[a, t, 3 xo + activity, MAP variant, target state, code]`` d20s drawn.
        dice: ``[a, 3 xo + activity, crit, group, (count, sides)]``.
        flat: ``[a, 3 xo + activity, crit]``.
        dealt: ``[a, 3 xo + activity, t, crit, total - low[0]]``.
        low: ``[lowest total]``.
        eview: ``[ax, ay, tx, ty]`` the engine's view (cover, high ground) of a ranged attack between two squares.
        aim: ``[actions Aim costs, whether the AI may Aim, its index in Lowered.action_names]`` (the index is
            filled in with the names: :func:`with_aim_label`).
        prone_fire: ``[0 melee_best / 1 throw_hit / 2 throw2_hit, e, c, code]`` those three with the enemy lying
            prone (edition 2's Trip, C-PRO; one cell each without it).
        shot: ``[a ranged attack in reach provokes]`` (E-18: edition 2's Attack of Opportunity on a throw, which the
            AI weighs as ``TurnView.in_reach_of``'s enemies' ``aoo_damage``).
        throw2_hit: ``[e, c, code]`` as ``throw_hit``, of an enemy's thrown weapon beside its gun (``throw_hit`` then
            holds the gun, whose rounds are counted: :func:`gun_first`); ``(1, 1, 1)`` where nobody has both.
        throw2_ft: ``[e]`` how far that throw reaches (-1: none).
        burst: The AI's Full Auto Burst among several enemies where it stands (``kernel_burst_lower``).
        normal: ``[i, xo]`` how far each further option attacks without stretching (``normal_reach``: reach, or a
            ranged weapon's normal range): where a thrown option has no target within ``limit`` from where it
            stands the AI weighs walks to squares within it (``TacticalPolicy._wanted``), and with nothing to
            attack it closes in to within the longest (``_approach``).
        total: ``[view]`` 1 where the AI's view (``AiTables.view``'s index) is total cover (COV-3): a ranged option
            has no odds against a target there (``base_for``), so it does not count as one in range where the AI
            stands (``TacticalPolicy._wanted``), and a square from which a target is within a ranged option's normal
            range only behind total cover is no goal of the AI's approach (``_approach``).
    """

    count: I64
    ranged: I64
    limit: I64
    frac: F64
    drop: F64
    first: I64
    melee_best: F64
    throw_hit: F64
    throw_ft: I64
    outcome: I8
    draws: I64
    dice: I64
    flat: I64
    dealt: I64
    low: I64
    eview: I64
    aim: I64
    prone_fire: F64 = dataclasses.field(default_factory=lambda: np.zeros((3, 1, 1, 1), np.float64))
    shot: I64 = dataclasses.field(default_factory=lambda: np.zeros(1, np.int64))
    throw2_hit: F64 = dataclasses.field(default_factory=lambda: np.zeros((1, 1, 1), np.float64))
    throw2_ft: I64 = dataclasses.field(default_factory=lambda: np.full(1, -1, np.int64))
    burst: BurstTables = dataclasses.field(default_factory=lambda: empty_bursts(1))
    normal: I64 = dataclasses.field(default_factory=lambda: np.zeros((1, 1), np.int64))
    total: I64 = dataclasses.field(default_factory=lambda: np.zeros(1, np.int64))


def empty_options(n: int) -> OptionTables:
    """Tables of a fight where nobody the AI plays has a further option (nothing is ever looked up)."""
    def zeros(*shape: int) -> I64:
        return np.zeros(shape, np.int64)

    return OptionTables(
        zeros(n), zeros(1, 1), zeros(1, 1), np.zeros((1,) * 8, np.float64), np.zeros((1,) * 8, np.float64),
        np.full((1,) * 8, -1, np.int64), np.zeros((1, 1, 1), np.float64), np.zeros((1, 1, 1), np.float64),
        np.full(n, -1, np.int64), np.zeros((1, 1, 1, 1, 1, 1, 20, 20), np.int8), np.ones((1,) * 6, np.int64),
        zeros(1, 1, 2, 1, 2), zeros(1, 1, 2), zeros(1, 1, 1, 2, 1), zeros(1), zeros(1, 1, 1, 1), zeros(3),
        np.zeros((3, 1, 1, 1), np.float64), zeros(1), np.zeros((1, 1, 1), np.float64), np.full(n, -1, np.int64),
        empty_bursts(n), zeros(1, 1), zeros(1))


AIM_NAME = "aim"
"""The action name :func:`option_action_names` gives Aim where the rulebook has none (E-05: edition 1 only)."""


def option_action_names(state: EncounterState) -> tuple[str, ...]:
    """The engine's names of the actions only further options bring, after ``Lowered.action_names``'s: Aim (E-05)."""
    aim = state.rulebook.actions.get(Aim)
    return (aim.name if aim is not None else AIM_NAME,)


def with_aim_label(options: OptionTables, action_names: Sequence[str]) -> I64:
    """``options.aim`` with Aim's index among the lowered action names (its label in recorded steps; -1: none).

    Read by name, so that other families may add action names before or after it.
    """
    aim = options.aim.copy()
    names = list(action_names)
    aim[2] = names.index(AIM_NAME) if AIM_NAME in names else -1
    return aim


def _melee_ok(o: AttackOption) -> bool:
    return _reach_ok(o) and o.limit_ft == SQUARE_FT


def _reach_ok(o: AttackOption) -> bool:
    """A melee weapon's swing reaching whole squares: 5 ft, or further with the reach trait (ATK-1)."""
    return o.weapon is not None and not o.ranged and not o.unarmed and o.limit_ft >= SQUARE_FT and \
        o.limit_ft % SQUARE_FT == 0


def _fists_ok(o: AttackOption) -> bool:
    """An unarmed strike of natural reach 5 ft (NAT-6): a creature's only melee option beside its guns (RX-24)."""
    return o.unarmed and o.weapon is None and not o.ranged and o.limit_ft == SQUARE_FT


def _thrown_ok(o: AttackOption) -> bool:
    return o.weapon is not None and o.thrown and o.mode is AttackMode.THROWN and o.weapon.ammo_capacity is None


def _ranged_pair_ok(ranged: Sequence[AttackOption], fists: bool = False) -> bool:
    """At most one ranged option, a thrown melee weapon's throw beside one gun or crossbow, or two guns and fists.

    The kit of the shipped bandits, ``[Combat Knife, Crossbow]``; the thrown weapon stays in hand after a throw, as in
    the engine. The shipped Gunslinger's, ``[Submachine Gun, Pistol]`` and its unarmed strike (``fists``): each gun
    counts its own rounds (G-31, ``kernel_ranged_lower``).
    """
    if len(ranged) <= 1:
        return all(_thrown_ok(o) or shot_ok(o) for o in ranged)
    if fists and len(ranged) == 2 and all(shot_ok(o) for o in ranged):
        return True
    return len(ranged) == 2 and sum(_thrown_ok(o) for o in ranged) == 1 and sum(shot_ok(o) for o in ranged) == 1


def gun_first(ranged: Sequence[AttackOption]) -> list[AttackOption]:
    """A creature's ranged options in the kernel's slots: its gun (``throw_*``), then a thrown weapon beside it.

    A lone ranged option takes the first slot whatever it is; the first slot's is the one whose rounds are counted.
    """
    return sorted(ranged, key=lambda o: not shot_ok(o)) if len(ranged) > 1 else list(ranged)


def options_problem(fight: Fight, c: Combatant, *, shoots: bool = True) -> str | None:
    """What the kernel lacks to play ``c``'s attack options (None: covered; one melee option needs nothing here).

    ``c`` is played by the AI or faces a creature it plays; its first option in the kernel's slots must be a melee
    weapon (a gun or crossbow listed before it is its first further option: ``kernel_option_slots``). Without
    ``shoots`` its ranged options are only weighed, never used (a scripted plan whose target the AI chooses,
    ``kernel_ai_lower.chooser_problem``): the reactions a ranged attack offers are then not asked about.
    """
    state = fight.engine.state
    options = kernel_options(c, state)  # a gun ahead of its melee weapon is its first further option
    ahead = leads(c, state)
    if options and options[0].ranged:  # a machine's rifle: no melee option at all (no unarmed strike)
        return f"the tactical AI with a ranged weapon first and no melee weapon beside it (ATK-2, combatant {c.id})"
    fists = bool(ahead) and _fists_ok(options[0])  # one gun and its fists (``attack_options``' unarmed strike)
    if not options or not (_reach_ok(options[0]) or fists):
        return f"the tactical AI with several ways to attack (combatant {c.id})"
    if len(options) == 1:
        return None
    thrown = [o for o in options if o.ranged]
    if two_guns(c, state) and not (fists and len(thrown) == ahead == 2):
        return f"the tactical AI with two guns beside a melee weapon or a throw (combatant {c.id})"
    if options[0].limit_ft != SQUARE_FT and any(not o.ranged for o in options[1:]):
        # the routes keep squares within the first option's reach; a further melee option's plans are 5 ft ones
        return f"the tactical AI with a reach weapon beside another melee weapon (combatant {c.id})"
    if any(not _melee_ok(o) for o in options[1:] if not o.ranged) or not _ranged_pair_ok(thrown, fists):
        return f"the tactical AI with several ways to attack other than melee weapons and one thrown (combatant {c.id})"
    if not thrown:
        return None
    # ammunition, and the reactions a ranged attack offers (kernel_ranged_lower)
    problem = ranged_problem(fight, c) if shoots else None
    if problem is not None:
        return problem
    board = state.board
    if board is None:
        return None  # the AI off the map is named on its own
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]
    guns = [o.limit_ft for o in thrown if shot_ok(o)]  # a throw out of range is played (``decide``'s walks to throw)
    limit = min(guns) if guns else None
    sights = Sights(state)
    others = [e for e in state.combatants.values() if e.side != c.side]
    for a_sq in squares:
        for t_sq in squares:
            if a_sq == t_sq:
                continue
            if limit is not None and space_distance_ft((a_sq,), (t_sq,)) > limit:
                return f"the tactical AI's guns out of range of some square (combatant {c.id})"
            for t in others[:1]:
                total = _walled(sights, c, a_sq, t, t_sq)
                if total != _walled(sights, t, t_sq, c, a_sq):  # a Return Fire or reply one way only
                    return f"the tactical AI's ranged attacks behind total cover one way only (combatant {c.id})"
    return None


def _walled(sights: Sights, a: Combatant, a_sq: tuple[int, int], t: Combatant, t_sq: tuple[int, int]) -> bool:
    """Whether ``t`` on ``t_sq`` is behind total cover from ``a`` on ``a_sq`` as the AI reads it (COV-3).

    A throw there has no odds (``base_for``): the AI neither weighs it nor counts it among the fire a square invites,
    and a thrown option with no target but such ones where the AI stands has it weigh walks (``_wanted``).
    """
    return situation_of(sights.code(a, (a_sq,), t, (t_sq,), True)).cover is Cover.TOTAL


def extra_weapons_problem(fight: Fight, c: Combatant) -> str | None:
    """Why ``c``'s weapons after the first are not mirrored on the move (None: they change nothing, or the AI's).

    A scripted plan tries its weapons in order (``ScriptedTactics._attack``: swung, never thrown), so further melee
    weapons of the first one's reach never get used while the first can attack; the AI weighs them all
    (:func:`options_problem`).
    """
    if isinstance(fight.policies.get(c.id), TacticalPolicy):
        return None
    first = c.weapons[0]
    for w in c.weapons[1:]:
        if w.kind is not WeaponKind.MELEE or w.reach != first.reach or first.kind is not WeaponKind.MELEE:
            return f"maps and movement for several weapons of different kinds or reach (combatant {c.id})"
    return None


def _code(hostile: bool, close: bool, view: int) -> int:
    """The AI's situation code with these bits over a view code (cover and high ground only)."""
    return situation_code(replace(situation_of(view), hostile_within_5ft=hostile, within_5ft=close))


def _engine_views(state: EncounterState, a: Combatant, t: Combatant) -> tuple[I64, list[tuple[Cover, bool]]]:
    """The engine's cover and high ground of a ranged attack between every two squares (``situation``)."""
    board = state.board
    assert board is not None
    table = np.zeros((board.width, board.height, board.width, board.height), np.int64)
    views: list[tuple[Cover, bool]] = [(Cover.NONE, False)]
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]
    home_a, home_t = a.position, t.position
    try:
        for a_sq in squares:
            a.position = a_sq
            for t_sq in squares:
                if a_sq == t_sq:
                    continue
                t.position = t_sq
                sit = situation(state, a, t, True)
                view = (sit.cover, sit.high_ground)
                if view not in views:
                    views.append(view)
                table[a_sq[0], a_sq[1], t_sq[0], t_sq[1]] = views.index(view)
    finally:
        a.position, t.position = home_a, home_t
    return table, views


def _tabulate(state: EncounterState, a: Combatant, t: Combatant, option: AttackOption, activity: Activity,
              m: Any, sit: Any, aimed: bool) -> tuple[int, I64, tuple[DamagePart, ...] | None]:
    """(d20s drawn, outcome by faces, damage parts of a hit) of one attack with an option, from ``resolve_attack``."""
    rs = state.ruleset
    weapon = option.weapon
    dv = target_defense(state, a, t, weapon, option.mode, sit)
    context = AttackContext(
        activity=activity, map_modifier=m if takes_map(activity, rs) else None,
        flanking=sit.flanking, high_ground=sit.high_ground, hostile_within_5ft=sit.hostile_within_5ft,
        within_5ft=sit.within_5ft, target_conditions=t.condition_set, attacker_conditions=a.condition_set,
        unseen_attacker=sit.unseen_attacker, extra_sources=tuple(concealment_sources(state, a, t)), aimed=aimed,
    )
    return attack_faces(lambda rng: resolve_attack(a.creature, weapon, option.mode, dv, context, rng, rs), a.id)


def lower_options(fight: Fight, roster: Sequence[Combatant], actions: int, max_map: int, views: Sequence[int],
                  engine_views: Sequence[tuple[Cover, bool]], variants: Sequence[Any], used_map: set[int],
                  used_all_out: set[int], tables: Any, downed: Any, chooser: Sequence[int] = ()) -> OptionTables:
    """The further options' tables of a fight the AI plays (check :func:`options_problem` first).

    ``views`` are the AI's view codes (``kernel_ai_lower._views``), ``engine_views`` the engine's melee views
    (``read_sights``), ``variants`` the MAP variants with those a Strike or Power Strike (``used_map``) and an
    All-Out Attack (``used_all_out``) meet; ``tables`` is ``kernel_lower._damage_tables`` (the damage of a hit) and
    ``downed(t, down)`` ``kernel_lower._downed``. ``chooser[i]``: 1 where a scripted plan asks the AI whom to attack
    (``AiTables.chooser``): the AI's choice weighs its further options and its enemies' fire as for a creature the AI
    plays, with the AI's default config, but the plan attacks with its own weapon order (``ScriptedTactics._attack``),
    so no attack tables are lowered for it.
    """
    from ashfall.sim.kernel_ai_lower import decision_config, most_hp  # it imports this module
    state = fight.engine.state
    rs = state.ruleset
    n = len(roster)
    played = [isinstance(fight.policies.get(c.id), TacticalPolicy) for c in roster]
    weighs = [played[i] or (i < len(chooser) and chooser[i] == 1) for i in range(n)]  # the AI's plans and fire
    opts = [kernel_options(c, state) for c in roster]  # the first melee option first
    extra = max((len(opts[i]) - 1 for i in range(n) if weighs[i]), default=0)
    attacking = max((len(opts[i]) - 1 for i in range(n) if played[i]), default=0)  # attacks with further options
    throw_ft = np.full(n, -1, np.int64)
    throw2_ft = np.full(n, -1, np.int64)
    for i in range(n):
        for k, o in enumerate(gun_first([o for o in opts[i] if o.ranged])):
            (throw2_ft if k else throw_ft)[i] = o.limit_ft
    needed = extra > 0 or any(throw_ft[i] >= 0 for i in range(n))
    if not needed:
        return empty_options(n)
    board = state.board
    assert board is not None
    hp_most = most_hp(fight, roster)  # the first option's HP axis: a Second Wind's temporary HP too (THP-5)
    codes = 4 * len(views)
    token = ruleset_token(rs)
    count = np.zeros(n, np.int64)
    ranged = np.zeros((n, max(1, extra)), np.int64)
    limit = np.zeros((n, max(1, extra)), np.int64)
    normal = np.zeros((n, max(1, extra)), np.int64)
    trip = weighs_openers(fight)  # the AI's own turns, or its target choice for a scripted plan (E-37)
    slots = option_slots(fight, roster, actions)  # rounds loaded, for options with ammunition (G-31)
    stride = MODES * (2 if trip else 1)  # the settings of one number of rounds loaded, against targets up and prone
    shape = (n, max(1, extra), stride * (1 + max(slots.values(), default=0)), n, codes, max_map, actions + 1,
             hp_most + 1)
    frac = np.zeros(shape, np.float64)
    drop = np.zeros(shape, np.float64)
    first = np.full(shape, -1, np.int64)
    melee_best = np.zeros((n, n, codes), np.float64)
    throw_hit = np.zeros((n, n, codes), np.float64)
    throw2_hit = np.zeros((n, n, codes) if (throw2_ft >= 0).any() else (1, 1, 1), np.float64)
    a0 = next(c for c in roster)
    t0 = next(c for c in roster if c.side != a0.side)
    eview, eviews = _engine_views(state, a0, t0)
    aim_ok = Aim in state.rulebook.actions and rs.attack.aim_available
    aim = np.array([state.rulebook.actions[Aim].cost(state, Aim(a0.id)) if aim_ok else 1, int(aim_ok), -1], np.int64)
    # the fire each enemy's options invite on a creature the AI plays (``ranged_threat``), and with the enemy lying
    # prone (edition 2's Trip: its melee, ranged and second ranged attacks as the AI reads them, C-PRO)
    prone_fire = np.zeros((3, n, n, codes) if trip else (3, 1, 1, 1), np.float64)
    for i, c in enumerate(roster):
        if not weighs[i]:
            continue
        for j, e in enumerate(roster):
            if e.side == c.side:
                continue
            _fire(state, e, c, opts[j], views, codes, token, melee_best[j, i], throw_hit[j, i])
            if throw2_ft[j] >= 0:  # its thrown weapon beside its gun (``throw_hit`` holds the gun: ``gun_first``)
                _fire(state, e, c, opts[j], views, codes, token, None, throw2_hit[j, i], second=True)
            pair = throw2_ft[j] >= 0
            for lying in (False, True) if trip else ():
                rows = (prone_fire[0, j, i], prone_fire[1, j, i]) if lying else (melee_best[j, i], throw_hit[j, i])
                second = (prone_fire[2, j, i] if lying else throw2_hit[j, i]) if pair else None
                with with_conditions(e, *((Condition.PRONE,) if lying else ())):
                    if lying:
                        _fire(state, e, c, opts[j], views, codes, token, *rows)
                        if second is not None:  # its throw beside its gun, thrown lying prone (C-PRO)
                            _fire(state, e, c, opts[j], views, codes, token, None, second, second=True)
                    for who in (e, c):  # Dazed (G-13, the default) must change nothing the AI reads: checked
                        with with_conditions(who, Condition.DAZED):
                            dazed = (np.zeros(codes), np.zeros(codes), np.zeros(codes))
                            _fire(state, e, c, opts[j], views, codes, token, dazed[0], dazed[1])
                            if second is not None:
                                _fire(state, e, c, opts[j], views, codes, token, None, dazed[2], second=True)
                            if not (np.array_equal(dazed[0], rows[0]) and np.array_equal(dazed[1], rows[1]) and
                                    (second is None or np.array_equal(dazed[2], second))):
                                raise KernelManeuverUnsupported(f"the tactical AI's odds with a Dazed creature "
                                                                f"(G-13, combatant {who.id})")
    # the AI's own plans with each further option
    reroll = rs.checks.contest_tie is ContestTie.REROLL
    # the most MAP steps a turn can have counted after spending some actions (``kernel_maneuvers.opener_tables``)
    per_action = max(1.0, rs.attack.all_out_attacks / (action_cost(Activity.ALL_OUT, rs) or 1))
    for i, c in enumerate(roster):
        if not weighs[i] or len(opts[i]) < 2:
            continue
        drop_step = decision_config(fight, c).drop_step
        flanks = bool(state.allies_of(c.id))  # its allies may make its melee attacks flanking ones (POS-1)
        turn = TurnView(fight.engine, c, ())
        count[i] = len(opts[i]) - 1
        mine = max(stat_modifier(c.creature, s_) for s_ in maneuver_stats(rs))
        for xo, o in enumerate(opts[i][1:]):
            ranged[i, xo] = int(o.ranged)
            limit[i, xo] = o.limit_ft
            normal[i, xo] = normal_reach(o)
            costs = turn.costs(o)
            plain = turn.available(o) - {Block.SWEEP, Block.FULL_AUTO}
            for j, t in enumerate(roster):
                if t.side == c.side:
                    continue
                defenses = Defenses.of_creature(t.creature, t.armor, t.condition_set)
                conds = (c.condition_set, t.condition_set)
                feint = contest_win(stat_modifier(c.creature, Skill.DECEPTION),
                                    stat_modifier(t.creature, Skill.INSIGHT), reroll) \
                    if trip and not o.ranged and _feint_legal(fight, c, t) else None
                theirs = max(stat_modifier(t.creature, s_) for s_ in maneuver_stats(rs))
                trip_odds = contest_win(mine, theirs, reroll) if trip and not o.ranged and _trip_legal(fight, c, t) \
                    else None
                for code in range(codes):
                    hostile_or_flank, close, v = bool(code & 1), bool(code & 2), views[code // 4]
                    if not o.ranged:
                        if (hostile_or_flank and not flanks) or not close:
                            continue  # the AI attacks from within its reach, alone on its side never flanking
                        sit = situation_of(situation_code(replace(situation_of(v), flanking=hostile_or_flank,
                                                                  hostile_within_5ft=True, within_5ft=True)))
                        unsettled = situation_of(situation_code(replace(situation_of(v), flanking=hostile_or_flank,
                                                                        within_5ft=True)))
                        base = base_for(state, c, t, o, sit, token, defenses, conds)
                        if base != base_for(state, c, t, o, unsettled, token, defenses, conds):
                            raise ValueError(f"melee odds that change with a hostile within 5 ft (combatant {c.id})")
                    else:
                        if close and not hostile_or_flank:
                            continue  # the target beside it is a hostile within 5 ft (AMOD-7)
                        sit = situation_of(_code(hostile_or_flank, close, v))
                        base = base_for(state, c, t, o, sit, token, defenses, conds)
                    if base is None:
                        if o.ranged and sit.cover is not Cover.TOTAL:  # ``decide`` reads a target in range as one
                            raise ValueError(f"the tactical AI's thrown weapon with no odds against a target in "
                                             f"range (combatant {c.id})")  # it may throw at (``_wanted``)
                        continue
                    settings = _option_settings(fight, c, t, o, sit, base, plain, aim_ok, trip, feint, trip_odds)
                    for (b, prone, available, odds, into), ammo in ((s_, am) for s_ in settings
                                                                     for am in _loads(slots.get((i, xo)))):
                        at = stride * (ammo or 0)
                        for steps in range(max_map):
                            for left in range(1, actions + 1):
                                # the plans walked once, valued at every HP at once (``best_valued`` at each HP)
                                setting = Setting(o, {t.id: b}, prone, {}, {}, steps, ammo, available, odds)
                                drafts = tuple(drafts_for(t.id, setting, costs, left, openers=True))
                                best = best_at_each_hp(drafts, t.id, hp_most, drop_step)
                                for draft, hps in best.groups():
                                    block = draft.blocks[0]
                                    code_first = TRIP_FIRST if block is Block.TRIP else FIRST.get(block)
                                    if block is Block.FEINT and not played[i]:
                                        code_first = FEINT_FIRST  # a target choice's plan: it only ranks the target
                                    if code_first is None:
                                        if block is Block.FEINT:
                                            if steps > int((actions - left) * per_action + 1e-9):
                                                continue  # no turn gets here: never read
                                            raise KernelManeuverUnsupported(
                                                f"the tactical AI's {block.value} as an opener of a further way "
                                                f"to attack (combatant {c.id})")
                                        raise ValueError(f"the AI's {block.value} (combatant {c.id})")
                                    for m in into:
                                        frac[i, xo, at + m, j, code, steps, left, hps] = best.frac[hps - 1]
                                        drop[i, xo, at + m, j, code, steps, left, hps] = best.p_drop[hps - 1]
                                        first[i, xo, at + m, j, code, steps, left, hps] = code_first
    # the engine's attack tables of the further options
    big = max(8 * len(eviews), max((c_ + 1 for c_ in _melee_codes(engine_views)), default=1))
    kinds = ACTS * max(1, attacking)
    # with edition 2's Trip the target states are ``kernel_maneuvers``' (a prone target up: PRONE_UP, C-PRO)
    states = ALL_STATES if trip else DOWN_STATES
    outcome = np.zeros((n, n, kinds, len(variants), states, big, 20, 20), np.int8)
    draws = np.ones((n, n, kinds, len(variants), states, big), np.int64)
    hit_parts: dict[tuple[int, int], tuple[DamagePart, ...]] = {}
    acts = (Activity.STRIKE, Activity.POWER_STRIKE, Activity.ALL_OUT)
    near_views = {int(eview[ax, ay, tx, ty]) for ax in range(board.width) for ay in range(board.height)
                  for tx in range(board.width) for ty in range(board.height)
                  if (ax, ay) != (tx, ty) and max(abs(ax - tx), abs(ay - ty)) <= 1}
    for i, a in enumerate(roster):
        if not played[i] or len(opts[i]) < 2:
            continue
        for xo, o in enumerate(opts[i][1:]):
            for k, activity in enumerate(acts):
                try:
                    validate_attack(state, a, o.weapon, o.mode, activity)
                except Refused:  # the rules refuse it with this option: the AI's plans never name it
                    continue
                kx = ACTS * xo + k
                for j, t in enumerate(roster):
                    if t.side == a.side:
                        continue
                    for down in (*range(DOWN_STATES), *((PRONE_UP,) if trip else ())):
                        if down == 1 and not (activity is Activity.ALL_OUT and falls_dying(t.health, rs)):
                            continue
                        laid = (Condition.PRONE,) if down == PRONE_UP else ()
                        with downed(t, 1 if down == 1 else 0), with_conditions(t, *laid):
                            plain_sit = situation(state, a, t, o.ranged)
                            for v, m in enumerate(variants):
                                if (activity is Activity.ALL_OUT and v not in used_all_out) or \
                                        (activity is not Activity.ALL_OUT and v not in used_map):
                                    continue
                                for code in range(big):
                                    met = _option_sit(plain_sit, o, code, eviews, engine_views, near_views)
                                    if met is None:
                                        continue
                                    aimed = bool(o.ranged and code & 4)
                                    if aimed and not aim_ok:
                                        continue  # no Aim in this edition (E-05): never met
                                    got, table, parts = _tabulate(state, a, t, o, activity, m, met, aimed)
                                    if not o.ranged:  # "a hostile within 5 ft" must not matter to a melee attack
                                        flipped = dataclasses.replace(met,
                                                                      hostile_within_5ft=not met.hostile_within_5ft)
                                        again, table2, _ = _tabulate(state, a, t, o, activity, m, flipped, aimed)
                                        if again != got or not np.array_equal(table2, table):
                                            raise ValueError(f"attacks that change as enemies fall (AMOD-7, "
                                                             f"combatant {a.id})")
                                    draws[i, j, kx, v, down, code] = got
                                    outcome[i, j, kx, v, down, code] = table
                                    if parts is not None:
                                        hit_parts.setdefault((i, kx), parts)
    dice, flat, dealt, low = tables(state, roster, hit_parts, kinds, lambda i, kx: opts[i][1 + kx // ACTS].weapon)
    burst = lower_burst_rolls(  # beside edition 2's openers with prone targets too (E-37)
        fight, roster, lower_bursts(fight, roster, actions, max_map, views, frac.shape[2], hp_most, slots, chooser),
        variants, used_map, eviews, near_views, hit_parts)
    return OptionTables(count, ranged, limit, frac, drop, first, melee_best, throw_hit, throw_ft, outcome, draws,
                        dice, flat, dealt, np.array([low], np.int64), eview, aim, prone_fire,
                        np.array([rs.turn.ranged_attack_provokes], np.int64), throw2_hit, throw2_ft, burst, normal,
                        np.array([situation_of(v).cover is Cover.TOTAL for v in views], np.int64))


def _fire(state: EncounterState, e: Combatant, c: Combatant, options: Sequence[AttackOption], views: Sequence[int],
          codes: int, token: int, melee: F64 | None, thrown: F64, second: bool = False) -> None:
    """What one attack of ``e`` is worth on ``c`` in each situation code (``ranged_threat``), into the two rows.

    ``melee``: its best melee option (``_melee_value``) in the melee code (None: not asked); ``thrown``: its ranged
    option in the first slot of :func:`gun_first` (``second``: the second, a throw beside a gun) (``_enemy_value``)
    in the thrown code; both with the creatures' conditions as they are now.
    """
    slots = gun_first([o for o in options if o.ranged])
    ranged = slots[1:2] if second else slots[:1]
    conds = (e.condition_set, c.condition_set)
    for code in range(codes):
        flanking, close, seen = bool(code & 1), bool(code & 2), views[code // 4]
        if melee is not None:
            most = 0.0
            for o in options:
                if o.ranged:
                    continue
                sit = situation_of(situation_code(replace(situation_of(seen), flanking=flanking,
                                                          hostile_within_5ft=close, within_5ft=close)))
                b = base_for(state, e, c, o, sit, token, None, conds)
                value = attack_value(b.key(1)).expected if b is not None else 0.0
                most = max(most, value)
            melee[code] = most
        for o in ranged:
            sit = situation_of(_code(bool(code & 1), close, seen))
            b = base_for(state, e, c, o, sit, token, None, conds)
            thrown[code] = attack_value(b.key(1)).expected if b is not None else 0.0


_Settings = list[tuple[AttackBase, dict[str, AttackBase], frozenset[Block], dict[tuple[Block, str], float],
                       tuple[int, ...]]]


def _option_settings(fight: Fight, c: Combatant, t: Combatant, o: AttackOption, sit: Any, base: AttackBase,
                     plain: frozenset[Block], aim_ok: bool, trip: bool, feint: float | None,
                     trip_odds: float | None) -> _Settings:
    """The settings of a further option's plans against ``t`` in one situation, and the table modes each fills.

    Each is ``(odds inputs, prone odds inputs, blocks allowed, openers' odds, the table modes it fills)``. Without Trip
    in play (edition 1): a melee option's one plain setting fills every mode (it never opens); a thrown one's from a
    Step's square, from where it stands (Aim may open, E-05) and having aimed. With it (E-37) as ``TurnView.setting``
    and ``openers`` build them: where it stands a melee option may open with Feint or Trip (its own odds against the
    target prone, as ``TurnView.base(prone=True)``), from a square it moves to it may not; and each setting again
    against the target lying prone (modes + :data:`PRONE`: Feint only, a prone creature is not tripped again,
    TRP-3), the odds inputs read with the target prone (C-PRO).

    Raises:
        KernelManeuverUnsupported: Where Dazed (G-13) would change the odds the AI reads.
    """
    state = fight.engine.state
    rs = state.ruleset
    token = ruleset_token(rs)

    def read(target: Combatant) -> AttackBase | None:
        d = Defenses.of_creature(t.creature, t.armor, t.condition_set)  # the target's own, as ``_base_in`` reads
        return base_for(state, c, target, o, sit, token, d, (c.condition_set, target.condition_set))

    out: _Settings = []
    if not o.ranged:
        if not trip:
            return [(base, {}, plain, {}, (PLAIN, FULL, AIMED))]
        _undazed(fight, c, t, lambda: read(t))
        with with_conditions(t, Condition.PRONE):
            lying = _undazed(fight, c, t, lambda: read(t))
        odds: dict[tuple[Block, str], float] = {}
        opened = plain
        if feint is not None:
            opened = opened | {Block.FEINT}
            odds[(Block.FEINT, t.id)] = feint
        prone: dict[str, AttackBase] = {}
        tripped = read(prone_copy(c, t)) if trip_odds is not None else None
        full = opened
        full_odds = dict(odds)
        if tripped is not None and trip_odds is not None:
            full = full | {Block.TRIP}
            full_odds[(Block.TRIP, t.id)] = trip_odds
            prone[t.id] = tripped
        out = [(base, {}, plain, {}, (PLAIN,)), (base, prone, full, full_odds, (FULL, AIMED))]
        if lying is not None:
            out += [(lying, {}, plain, {}, (PLAIN + PRONE,)), (lying, {}, opened, odds, (FULL + PRONE, AIMED + PRONE))]
        return out
    aim_bonus = rs.attack.aim_bonus
    lying = None
    if trip:
        _undazed(fight, c, t, lambda: read(t))
        with with_conditions(t, Condition.PRONE):
            lying = _undazed(fight, c, t, lambda: read(t))
    for offset, b in ((0, base), (PRONE, lying)):
        if b is None:
            continue
        for mode in (PLAIN, FULL, AIMED):
            aimed = replace(b, first_bonus=aim_bonus) if mode == AIMED else b
            available = plain | ({Block.AIM} if mode == FULL and aim_ok else frozenset())
            aim_odds = {(Block.AIM, t.id): 1.0} if mode == FULL and aim_ok else {}
            out.append((aimed, {}, available, aim_odds, (mode + offset,)))
    return out


def _undazed(fight: Fight, c: Combatant, t: Combatant, read: Any) -> AttackBase | None:
    """``read()``, which Dazed on either creature (G-13, the default) must not change: checked, not assumed."""
    found: AttackBase | None = read()
    for who in (c, t):
        with with_conditions(who, Condition.DAZED):
            if read() != found:
                raise KernelManeuverUnsupported(f"the tactical AI's odds with a Dazed creature (G-13, combatant "
                                                f"{who.id})")
    return found


def _loads(slots: int | None) -> range | tuple[None]:
    """The rounds loaded an option's plans are tabulated for: 0 .. ``slots`` (None: it counts no ammunition)."""
    return (None,) if slots is None else range(slots + 1)


def _melee_codes(engine_views: Sequence[tuple[Cover, bool]]) -> range:
    return range(4 * len(engine_views))


def _option_sit(plain: Any, o: AttackOption, code: int, eviews: Sequence[tuple[Cover, bool]],
                engine_views: Sequence[tuple[Cover, bool]], near_views: set[int]) -> Any | None:
    """The engine's situation of a further option's attack in a table code (None: a code never met)."""
    if o.ranged:
        hostile, close, view = bool(code & 1), bool(code & 2), code // 8
        if view >= len(eviews) or (close and not hostile) or (close and view not in near_views):
            return None
        cover, high = eviews[view]
        if cover is Cover.TOTAL:
            return None
        return dataclasses.replace(plain, flanking=False, hostile_within_5ft=hostile, within_5ft=close, cover=cover,
                                   high_ground=high)
    if code >= 4 * len(engine_views) or code & 1 or not code & 2:
        return None  # the AI's melee attacks: from beside, never flanking (alone on its side)
    cover, high = engine_views[code // 4]
    if cover is Cover.TOTAL:
        return None
    return dataclasses.replace(plain, flanking=False, within_5ft=True, hostile_within_5ft=True, cover=cover,
                               high_ground=high)


__all__ = ["AIM_NAME", "OptionTables", "empty_options", "extra_weapons_problem", "gun_first", "lower_options",
           "option_action_names", "options_problem", "with_aim_label"]
