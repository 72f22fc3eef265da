"""Explanations as rows: each event as data (kind, who, headline pieces, rules, modifiers, ledger), same words as lines.

A web page renders rows; the CLI prints their lines. Both come from :mod:`ashfall.explain`, which reads
the engine's events and never the CLI. Internal counters (the Strike-action count behind MAP and the
like) are neither rows nor lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ashfall.engine import events as ev
from ashfall.engine import loads_log
from ashfall.explain import (
    INTERNAL_COUNTERS,
    LedgerRow,
    ModifierRow,
    TextPart,
    event_lines,
    event_row,
    log_rows,
    names_of,
)
from ashfall.rules.health import Health

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"w": "Warrior", "r": "Raider"}
ROLL = ev.RollRecord((4, 15), 15, "advantage", (ev.Part("MIG", 4, "ATK-1"), ev.Part("flanking", 2, "AMOD-1")),
                     (ev.Source(True, "melee vs prone", "X-02"),), 21)
ATTACK = ev.AttackRolled("w", "r", "greataxe", "Strike", ROLL, 13, (ev.Part("base", 10, "DV-1"),
                                                                  ev.Part("crate", 2, "COV-1")), "hit",
                         ("ATK-4",), True)


@pytest.mark.rule("ATK-4", "AMOD-1", "DV-1")
def test_row__an_attack_names_who_with_references_and_lists_every_modifier_with_its_rule() -> None:
    row = event_row(ATTACK, NAMES)
    assert row is not None
    assert (row.kind, row.level, row.actor, row.target) == ("attack-rolled", "headline", "w", "r")
    assert row.parts[0] == TextPart("Warrior", "w")
    assert TextPart("Raider", "r") in row.parts
    assert row.text == "Warrior: Strike at Raider with greataxe: 21 vs DV 13 -> HIT [ATK-4]"
    assert row.modifiers == (ModifierRow("d20", "MIG", 4, "ATK-1"), ModifierRow("d20", "flanking", 2, "AMOD-1"),
                             ModifierRow("dv", "base", 10, "DV-1"), ModifierRow("dv", "crate", 2, "COV-1"))
    assert row.rules == ("ATK-4", "ATK-1", "AMOD-1", "DV-1", "COV-1", "X-02")
    assert row.lines() == event_lines(ATTACK, NAMES)


@pytest.mark.rule("DMG-1", "DR-1")
def test_row__damage_taken_carries_its_ledger_rows() -> None:
    taken = ev.DamageTaken("r", "w", 11, (ev.LedgerLine("dr", "slashing", 16, 11, "DR-1", "armor"),),
                           Health.full(20).evolve(hp=9))
    row = event_row(taken, NAMES)
    assert row is not None
    assert row.ledger == (LedgerRow("dr", "slashing", 16, 11, "armor", "DR-1"),)
    assert row.rules == ("DMG-1", "DR-1")
    assert row.text == "Raider takes 11 damage -> 9/20 HP [DMG-1]"


@pytest.mark.rule("E-01", "AE-3", "TWF-3", "FNT-7")
@pytest.mark.parametrize("resource", [*sorted(INTERNAL_COUNTERS), "feint:r"])
def test_internal_counters__are_neither_rows_nor_lines(resource: str) -> None:
    used = ev.ResourceUsed("w", resource, 1, "ACT-7")
    assert event_row(used, NAMES) is None
    assert event_lines(used, NAMES) == []


@pytest.mark.rule("ACT-2")
def test_bookkeeping__movement_is_a_bookkeeping_row_shown_only_when_explaining() -> None:
    used = ev.ResourceUsed("w", "movement", 30, "ACT-2")
    row = event_row(used, NAMES)
    assert row is not None and row.level == "bookkeeping" and row.text == "Warrior: movement +30 [ACT-2]"
    assert log_rows([used], NAMES, explain=False) == []


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "golden").glob("*.ashfall-2.jsonl")),
                         ids=lambda p: p.stem)
def test_rows__say_exactly_what_the_lines_say_for_every_event_of_the_golden_fights(path: Path) -> None:
    log = loads_log(path.read_text(encoding="utf-8"))
    names = names_of((cid, cid.title()) for cid in log.events[0].roster) if log.events else {}
    for event in log.events:
        row = event_row(event, names)
        for explain in (True, False):
            shown = row is not None and (explain or row.level == "headline")
            assert (row.lines(explain) if shown and row is not None else []) == event_lines(event, names, explain)
        if row is not None:
            assert all(p.ref is None or p.text == names.get(p.ref, p.ref) for p in row.parts)


def test_layers__the_explain_package_reads_engine_events_and_never_the_cli() -> None:
    for module in (ROOT / "src" / "ashfall" / "explain").glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in imported if m.startswith(("ashfall.cli", "ashfall.sim", "ashfall.ai"))], module.name
