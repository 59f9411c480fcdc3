"""The games store on SQLite, in one file: the embedded default (`make run` needs nothing
else). Its methods are `GameStore`'s (engine/host/store.py); this module runs them, and holds
SQLite's own schema and how a file is opened.

Every unit of work is one job on the database thread (engine/host/database.py): a write is a
single transaction from BEGIN IMMEDIATE to COMMIT that no other coroutine's SQL can interleave
with and that a cancellation cannot split (see `Database.write`); the thread runs jobs in the
order they were handed over, one at a time (so the store needs no row locks, and a read sees
every write handed over before it). A unit of work's coroutine runs to its end inside its job:
the connection's coroutines never suspend (`_run`).

Durability: WAL journal; `synchronous=FULL` by default so an acknowledged command survives
even a power cut (NORMAL survives a killed process, and is faster). One process per database
file writes members (the bot); other processes may read it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from engine.host.database import Database, StoreUnusable
from engine.host.store import Args, GameStore, Work
from engine.interface.kind import FIRST_KIND

T = TypeVar("T")


MIGRATIONS: list[str] = [
    # 1: games, log, snapshots, outbox
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        status TEXT NOT NULL,
        guild_id TEXT,
        channel_id TEXT,
        created_by TEXT,
        created_at REAL NOT NULL,
        settings TEXT NOT NULL,
        clock TEXT NOT NULL
    );
    CREATE TABLE log (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        tick INTEGER NOT NULL,
        entry TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        tick INTEGER NOT NULL,
        world BLOB NOT NULL,
        hash TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        tick INTEGER NOT NULL,
        nation TEXT NOT NULL,
        event TEXT NOT NULL,
        created_at REAL NOT NULL,
        delivered_at REAL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
    );
    CREATE INDEX outbox_pending ON outbox (delivered_at, id);
    CREATE TABLE members (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        nation TEXT NOT NULL,
        user_id TEXT NOT NULL,
        PRIMARY KEY (game_id, nation)
    );
    CREATE INDEX members_user ON members (user_id);
    """,
    # 2: outbox rows held back (quiet hours, closed DMs) until a time. (It also made the bot's
    # tables of players' settings, DM status and sitreps; those are the bot's own now:
    # bot/store.py, which makes them where they are missing.)
    """
    ALTER TABLE outbox ADD COLUMN hold_until REAL;
    """,
    # 3: (made the bot's confirmations table, now the bot's own: bot/store.py)
    "",
    # 4: the notifier's query of the rows to send, without reading the rows held back (quiet
    # hours, closed DMs: there can be tens of thousands), every pass: rows never held (or
    # released) in id order, and held rows by the time they are held until
    """
    CREATE INDEX outbox_ready ON outbox (id) WHERE delivered_at IS NULL AND hold_until IS NULL;
    CREATE INDEX outbox_held ON outbox (hold_until)
        WHERE delivered_at IS NULL AND hold_until IS NOT NULL;
    """,
    # 5: each game's kind (engine/interface/kind.py); every game before it is of the first kind
    f"""
    ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT '{FIRST_KIND}';
    """,
    # 6: who runs each game (several processes on one store): the owner, its fencing token
    # (raised at every new holder, so an old holder's writes are refused) and until when
    """
    CREATE TABLE leases (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        owner TEXT NOT NULL,
        token INTEGER NOT NULL,
        expires REAL NOT NULL
    );
    """,
    # 7: outbox rows claimed by one notifier at a time (several processes on one store): who,
    # until when, and the claim the row was first sent under (its DM's idempotency key)
    """
    ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
    ALTER TABLE outbox ADD COLUMN claimed_until REAL;
    ALTER TABLE outbox ADD COLUMN claim_group INTEGER;
    """,
    # 8: the process that serves a game's server asks the process that took the game over
    # meanwhile (its own was down) for it back
    """
    ALTER TABLE leases ADD COLUMN wanted_by TEXT;
    CREATE INDEX leases_expires ON leases (expires);
    """,
    # 9: orders relayed to the process that runs a game by one that received them (a DM:
    # Discord sends every DM to shard 0), and their answers
    """
    CREATE TABLE relay (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        request TEXT NOT NULL,
        created_at REAL NOT NULL,
        taken_by TEXT,
        taken_at REAL,
        answer TEXT,
        answered_at REAL
    );
    CREATE INDEX relay_open ON relay (game_id, id) WHERE taken_by IS NULL AND answered_at IS NULL;
    CREATE INDEX relay_created ON relay (created_at);
    """,
    # 10: a count of the changes to the games table, whoever made them (any process), raised
    # in the same transaction: the list of games, which the background loops and every command
    # read, is read again only when it changed
    """
    CREATE TABLE games_version (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL
    );
    INSERT INTO games_version (id, version) VALUES (1, 0);
    CREATE TRIGGER games_inserted AFTER INSERT ON games BEGIN
        UPDATE games_version SET version = version + 1;
    END;
    CREATE TRIGGER games_updated AFTER UPDATE ON games BEGIN
        UPDATE games_version SET version = version + 1;
    END;
    CREATE TRIGGER games_deleted AFTER DELETE ON games BEGIN
        UPDATE games_version SET version = version + 1;
    END;
    """,
    # 11: the processes that write to the store now, each with a heartbeat (engine/host/
    # writers.py): a second process under a name already held refuses to start, and
    # `si db copy` refuses a store that a process is writing
    """
    CREATE TABLE processes (
        name TEXT PRIMARY KEY,
        role TEXT NOT NULL,
        alone INTEGER NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        since REAL NOT NULL,
        beat REAL NOT NULL,
        token TEXT NOT NULL
    );
    """,
    # 12: what each AI seat carries from one decision to the next (`Ai.save`), so a restart
    # or another process taking the game over goes on where its seats were (no seat decides
    # again before its time)
    """
    CREATE TABLE ai_memories (
        game_id INTEGER NOT NULL,
        nation TEXT NOT NULL,
        memory TEXT NOT NULL,
        PRIMARY KEY (game_id, nation)
    );
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


class SqliteStore(GameStore):
    """The games store in one SQLite file (`db`: its connection on its own thread)."""

    def __init__(self, db: Database, path: str) -> None:
        super().__init__(SqliteBackend(db, path))
        self.db = db
        self.path = path

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SqliteStore:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        path = str(path)
        try:
            if path != ":memory:":
                _check_file(path)
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            # the file's schema is checked before anything could change it: a file this
            # program refuses is left as it was (not switched to WAL, not migrated)
            db = await Database.open(
                path,
                [
                    "PRAGMA busy_timeout=5000",
                    _refuse_newer_schema,
                    "PRAGMA journal_mode=WAL",
                    f"PRAGMA synchronous={synchronous}",
                    "PRAGMA foreign_keys=ON",
                ],
            )
        except (sqlite3.Error, OSError) as exc:
            raise StoreUnusable(_unusable(path, exc)) from exc
        store = cls(db, path)
        try:
            await store.migrate()
            # a file (or folder) this process may only read is found now
            await store._check_writable()
        except (sqlite3.Error, OSError) as exc:
            await db.close()
            raise StoreUnusable(_unusable(path, exc)) from exc
        except BaseException:
            await db.close()
            raise
        return store


class SqliteBackend:
    """Runs the store's units of work as jobs of the database thread."""

    migrations = MIGRATIONS
    ordered = True  # one job at a time, in order

    def __init__(self, db: Database, path: str) -> None:
        self.db = db
        self.path = path

    def newer(self, version: int) -> str:
        return _newer(self.path, version)

    async def read(self, fn: Work[T], *, consistent: bool = False) -> T:
        if not consistent:
            return await self.db.read(lambda conn: _run(fn, conn))

        def job(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN")  # one read transaction: its statements see the same state
            try:
                return _run(fn, conn)
            finally:
                conn.execute("COMMIT")

        return await self.db.read(job)

    async def write(
        self,
        fn: Work[T],
        *,
        on_commit: Callable[[T], None] | None = None,
        settle: Callable[[], None] | None = None,
    ) -> T:
        try:
            return await self.db.write(lambda conn: _run(fn, conn), on_commit=on_commit)
        finally:  # (`Database.write` returns once the outcome is known, even when cancelled)
            if settle is not None:
                settle()

    async def query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return await self.db.read(lambda c: c.execute(sql, args).fetchall())

    async def close(self) -> None:
        await self.db.close()


def _run(fn: Work[T], conn: sqlite3.Connection) -> T:
    """A unit of work, from start to end, on the database thread (its connection's coroutines
    never suspend)."""
    work = fn(SqliteConnection(conn))
    try:
        work.send(None)
    except StopIteration as done:
        return done.value
    work.close()
    raise RuntimeError("a unit of work on SQLite awaited something other than its connection")


class SqliteConnection:
    """SQLite's side of `Connection`: statements run at once (the coroutines never suspend),
    rows fetched before they return (no cursor leaves them: see `database._no_cursor`)."""

    # a write transaction (BEGIN IMMEDIATE) holds the database's one write lock: no row locks
    for_update = ""
    for_share = ""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def skip_locked(self, table: str) -> str:
        return ""

    def indexed_by(self, index: str) -> str:
        return f" INDEXED BY {index}"

    def among(self, column: str, kind: str = "bigint") -> str:
        return f"{column} IN (SELECT value FROM json_each(?))"

    def values(self, items: Iterable[Any]) -> Any:
        return json.dumps(list(items))

    def json_text(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    async def rows(self, sql: str, args: Args = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, tuple(args)).fetchall()

    async def row(self, sql: str, args: Args = ()) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = self.conn.execute(sql, tuple(args)).fetchone()
        return row

    async def value(self, sql: str, args: Args = ()) -> Any:
        row = self.conn.execute(sql, tuple(args)).fetchone()
        return None if row is None else row[0]

    async def run(self, sql: str, args: Args = ()) -> int:
        return self.conn.execute(sql, tuple(args)).rowcount

    async def run_many(self, sql: str, rows: Sequence[Args]) -> None:
        self.conn.executemany(sql, [tuple(r) for r in rows])

    async def insert(self, sql: str, args: Args) -> int:
        new = self.conn.execute(sql, tuple(args)).lastrowid
        assert new is not None
        return new

    async def exclusive(self, key: int) -> None:
        return  # every write transaction is (BEGIN IMMEDIATE)

    async def ids_copied(self, tables: Sequence[str]) -> None:
        return  # AUTOINCREMENT keeps the largest id ever inserted

    async def schema_version(self) -> int:
        return _user_version(self.conn)

    async def begin_migration(self) -> None:
        return  # BEGIN IMMEDIATE waited for any other process's migration

    async def run_script(self, script: str) -> None:
        for statement in _statements(script):
            self.conn.execute(statement)

    async def set_schema_version(self, version: int) -> None:
        self.conn.execute(f"PRAGMA user_version={version}")


def _check_file(path: str) -> None:
    """Before SQLite opens the file (which may make its -wal and -shm files beside it): refuse
    one that is not a database, whose header says a newer program made it, or that this
    user may not write (nor its folder)."""
    file = Path(path)
    if not file.is_file():
        folder = file.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
            raise StoreUnusable(_read_only_folder(path, str(folder)))
        return
    with file.open("rb") as f:
        header = f.read(100)
    if header and not header.startswith(b"SQLite format 3\0"):
        raise StoreUnusable(
            f"the database {path} is damaged or not a SQLite database (its first bytes are not"
            " SQLite's): restore it from a backup (docs/DEPLOY.md, 'Backups'), or set"
            " SI_DATABASE to another file"
        )
    if len(header) == 100 and int.from_bytes(header[60:64], "big") > SCHEMA_VERSION:
        raise StoreUnusable(_newer(path, int.from_bytes(header[60:64], "big")))
    if not os.access(file, os.W_OK):
        raise StoreUnusable(_read_only_file(path))
    if not os.access(file.parent, os.W_OK | os.X_OK):
        raise StoreUnusable(_read_only_folder(path, str(file.parent)))


def _read_only_file(path: str) -> str:
    return (
        f"the database {path} is read-only for this user: give the bot's user write access"
        " to it (and to its folder), or set SI_DATABASE to another file"
    )


def _read_only_folder(path: str, folder: str) -> str:
    return (
        f"the folder {folder} of the database {path} is read-only for this user (SQLite"
        " keeps its -wal and -shm files beside the database): give the bot's user write"
        " access to the folder, or set SI_DATABASE to a file in a writable folder"
    )


def _refuse_newer_schema(c: sqlite3.Connection) -> None:
    """On a new connection, before WAL or any migration: refuse a file of a newer program."""
    version = _user_version(c)
    if version > SCHEMA_VERSION:
        raise StoreUnusable(_newer(_file_of(c), version))


def _file_of(c: sqlite3.Connection) -> str:
    row = c.execute("PRAGMA database_list").fetchone()
    return str(row[2]) if row is not None and row[2] else ":memory:"


def _newer(path: str, version: int) -> str:
    return (
        f"the database {path} has schema version {version}, newer than this program's"
        f" ({SCHEMA_VERSION}): a newer version of the bot has used it. Run that version"
        " (update this checkout), or restore a backup made for this one; the file was left"
        " as it was"
    )


def _unusable(path: str, exc: BaseException) -> str:
    """One line: what is wrong with the SQLite file at `path`, and what to do."""
    if isinstance(exc, StoreUnusable):
        return str(exc)
    name = getattr(exc, "sqlite_errorname", "") or ""
    folder = str(Path(path).parent)
    too_long = len(path.encode()) >= 4096 or any(len(p.encode()) > 255 for p in Path(path).parts)
    if too_long or getattr(exc, "errno", None) == 36:  # (36: ENAMETOOLONG)
        return (
            f"the path of the database is too long for this system ({len(path)} characters):"
            " set SI_DATABASE to a shorter one"
        )
    if name == "SQLITE_READONLY_DIRECTORY" or (
        isinstance(exc, PermissionError) and not Path(path).exists()
    ):
        return _read_only_folder(path, folder)
    if name.startswith("SQLITE_READONLY") or isinstance(exc, PermissionError):
        return _read_only_file(path)
    if name in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
        return (
            f"the database {path} is damaged or not a SQLite database ({exc}): restore it from"
            " a backup (docs/DEPLOY.md, 'Backups'), or set SI_DATABASE to another file"
        )
    if name == "SQLITE_BUSY":
        return (
            f"the database {path} is locked by another program ({exc}): stop it, or wait and"
            " start again"
        )
    if name == "SQLITE_FULL" or getattr(exc, "errno", None) == 28:
        return f"the disk of the database {path} is full: free some space and start again"
    return (
        f"cannot open the database {path} ({exc}): check SI_DATABASE (a file in a folder this"
        " user may write to)"
    )


def _user_version(c: sqlite3.Connection) -> int:
    row = c.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def _statements(script: str) -> list[str]:
    """The statements of a script, a trigger's body (with its own semicolons) in one piece."""
    statements: list[str] = []
    pending = ""
    for part in script.split(";"):
        pending += part + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                statements.append(pending.strip())
            pending = ""
    if pending.strip(" \n;"):
        statements.append(pending.strip())
    return statements
