"""The GM screen's read-only helpers over HTTP: flanking and cover against a target, the morale panel, Delay
and Ready for the initiative rail. Each answer is checked against what the engine then does (the attack's
own modifiers and DV, the morale check it rolls), on the salvage yard with its original raider gang
(``encounters/raider-yard.yaml``: four raiders of one morale group, a scout on the loading dock) with a real app
and SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.table_client import Table

RAIDER_YARD = Path(__file__).resolve().parent / "encounters" / "raider-yard.yaml"


def yard_fight(table: Table, seed: int = 12) -> int:
    """A fight of the raider yard, uploaded as YAML: the id."""
    made = table.post(f"/api/tables/{table.table_id}/fights",
                      {"yaml": RAIDER_YARD.read_text(encoding="utf-8"), "seed": seed})
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


def override(table: Table, fight: int, kind: str, targets: list[str], change: dict[str, Any]) -> dict[str, Any]:
    got = table.post(f"/api/fights/{fight}/overrides/{kind}", {"version": table.view(fight)["version"],
                                                                 "targets": targets, "change": change,
                                                                 "reason": "test setup"})
    assert got.status_code == 200, got.text
    return dict(got.json())


def act_declining(table: Table, fight: int, intent: dict[str, Any]) -> list[dict[str, Any]]:
    """Submit an intent, declining every reaction offered meanwhile; the rows of the record it made."""
    got = table.act(fight, intent)
    assert got.status_code == 200, got.text
    while got.json()["status"] == "decision":
        got = table.post(f"/api/fights/{fight}/decision", {"answer": None, "version": table.view(fight)["version"]})
        assert got.status_code == 200, got.text
    return list(got.json()["rows"])


def tactics(table: Table, fight: int, target: str, attacker: str | None = None) -> dict[str, Any]:
    query = f"target={target}" + (f"&attacker={attacker}" if attacker else "")
    got = table.get(f"/api/fights/{fight}/tactics?{query}")
    assert got.status_code == 200, got.text
    return dict(got.json())


def attack_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return next(r for r in rows if r["kind"] == "attack-rolled")


def warriors_turn(table: Table, fight: int) -> None:
    """Skip the turns before the Warrior's (seed 12: scout, Vanguard, Gunslinger, then the Warrior)."""
    while table.view(fight)["active"] != "warrior":
        override(table, fight, "skip-turn", [], {})


@pytest.mark.rule("POS-1", "AMOD-1")
def test_tactics__opposite_allies_flank_and_the_strike_then_carries_amod_1(table: Table) -> None:
    fight = yard_fight(table)
    override(table, fight, "move", ["warrior"], {"to": [11, 8]})  # west of the raider at 12,8
    override(table, fight, "move", ["vanguard"], {"to": [13, 8]})  # east of it: opposite
    got = tactics(table, fight, "raider", "warrior")
    assert got["attacker"] == "warrior" and got["attackers"][0]["attacker"] == "warrior"
    warrior = got["attackers"][0]
    assert warrior["flanking"]["flanked"] and warrior["flanking"]["with"] == ["vanguard"]
    assert warrior["flanking"]["modifier"] == {"value": 2, "label": "flanking", "rule": "AMOD-1"}
    # every creature hostile to the raider is listed, none of its allies
    assert {a["attacker"] for a in got["attackers"]} == {"warrior", "vanguard", "gunslinger", "operative"}
    warriors_turn(table, fight)
    row = attack_row(act_declining(table, fight, {"type": "strike", "actor": "warrior", "target": "raider",
                                                  "weapon": "greataxe"}))
    assert {"label": "flanking", "value": 2, "rule": "AMOD-1", "applies_to": "d20"} in row["modifiers"]
    dv = [m for m in row["modifiers"] if m["applies_to"] == "dv"]
    assert [(m["value"], m["rule"]) for m in dv] == [(p["value"], p["rule"]) for p in warrior["dv"]["parts"]]


@pytest.mark.rule("POS-1", "POS-3")
def test_tactics__an_ally_on_the_same_side_or_grappled_does_not_flank(table: Table) -> None:
    fight = yard_fight(table)
    override(table, fight, "move", ["warrior"], {"to": [11, 8]})
    override(table, fight, "move", ["vanguard"], {"to": [11, 9]})  # beside the Warrior, not opposite
    warrior = tactics(table, fight, "raider", "warrior")["attackers"][0]
    assert not warrior["flanking"]["flanked"] and warrior["flanking"]["modifier"] is None
    assert warrior["flanking"]["not_flanking"] == []
    override(table, fight, "move", ["vanguard"], {"to": [13, 8]})
    override(table, fight, "condition", ["vanguard"], {"condition": "grappled", "rounds": 3})
    warrior = tactics(table, fight, "raider", "warrior")["attackers"][0]
    assert not warrior["flanking"]["flanked"]
    assert warrior["flanking"]["not_flanking"] == [{"ally": "vanguard", "rule": "POS-3"}]
    warriors_turn(table, fight)
    row = attack_row(act_declining(table, fight, {"type": "strike", "actor": "warrior", "target": "raider",
                                                  "weapon": "greataxe"}))
    assert "AMOD-1" not in row["rules"]


@pytest.mark.rule("COV-1", "AMOD-2", "X-01")
def test_tactics__cover_from_the_dock_is_the_dv_the_scouts_shot_then_meets(table: Table) -> None:
    fight = yard_fight(table)  # the scout on the dock acts first
    got = tactics(table, fight, "warrior")
    assert got["attacker"] == "raider-scout"  # the active creature, hostile to the target, comes first
    scout = got["attackers"][0]
    assert scout["cover"]["weapon"] == "hunting-rifle" and scout["cover"]["ranged"]
    assert scout["cover"]["counted"] == "partial"
    assert scout["cover"]["modifiers"] == [{"value": 2, "label": "partial cover", "rule": "COV-1"}]
    assert scout["high_ground"]
    # the same shot with its knife: a melee attack, which the dock's partial cover does not protect from
    knife = table.get(
        f"/api/fights/{fight}/tactics?target=warrior&attacker=raider-scout&weapon=combat-knife").json()["attackers"][0]
    assert knife["cover"]["weapon"] == "combat-knife" and not knife["cover"]["ranged"]
    assert knife["cover"]["level"] == "partial" and knife["cover"]["counted"] == "none"
    assert knife["cover"]["notes"] == ["X-01"] and knife["cover"]["modifiers"] == []
    row = attack_row(act_declining(table, fight, {"type": "strike", "actor": "raider-scout", "target": "warrior",
                                                  "weapon": "hunting-rifle"}))
    assert f"vs DV {scout['dv']['total']} " in "".join(p["text"] for p in row["parts"])
    assert "COV-1" in row["rules"] and "AMOD-2" in row["rules"]


def test_tactics_morale_rail__gm_only_and_unknown_creatures_are_404(table: Table) -> None:
    fight = yard_fight(table)
    player = table.post(f"/api/fights/{fight}/players", {"creatures": ["warrior"]}).json()["token"]
    for path in ("tactics?target=raider", "morale", "rail"):
        assert table.get(f"/api/fights/{fight}/{path}", player).status_code == 403
    assert table.get(f"/api/fights/{fight}/tactics?target=nobody").status_code == 404
    assert table.get(f"/api/fights/{fight}/tactics?target=raider&attacker=nobody").status_code == 404
    assert table.get(f"/api/fights/{fight}/tactics").status_code == 422


@pytest.mark.rule("MOR-7", "MOR-14", "MOR-15", "G-02")
def test_morale__the_forecast_for_the_next_drop_is_the_check_the_engine_then_rolls(table: Table) -> None:
    fight = yard_fight(table)
    panel = table.get(f"/api/fights/{fight}/morale").json()
    assert panel["active"] and [g["group"] for g in panel["groups"]] == ["raiders"]
    raiders = panel["groups"][0]
    assert raiders["status"] == "hold" and raiders["size"] == 4 and raiders["due"] is None
    assert raiders["will"] == {"value": 2, "label": "group morale Will", "rule": "MOR-4"}
    drop = next(f for f in raiders["forecast"] if f["event"] == "next-drop")
    assert drop["triggers"] == [{"trigger": "first-blood", "rule": "MOR-7"}]
    assert drop["outnumbered"]  # three raiders standing against four
    assert [(p["value"], p["rule"]) for p in drop["parts"]] == [(12, "MOR-14"), (2, "G-02"), (2, "MOR-15")]
    assert drop["dc"] == 16
    assert next(f for f in raiders["forecast"] if f["event"] == "half-strength")["drops"] == 2

    override(table, fight, "damage", ["raider"], {"amount": 40, "damage_type": "fire"})  # drops one: First Blood
    log = table.get(f"/api/fights/{fight}/log").json()["records"][-1]
    checked = next(r for r in log["rows"] if r["kind"] == "morale-checked")
    assert f"DC {drop['dc']}" in "".join(p["text"] for p in checked["parts"]) + " ".join(checked["details"])
    after = table.get(f"/api/fights/{fight}/morale").json()["groups"][0]
    assert after["first_blood_done"] and after["casualties"] == ["raider"]
    assert after["last_check"]["dc"] == drop["dc"] and after["last_check"]["parts"] == drop["parts"]
    assert not any(t["trigger"] == "first-blood" for f in after["forecast"] for t in f.get("triggers", ()))


@pytest.mark.rule("MOR-3")
def test_morale__an_entered_morale_roll_is_the_check_due_now(table: Table) -> None:
    fight = yard_fight(table)
    view = table.view(fight)
    settings = {**view["settings"], "dice": {c: "entered" for c in ("raider-boss", "raider-enforcer", "raider-scout")}}
    assert table.client.put(f"/api/fights/{fight}/settings", json={"settings": settings, "version": view["version"]},
                            headers={"Authorization": f"Bearer {table.gm}"}).status_code == 200
    change = {"amount": 40, "damage_type": "fire"}
    got = table.post(f"/api/fights/{fight}/overrides/damage", {"version": table.view(fight)["version"],
                                                               "targets": ["raider"], "change": change, "reason": "x"})
    assert got.json()["status"] == "dice" and got.json()["pending"]["dice"]["kind"] == "morale"
    due = table.get(f"/api/fights/{fight}/morale").json()["groups"][0]["due"]
    assert due is not None and due["kind"] == "morale" and due["source"] == "raiders"


@pytest.mark.rule("E-33")
def test_morale__edition_1_has_none(table: Table) -> None:
    text = RAIDER_YARD.read_text(encoding="utf-8")
    made = table.post(f"/api/tables/{table.table_id}/fights", {"yaml": "ruleset: ashfall-1\n" + text, "seed": 1})
    assert made.status_code == 201, made.text
    panel = table.get(f"/api/fights/{made.json()['id']}/morale").json()
    assert panel == {"version": panel["version"], "active": False, "rule": "E-33",
                     "reason": "this ruleset has no morale rules", "groups": []}


@pytest.mark.rule("DEL-2", "RDY-2")
def test_rail__a_delayed_creature_until_its_turn_and_a_readied_action_with_its_trigger(table: Table) -> None:
    fight = yard_fight(table)
    assert table.get(f"/api/fights/{fight}/rail").json()["delayed"] == []
    act_declining(table, fight, {"type": "delay", "actor": "raider-scout", "after": "vanguard"})
    rail = table.get(f"/api/fights/{fight}/rail").json()
    assert rail["delayed"] == [{"actor": "raider-scout", "after": "vanguard", "rule": "DEL-2"}]
    act_declining(table, fight, {"type": "ready", "actor": "vanguard", "action": {"kind": "strike"},
                                 "trigger": {"kind": "moves", "creature": "raider"}})
    rail = table.get(f"/api/fights/{fight}/rail").json()
    assert rail["readied"] == [{"actor": "vanguard", "rule": "RDY-2",
                                "action": {"kind": "strike", "target": None, "weapon": None, "path": []},
                                "trigger": {"kind": "moves", "squares": [], "creature": "raider"},
                                "until": "start of its next turn (RDY-4)"}]
    table.post(f"/api/fights/{fight}/end-turn", {"version": table.view(fight)["version"]})
    assert table.view(fight)["active"] == "raider-scout"  # its new place, after the Vanguard
    assert table.get(f"/api/fights/{fight}/rail").json()["delayed"] == []  # its turn came
