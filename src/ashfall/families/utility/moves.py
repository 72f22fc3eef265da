"""Utility actions: Dodge, Help, Hide, Search, Use Object/Item, Identify, Use Skill and the free actions.

Dodge (DOD-1, DOD-2): Dodging until the start of your next turn (attacks against you at disadvantage,
Reflex advantage, no AoO as you move: Dodge is also the withdrawal). Help (HLP-1, HLP-2, E-38): an ally
within 5 ft gets advantage on its next ability check, or, after your DC 10 check, on its next attack,
until the start of your next turn. Hide (HID-1..3, G-20): with cover or heavy obscurement, Stealth
against every enemy's passive Perception (meet or exceed hides, G-45); the total is recorded, and
Search (ACT-12, SRCH-1) must beat it (a tie keeps the hider hidden, G-45). Identify and Use Skill roll
a check against a DC the GM gives (ACT-11, ACT-13). Free actions (AE-3): speak (FA-1), drop an item
(FA-2), fall prone (FA-3), simple object interactions such as kicking over a brazier (UOB-2, FA-7).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ashfall.core.modifiers import RollSource
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, Condition, Skill
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind, TimedEffect
from ashfall.engine.harm import add, end_conditions
from ashfall.engine.records import Tally, use_name
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.maneuvers.engine import (
    adjacent,
    effect_key,
    held_items,
    helped_sources,
    side,
    within,
)
from ashfall.families.senses.engine import hidden_by_obscurement, obscured_from_all, search_sources, stealth_sources
from ashfall.grid.board import CoverLevel, Square
from ashfall.grid.geometry import cover_between
from ashfall.rules.checks import CheckResult, Stat, ability_check, contest_recorded, passive_perception, stat_modifier
from ashfall.rules.condition_durations import (
    AppliedCondition,
    Duration,
    EndEvent,
    checks_against_sources,
    dodging,
)
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.dc import fixed_dc

DOD_1, HLP_1, HLP_2, HID_2, HID_3, G_20, G_45 = (
    rule("DOD-1"), rule("HLP-1"), rule("HLP-2"), rule("HID-2"), rule("HID-3"), rule("G-20"), rule("G-45"))
ACT_11, ACT_12, ACT_13, ACT_14, UOB_1, UOB_2, E_38 = (
    rule("ACT-11"), rule("ACT-12"), rule("ACT-13"), rule("ACT-14"), rule("UOB-1"), rule("UOB-2"), rule("E-38"))
FA_1, FA_2, FA_3 = rule("FA-1"), rule("FA-2"), rule("FA-3")
STEALTH_TOTAL = Tally.STEALTH_TOTAL.value
"""The event-log name of a hidden creature's recorded Stealth total (G-45)."""
HELP_SKILLS = (Skill.ATHLETICS, Skill.PERCEPTION, Skill.DECEPTION)
"""The skills the text suggests for helping an attack (steady aim, spot a weak point, distract, HLP-2)."""


def log_check(ctx: Context, actor: str, label: str, check: CheckResult) -> None:
    """Record an ability check against its DC."""
    ctx.emit(ev.CheckRolled(actor, label, ev.RollRecord.of(check.roll), check.dc.total, check.success, check.dc.rule))


def roll_check(ctx: Context, c: Combatant, stat: Stat, dc: int, rule_id: RuleId, label: str,
               sources: tuple[RollSource, ...] = ()) -> CheckResult:
    """Roll a check against a fixed DC with the creature's conditions and Help's advantage, and log it."""
    check = ability_check(c.creature, stat, fixed_dc(dc, rule_id, "DC"), ctx.rng, ctx.ruleset,
                          conditions=c.condition_set, sources=(*helped_sources(ctx, c.id), *sources))
    log_check(ctx, c.id, label, check)
    return check


# ----- Dodge (DOD-1, DOD-2) -----


@dataclass(frozen=True, slots=True)
class Dodge:
    """Dodge until the start of your next turn (DOD-1)."""

    actor: str


def _resolve_dodge(ctx: Context, intent: Dodge) -> None:
    add(ctx, intent.actor, dodging(intent.actor))


# ----- Help (HLP-1, HLP-2, E-38) -----


@dataclass(frozen=True, slots=True)
class Help:
    """Help an ally within 5 ft: its next check (HLP-1), or its next attack after a check (``attack``, HLP-2)."""

    actor: str
    ally: str
    attack: bool = False
    skill: Skill | None = None


def _check_help(state: EncounterState, intent: Help) -> None:
    c = state.get(intent.actor)
    if intent.ally not in state.combatants or intent.ally == c.id:
        raise refuse("HLP-1", "Help an ally other than yourself")
    ally = state.get(intent.ally)
    if ally.side != c.side or not ally.is_active:
        raise refuse("HLP-1", f"{ally.name} is not an ally who can act")
    reach = state.ruleset.checks.help_range_ft
    if not within(state, c, ally, reach):
        raise refuse("HLP-1", f"{ally.name} must be within {reach} ft")


def _resolve_help(ctx: Context, intent: Help) -> None:
    c = ctx.state.get(intent.actor)
    until = Duration.start_of_next_turn(c.id)
    if not intent.attack:
        kind, why = EffectKind.ADVANTAGE_NEXT_CHECK, HLP_1
    else:
        kind, why = EffectKind.ADVANTAGE_NEXT_ATTACK, HLP_2
        if ctx.ruleset.checks.help_attack_check:
            skill = intent.skill or max(HELP_SKILLS, key=lambda s: stat_modifier(c.creature, s))
            if not roll_check(ctx, c, skill, ctx.ruleset.checks.help_attack_dc, HLP_2, f"Help: {skill.value}").success:
                return
        else:
            why = E_38
    ctx.emit(ev.EffectAdded(TimedEffect(effect_key(ctx, kind, intent.ally), kind, intent.ally, why, until,
                                        source=c.id), why))


# ----- Hide (HID-1..3, G-20, CONC-17) and Search (ACT-12, SRCH-1, G-45) -----


@dataclass(frozen=True, slots=True)
class Hide:
    """Hide (HID-1): needs cover or concealment from every enemy: light or heavy obscurement (``obscured``, CONC-17).

    ``cover``: the GM's declaration (theater of mind, or to override the map).
    """

    actor: str
    obscured: bool = False
    cover: bool | None = None


def _observers(state: EncounterState, actor: str) -> list[Combatant]:
    return [e for e in state.enemies_of(actor) if e.is_active and Condition.UNCONSCIOUS not in e.condition_set]


def _has_cover(state: EncounterState, c: Combatant, cover: bool | None) -> bool:
    if cover is not None:
        return cover
    if state.board is None or not c.space:
        return False
    watchers = [e for e in _observers(state, c.id) if e.space]
    return bool(watchers) and all(cover_between(state.board, e.space, c.space)[0] is not CoverLevel.NONE
                                  or hidden_by_obscurement(state, e, c) for e in watchers)


def _check_hide(state: EncounterState, intent: Hide) -> None:
    c = state.get(intent.actor)
    if not intent.obscured and not _has_cover(state, c, intent.cover) and not obscured_from_all(
            state, c, _observers(state, c.id)):
        raise refuse("HID-1", "hiding needs cover or concealment (obscurement) from every enemy (HID-1, CONC-17)")


def _resolve_hide(ctx: Context, intent: Hide) -> None:
    state = ctx.state
    c = state.get(intent.actor)
    murk = state.rulebook.passive_perception_modifiers(state)  # murky water, UW-25
    passives = {e.id: passive_perception(e.creature, e.condition_set, state.ruleset, modifiers=murk).total
                for e in _observers(state, c.id)}
    check = ability_check(c.creature, Skill.STEALTH, fixed_dc(max(passives.values(), default=0), HID_2,
                                                              "highest passive Perception"),
                          ctx.rng, ctx.ruleset, conditions=c.condition_set,
                          sources=(*helped_sources(ctx, c.id), *stealth_sources(state, c)))
    total = check.roll.total
    for eid, passive in passives.items():
        ctx.emit(ev.CheckRolled(c.id, f"Stealth vs {state.get(eid).name}'s passive Perception",
                                ev.RollRecord.of(check.roll), passive, total >= passive, HID_2))
    if check.success:
        add(ctx, c.id, AppliedCondition(Condition.HIDDEN, HID_3, c.id))
        before = c.supplies.count(Tally.STEALTH_TOTAL)
        ctx.emit(ev.ResourceUsed(c.id, use_name(Tally.STEALTH_TOTAL), total - before, G_20))


@dataclass(frozen=True, slots=True)
class Search:
    """Look for hidden creatures: Perception (or Investigation) against each one's recorded Stealth (ACT-12)."""

    actor: str
    skill: Skill = Skill.PERCEPTION


def _check_search(state: EncounterState, intent: Search) -> None:
    if intent.skill not in (Skill.PERCEPTION, Skill.INVESTIGATION):
        raise refuse("SRCH-1", "Search uses Perception or Investigation")


def _resolve_search(ctx: Context, intent: Search) -> None:
    state = ctx.state
    c = state.get(intent.actor)
    hiders = [e for e in state.enemies_of(c.id) if e.has(Condition.HIDDEN)]
    recorded = [h.supplies.count(Tally.STEALTH_TOTAL) for h in hiders]
    result = contest_recorded(side(ctx, c, (intent.skill,), sources=search_sources(state, c, hiders)), recorded,
                              ctx.rng)
    if not hiders:
        ctx.emit(ev.CheckRolled(c.id, f"Search: {intent.skill.value}", ev.RollRecord.of(result.roll), 0, True,
                                ACT_12))
    for h, total, found in zip(hiders, recorded, result.beats, strict=True):
        ctx.emit(ev.CheckRolled(c.id, f"Search: {intent.skill.value} vs {h.name}'s Stealth",
                                ev.RollRecord.of(result.roll), total, found, G_45))
        if found:
            end_conditions(ctx, h.id, EndEvent(EndTrigger.FOUND), ACT_12)


# ----- Use Object / Use Item / pick up (UOB-1, UOB-2, ACT-14, FA-7) -----


@dataclass(frozen=True, slots=True)
class UseObject:
    """Use an object: 1 action, or a free action for a simple interaction (``simple``, UOB-2, FA-7)."""

    actor: str
    what: str
    simple: bool = False


def _object_cost(state: EncounterState, intent: UseObject | PickUp) -> int:
    return 0 if intent.simple else 1


def _check_simple(state: EncounterState, intent: UseObject | PickUp) -> None:
    c = state.get(intent.actor)
    if intent.simple and c.turn.free_actions >= state.ruleset.turn.free_actions_per_turn:
        raise refuse("AE-3", "no free actions left this turn")


def _spend_simple(ctx: Context, intent: UseObject | PickUp) -> None:
    if intent.simple:
        ctx.emit(ev.ResourceUsed(intent.actor, "free-action", 1, UOB_2))


def _resolve_object(ctx: Context, intent: UseObject) -> None:
    _spend_simple(ctx, intent)
    ctx.emit(ev.ActionNoted(intent.actor, "use object", intent.what, UOB_2 if intent.simple else UOB_1))


@dataclass(frozen=True, slots=True)
class PickUp:
    """Pick up an item lying in your space or an adjacent square (UOB-1; ``simple`` if the GM allows, UOB-2)."""

    actor: str
    item: str
    simple: bool = False


def _ground_item(state: EncounterState, intent: PickUp) -> Square | None:
    c = state.get(intent.actor)
    for g in state.ground:
        if g.item.id != intent.item:
            continue
        if g.square is None or not c.space or any(max(abs(g.square[0] - x), abs(g.square[1] - y)) <= 1
                                                  for x, y in c.space):
            return g.square
    raise refuse("UOB-1", f"no {intent.item!r} within reach on the ground")


def _check_pick_up(state: EncounterState, intent: PickUp) -> None:
    _check_simple(state, intent)
    _ground_item(state, intent)


def _resolve_pick_up(ctx: Context, intent: PickUp) -> None:
    _spend_simple(ctx, intent)
    ctx.emit(ev.ItemPickedUp(intent.actor, intent.item, _ground_item(ctx.state, intent), UOB_1))


@dataclass(frozen=True, slots=True)
class UseItem:
    """Activate a device or drink a potion: 1 action (ACT-14); the GM narrates the effect."""

    actor: str
    item: str


def _resolve_item(ctx: Context, intent: UseItem) -> None:
    ctx.emit(ev.ActionNoted(intent.actor, "use item", intent.item, ACT_14))


# ----- Identify and Use Skill (ACT-11, ACT-13): checks against the GM's DC -----


@dataclass(frozen=True, slots=True)
class Identify:
    """Recall knowledge about a creature or object: an INT or WIS check against the GM's DC (ACT-13)."""

    actor: str
    subject: str
    dc: int
    stat: Stat = Attribute.INT


def _check_identify(state: EncounterState, intent: Identify) -> None:
    attribute = intent.stat if isinstance(intent.stat, Attribute) else intent.stat.attribute
    if attribute not in (Attribute.INT, Attribute.WIS):
        raise refuse("ACT-13", "Identify is an INT or WIS check")


def _resolve_identify(ctx: Context, intent: Identify) -> None:
    c = ctx.state.get(intent.actor)
    roll_check(ctx, c, intent.stat, intent.dc, ACT_13, f"Identify {intent.subject}: {intent.stat.value}")


@dataclass(frozen=True, slots=True)
class UseSkill:
    """Make a skill check to achieve an effect, against the GM's DC (ACT-11).

    ``target``: the creature the check is aimed at, if any (persuading, intimidating or deceiving someone):
    a social check against a creature the actor has charmed has advantage (C-CHA, 000:849).
    """

    actor: str
    skill: Skill
    dc: int
    purpose: str = ""
    target: str | None = None


def _check_use_skill(state: EncounterState, intent: UseSkill) -> None:
    if intent.target is not None and intent.target not in state.combatants:
        raise refuse("ACT-11", f"no combatant {intent.target!r}")


def _resolve_use_skill(ctx: Context, intent: UseSkill) -> None:
    c = ctx.state.get(intent.actor)
    charm = () if intent.target is None else checks_against_sources(ctx.state.get(intent.target).conditions, c.id,
                                                                    intent.skill)
    roll_check(ctx, c, intent.skill, intent.dc, ACT_11, f"{intent.skill.value}: {intent.purpose}".rstrip(": "),
               charm)


# ----- free actions (FA-1..3) -----


@dataclass(frozen=True, slots=True)
class Speak:
    """Say a short phrase (FA-1), on or off your turn; shouting (``loud``) ends Hidden (G-20)."""

    actor: str
    text: str = ""
    loud: bool = False


def _resolve_speak(ctx: Context, intent: Speak) -> None:
    ctx.emit(ev.ActionNoted(intent.actor, "shout" if intent.loud else "speak", intent.text, FA_1))
    if intent.loud:
        end_conditions(ctx, intent.actor, EndEvent(EndTrigger.MAKES_NOISE), G_20)


@dataclass(frozen=True, slots=True)
class DropItem:
    """Let go of a held item; it lands at your feet (FA-2)."""

    actor: str
    item: str


def _check_drop(state: EncounterState, intent: DropItem) -> None:
    c = state.get(intent.actor)
    if intent.item not in held_items(c):
        natural = any(w.id == intent.item for w in c.weapons)
        raise refuse("NAT-3" if natural else "FA-2", f"{c.name} holds no {intent.item!r} it could drop")


def _resolve_drop(ctx: Context, intent: DropItem) -> None:
    ctx.emit(ev.ItemDropped(intent.actor, intent.item, ctx.state.get(intent.actor).position, FA_2))


@dataclass(frozen=True, slots=True)
class FallProne:
    """Drop prone on purpose (FA-3)."""

    actor: str


def _check_fall(state: EncounterState, intent: FallProne) -> None:
    if Condition.PRONE in state.get(intent.actor).condition_set:
        raise refuse("FA-3", "already prone")


def _resolve_fall(ctx: Context, intent: FallProne) -> None:
    add(ctx, intent.actor, AppliedCondition(Condition.PRONE, FA_3, intent.actor))


# ----- candidates and registration -----


def _dodge_candidates(state: EncounterState, actor: str) -> Iterable[Dodge]:
    return [Dodge(actor)]


def _help_candidates(state: EncounterState, actor: str) -> Iterable[Help]:
    c = state.get(actor)
    return [Help(actor, a.id, attack=True) for a in state.allies_of(actor) if a.is_active and adjacent(state, c, a)]


def _hide_candidates(state: EncounterState, actor: str) -> Iterable[Hide]:
    return [] if state.get(actor).has(Condition.HIDDEN) else [Hide(actor)]


def _search_candidates(state: EncounterState, actor: str) -> Iterable[Search]:
    return [Search(actor)] if any(e.has(Condition.HIDDEN) for e in state.enemies_of(actor)) else []


def _pick_up_candidates(state: EncounterState, actor: str) -> Iterable[PickUp]:
    return [PickUp(actor, g.item.id) for g in state.ground if g.owner == actor]


__all__ = ["Dodge", "DropItem", "FallProne", "Help", "Hide", "Identify", "PickUp", "Search", "Speak", "UseItem",
           "UseObject", "UseSkill"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Dodge, ActionDef("dodge", DOD_1, fixed(1), _resolve_dodge, candidates=_dodge_candidates))
    book.action(Help, ActionDef("help", HLP_1, fixed(1), _resolve_help, _check_help, _help_candidates))
    book.action(Hide, ActionDef("hide", rule("HID-1"), fixed(1), _resolve_hide, _check_hide, _hide_candidates))
    book.action(Search, ActionDef("search", ACT_12, fixed(1), _resolve_search, _check_search, _search_candidates))
    book.action(UseObject, ActionDef("use-object", UOB_1, _object_cost, _resolve_object, _check_simple))
    book.action(PickUp, ActionDef("pick-up", UOB_1, _object_cost, _resolve_pick_up, _check_pick_up,
                                  _pick_up_candidates))
    book.action(UseItem, ActionDef("use-item", ACT_14, fixed(1), _resolve_item))
    book.action(Identify, ActionDef("identify", ACT_13, fixed(1), _resolve_identify, _check_identify))
    book.action(UseSkill, ActionDef("use-skill", ACT_11, fixed(1), _resolve_use_skill))
    book.action(Speak, ActionDef("speak", FA_1, fixed(0), _resolve_speak, own_turn=False, free=True))
    book.action(DropItem, ActionDef("drop-item", FA_2, fixed(0), _resolve_drop, _check_drop, free=True))
    book.action(FallProne, ActionDef("fall-prone", FA_3, fixed(0), _resolve_fall, _check_fall, free=True))
