"""Pieces the maneuvers and utility actions share (X-09, G-47, C-GRA).

Contest sides, the defender's skill choice, logging, size limits, free hands, pushes, adjacency and
the grapple's reach.

Nothing here rolls a die except through :mod:`ashfall.rules.checks`; the helpers that emit events are
the ones that change state (used-up Help advantage, a push, a grapple ended by distance).
"""

from __future__ import annotations

from ashfall.content.schema import WeaponProperty
from ashfall.core.modifiers import RollSource, adv
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, Skill
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.decisions import Decision, Option
from ashfall.engine.effects import EffectKind
from ashfall.engine.harm import end_conditions
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import distance
from ashfall.families.attacks.moves_gear import has_free_hand as hand_free
from ashfall.families.attacks.moves_gear import stowed
from ashfall.families.hazards.engine import after_step
from ashfall.grid.board import SQUARE_FT, Square, Terrain, footprint
from ashfall.grid.geometry import centre
from ashfall.rules.checks import ContestResult, ContestSide, Stat, maneuver_stats, stat_modifier
from ashfall.rules.condition_durations import Duration, DurationKind, EndEvent
from ashfall.rules.condition_table import EndTrigger

C_GRA, X_09, HLP_1 = rule("C-GRA"), rule("X-09"), rule("HLP-1")
DEFENSE_SKILL = "defense-skill"
"""The kind of decision that asks a defender which skill it rolls (X-09)."""


def end_of_this_turn(creature: str) -> Duration:
    """Until the end of ``creature``'s current turn (a Feint's advantage FNT-3, Overrun's OVR-4)."""
    return Duration(DurationKind.END_OF_NEXT_TURN, creature, next_turn_started=True)


def effect_key(ctx: Context, kind: EffectKind, bearer: str) -> str:
    """A key unique within the encounter (the log position makes it so, and replays the same)."""
    return f"{kind.value}:{bearer}:{len(ctx.log)}"


# ----- checks and contests -----


def helped_sources(ctx: Context, cid: str) -> tuple[RollSource, ...]:
    """Use up Help's advantage on the creature's next ability check (HLP-1)."""
    found: list[RollSource] = []
    for e in ctx.state.effects_on(cid, EffectKind.ADVANTAGE_NEXT_CHECK):
        found.append(adv(rule(e.rule), "helped"))
        if e.used_up:
            ctx.emit(ev.EffectRemoved(e.key, e.rule))
    return tuple(found)


def side(ctx: Context, c: Combatant, options: tuple[Stat, ...], choice: Stat | None = None,
         sources: tuple[RollSource, ...] = ()) -> ContestSide:
    """One side of a contest: its conditions, Help's advantage (used up) and further sources."""
    return ContestSide(c.creature, options, choice, c.condition_set, (*helped_sources(ctx, c.id), *sources))


def as_stat(skill: Skill, ctx: Context) -> Stat:
    """Athletics or Acrobatics as this ruleset rolls it (edition 1: raw MIG or AGI, E-06)."""
    athletics, acrobatics = maneuver_stats(ctx.ruleset)
    return athletics if skill is Skill.ATHLETICS else acrobatics


def defense_choice(ctx: Context, defender: Combatant, attacker: Combatant, what: str) -> Skill:
    """Ask the defender's controller: Athletics or Acrobatics (its choice, X-09); its better one is first."""
    pairs = [(s, as_stat(s, ctx)) for s in (Skill.ATHLETICS, Skill.ACROBATICS)]
    pairs.sort(key=lambda p: -stat_modifier(defender.creature, p[1]))
    options = tuple(Option(s.value, f"{s.value} ({stat_modifier(defender.creature, st):+d})", X_09)
                    for s, st in pairs)
    choice = ctx.decide(Decision(defender.id, DEFENSE_SKILL, f"{attacker.name} tries to {what} you", options,
                                 False, X_09))
    return Skill(choice or pairs[0][0].value)


def stat_name(stat: Stat) -> str:
    """A stat's name for logs."""
    return str(stat.value)


def log_contest(ctx: Context, initiator: Combatant, defender: Combatant, result: ContestResult, label: str,
                rule_id: RuleId) -> None:
    """Record both sides of a contest, each against the other's total (CON-1, CON-2)."""
    i_total, d_total = result.initiator_roll.total, result.defender_roll.total
    ctx.emit(ev.CheckRolled(initiator.id, f"{label}: {stat_name(result.initiator_stat)}",
                            ev.RollRecord.of(result.initiator_roll), d_total, result.initiator_wins, rule_id))
    ctx.emit(ev.CheckRolled(defender.id, f"{label} (defending): {stat_name(result.defender_stat)}",
                            ev.RollRecord.of(result.defender_roll), i_total, not result.initiator_wins, rule_id))


# ----- sizes, hands, reach -----


def sizes_larger(actor: Combatant, target: Combatant) -> int:
    """How many sizes larger the target is than the actor (negative if smaller)."""
    return actor.creature.size.steps_to(target.creature.size)


def too_large(state: EncounterState, actor: Combatant, target: Combatant) -> bool:
    """The target is more sizes larger than a maneuver allows (TRP-1, DIS-5, OVR-8, G-47)."""
    return sizes_larger(actor, target) > state.ruleset.checks.maneuver_max_larger


def held_items(c: Combatant) -> list[str]:
    """Ids of what it holds and could drop or lose: drawn weapons that are not natural, a shield (DIS-1)."""
    items = [w.id for w in c.weapons if not w.has(WeaponProperty.NATURAL) and not stowed(c, w.id)]
    return items + ([c.shield.id] if c.shield is not None else [])


def has_free_hand(c: Combatant, state: EncounterState) -> bool:
    """Whether it can grab (GRP-1): a hand free, or natural weapons, which need none (NAT-5, GRP-5)."""
    return any(w.has(WeaponProperty.NATURAL) for w in c.weapons) or hand_free(c, state)


def grapple_reach(c: Combatant, state: EncounterState) -> int:
    """How far it can grab: natural reach, or a longer natural weapon's (NAT-6)."""
    natural = [w.reach for w in c.weapons if w.has(WeaponProperty.NATURAL)]
    return max([state.ruleset.attack.natural_reach, *natural])


def within(state: EncounterState, a: Combatant, b: Combatant, feet: int) -> bool:
    """Whether two creatures are within ``feet`` of each other (always, in a theater-of-mind fight)."""
    return distance(state, a, b) <= feet


def adjacent(state: EncounterState, a: Combatant, b: Combatant) -> bool:
    """Within 5 ft: one square (touch range: a stim, a Medicine kit, Help, HLP-1)."""
    return within(state, a, b, SQUARE_FT)


def grapplers_of(c: Combatant) -> list[str]:
    """Who grapples it, in the order the holds were taken (MGR-1)."""
    return [a.source for a in c.conditions if a.condition is Condition.GRAPPLED and a.source is not None]


def grapple_reach_check(ctx: Context, cid: str) -> None:
    """End grapples that a move broke: the held creature is out of its grappler's reach (C-GRA, MGR-4)."""
    state = ctx.state
    moved = state.get(cid)
    pairs = [(g, cid) for g in grapplers_of(moved)]
    pairs += [(cid, o.id) for o in state.combatants.values() if cid in grapplers_of(o)]
    for grappler_id, held_id in pairs:
        grappler, held = state.get(grappler_id), state.get(held_id)
        if not within(state, grappler, held, grapple_reach(grappler, state)):
            end_conditions(ctx, held_id, EndEvent(EndTrigger.OUT_OF_SOURCE_REACH, grappler_id), C_GRA)


# ----- squares -----


def can_stand(state: EncounterState, c: Combatant, origin: Square, ignore: frozenset[str] = frozenset()) -> bool:
    """Whether the creature's space fits at ``origin``: on the map, passable and free of other creatures."""
    board = state.board
    if board is None:
        return False
    for sq in footprint(origin, c.creature.size.squares):
        if not board.in_bounds(sq) or board.terrain_at(sq) is Terrain.IMPASSABLE:
            return False
        other = state.occupant(sq)
        if other is not None and other.id != c.id and other.id not in ignore:
            return False
    return True


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def away_square(state: EncounterState, pusher: Combatant, target: Combatant) -> Square | None:
    """The square 5 ft straight away from the pusher, or None when it is blocked or off the map (SHV-3)."""
    if target.position is None or not pusher.space:
        return None
    (px, py), (tx, ty) = centre(pusher.space), centre(target.space)
    step = (_sign(tx - px), _sign(ty - py))
    if step == (0, 0):
        return None
    dest = (target.position[0] + step[0], target.position[1] + step[1])
    return dest if can_stand(state, target, dest) else None


def push(ctx: Context, target_id: str, to: Square, rule_id: RuleId) -> None:
    """Forced movement of one square (a push): no action, no reactions; grapples it breaks end (C-GRA)."""
    target = ctx.state.get(target_id)
    assert target.position is not None
    frm = target.position
    ctx.emit(ev.Moved(target_id, frm, to, SQUARE_FT, "pushed", rule_id, forced=True))
    after_step(ctx, target_id, frm, to)  # pushed into fire or hazardous terrain (HAZF-1, MOV-6)
    grapple_reach_check(ctx, target_id)
