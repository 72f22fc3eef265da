"""Conditions as data: what each condition does to attacks, saves, checks, DV, speed and actions.

Owns the registry :data:`CONDITIONS` (one frozen :class:`ConditionDef` per :class:`Condition`, each effect
naming its rule), implication (:func:`expand`: Paralyzed implies Incapacitated, Dying implies Unconscious
...) and the queries the attack, save, DV and turn code ask. The registry itself lives in
:mod:`ashfall.rules.condition_table`; conditions that carry a source creature or a duration are
handled by :mod:`ashfall.rules.condition_durations`. Every returned source, modifier or rule ID names the rule
that produces it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass

from ashfall.core.modifiers import Modifier, ModifierKind, RollSource
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType, Save, Skill
from ashfall.rules.condition_table import (
    CONDITIONS,
    ActionCap,
    AttackEffect,
    CheckEffect,
    ConditionDef,
    EndTrigger,
    Implication,
    NumberEffect,
    Reach,
    SaveEffect,
    Sense,
)
from ashfall.ruleset import Ruleset, preset

__all__ = [
    "CONDITIONS",
    "ActionBudget",
    "ActionCap",
    "AttackEffect",
    "CheckEffect",
    "ConditionDef",
    "DamageTraits",
    "EndTrigger",
    "Implication",
    "NumberEffect",
    "Reach",
    "SaveEffect",
    "Sense",
    "Verdict",
    "agi_to_dv_after_conditions",
    "attack_sources",
    "auto_crit",
    "blocks_healing",
    "can_react",
    "cannot_breathe",
    "cannot_speak",
    "check_auto_fail",
    "check_sources",
    "condition_immunities",
    "damage_traits",
    "drops_held_items",
    "dv_modifiers",
    "exhaustion_modifiers",
    "expand",
    "is_helpless",
    "loses_concentration",
    "loses_positive_agi",
    "max_actions",
    "morale_fear",
    "must_guess_square",
    "passive_perception_modifiers",
    "provokes_opportunity_attacks",
    "save_auto_fail",
    "save_sources",
    "speed_divisor",
    "speed_is_zero",
    "stand_up_cost",
    "target_flat_footed_against",
    "weight_multiplier",
]

_HELPLESS = rule("C-HLP")
_UNAWARE = rule("G-11")
_HIDDEN = rule("G-20")
_EXHAUSTION = rule("G-17")
_ORDER = {c: i for i, c in enumerate(Condition)}


@dataclass(frozen=True, slots=True)
class Verdict:
    """A yes/no answer with the rule that decides it; truthy when ``allowed``."""

    allowed: bool
    rule: RuleId | None = None

    def __bool__(self) -> bool:
        return self.allowed


@dataclass(frozen=True, slots=True)
class ActionBudget:
    """How many actions a creature has this turn and the rule that capped them (None: no cap)."""

    actions: int
    rule: RuleId | None = None


@dataclass(frozen=True, slots=True)
class DamageTraits:
    """Damage defences a condition grants: resistance to everything (C-PET) and immune types."""

    resist_all: RuleId | None
    immune: frozenset[DamageType]
    immune_rules: tuple[RuleId, ...] = ()


# ----- implication -----


def expand(conditions: Collection[Condition], ruleset: Ruleset | None = None) -> frozenset[Condition]:
    """The conditions with everything they imply, transitively (Dying -> Unconscious -> Prone ...).

    Args:
        conditions: The conditions a creature has.
        ruleset: Decides option-dependent implications (Dazed as flat-footed, G-13; unaware is
            flat-footed, G-11). Defaults to the current edition.
    """
    rs = ruleset or preset()
    seen = set(conditions)
    todo = list(seen)
    while todo:
        for imp in CONDITIONS[todo.pop()].implies:
            if imp.condition not in seen and imp.when(rs):
                seen.add(imp.condition)
                todo.append(imp.condition)
    return frozenset(seen)


def _defs(conditions: Collection[Condition], ruleset: Ruleset | None = None) -> Iterator[ConditionDef]:
    if not conditions:  # the usual case: nothing implies anything, so no set to expand and sort
        return
    for c in sorted(expand(conditions, ruleset), key=_ORDER.__getitem__):
        yield CONDITIONS[c]


def is_helpless(conditions: Collection[Condition]) -> RuleId | None:
    """C-HLP when the creature is restrained and incapacitated at once (Helpless, Coup de Grace), else None."""
    full = expand(conditions)
    return _HELPLESS if {Condition.RESTRAINED, Condition.INCAPACITATED} <= full else None


# ----- d20 tests -----


def _effect_on(e: AttackEffect, melee: bool, within_5ft: bool, ruleset: Ruleset) -> bool:
    return e.reach.matches(melee=melee, within_5ft=within_5ft, ruleset=ruleset) and (e.when is None or e.when(ruleset))


def attack_sources(
    attacker: Collection[Condition],
    target: Collection[Condition],
    *,
    melee: bool,
    within_5ft: bool,
    ruleset: Ruleset,
    fear_source_visible: bool = True,
    attacker_sees_invisible: bool = False,
    target_sees_invisible: bool = False,
) -> tuple[RollSource, ...]:
    """Advantage/disadvantage sources that conditions put on one attack roll.

    Args:
        attacker: The attacker's conditions (its own attacks: Blinded, Prone, Invisible ...).
        target: The target's conditions (attacks against it: Prone, Restrained, Dodging ...).
        melee: A melee attack (Prone: X-02).
        within_5ft: The attacker is within 5 ft of the target.
        ruleset: Options (``defense.prone_melee``, ``conditions.hidden_targets_guessed``).
        fear_source_visible: The attacker's fear source is in view (Frightened, C-FRI).
        attacker_sees_invisible: The attacker has a special sense that sees the invisible (C-INV).
        target_sees_invisible: The target has such a sense.
    """
    out: list[RollSource] = []
    for d in _defs(attacker, ruleset):
        out.extend(
            e.source for e in d.attacks
            if not e.against_bearer and _effect_on(e, melee, within_5ft, ruleset)
            and (fear_source_visible or not e.needs_source_visible)
            and not (e.seen_by_special_senses and target_sees_invisible)
        )
    for d in _defs(target, ruleset):
        out.extend(
            e.source for e in d.attacks
            if e.against_bearer and _effect_on(e, melee, within_5ft, ruleset)
            and not (e.seen_by_special_senses and attacker_sees_invisible)
        )
    return tuple(out)


def must_guess_square(target: Collection[Condition], ruleset: Ruleset) -> RuleId | None:
    """G-20 when attacks against the target must name a guessed square (it is Hidden), else None."""
    if ruleset.conditions.hidden_targets_guessed and Condition.HIDDEN in expand(target, ruleset):
        return _HIDDEN
    return None


def auto_crit(target: Collection[Condition], *, melee: bool, within_5ft: bool) -> RuleId | None:
    """The rule making a hit an automatic crit (Paralyzed/Unconscious within 5 ft, CRIT-5), or None."""
    if not (melee and within_5ft):
        return None
    return next((d.auto_crit_melee_5ft for d in _defs(target) if d.auto_crit_melee_5ft), None)


def save_auto_fail(conditions: Collection[Condition], save: Save) -> RuleId | None:
    """The rule that makes the creature fail this save automatically (C-PAR, C-STU, C-UNC), or None.

    "AGI saves" are Reflex saves and Fortitude is never auto-failed (G-22).
    """
    return next((d.rule for d in _defs(conditions) if save in d.auto_fail_saves), None)


def save_sources(conditions: Collection[Condition], save: Save) -> tuple[RollSource, ...]:
    """Advantage/disadvantage sources on a save (Restrained: AGI saves; Dodging; Shaken: Will)."""
    return tuple(e.source for d in _defs(conditions) for e in d.saves if e.save is save)


def check_sources(
    conditions: Collection[Condition], skill: Skill | None, *, fear_source_visible: bool = True
) -> tuple[RollSource, ...]:
    """Advantage/disadvantage sources on an ability check (Poisoned, Frightened ...).

    Args:
        conditions: The checking creature's conditions.
        skill: The skill used, or None for a plain attribute check.
        fear_source_visible: The creature's fear source is in view (Frightened, C-FRI).
    """
    return tuple(
        e.source for d in _defs(conditions) for e in d.checks
        if (not e.skills or skill in e.skills) and (fear_source_visible or not e.needs_source_visible)
    )


def check_auto_fail(conditions: Collection[Condition], sense: Sense) -> RuleId | None:
    """The rule that fails a check relying on ``sense`` outright (Blinded: sight, Deafened: hearing), or None."""
    return next((d.rule for d in _defs(conditions) if sense in d.auto_fail_checks), None)


def exhaustion_modifiers(level: int, ruleset: Ruleset) -> tuple[Modifier, ...]:
    """The GM placeholder penalty on d20 tests for an Exhaustion level (none by default, G-17)."""
    value = level * ruleset.conditions.exhaustion_penalty_per_level
    if value == 0:
        return ()
    return (Modifier(value, ModifierKind.CONDITION, _EXHAUSTION, f"Exhaustion {level}"),)


# ----- Defense Value -----


def dv_modifiers(
    conditions: Collection[Condition], ruleset: Ruleset, *, fear_source_visible: bool = True
) -> tuple[Modifier, ...]:
    """DV modifiers from conditions (Frightened -2, DV-8)."""
    return tuple(
        e.modifier(ruleset) for d in _defs(conditions, ruleset) for e in d.dv
        if fear_source_visible or not e.needs_source_visible
    )


def loses_positive_agi(conditions: Collection[Condition], *, ruleset: Ruleset | None = None) -> RuleId | None:
    """The rule by which the creature loses its positive AGI to DV (flat-footed, FF-2), or None."""
    return next((d.loses_positive_agi for d in _defs(conditions, ruleset) if d.loses_positive_agi), None)


def target_flat_footed_against(
    attacker: Collection[Condition],
    target: Collection[Condition],
    ruleset: Ruleset,
    *,
    target_aware_of_attacker: bool = True,
) -> RuleId | None:
    """Why the target loses its positive AGI against this attack, or None.

    Flat-footed targets (FF-2) always do. With ``conditions.unaware_targets_flat_footed`` (G-11, G-46)
    so does a target unaware of the attacker: the attacker is Hidden (G-20) or the engine says so.
    """
    own = loses_positive_agi(target, ruleset=ruleset)
    if own:
        return own
    if not ruleset.conditions.unaware_targets_flat_footed:
        return None
    if Condition.HIDDEN in expand(attacker, ruleset):
        return _HIDDEN
    return None if target_aware_of_attacker else _UNAWARE


def agi_to_dv_after_conditions(
    agi_to_dv: int, conditions: Collection[Condition], ruleset: Ruleset
) -> tuple[int, RuleId | None]:
    """The AGI a creature adds to DV given its conditions, and the rule that changed it.

    A flat-footed creature loses a positive AGI (FF-2); a negative AGI still applies unless
    ``defense.flat_footed_keeps_negative_agi`` is off (G-11, G-46).
    """
    why = loses_positive_agi(conditions, ruleset=ruleset)
    if why is None:
        return agi_to_dv, None
    kept = min(agi_to_dv, 0) if ruleset.defense.flat_footed_keeps_negative_agi else 0
    return kept, why


# ----- actions, movement, perception -----


def max_actions(conditions: Collection[Condition], ruleset: Ruleset) -> ActionBudget:
    """Actions the creature has on its turn: 3 (AE-1), 2 while Dazed (G-13), 0 while incapacitated (C-INC)."""
    budget = ActionBudget(ruleset.turn.actions_per_turn)
    for d in _defs(conditions, ruleset):
        cap = d.action_cap
        if cap is not None and cap.when(ruleset):
            n = cap.actions(ruleset)
            if n < budget.actions:
                budget = ActionBudget(n, cap.rule)
    return budget


_MAY_REACT = Verdict(True)


def can_react(conditions: Collection[Condition], ruleset: Ruleset) -> Verdict:
    """Whether the creature may take reactions; when not, the rule (C-INC, FF-3, G-13)."""
    if not conditions:  # asked for every creature on every trigger; the answer is frozen, so it is shared
        return _MAY_REACT
    for d in _defs(conditions, ruleset):
        gate = d.no_reactions
        if gate is not None and gate.when(ruleset):
            return Verdict(False, gate.rule)
    return Verdict(True)


def speed_is_zero(conditions: Collection[Condition]) -> RuleId | None:
    """The rule that sets speed to 0 (no speed bonuses apply either, C-GRA), or None."""
    return next((d.speed_zero for d in _defs(conditions) if d.speed_zero), None)


def speed_divisor(conditions: Collection[Condition], ruleset: Ruleset) -> tuple[int, RuleId | None]:
    """What the creature's speed is divided by (Prone: crawl at half speed, C-PRO) and why."""
    why = next((d.crawl_only for d in _defs(conditions, ruleset) if d.crawl_only), None)
    return (ruleset.conditions.prone_crawl_divisor, why) if why else (1, None)


def stand_up_cost(conditions: Collection[Condition], ruleset: Ruleset) -> tuple[int, RuleId | None]:
    """Actions standing up costs (1 while Prone, C-PRO; 0 when not prone) and the rule."""
    if Condition.PRONE in expand(conditions, ruleset):
        return ruleset.conditions.prone_stand_actions, CONDITIONS[Condition.PRONE].rule
    return 0, None


def passive_perception_modifiers(conditions: Collection[Condition], ruleset: Ruleset) -> tuple[Modifier, ...]:
    """Passive Perception modifiers: Blinded -10 (C-BLI), Deafened -10 (C-DEA) (G-24)."""
    return tuple(e.modifier(ruleset) for d in _defs(conditions, ruleset) for e in d.passive_perception)


def provokes_opportunity_attacks(conditions: Collection[Condition]) -> Verdict:
    """Whether moving away provokes attacks of opportunity; a Dodging creature does not (DOD-1, DOD-2)."""
    why = next((d.no_opportunity_attacks for d in _defs(conditions) if d.no_opportunity_attacks), None)
    return Verdict(why is None, why)


def cannot_speak(conditions: Collection[Condition]) -> RuleId | None:
    """The rule that silences the creature (Paralyzed, Petrified, Unconscious), else None."""
    return next((d.cannot_speak for d in _defs(conditions) if d.cannot_speak), None)


def cannot_breathe(conditions: Collection[Condition]) -> RuleId | None:
    """The rule that stops the creature breathing (Buried G-18, Drowning G-16: hold breath, UW-1), else None."""
    return next((d.cannot_breathe for d in _defs(conditions) if d.cannot_breathe), None)


def blocks_healing(conditions: Collection[Condition]) -> RuleId | None:
    """G-15 when the creature can neither stabilise nor regain HP (Suffocating), else None."""
    return next((d.blocks_healing for d in _defs(conditions) if d.blocks_healing), None)


def weight_multiplier(conditions: Collection[Condition], ruleset: Ruleset) -> tuple[int, RuleId | None]:
    """What the creature's weight is multiplied by (Petrified x10, C-PET) and why."""
    for d in _defs(conditions, ruleset):
        if d.weight_factor is not None:
            return d.weight_factor(ruleset), d.rule
    return 1, None


def loses_concentration(conditions: Collection[Condition]) -> RuleId | None:
    """C-INC when the creature's concentration ends (incapacitated, G-19), else None."""
    return next((d.ends_concentration for d in _defs(conditions) if d.ends_concentration), None)


def drops_held_items(conditions: Collection[Condition]) -> RuleId | None:
    """C-UNC when the creature drops everything it holds, else None."""
    return next((d.drops_held for d in _defs(conditions) if d.drops_held), None)


def morale_fear(condition: Condition) -> bool:
    """True for the fear conditions of morale Trigger 4: Frightened and Shaken (MOR-10, G-14)."""
    return CONDITIONS[condition].morale_fear


# ----- damage and immunities -----


def damage_traits(conditions: Collection[Condition]) -> DamageTraits:
    """Damage defences from conditions: Petrified resists all damage and is immune to poison (C-PET)."""
    defs = list(_defs(conditions))
    resist = next((d.resist_all_damage for d in defs if d.resist_all_damage), None)
    immune = frozenset(t for d in defs for t in d.immune_damage)
    rules = tuple(d.rule for d in defs if d.immune_damage)
    return DamageTraits(resist, immune, rules)


def condition_immunities(conditions: Collection[Condition]) -> dict[Condition, RuleId]:
    """Conditions the creature cannot gain, each with the rule (Petrified: Poisoned, C-PET)."""
    return {c: d.rule for d in _defs(conditions) for c in d.immune_conditions}
