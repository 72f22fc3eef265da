"""Playing fights over the table's API: to victory, refusals, decisions, undo/redo, resume after a restart."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from ashfall.encounters import build, encounter_from_text, encounters_root
from ashfall.engine import dumps, loads_log, replay
from tests.web.table_client import Table, bearer, make_client


def play_to_end(table: Table, fight: int, limit: int = 1000) -> list[str]:
    steps = []
    for _ in range(limit):
        steps.append(table.step(fight))
        if steps[-1] == "ended":
            return steps
    raise AssertionError(f"the fight did not end in {limit} steps")


def test_table__duel_played_to_victory_with_engine_dice(table: Table) -> None:
    fight = table.new_fight("duel", seed=2)["id"]
    steps = play_to_end(table, fight)
    view = table.view(fight)
    assert view["ended"] and view["winner"] in ("party", "raiders")
    loser = [c for c in view["creatures"] if c["side"] != view["winner"]]
    assert all(c["hp"]["hp"] == 0 for c in loser)
    assert "strike" in steps or "power-strike" in steps
    log = table.get(f"/api/fights/{fight}/log").json()["records"]
    assert log[0]["intent"] == {"type": "start"} and len(log) == len(steps) - 1 - steps.count("answered") + 1
    attack_rows = [r for rec in log for r in rec["rows"] if r["kind"] == "attack-rolled"]
    assert attack_rows and all("ATK-4" in r["rules"] for r in attack_rows)


def test_table__legal_intents_carry_exact_odds_per_target(table: Table) -> None:
    fight = table.new_fight("skirmish", seed=3)["id"]
    got = table.get(f"/api/fights/{fight}/intents").json()
    strikes = [i for i in got["intents"] if i["type"] == "strike"]
    assert strikes and all(i["cost"] == 1 and i["rule"] for i in strikes)
    odds = strikes[0]["odds"]
    assert odds["target"] == strikes[0]["intent"]["target"]
    for key in ("p_hit", "p_crit", "expected_damage", "p_drop"):
        assert set(odds[key]) == {"exact", "value"}
    assert 0 < odds["p_crit"]["value"] <= odds["p_hit"]["value"] <= 1  # CRIT-1: a natural 20 hits


def test_table__refused_intent_is_409_with_rule_and_nothing_stored(table: Table) -> None:
    fight = table.new_fight("skirmish", seed=3)["id"]
    before = table.view(fight)
    actor = before["active"]
    far = next(c["id"] for c in before["creatures"] if c["side"] != next(
        x["side"] for x in before["creatures"] if x["id"] == actor) and c["id"] != actor)
    got = table.act(fight, {"type": "strike", "actor": actor, "target": far, "weapon": "nothing-like-this"})
    assert got.status_code == 409
    body = got.json()
    assert body["rule"] and body["reason"]
    assert table.view(fight) == before
    assert len(table.get(f"/api/fights/{fight}/log").json()["records"]) == 1


def test_table__stale_version_is_409_and_missing_version_is_428(table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    version = table.view(fight)["version"]
    assert table.post(f"/api/fights/{fight}/end-turn", {"version": version}).status_code == 200
    stale = table.post(f"/api/fights/{fight}/end-turn", {"version": version})
    assert stale.status_code == 409 and stale.json()["version"] == version + 1
    assert table.post(f"/api/fights/{fight}/end-turn", {}).status_code == 428
    header = table.client.post(f"/api/fights/{fight}/end-turn", json={},
                               headers={**bearer(table.gm), "X-Fight-Version": str(version + 1)})
    assert header.status_code == 200


def test_table__reaction_answered_by_the_player_of_the_creature(table: Table) -> None:
    fight = table.new_fight("corridor", seed=2)["id"]
    pcs = [c["id"] for c in table.view(fight)["creatures"] if c["pc"]]
    players = {pc: table.post(f"/api/fights/{fight}/players", {"creatures": [pc]}).json()["token"] for pc in pcs}
    for _ in range(400):
        view = table.view(fight)
        pending = view["pending"]
        if pending is not None and pending["decision"]["actor"] in players:
            break
        assert not view["ended"], "no PC was asked a decision"
        table.step(fight)
    decision = pending["decision"]
    asked = decision["actor"]
    other = next((t for pc, t in players.items() if pc != asked), None)
    body = {"answer": decision["options"][0]["key"], "version": view["version"]}
    if other is not None:
        assert table.post(f"/api/fights/{fight}/decision", body, other).status_code == 403
    player_view = table.get(f"/api/fights/{fight}/view", players[asked]).json()
    assert player_view["prompt"] == decision
    answered = table.post(f"/api/fights/{fight}/decision", body, players[asked])
    assert answered.status_code == 200, answered.text
    log = table.get(f"/api/fights/{fight}/log").json()["records"]
    assert decision["options"][0]["key"] in log[-1]["answers"] or answered.json()["status"] == "decision"


def test_table__undo_and_redo_across_turns_keep_dropped_branch(table: Table) -> None:
    fight = table.new_fight("duel", seed=4)["id"]
    views = [table.view(fight)]
    for _ in range(8):
        table.step(fight)
        views.append(table.view(fight))
    rounds = {v["round"] for v in views}
    assert len(rounds) > 1 or len({v["active"] for v in views}) > 1  # the steps cross turns
    steps = table.view(fight)["undo_available"]
    undone = table.post(f"/api/fights/{fight}/undo", {"steps": steps, "version": views[-1]["version"]})
    assert undone.status_code == 200
    first = table.view(fight)
    assert {k: v for k, v in first.items() if k not in ("version", "undo_available", "redo_available")} == {
        k: v for k, v in views[0].items() if k not in ("version", "undo_available", "redo_available")}
    redone = table.post(f"/api/fights/{fight}/redo", {"steps": steps, "version": first["version"]})
    assert redone.status_code == 200
    again = table.view(fight)
    assert again["creatures"] == views[-1]["creatures"] and again["redo_available"] == 0
    table.post(f"/api/fights/{fight}/undo", {"steps": 2, "version": again["version"]})
    table.step(fight)  # a new action drops the redo branch …
    assert table.view(fight)["redo_available"] == 0
    everything = table.get(f"/api/fights/{fight}/log?branches=true").json()["records"]
    assert any(r["branch"] > 0 for r in everything)  # … but keeps it as data


def test_table__resume_after_restart_equals_state_and_replay(db: Path, client: TestClient) -> None:
    table = Table.open(client)
    fight = table.new_fight("skirmish", seed=5)["id"]
    for _ in range(30):
        table.step(fight)
    table.post(f"/api/fights/{fight}/undo", {"steps": 3, "version": table.view(fight)["version"]})
    before = table.view(fight)
    exported = table.get(f"/api/fights/{fight}/export").json()
    with make_client(db) as fresh:
        again = Table(fresh, table.gm, table.table_id)
        assert again.view(fight) == before
        assert again.post(f"/api/fights/{fight}/redo", {"steps": 3, "version": before["version"]}).status_code == 200
    log = loads_log(exported["log"])
    engine, _ = build(encounter_from_text(exported["encounter"], "skirmish.yaml", encounters_root()), log.seed)
    replayed = replay(log, engine.initial_state)
    assert dumps(replayed.log) == dumps(log.events)
    hp = {c["id"]: c["hp"]["hp"] for c in before["creatures"]}
    assert hp == {cid: c.health.hp for cid, c in replayed.state.combatants.items()}


def test_table__uploaded_encounter_errors_name_their_lines(table: Table) -> None:
    text = (encounters_root() / "duel.yaml").read_text(encoding="utf-8")
    text = text.replace("creature: warrior", "creature: nobody")
    got = table.post(f"/api/tables/{table.table_id}/fights", {"yaml": text})
    assert got.status_code == 422
    problems = got.json()["problems"]
    assert problems and all(p["line"] for p in problems) and "nobody" in json.dumps(problems)
    ok = table.post(f"/api/tables/{table.table_id}/fights", {"yaml": text.replace("nobody", "warrior")})
    assert ok.status_code == 201


def test_table__fights_list_archive_and_export(table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    listed = table.get(f"/api/tables/{table.table_id}/fights").json()["fights"]
    assert [f["id"] for f in listed] == [fight]
    assert table.post(f"/api/fights/{fight}/archive", {"version": table.view(fight)["version"]}).status_code == 200
    assert table.get(f"/api/tables/{table.table_id}/fights").json()["fights"] == []
    assert table.act(fight, {"type": "dodge", "actor": table.view(fight)["active"]}).status_code == 409
    exported = table.get(f"/api/fights/{fight}/export").json()
    assert exported["log"].startswith('{"format":1') and "Duel" in exported["encounter"]
