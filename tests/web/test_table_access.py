"""Who reaches what on the table: every endpoint against no token, a player token and a foreign table's token,
revocation, and a player view (JSON and event stream) without NPC HP numbers or hidden creatures."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tests.web.table_client import Table, bearer

PUBLIC = {("GET", "/api/encounters"), ("POST", "/api/tables"), ("GET", "/api/rules/{rule_id}")}
ANY_TOKEN = {("GET", "/api/library/creatures")}
"""Shipped content, answered to any valid token (of any table) and to nobody else."""
MEMBER = {"/api/fights/{fight_id}/view", "/api/fights/{fight_id}/stream", "/api/fights/{fight_id}/intents",
          "/api/fights/{fight_id}/end-turn", "/api/fights/{fight_id}/decision", "/api/fights/{fight_id}/dice",
          "/api/fights/{fight_id}/move", "/api/fights/{fight_id}/check"}
BODIES: dict[str, dict[str, Any]] = {
    "/api/tables/{table_id}/fights": {"encounter": "duel"},
    "/api/fights/{fight_id}/intents": {"intent": {"type": "dodge", "actor": "champion"}},
    "/api/fights/{fight_id}/decision": {"answer": None},
    "/api/fights/{fight_id}/undo": {"steps": 1},
    "/api/fights/{fight_id}/redo": {"steps": 1},
    "/api/fights/{fight_id}/settings": {"settings": {}},
    "/api/fights/{fight_id}/players": {"creatures": ["champion"]},
    "/api/fights/{fight_id}/archive": {"archived": True},
    "/api/fights/{fight_id}/check": {"intent": {"type": "dodge", "actor": "champion"}},
}


def endpoints(client: TestClient) -> list[tuple[str, str]]:
    out = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIRoute):
            out.extend((method, route.path) for method in sorted(route.methods))
    return out


def call(client: TestClient, method: str, path: str, ids: dict[str, int], token: str | None,
         version: int) -> int:
    url = path.format(kind="hp", **ids)
    if path.endswith("/stream"):
        url += "?max_events=1"
    if path.endswith("/move"):
        url += "?x=1&y=1&actor=warrior"
    headers = bearer(token) if token else {}
    body = {**BODIES.get(path, {}), "version": version} if method in ("POST", "PUT") else None
    if path == "/api/fights/{fight_id}/players":
        body = {"creatures": ["champion"]}
    return client.request(method, url, json=body, headers=headers).status_code


@pytest.fixture
def setup(client: TestClient) -> tuple[Table, Table, int, str, dict[str, int]]:
    table, foreign = Table.open(client, "ours"), Table.open(client, "theirs")
    fight = table.new_fight("duel", seed=1)
    foreign.new_fight("duel", seed=1)
    made = table.post(f"/api/fights/{fight['id']}/players", {"creatures": ["warrior"]}).json()
    ids = {"fight_id": fight["id"], "table_id": table.table_id, "token_id": made["token_id"]}
    return table, foreign, fight["version"], made["token"], ids


def test_access__every_endpoint_refuses_no_token_foreign_token_and_player_on_gm(
        client: TestClient, setup: tuple[Table, Table, int, str, dict[str, int]]) -> None:
    table, foreign, version, player, ids = setup
    routes = [r for r in endpoints(client) if r not in PUBLIC and r[1].startswith("/api/")]
    assert len(routes) >= 20
    before = table.view(ids["fight_id"])
    for method, path in routes:
        assert call(client, method, path, ids, None, version) == 401, (method, path)
        if (method, path) in ANY_TOKEN:
            assert call(client, method, path, ids, foreign.gm, version) == 200
            assert call(client, method, path, ids, player, version) == 200
            continue
        assert call(client, method, path, ids, foreign.gm, version) == 403, (method, path)
        status = call(client, method, path, ids, player, version)
        if path in MEMBER:
            assert status != 401 and (status != 403 or method == "POST"), (method, path, status)
        else:
            assert status == 403, (method, path, status)
    after = table.view(ids["fight_id"])
    assert after == before
    assert table.get(f"/api/tables/{table.table_id}/fights").json()["fights"][0]["version"] == before["version"]


def test_access__players_act_only_when_allowed_and_only_for_their_creatures(
        setup: tuple[Table, Table, int, str, dict[str, int]]) -> None:
    table, _, version, player, ids = setup
    fight = ids["fight_id"]
    active = table.view(fight)["active"]
    refused = table.post(f"/api/fights/{fight}/end-turn", {"version": version}, player)
    assert refused.status_code == 403 and table.view(fight)["version"] == version
    got = table.client.put(f"/api/fights/{fight}/settings",
                           json={"settings": {"players_act": True}, "version": version}, headers=bearer(table.gm))
    assert got.status_code == 200
    version += 1
    status = table.post(f"/api/fights/{fight}/end-turn", {"version": version}, player).status_code
    assert status == (200 if active == "warrior" else 403)


def test_access__revoked_token_is_refused(setup: tuple[Table, Table, int, str, dict[str, int]]) -> None:
    table, _, _, player, ids = setup
    assert table.get(f"/api/fights/{ids['fight_id']}/view", player).status_code == 200
    got = table.client.delete(f"/api/tables/{table.table_id}/tokens/{ids['token_id']}", headers=bearer(table.gm))
    assert got.status_code == 200
    assert table.get(f"/api/fights/{ids['fight_id']}/view", player).status_code == 401


def _stream(table: Table, fight: int, token: str) -> list[dict[str, Any]]:
    with table.client.stream("GET", f"/api/fights/{fight}/stream?max_events=1&token={token}") as got:
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/event-stream")
        text = "".join(got.iter_text())
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def assert_player_safe(view: dict[str, Any], unseen: set[str], npc_hp: set[int]) -> None:
    text = json.dumps(view)
    for cid in unseen:
        assert f'"{cid}"' not in text, cid
    assert "notes" not in text and "weapons" not in text and "pending" not in view
    for c in view["creatures"]:
        if not c["pc"]:
            assert "hp" not in c and set(c) <= {"id", "name", "side", "pc", "position", "conditions", "band"}
    assert npc_hp  # (the numbers themselves may coincide with other numbers; their fields never appear)


def test_access__player_view_has_no_npc_hp_and_no_hidden_creatures(table: Table) -> None:
    fight = table.new_fight("skirmish", seed=1)["id"]
    pcs = [c["id"] for c in table.view(fight)["creatures"] if c["pc"]]
    player = table.post(f"/api/fights/{fight}/players", {"creatures": pcs}).json()["token"]
    hidden_npc = None
    for _ in range(40):  # the first NPC to act hides (HID-3): it must vanish from the player view
        view = table.view(fight)
        me = next(c for c in view["creatures"] if c["id"] == view["active"])
        if not me["pc"] and table.act(fight, {"type": "hide", "actor": me["id"]}).status_code == 200 and any(
                c["condition"] == "hidden"
                for c in next(c for c in table.view(fight)["creatures"] if c["id"] == me["id"])["conditions"]):
            hidden_npc = me["id"]
            break
        table.post(f"/api/fights/{fight}/end-turn", {"version": table.view(fight)["version"]})
    assert hidden_npc is not None
    gm = table.view(fight)
    version = gm["version"]
    also = next(c["id"] for c in gm["creatures"] if not c["pc"] and c["id"] != hidden_npc)
    got = table.client.put(f"/api/fights/{fight}/settings", json={
        "settings": {"hidden": [also], "notes": "the boss has a grenade"}, "version": version},
        headers=bearer(table.gm))
    assert got.status_code == 200
    npc_hp = {c["hp"]["hp"] for c in gm["creatures"] if not c["pc"]}
    unseen = {hidden_npc, also}
    view = table.get(f"/api/fights/{fight}/view", player).json()
    assert_player_safe(view, unseen, npc_hp)
    assert {c["id"] for c in view["creatures"]} == {c["id"] for c in gm["creatures"]} - unseen
    assert all("band" in c for c in view["creatures"] if not c["pc"])
    for event in _stream(table, fight, player):
        assert event["view"] == "player"
        assert_player_safe(event, unseen, npc_hp)
    assert _stream(table, fight, table.gm)[0]["view"] == "gm"
    version += 1
    table.client.put(f"/api/fights/{fight}/settings", json={"settings": {"npc_hp": "hidden"}, "version": version},
                     headers=bearer(table.gm))
    view = table.get(f"/api/fights/{fight}/view", player).json()
    assert all("band" not in c and "hp" not in c for c in view["creatures"] if not c["pc"])


def test_access__player_stream_pushes_each_change_as_the_projection(table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    player = table.post(f"/api/fights/{fight}/players", {"creatures": ["warrior"]}).json()["token"]
    version = table.view(fight)["version"]

    def later() -> None:
        time.sleep(0.3)
        table.post(f"/api/fights/{fight}/end-turn", {"version": version})

    writer = threading.Thread(target=later)
    writer.start()
    started = time.monotonic()
    with table.client.stream("GET", f"/api/fights/{fight}/stream?max_events=2&token={player}") as got:
        events = [json.loads(line[6:]) for line in got.iter_lines() if line.startswith("data: ")]
    writer.join()
    assert [e["version"] for e in events] == [version, version + 1]
    assert time.monotonic() - started < 5
    for event in events:
        assert_player_safe(event, set(), {1})
        assert event["active"] in ("warrior", "champion")


def test_access__a_revoked_player_tokens_open_stream_stops(table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    made = table.post(f"/api/fights/{fight}/players", {"creatures": ["warrior"]}).json()
    player, token_id = made["token"], made["token_id"]

    def later() -> None:
        time.sleep(0.3)
        assert table.client.delete(f"/api/tables/{table.table_id}/tokens/{token_id}",
                                   headers=bearer(table.gm)).status_code == 200
        for _ in range(3):  # changes after the revocation: the stream must not carry them
            table.post(f"/api/fights/{fight}/end-turn", {"version": table.view(fight)["version"]})

    writer = threading.Thread(target=later)
    writer.start()
    started = time.monotonic()
    with table.client.stream("GET", f"/api/fights/{fight}/stream?max_events=4&token={player}") as got:
        lines = list(got.iter_lines())
    writer.join()
    assert [line for line in lines if line.startswith("event: ")] == ["event: player", "event: revoked"]
    assert time.monotonic() - started < 5
    assert table.get(f"/api/fights/{fight}/view", player).status_code == 401


def test_access__bad_input_is_422_and_oversized_body_413(table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    version = table.view(fight)["version"]
    assert table.post(f"/api/fights/{fight}/undo", {"steps": 0, "version": version}).status_code == 422
    assert table.post(f"/api/fights/{fight}/undo", {"steps": 1, "version": version, "x": 1}).status_code == 422
    assert table.post(f"/api/fights/{fight}/intents", {"intent": {"type": "no-such-move"},
                                                       "version": version}).status_code == 422
    assert table.get("/api/fights/not-a-number").status_code == 422
    big = table.post(f"/api/tables/{table.table_id}/fights", {"yaml": "x" * (2 << 20)})
    assert big.status_code == 413
    assert table.view(fight)["version"] == version
