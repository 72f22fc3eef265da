"""Adding and removing a combatant mid-fight over HTTP (GM override ``combatant``, rule GM), on the real app and a
real SQLite file: a library creature or a quick-added PC joins on a free square at its place in the order (INIT-2,
INIT-3); a removed active creature's turn passes on; both are undone, redone and replayed after a restart like any
override. The library's creatures are listed for the picker to any valid token.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from ashfall.content.loader import default_library
from ashfall.content.schema import Creature
from ashfall.rules.defense import defense_value
from ashfall.ruleset import preset
from tests.web.table_client import Table, bearer, make_client


def combatant(table: Table, fight: int, body: dict[str, Any]) -> httpx.Response:
    return table.post(f"/api/fights/{fight}/overrides/combatant",
                      {"reason": "reinforcements arrive", **body, "version": table.view(fight)["version"]})


def creature(view: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in view["creatures"] if c["id"] == cid)


@pytest.mark.rule("GM")
@pytest.mark.rule("INIT-2")
def test_combatant__a_library_bandit_joins_at_its_initiative_and_undo_redo_and_restart_keep_it(db: Path) -> None:
    with make_client(db) as client:
        table = Table.open(client)
        fight = table.new_fight("duel", seed=1)["id"]
        before = table.view(fight)
        active = before["active"]
        got = combatant(table, fight, {"targets": [], "change": {"add": {
            "creature": "bandit", "side": "raiders", "position": [6, 1], "initiative": 99}}})
        assert got.status_code == 200, got.text
        answer = got.json()
        assert answer["version"] == before["version"] + 1
        assert [e["type"] for e in answer["events"]] == ["gm-ruled", "combatant-joined"]
        assert answer["events"][0]["reason"] == "reinforcements arrive" and answer["events"][1]["rule"] == "GM"
        lines = ["".join(p["text"] for p in r["parts"]) for r in answer["rows"]]
        assert "Bandit joins the fight on side raiders at [6, 1], initiative 99 [GM]" in lines
        after = table.view(fight)
        assert after["order"][0] == "bandit" and after["order"][1:] == before["order"]  # 99 beats everyone
        assert after["active"] == active  # the active creature keeps its turn
        bandit = creature(after, "bandit")
        assert bandit["position"] == [6, 1] and bandit["hp"]["hp"] == 9 and bandit["initiative"] == 99
        assert bandit["side"] == "raiders" and not bandit["pc"]
        assert table.post(f"/api/fights/{fight}/undo", {"steps": 1, "version": after["version"]}).status_code == 200
        assert "bandit" not in table.view(fight)["order"]
        assert table.post(f"/api/fights/{fight}/redo", {"steps": 1,
                                                         "version": table.view(fight)["version"]}).status_code == 200
        redone = table.view(fight)
        assert redone["order"] == after["order"] and creature(redone, "bandit") == bandit
    with make_client(db) as client:  # a new server on the same file resumes it by replay
        resumed = Table(client, table.gm, table.table_id).view(fight)
        assert resumed["order"] == after["order"] and creature(resumed, "bandit") == bandit


@pytest.mark.rule("INIT-1")
def test_combatant__without_initiative_or_square_it_rolls_and_takes_the_free_square_nearest_its_side(
        table: Table) -> None:
    fight = table.new_fight("duel", seed=4)["id"]
    got = combatant(table, fight, {"change": {"add": {"creature": "bandit", "side": "raiders"}}})
    assert got.status_code == 200, got.text
    rolled = next(e for e in got.json()["events"] if e["type"] == "initiative-rolled")
    view = table.view(fight)
    bandit, champion = creature(view, "bandit"), creature(view, "champion")
    assert bandit["initiative"] == rolled["roll"]["total"]
    assert rolled["roll"]["total"] == rolled["roll"]["natural"] + 1 + 2  # d20 + AGI 1 + proficiency 2 (INIT-1)
    gap = max(abs(a - b) for a, b in zip(bandit["position"], champion["position"], strict=True))
    assert gap == 1  # next to the raiders' champion
    second = combatant(table, fight, {"change": {"add": {"creature": "bandit", "side": "raiders"}}})
    assert second.status_code == 200 and "bandit-2" in table.view(fight)["order"]


@pytest.mark.rule("GM")
@pytest.mark.parametrize(("square", "words"), [([99, 1], "off the map"), ([0, 0], "not passable"),
                                               (None, "is on")])
def test_combatant__a_square_off_the_map_impassable_or_taken_is_refused_and_changes_nothing(
        table: Table, square: list[int] | None, words: str) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    before = table.view(fight)
    where = square or creature(before, "champion")["position"]
    got = combatant(table, fight, {"change": {"add": {"creature": "bandit", "side": "raiders", "position": where}}})
    assert got.status_code == 409 and got.json()["rule"] == "GM" and words in got.json()["reason"], got.text
    assert table.view(fight) == before


@pytest.mark.parametrize("change", [
    {"add": {"creature": "no-such-thing", "side": "raiders"}},
    {"add": {"side": "raiders"}},
    {"add": {"creature": "bandit", "pc": {"name": "Vex", "hp": 20, "dv": 15, "attack_bonus": 5, "damage": "1d8+3"},
             "side": "party"}},
    {"add": {"pc": {"name": "Vex", "hp": 0, "dv": 15, "attack_bonus": 5, "damage": "1d8+3"}, "side": "party"}},
    {"add": {"pc": {"name": "Vex", "hp": 20, "dv": 15, "attack_bonus": 5, "damage": "lots"}, "side": "party"}},
    {"add": {"creature": "bandit", "side": "raiders", "colour": "red"}},
    {},
    {"remove": True},
])
def test_combatant__a_malformed_change_is_422_and_changes_nothing(table: Table, change: dict[str, Any]) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    before = table.view(fight)
    got = combatant(table, fight, {"change": change})
    assert got.status_code == 422, got.text
    assert table.view(fight) == before


@pytest.mark.rule("DV-1")
@pytest.mark.rule("ATK-1")
@pytest.mark.rule("INIT-1")
def test_combatant__a_quick_added_pc_has_the_dv_attack_bonus_damage_and_initiative_given(table: Table) -> None:
    fight = table.new_fight("duel", seed=2)["id"]
    pc = {"name": "Vex the Bold", "hp": 31, "dv": 17, "attack_bonus": 7, "damage": "1d8+3", "initiative_bonus": 4}
    got = combatant(table, fight, {"change": {"add": {"pc": pc, "side": "party", "position": [7, 2]}}})
    assert got.status_code == 200, got.text
    rolled = next(e for e in got.json()["events"] if e["type"] == "initiative-rolled")
    assert rolled["roll"]["total"] == rolled["roll"]["natural"] + 4
    view = table.view(fight)
    vex = creature(view, "vex-the-bold")
    assert vex["pc"] and vex["hp"]["max_hp"] == 31 and vex["name"] == "Vex the Bold"
    # its turn comes: its Strike's odds show +7 against the champion's DV, and 1d8+3 damage
    for _ in range(12):
        if table.view(fight)["active"] == "vex-the-bold":
            break
        assert table.post(f"/api/fights/{fight}/end-turn", {"version": table.view(fight)["version"]}).status_code == 200
    intents = table.get(f"/api/fights/{fight}/intents").json()["intents"]
    strike = next(i for i in intents if i["type"] == "strike" and i["intent"]["target"] == "champion")
    assert strike["odds"]["bonus"] == 7 and strike["odds"]["dv"] == 18  # +7 needs 11+ on the d20 against DV 18
    assert strike["odds"]["p_hit"]["exact"] == "1/2"
    joined = next(e for e in got.json()["events"] if e["type"] == "combatant-joined")
    block = Creature.model_validate(joined["creature"])
    assert defense_value(block, None, None, preset()).total == 17
    weapon = joined["weapons"][0]
    assert weapon["damage"] == "1d8" and weapon["damage_bonus"] == 3


@pytest.mark.rule("GM")
@pytest.mark.rule("INIT-2")
def test_combatant__removing_the_active_creature_passes_the_turn_to_the_next_and_undo_brings_it_back(
        table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    for add in ({"creature": "bandit", "side": "raiders"}, {"creature": "warrior", "side": "party"}):
        assert combatant(table, fight, {"change": {"add": {**add, "initiative": -50}}}).status_code == 200
    before = table.view(fight)
    active = before["active"]
    following = before["order"][before["order"].index(active) + 1]
    got = combatant(table, fight, {"targets": [active], "change": {"remove": True}, "reason": "falls into the pit"})
    assert got.status_code == 200, got.text
    kinds = [e["type"] for e in got.json()["events"]]
    assert kinds[:3] == ["gm-ruled", "turn-ended", "boundary-passed"] and "combatant-left" in kinds
    assert kinds[-1] == "turn-started"
    after = table.view(fight)
    assert active not in after["order"] and all(c["id"] != active for c in after["creatures"])
    assert after["active"] == following
    assert table.post(f"/api/fights/{fight}/undo", {"steps": 1, "version": after["version"]}).status_code == 200
    restored = table.view(fight)
    assert restored["order"] == before["order"] and restored["active"] == active


@pytest.mark.rule("GM")
def test_combatant__removing_the_last_enemy_ends_the_fight(table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    got = combatant(table, fight, {"targets": ["champion"], "change": {"remove": True}, "reason": "surrenders"})
    assert got.status_code == 200, got.text
    view = table.view(fight)
    assert view["ended"] and view["winner"] == "party"


@pytest.mark.rule("INIT-1")
def test_combatant__an_added_creature_with_entered_dice_asks_for_its_initiative_die(db: Path) -> None:
    with make_client(db) as client:
        table = Table.open(client)
        fight = table.new_fight("duel", seed=1)["id"]
        got = combatant(table, fight, {"change": {"add": {"creature": "bandit", "side": "raiders",
                                                           "dice": "entered"}}})
        assert got.status_code == 200 and got.json()["status"] == "dice", got.text
        request = got.json()["pending"]["dice"]
        assert request["owner"] == "bandit" and request["kind"] == "initiative" and request["sides"] == 20
        version = table.view(fight)["version"]
        done = table.post(f"/api/fights/{fight}/dice", {"faces": [17], "version": version})
        assert done.status_code == 200, done.text
        view = table.view(fight)
        assert creature(view, "bandit")["initiative"] == 17 + 3
        assert view["settings"]["dice"] == {"bandit": "entered"}
    with make_client(db) as client:
        assert creature(Table(client, table.gm, table.table_id).view(fight), "bandit")["initiative"] == 20


def test_library__creatures_are_listed_for_any_valid_token_and_not_without_one(client: TestClient,
                                                                               table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    player = table.post(f"/api/fights/{fight}/players", {"creatures": ["warrior"]}).json()["token"]
    assert client.get("/api/library/creatures").status_code == 401
    for token in (table.gm, player):
        got = client.get("/api/library/creatures", headers=bearer(token))
        assert got.status_code == 200
        bandit = next(c for c in got.json()["creatures"] if c["id"] == "bandit")
        assert bandit["hp"] == 9 and bandit["name"] == "Bandit" and bandit["level"] == 1
        assert bandit["dv"] == 10 + 1 + default_library().armor("scrap-leathers").bonus


def test_combatant__a_player_token_cannot_add_or_remove(client: TestClient, table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    player = table.post(f"/api/fights/{fight}/players", {"creatures": ["warrior"]}).json()["token"]
    before = table.view(fight)
    got = table.post(f"/api/fights/{fight}/overrides/combatant",
                     {"targets": ["champion"], "change": {"remove": True}, "reason": "x", "version": before["version"]},
                     player)
    assert got.status_code == 403 and table.view(fight) == before


@pytest.mark.rule("INIT-3")
def test_combatant__a_full_tie_on_initiative_and_agi_is_settled_by_the_engines_coin(table: Table) -> None:
    sides = set()
    for seed in range(1, 9):
        fight = table.new_fight("duel", seed=seed)["id"]
        warrior = creature(table.view(fight), "warrior")
        got = combatant(table, fight, {"change": {"add": {"creature": "warrior", "side": "raiders",
                                                           "initiative": warrior["initiative"]}}})
        assert got.status_code == 200, got.text
        order = table.view(fight)["order"]
        gap = order.index("warrior-2") - order.index("warrior")
        assert gap in (-1, 1)  # right before or right after the one it ties with (same total, same AGI)
        sides.add(gap)
    assert sides == {-1, 1}  # the coin falls both ways over these seeds


@pytest.mark.rule("VEH-2")
def test_combatant__a_vehicle_is_not_added_mid_fight(table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    before = table.view(fight)
    got = combatant(table, fight, {"change": {"add": {"creature": "dune-buggy", "side": "raiders"}}})
    assert got.status_code == 409 and "vehicle" in got.json()["reason"], got.text
    assert table.view(fight) == before
