"""Crash safety of ``ashfall serve``: SIGKILL at random moments loses no acknowledged action, and the
restarted server's fight equals a replay of its stored log.

Every run kills the server 50 times (about a minute).
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from ashfall.encounters import build, encounter_from_text, encounters_root
from ashfall.engine import dumps, loads_log, replay
from ashfall.web.local import free_port
from ashfall.web.local import start_server as start
from tests.web.table_client import Table


def drive(table: Table, fight: dict[str, int], acked: list[dict[str, Any]], stop: threading.Event) -> None:
    """Play on until the server dies, keeping every record the server acknowledged."""
    try:
        while not stop.is_set():
            view = table.view(fight["id"])
            if view["ended"]:
                return
            table.last = {}
            table.step(fight["id"])
            if table.last.get("status") == "done":  # a record was committed and acknowledged
                acked.append({"seq": table.last["seq"], **table.last["record"]})
    except (httpx.HTTPError, AssertionError, KeyError, ValueError):
        return  # the server was killed mid-request: that request was not acknowledged


def check(table: Table, fight: int, acked: list[dict[str, Any]]) -> int:
    records = table.get(f"/api/fights/{fight}/log").json()["records"]
    stored = {r["seq"]: {"seq": r["seq"], "intent": r["intent"], "answers": r["answers"]}
              for r in records if not r["undone"]}
    assert [stored.get(a["seq"]) for a in acked] == acked, "an acknowledged action was lost"
    exported = table.get(f"/api/fights/{fight}/export").json()
    log = loads_log(exported["log"])
    engine, _ = build(encounter_from_text(exported["encounter"], "x.yaml", encounters_root()), log.seed)
    replayed = replay(log, engine.initial_state)  # raises ReplayDivergence on any difference
    assert dumps(replayed.log) == dumps(log.events)
    view = table.view(fight)
    assert {c["id"]: (c["hp"]["hp"], c["position"]) for c in view["creatures"]} == {
        cid: (c.health.hp, list(c.position) if c.position else None) for cid, c in replayed.state.combatants.items()}
    assert view["active"] == replayed.state.active_id
    return len(stored)


def kill_and_check(tmp_path: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    db, port = tmp_path / "tables.db", free_port()
    proc = start(db, port)
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        table = Table.open(client)
        fight = {"id": table.new_fight("skirmish", seed=seed)["id"]}
    acked: list[dict[str, Any]] = []
    played, checked, fights = 0, 0, 1
    try:
        for _ in range(kills):
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
                table = Table(client, table.gm, table.table_id)
                if table.view(fight["id"])["ended"]:
                    fight["id"] = table.new_fight("skirmish", seed=rng.randrange(1000))["id"]
                    acked, fights = [], fights + 1
                stop = threading.Event()
                worker = threading.Thread(target=drive, args=(table, fight, acked, stop))
                worker.start()
                time.sleep(rng.uniform(0.0, 0.4))
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                stop.set()
                worker.join()
            snapshot = list(acked)
            proc = start(db, port)
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
                played = check(Table(client, table.gm, table.table_id), fight["id"], snapshot)
                checked += len(snapshot)
    finally:
        proc.kill()
        proc.wait()
    assert played > 1
    print(f"{kills} SIGKILLs over {fights} fight(s): {checked} acknowledged records checked after restarts, "
          "each fight equal to its replay")


def test_crash__fifty_sigkills_lose_no_acknowledged_action(tmp_path: Path) -> None:
    kill_and_check(tmp_path, 50, seed=2)  # about a minute: every run of the suite (and CI) kills it 50 times
