"""The table's event store: WAL and full sync, migrations from every earlier version, and concurrent writes
on one fight serialised (one wins, the others get 409; no update is lost)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ashfall.web.store import MIGRATIONS, SCHEMA_VERSION, Store, connect, migrate, schema_version
from tests.web.table_client import Table, make_client


def shape(db: sqlite3.Connection) -> dict[str, object]:
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
    indexes = sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL"))
    return {"tables": {t: [tuple(c)[1:] for c in db.execute(f"PRAGMA table_info({t})")] for t in tables},
            "indexes": indexes}


def test_store__wal_and_full_sync(tmp_path: Path) -> None:
    db = connect(tmp_path / "deep" / "er" / "t.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("start", range(SCHEMA_VERSION))
def test_store__migrates_from_each_earlier_version_keeping_data(tmp_path: Path, start: int) -> None:
    fresh = connect(tmp_path / "fresh.db")
    migrate(fresh)
    old = connect(tmp_path / "old.db")
    assert migrate(old, start) == start and schema_version(old) == start
    if start >= 1:
        old.execute("INSERT INTO tables (name, created) VALUES ('kept', 0)")
        old.execute("INSERT INTO fights (table_id, name, source, encounter, ruleset, seed, settings, version, created)"
                    " VALUES (1, 'f', 'upload', 'text', 'ashfall-2', 7, '{}', 3, 0)")
        old.execute("INSERT INTO records (fight_id, seq, branch, record, events) VALUES (1, 0, 0, '{}', '')")
    old.close()
    store = Store(tmp_path / "old.db")
    store.close()
    again = connect(tmp_path / "old.db")
    assert schema_version(again) == SCHEMA_VERSION == len(MIGRATIONS)
    assert shape(again) == shape(fresh)
    if start >= 1:
        assert again.execute("SELECT name FROM tables").fetchall() == [("kept",)]
        assert again.execute("SELECT version, archived, pending FROM fights").fetchall() == [(3, 0, None)]
        assert again.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 1


def test_store__a_newer_database_is_refused(tmp_path: Path) -> None:
    db = connect(tmp_path / "t.db")
    migrate(db)
    db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(RuntimeError, match="newer"):
        migrate(db)


def test_store__concurrent_writes_on_one_fight_one_wins_the_rest_409(client: TestClient, table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    version = table.view(fight)["version"]
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def end_turn() -> None:
        barrier.wait()
        statuses.append(table.post(f"/api/fights/{fight}/end-turn", {"version": version}).status_code)

    threads = [threading.Thread(target=end_turn) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 7
    assert table.view(fight)["version"] == version + 1
    assert len(table.get(f"/api/fights/{fight}/log").json()["records"]) == 2


def test_store__two_apps_on_one_file_never_lose_an_update(db: Path, table: Table) -> None:
    fight = table.new_fight("duel", seed=1)["id"]
    with make_client(db) as other_client:
        other = Table(other_client, table.gm, table.table_id)
        version = table.view(fight)["version"]
        assert other.view(fight)["version"] == version
        assert table.post(f"/api/fights/{fight}/end-turn", {"version": version}).status_code == 200
        assert other.post(f"/api/fights/{fight}/end-turn", {"version": version}).status_code == 409
        assert other.view(fight) == table.view(fight)  # the other app rebuilt the fight from the store


def test_store__writes_on_many_fights_at_once_all_commit_and_a_stale_one_alone_fails(table: Table) -> None:
    fights = [table.new_fight("duel", seed=s)["id"] for s in range(1, 9)]
    versions = {f: table.view(f)["version"] for f in fights}
    stale = fights[3]
    statuses: dict[int, int] = {}
    barrier = threading.Barrier(len(fights))

    def end_turn(fight: int) -> None:
        barrier.wait()  # every write arrives together: they share group commits, each in its own savepoint
        seen = versions[fight] - (1 if fight == stale else 0)
        statuses[fight] = table.post(f"/api/fights/{fight}/end-turn", {"version": seen}).status_code

    threads = [threading.Thread(target=end_turn, args=(f,)) for f in fights]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == {f: 409 if f == stale else 200 for f in fights}
    for f in fights:
        assert table.view(f)["version"] == versions[f] + (0 if f == stale else 1)
        assert len(table.get(f"/api/fights/{f}/log").json()["records"]) == (1 if f == stale else 2)
