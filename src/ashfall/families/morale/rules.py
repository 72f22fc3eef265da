"""NPC morale: who checks, what triggers a check, the Morale DC, outcomes, Rally and Breaking Points (MOR).

Summary of the rules and rulings (G-05 asks for one, since the text's "Summary Table" is empty):

* Only NPCs check (MOR-2). Bosses and Legendary NPCs (MOR-33, option), mindless, undead and machine NPCs
  (MOR-35), stat blocks marked immune (G-01) and NPCs the encounter declares immune (MOR-37) never do.
* Morale Will (G-01): the stat block's morale Will (MOR-6), else a Will save the stat block gives (an
  explicit ``saves.will`` or Will proficiency), else the default of its morale type (civilian +0,
  bandit/raider +2, soldier +4, elite/fanatic +6, options), else the Will save from WIS (G-22).
* Triggers (MOR-7..10): First Blood, Leader Down, Half Strength (the event that brings casualties to
  n/2 or more), Fear Effect (a check for that individual). One event, one check with every trigger's DC
  modifier (MOR-11, MOR-12); separate events each check, even in one round (MOR-13).
* Morale DC = 12 + stacking circumstance modifiers (MOR-14, G-02): Leader Down +4, outnumbered +2,
  First Blood +2, Half Strength +4, Fear +0 (MOR-15: leader killed while outnumbered is DC 18).
* The check is 1d20 + morale Will; meeting the DC holds (MOR-3, G-45); no natural 20/1 results (G-44);
  Shaken gives disadvantage (G-14). Fail by 1-4: Fall Back; by 5 or more: Break (G-03).
* Statuses only worsen (Fall Back persists, MOR-20); failing again after a rally is a permanent rout
  (MOR-26). Rally (G-04): a leader that is not incapacitated spends 1 action and rolls its morale check
  against the DC the group failed; success returns the group to Hold, once per encounter (MOR-26).
* Breaking Points (MOR-27, MOR-28) and what each status makes an NPC do (MOR-17..24) live in
  :mod:`ashfall.families.morale.rules_behaviour`.

Edition 1 has no morale (E-33): every function that needs the morale options raises
:class:`~ashfall.rules.errors.RuleViolation` there.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from ashfall.content.schema import Creature
from ashfall.core.d20 import D20Roll, roll_d20
from ashfall.core.modifiers import Modifier, ModifierKind, RollSource, stack
from ashfall.core.morale import STATUS_MARKED as STATUS_MARKED  # the vocabulary the core stores, re-exported
from ashfall.core.morale import STATUS_MARKS as STATUS_MARKS
from ashfall.core.morale import GroupMorale as GroupMorale
from ashfall.core.morale import MoraleMark as MoraleMark
from ashfall.core.morale import Status as Status
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, Save
from ashfall.rules import conditions as cond
from ashfall.rules.dc import DC, fixed_dc
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset

E_33, G_01, G_02, G_03, G_04, G_44, G_45 = (rule(i) for i in ("E-33", "G-01", "G-02", "G-03", "G-04", "G-44", "G-45"))
MOR_2, MOR_3, MOR_4, MOR_6, MOR_7, MOR_8, MOR_9, MOR_10 = (
    rule(f"MOR-{n}") for n in (2, 3, 4, 6, 7, 8, 9, 10))
MOR_12, MOR_14, MOR_15, MOR_20, MOR_25, MOR_26, MOR_33, MOR_35, MOR_37 = (
    rule(f"MOR-{n}") for n in (12, 14, 15, 20, 25, 26, 33, 35, 37))
G_22 = rule("G-22")


def require_morale(ruleset: Ruleset) -> None:
    """Raise unless the ruleset has morale (edition 1 has none, E-33)."""
    if not ruleset.morale.enabled:
        raise RuleViolation(E_33, "this ruleset has no morale rules (they exist only in the current edition)")


# ----- enums -----


class Trigger(Enum):
    """The four morale triggers (MOR-7..10)."""

    FIRST_BLOOD = "first-blood"
    LEADER_DOWN = "leader-down"
    HALF_STRENGTH = "half-strength"
    FEAR_EFFECT = "fear-effect"


class Outcome(Enum):
    """What one morale check's total means (G-03)."""

    HOLD = "hold"
    FALL_BACK = "fall-back"
    BREAK = "break"


SEVERITY = {s: i for i, s in enumerate(Status)}
"""How bad a status is; morale only ever gets worse, except by a rally (MOR-20, MOR-26)."""
OUTCOME_STATUS = {Outcome.HOLD: Status.HOLD, Outcome.FALL_BACK: Status.FALL_BACK, Outcome.BREAK: Status.BROKEN}
CHECKABLE = frozenset({Status.HOLD, Status.FALL_BACK})
"""Statuses a failed check can still worsen (a broken, routed or surrendered NPC has nothing left to lose)."""
class WillSource(Enum):
    """Where a morale Will modifier comes from (G-01)."""

    MORALE_PROFILE = "morale-profile"
    WILL_SAVE = "will-save"
    TYPE_DEFAULT = "type-default"
    DERIVED_WILL = "derived-will"
    GROUP = "group"


# ----- Will -----


@dataclass(frozen=True, slots=True)
class WillBasis:
    """The Will modifier a morale check adds, with where it came from."""

    value: int
    source: WillSource
    modifier: Modifier


_TYPE_OPTION = {"civilian": "will_civilian", "bandit": "will_bandit", "soldier": "will_soldier",
                "elite": "will_elite", "fanatic": "will_fanatic"}
"""Morale types with a G-01 default, and the option holding it."""


def morale_will(creature: Creature, ruleset: Ruleset) -> WillBasis:
    """A creature's morale Will (G-01): morale profile (MOR-6), Will save, type default, else WIS-based Will."""
    require_morale(ruleset)
    profile = creature.morale
    if profile.will is not None:
        return _basis(profile.will, WillSource.MORALE_PROFILE, MOR_6, "morale Will (stat block)")
    if Save.WILL in creature.saves or Save.WILL in creature.save_proficiencies:
        return _basis(creature.save_modifier(Save.WILL), WillSource.WILL_SAVE, G_01, "Will save")
    option_name = _TYPE_OPTION.get(profile.type)
    if option_name is not None:
        value: int = getattr(ruleset.morale, option_name)
        return _basis(value, WillSource.TYPE_DEFAULT, G_01, f"{profile.type} morale")
    return _basis(creature.save_modifier(Save.WILL), WillSource.DERIVED_WILL, G_22, "Will save (WIS)")


def _basis(value: int, source: WillSource, rule_id: RuleId, label: str) -> WillBasis:
    return WillBasis(value, source, Modifier(value, ModifierKind.UNTYPED, rule_id, label))


def group_will(members: Sequence[WillBasis]) -> WillBasis:
    """The group's shared morale Will (MOR-4): the value most members have; on a tie, the lower one.

    Raises:
        ValueError: For an empty group.
    """
    if not members:
        raise ValueError("a group needs at least one member to check morale")
    values = [m.value for m in members]
    shared = min(set(values), key=lambda v: (-values.count(v), v))
    return _basis(shared, WillSource.GROUP, MOR_4, "group morale Will")


# ----- immunity -----


def immunity(creature: Creature, ruleset: Ruleset, *, encounter_immune: bool = False) -> RuleId | None:
    """The rule that keeps a creature from ever checking morale, or None if it checks."""
    require_morale(ruleset)
    if creature.is_pc:
        return MOR_2
    if ruleset.morale.bosses_immune and (creature.boss or creature.legendary):
        return MOR_33
    if creature.mindless or creature.undead or creature.machine:
        return MOR_35
    if creature.morale.immune:
        return G_01
    if encounter_immune:
        return MOR_37
    return None


# ----- triggers -----


@dataclass(frozen=True, slots=True)
class TriggerDef:
    """A trigger's rule and its DC modifier (the MoraleSection option and the rule that sets it)."""

    rule: RuleId
    dc_option: str
    dc_rule: RuleId
    label: str


TRIGGERS: dict[Trigger, TriggerDef] = {
    Trigger.FIRST_BLOOD: TriggerDef(MOR_7, "first_blood_dc", G_02, "First Blood"),
    Trigger.LEADER_DOWN: TriggerDef(MOR_8, "leader_down_dc", MOR_15, "Leader Down"),
    Trigger.HALF_STRENGTH: TriggerDef(MOR_9, "half_strength_dc", G_02, "Half Strength"),
    Trigger.FEAR_EFFECT: TriggerDef(MOR_10, "fear_dc", G_02, "Fear Effect"),
}
GROUP_TRIGGERS = frozenset({Trigger.FIRST_BLOOD, Trigger.LEADER_DOWN, Trigger.HALF_STRENGTH})
"""Triggers that check the whole group; a Fear Effect checks the frightened individual (MOR-10)."""


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What one event did to one NPC group.

    Attributes:
        group_size: Members when the encounter began.
        casualties_before: Members reduced to 0 HP earlier in the encounter.
        dropped: Members this event reduced to 0 HP (not counting earlier casualties again).
        leader_down: This event killed, incapacitated, stunned or paralyzed the group's leader (MOR-8).
        fear: This event gave a member Frightened or Shaken (MOR-10).
        first_blood_done: First Blood already happened in this encounter (MOR-7).
    """

    group_size: int
    casualties_before: int = 0
    dropped: int = 0
    leader_down: bool = False
    fear: bool = False
    first_blood_done: bool = False


def unable_to_command(conditions: Collection[Condition]) -> RuleId | None:
    """MOR-8 when a leader cannot command: incapacitated, which Stunned, Paralyzed and 0 HP imply."""
    return MOR_8 if Condition.INCAPACITATED in cond.expand(conditions) else None


def _half(casualties: int, size: int, ruleset: Ruleset) -> bool:
    return size > 0 and casualties * ruleset.morale.half_strength_divisor >= size


def triggers_for(facts: EventFacts, ruleset: Ruleset) -> frozenset[Trigger]:
    """The triggers one event fires for a group (MOR-7..10); Half Strength fires when it is first reached."""
    require_morale(ruleset)
    after = facts.casualties_before + facts.dropped
    fired = {
        Trigger.FIRST_BLOOD: facts.dropped > 0 and not facts.first_blood_done,
        Trigger.LEADER_DOWN: facts.leader_down,
        Trigger.HALF_STRENGTH: _half(after, facts.group_size, ruleset)
        and not _half(facts.casualties_before, facts.group_size, ruleset),
        Trigger.FEAR_EFFECT: facts.fear,
    }
    return frozenset(t for t, yes in fired.items() if yes)


def is_outnumbered(own_active: int, opponents_active: int) -> bool:
    """G-02: the group's side has fewer active combatants than its opponents."""
    return own_active < opponents_active


# ----- DC and the check -----


def morale_dc(triggers: Iterable[Trigger], ruleset: Ruleset, *, outnumbered: bool = False) -> DC:
    """Base 12 plus every trigger's modifier and outnumbered's, all stacking (MOR-14, MOR-15, G-02)."""
    require_morale(ruleset)
    m = ruleset.morale
    fired = set(triggers)
    mods = [Modifier(m.base_dc, ModifierKind.DC_BASE, MOR_14, "base Morale DC")]
    for trigger in Trigger:
        if trigger in fired:
            d = TRIGGERS[trigger]
            mods.append(Modifier(getattr(m, d.dc_option), ModifierKind.CIRCUMSTANCE, d.dc_rule, d.label))
    if outnumbered:
        mods.append(Modifier(m.outnumbered_dc, ModifierKind.CIRCUMSTANCE, MOR_15, "outnumbered"))
    parts = stack(mods)
    return DC(parts.total, parts, MOR_14)


def outcome_of(total: int, dc: int, ruleset: Ruleset) -> Outcome:
    """Meet the DC: Hold (G-45); fail by up to the band: Fall Back; by more: Break (G-03)."""
    shortfall = dc - total
    if shortfall <= 0:
        return Outcome.HOLD
    return Outcome.FALL_BACK if shortfall <= ruleset.morale.fall_back_band else Outcome.BREAK


@dataclass(frozen=True, slots=True)
class MoraleCheck:
    """One morale check (MOR-3): the roll, the DC with its parts, the triggers and the outcome."""

    roll: D20Roll
    dc: DC
    will: WillBasis
    triggers: tuple[Trigger, ...]
    outcome: Outcome
    margin: int
    reasons: tuple[RuleId, ...]


def morale_check(
    will: WillBasis,
    dc: DC,
    rng: Rng,
    ruleset: Ruleset,
    *,
    triggers: Iterable[Trigger] = (),
    conditions: Collection[Condition] = (),
    sources: Sequence[RollSource] = (),
    modifiers: Sequence[Modifier] = (),
) -> MoraleCheck:
    """Roll 1d20 + morale Will against the Morale DC (MOR-3): one roll for all of an event's triggers (MOR-12).

    Args:
        will: The individual's or the group's morale Will.
        dc: From :func:`morale_dc`.
        rng: Supplies the d20.
        ruleset: Options (``morale.fall_back_band``).
        triggers: The triggers the check answers.
        conditions: The roller's conditions (Shaken: disadvantage on Will, G-14).
        sources: Further advantage/disadvantage (Menacing Presence, MOR-29).
        modifiers: Further modifiers (Psychic Fracture -1 Will, MOR-32).
    """
    require_morale(ruleset)
    roll = roll_d20(rng, (will.modifier, *modifiers), (*cond.save_sources(conditions, Save.WILL), *sources))
    fired = tuple(t for t in Trigger if t in set(triggers))
    outcome = outcome_of(roll.total, dc.total, ruleset)
    return MoraleCheck(roll, dc, will, fired, outcome, roll.total - dc.total, (MOR_3, MOR_12, G_45, G_44, G_03))


# ----- state -----



def worse(a: Status, b: Status) -> Status:
    """The worse of two statuses."""
    return a if SEVERITY[a] >= SEVERITY[b] else b


def next_status(current: Status, outcome: Outcome, rallied: bool) -> Status:
    """A status after a check: passing changes nothing (MOR-20); failing after a rally routs (MOR-26)."""
    if current not in CHECKABLE or outcome is Outcome.HOLD:
        return current
    if rallied:
        return Status.ROUTED
    return worse(current, OUTCOME_STATUS[outcome])


def record_casualties(group: GroupMorale, dropped: Iterable[str]) -> GroupMorale:
    """The record after members dropped to 0 HP: First Blood done, casualties counted once each (MOR-7, MOR-9)."""
    new = tuple(d for d in dict.fromkeys(dropped) if d not in group.casualties)
    if not new:
        return group
    return replace(group, first_blood_done=True, casualties=(*group.casualties, *new))


def after_check(group: GroupMorale, check: MoraleCheck) -> GroupMorale:
    """The record after a group check (G-03, MOR-20, MOR-26); a failure remembers its DC for a rally (G-04)."""
    failed = check.outcome is not Outcome.HOLD
    return replace(group, status=next_status(group.status, check.outcome, group.rallied),
                   failed_dc=check.dc.total if failed else group.failed_dc)


# ----- rally -----


def check_rally(group: GroupMorale, leader_conditions: Collection[Condition], ruleset: Ruleset) -> None:
    """Raise unless a leader may try to rally this group now (MOR-25, MOR-26, G-04)."""
    require_morale(ruleset)
    if unable_to_command(leader_conditions):
        raise RuleViolation(MOR_25, "an incapacitated leader cannot rally")
    if group.status is Status.ROUTED:
        raise RuleViolation(MOR_26, "the group failed morale after a rally: the rout is permanent")
    if group.status not in (Status.FALL_BACK, Status.BROKEN) or group.failed_dc is None:
        raise RuleViolation(MOR_25, "the group is not falling back or broken")
    if group.rallies >= ruleset.morale.rallies_per_encounter:
        raise RuleViolation(MOR_26, "the group has already been rallied this encounter")


@dataclass(frozen=True, slots=True)
class RallyResult:
    """A rally attempt: the leader's check against the DC the group failed, and the group afterwards."""

    check: MoraleCheck
    success: bool
    group: GroupMorale
    reasons: tuple[RuleId, ...]


def rally(
    leader_will: WillBasis, group: GroupMorale, rng: Rng, ruleset: Ruleset,
    *, leader_conditions: Collection[Condition] = (),
) -> RallyResult:
    """The leader's morale check against the group's failed DC; success returns it to Hold (G-04, MOR-26)."""
    check_rally(group, leader_conditions, ruleset)
    assert group.failed_dc is not None
    dc = fixed_dc(group.failed_dc, G_04, "the DC the group failed")
    check = morale_check(leader_will, dc, rng, ruleset, conditions=leader_conditions)
    success = check.outcome is Outcome.HOLD
    after = replace(group, status=Status.HOLD, rallies=group.rallies + 1) if success else group
    return RallyResult(check, success, after, (G_04, MOR_25, MOR_26))
