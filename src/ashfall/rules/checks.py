"""Saving throws, ability checks, contests and passive Perception.

Against a fixed number a total that meets or exceeds it succeeds (G-45); natural 20s and 1s decide
nothing outside attack rolls unless ``checks.natural_rules_on_saves`` is on (G-44). A condition that
fails a save fails it before any die is rolled (C-PAR, C-STU, C-UNC). Contests roll 1d20 + attribute +
proficiency if proficient on both sides; the higher total wins and a tie keeps the status quo, so the
initiator fails (CON-1..3, G-45); winning or losing by 10 or more is a critical result (CON-5).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from enum import Enum

from ashfall.content.schema import Creature
from ashfall.core.d20 import D20Roll, roll_d20
from ashfall.core.modifiers import Modifier, ModifierKind, RollSource, Stacked, stack
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, Condition, Save, Skill
from ashfall.rules import conditions as cond
from ashfall.rules.dc import DC
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import ContestTie, ManeuverContest

NATURAL_MAX = 20
"""The top face of the d20; a property of the die, not a tunable number."""
NATURAL_MIN = 1
"""The bottom face of the d20."""

CON_1 = rule("CON-1")
CON_2 = rule("CON-2")
CON_3 = rule("CON-3")
CON_5 = rule("CON-5")
DIS_2 = rule("DIS-2")
E_06 = rule("E-06")
E_08 = rule("E-08")
G_22 = rule("G-22")
G_24 = rule("G-24")
G_44 = rule("G-44")
G_45 = rule("G-45")
X_09 = rule("X-09")

Stat = Skill | Attribute
"""What a check or contest side adds: a skill (attribute + proficiency if proficient) or a raw attribute."""


class Degree(Enum):
    """How well a check or a contest went for the roller (the initiator, in a contest)."""

    CRITICAL_FAILURE = "critical-failure"
    FAILURE = "failure"
    SUCCESS = "success"
    CRITICAL_SUCCESS = "critical-success"


@dataclass(frozen=True, slots=True)
class SaveResult:
    """A saving throw.

    Attributes:
        save: Which save.
        dc: The DC it was made against.
        roll: The d20 roll, or None when a condition failed it before rolling.
        success: Whether the save succeeded.
        auto_fail: The rule that failed it without a roll, or None.
        reasons: The rules that decided the result (G-45 meet-or-exceed, G-44 natural rules ...).
    """

    save: Save
    dc: DC
    roll: D20Roll | None
    success: bool
    auto_fail: RuleId | None
    reasons: tuple[RuleId, ...]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """An ability check against a DC."""

    stat: Stat
    dc: DC
    roll: D20Roll
    success: bool
    reasons: tuple[RuleId, ...]


def _stat_modifiers(creature: Creature, stat: Stat, rule_id: RuleId) -> list[Modifier]:
    """The labelled parts a creature adds for a skill or a raw attribute (CON-1, CON-3)."""
    if isinstance(stat, Attribute):
        return [Modifier(creature.attributes[stat], ModifierKind.ABILITY, rule_id, stat.name)]
    if stat in creature.skills:
        return [Modifier(creature.skills[stat], ModifierKind.UNTYPED, rule_id, f"{stat.value} (stat block)")]
    mods = [Modifier(creature.attributes[stat.attribute], ModifierKind.ABILITY, rule_id, stat.attribute.name)]
    if stat in creature.skill_proficiencies:
        mods.append(Modifier(creature.proficiency, ModifierKind.PROFICIENCY, rule_id, f"{stat.value} proficiency"))
    return mods


def _save_modifiers(creature: Creature, save: Save) -> list[Modifier]:
    """The parts of a save: explicit total, else attribute + proficiency if proficient (G-22)."""
    if save in creature.saves:
        return [Modifier(creature.saves[save], ModifierKind.UNTYPED, G_22, f"{save.value} save (stat block)")]
    mods = [Modifier(creature.attributes[save.attribute], ModifierKind.ABILITY, G_22, save.attribute.name)]
    if save in creature.save_proficiencies:
        mods.append(Modifier(creature.proficiency, ModifierKind.PROFICIENCY, G_22, "save proficiency"))
    return mods


def _meets(roll: D20Roll, target: int, ruleset: Ruleset) -> tuple[bool, tuple[RuleId, ...]]:
    """Meet-or-exceed (G-45); natural 20/1 only when the option applies them outside attacks (G-44)."""
    if ruleset.checks.natural_rules_on_saves and roll.natural in (NATURAL_MAX, NATURAL_MIN):
        return roll.natural == NATURAL_MAX, (G_44,)
    return roll.total >= target, (G_45,)


def saving_throw(
    creature: Creature,
    save: Save,
    dc: DC,
    rng: Rng,
    ruleset: Ruleset,
    *,
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    modifiers: Sequence[Modifier] = (),
) -> SaveResult:
    """Roll a saving throw against a DC.

    Args:
        creature: Who saves (its save modifier, G-22).
        save: Which save (AGI = Reflex; Fortitude is END, separate from a MIG save, G-22).
        dc: The DC; a total that meets it succeeds (G-45).
        rng: Supplies the d20 (not used when a condition fails the save).
        ruleset: Options.
        conditions: The creature's conditions (auto-fail, advantage and disadvantage).
        sources: Further advantage/disadvantage sources (cover's Reflex bonus is a modifier, not a source).
        modifiers: Further labelled modifiers (cover +2/+5 Reflex vs area effects, COV-1, COV-2).
    """
    if conditions:
        failed_by = cond.save_auto_fail(conditions, save)
        if failed_by is not None:
            return SaveResult(save, dc, None, False, failed_by, (failed_by,))
    all_sources = (*cond.save_sources(conditions, save), *sources) if conditions else tuple(sources)
    roll = roll_d20(rng, [*_save_modifiers(creature, save), *modifiers], all_sources)
    success, reasons = _meets(roll, dc.total, ruleset)
    return SaveResult(save, dc, roll, success, None, reasons)


def ability_check(
    creature: Creature,
    stat: Stat,
    dc: DC,
    rng: Rng,
    ruleset: Ruleset,
    *,
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    modifiers: Sequence[Modifier] = (),
    fear_source_visible: bool = True,
) -> CheckResult:
    """Roll a skill or attribute check against a DC (meet-or-exceed, G-45; no natural 20/1 rule, G-44)."""
    skill = stat if isinstance(stat, Skill) else None
    cond_sources = cond.check_sources(conditions, skill, fear_source_visible=fear_source_visible) if conditions else ()
    roll = roll_d20(rng, [*_stat_modifiers(creature, stat, G_45), *modifiers], (*cond_sources, *sources))
    success, reasons = _meets(roll, dc.total, ruleset)
    return CheckResult(stat, dc, roll, success, reasons)


@dataclass(frozen=True, slots=True)
class ContestSide:
    """One side of a contest.

    Attributes:
        creature: Who rolls.
        options: What it may roll (the defender's choice of Athletics or Acrobatics, X-09); one for a fixed stat.
        choice: The option it picked, or None to take the best modifier.
        conditions: Its conditions (advantage/disadvantage on checks).
        sources: Further advantage/disadvantage sources.
        modifiers: Further labelled modifiers.
    """

    creature: Creature
    options: tuple[Stat, ...]
    choice: Stat | None = None
    conditions: frozenset[Condition] = frozenset()
    sources: tuple[RollSource, ...] = ()
    modifiers: tuple[Modifier, ...] = field(default=())

    def chosen(self) -> Stat:
        """The stat rolled: the given choice, else the option with the highest modifier (first on ties)."""
        if self.choice is not None:
            if self.choice not in self.options:
                raise ValueError(f"{self.choice} is not one of {self.options}")
            return self.choice
        return max(self.options, key=lambda s: stack(_stat_modifiers(self.creature, s, CON_1)).total)


@dataclass(frozen=True, slots=True)
class ContestResult:
    """A contest, from the initiator's point of view.

    Attributes:
        initiator_stat: What the initiator rolled.
        defender_stat: What the defender rolled.
        initiator_roll: The initiator's d20 roll (the last one if ties were rerolled).
        defender_roll: The defender's d20 roll.
        initiator_wins: True only for a strictly higher total (a tie keeps the status quo, CON-2).
        margin: Initiator total minus defender total.
        degree: Critical success/failure at a margin of 10 or more either way (CON-5).
        reasons: The rules that decided it.
        rerolls: Tied rolls rerolled under ``checks.contest_tie = reroll``.
    """

    initiator_stat: Stat
    defender_stat: Stat
    initiator_roll: D20Roll
    defender_roll: D20Roll
    initiator_wins: bool
    margin: int
    degree: Degree
    reasons: tuple[RuleId, ...]
    rerolls: int = 0


def _side_roll(side: ContestSide, stat: Stat, rng: Rng) -> D20Roll:
    skill = stat if isinstance(stat, Skill) else None
    cond_sources = cond.check_sources(side.conditions, skill) if side.conditions else ()
    mods = [*_stat_modifiers(side.creature, stat, CON_1 if isinstance(stat, Skill) else CON_3), *side.modifiers]
    return roll_d20(rng, mods, (*cond_sources, *side.sources))


def contest_settled(margin: int, tie: ContestTie) -> bool:
    """Whether a contest with this margin (initiator's total minus defender's) is decided (CON-2, G-45).

    The higher total wins (:func:`initiator_wins`); a tie is settled as the status quo, or under
    ``checks.contest_tie = reroll`` not settled: both sides roll again.
    """
    return margin != 0 or tie is ContestTie.STATUS_QUO


def initiator_wins(margin: int) -> bool:
    """The initiator wins a contest only with a strictly higher total: a tie keeps the status quo (CON-2)."""
    return margin > 0


def _settled(roll_both: Callable[[], tuple[D20Roll, D20Roll]],
             ruleset: Ruleset) -> tuple[D20Roll, D20Roll, int, int]:
    """Both sides roll until the contest is settled (:func:`contest_settled`, CON-2, G-45).

    Returns the initiator's roll, the defender's, the margin and how many tied rolls were rolled again.
    """
    rerolls = 0
    while True:
        i_roll, d_roll = roll_both()
        margin = i_roll.total - d_roll.total
        if contest_settled(margin, ruleset.checks.contest_tie):
            return i_roll, d_roll, margin, rerolls
        rerolls += 1


def _degree(margin: int, ruleset: Ruleset) -> tuple[Degree, tuple[RuleId, ...]]:
    big = ruleset.checks.degree_margin
    if margin >= big:
        return Degree.CRITICAL_SUCCESS, (CON_2, CON_5)
    if margin <= -big:
        return Degree.CRITICAL_FAILURE, (CON_2, CON_5)
    if margin > 0:
        return Degree.SUCCESS, (CON_2,)
    return Degree.FAILURE, ((CON_2, G_45) if margin == 0 else (CON_2,))


def contest(initiator: ContestSide, defender: ContestSide, rng: Rng, ruleset: Ruleset) -> ContestResult:
    """Both sides roll 1d20 + their stat; the higher total wins, a tie keeps the status quo (CON-1..5, G-45).

    Under ``checks.contest_tie = reroll`` tied rolls are rolled again until they differ.
    """
    i_stat, d_stat = initiator.chosen(), defender.chosen()
    i_roll, d_roll, margin, rerolls = _settled(
        lambda: (_side_roll(initiator, i_stat, rng), _side_roll(defender, d_stat, rng)), ruleset)
    degree, reasons = _degree(margin, ruleset)
    return ContestResult(i_stat, d_stat, i_roll, d_roll, initiator_wins(margin), margin, degree, reasons, rerolls)


def maneuver_contest(
    initiator: ContestSide, defender: ContestSide, rng: Rng, ruleset: Ruleset
) -> ContestResult:
    """A Grapple/Shove-style contest: Athletics against Athletics or Acrobatics (E-06, X-09).

    Edition 1 (``checks.maneuver_contest = raw-attributes``) rolls MIG against MIG or AGI instead, no
    proficiency. The sides' ``options`` are replaced; a defender's ``choice`` is mapped to the matching
    stat (Athletics <-> MIG, Acrobatics <-> AGI).
    """
    raw = ruleset.checks.maneuver_contest is ManeuverContest.RAW_ATTRIBUTES
    i_opts: tuple[Stat, ...] = (Attribute.MIG,) if raw else (Skill.ATHLETICS,)
    d_opts: tuple[Stat, ...] = (Attribute.MIG, Attribute.AGI) if raw else (Skill.ATHLETICS, Skill.ACROBATICS)
    pick = _MANEUVER_STAT[raw].get(defender.choice, defender.choice) if defender.choice is not None else None
    i_side = ContestSide(initiator.creature, i_opts, None, initiator.conditions, initiator.sources, initiator.modifiers)
    d_side = ContestSide(defender.creature, d_opts, pick, defender.conditions, defender.sources, defender.modifiers)
    result = contest(i_side, d_side, rng, ruleset)
    return ContestResult(
        result.initiator_stat, result.defender_stat, result.initiator_roll, result.defender_roll,
        result.initiator_wins, result.margin, result.degree, (*result.reasons, E_06 if raw else X_09),
        result.rerolls,
    )


_MANEUVER_STAT: dict[bool, dict[Stat | None, Stat]] = {
    True: {Skill.ATHLETICS: Attribute.MIG, Skill.ACROBATICS: Attribute.AGI},
    False: {Attribute.MIG: Skill.ATHLETICS, Attribute.AGI: Skill.ACROBATICS},
}


def stat_modifier(creature: Creature, stat: Stat) -> int:
    """The total a creature adds for a skill or raw attribute (to rank its options, X-09)."""
    return stack(_stat_modifiers(creature, stat, CON_1)).total


def maneuver_stats(ruleset: Ruleset) -> tuple[Stat, Stat]:
    """What maneuvers roll for (Athletics, Acrobatics): the skills, or edition 1's raw MIG and AGI (E-06)."""
    if ruleset.checks.maneuver_contest is ManeuverContest.RAW_ATTRIBUTES:
        return Attribute.MIG, Attribute.AGI
    return Skill.ATHLETICS, Skill.ACROBATICS


@dataclass(frozen=True, slots=True)
class AttackContestResult:
    """An attack roll contested by the defender's Athletics or Acrobatics (Disarm, DIS-2, E-08).

    Attributes:
        attack_roll: The initiator's attack roll (its modifiers include MAP, G-41).
        defender_stat: What the defender rolled.
        defender_roll: The defender's d20 roll.
        initiator_wins: True only for a strictly higher total (a tie keeps the status quo, CON-2).
        margin: Attack total minus defender total.
        degree: Critical success/failure at a margin of 10 or more either way (CON-5).
        reasons: The rules that decided it.
        rerolls: Tied rolls rerolled under ``checks.contest_tie = reroll``.
    """

    attack_roll: D20Roll
    defender_stat: Stat
    defender_roll: D20Roll
    initiator_wins: bool
    margin: int
    degree: Degree
    reasons: tuple[RuleId, ...]
    rerolls: int = 0


def attack_contest(
    attack_modifiers: Sequence[Modifier],
    attack_sources: Sequence[RollSource],
    defender: ContestSide,
    rng: Rng,
    ruleset: Ruleset,
) -> AttackContestResult:
    """An attack roll against the defender's Athletics or Acrobatics, its choice (Disarm, DIS-2).

    Edition 1 (``checks.maneuver_contest = raw-attributes``) defends with MIG or AGI (E-08); the
    defender's ``options`` are replaced and its ``choice`` mapped as in :func:`maneuver_contest`.
    """
    raw = ruleset.checks.maneuver_contest is ManeuverContest.RAW_ATTRIBUTES
    pick = _MANEUVER_STAT[raw].get(defender.choice, defender.choice) if defender.choice is not None else None
    d_side = ContestSide(defender.creature, maneuver_stats(ruleset), pick, defender.conditions, defender.sources,
                         defender.modifiers)
    d_stat = d_side.chosen()
    a_roll, d_roll, margin, rerolls = _settled(
        lambda: (roll_d20(rng, attack_modifiers, attack_sources), _side_roll(d_side, d_stat, rng)), ruleset)
    degree, reasons = _degree(margin, ruleset)
    return AttackContestResult(a_roll, d_stat, d_roll, initiator_wins(margin), margin, degree,
                               (*reasons, E_08 if raw else DIS_2), rerolls)


@dataclass(frozen=True, slots=True)
class RecordedContestResult:
    """One check compared with totals other creatures rolled earlier (Search against recorded Stealth, G-45).

    Attributes:
        stat: What the checker rolled.
        roll: Its d20 roll.
        beats: For each recorded total, in order, whether the check is strictly higher (a tie keeps the
            status quo: the hider stays hidden, CON-2, G-45).
        reasons: The rules that decided it.
    """

    stat: Stat
    roll: D20Roll
    beats: tuple[bool, ...]
    reasons: tuple[RuleId, ...]


def contest_recorded(side: ContestSide, recorded: Sequence[int], rng: Rng) -> RecordedContestResult:
    """Roll one check for ``side`` and compare it with totals already rolled by the other sides (G-45).

    The other side's roll is on record, so a tie cannot be rerolled: it keeps the status quo.
    """
    stat = side.chosen()
    roll = _side_roll(side, stat, rng)
    return RecordedContestResult(stat, roll, tuple(initiator_wins(roll.total - r) for r in recorded), (CON_2, G_45))


@dataclass(frozen=True, slots=True)
class PassivePerception:
    """Passive Perception with its parts (G-24)."""

    total: int
    modifiers: Stacked


def passive_perception(
    creature: Creature,
    conditions: Collection[Condition],
    ruleset: Ruleset,
    *,
    modifiers: Sequence[Modifier] = (),
) -> PassivePerception:
    """10 + Perception modifier, then condition changes (Blinded -10, Deafened -10) and extras (G-24)."""
    parts = [
        Modifier(ruleset.conditions.passive_base, ModifierKind.DC_BASE, G_24, "base"),
        *_stat_modifiers(creature, Skill.PERCEPTION, G_24),
        *(cond.passive_perception_modifiers(conditions, ruleset) if conditions else ()),
        *modifiers,
    ]
    stacked = stack(parts)
    return PassivePerception(stacked.total, stacked)
