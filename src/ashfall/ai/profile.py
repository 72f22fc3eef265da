"""What one attack would look like from a given square: the inputs of its exact odds, read off the state.

An :class:`AttackOption` is a way a creature can attack (a weapon, thrown or not, or unarmed). For an
attacker standing on some square (its own, or one it could move to) and a target, :func:`attack_base`
asks the engine's attack pipeline and the rules core what they would use — the situation off the map
(:func:`ashfall.families.attacks.engine.situation`: flanking, high ground, cover, a hostile within 5 ft), the
target's DV (:func:`~ashfall.families.attacks.engine.target_defense`), the roll's modifiers and advantage
sources (:func:`ashfall.families.attacks.rules.prepare_attack`), the damage of a hit
(:func:`~ashfall.families.attacks.rules.build_damage_parts`) and the target's DR and resistances
(:class:`ashfall.rules.damage_defenses.Defenses`) — so the AI's odds are the engine's odds. Nothing is rolled
and
nothing in the state changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ashfall.ai.odds_cache import AttackKey, damage_token
from ashfall.content.schema import Weapon, WeaponKind, WeaponProperty
from ashfall.core.modifiers import RollSource, adv, resolve_advantage, stack
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.engine import Combatant, EncounterState
from ashfall.engine.effects import EffectKind
from ashfall.families.attacks.engine import Situation, situation, suppressed, target_defense
from ashfall.families.attacks.engine_common import mode_for
from ashfall.families.attacks.moves_gear import stowed
from ashfall.families.attacks.rules import AttackContext, auto_crit_rule, build_damage_parts, prepare_attack
from ashfall.families.attacks.rules_activities import ACTIVITIES, Activity, AttackMode
from ashfall.grid.board import Square
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.damage_ledger import damage_expression
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.defense import Cover
from ashfall.rules.errors import RuleViolation
from ashfall.rules.reach import attack_limit_ft
from ashfall.ruleset import Ruleset

_ADV_RULE = rule("HLP-2")
_TRP_3 = rule("TRP-3")


@dataclass(frozen=True, slots=True)
class AttackOption:
    """One way a creature can attack.

    Attributes:
        weapon: The weapon (None: unarmed).
        weapon_id: Its id for intents (None: unarmed).
        mode: The attack mode.
        thrown: Thrown rather than swung.
        unarmed: An unarmed strike.
        ranged: A ranged attack (cover, AMOD-7, ammunition).
        limit_ft: The farthest it reaches: melee reach, or the long range (ATK-1, ATK-2).
        index: Its place among the creature's options (tie-breaks).
    """

    weapon: Weapon | None
    weapon_id: str | None
    mode: AttackMode
    thrown: bool
    unarmed: bool
    ranged: bool
    limit_ft: int
    index: int

    def intent_args(self) -> dict[str, object]:
        """Keyword arguments naming this option in Strike-like intents."""
        args: dict[str, object] = {"weapon": self.weapon_id}
        if self.thrown:
            args["thrown"] = True
        if self.unarmed:
            args["unarmed"] = True
        return args


_OPTIONS: dict[tuple[int, tuple[bool, ...], bool, int], tuple[tuple[Weapon, ...], tuple[AttackOption, ...]]] = {}
_OPTIONS_MAX = 1024
"""Attack options by the weapons tuple's id, which weapons are stowed, whether it is a machine and the natural reach.

A combatant's ``weapons`` is an immutable tuple of frozen weapons that the applier replaces, never mutates, so the
options are a pure function of the key; an entry keeps its tuple alive and is used only while it is that very
tuple, so a reused id never matches another. Nothing invalidates it; emptied when full."""


def attack_options(c: Combatant, state: EncounterState) -> tuple[AttackOption, ...]:
    """Every way the creature can attack now: drawn weapons (thrown ones also thrown), else unarmed (cached)."""
    weapons = c.weapons
    hidden = tuple(stowed(c, w.id) for w in weapons) if c.supplies.keyed else ()
    machine, natural = c.creature.machine, state.ruleset.attack.natural_reach
    key = (id(weapons), hidden, machine, natural)
    known = _OPTIONS.get(key)
    if known is not None and known[0] is weapons:
        return known[1]
    found = _attack_options(weapons, hidden, machine, natural)
    if len(_OPTIONS) >= _OPTIONS_MAX:
        _OPTIONS.clear()
    _OPTIONS[key] = (weapons, found)
    return found


def _attack_options(weapons: tuple[Weapon, ...], hidden: tuple[bool, ...], machine: bool,
                    natural: int) -> tuple[AttackOption, ...]:
    """:func:`attack_options` of a weapons tuple with these weapons stowed (``hidden``: none when empty).

    Each option's limit is the rules' own (:func:`~ashfall.rules.reach.attack_limit_ft`, ATK-1, ATK-2); of the
    ruleset it reads only the natural reach (``natural``), which is part of the cache key.
    """
    found: list[AttackOption] = []
    for i, w in enumerate(weapons):
        if hidden and hidden[i]:
            continue
        if w.kind is WeaponKind.RANGED:
            found.append(AttackOption(w, w.id, mode_for(w), False, False, True, attack_limit_ft(w, True, natural),
                                      len(found)))
            continue
        found.append(AttackOption(w, w.id, mode_for(w), False, False, False, attack_limit_ft(w, False, natural),
                                  len(found)))
        if w.has(WeaponProperty.THROWN):
            found.append(AttackOption(w, w.id, mode_for(w, True), True, False, True,
                                      attack_limit_ft(w, True, natural), len(found)))
    if not any(not o.ranged for o in found) and not machine:
        found.append(AttackOption(None, None, AttackMode.UNARMED, False, True, False,
                                  attack_limit_ft(None, False, natural), len(found)))
    return tuple(found)


def shots_left(c: Combatant, option: AttackOption) -> int | None:
    """Rounds loaded in a ranged weapon that uses ammunition (None: no ammunition to count, G-31)."""
    w = option.weapon
    if w is None or option.mode is not AttackMode.RANGED or w.ammo_capacity is None:
        return None
    return c.ammo.get(w.id, w.ammo_capacity)


@dataclass(frozen=True, slots=True)
class AttackBase:
    """The odds inputs of one attacker-square-target-option, before MAP and the activity.

    Attributes:
        bonus: The attack bonus (ability, proficiency, item, flanking, high ground …) without MAP.
        advantage: Net advantage of the attack rolls (the :class:`Advantage` value).
        first_advantage: Net advantage of the next attack, with "advantage on your next attack" effects (FNT-3,
            HLP-2).
        first_bonus: Extra bonus of the next ranged attack (edition 1's Aim, E-05).
        dv: The target's DV against it.
        full: Damage of a hit and of a crit (:func:`~ashfall.ai.odds_cache.damage_token`).
        dice_only: Weapon dice only (Sweeping Strike's later targets, SWP-3).
        dr: The target's DR against the damage type.
        resist: The target resists it.
        vulnerable: The target is vulnerable to it.
        immune: The target is immune to it.
        auto_crit: Every hit crits (CRIT-5).
        rules: The ruleset token.
    """

    bonus: int
    advantage: str
    first_advantage: str
    first_bonus: int
    dv: int
    full: int
    dice_only: int
    dr: int
    resist: bool
    vulnerable: bool
    immune: bool
    auto_crit: bool
    rules: int

    def key(self, number: int, *, power: bool = False, extra: int = 0, first: bool = False,
            dice_only: bool = False) -> AttackKey:
        """The odds key of one attack of a plan (``number``: its MAP position, 1 for no MAP)."""
        return AttackKey(
            self.bonus + extra + (self.first_bonus if first else 0), self.dv,
            self.dice_only if dice_only else self.full, self.first_advantage if first else self.advantage,
            number, power, self.dr, self.resist, self.vulnerable, self.immune, self.auto_crit, self.rules,
        )


def activity_bonus(activity: Activity, state: EncounterState) -> int:
    """The activity's own attack modifier (-2 for Full Auto Burst and Sweeping Strike: MAA-2, SWP-1)."""
    return ACTIVITIES[activity].attack(state.ruleset.attack) or 0


def activity_allowed(c: Combatant, option: AttackOption, activity: Activity, state: EncounterState) -> bool:
    """Whether the rules core allows this activity with this option (G-36, E-10, MAA-2's ranged-only …).

    The answer depends on the stat block, the weapon, the mode and the ruleset only: it is cached by their
    identities (kept alive with the answer, so an identity is never reused for another object).
    """
    key = (id(c.creature), id(option.weapon), option.mode._value_, activity._value_, id(state.ruleset))
    found = _ALLOWED.get(key)
    if found is None:
        try:
            prepare_attack(c.creature, option.weapon, option.mode, state.ruleset, AttackContext(activity=activity))
            allowed = True
        except RuleViolation:
            allowed = False
        if len(_ALLOWED) >= _CORES_MAX:
            _ALLOWED.clear()
        found = _ALLOWED[key] = (allowed, (c.creature, option.weapon, state.ruleset))
    return found[0]


_ALLOWED: dict[tuple[object, ...], tuple[bool, tuple[object, ...]]] = {}


def _first_sources(state: EncounterState, attacker: Combatant, target: Combatant,
                   ranged: bool) -> tuple[RollSource, ...]:
    """Advantage the attacker's next attack has from Feint or Help (FNT-3, HLP-2): read, not used up."""
    found: list[RollSource] = []
    for e in state.effects_on(attacker.id, EffectKind.ADVANTAGE_NEXT_ATTACK):
        if e.against in (None, target.id) and not (e.melee_only and ranged):
            found.append(adv(_ADV_RULE, "advantage on the next attack"))
    return tuple(found)


def _damage_token(parts: tuple[DamagePart, ...], ruleset: Ruleset) -> int:
    """The odds token of a hit's damage parts: the hit and the crit as the damage rules build them (G-40)."""
    return damage_token(damage_expression(parts, ruleset), damage_expression(parts, ruleset, critical=True))


@dataclass(frozen=True, slots=True)
class _Core:
    """The part of an attack's odds inputs that only stat blocks, conditions and the situation decide."""

    bonus: int
    sources: tuple[RollSource, ...]
    dv: int
    full: int
    dice_only: int
    dr: int
    resist: bool
    vulnerable: bool
    immune: bool
    auto_crit: bool
    keep: tuple[object, ...]
    """The stat blocks and gear the cache key names by identity, kept alive so their ids stay theirs."""
    plain: dict[int, AttackBase] = field(default_factory=dict, compare=False, repr=False)
    """The odds inputs built on this core while no timed effect is in play, by ruleset token (see :func:`base_for`).

    Without effects nothing else goes into them, so they live exactly as long as the core (bounded by the tokens).
    """


_CORES: dict[tuple[object, ...], _Core | None] = {}
_CORES_MAX = 1 << 15


def _core(state: EncounterState, attacker: Combatant, target: Combatant, option: AttackOption, sit: Situation,
          defenses: Defenses | None, a_conditions: frozenset[Condition],
          t_conditions: frozenset[Condition]) -> _Core | None:
    """Modifiers, DV and damage of the attack, cached by stat blocks (identity), conditions and situation."""
    key = (id(attacker.creature), id(option.weapon), option.mode._value_, id(target.creature), id(target.armor),
           id(target.shield), id(state.ruleset), sit.flanking, sit.high_ground, sit.hostile_within_5ft,
           sit.within_5ft, sit.cover._value_, sit.flat_footed, sit.unseen_attacker, sit.leaning_out, a_conditions,
           t_conditions)
    if key in _CORES:
        return _CORES[key]
    found = _build_core(state, attacker, target, option, sit, defenses, a_conditions, t_conditions)
    if len(_CORES) >= _CORES_MAX:
        _CORES.clear()
    _CORES[key] = found
    return found


def _build_core(state: EncounterState, attacker: Combatant, target: Combatant, option: AttackOption, sit: Situation,
                defenses: Defenses | None, a_conditions: frozenset[Condition],
                t_conditions: frozenset[Condition]) -> _Core | None:
    dv = target_defense(state, attacker, target, option.weapon, option.mode, sit)
    if dv.untargetable_reason is not None:
        return None
    rs = state.ruleset
    context = AttackContext(
        activity=Activity.STRIKE, flanking=sit.flanking, high_ground=sit.high_ground,
        hostile_within_5ft=sit.hostile_within_5ft, within_5ft=sit.within_5ft, target_conditions=t_conditions,
        attacker_conditions=a_conditions, unseen_attacker=sit.unseen_attacker,
    )
    try:
        prepared = prepare_attack(attacker.creature, option.weapon, option.mode, rs, context)
    except RuleViolation:
        return None
    parts = build_damage_parts(attacker.creature, prepared, context, rs)
    if not parts:
        return None
    dice_only = build_damage_parts(attacker.creature, prepared, context, rs, dice_only=True)
    dtype = parts[0].type
    d = defenses or Defenses.of_creature(target.creature, target.armor, t_conditions)
    return _Core(
        stack(prepared.modifiers).total, prepared.sources, dv.total, _damage_token(parts, rs),
        _damage_token(dice_only, rs), d.dr_against(dtype, rs).amount, d.resistance_rule(dtype) is not None,
        d.is_vulnerable(dtype), d.immunity_rule(dtype) is not None,
        auto_crit_rule(prepared, t_conditions, sit.within_5ft) is not None,
        (attacker.creature, option.weapon, target.creature, target.armor, target.shield, state.ruleset),
    )


def base_for(state: EncounterState, attacker: Combatant, target: Combatant, option: AttackOption, sit: Situation,
             token: int, defenses: Defenses | None = None, conditions: tuple[frozenset[Condition],
                                                                              frozenset[Condition]] | None = None
             ) -> AttackBase | None:
    """The odds inputs of an attack in a known situation (see :func:`attack_base`); None if it cannot be made.

    ``conditions`` are the attacker's and the target's condition sets when the caller already has them.
    """
    if sit.cover is Cover.TOTAL and not sit.leaning_out:
        return None
    a_conditions, t_conditions = conditions or (attacker.condition_set, target.condition_set)
    core = _core(state, attacker, target, option, sit, defenses, a_conditions, t_conditions)
    if core is None:
        return None
    if not state.effects:  # no suppression, no "advantage on the next attack", no Aim: the core decides it all
        found = core.plain.get(token)
        if found is None:
            net = resolve_advantage(core.sources)._value_
            found = core.plain[token] = AttackBase(
                core.bonus, net, net, 0, core.dv, core.full, core.dice_only, core.dr, core.resist,
                core.vulnerable, core.immune, core.auto_crit, token)
        return found
    sources = core.sources
    pinned = suppressed(state, attacker)
    if pinned:
        sources = (*sources, *pinned)
    advantage = resolve_advantage(sources)
    extra = _first_sources(state, attacker, target, option.ranged)
    first_adv = resolve_advantage((*sources, *extra)) if extra else advantage
    rs = state.ruleset
    aimed = bool(option.ranged and rs.attack.aim_available and state.effects_on(attacker.id, EffectKind.AIMED))
    return AttackBase(
        core.bonus, advantage._value_, first_adv._value_, rs.attack.aim_bonus if aimed else 0, core.dv, core.full,
        core.dice_only, core.dr, core.resist, core.vulnerable, core.immune, core.auto_crit, token,
    )


def prone_copy(attacker: Combatant, target: Combatant) -> Combatant:
    """A copy of the target lying prone (what a successful Trip leaves, TRP-3): for what-if odds only."""
    if target.has(Condition.PRONE):
        return target
    return replace(target, conditions=(*target.conditions, AppliedCondition(Condition.PRONE, _TRP_3, attacker.id)))


def attack_base(state: EncounterState, attacker: Combatant, square: Square | None, target: Combatant,
                option: AttackOption, token: int, defenses: Defenses | None = None, *,
                prone: bool = False) -> AttackBase | None:
    """The odds inputs of attacking ``target`` from ``square`` (None: where the attacker stands).

    The situation comes from the engine's own :func:`~ashfall.families.attacks.engine.situation`.

    Args:
        state: The encounter (read only).
        attacker: The attacker.
        square: Where it would stand (None: where it stands).
        target: The target.
        option: How it attacks.
        token: :func:`~ashfall.ai.odds_cache.ruleset_token` of the ruleset.
        defenses: The target's defenses, if already built.
        prone: Assume the target lies prone (after a Trip, TRP-3).

    Returns:
        None when the target is out of reach or range from there, or cannot be targeted (total cover).
    """
    here = attacker if square is None or square == attacker.position else attacker.standing_on(square)
    if here.space and target.space and space_distance_ft(here.space, target.space) > option.limit_ft:
        return None
    if prone:
        target = prone_copy(attacker, target)
    sit = situation(state, here, target, option.ranged)
    return base_for(state, here, target, option, sit, token, defenses)
