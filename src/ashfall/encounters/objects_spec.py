"""The shape of an encounter file's ``objects`` key (see docs/encounters.md, "Objects").

Destructible objects placed on the map (OBJ-1, CHN-0: the GM places chain-reaction elements): each
entry names a library object (``content/objects``) and where it stands, by coordinates or by a map
character. What needs the library and the map is checked, and the objects put on the battlefield, by
:mod:`ashfall.encounters.objects`.
"""

from pydantic import Field

from ashfall.content.schema import Model
from ashfall.encounters.coords import FileSquare as Square


class ObjectPlacement(Model):
    """One object (or one per square a map character marks)."""

    object: str = Field(description="A library object id (content/objects): fuel-barrel, wooden-barricade ...")
    at: Square | None = Field(None, description="The object's (top-left) square.")
    legend: str | None = Field(None, description="A map character: one object on every square drawn with it.")
    id: str | None = Field(None, description="Its id (default: the object id and a number, fuel-barrel-1).")
    holds: str | None = Field(None, description="The id of the object it holds up (a rope or chain holding a "
                                                 "chandelier, IEA-3).")


__all__ = ["ObjectPlacement"]
