"""The condition registry: one frozen :class:`ConditionDef` per :class:`Condition`, every effect with its rule.

The fourteen chapter conditions (C-BLI ... C-UNC, lines 837-932), the inline ones (Helpless C-HLP,
Buried C-BUR / G-18, Hidden G-20, Stabilized C-STB, Dodging DOD-1), the undefined ones with our
rulings (Dazed G-13, Shaken G-14, Flat-Footed G-11, Suffocating G-15, Drowning G-16, Exhaustion G-17)
and the life track (Dying, Stabilized, Dead). Numbers come from the ruleset through small getters;
:mod:`ashfall.rules.conditions` answers questions from this table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from ashfall.core.modifiers import Modifier, ModifierKind, RollSource
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType, Save, Skill
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import DazedEffect, ProneMelee

Switch = Callable[[Ruleset], bool]
"""A ruleset predicate: whether an option-dependent effect is on."""


def _always(_: Ruleset) -> bool:
    return True


class Reach(Enum):
    """Which attacks an attack effect applies to."""

    ANY = "any"
    MELEE = "melee"
    RANGED = "ranged"
    MELEE_WITHIN_5FT = "melee-within-5-ft"
    PRONE_MELEE = "prone-melee"
    """Melee, or only melee within 5 ft when ``defense.prone_melee`` says so (X-02)."""

    def matches(self, *, melee: bool, within_5ft: bool, ruleset: Ruleset) -> bool:
        """Whether an attack with these properties is covered."""
        return _REACH[self](melee, within_5ft, ruleset)


_REACH: dict[Reach, Callable[[bool, bool, Ruleset], bool]] = {
    Reach.ANY: lambda m, w, rs: True,
    Reach.MELEE: lambda m, w, rs: m,
    Reach.RANGED: lambda m, w, rs: not m,
    Reach.MELEE_WITHIN_5FT: lambda m, w, rs: m and w,
    Reach.PRONE_MELEE: lambda m, w, rs: m and (w or rs.defense.prone_melee is ProneMelee.ALL_MELEE),
}


class Sense(Enum):
    """The sense a check relies on (Blinded fails sight-based checks, Deafened hearing-based ones)."""

    SIGHT = "sight"
    HEARING = "hearing"


class EndTrigger(Enum):
    """Events that end a condition besides its duration.

    See :func:`ashfall.rules.condition_durations.end_on`.
    """

    HARMED_BY_SOURCE_SIDE = "harmed-by-source-side"  # Charmed (C-CHA)
    SOURCE_INCAPACITATED = "source-incapacitated"  # Grappled (C-GRA)
    OUT_OF_SOURCE_REACH = "out-of-source-reach"  # Grappled (C-GRA)
    ESCAPED = "escaped"  # Grappled (C-GRA)
    STANDS_UP = "stands-up"  # Prone (C-PRO)
    ATTACKS = "attacks"  # Hidden (G-20)
    MAKES_NOISE = "makes-noise"  # Hidden (G-20)
    FOUND = "found"  # Hidden (G-20, Search)
    DUG_OUT = "dug-out"  # Buried (G-18)
    CAN_BREATHE = "can-breathe"  # Suffocating (G-15)
    SURFACES = "surfaces"  # Drowning (G-16)


@dataclass(frozen=True, slots=True)
class Implication:
    """A condition implied by another (Paralyzed -> Incapacitated), possibly only under an option."""

    condition: Condition
    rule: RuleId
    when: Switch = _always


@dataclass(frozen=True, slots=True)
class AttackEffect:
    """Advantage or disadvantage a condition gives to its bearer's attacks or to attacks against it.

    Attributes:
        advantage: Advantage (True) or disadvantage (False).
        rule: The rule that grants it.
        label: Short name for presenters.
        against_bearer: True for attacks against the bearer, False for the bearer's own attacks.
        reach: Which attacks it applies to.
        needs_source_visible: Only while the condition's source is in view (Frightened).
        seen_by_special_senses: Cancelled when the other side sees the invisible (C-INV).
        when: Only while this ruleset predicate holds.
    """

    advantage: bool
    rule: RuleId
    label: str
    against_bearer: bool
    reach: Reach = Reach.ANY
    needs_source_visible: bool = False
    seen_by_special_senses: bool = False
    when: Switch | None = None

    @property
    def source(self) -> RollSource:
        """The roll source this effect contributes."""
        return RollSource(self.advantage, self.rule, self.label)


@dataclass(frozen=True, slots=True)
class SaveEffect:
    """Advantage or disadvantage on one save (Restrained: Reflex, G-22)."""

    advantage: bool
    save: Save
    rule: RuleId
    label: str

    @property
    def source(self) -> RollSource:
        """The roll source this effect contributes."""
        return RollSource(self.advantage, self.rule, self.label)


@dataclass(frozen=True, slots=True)
class CheckEffect:
    """Advantage or disadvantage on ability checks; ``skills`` empty means every check."""

    advantage: bool
    rule: RuleId
    label: str
    skills: frozenset[Skill] = frozenset()
    needs_source_visible: bool = False

    @property
    def source(self) -> RollSource:
        """The roll source this effect contributes."""
        return RollSource(self.advantage, self.rule, self.label)


@dataclass(frozen=True, slots=True)
class NumberEffect:
    """A ruleset number a condition adds (DV, passive Perception)."""

    rule: RuleId
    label: str
    value: Callable[[Ruleset], int]
    needs_source_visible: bool = False

    def modifier(self, ruleset: Ruleset) -> Modifier:
        """The labelled modifier under ``ruleset``."""
        return Modifier(self.value(ruleset), ModifierKind.CONDITION, self.rule, self.label)


@dataclass(frozen=True, slots=True)
class ActionCap:
    """The most actions the bearer has on its turn."""

    rule: RuleId
    actions: Callable[[Ruleset], int]
    when: Switch = _always


@dataclass(frozen=True, slots=True)
class Gate:
    """A yes/no effect under an option (no reactions while Dazed, G-13)."""

    rule: RuleId
    when: Switch = _always


@dataclass(frozen=True, slots=True)
class TurnDamage:
    """Damage the bearer takes at the start of each of its turns (Buried, G-18)."""

    rule: RuleId
    label: str
    type: DamageType
    dice: Callable[[Ruleset], str]


@dataclass(frozen=True, slots=True)
class ConditionDef:
    """Everything one condition does, as data. Empty/None fields mean "no such effect"."""

    condition: Condition
    rule: RuleId
    implies: tuple[Implication, ...] = ()
    attacks: tuple[AttackEffect, ...] = ()
    auto_fail_saves: frozenset[Save] = frozenset()
    saves: tuple[SaveEffect, ...] = ()
    checks: tuple[CheckEffect, ...] = ()
    auto_fail_checks: frozenset[Sense] = frozenset()
    auto_crit_melee_5ft: RuleId | None = None
    dv: tuple[NumberEffect, ...] = ()
    loses_positive_agi: RuleId | None = None
    action_cap: ActionCap | None = None
    no_reactions: Gate | None = None
    speed_zero: RuleId | None = None
    crawl_only: RuleId | None = None
    no_opportunity_attacks: RuleId | None = None
    cannot_speak: RuleId | None = None
    passive_perception: tuple[NumberEffect, ...] = ()
    ends_concentration: RuleId | None = None
    drops_held: RuleId | None = None
    morale_fear: bool = False
    resist_all_damage: RuleId | None = None
    immune_damage: frozenset[DamageType] = frozenset()
    immune_conditions: frozenset[Condition] = frozenset()
    weight_factor: Callable[[Ruleset], int] | None = None
    cannot_breathe: RuleId | None = None
    blocks_healing: RuleId | None = None
    turn_damage: TurnDamage | None = None
    forbids_harming_source: bool = False
    forbids_approaching_source: bool = False
    source_check_advantage: frozenset[Skill] = frozenset()
    ends_on: frozenset[EndTrigger] = field(default_factory=frozenset)
    leveled: bool = False


C = Condition
R = rule
_MIG_REFLEX = frozenset({Save.MIG, Save.REFLEX})  # "MIG and AGI saves" (G-22)
_SOCIAL = frozenset({Skill.DECEPTION, Skill.PERSUASION, Skill.INTIMIDATION})
_INCAP = {r: Implication(C.INCAPACITATED, R(r)) for r in ("C-PAR", "C-PET", "C-STU", "C-UNC")}


def _unaware(rs: Ruleset) -> bool:
    return rs.conditions.unaware_targets_flat_footed


def _dazed(effect: DazedEffect) -> Switch:
    return lambda rs: rs.conditions.dazed is effect


def _hidden_guessed(rs: Ruleset) -> bool:
    return rs.conditions.hidden_targets_guessed


def _shaken_attacks(rs: Ruleset) -> bool:
    return rs.conditions.shaken_attack_disadvantage


def _unconscious_advantage(rs: Ruleset) -> bool:
    return rs.conditions.unconscious_attackers_advantage


def _mine(adv: bool, r: str, label: str, *, visible: bool = False, senses: bool = False) -> AttackEffect:
    """An effect on the bearer's own attacks."""
    return AttackEffect(adv, R(r), label, False, needs_source_visible=visible, seen_by_special_senses=senses)


def _theirs(adv: bool, r: str, label: str, reach: Reach = Reach.ANY, *, senses: bool = False) -> AttackEffect:
    """An effect on attacks against the bearer."""
    return AttackEffect(adv, R(r), label, True, reach, seen_by_special_senses=senses)


_DEFS = (
    ConditionDef(
        C.BLINDED, R("C-BLI"),
        attacks=(_mine(False, "C-BLI", "attacker blinded"), _theirs(True, "C-BLI", "target blinded")),
        auto_fail_checks=frozenset({Sense.SIGHT}),
        passive_perception=(NumberEffect(R("C-BLI"), "Blinded", lambda rs: rs.conditions.blinded_passive),),
    ),
    ConditionDef(
        C.CHARMED, R("C-CHA"), forbids_harming_source=True, source_check_advantage=_SOCIAL,
        ends_on=frozenset({EndTrigger.HARMED_BY_SOURCE_SIDE}),
    ),
    ConditionDef(
        C.DEAFENED, R("C-DEA"), auto_fail_checks=frozenset({Sense.HEARING}),
        passive_perception=(NumberEffect(R("C-DEA"), "Deafened", lambda rs: rs.conditions.deafened_passive),),
    ),
    ConditionDef(
        C.FRIGHTENED, R("C-FRI"),
        attacks=(_mine(False, "C-FRI", "attacker frightened", visible=True),),
        checks=(CheckEffect(False, R("C-FRI"), "frightened", needs_source_visible=True),),
        dv=(NumberEffect(R("DV-8"), "Frightened", lambda rs: rs.defense.frightened_dv, True),),
        forbids_approaching_source=True, morale_fear=True,
    ),
    ConditionDef(
        C.GRAPPLED, R("C-GRA"), speed_zero=R("C-GRA"),
        ends_on=frozenset({EndTrigger.SOURCE_INCAPACITATED, EndTrigger.OUT_OF_SOURCE_REACH, EndTrigger.ESCAPED}),
    ),
    ConditionDef(
        C.INCAPACITATED, R("C-INC"), action_cap=ActionCap(R("C-INC"), lambda rs: 0),
        no_reactions=Gate(R("C-INC")), ends_concentration=R("C-INC"),
    ),
    ConditionDef(
        C.INVISIBLE, R("C-INV"),
        attacks=(
            _mine(True, "C-INV", "attacker invisible", senses=True),
            _theirs(False, "C-INV", "target invisible", senses=True),
        ),
    ),
    ConditionDef(
        C.PARALYZED, R("C-PAR"), implies=(_INCAP["C-PAR"],), attacks=(_theirs(True, "C-PAR", "target paralyzed"),),
        auto_fail_saves=_MIG_REFLEX, auto_crit_melee_5ft=R("CRIT-5"), speed_zero=R("C-PAR"), cannot_speak=R("C-PAR"),
    ),
    ConditionDef(
        C.PETRIFIED, R("C-PET"),
        implies=(_INCAP["C-PET"], Implication(C.FLAT_FOOTED, R("FF-1"), _unaware)),
        speed_zero=R("C-PET"), cannot_speak=R("C-PET"), resist_all_damage=R("C-PET"),
        immune_damage=frozenset({DamageType.POISON}), immune_conditions=frozenset({C.POISONED}),
        weight_factor=lambda rs: rs.conditions.petrified_weight_factor,
    ),
    ConditionDef(
        C.POISONED, R("C-POI"), attacks=(_mine(False, "C-POI", "attacker poisoned"),),
        checks=(CheckEffect(False, R("C-POI"), "poisoned"),),
    ),
    ConditionDef(
        C.PRONE, R("C-PRO"),
        attacks=(
            _mine(False, "C-PRO", "attacker prone"),
            _theirs(True, "X-02", "melee vs prone", Reach.PRONE_MELEE),
            _theirs(False, "C-PRO", "ranged vs prone", Reach.RANGED),
        ),
        crawl_only=R("C-PRO"), ends_on=frozenset({EndTrigger.STANDS_UP}),
    ),
    ConditionDef(
        C.RESTRAINED, R("C-RES"),
        attacks=(_mine(False, "C-RES", "attacker restrained"), _theirs(True, "C-RES", "target restrained")),
        saves=(SaveEffect(False, Save.REFLEX, R("C-RES"), "restrained"),), speed_zero=R("C-RES"),
    ),
    ConditionDef(
        C.STUNNED, R("C-STU"), implies=(_INCAP["C-STU"],), attacks=(_theirs(True, "C-STU", "target stunned"),),
        auto_fail_saves=_MIG_REFLEX, speed_zero=R("C-STU"),
    ),
    ConditionDef(
        C.UNCONSCIOUS, R("C-UNC"),
        implies=(_INCAP["C-UNC"], Implication(C.PRONE, R("C-UNC")), Implication(C.FLAT_FOOTED, R("FF-1"), _unaware)),
        attacks=(AttackEffect(True, R("X-16"), "target unconscious", True, when=_unconscious_advantage),),
        auto_fail_saves=_MIG_REFLEX,
        auto_crit_melee_5ft=R("CRIT-5"), speed_zero=R("C-UNC"), cannot_speak=R("C-UNC"), drops_held=R("C-UNC"),
    ),
    ConditionDef(
        C.DAZED, R("G-13"),
        implies=(Implication(C.FLAT_FOOTED, R("G-13"), _dazed(DazedEffect.FLAT_FOOTED)),),
        action_cap=ActionCap(
            R("G-13"), lambda rs: rs.conditions.dazed_actions, _dazed(DazedEffect.TWO_ACTIONS_NO_REACTIONS)
        ),
        no_reactions=Gate(R("G-13"), _dazed(DazedEffect.TWO_ACTIONS_NO_REACTIONS)),
    ),
    ConditionDef(
        C.SHAKEN, R("G-14"), saves=(SaveEffect(False, Save.WILL, R("G-14"), "shaken"),), morale_fear=True,
        attacks=(AttackEffect(False, R("G-14"), "attacker shaken", False, when=_shaken_attacks),),
    ),
    ConditionDef(C.FLAT_FOOTED, R("G-11"), loses_positive_agi=R("FF-2"), no_reactions=Gate(R("FF-3"))),
    ConditionDef(
        C.SUFFOCATING, R("G-15"), blocks_healing=R("G-15"), ends_on=frozenset({EndTrigger.CAN_BREATHE}),
    ),
    ConditionDef(C.DROWNING, R("G-16"), cannot_breathe=R("G-16"), ends_on=frozenset({EndTrigger.SURFACES})),
    ConditionDef(C.EXHAUSTED, R("G-17"), leveled=True),
    ConditionDef(
        C.BURIED, R("C-BUR"), implies=(Implication(C.RESTRAINED, R("G-18")),), cannot_breathe=R("G-18"),
        turn_damage=TurnDamage(R("G-18"), "Buried", DamageType.BLUDGEONING, lambda rs: rs.conditions.buried_damage),
        ends_on=frozenset({EndTrigger.DUG_OUT}),
    ),
    ConditionDef(
        C.HIDDEN, R("G-20"),
        attacks=(
            _mine(True, "G-20", "unseen attacker (hidden)"),
            AttackEffect(False, R("G-20"), "target hidden: guessed square", True, when=_hidden_guessed),
        ),
        ends_on=frozenset({EndTrigger.ATTACKS, EndTrigger.MAKES_NOISE, EndTrigger.FOUND}),
    ),
    ConditionDef(
        C.DODGING, R("DOD-1"), attacks=(_theirs(False, "DOD-1", "target dodging"),),
        saves=(SaveEffect(True, Save.REFLEX, R("DOD-1"), "dodging"),), no_opportunity_attacks=R("DOD-1"),
    ),
    ConditionDef(C.DYING, R("DEATH-1"), implies=(Implication(C.UNCONSCIOUS, R("DEATH-1")),)),
    ConditionDef(C.STABILIZED, R("C-STB"), implies=(Implication(C.UNCONSCIOUS, R("DEATH-14")),)),
    ConditionDef(C.DEAD, R("DEATH-3"), implies=(Implication(C.UNCONSCIOUS, R("DEATH-3")),)),
)

CONDITIONS: Mapping[Condition, ConditionDef] = MappingProxyType({d.condition: d for d in _DEFS})
"""Every condition's definition, keyed by condition."""

if set(CONDITIONS) != set(Condition):  # pragma: no cover - guarded by tests too
    raise RuntimeError(f"conditions without a definition: {set(Condition) - set(CONDITIONS)}")
