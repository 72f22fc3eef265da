"""The GM's table event store: one SQLite file in WAL mode holding tables, fights, their records and tokens.

The store owns the schema and every SQL statement; it knows nothing of the engine. A fight is its
encounter text, ruleset, seed and settings plus one row per resolved command (``records``): the command
and its answers as JSON (the engine's ``IntentRecord`` as data) and the events it produced (canonical
JSON lines). Every write runs in one transaction and returns only after the commit (``synchronous=FULL``),
so an acknowledged action survives ``kill -9``. Fight writes that queue while a commit is on its way to the
disk are committed together by the next one (group commit: one fsync for many fights' actions), each in
its own savepoint, so one write's conflict never undoes another's.

Rows of the live line are ``branch`` 0, numbered by ``seq`` (the record's step); undone rows keep their
place with ``undone = 1`` until a new action drops them, when they move to a fresh branch number — kept
as data, never deleted.

The schema has numbered migrations (:data:`MIGRATIONS`): ``schema_version`` holds the number applied,
and opening a database applies the missing ones in order, each in its own transaction.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _m1_initial(db: sqlite3.Connection) -> None:
    """Version 1: tables, fights, records and tokens."""
    db.execute("""CREATE TABLE tables (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, created REAL NOT NULL)""")
    db.execute("""CREATE TABLE fights (
        id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL REFERENCES tables(id), name TEXT NOT NULL,
        source TEXT NOT NULL, encounter TEXT NOT NULL, ruleset TEXT NOT NULL, seed INTEGER NOT NULL,
        settings TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL)""")
    db.execute("""CREATE TABLE records (
        fight_id INTEGER NOT NULL REFERENCES fights(id), seq INTEGER NOT NULL, branch INTEGER NOT NULL,
        record TEXT NOT NULL, events TEXT NOT NULL, undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (fight_id, branch, seq))""")
    db.execute("""CREATE TABLE tokens (
        id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, role TEXT NOT NULL CHECK (role IN ('gm', 'player')),
        table_id INTEGER NOT NULL REFERENCES tables(id), fight_id INTEGER REFERENCES fights(id),
        creatures TEXT NOT NULL DEFAULT '[]', revoked INTEGER NOT NULL DEFAULT 0)""")


def _m2_archive_and_pending(db: sqlite3.Connection) -> None:
    """Version 2: fights can be archived, and keep the decision they wait for across a restart."""
    db.execute("ALTER TABLE fights ADD COLUMN archived INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE fights ADD COLUMN pending TEXT")


def _m3_record_time(db: sqlite3.Connection) -> None:
    """Version 3: when each record was written, and an index for the live line of a fight."""
    db.execute("ALTER TABLE records ADD COLUMN written REAL NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX records_live ON records (fight_id, branch, undone, seq)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _m1_initial,
    _m2_archive_and_pending,
    _m3_record_time,
)
"""The schema migrations in order; migration ``n`` (1-based) takes a database from version n-1 to n."""

SCHEMA_VERSION = len(MIGRATIONS)


class Conflict(Exception):
    """The fight changed since the version the request saw (or another write holds it)."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the fight is at version {actual}, the request saw {expected}")
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True, slots=True)
class FightRow:
    """One fight as stored."""

    id: int
    table_id: int
    name: str
    source: str
    encounter: str
    ruleset: str
    seed: int
    settings: dict[str, Any]
    version: int
    archived: bool
    pending: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class RecordRow:
    """One resolved command of a fight: its place, branch, the record and events as JSON, undone or not."""

    seq: int
    branch: int
    record: dict[str, Any]
    events: str
    undone: bool


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A token as stored (its hash only)."""

    id: int
    role: str
    table_id: int
    fight_id: int | None
    creatures: tuple[str, ...]
    revoked: bool


def schema_version(db: sqlite3.Connection) -> int:
    """The migration number a database is at (0 for a new file)."""
    found = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    if found is None:
        return 0
    row = db.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(db: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Apply the missing migrations up to ``target``, each in its own transaction; return the version reached."""
    current = schema_version(db)
    if current > SCHEMA_VERSION:
        raise RuntimeError(f"the database is at schema {current}, newer than this program's {SCHEMA_VERSION}")
    for number in range(current + 1, target + 1):
        with db:  # one transaction per migration: a crash leaves the previous version intact
            if number == 1:
                db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                db.execute("INSERT INTO schema_version VALUES (0)")
            MIGRATIONS[number - 1](db)
            db.execute("UPDATE schema_version SET version = ?", (number,))
    return max(current, target)


def connect(path: Path | str) -> sqlite3.Connection:
    """Open (creating with its folders) a table database: WAL journal, full sync, foreign keys, migrated."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)  # closed by Store.close
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")  # a commit reaches the disk before the write is acknowledged
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=30000")
    return db


class Store:
    """The table database: every read and write the service makes, each write one committed transaction."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._local = threading.local()  # one connection per thread: WAL readers never wait for a writer's fsync
        self._all: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        self._writer = threading.Lock()  # this process's writers queue here, not in SQLite's sleeping busy handler
        self._queue: list[FightWrite] = []  # fight writes waiting for the next group commit
        self._turn = threading.Condition()  # guards the queue and who leads the next group commit
        self._leading = False
        migrate(self._conn())

    def _conn(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.path)
            with self._guard:
                self._all.append(db)
        return db

    def close(self) -> None:
        """Close every connection."""
        with self._guard:
            for db in self._all:
                db.close()
            self._all.clear()
        self._local = threading.local()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        db = self._conn()
        with self._writer:
            db.execute("BEGIN IMMEDIATE")  # the write lock now (another process's writers wait in busy_timeout)
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._conn().execute(sql, args).fetchall())

    # ----- tables and tokens -----

    def create_table(self, name: str, gm_hash: str) -> int:
        """A new table (campaign) with its GM token; returns its id."""
        with self._tx() as db:
            cur = db.execute("INSERT INTO tables (name, created) VALUES (?, ?)", (name, time.time()))
            table_id = int(cur.lastrowid or 0)
            db.execute("INSERT INTO tokens (hash, role, table_id) VALUES (?, 'gm', ?)", (gm_hash, table_id))
        return table_id

    def table_name(self, table_id: int) -> str | None:
        """A table's name, or None when there is no such table."""
        rows = self._query("SELECT name FROM tables WHERE id = ?", (table_id,))
        return str(rows[0][0]) if rows else None

    def add_token(self, token_hash: str, role: str, table_id: int, fight_id: int | None,
                  creatures: tuple[str, ...]) -> int:
        """Store a token's hash; returns its id."""
        with self._tx() as db:
            cur = db.execute("INSERT INTO tokens (hash, role, table_id, fight_id, creatures) VALUES (?, ?, ?, ?, ?)",
                             (token_hash, role, table_id, fight_id, json.dumps(list(creatures))))
            return int(cur.lastrowid or 0)

    def token(self, token_hash: str) -> TokenRow | None:
        """The token with this hash, or None."""
        rows = self._query("SELECT id, role, table_id, fight_id, creatures, revoked FROM tokens WHERE hash = ?",
                           (token_hash,))
        if not rows:
            return None
        r = rows[0]
        return TokenRow(int(r[0]), str(r[1]), int(r[2]), r[3], tuple(json.loads(r[4])), bool(r[5]))

    def token_by_id(self, token_id: int) -> TokenRow | None:
        """The token with this id, or None."""
        rows = self._query("SELECT hash FROM tokens WHERE id = ?", (token_id,))
        return self.token(str(rows[0][0])) if rows else None

    def fight_tokens(self, fight_id: int) -> list[TokenRow]:
        """The player tokens of a fight."""
        rows = self._query("SELECT hash FROM tokens WHERE fight_id = ? ORDER BY id", (fight_id,))
        return [t for (h,) in rows if (t := self.token(str(h))) is not None]

    def revoke(self, token_id: int) -> None:
        """Revoke a token."""
        with self._tx() as db:
            db.execute("UPDATE tokens SET revoked = 1 WHERE id = ?", (token_id,))

    # ----- fights -----

    def create_fight(self, table_id: int, name: str, source: str, encounter: str, ruleset: str, seed: int,
                     settings: dict[str, Any], first: dict[str, Any] | None, first_events: str,
                     pending: dict[str, Any] | None = None) -> int:
        """A new fight with its first record (the start of combat); returns its id.

        Without a first record the start waits for ``pending`` (initiative dice entered by people).
        """
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO fights (table_id, name, source, encounter, ruleset, seed, settings, version, created,"
                " pending) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (table_id, name, source, encounter, ruleset, seed, json.dumps(settings), time.time(),
                 json.dumps(pending) if pending is not None else None))
            fight_id = int(cur.lastrowid or 0)
            if first is not None:
                db.execute("INSERT INTO records (fight_id, seq, branch, record, events, written)"
                           " VALUES (?, 0, 0, ?, ?, ?)", (fight_id, json.dumps(first), first_events, time.time()))
        return fight_id

    def fight(self, fight_id: int) -> FightRow | None:
        """A fight, or None."""
        rows = self._query("SELECT id, table_id, name, source, encounter, ruleset, seed, settings, version, archived,"
                           " pending FROM fights WHERE id = ?", (fight_id,))
        if not rows:
            return None
        r = rows[0]
        return FightRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), int(r[6]),
                        json.loads(r[7]), int(r[8]), bool(r[9]), json.loads(r[10]) if r[10] else None)

    def fight_table(self, fight_id: int) -> int | None:
        """The table a fight belongs to (None: no such fight), without reading the rest of its row."""
        rows = self._query("SELECT table_id FROM fights WHERE id = ?", (fight_id,))
        return int(rows[0][0]) if rows else None

    def fights(self, table_id: int) -> list[FightRow]:
        """The fights of a table, oldest first."""
        ids = self._query("SELECT id FROM fights WHERE table_id = ? ORDER BY id", (table_id,))
        return [f for (i,) in ids if (f := self.fight(int(i))) is not None]

    def version(self, fight_id: int) -> int:
        """A fight's version (0 when there is no such fight)."""
        rows = self._query("SELECT version FROM fights WHERE id = ?", (fight_id,))
        return int(rows[0][0]) if rows else 0

    def records(self, fight_id: int, branch: int | None = 0) -> list[RecordRow]:
        """A fight's records of one branch (None: every branch), in order."""
        where, args = ("AND branch = ?", (fight_id, branch)) if branch is not None else ("", (fight_id,))
        rows = self._query(f"SELECT seq, branch, record, events, undone FROM records WHERE fight_id = ? {where}"
                           " ORDER BY branch, seq", args)
        return [RecordRow(int(r[0]), int(r[1]), json.loads(r[2]), str(r[3]), bool(r[4])) for r in rows]

    @contextmanager
    def write(self, fight_id: int, expected: int) -> Iterator[FightWrite]:
        """One committed change of a fight at version ``expected``; the version goes up by one.

        The statements given to the yielded :class:`FightWrite` run when the block ends, in a transaction
        committed (group commit: with the writes of other fights that queued meanwhile, one fsync for all)
        before this returns.

        Raises:
            Conflict: The fight is not at ``expected`` (nothing is written).
        """
        change = FightWrite(fight_id, expected)
        yield change
        self._commit(change)

    def _commit(self, change: FightWrite) -> None:
        """Queue a change and wait until a commit holds it: while one group commits, the next one gathers."""
        group: list[FightWrite] = []
        with self._turn:
            self._queue.append(change)
            while not change.done and self._leading:
                self._turn.wait()
            if not change.done:  # lead: commit everything queued by now, this change included
                self._leading = True
                group, self._queue = self._queue, []
        if group:
            try:
                with self._writer:
                    self._commit_group(group)
            finally:
                with self._turn:
                    self._leading = False
                    self._turn.notify_all()
        if change.error is not None:
            raise change.error

    def _commit_group(self, group: list[FightWrite]) -> None:
        db = self._conn()
        try:
            db.execute("BEGIN IMMEDIATE")
            for change in group:
                db.execute("SAVEPOINT change")  # one change's conflict or failure leaves the others in
                try:
                    change.run(db)
                except BaseException as err:
                    db.execute("ROLLBACK TO change")
                    change.error = err
                db.execute("RELEASE change")
            db.execute("COMMIT")
        except BaseException as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            for change in group:
                change.error = change.error or err
        finally:
            for change in group:
                change.done = True


class FightWrite:
    """The statements of one fight write, run by :meth:`Store.write` in a committed transaction."""

    def __init__(self, fight_id: int, expected: int) -> None:
        self.fight_id = fight_id
        self.expected = expected
        self._ops: list[Callable[[sqlite3.Connection], None]] = []
        self.done = False
        self.error: BaseException | None = None

    def run(self, db: sqlite3.Connection) -> None:
        """Check the version, bump it and run the statements (inside the caller's transaction)."""
        rows = db.execute("SELECT version FROM fights WHERE id = ?", (self.fight_id,)).fetchone()
        actual = int(rows[0]) if rows else 0
        if actual != self.expected:
            raise Conflict(self.expected, actual)
        db.execute("UPDATE fights SET version = version + 1 WHERE id = ?", (self.fight_id,))
        for op in self._ops:
            op(db)

    def append(self, seq: int, record: dict[str, Any], events: str) -> None:
        """Add a record to the live line, dropping any undone rows to a branch of their own (kept as data)."""
        text, now, fight = json.dumps(record), time.time(), self.fight_id

        def op(db: sqlite3.Connection) -> None:
            undone = db.execute("SELECT COUNT(*) FROM records WHERE fight_id = ? AND branch = 0 AND undone = 1",
                                (fight,)).fetchone()[0]
            if undone:
                top = db.execute("SELECT COALESCE(MAX(branch), 0) FROM records WHERE fight_id = ?",
                                 (fight,)).fetchone()[0]
                db.execute("UPDATE records SET branch = ? WHERE fight_id = ? AND branch = 0 AND undone = 1",
                           (int(top) + 1, fight))
            db.execute("INSERT INTO records (fight_id, seq, branch, record, events, written)"
                       " VALUES (?, ?, 0, ?, ?, ?)", (fight, seq, text, events, now))
        self._ops.append(op)

    def _sql(self, sql: str, *args: Any) -> None:
        values = (*args, self.fight_id)

        def op(db: sqlite3.Connection) -> None:
            db.execute(sql, values)
        self._ops.append(op)

    def mark_undone(self, from_seq: int, undone: bool) -> None:
        """Mark the live line's records from ``from_seq`` on undone (or, with False, that one record redone)."""
        if undone:
            self._sql("UPDATE records SET undone = 1 WHERE seq >= ? AND branch = 0 AND fight_id = ?", from_seq)
        else:
            self._sql("UPDATE records SET undone = 0 WHERE seq = ? AND branch = 0 AND fight_id = ?", from_seq)

    def set_pending(self, pending: dict[str, Any] | None) -> None:
        """Keep (or clear) the decision the fight waits for."""
        self._sql("UPDATE fights SET pending = ? WHERE id = ?", json.dumps(pending) if pending is not None else None)

    def set_settings(self, settings: dict[str, Any]) -> None:
        """Replace the fight's settings."""
        self._sql("UPDATE fights SET settings = ? WHERE id = ?", json.dumps(settings))

    def set_archived(self, archived: bool) -> None:
        """Archive or restore the fight."""
        self._sql("UPDATE fights SET archived = ? WHERE id = ?", int(archived))


__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Conflict", "FightRow", "FightWrite", "RecordRow", "Store", "TokenRow",
           "connect", "migrate", "schema_version"]
