"""Cover from destructible objects, traced exactly like the board's own cover (COV-1..3, STC-2, STC-10, IEA-4).

An intact object with a cover level gives that cover to creatures behind it, as a board cover object
would (light cover flagged, STC-2); a broken one gives none (STC-10). A hanging object (a chandelier)
gives none. An object that faces one way (a flipped table, IEA-4) covers only against attackers on
the side it faces. Pure functions of the board and the environment; the attack pipeline and the
area-effect saves read cover through :func:`board_with_objects`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ashfall.engine.environment import Environment, MapObject
from ashfall.grid.board import Board, CoverLevel, CoverObject, Square
from ashfall.grid.geometry import centre, cover_between

HANGING = "hanging"
"""The tag of an object that hangs above its squares (a chandelier): no cover, falls on a hit (IEA-5)."""


def cover_of(obj: MapObject) -> CoverLevel:
    """The cover level an intact object gives ("none" for a hanging one)."""
    if obj.broken or HANGING in obj.tags:
        return CoverLevel.NONE
    return CoverLevel[obj.cover.upper()]


def covers_against(obj: MapObject, attacker: Sequence[Square]) -> bool:
    """Whether the object gives cover against an attacker in this space (a facing object: only from its front)."""
    if cover_of(obj) is CoverLevel.NONE or not attacker:
        return False
    if obj.facing is None:
        return True
    (ox, oy), (ax, ay) = centre(obj.squares), centre(attacker)
    return (ax - ox) * obj.facing[0] + (ay - oy) * obj.facing[1] > 0


def as_cover_object(obj: MapObject) -> CoverObject:
    """The board cover object an intact object acts as (light cover flagged for STC-2)."""
    return CoverObject(cover_of(obj), obj.blocks_movement, obj.name, obj.light_cover)


def intact(env: Environment) -> Iterable[MapObject]:
    """Every intact object, by id."""
    return (env.objects[k] for k in sorted(env.objects) if not env.objects[k].broken)


def board_with_objects(board: Board, env: Environment, attacker: Sequence[Square]) -> Board:
    """The board with the cover of every intact object that covers against ``attacker`` added (stronger wins)."""
    extra = [o for o in intact(env) if covers_against(o, attacker)]
    if not extra:
        return board
    merged = dict(board.cover)
    for obj in extra:
        made = as_cover_object(obj)
        for sq in obj.squares:
            old = merged.get(sq)
            if old is None or old.level.value < made.level.value:
                merged[sq] = made
    return replace(board, cover=merged)


def objects_between(board: Board, env: Environment, attacker: Sequence[Square],
                    target: Sequence[Square]) -> tuple[MapObject, ...]:
    """The intact objects that give the target cover against the attacker, each on its own (STC-11), by id."""
    bare = Board(board.width, board.height)
    own = set(attacker) | set(target)
    found: list[MapObject] = []
    for obj in intact(env):
        if not covers_against(obj, attacker) or own.intersection(obj.squares):
            continue
        alone = replace(bare, cover={sq: as_cover_object(obj) for sq in obj.squares})
        if cover_between(alone, attacker, target)[0] is not CoverLevel.NONE:
            found.append(obj)
    return tuple(found)


__all__ = ["HANGING", "as_cover_object", "board_with_objects", "cover_of", "covers_against", "intact",
           "objects_between"]
