"""A fight played at the table, exported, and played back by ``ashfall run --replay``: the same events and the same
final state through the reference engine (entered faces, GM overrides and an added creature come from the log)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app
from tests.web.table_client import Table

runner = CliRunner()


def final_of(view: dict[str, Any]) -> dict[str, Any]:
    """The GM view's facts a replay must reproduce."""
    return {"round": view["round"], "active": view["active"], "ended": view["ended"], "winner": view["winner"],
            "order": view["order"],
            "creatures": {c["id"]: (c["hp"]["hp"], c["position"], sorted(x["condition"] for x in c["conditions"]))
                          for c in view["creatures"]}}


def played(table: Table) -> int:
    """A duel with the PC's dice entered, a GM damage override with a save, a bandit added, then turns played."""
    fight = table.new_fight("duel", seed=5)["id"]
    version = table.view(fight)["version"]
    assert table.client.put(f"/api/fights/{fight}/settings", json={"settings": {"dice": {"warrior": "entered"}},
                                                                   "version": version},
                            headers={"Authorization": f"Bearer {table.gm}"}).status_code == 200
    got = table.post(f"/api/fights/{fight}/overrides/damage", {
        "targets": ["warrior", "champion"], "change": {"amount": 6, "damage_type": "fire", "save": "reflex", "dc": 13},
        "reason": "the brazier tips over", "version": table.view(fight)["version"]})
    assert got.status_code == 200, got.text
    if got.json()["status"] == "dice":  # the warrior's own Reflex save
        assert table.post(f"/api/fights/{fight}/dice", {"faces": [4], "version": table.view(fight)["version"]}
                          ).status_code == 200
    assert table.post(f"/api/fights/{fight}/overrides/combatant", {
        "change": {"add": {"creature": "bandit", "side": "raiders"}}, "reason": "a straggler",
        "version": table.view(fight)["version"]}).status_code == 200
    faces = iter([17, 3, 12, 20, 8, 11, 6, 15, 2, 19] * 10)
    for _ in range(40):
        view = table.view(fight)
        if view["ended"]:
            break
        pending = view["pending"]
        if pending is not None and "dice" in pending:
            count = pending["dice"]["count"]
            sides = pending["dice"]["sides"]
            body = {"faces": [min(next(faces), sides) for _ in range(count)], "version": view["version"]}
            assert table.post(f"/api/fights/{fight}/dice", body).status_code == 200
        else:
            table.step(fight)
    return fight


@pytest.mark.rule("GM")
def test_export__replayed_by_the_cli_reaches_the_same_final_state(table: Table, tmp_path: Path) -> None:
    fight = played(table)
    exported = table.get(f"/api/fights/{fight}/export").json()
    assert exported["format"] == "ashfall-table-export/1" and '"faces"' in exported["log"]
    assert '"combatant-joined"' in exported["log"] and '"gm-ruled"' in exported["log"]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    got = runner.invoke(app, ["run", "--replay", str(path), "--json"])
    assert got.exit_code == 0, got.output
    replayed = json.loads(got.output)
    final = replayed["final"]
    assert final_of(table.view(fight)) == {
        "round": final["round"], "active": final["active"], "ended": final["ended"], "winner": final["winner"],
        "order": final["order"],
        "creatures": {c["id"]: (c["hp"], c["position"], c["conditions"]) for c in final["creatures"]}}
    logged = [json.loads(line) for line in exported["log"].splitlines() if json.loads(line)["type"] not in
              ("fight", "intent")]
    assert replayed["events"] == logged
    text = runner.invoke(app, ["run", "--replay", str(path)])
    assert text.exit_code == 0 and "the brazier tips over" in text.output and "Bandit joins the fight" in text.output


def test_export__a_tampered_log_is_refused_naming_where_it_diverges(table: Table, tmp_path: Path) -> None:
    fight = played(table)
    exported = table.get(f"/api/fights/{fight}/export").json()
    exported["log"] = exported["log"].replace('"amount":6', '"amount":60', 1)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    got = runner.invoke(app, ["run", "--replay", str(path)])
    assert got.exit_code == 2 and "diverges" in got.output


def test_export__replay_takes_no_encounter_file_and_a_non_export_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text("[1, 2]", encoding="utf-8")
    got = runner.invoke(app, ["run", "--replay", str(path)])
    assert got.exit_code == 2 and "an export is a JSON object" in got.output
    path.write_text("{", encoding="utf-8")
    assert runner.invoke(app, ["run", "--replay", str(path)]).exit_code == 2
    assert runner.invoke(app, ["run"]).exit_code == 2
