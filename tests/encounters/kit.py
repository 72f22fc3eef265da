"""Small encounter texts shared by the encounter tests."""

from textwrap import dedent

from ashfall.encounters import EncounterSpec, encounter_from_text

SIDES = """
sides:
  - {name: party, controller: human}
  - {name: raiders}
"""


def encounter(*body: str, sides: str = SIDES, name: str = "Test") -> str:
    """An encounter text: a name, two sides and the ``body`` parts (map, combatants), each dedented."""
    parts = [f"name: {name}", dedent(sides).strip(), *(dedent(b).strip() for b in body)]
    return "\n".join(parts) + "\n"


def load(text: str, file: str = "enc.yaml") -> EncounterSpec:
    return encounter_from_text(text, file)
