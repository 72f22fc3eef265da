"""Fights assembled at the table (no encounter file): library creatures with counts, quick-added PCs, initiative
groups that share one die, theater of mind or a small map; every input checked into a 422 that names the entry.
The fight is stored as the encounter file it makes, so it resumes, exports and replays like any other.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from ashfall.cli.app import app
from tests.web.table_client import Table, bearer

VEX = {"name": "Vex", "hp": 24, "dv": 15, "attack_bonus": 5, "damage": "1d8+3", "initiative_bonus": 3}


def assemble(table: Table, fight: dict[str, Any], seed: int = 3) -> httpx.Response:
    return table.client.post(f"/api/tables/{table.table_id}/fights", json={"assemble": fight, "seed": seed},
                             headers=bearer(table.gm))


def ford(**extra: Any) -> dict[str, Any]:
    return {"name": "Ambush at the ford", "sides": [{"name": "party"}, {"name": "bandits"}],
            "combatants": [{"pc": VEX, "side": "party"},
                           {"creature": "bandit", "side": "bandits", "count": 3, "group": "bandits"},
                           {"creature": "bandit-leader", "side": "bandits"}], **extra}


@pytest.mark.rule("INIT-1")
@pytest.mark.rule("INIT-2")
def test_assembled__theater_of_mind_fight_with_a_quick_pc_and_a_group_sharing_one_initiative_die(
        table: Table) -> None:
    got = assemble(table, ford())
    assert got.status_code == 201, got.text
    view = got.json()
    assert view["name"] == "Ambush at the ford" and view["map"] is None
    by_id = {c["id"]: c for c in view["creatures"]}
    assert by_id["vex"]["pc"] and by_id["vex"]["hp"]["max_hp"] == 24 and by_id["vex"]["position"] is None
    bandits = [cid for cid in view["order"] if cid.startswith("bandit-") and cid != "bandit-leader"]
    assert len(bandits) == 3 and len({by_id[b]["initiative"] for b in bandits}) == 1  # one die, same modifiers
    at = [view["order"].index(b) for b in bandits]
    assert at == list(range(at[0], at[0] + 3))  # they act one after another
    log = table.get(f"/api/fights/{view['id']}/log").json()["records"][0]["rows"]
    rolled = [r for r in log if r["kind"] == "initiative-rolled"]
    assert len(rolled) == 5
    for _ in range(6):  # and it plays: no map, so strikes need no squares
        table.step(view["id"])
    assert table.view(view["id"])["version"] > view["version"]


def test_assembled__without_groups_every_creature_rolls_its_own_die(table: Table) -> None:
    fight = ford()
    for entry in fight["combatants"]:
        entry.pop("group", None)
    many = assemble(table, {**fight, "combatants": [*fight["combatants"][:1],
                                                    {"creature": "bandit", "side": "bandits", "count": 8}]}, seed=11)
    assert many.status_code == 201, many.text
    totals = {c["initiative"] for c in many.json()["creatures"] if c["id"].startswith("bandit")}
    assert len(totals) > 1  # eight separate d20s (seed 11): not all alike


@pytest.mark.parametrize(("change", "words"), [
    ({"combatants": [{"creature": "bandit", "pc": VEX, "side": "party"}]}, "combatants[0]"),
    ({"combatants": [{"side": "party"}]}, "combatants[0]"),
    ({"combatants": [{"pc": VEX, "side": "party", "count": 2}]}, "count"),
    ({"combatants": [{"pc": {**VEX, "dv": 40}, "side": "party"}]}, "dv"),
    ({"combatants": [{"pc": {**VEX, "damage": "d8 + lots"}, "side": "party"}]}, "damage"),
    ({"combatants": [{"pc": VEX, "side": "party"}, {"creature": "bandti", "side": "bandits"}]}, "bandit"),
    ({"combatants": [{"pc": VEX, "side": "party"}, {"creature": "bandit", "side": "nobody"}]}, "nobody"),
    ({"sides": [{"name": "party"}]}, "sides"),
    ({"combatants": [{"creature": "bandit", "side": "bandits", "count": 21}]}, "count"),
    ({"ruleset": "ashfall-9"}, "ruleset"),
])
def test_assembled__bad_input_is_422_naming_the_entry_and_creates_nothing(table: Table, change: dict[str, Any],
                                                                          words: str) -> None:
    got = assemble(table, {**ford(), **change})
    assert got.status_code == 422, got.text
    assert words in got.text
    assert table.get(f"/api/tables/{table.table_id}/fights").json()["fights"] == []


def test_assembled__exactly_one_source_of_the_fight(table: Table) -> None:
    got = table.client.post(f"/api/tables/{table.table_id}/fights", json={"assemble": ford(), "encounter": "duel"},
                            headers=bearer(table.gm))
    assert got.status_code == 422 and "exactly one" in got.text


@pytest.mark.rule("POS-2")
def test_assembled__on_a_small_map_with_positions_and_replayed_from_its_export(table: Table, tmp_path: Path) -> None:
    rows = "#######\n#.....#\n#.....#\n#######"
    fight = {"sides": [{"name": "party"}, {"name": "bandits"}], "map": {"rows": rows},
             "combatants": [{"pc": VEX, "side": "party", "position": [1, 1]},
                            {"creature": "bandit", "side": "bandits", "count": 2, "positions": [[5, 1], [5, 2]],
                             "group": "b"}]}
    got = assemble(table, fight)
    assert got.status_code == 201, got.text
    fid = got.json()["id"]
    assert got.json()["map"]["width"] == 7
    assert {c["id"]: c["position"] for c in got.json()["creatures"]} == {
        "vex": [1, 1], "bandit-1": [5, 1], "bandit-2": [5, 2]}
    for _ in range(8):
        table.step(fid)
    exported = table.get(f"/api/fights/{fid}/export").json()
    assert exported["source"] == "assembled" and "initiative_group: b" in exported["encounter"]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    replayed = CliRunner().invoke(app, ["run", "--replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    final = json.loads(replayed.output)["final"]
    assert {c["id"]: c["hp"] for c in final["creatures"]} == {
        c["id"]: c["hp"]["hp"] for c in table.view(fid)["creatures"]}
    bad = assemble(table, {**fight, "combatants": [{"pc": VEX, "side": "party", "position": [0, 0]}]})
    assert bad.status_code == 422 and "combatants[0]" in bad.text


def test_assembled__a_pc_named_like_a_library_creature_gets_its_own_stat_block(table: Table) -> None:
    got = assemble(table, {"sides": [{"name": "party"}, {"name": "bandits"}],
                           "combatants": [{"pc": {**VEX, "name": "Bandit"}, "side": "party"},
                                          {"creature": "bandit", "side": "bandits", "count": 2}]})
    assert got.status_code == 201, got.text
    by_id = {c["id"]: c for c in got.json()["creatures"]}
    pc = by_id["bandit"]
    assert pc["pc"] and pc["creature"] == "pc-bandit" and pc["hp"]["max_hp"] == 24
    assert by_id["bandit-1"]["creature"] == "bandit" and not by_id["bandit-1"]["pc"]
