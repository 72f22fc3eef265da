"""Underwater fights on the battlefield: the breath clock, attacks, damage, spreading, sight, depth and speech (UW).

Glue between ``environment.underwater`` and the pure rules of :mod:`ashfall.families.underwater.rules`; every
number comes from ``ruleset.underwater``. What it registers when imported:

* **Breath** (UW-1..6, G-15, G-16). A creature that cannot breathe — every creature in an underwater
  fight, any creature that is Drowning or Buried — holds its breath: END + proficiency rounds (at least
  3). At the end of each of its turns the clock loses 1 round, plus 1 after a strenuous turn (damage
  taken since its last turn, 2+ actions on attacks, a Sprint; at most 1 extra). A creature whose turn
  did not end this round (unconscious, surprised) loses its round at the end of the round. Out of
  breath it becomes Suffocating (UW-4); Suffocating counts down at the start of its turns and then
  drops it to 0 HP (G-15). Sealed gear, the Biological Repurposer, gills and (by default) machines
  need no air (UW-5, UW-6), and sealed gear and the Repurposer shed Suffocating and Drowning as soon as
  anything applies them; once a creature can breathe again its clock resets and Suffocating ends.
  The flooding hazard only adds Drowning; this module runs the breath that follows (G-16).
* **Attacks** (UW-12..19, X-24): an attack hook adds the water's disadvantage or an automatic miss.
* **Damage** (UW-20, UW-23, G-39 step 2): fire halved and thunder (sonic, G-27) +1d6 as ledger adjusters.
* **Spreading** (UW-21, UW-22, G-28): after cold or electric damage, the water carries the rolled amount
  to every other creature within 5 ft (cold, no save) or 10 ft (electric, Reflex save for half against
  the original DC, or 8 + the attacker's attack attribute + proficiency). Spread damage has the source
  :data:`WATER` and never spreads again. Off the map nothing spreads (the GM adjudicates).
* **Sight** (UW-24..26, VIS-12): a visibility hook lays the water over every square; murky water costs
  passive Perception 5 (UW-25, wired where passive Perception is computed).
* **Depth** (UW-9..11): :class:`Swim` moves up or down (Athletics DC 10 without a swim speed; heavy armor
  at disadvantage); heavy armor sinks 10 ft at the end of a turn without movement. Depth is recorded
  per creature (``environment.depth_ft``); distances on the map stay two-dimensional.
* **Speech** (UW-27, UW-28): :func:`~ashfall.families.underwater.engine_speech.cannot_speak` refuses spells with a
  verbal component.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ashfall.content.schema import Weapon
from ashfall.core.dice import roll
from ashfall.core.modifiers import Modifier
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Attribute, Condition, DamageType, Save, Skill
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.harm import add, deal_damage, end_conditions
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackExtra
from ashfall.families.attacks.engine_common import speed_ft
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.families.senses.rules import Cause, Obscurement, Veil
from ashfall.families.underwater import rules as uw
from ashfall.families.underwater.engine_speech import cannot_speak
from ashfall.grid.board import Square
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules import conditions as cond
from ashfall.rules.checks import ability_check, saving_throw
from ashfall.rules.condition_durations import AppliedCondition, EndEvent, suffocating, suffocation_turn_start
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.damage import DamageAdjuster, DamageResult, DamageRoll, LedgerStep
from ashfall.rules.dc import DC
from ashfall.rules.health import Vitality, falls_dying
from ashfall.ruleset import Ruleset

WATER = "water"
"""The source of damage the water carries (UW-21, UW-22): it never spreads again."""
UW_1, UW_3, UW_4, UW_9, UW_10 = rule("UW-1"), rule("UW-3"), rule("UW-4"), rule("UW-9"), rule("UW-10")
UW_23, G_15, DEATH_1, G_38 = rule("UW-23"), rule("G-15"), rule("DEATH-1"), rule("G-38")
_BEFORE_DEFENSES = (LedgerStep.ROLLED, LedgerStep.MINIMUM, LedgerStep.ENVIRONMENT)


def water(state: EncounterState) -> uw.WaterClarity | None:
    """The fight's water type, or None when it is not underwater."""
    found = state.environment.underwater
    return None if found is None else uw.WaterClarity(found.value)


# ----- breath (UW-1..6, G-15, G-16) -----


def breath_left(state: EncounterState, cid: str) -> int | None:
    """Rounds of breath a creature has left, or None while it breathes freely."""
    held = state.environment.breath.get(cid)
    return None if held is None else held.rounds_left


def breathing_immunity(state: EncounterState, c: Combatant) -> RuleId | None:
    """UW-5 or UW-6 when the creature is immune to Suffocating and Drowning now (sealed gear, Repurposer)."""
    why = uw.breathes_freely(c.creature, state.round, state.ruleset)
    return why if why in (uw.UW[5], uw.UW[6]) else None


def needs_air(state: EncounterState, c: Combatant) -> bool:
    """Whether the creature holds its breath now: underwater or unable to breathe (G-16, G-18), without air."""
    if c.health.is_dead:
        return False
    submerged = state.environment.underwater is not None or cond.cannot_breathe(c.condition_set) is not None
    return submerged and uw.breathes_freely(c.creature, state.round, state.ruleset) is None


def _this_turn(log: Sequence[object], cid: str) -> tuple[list[object], list[object]]:
    """The events of ``cid``'s turn that just ended, and those since its previous turn ended."""
    turn: list[object] = []
    since: list[object] = []
    in_turn, ended = True, 0
    for e in reversed(log):
        if isinstance(e, ev.TurnEnded) and e.actor == cid:
            ended += 1
            if ended == 2:
                break
            continue
        if in_turn and isinstance(e, ev.TurnStarted) and e.actor == cid:
            in_turn = False
        if in_turn:
            turn.append(e)
        since.append(e)
    return turn[::-1], since


def effort(log: Sequence[object], cid: str, ruleset: Ruleset) -> uw.Strenuous:
    """What made the turn that just ended strenuous (UW-3), read off the log."""
    turn, since = _this_turn(log, cid)
    took = any(isinstance(e, ev.DamageTaken) and e.target == cid and e.amount > 0 for e in since)
    attack_actions, pending = 0, 0
    for e in turn:
        if isinstance(e, ev.ActionsSpent) and e.actor == cid:
            pending = e.count
        elif isinstance(e, ev.AttackRolled) and e.actor == cid and pending:
            attack_actions, pending = attack_actions + pending, 0
    sprinted = any(isinstance(e, ev.ActionsSpent) and e.actor == cid and e.rule == "MAA-8" for e in turn)
    return uw.strenuous(took, attack_actions, sprinted, ruleset)


def _release(ctx: Context, c: Combatant, why: RuleId) -> None:
    """The creature breathes again: its clock resets and Suffocating ends (G-15)."""
    if breath_left(ctx.state, c.id) is not None:
        ctx.emit(ev.BreathChanged(c.id, None, rule=why))
    if c.has(Condition.SUFFOCATING):
        end_conditions(ctx, c.id, EndEvent(EndTrigger.CAN_BREATHE), G_15)


def hold_breath(ctx: Context, cid: str, hard: uw.Strenuous) -> None:
    """One round of holding breath for a creature that needs air (UW-1..4); out of breath it suffocates."""
    state = ctx.state
    c = state.get(cid)
    left = breath_left(state, cid)
    if left is None:
        left = uw.breath_rounds(c.creature, state.ruleset)
    if left == 0 and c.has(Condition.SUFFOCATING):
        return
    tick = uw.breath_after_turn(left, hard)
    ctx.emit(ev.BreathChanged(cid, tick.rounds_left, tick.spent, hard.reasons, UW_3 if hard.extra else UW_1))
    if tick.out_of_breath and not c.has(Condition.SUFFOCATING):
        add(ctx, cid, suffocating(c.creature.attributes.END, state.ruleset, UW_4))


def _breath_at_end_of_turn(ctx: Context, cid: str) -> None:
    c = ctx.state.get(cid)
    if not needs_air(ctx.state, c):
        _release(ctx, c, uw.breathes_freely(c.creature, ctx.state.round, ctx.ruleset) or UW_1)
        return
    hold_breath(ctx, cid, effort(ctx.log, cid, ctx.ruleset))


def _breath_at_end_of_round(ctx: Context) -> None:
    """Creatures whose turn did not end this round still lose a round of breath (no strenuous extra)."""
    state = ctx.state
    for c in list(state.combatants.values()):
        if not needs_air(state, c):
            if breath_left(state, c.id) is not None or c.has(Condition.SUFFOCATING):
                _release(ctx, c, uw.breathes_freely(c.creature, state.round, state.ruleset) or UW_1)
            continue
        held = state.environment.breath.get(c.id)
        if held is None or held.ticked_round != state.round:
            hold_breath(ctx, c.id, uw.Strenuous(0, ()))


def _immune_to_breathlessness(ctx: Context, target: str, applied: AppliedCondition,
                              before: frozenset[Condition]) -> None:
    """Sealed gear and the Repurposer make a creature immune to Suffocating and Drowning (UW-5, UW-6)."""
    if applied.condition not in (Condition.SUFFOCATING, Condition.DROWNING):
        return
    c = ctx.state.get(target)
    why = breathing_immunity(ctx.state, c)
    if why is not None and applied in c.conditions:
        ctx.emit(ev.ConditionRemoved(target, applied, why))


def _suffocation_at_start_of_turn(ctx: Context, cid: str) -> None:
    """Suffocating counts down; once its rounds are spent the creature drops to 0 HP (G-15; NPCs: G-38)."""
    c = ctx.state.get(cid)
    for applied in [a for a in c.conditions if a.condition is Condition.SUFFOCATING]:
        tick = suffocation_turn_start(applied)
        if tick.condition != applied:
            ctx.emit(ev.ConditionRemoved(cid, applied, G_15))
            ctx.emit(ev.ConditionAdded(cid, tick.condition, G_15))
        if tick.drops_to_zero is not None and not c.health.is_down:
            dies = not falls_dying(c.health, ctx.ruleset)
            health = c.health.evolve(hp=0, temp_hp=0, temp_source="",
                                     vitality=Vitality.DEAD if dies else Vitality.DYING, successes=0, failures=0)
            ctx.emit(ev.HealthSet(cid, health, "suffocates", G_38 if dies else G_15))
            if not dies:
                add(ctx, cid, AppliedCondition(Condition.PRONE, DEATH_1))


# ----- attacks and damage (UW-12..23, G-28) -----


def _attack(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
            mode: AttackMode) -> AttackExtra:
    if state.environment.underwater is None:
        return AttackExtra()
    distance = space_distance_ft(attacker.space, target.space) if attacker.space and target.space else None
    found = uw.underwater_attack(attacker.creature, weapon, mode, distance, state.ruleset)
    return AttackExtra(sources=found.sources, auto_miss=found.auto_miss)


def _adjusters(ctx: Context, target: str, source: str,
               damage: DamageRoll | Mapping[DamageType, int]) -> Sequence[DamageAdjuster]:
    """Underwater fire halved and thunder +1d6, rolled once per damage event (UW-20, UW-23)."""
    if ctx.state.environment.underwater is None:
        return ()
    types = list(damage.by_type() if isinstance(damage, DamageRoll) else damage)
    extra = None
    if DamageType.SONIC in types:
        rolled = roll(uw.thunder_dice(ctx.ruleset), ctx.rng)
        extra = rolled.total
        ctx.emit(ev.DiceRolled(source, "underwater thunder", str(rolled.expr),
                               tuple(f.value for f in rolled.faces), extra, UW_23))
    return uw.adjusters(types, extra, ctx.ruleset)


def _rolled_amounts(result: DamageResult) -> dict[DamageType, int]:
    """Each type's damage as rolled, before Deflect and the target's defenses (what the water carries)."""
    found: dict[DamageType, int] = {}
    for r in result.rows:
        if r.step in _BEFORE_DEFENSES:
            found[r.type] = r.after
    return found


def _original_dc(ctx: Context, target: str, source: str) -> DC:
    """The DC of what dealt the damage: the target's save just made, else 8 + attack attribute + proficiency (G-28)."""
    attacker = ctx.state.combatants.get(source)
    proficiency = attacker.creature.proficiency if attacker is not None else 0
    names = {a.name for a in Attribute}
    for e in reversed(ctx.log):
        if isinstance(e, ev.TurnStarted):
            break
        if isinstance(e, ev.CheckRolled) and e.actor == target and "save" in e.label:
            return uw.spread_dc(e.against, "", 0, 0, ctx.ruleset)
        if isinstance(e, ev.AttackRolled) and e.actor == source and e.target == target:
            part = next((p for p in e.roll.modifiers if p.label in names), None)
            return uw.spread_dc(None, part.label if part else "attribute", part.value if part else 0, proficiency,
                                ctx.ruleset)
    return uw.spread_dc(None, "attribute", 0, proficiency, ctx.ruleset)


def _spread(ctx: Context, target: str, source: str, result: DamageResult) -> None:
    """Cold and electric damage carried through the water to the creatures near the target (UW-21, UW-22)."""
    state = ctx.state
    hit = state.get(target)
    if state.environment.underwater is None or source == WATER or not hit.space:
        return
    for kind, amount in _rolled_amounts(result).items():
        spread = uw.spread_of(kind, ctx.ruleset)
        if spread is None or amount <= 0:
            continue
        near = [c.id for c in state.combatants.values() if c.id != target and not c.health.is_dead and c.space
                and space_distance_ft(hit.space, c.space) <= spread.radius_ft]
        if not near:
            continue
        dc = _original_dc(ctx, target, source) if spread.save else None
        ctx.emit(ev.DamageSpread(source, target, kind.value, amount, spread.radius_ft, tuple(near),
                                 dc.total if dc else None, spread.rule))
        for cid in near:
            saved = dc is not None and _saves(ctx, cid, dc, kind, spread.rule)
            dealt = uw.spread_amount(amount, saved, ctx.ruleset)
            if dealt > 0 and not state.get(cid).health.is_dead:
                deal_damage(ctx, cid, {kind: dealt}, source=WATER, label=f"{kind.value} through the water")


def _saves(ctx: Context, cid: str, dc: DC, kind: DamageType, why: RuleId) -> bool:
    c = ctx.state.get(cid)
    roller = ctx.roller(c.id, "save", dc.rule, source=Save.REFLEX.value)
    result = saving_throw(c.creature, Save.REFLEX, dc, roller, ctx.ruleset, conditions=c.condition_set)
    ctx.emit(ev.CheckRolled(cid, f"reflex save vs {kind.value} in the water",
                            ev.RollRecord.of(result.roll) if result.roll else None, dc.total, result.success, why,
                            result.auto_fail or ""))
    return result.success


# ----- sight (UW-24..26, VIS-12) -----


def _water_layers(state: EncounterState, viewer: Combatant | None, square: Square,
                  distance_ft: int | None) -> Iterable[Veil]:
    clarity = water(state)
    if clarity is None:
        return ()
    sight = uw.water_sight(clarity, distance_ft, state.ruleset)
    if sight.obscured is uw.Obscured.NONE:
        return ()
    return (Veil(Obscurement(sight.obscured.value), Cause.DARKNESS if sight.darkness else Cause.WATER),)


# ----- depth: diving, surfacing and sinking (UW-9..11) -----


@dataclass(frozen=True, slots=True)
class Swim:
    """Swim up (``feet`` < 0) or down (``feet`` > 0) as a move: Athletics DC 10 without a swim speed (UW-9)."""

    actor: str
    feet: int


def depth(state: EncounterState, cid: str) -> int:
    """Feet below the level where the fight began (negative: above it)."""
    return state.environment.depth_ft.get(cid, 0)


def _check_swim(state: EncounterState, intent: Swim) -> None:
    c = state.get(intent.actor)
    if state.environment.underwater is None:
        raise refuse("UW-9", "diving and surfacing happen underwater")
    if c.mounted_on is not None or intent.feet == 0:
        raise refuse("UW-9", "name how far to swim up or down (and dismount first)")
    mult, why = uw.water_cost(c.creature, state.ruleset)
    cost, speed = abs(intent.feet) * mult, speed_ft(c, state)
    if cost > speed:
        raise refuse(why, f"swimming {abs(intent.feet)} ft costs {cost} ft of movement; speed is {speed} ft")


def _resolve_swim(ctx: Context, intent: Swim) -> None:
    c = ctx.state.get(intent.actor)
    ctx.emit(ev.ResourceUsed(c.id, "movement", speed_ft(c, ctx.state), UW_9))
    if uw.needs_vertical_check(c.creature):
        dc = uw.vertical_dc(ctx.ruleset)
        roller = ctx.roller(c.id, "check", dc.rule)
        check = ability_check(c.creature, Skill.ATHLETICS, dc, roller, ctx.ruleset, conditions=c.condition_set,
                              sources=uw.swim_sources(c.armor))
        ctx.emit(ev.CheckRolled(c.id, "Athletics to dive or surface", ev.RollRecord.of(check.roll), dc.total,
                                check.success, UW_9))
        if not check.success:
            return
    ctx.emit(ev.DepthChanged(c.id, depth(ctx.state, c.id) + intent.feet, intent.feet, UW_9))


def _sinks(ctx: Context, cid: str) -> None:
    """Heavy armor sinks 10 ft at the end of a turn without swimming (UW-10; medium armor does not, UW-11)."""
    c = ctx.state.get(cid)
    if ctx.state.environment.underwater is None or c.mounted_on is not None or c.health.is_dead:
        return
    turn, _ = _this_turn(ctx.log, cid)
    swam = c.turn.moved_this_turn or any(isinstance(e, ev.DepthChanged) and e.actor == cid for e in turn)
    feet = uw.sinks_ft(c.armor, swam, ctx.ruleset)
    if feet:
        ctx.emit(ev.DepthChanged(cid, depth(ctx.state, cid) + feet, feet, UW_10))


__all__ = ["WATER", "Swim", "breath_left", "breathing_immunity", "cannot_speak", "depth", "effort", "hold_breath",
           "needs_air", "water"]


def _murky_passive(state: EncounterState) -> tuple[Modifier, ...]:
    """Murky water lowers every passive Perception (UW-25, G-24)."""
    return uw.passive_perception_modifiers(state.environment.underwater, state.ruleset)


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Swim, ActionDef("swim", UW_9, fixed(1), _resolve_swim, _check_swim))
    book.attack_hook("underwater", _attack)
    book.damage_environment(_adjusters)
    book.after_damage(_spread)
    book.after_condition(_immune_to_breathlessness)
    book.visibility(_water_layers)
    book.passive_perception(_murky_passive)
    book.end_of_turn("breath", _breath_at_end_of_turn)
    book.end_of_turn("sinking", _sinks)
    book.end_of_round("breath", _breath_at_end_of_round)
    book.start_of_turn("suffocation", _suffocation_at_start_of_turn)
