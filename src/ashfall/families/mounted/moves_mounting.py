"""Mount and Dismount (ACT-6, MNT-1): 1 action that also uses 5 ft of movement.

A rider records the mount it rides (``Combatant.mounted_on``), stands in the mount's square and
moves with it (the ``Moved`` applier carries riders along, MNT-4); a rider does not Stride on its
own while mounted. The mount must be a willing creature (an ally) larger than the rider, not down,
not already ridden and within 5 ft; mounting or dismounting needs the 5 ft of movement, so a
creature whose speed is 0 or that is prone cannot (C-GRA, ACT-4). Boarding a vehicle is mounting it:
it carries its crew and passengers up to its stations and seats (``vehicles``, VEH-2). Mounted-combat
bonuses, falling off and independent mounts (MNT-2..9) are in ``mounted``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed, refuse
from ashfall.engine.context import Context
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine_common import speed_ft
from ashfall.families.vehicles.moves import boarding_problem, station_for
from ashfall.grid.board import SQUARE_FT, Square, Terrain, footprint, neighbours
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules import conditions as cond

ACT_6, MNT_1 = rule("ACT-6"), rule("MNT-1")


@dataclass(frozen=True, slots=True)
class Mount:
    """Get on a mount (ACT-6, MNT-1)."""

    actor: str
    mount: str
    station: str = ""
    """Boarding a vehicle: the crew station to take, or "passenger" (default: the first free one, VEH-2)."""


@dataclass(frozen=True, slots=True)
class Dismount:
    """Get off the mount onto ``to``, a square next to it (None in a theater-of-mind fight) (ACT-6, MNT-1)."""

    actor: str
    to: Square | None = None


def _needs_movement(state: EncounterState, c: Combatant) -> None:
    """Mounting and dismounting use 5 ft of movement: not while prone (ACT-4) or with speed 0 (C-GRA)."""
    if c.has(Condition.PRONE):
        raise refuse("ACT-4", f"{c.name} is prone: Stand first")
    if speed_ft(c, state) < SQUARE_FT:
        raise refuse(cond.speed_is_zero(c.condition_set) or "MNT-1", f"{c.name} cannot spare 5 ft of movement")


def _check_mount(state: EncounterState, intent: Mount) -> None:
    c = state.get(intent.actor)
    if c.mounted_on is not None:
        raise refuse("ACT-6", f"{c.name} already rides {c.mounted_on}")
    if intent.mount not in state.combatants or intent.mount == c.id:
        raise refuse("ACT-6", f"no mount {intent.mount!r} here")
    mount = state.get(intent.mount)
    if mount.side != c.side or not mount.is_active:
        raise refuse("ACT-6", f"{mount.name} is not a willing mount")
    if mount.creature.vehicle is not None:
        problem = boarding_problem(state, c, mount, intent.station)
        if problem is not None:
            raise refuse("VEH-2", problem)
    elif mount.mounted_on is not None or any(o.mounted_on == mount.id for o in state.combatants.values()):
        raise refuse("ACT-6", f"{mount.name} already carries a rider or rides another")
    if mount.creature.size.rank <= c.creature.size.rank:
        raise refuse("ACT-6", f"{mount.name} is not larger than {c.name}")
    _needs_movement(state, c)
    if c.space and mount.space and space_distance_ft(c.space, mount.space) > SQUARE_FT:
        raise refuse("MNT-1", f"{mount.name} is more than 5 ft away")


def _resolve_mount(ctx: Context, intent: Mount) -> None:
    c, mount = ctx.state.get(intent.actor), ctx.state.get(intent.mount)
    ctx.emit(ev.ResourceUsed(c.id, "movement", SQUARE_FT, MNT_1))
    if c.position is not None and mount.position is not None:
        ctx.emit(ev.Moved(c.id, c.position, mount.position, SQUARE_FT, "mount", ACT_6))
    station = station_for(ctx.state, mount, intent.station) if mount.creature.vehicle is not None else None
    ctx.emit(ev.MountChanged(c.id, mount.id, ACT_6, station=station or ""))


def _landing_problem(state: EncounterState, c: Combatant, mount: Combatant, to: Square) -> str | None:
    """Why the rider cannot land on ``to`` (None if it can): on the map, free, next to the mount."""
    board = state.board
    assert board is not None
    for sq in footprint(to, c.creature.size.squares):
        if not board.in_bounds(sq) or board.terrain_at(sq) is Terrain.IMPASSABLE:
            return f"{sq} cannot be entered"
        other = state.occupant(sq)
        if other is not None and other.id != c.id:
            return f"{sq} is occupied by {other.name}"
    if space_distance_ft(footprint(to, c.creature.size.squares), mount.space) > SQUARE_FT:
        return f"{to} is not next to {mount.name}"
    return None


def _check_dismount(state: EncounterState, intent: Dismount) -> None:
    c = state.get(intent.actor)
    if c.mounted_on is None:
        raise refuse("ACT-6", f"{c.name} is not mounted")
    _needs_movement(state, c)
    mount = state.get(c.mounted_on)
    if state.board is None or not mount.space:
        return
    if intent.to is None:
        raise refuse("ACT-6", "name the square to dismount onto")
    problem = _landing_problem(state, c, mount, intent.to)
    if problem is not None:
        raise refuse("MNT-1", problem)


def _resolve_dismount(ctx: Context, intent: Dismount) -> None:
    c = ctx.state.get(intent.actor)
    ctx.emit(ev.ResourceUsed(c.id, "movement", SQUARE_FT, MNT_1))
    ctx.emit(ev.MountChanged(c.id, None, ACT_6))
    if intent.to is not None and c.position is not None and ctx.state.board is not None:
        ctx.emit(ev.Moved(c.id, c.position, intent.to, SQUARE_FT, "dismount", ACT_6))


def _mount_candidates(state: EncounterState, actor: str) -> Iterable[Mount]:
    return [Mount(actor, a.id) for a in state.allies_of(actor)]


def _dismount_candidates(state: EncounterState, actor: str) -> Iterable[Dismount]:
    c = state.get(actor)
    if c.mounted_on is None:
        return []
    mount = state.get(c.mounted_on)
    if state.board is None or not mount.space:
        return [Dismount(actor)]
    ring = sorted({n for sq in mount.space for n in neighbours(sq)} - set(mount.space))
    return [Dismount(actor, sq) for sq in ring]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.action(Mount, ActionDef("mount", ACT_6, fixed(1), _resolve_mount, _check_mount, _mount_candidates))
    book.action(Dismount, ActionDef("dismount", ACT_6, fixed(1), _resolve_dismount, _check_dismount,
                                    _dismount_candidates))
