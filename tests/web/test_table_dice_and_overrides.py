"""The table's entered dice and GM overrides over HTTP, against the real app and a real SQLite file.

A PC whose dice are ``entered`` gets a dice request per roll that names it; faces out of range are 422 with
nothing changed; "roll it for me" lets the seeded RNG roll. GM overrides are events with the GM's reason and
rule GM: multi-target damage with a save each, undone and redone; entered faces replay after a restart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.table_client import Table, make_client


def pc_and_npcs(table: Table, fight: int) -> tuple[str, list[str]]:
    creatures = table.view(fight)["creatures"]
    return next(c["id"] for c in creatures if c["pc"]), [c["id"] for c in creatures if not c["pc"]]


def entered_fight(table: Table, encounter: str = "duel", seed: int = 3) -> tuple[int, str]:
    """A fight whose PC rolls its own dice (set after creation: initiative was the engine's)."""
    fight = table.new_fight(encounter, seed=seed)["id"]
    pc, _ = pc_and_npcs(table, fight)
    got = table.client.put(f"/api/fights/{fight}/settings", json={"settings": {"dice": {pc: "entered"}},
                                                                  "version": table.view(fight)["version"]},
                           headers={"Authorization": f"Bearer {table.gm}"})
    assert got.status_code == 200, got.text
    return fight, pc


def until_dice(table: Table, fight: int, limit: int = 60) -> dict[str, Any]:
    """Play GM moves until a dice request is pending; return it."""
    for _ in range(limit):
        pending = table.view(fight)["pending"]
        if pending is not None and "dice" in pending:
            return dict(pending["dice"])
        assert table.step(fight) != "ended"
    raise AssertionError("no dice request came up")


def dice(table: Table, fight: int, body: dict[str, Any], token: str | None = None) -> Any:
    return table.post(f"/api/fights/{fight}/dice", {**body, "version": table.view(fight)["version"]}, token)


@pytest.mark.rule("ATK-1")
def test_table__entered_dice_for_one_pc_asks_for_each_roll_and_checks_faces(table: Table) -> None:
    fight, pc = entered_fight(table)
    request = until_dice(table, fight)
    assert request["owner"] == pc and request["kind"] == "attack" and request["sides"] == 20
    names = {c["id"]: c["name"] for c in table.view(fight)["creatures"]}
    assert request["text"] == f"{names[pc]}'s attack roll against {names[request['target']]}: 1d20"
    before = table.view(fight)
    for bad in ([21], [0], [5, 6], []):
        got = dice(table, fight, {"faces": bad})
        assert got.status_code == 422, got.text
    assert table.view(fight) == before  # nothing changed, not even the version
    got = dice(table, fight, {"faces": [20]})  # a natural 20: the damage is asked for next
    assert got.status_code == 200 and got.json()["status"] == "dice", got.text
    damage = got.json()["pending"]["dice"]
    assert damage["kind"] == "damage" and damage["owner"] == pc and damage["text"].startswith("damage of ")
    got = dice(table, fight, {"roll_for_me": True})
    assert got.status_code == 200 and got.json()["status"] == "done", got.text
    record = got.json()["record"]
    assert record["faces"][0] == [request["index"], 20] and len(record["faces"]) == 1 + damage["count"]
    attack = next(e for e in got.json()["events"] if e["type"] == "attack-rolled")
    assert attack["roll"]["natural"] == 20 and attack["outcome"] == "crit"


@pytest.mark.rule("ATK-1")
def test_table__a_player_answers_their_own_creatures_dice_only(table: Table) -> None:
    fight, pc = entered_fight(table)
    _, npcs = pc_and_npcs(table, fight)
    mine = table.post(f"/api/fights/{fight}/players", {"creatures": [pc]}).json()["token"]
    theirs = table.post(f"/api/fights/{fight}/players", {"creatures": [npcs[0]]}).json()["token"]
    until_dice(table, fight)
    prompt = table.get(f"/api/fights/{fight}/view", mine).json()["prompt"]
    assert prompt["asks"] == "dice" and prompt["owner"] == pc and prompt["kind"] == "attack"
    assert dice(table, fight, {"faces": [7]}, theirs).status_code == 403
    assert dice(table, fight, {"faces": [7]}, mine).status_code == 200


@pytest.mark.rule("GM")
def test_table__multi_target_damage_each_saves_separately_and_undoes(table: Table) -> None:
    fight = table.new_fight("skirmish", seed=4)["id"]
    pc, npcs = pc_and_npcs(table, fight)
    targets = npcs[:4]
    hp = {c["id"]: c["hp"]["hp"] for c in table.view(fight)["creatures"]}
    body = {"targets": targets, "reason": "the fireball", "version": table.view(fight)["version"],
            "change": {"amount": 14, "damage_type": "fire", "save": "reflex", "dc": 14}}
    got = table.post(f"/api/fights/{fight}/overrides/damage", body)
    assert got.status_code == 200, got.text
    rows = got.json()["rows"]
    assert rows[0]["kind"] == "gm-ruled" and "the fireball" in str(rows[0]["parts"]) and rows[0]["rules"][0] == "GM"
    saves = [r for r in rows if r["kind"] == "check-rolled"]
    assert [r["actor"] for r in saves] == targets and all("GM" in r["rules"] for r in saves)
    after = {c["id"]: c["hp"]["hp"] for c in table.view(fight)["creatures"]}
    assert all(after[t] < hp[t] for t in targets if hp[t] > 0)
    assert table.post(f"/api/fights/{fight}/undo", {"steps": 1, "version": table.view(fight)["version"]}
                      ).status_code == 200
    assert {c["id"]: c["hp"]["hp"] for c in table.view(fight)["creatures"]} == hp
    assert table.post(f"/api/fights/{fight}/redo", {"steps": 1, "version": table.view(fight)["version"]}
                      ).status_code == 200
    assert {c["id"]: c["hp"]["hp"] for c in table.view(fight)["creatures"]} == after
    refused = table.post(f"/api/fights/{fight}/overrides/hp", {"targets": [pc], "reason": " ", "change": {"delta": 1},
                                                               "version": table.view(fight)["version"]})
    assert refused.status_code == 409 and refused.json()["rule"] == "GM"


@pytest.mark.rule("GM")
def test_table__an_entered_creatures_save_against_an_override_is_its_own_dice_request(table: Table) -> None:
    fight, pc = entered_fight(table, "skirmish", 4)
    _, npcs = pc_and_npcs(table, fight)
    body = {"targets": [npcs[0], pc], "reason": "grenade", "version": table.view(fight)["version"],
            "change": {"amount": 10, "damage_type": "fire", "save": "reflex", "dc": 13}}
    got = table.post(f"/api/fights/{fight}/overrides/damage", body)
    assert got.status_code == 200 and got.json()["status"] == "dice", got.text
    request = got.json()["pending"]["dice"]
    assert (request["owner"], request["kind"], request["source"]) == (pc, "save", "reflex")
    assert request["text"].endswith("reflex save: 1d20")
    done = dice(table, fight, {"faces": [1]}).json()
    pc_save = next(r for r in done["rows"] if r["kind"] == "check-rolled" and r["actor"] == pc)
    assert "GM" in pc_save["rules"]


@pytest.mark.rule("GM")
def test_table__condition_override_expires_with_a_reminder(table: Table) -> None:
    fight = table.new_fight("duel", seed=2)["id"]
    _, npcs = pc_and_npcs(table, fight)
    got = table.post(f"/api/fights/{fight}/overrides/condition", {
        "targets": [npcs[0]], "reason": "blinded by a flare", "change": {"condition": "blinded", "rounds": 1},
        "version": table.view(fight)["version"]})
    assert got.status_code == 200, got.text
    for _ in range(10):
        view = table.view(fight)
        if view["reminders"]:
            break
        table.post(f"/api/fights/{fight}/end-turn", {"version": view["version"]})
    assert [r["condition"] for r in view["reminders"]] == ["blinded"] and "no longer blinded" in view["reminders"][0][
        "text"]


@pytest.mark.rule("AE-1")
def test_table__entered_faces_replay_after_a_restart(db: Path, client: TestClient) -> None:
    table = Table.open(client)
    fight, _ = entered_fight(table)
    until_dice(table, fight)
    assert dice(table, fight, {"faces": [17]}).status_code == 200
    for _ in range(8):
        if table.step(fight) == "ended":
            break
    before = table.view(fight)
    log = table.get(f"/api/fights/{fight}/log").json()
    assert any(r.get("faces") for r in log["records"])
    with make_client(db) as fresh:
        again = Table(fresh, table.gm, table.table_id)
        assert again.view(fight) == before
        assert again.get(f"/api/fights/{fight}/log").json() == log


@pytest.mark.rule("INIT-1")
def test_table__entered_initiative_at_creation_waits_for_the_face_and_survives_a_restart(db: Path) -> None:
    with make_client(db) as client:
        table = Table.open(client)
        made = table.post(f"/api/tables/{table.table_id}/fights",
                          {"encounter": "duel", "seed": 2, "settings": {"dice": {"warrior": "entered"}}})
        assert made.status_code == 201, made.text
        fight = made.json()
        request = fight["pending"]["dice"]
        assert request["owner"] == "warrior" and request["kind"] == "initiative" and request["sides"] == 20
        assert fight["round"] == 0 and fight["active"] is None and fight["order"] == []
        assert table.get(f"/api/fights/{fight['id']}/intents").status_code == 404  # nobody's turn yet
        undo = table.post(f"/api/fights/{fight['id']}/undo", {"steps": 1, "version": fight["version"]})
        assert undo.status_code == 409 and "only 0 step(s)" in undo.json()["reason"]
        assert dice(table, fight["id"], {"faces": [21]}).status_code == 422
    with make_client(db) as client:  # the waiting start survives a restart
        table = Table(client, table.gm, table.table_id)
        assert table.view(fight["id"])["pending"]["dice"]["kind"] == "initiative"
        done = dice(table, fight["id"], {"faces": [14]})
        assert done.status_code == 200 and done.json()["status"] == "done", done.text
        started = table.view(fight["id"])
        warrior = next(c for c in started["creatures"] if c["id"] == "warrior")
        rolled = next(e for e in done.json()["events"] if e["type"] == "initiative-rolled" and e["actor"] == "warrior")
        assert rolled["roll"]["faces"] == [14] and warrior["initiative"] == rolled["roll"]["total"]
        assert started["round"] == 1 and started["active"] is not None
        log = table.get(f"/api/fights/{fight['id']}/log").json()["records"]
        assert log[0]["seq"] == 0 and log[0]["faces"][0][1] == 14
