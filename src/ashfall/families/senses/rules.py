"""Concealment: what dim light, darkness, fog, smoke and magical darkness do to seeing, attacking and hiding.

Owns the obscurement vocabulary (:class:`Obscurement` tiers, CONC-1; :class:`Cause`; :class:`Veil`, one
layer of obscurement on a square) and the pure rules of lines 615-689 and 1230-1234:

* :func:`view`: how obscured one creature is *to another*, after the viewer's senses clear what they
  can (darkvision and Low-Light Optics clear darkness only, VIS-1, VIS-6, X-17; Thermal Optics within
  30 ft and the Tactical HUD clear non-magical obscurement, CONC-7, VIS-7, VIS-10, but Thermal Optics
  see nothing of Thermal Shedding Integument, VIS-9; magical darkness yields only to magical sight,
  VIS-4, CONC-19, G-32; darkvision is halved underwater, VIS-12).
* :func:`attack_sources`: the derived concealment matrix of G-06, each source naming its rule (CONC-3,
  CONC-10, CONC-13, CONC-19, C-INV, C-BLI; edition 1's reading E-34 behind ``concealment`` options).
* :func:`sees` ("a creature you can see", X-15, CONC-19), :func:`must_guess` (CONC-11, G-20),
  :func:`stealth_sources` (CONC-5), :func:`hidden_from` (Hide without cover, CONC-17, VIS-8) and
  :func:`sight_check` (CONC-9, E-34).

Nothing here knows the map: the engine (``ashfall.families.senses.engine``) reads the layers off
the battlefield and hands them in as :class:`Party` values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ashfall.content.schema import Senses
from ashfall.core.modifiers import RollSource, adv, dis
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.core.veils import Cause as Cause  # the vocabulary the environment stores, re-exported
from ashfall.core.veils import Obscurement as Obscurement
from ashfall.core.veils import Veil as Veil
from ashfall.rules import conditions as cond
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import HeavyObscurement


@dataclass(frozen=True, slots=True)
class CauseTraits:
    """Which senses see through a cause: darkness yields to darkvision (X-17), magic only to magical sight."""

    darkness: bool = False
    magical: bool = False


CAUSES: Mapping[Cause, CauseTraits] = MappingProxyType({
    Cause.DIM_LIGHT: CauseTraits(darkness=True),
    Cause.DARKNESS: CauseTraits(darkness=True),
    Cause.MAGICAL_DARKNESS: CauseTraits(magical=True),
})
"""Causes with special traits; every other cause is ordinary, non-magical obscurement."""
_ORDINARY = CauseTraits()

CONC_3, CONC_5, CONC_7, CONC_9, CONC_10, CONC_11 = (
    rule("CONC-3"), rule("CONC-5"), rule("CONC-7"), rule("CONC-9"), rule("CONC-10"), rule("CONC-11"))
CONC_13, CONC_17, CONC_19 = rule("CONC-13"), rule("CONC-17"), rule("CONC-19")
HID_1 = rule("HID-1")
VIS_1, VIS_2, VIS_6, VIS_7, VIS_10 = rule("VIS-1"), rule("VIS-2"), rule("VIS-6"), rule("VIS-7"), rule("VIS-10")
C_BLI, C_INV, E_34, G_20, G_32, X_15 = (
    rule("C-BLI"), rule("C-INV"), rule("E-34"), rule("G-20"), rule("G-32"), rule("X-15"))
X_10, X_17 = rule("X-10"), rule("X-17")


def traits(cause: Cause) -> CauseTraits:
    """What sees through a cause."""
    return CAUSES.get(cause, _ORDINARY)


@dataclass(frozen=True, slots=True)
class Party:
    """One creature as concealment sees it.

    Attributes:
        senses: Its vision and optics (darkvision, Low-Light, Thermal, HUD, Thermal Shedding, magical sight).
        squares: For each square of its space, the layers obscuring that square (light, veils, water).
        conditions: Its conditions (Blinded, Invisible, Hidden).
        underwater: It is underwater (darkvision range halved, VIS-12).
    """

    senses: Senses = field(default_factory=Senses)
    squares: tuple[tuple[Veil, ...], ...] = ((),)
    conditions: frozenset[Condition] = frozenset()
    underwater: bool = False


@dataclass(frozen=True, slots=True)
class View:
    """How obscured a creature is to one viewer.

    Attributes:
        level: The obscurement left after the viewer's senses.
        layer: The layer that obscures it (None when nothing does).
        cleared: Layers the viewer's senses see through, each with the rule that lets them.
    """

    level: Obscurement
    layer: Veil | None = None
    cleared: tuple[tuple[Veil, RuleId], ...] = ()


@dataclass(frozen=True, slots=True)
class Sight:
    """Whether a viewer sees a creature (truthy when it does), and the rule that says it cannot."""

    seen: bool
    rule: RuleId | None = None

    def __bool__(self) -> bool:
        return self.seen


@dataclass(frozen=True, slots=True)
class SightCheck:
    """A sight-based check against an obscured creature: an automatic failure, or advantage sources."""

    auto_fail: RuleId | None = None
    sources: tuple[RollSource, ...] = ()


def _range(base: int, viewer: Party, ruleset: Ruleset) -> int:
    """A darkvision-like range, halved underwater (VIS-12, UW-26: ``underwater.darkvision_divisor``)."""
    return base // max(ruleset.underwater.darkvision_divisor, 1) if viewer.underwater else base


def _low_light_range(senses: Senses, ruleset: Ruleset) -> int:
    if senses.low_light_optics <= 0:
        return 0
    placeholder = ruleset.concealment.low_light_range_ft
    return senses.low_light_optics if placeholder is None else placeholder


def _clears(layer: Veil, viewer: Party, other: Party, distance_ft: int, ruleset: Ruleset, *,
            detect: bool) -> RuleId | None:
    """The rule by which the viewer's senses see through one layer, or None.

    ``detect``: for noticing a hiding creature, where Thermal Optics do not help (VIS-8).
    """
    s, c, kind = viewer.senses, ruleset.concealment, traits(layer.cause)
    if kind.magical and s.magical_sight:
        return CONC_19
    if not c.vision_senses:
        return None
    thermal = (s.thermal_optics and not detect and distance_ft <= c.thermal_range_ft
               and not other.senses.thermal_shedding)
    if kind.magical:
        return G_32 if thermal and c.thermal_sees_magical_darkness else None
    if (kind.darkness or not c.darkvision_darkness_only) and s.darkvision and distance_ft <= _range(
        s.darkvision, viewer, ruleset
    ):  # darkvision clears darkness only, unless the option lets it clear fog and smoke too
        return (VIS_2 if layer.level is Obscurement.HEAVY else VIS_1) if kind.darkness else X_17
    if kind.darkness:
        low_light = _low_light_range(s, ruleset)
        if low_light and distance_ft <= _range(low_light, viewer, ruleset):
            return VIS_6
    if s.tactical_hud:
        return VIS_10
    if thermal:
        return VIS_7 if layer.level is Obscurement.HEAVY else CONC_7
    return None


def strongest(layers: Iterable[Veil]) -> Veil | None:
    """The heaviest layer (magical before mundane on a tie), or None."""
    return max((v for v in layers if v.level is not Obscurement.NONE),
               key=lambda v: (v.level.value, traits(v.cause).magical), default=None)


def view(viewer: Party, other: Party, distance_ft: int, ruleset: Ruleset, *, detect: bool = False) -> View:
    """How obscured ``other`` is to ``viewer``: its least obscured square after the viewer's senses.

    Args:
        viewer: Who looks.
        other: Who is looked at (its squares' layers and its Thermal Shedding Integument).
        distance_ft: Feet between them (senses have ranges: darkvision, Low-Light, Thermal 30 ft).
        ruleset: The ``concealment`` options.
        detect: Looking for a hiding creature: Thermal Optics do not count (VIS-8).
    """
    best: View | None = None
    for layers in other.squares or ((),):
        cleared = []
        left = []
        for layer in layers:
            why = _clears(layer, viewer, other, distance_ft, ruleset, detect=detect)
            if why is None:
                left.append(layer)
            else:
                cleared.append((layer, why))
        top = strongest(left)
        here = View(top.level if top else Obscurement.NONE, top, tuple(cleared))
        if best is None or here.level.value < best.level.value:
            best = here
    assert best is not None
    return best


def zone_level(party: Party) -> Obscurement:
    """The obscurement of a creature's surroundings regardless of who looks (its least obscured square)."""
    levels = [(strongest(layers) or Veil(Obscurement.NONE, Cause.FOG)).level for layers in party.squares or ((),)]
    return min(levels, key=lambda o: o.value)


def _cause_text(layer: Veil | None) -> str:
    return layer.cause.value if layer else "obscurement"


def _condition_sources(attacker: Party, target: Party, ruleset: Ruleset) -> list[RollSource]:
    mine, theirs = cond.expand(attacker.conditions, ruleset), cond.expand(target.conditions, ruleset)
    out = []
    if Condition.INVISIBLE in mine:
        out.append(adv(C_INV, "attacker invisible"))
    if Condition.INVISIBLE in theirs:
        out.append(dis(C_INV, "target invisible"))
    if Condition.BLINDED in mine:
        out.append(dis(C_BLI, "attacker blinded"))
    if Condition.BLINDED in theirs:
        out.append(adv(C_BLI, "target blinded"))
    return out


def _terrain_sources(seen: View, seeing: View, ruleset: Ruleset) -> list[RollSource]:
    """Edition 2 (G-06): attacks into LO or HO at disadvantage, from them unpenalised (CONC-4, CONC-12, X-10)."""
    c = ruleset.concealment
    out = []
    if seen.level is Obscurement.LIGHT and c.light_obscured_attacks:
        out.append(dis(CONC_3, f"target lightly obscured ({_cause_text(seen.layer)})"))
    if seen.level is Obscurement.HEAVY:
        magical = seen.layer is not None and traits(seen.layer.cause).magical
        out.append(dis(CONC_19 if magical else CONC_10, f"target heavily obscured ({_cause_text(seen.layer)})"))
        if seeing.level is Obscurement.HEAVY and c.both_heavy_cancel:
            out.append(adv(CONC_13, "unseen attacker: both heavily obscured"))
            return out
    if seeing.level is Obscurement.HEAVY and c.heavy_obscured_attacker_unseen:
        out.append(adv(X_10, "unseen attacker: heavily obscured"))  # X-10's alternative: HO alone gives it
    return out


def _as_if_blinded_sources(attacker: Party, target: Party, seen: View, ruleset: Ruleset) -> list[RollSource]:
    """Edition 1 (E-34): heavy obscurement blocks vision "as if blinded", for attacker and target alike."""
    out = []
    if seen.level is Obscurement.LIGHT and ruleset.concealment.light_obscured_attacks:
        out.append(dis(CONC_3, f"target lightly obscured ({_cause_text(seen.layer)})"))
    if view(attacker, attacker, 0, ruleset).level is Obscurement.HEAVY:
        out.append(dis(E_34, "attacker heavily obscured: as if blinded"))
    if seen.level is Obscurement.HEAVY:
        out.append(dis(E_34, "target heavily obscured: vision blocked"))
    if view(target, target, 0, ruleset).level is Obscurement.HEAVY:
        out.append(adv(E_34, "target heavily obscured: as if blinded"))
    return out


def attack_sources(attacker: Party, target: Party, distance_ft: int, ruleset: Ruleset, *,
                   with_conditions: bool = True) -> tuple[RollSource, ...]:
    """Advantage and disadvantage that concealment puts on one attack: the G-06 matrix, row by row.

    Args:
        attacker: The attacker: senses, the layers on its space, its conditions.
        target: The target likewise (Thermal Shedding Integument is in its senses, VIS-9).
        distance_ft: Feet between them.
        ruleset: The ``concealment`` options (edition 1: E-34, E-35).
        with_conditions: Also give the Invisible and Blinded rows (C-INV, C-BLI). The engine leaves them
            out because the rules core's condition table already gives them.
    """
    seen = view(attacker, target, distance_ft, ruleset)
    if ruleset.concealment.heavy_obscurement is HeavyObscurement.AS_IF_BLINDED:
        out = _as_if_blinded_sources(attacker, target, seen, ruleset)
    else:
        out = _terrain_sources(seen, view(target, attacker, distance_ft, ruleset), ruleset)
    if with_conditions:
        out.extend(_condition_sources(attacker, target, ruleset))
    return tuple(out)


def sees(viewer: Party, other: Party, distance_ft: int, ruleset: Ruleset) -> Sight:
    """Whether ``viewer`` can see ``other`` ("a creature you can see"; line of sight is the map's business).

    Not when blinded (C-BLI), the other is invisible (C-INV) or hidden (G-20), or heavily obscured to this
    viewer (X-15); inside magical darkness only magical sight sees it (CONC-19).
    """
    if Condition.BLINDED in cond.expand(viewer.conditions, ruleset):
        return Sight(False, C_BLI)
    theirs = cond.expand(other.conditions, ruleset)
    if Condition.INVISIBLE in theirs:
        return Sight(False, C_INV)
    if Condition.HIDDEN in theirs:
        return Sight(False, G_20)
    seen = view(viewer, other, distance_ft, ruleset)
    if seen.level is Obscurement.HEAVY:
        magical = seen.layer is not None and traits(seen.layer.cause).magical
        return Sight(False, CONC_19 if magical else X_15)
    return Sight(True)


def must_guess(target: Party, ruleset: Ruleset, viewer: Party | None = None, distance_ft: int = 0) -> RuleId | None:
    """CONC-11 when an attack on the target must name a guessed square: its location is unknown (Hidden, G-20).

    A creature merely in HO is unseen but not lost (X-15); the GM can still declare its location unknown.
    With ``concealment.heavy_obscured_hidden`` on, one heavily obscured to ``viewer`` is lost too.
    """
    if cond.must_guess_square(target.conditions, ruleset) is not None:
        return CONC_11
    heavy = viewer is not None and view(viewer, target, distance_ft, ruleset).level is Obscurement.HEAVY
    return CONC_11 if heavy and ruleset.concealment.heavy_obscured_hidden else None


def stealth_sources(hider: Party, ruleset: Ruleset) -> tuple[RollSource, ...]:
    """Advantage on Stealth while the creature is in an obscured zone (CONC-5); no observer cancels it (VIS-8)."""
    c = ruleset.concealment
    level = zone_level(hider)
    if (level is Obscurement.LIGHT and c.light_obscured_stealth_advantage) or (
        level is Obscurement.HEAVY and c.heavy_obscured_stealth_advantage
    ):
        return (adv(CONC_5, f"Stealth while {'lightly' if level is Obscurement.LIGHT else 'heavily'} obscured"),)
    return ()


def hidden_from(watcher: Party, hider: Party, distance_ft: int, ruleset: Ruleset) -> RuleId | None:
    """The rule that lets the hider Hide from this watcher without cover, or None.

    Hide needs "cover or concealment" (HID-1, 000:1109), and concealment has two tiers (617–621): heavy
    obscurement is always enough (CONC-17); light obscurement is too (HID-1) unless the stricter reading
    ``concealment.hide_in_light_obscurement = false`` is chosen. The watcher's darkvision, Low-Light, HUD and
    magical sight count; Thermal Optics do not (VIS-8).
    """
    level = view(watcher, hider, distance_ft, ruleset, detect=True).level
    return hide_rule(level, ruleset)


def hide_rule(level: Obscurement, ruleset: Ruleset) -> RuleId | None:
    """Whether obscurement of ``level`` is concealment enough to Hide: CONC-17 (heavy), HID-1 (light), or None."""
    if level is Obscurement.HEAVY:
        return CONC_17
    if level is Obscurement.LIGHT and ruleset.concealment.hide_in_light_obscurement:
        return HID_1
    return None


def sight_check(viewer: Party, other: Party, distance_ft: int, ruleset: Ruleset) -> SightCheck:
    """A check relying on sight against ``other``: HO fails it as if blinded (CONC-9); edition 1's LO: disadvantage.

    Edition 1 (E-34) gives disadvantage on sight-based Perception against a lightly obscured creature.
    """
    seen = view(viewer, other, distance_ft, ruleset, detect=True)
    if seen.level is Obscurement.HEAVY:
        return SightCheck(CONC_9)
    if seen.level is Obscurement.LIGHT and ruleset.concealment.light_obscured_perception_disadvantage:
        return SightCheck(None, (dis(E_34, f"looking into {_cause_text(seen.layer)}"),))
    return SightCheck()


__all__ = [
    "CAUSES",
    "Cause",
    "CauseTraits",
    "Obscurement",
    "Party",
    "Sight",
    "SightCheck",
    "Veil",
    "View",
    "attack_sources",
    "hidden_from",
    "hide_rule",
    "must_guess",
    "sees",
    "sight_check",
    "stealth_sources",
    "strongest",
    "traits",
    "view",
    "zone_level",
]
