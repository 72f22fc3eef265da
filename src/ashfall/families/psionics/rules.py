"""Psionics: the psionic attack's attribute, the psionic save DC, Focus and Psionic Backlash (PSI, lines 204-232).

Psionic abilities are not spells (PSI-1): they cannot be counterspelled (PSI-6, RX-20) and work in
antimagic fields (PSI-7). The attack roll itself (1d20 + WIS + proficiency against DV, PSI-3) is
built by the attack code from :func:`psionic_attack`; Backlash (PSI-15) is returned as data for the
engine to apply as a normal combat event (PSI-16). Psychic damage against DR, resistance and immunity
(PSI-10..12) is handled by the damage code. Edition 1 has no psionics (E-23): every function
that needs them raises :class:`~ashfall.rules.errors.RuleViolation` there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ashfall.core.dice import parse
from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, Condition, DamageType, Save
from ashfall.rules.condition_durations import AppliedCondition, until_end_of_next_turn
from ashfall.rules.conditions import Verdict
from ashfall.rules.damage_spec import DamagePart
from ashfall.rules.dc import DC, formula_dc
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset

E_23 = rule("E-23")
PSI_1 = rule("PSI-1")
PSI_2 = rule("PSI-2")
PSI_3 = rule("PSI-3")
PSI_4 = rule("PSI-4")
PSI_5 = rule("PSI-5")
PSI_6 = rule("PSI-6")
PSI_7 = rule("PSI-7")
PSI_9 = rule("PSI-9")
PSI_13 = rule("PSI-13")
PSI_14 = rule("PSI-14")
PSI_15 = rule("PSI-15")
PSI_16 = rule("PSI-16")
PSI_18 = rule("PSI-18")
G_26 = rule("G-26")
RX_17 = rule("RX-17")

PSIONIC_ATTRIBUTE = Attribute.WIS
"""The attribute psionic attacks and save DCs add (PSI-3, PSI-4)."""

TYPICAL_PSIONIC_TYPES = frozenset({DamageType.FORCE, DamageType.PSYCHIC})
"""Psionic damage is typically force or psychic (PSI-9); each ability states its own type."""


class PowerKind(Enum):
    """Where an ability's power comes from: an arcane spell or the mind (PSI-1)."""

    SPELL = "spell"
    PSIONIC = "psionic"


def require_psionics(ruleset: Ruleset) -> None:
    """Raise unless the ruleset has psionics (edition 1 has none, E-23)."""
    if not ruleset.psionics.available:
        raise RuleViolation(E_23, "this ruleset has no psionics (they exist only in the current edition)")


# ----- attack and DC -----


@dataclass(frozen=True, slots=True)
class PsionicAttack:
    """What the attack builder needs for a psionic attack roll (PSI-2, PSI-3).

    Attributes:
        attribute: WIS.
        modifiers: WIS and proficiency, labelled with PSI-3.
        against: The defence it is rolled against ("DV").
        general_attack_rules: PSI-2: MAP, crits, cover and the other attack rules apply.
        kind: PSIONIC (not a spell, PSI-1).
    """

    attribute: Attribute
    modifiers: tuple[Modifier, ...]
    against: str
    general_attack_rules: RuleId
    kind: PowerKind = PowerKind.PSIONIC


def psionic_attack(wis: int, proficiency: int, ruleset: Ruleset) -> PsionicAttack:
    """The psionic attack's bonus: ``WIS + proficiency`` against DV (PSI-3).

    Raises:
        RuleViolation: In a ruleset without psionics (E-23).
    """
    require_psionics(ruleset)
    mods = (
        Modifier(wis, ModifierKind.ABILITY, PSI_3, PSIONIC_ATTRIBUTE.value),
        Modifier(proficiency, ModifierKind.PROFICIENCY, PSI_3, "proficiency"),
    )
    return PsionicAttack(PSIONIC_ATTRIBUTE, mods, "DV", PSI_2)


def strained(focus: int, ruleset: Ruleset) -> RuleId | None:
    """PSI-5 when Focus is at the Strained threshold (7) or above, else None."""
    return PSI_5 if focus >= ruleset.psionics.strained_focus else None


def psionic_save_dc(wis: int, proficiency: int, focus: int, ruleset: Ruleset) -> DC:
    """``8 + WIS + proficiency`` (PSI-4), +1 at Strained Focus (PSI-5).

    Raises:
        RuleViolation: In a ruleset without psionics (E-23).
    """
    require_psionics(ruleset)
    extra: tuple[Modifier, ...] = ()
    if strained(focus, ruleset):
        extra = (Modifier(ruleset.psionics.strained_dc_bonus, ModifierKind.UNTYPED, PSI_5, "Strained Focus"),)
    return formula_dc(PSI_4, PSIONIC_ATTRIBUTE.value, wis, proficiency, ruleset, extra)


# ----- Focus and Backlash -----


@dataclass(frozen=True, slots=True)
class FocusState:
    """A psion's Focus in the current encounter; it starts at 0 every encounter (PSI-13)."""

    psion: str
    focus: int = 0

    @classmethod
    def start(cls, psion: str) -> FocusState:
        """Focus at the start of an encounter: 0 (PSI-13)."""
        return cls(psion, 0)


@dataclass(frozen=True, slots=True)
class Backlash:
    """Psionic Backlash as data for the engine (PSI-15), applied as a normal combat event (PSI-16).

    Attributes:
        focus_reached: The Focus that exceeded the threshold.
        threshold: ``10 + MIG`` (PSI-14).
        self_damage: 3d6 psychic to the psion.
        area_damage: 2d6 psychic to every *other* creature within ``area_radius_ft``.
        area_radius_ft: 15.
        area_save: Reflex; a success halves ``area_damage``.
        area_save_dc: The psion's psionic DC, without the Strained +1 by default (G-26).
        stunned: The psion is stunned until the end of its next turn.
    """

    focus_reached: int
    threshold: int
    self_damage: tuple[DamagePart, ...]
    area_damage: tuple[DamagePart, ...]
    area_radius_ft: int
    area_save: Save
    area_save_dc: DC
    stunned: AppliedCondition
    rule: RuleId = PSI_15
    event_rule: RuleId = PSI_16


@dataclass(frozen=True, slots=True)
class FocusResult:
    """Focus after a gain: the new state, the threshold, and the Backlash it caused (or None)."""

    state: FocusState
    threshold: int
    backlash: Backlash | None = None


def backlash_threshold(mig: int, ruleset: Ruleset) -> int:
    """``10 + MIG``; Focus above it (strictly) causes Backlash (PSI-14, PSI-15)."""
    return ruleset.psionics.backlash_base + mig


def gain_focus(
    state: FocusState, amount: int, mig: int, ruleset: Ruleset, *, wis: int, proficiency: int
) -> FocusResult:
    """Add Focus (the amount per ability is in Classes: Psion, PSI-13); Backlash if it exceeds 10 + MIG.

    On Backlash (PSI-15) Focus resets to 0 and the result carries the damage, the area save and its
    DC (G-26) and the stun for the engine to apply (PSI-16).

    Raises:
        RuleViolation: In a ruleset without psionics (E-23).
        ValueError: For a negative ``amount``.
    """
    require_psionics(ruleset)
    if amount < 0:
        raise ValueError("Focus gains are not negative")
    threshold = backlash_threshold(mig, ruleset)
    focus = state.focus + amount
    if focus <= threshold:
        return FocusResult(FocusState(state.psion, focus), threshold)
    opts = ruleset.psionics
    dc = psionic_save_dc(wis, proficiency, focus if opts.backlash_dc_uses_strained else 0, ruleset)
    backlash = Backlash(
        focus_reached=focus,
        threshold=threshold,
        self_damage=(DamagePart(DamageType.PSYCHIC, PSI_15, "Backlash", dice=parse(opts.backlash_self)),),
        area_damage=(DamagePart(DamageType.PSYCHIC, PSI_15, "Backlash burst", dice=parse(opts.backlash_area)),),
        area_radius_ft=opts.backlash_radius_ft,
        area_save=Save.REFLEX,
        area_save_dc=DC(dc.total, dc.parts, G_26),
        stunned=until_end_of_next_turn(Condition.STUNNED, state.psion, PSI_15, state.psion),
    )
    return FocusResult(FocusState.start(state.psion), threshold, backlash)


# ----- not spells -----


def can_be_counterspelled(kind: PowerKind) -> Verdict:
    """Spells can be counterspelled (RX-17); psionic abilities cannot (PSI-6, RX-20, PSI-1)."""
    return Verdict(False, PSI_6) if kind is PowerKind.PSIONIC else Verdict(True, RX_17)


def works_in_antimagic(kind: PowerKind) -> Verdict:
    """Psionics work normally in antimagic fields (PSI-7); what antimagic does to spells is in Magic."""
    return Verdict(kind is PowerKind.PSIONIC, PSI_7)


# ----- Psi Strike and psionic damage -----


@dataclass(frozen=True, slots=True)
class PsionicAbility:
    """A psionic ability as data: a ranged psionic attack with its damage parts."""

    name: str
    rule: RuleId
    range_ft: int
    attack: PsionicAttack
    damage: tuple[DamagePart, ...]


def psi_strike(wis: int, proficiency: int, ruleset: Ruleset) -> PsionicAbility:
    """Psi Strike (Psion level 1): ranged psionic attack, 60 ft, 1d8 + WIS force (PSI-18; scaling is in Classes).

    Raises:
        RuleViolation: In a ruleset without psionics (E-23).
    """
    opts = ruleset.psionics
    attack = psionic_attack(wis, proficiency, ruleset)
    kind = DamageType.parse(opts.psi_strike_type)
    damage = (
        DamagePart(kind, PSI_18, "Psi Strike", dice=parse(opts.psi_strike_dice)),
        DamagePart(kind, PSI_18, PSIONIC_ATTRIBUTE.value, flat=wis),
    )
    return PsionicAbility("Psi Strike", PSI_18, opts.psi_strike_range_ft, attack, damage)


def typical_psionic_type(damage_type: DamageType) -> RuleId | None:
    """PSI-9 when the type is one psionics typically deal (force, psychic), else None."""
    return PSI_9 if damage_type in TYPICAL_PSIONIC_TYPES else None
