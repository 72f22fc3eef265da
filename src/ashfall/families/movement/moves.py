"""Movement actions: Stride, Step, Crawl, Stand and Sprint (ACT-2..5, MAA-8, MOV, G-37).

A move names its whole path, square by square. The path is checked before anything happens
(terrain, walls, enemies' squares, speed); then each step is taken in order and every step that
leaves an enemy's reach offers it an Attack of Opportunity first (RX-21, RX-22), unless the move
provokes none (Step ACT-3, Dodge DOD-1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, Refused, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.effects import EffectKind
from ashfall.engine.harm import end_conditions
from ashfall.engine.reactions import Trigger, TriggerKind, combine, offer
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine_common import melee_reach, speed_ft
from ashfall.families.movement.engine_terrain import hazard_multiplier
from ashfall.grid.board import SQUARE_FT, Square, Terrain, footprint, neighbours
from ashfall.grid.geometry import space_distance_ft
from ashfall.grid.paths import Goal, shortest_paths
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import EndEvent, may_move_closer
from ashfall.rules.condition_table import EndTrigger
from ashfall.ruleset.sections import Diagonals

ACT_2, ACT_3, ACT_4, ACT_5, MAA_8 = rule("ACT-2"), rule("ACT-3"), rule("ACT-4"), rule("ACT-5"), rule("MAA-8")


@dataclass(frozen=True, slots=True)
class Stride:
    """Move up to your speed along ``path`` (ACT-2)."""

    actor: str
    path: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """Move 5 ft without provoking reactions (ACT-3)."""

    actor: str
    to: Square


@dataclass(frozen=True, slots=True)
class Crawl:
    """Move at half speed while prone (ACT-4)."""

    actor: str
    path: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class Stand:
    """Stand up from prone (ACT-5)."""

    actor: str


@dataclass(frozen=True, slots=True)
class Sprint:
    """3 actions: move up to triple your speed in a straight line (MAA-8)."""

    actor: str
    path: tuple[Square, ...]


def board_only_costs(state: EncounterState) -> bool:
    """Whether :func:`step_cost` depends on the board alone right now.

    It does unless an environmental layer it reads is present (underwater, rubble, flood water, debris,
    objects); those change during a fight, so callers that cache step prices per board must not cache then.
    """
    env = state.environment
    return env.underwater is None and not (env.rubble or env.water_depth or env.debris or env.objects)


def step_cost(state: EncounterState, frm: Square, to: Square, diagonal_index: int,
              mover: Combatant | None = None) -> int | None:
    """Feet to enter ``to`` from ``frm`` (MOV-2..5, G-37); None if it cannot be entered.

    Water costs ``turn.water_cost`` times (2: as difficult terrain) for a creature without a swim
    speed and nothing extra for one with a swim speed (X-03).
    """
    assert state.board is not None
    terrain = state.board.terrain_at(to)
    mult = terrain.multiplier
    if terrain is Terrain.WATER:
        mult = 1 if mover is not None and mover.creature.speeds.swim > 0 else state.ruleset.turn.water_cost
    elif mult is not None and state.environment.underwater is not None:  # every square is water (UW-7, UW-8)
        mult = max(mult, 1 if mover is not None and mover.creature.speeds.swim > 0 else state.ruleset.turn.water_cost)
    if mult is None or not state.board.in_bounds(to):
        return None
    env = state.environment
    if env.rubble or env.water_depth:
        mult = max(mult, hazard_multiplier(state, to, mover))  # rubble HAZC-5, flood water HAZW-2/3
    if env.debris and to in env.debris:
        mult = max(mult, Terrain.DIFFICULT.multiplier or 1)  # a fallen chandelier's debris (IEA-5)
    if env.objects and any(o.blocks_movement and not o.broken and to in o.squares for o in env.objects.values()):
        return None  # an intact object that fills its square (MOV-5)
    diagonal = frm[0] != to[0] and frm[1] != to[1]
    base = SQUARE_FT
    if diagonal and state.ruleset.turn.diagonals is Diagonals.ALTERNATING and diagonal_index % 2 == 1:
        base = 2 * SQUARE_FT
    return base * mult


def space_step_cost(state: EncounterState, frm: Square, to: Square, size: int, diagonal_index: int,
                    mover: Combatant | None = None) -> int:
    """Feet for a ``size`` x ``size`` space to step from top-left ``frm`` to the adjacent ``to`` (MOV-2..5, G-37).

    The dearest square the space would cover, each priced as the step itself: every square of a large creature
    moves the same way, so a straight step is never priced as a diagonal one (G-37). 0 when no square can be
    priced (the callers refuse impassable squares first).
    """
    if size == 1:
        return step_cost(state, frm, to, diagonal_index, mover) or 0
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    return max(step_cost(state, (x - dx, y - dy), (x, y), diagonal_index, mover) or 0 for x, y in footprint(to, size))


Occupants = dict[Square, Combatant]
"""Who stands where (the living; the first in roster order per square), computed once for a path search."""


def occupants(state: EncounterState) -> Occupants:
    """Every living creature's squares (what :meth:`EncounterState.occupant` answers, all at once)."""
    found: Occupants = {}
    for c in state.combatants.values():
        if not c.health.is_dead:
            for sq in c.space:
                found.setdefault(sq, c)
    return found


def in_the_way(mover: Combatant, other: Combatant) -> bool:
    """Whether another creature's squares count for the mover at all: living, and not the mover's own rider (ACT-2)."""
    return other.id != mover.id and other.mounted_on != mover.id and not other.health.is_dead


def bars_passage(mover: Combatant, other: Combatant) -> bool:
    """Whether the mover may not pass through a creature in the way: an enemy still standing (ACT-2).

    Allies and downed creatures may be passed, but no creature's space may be the last square of a move.
    """
    return other.side != mover.side and not other.health.is_down


def blocking(state: EncounterState, mover: Combatant) -> tuple[frozenset[Square], frozenset[Square]]:
    """The squares the mover cannot pass through and the squares it cannot stop on, now (ACT-2).

    What :func:`entry_cost` decides square by square, gathered at once for path searches.
    """
    others = [o for o in state.combatants.values() if in_the_way(mover, o)]
    passage = frozenset(sq for o in others if bars_passage(mover, o) for sq in o.space)
    stop = frozenset(sq for o in others for sq in o.space)
    return passage, stop


def _space_free(state: EncounterState, mover: Combatant, origin: Square, final: bool,
                who: Occupants | None = None) -> RuleId | None:
    """None if the mover's space at ``origin`` may be entered; allies may be passed, enemies may not."""
    assert state.board is not None
    for sq in footprint(origin, mover.creature.size.squares):
        if not state.board.in_bounds(sq) or state.board.terrain_at(sq) is Terrain.IMPASSABLE:
            return rule("MOV-5")
        other = state.occupant(sq) if who is None else who.get(sq)
        if other is None or not in_the_way(mover, other):
            continue
        if final or bars_passage(mover, other):
            return rule("ACT-2")
    return None


def squeezes_between_walls(state: EncounterState, mover: Combatant, frm: Square, to: Square) -> bool:
    """A diagonal step that passes between two walls meeting at a corner (G-37: walls are solid, MOV-5)."""
    assert state.board is not None
    board, side = state.board, mover.creature.size.squares
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    if not (dx and dy):
        return False
    return all(any(board.blocks_sight(s) for s in footprint(corner, side))
               for corner in ((frm[0] + dx, frm[1]), (frm[0], frm[1] + dy)))


def path_cost(state: EncounterState, mover: Combatant, path: Sequence[Square]) -> int:
    """Total feet a path costs, refusing an illegal path (not adjacent, blocked, through enemies)."""
    stuck = state.effects_on(mover.id, EffectKind.CANNOT_MOVE)
    if stuck:
        raise refuse(stuck[0].rule, f"{mover.name} cannot move again this turn")
    if state.board is None:
        if path:
            raise refuse("POS-2", "this fight has no map: movement is narrated (give an empty path), not walked")
        return 0
    if mover.position is None:
        raise refuse("ACT-2", f"{mover.name} is not on the map")
    if not path:
        raise refuse("ACT-2", "an empty path")
    total, here, diagonals = 0, mover.position, 0
    for i, sq in enumerate(path):
        if sq not in set(neighbours(here)):
            raise refuse("ACT-2", f"{sq} is not adjacent to {here}")
        cost = entry_cost(state, mover, here, sq, diagonals, final=i == len(path) - 1)
        if isinstance(cost, Refused):
            raise cost
        if here[0] != sq[0] and here[1] != sq[1]:
            diagonals += 1
        if mover.conditions:  # the usual mover has none: no fear to ask about
            approach_refusal(state, mover, here, sq)
        total += cost
        here = sq
    return total


def approach_refusal(state: EncounterState, mover: Combatant, frm: Square, to: Square) -> None:
    """Refuse a willing step that brings the mover closer to the source of its fear (C-FRI, 000:860).

    "Closer" compares the distance between the two spaces before and after the step; a step that keeps
    the distance (sideways) or opens it is allowed. A source off the map or gone has no distance to close.
    Every willing move (Stride, Step, Crawl, Sprint, Drag, readied moves) prices its path here, and the AI
    asks the engine about every move it submits, so both read this one rule.
    """
    size = mover.creature.size.squares
    for applied in mover.conditions:
        source = applied.source
        if source is None or source not in state.combatants:
            continue
        verdict = may_move_closer((applied,), source)
        if verdict.allowed:
            continue
        feared = state.combatants[source]
        if not feared.space:
            continue
        before = space_distance_ft(footprint(frm, size), feared.space)
        after = space_distance_ft(footprint(to, size), feared.space)
        if after < before:
            raise refuse(verdict.rule or "C-FRI",
                         f"{mover.name} is frightened of {feared.name} and cannot willingly move closer to it")


def entry_cost(state: EncounterState, mover: Combatant, here: Square, sq: Square, diagonals: int, *,
               final: bool, who: Occupants | None = None) -> int | Refused:
    """Feet for the mover to step from ``here`` to the adjacent ``sq`` (MOV-2..5, G-37), or why it cannot."""
    blocked = _space_free(state, mover, sq, final, who)
    if blocked is not None:
        return Refused(blocked, f"{sq} cannot be entered")
    if squeezes_between_walls(state, mover, here, sq):
        return Refused(rule("MOV-5"), f"{here} to {sq} squeezes between two walls")
    cost = space_step_cost(state, here, sq, mover.creature.size.squares, diagonals, mover)
    if cost == 0:
        return Refused(rule("MOV-5"), f"{sq} is impassable")
    return cost


def approach_path(state: EncounterState, mover: Combatant, target: Combatant, reach_ft: int,
                  budget_ft: int) -> tuple[Square, ...] | None:
    """The start of the cheapest legal path towards ``target`` within ``reach_ft`` that costs at most ``budget_ft``.

    None when no path leads there or not one square of it can be afforded.
    """
    return approach_paths(state, mover, (target,), reach_ft, budget_ft)[0]


def approach_paths(state: EncounterState, mover: Combatant, targets: Sequence[Combatant], reach_ft: int,
                   budget_ft: int) -> list[tuple[Square, ...] | None]:
    """:func:`approach_path` towards each target, from one search shared by all (the same paths, found once)."""
    if state.board is None or mover.position is None:
        return [None] * len(targets)
    side, who = mover.creature.size.squares, occupants(state)
    passable: dict[Square, bool] = {}

    def price(frm: Square, to: Square, parity: int) -> int | None:
        # entry_cost(final=False), with the per-square part worked out once per square
        if to not in passable:
            passable[to] = _space_free(state, mover, to, False, who) is None
        if not passable[to] or squeezes_between_walls(state, mover, frm, to):
            return None
        return space_step_cost(state, frm, to, side, parity, mover) or None

    def can_end(sq: Square) -> bool:
        return _space_free(state, mover, sq, True, who) is None

    def goal_of(target: Combatant) -> Goal:
        def goal(sq: Square) -> bool:
            return space_distance_ft(footprint(sq, side), target.space) <= reach_ft and can_end(sq)
        return goal

    wanted = [i for i, t in enumerate(targets) if t.space]
    found = shortest_paths(mover.position, [goal_of(targets[i]) for i in wanted], price)
    out: list[tuple[Square, ...] | None] = [None] * len(targets)
    for i, path in zip(wanted, found, strict=True):
        out[i] = None if path is None else path.prefix(budget_ft, can_end).squares or None
    return out


def _leaving_reach(state: EncounterState, mover: Combatant, frm: Square, to: Square) -> list[str]:
    """Enemies whose reach the mover is in at ``frm`` and out of at ``to`` (RX-21)."""
    a = footprint(frm, mover.creature.size.squares)
    b = footprint(to, mover.creature.size.squares)
    out = []
    for e in state.enemies_of(mover.id):
        if not e.space or not e.is_active:
            continue
        reach = melee_reach(e, state)
        if space_distance_ft(e.space, a) <= reach < space_distance_ft(e.space, b):
            out.append(e.id)
    return out


def provokes(state: EncounterState, mover: Combatant) -> bool:
    """Whether the mover's movement can provoke reactions now (Dodge, DOD-1; an Overrun crit, OVR-6)."""
    if not cond.provokes_opportunity_attacks(mover.condition_set).allowed:
        return False
    return not state.effects_on(mover.id, EffectKind.NO_REACTIONS_PROVOKED)


def walk(ctx: Context, mover_id: str, path: Sequence[Square], mode: str, rule_id: RuleId, *,
         may_provoke: bool = True) -> int:
    """Take a path step by step, offering reactions before each step that leaves a reach.

    Returns:
        How many squares were entered (movement can be stopped by a reaction, RX-23).
    """
    state = ctx.state
    mover = state.get(mover_id)
    diagonals, entered, start = 0, 0, mover.position
    for sq in path:
        here = mover.position
        assert here is not None
        leaving = _leaving_reach(state, mover, here, sq) if may_provoke and provokes(state, mover) else []
        if leaving:
            effects = offer(ctx, Trigger(TriggerKind.LEAVES_REACH, mover.id, None, (("from", here), ("to", sq)),
                                         only=frozenset(leaving)))
            stop = combine(effects).stop_movement
            if stop is not None:
                ctx.emit(ev.MovementStopped(mover.id, stop))
                return entered
        if not mover.is_active:
            return entered
        cost = space_step_cost(state, here, sq, mover.creature.size.squares, diagonals, mover)
        if here[0] != sq[0] and here[1] != sq[1]:
            diagonals += 1
        ctx.emit(ev.Moved(mover.id, here, sq, cost, mode, rule_id))
        entered += 1
        halt = movement_hooks(ctx, mover.id, here, sq)
        if mover.is_active:
            offer(ctx, Trigger(TriggerKind.MOVED, mover.id, None, (("from", here), ("to", sq))))
        if halt is not None:
            ctx.emit(ev.MovementStopped(mover.id, halt))
            return entered
        if not mover.is_active or mover.turn.movement_left_ft < 0 or _halted(state, mover, mode):
            return entered
    if mode in CHARGE_MODES and entered and mover.is_active:
        offer(ctx, Trigger(TriggerKind.CHARGE_ENDS, mover.id, None, (("path", (start, *path)),)))
    return entered


MovementHook = Callable[[Context, str, Square | None, Square | None], RuleId | None]
"""Effects keyed to movement that are not reactions (Suppressive Fire zones, SUP-5..9; a Step does not
avoid them, ACT-3): ``(name, hook(ctx, mover, frm, to))``, called in order after each step and after
standing up (``frm`` and ``to`` None). A hook that returns a rule ends the movement there (SUP-8)."""
CHARGE_MODES = frozenset({"stride", "sprint"})
"""Moves whose end can set off Brace (RX-12): a walk of these ends with a CHARGE_ENDS trigger."""


def movement_hooks(ctx: Context, mover: str, frm: Square | None, to: Square | None) -> RuleId | None:
    """Run every movement hook; the first rule returned ends the movement."""
    halt: RuleId | None = None
    for hook in ctx.state.rulebook.movement_hooks:
        stopped = hook(ctx, mover, frm, to)
        halt = halt or stopped
    return halt


def _halted(state: EncounterState, mover: Combatant, mode: str) -> bool:
    """A reaction knocked the mover prone (only a crawl goes on, ACT-4) or took its speed away (C-GRA)."""
    return (mover.has(Condition.PRONE) and mode != "crawl") or speed_ft(mover, state) == 0


def _not_prone(c: Combatant, what: str) -> None:
    if c.has(Condition.PRONE):
        raise refuse("ACT-4", f"{c.name} is prone: Crawl or Stand before you {what}")


def _can_move(state: EncounterState, c: Combatant, what: str) -> int:
    """Its speed, refusing a rider (it moves with its mount, MNT-4) or a creature whose speed is 0 (C-GRA)."""
    if c.mounted_on is not None:
        raise refuse("MNT-4", f"{c.name} rides {c.mounted_on}: it moves with its mount; Dismount to {what}")
    speed = speed_ft(c, state)
    if speed == 0:
        raise refuse(cond.speed_is_zero(c.condition_set) or "CS-4", f"{c.name}'s speed is 0")
    return speed


def _check_stride(state: EncounterState, intent: Stride) -> None:
    c = state.get(intent.actor)
    _not_prone(c, "Stride")
    speed = _can_move(state, c, "Stride")
    cost = path_cost(state, c, intent.path)
    if cost > speed:
        raise refuse("ACT-2", f"the path costs {cost} ft; speed is {speed} ft")


def _resolve_stride(ctx: Context, intent: Stride) -> None:
    c = ctx.state.get(intent.actor)
    ctx.emit(ev.ResourceUsed(c.id, "movement", speed_ft(c, ctx.state), ACT_2))
    walk(ctx, c.id, intent.path, "stride", ACT_2)


def _check_step(state: EncounterState, intent: Step) -> None:
    c = state.get(intent.actor)
    _not_prone(c, "Step")
    _can_move(state, c, "Step")
    if path_cost(state, c, (intent.to,)) > SQUARE_FT:
        raise refuse("ACT-3", "a Step moves 5 ft: it cannot enter difficult terrain or cross a costly diagonal")


def _resolve_step(ctx: Context, intent: Step) -> None:
    ctx.emit(ev.ResourceUsed(intent.actor, "movement", SQUARE_FT, ACT_3))
    walk(ctx, intent.actor, (intent.to,), "step", ACT_3, may_provoke=False)


def _check_crawl(state: EncounterState, intent: Crawl) -> None:
    c = state.get(intent.actor)
    if not c.has(Condition.PRONE):
        raise refuse("ACT-4", "Crawl is for moving while prone")
    speed = crawl_speed(state, c, _can_move(state, c, "Crawl"))
    cost = path_cost(state, c, intent.path)
    if cost > speed:
        raise refuse("ACT-4", f"crawling costs {cost} ft; half speed is {speed} ft")


def _resolve_crawl(ctx: Context, intent: Crawl) -> None:
    c = ctx.state.get(intent.actor)
    ctx.emit(ev.ResourceUsed(c.id, "movement", crawl_speed(ctx.state, c, speed_ft(c, ctx.state)), ACT_4))
    walk(ctx, c.id, intent.path, "crawl", ACT_4)


def crawl_speed(state: EncounterState, c: Combatant, speed: int) -> int:
    """How far a Crawl goes: speed divided by the prone divisor (half speed, ACT-4, C-PRO)."""
    divisor, _ = cond.speed_divisor(c.condition_set, state.ruleset)
    return speed // max(divisor, 1)


def _stand_cost(state: EncounterState, intent: Stand) -> int:
    """Actions standing up costs (1 by default, ``conditions.prone_stand_actions``; ACT-5, C-PRO)."""
    cost, _ = cond.stand_up_cost(state.get(intent.actor).condition_set, state.ruleset)
    return max(cost, 1)


def _check_stand(state: EncounterState, intent: Stand) -> None:
    c = state.get(intent.actor)
    if not c.has(Condition.PRONE):
        raise refuse("ACT-5", f"{c.name} is not prone")


def _resolve_stand(ctx: Context, intent: Stand) -> None:
    end_conditions(ctx, intent.actor, EndEvent(EndTrigger.STANDS_UP), ACT_5)
    offer(ctx, Trigger(TriggerKind.MOVED, intent.actor, None, (("stood-up", True),)))
    movement_hooks(ctx, intent.actor, None, None)


def _straight(origin: Square, path: Sequence[Square]) -> bool:
    dx, dy = path[0][0] - origin[0], path[0][1] - origin[1]
    here = origin
    for sq in path:
        if (sq[0] - here[0], sq[1] - here[1]) != (dx, dy):
            return False
        here = sq
    return True


def _check_sprint(state: EncounterState, intent: Sprint) -> None:
    c = state.get(intent.actor)
    _not_prone(c, "Sprint")
    _can_move(state, c, "Sprint")
    if state.board is not None and (c.position is None or not intent.path or not _straight(c.position, intent.path)):
        raise refuse("MAA-8", "a Sprint is a straight line")
    cost = path_cost(state, c, intent.path)
    speed = speed_ft(c, state) * 3
    if cost > speed:
        raise refuse("MAA-8", f"the sprint costs {cost} ft; triple speed is {speed} ft")


def _resolve_sprint(ctx: Context, intent: Sprint) -> None:
    c = ctx.state.get(intent.actor)
    ctx.emit(ev.ResourceUsed(c.id, "movement", speed_ft(c, ctx.state) * 3, MAA_8))
    walk(ctx, c.id, intent.path, "sprint", MAA_8)


def _adjacent_steps(state: EncounterState, actor: str) -> Iterable[Step]:
    c = state.get(actor)
    if c.position is None or state.board is None:
        return ()
    return [Step(actor, sq) for sq in neighbours(c.position)]


def _stride_candidates(state: EncounterState, actor: str) -> Iterable[Stride]:
    """A Stride towards each enemy not yet within melee reach (the cheapest path, as far as speed allows)."""
    c = state.get(actor)
    if state.board is None or c.position is None or c.mounted_on is not None or c.has(Condition.PRONE):
        return []
    speed, reach = speed_ft(c, state), melee_reach(c, state)
    found: list[Stride] = []
    far = [e for e in state.enemies_of(actor)
           if e.space and not e.health.is_dead and space_distance_ft(c.space, e.space) > reach]
    for path in approach_paths(state, c, far, reach, speed):  # one search for every enemy
        if path is not None and Stride(actor, path) not in found:
            found.append(Stride(actor, path))
    return found


def _stand_candidates(state: EncounterState, actor: str) -> Iterable[Stand]:
    return [Stand(actor)]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Stride, ActionDef("stride", ACT_2, fixed(1), _resolve_stride, _check_stride, _stride_candidates))
    book.action(Step, ActionDef("step", ACT_3, fixed(1), _resolve_step, _check_step, _adjacent_steps))
    book.action(Crawl, ActionDef("crawl", ACT_4, fixed(1), _resolve_crawl, _check_crawl))
    book.action(Stand, ActionDef("stand", ACT_5, _stand_cost, _resolve_stand, _check_stand, _stand_candidates))
    book.action(Sprint, ActionDef("sprint", MAA_8, fixed(3), _resolve_sprint, _check_sprint))
