"""Rule references: the catalog IDs (``MAP-1``, ``DR-3`` …) and rulings (``G-41``, ``X-01``) every number cites.

``catalog.json`` is generated from ``shared/rules`` by ``scripts/import_catalog.py`` so that an installed
package can explain a rule ID without the rules folder.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import NewType

RuleId = NewType("RuleId", str)


@cache
def catalog() -> dict[str, dict[str, str]]:
    """Every known rule ID mapped to its ``text``, source ``lines`` and ``status``."""
    raw = resources.files("ashfall.core").joinpath("catalog.json").read_text(encoding="utf-8")
    data: dict[str, dict[str, str]] = json.loads(raw)
    return data


def rule(rule_id: str) -> RuleId:
    """Return ``rule_id`` as a :data:`RuleId`, failing at import time on an unknown ID.

    Args:
        rule_id: A catalog ID (``"MAP-1"``) or a ruling (``"G-41"``, ``"X-01"``, ``"E-05"``).

    Raises:
        KeyError: If the ID is in neither the catalog nor the rulings.
    """
    if rule_id not in catalog():
        raise KeyError(f"unknown rule ID {rule_id!r}")
    return RuleId(rule_id)


def describe(rule_id: str) -> str:
    """The catalog's one-line statement of a rule, for presenters."""
    entry = catalog().get(rule_id)
    return entry["text"] if entry else ""
