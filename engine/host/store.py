"""SQLite storage: games, the append-only log, world snapshots and the event outbox, with
versioned migrations applied at start-up.

Every method is one unit of work on the database thread (`engine.database`): each write is a
single transaction from BEGIN to COMMIT that no other coroutine's SQL can interleave with and
that a cancellation cannot split (see `Database.write`). Nothing is written outside a
transaction, so whatever a method returns has been committed.

Durability: WAL journal; `synchronous=FULL` by default so an acknowledged command survives
even a power cut (NORMAL survives a killed process, and is faster).

Kept in memory beside the file (a process hosting many games asks for them all the time): each
game's members, and the games' rows as last parsed. Members are written only by this class's
methods, which forget a game's members before they hand their transaction over; a read hands
its job over after every write that came before it (the thread runs jobs in order) and keeps
its answer only if no member write was handed over meanwhile, so the memory never holds members
older than what was committed. Games' rows are read from the file every time, only their
parsing is saved (a row whose text did not change gives the same `GameRow`; rows are never
changed in place). One process per database file writes members (the bot); other processes
may read it.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from engine.errors import GameError
from engine.host.database import Database, StoreUnusable

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
    # 5: each game's kind (engine/interface/kind.py); every game before it was Strategic Initiative
    """
    ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'strategic-initiative';
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
]

SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class GameRow:
    id: int
    name: str
    ruleset: str
    status: str
    guild_id: str | None
    channel_id: str | None
    created_by: str | None
    created_at: float
    settings: dict[str, Any]
    clock: dict[str, Any]
    kind: str = "strategic-initiative"  # the game kind (engine/interface/kind.py)


class LeaseHeld(GameError):
    """Another process runs the game (its lease has not expired)."""

    def __init__(self, game_id: int, owner: str, expires: float) -> None:
        # (the process's name is for the logs: players are not told the bot's insides)
        super().__init__(
            f"game {game_id} is moving between the bot's servers: try again in a minute"
        )
        self.owner = owner
        self.expires = expires


class LeaseLost(GameError):
    """A write fenced with a token that is no longer the game's: another process has taken
    the game over (this one was paused, cut off or too slow to renew). Nothing was written."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"game {game_id} is moving between the bot's servers: try again in a minute"
        )


@dataclass(frozen=True)
class Lease:
    game_id: int
    owner: str
    token: int
    expires: float


@dataclass(frozen=True)
class ProcessRow:
    """A process that writes to the store (engine/host/writers.py): its name (SI_INSTANCE; ""
    for a bot without one), what it is ("bot", "copy"), whether it must be alone on the store
    (no leases: it writes every game), where it runs, since when, when it was last heard from,
    and its incarnation (a restart under the same name has another)."""

    name: str
    role: str
    alone: bool
    host: str
    pid: int
    since: float
    beat: float
    token: str


# inside a claim's transaction: the fresh process that stops it, if any, of the rows stored
Refusal = Callable[[list[ProcessRow]], ProcessRow | None]


Fence = tuple[str, int]  # (owner, token): a write goes through only while both are the game's


def _check_fence(c: sqlite3.Connection, game_id: int, fence: Fence | None) -> None:
    """Inside a write's transaction: refuse it (rolling everything back) unless the fence is
    the game's lease as stored now."""
    if fence is None:
        return
    row = c.execute("SELECT owner, token FROM leases WHERE game_id = ?", (game_id,)).fetchone()
    if row is None or (row[0], int(row[1])) != fence:
        raise LeaseLost(game_id)


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    seq: int
    tick: int
    nation: str
    event: dict[str, Any]
    attempts: int
    own: bool = False  # its event answers the recipient's own command (see `pending_events`)
    # claimed (`OutboxClaim`): the claim the row was first taken under, kept until it is
    # delivered or held, so a row taken over after its claimer died is sent again in the same
    # group as before (the same DM, the same idempotency key); and until when the claim runs
    group: int | None = None
    claimed_until: float | None = None


@dataclass(frozen=True)
class OutboxClaim:
    """Take the rows `pending_events` returns for `owner` until `now + ttl`: no other claimer
    gets them meanwhile (the claimer marks them delivered, failed or held; or the claim runs
    out and another takes them). `games`: only rows of these games (those the process serves);
    None: any game."""

    owner: str
    ttl: float
    games: frozenset[int] | None = None


def new_claim_group() -> int:
    """A claim's id (random: claimers in several processes never agree on a counter)."""
    return secrets.randbits(62) + 1


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Store:
    def __init__(self, db: Database, path: str) -> None:
        self.db = db
        self.path = path
        self._members: dict[int, dict[str, str]] = {}  # game -> {nation: user}, as committed
        self._member_writes: dict[int, int] = {}  # game -> member writes handed over so far
        self._creates = 0  # games created so far (a new game's members are written too)
        self._rows: dict[int, tuple[tuple[Any, ...], GameRow]] = {}  # game -> (raw row, parsed)
        self._games: tuple[int, list[GameRow]] | None = None  # (games_version, every game)

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> Store:
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
            # a write that changes nothing: a file (or folder) this process may only read is
            # found now, not at the first player's command
            await db.write(
                lambda c: c.execute("UPDATE games_version SET version = version").rowcount
            )
        except (sqlite3.Error, OSError) as exc:
            await db.close()
            raise StoreUnusable(_unusable(path, exc)) from exc
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self.db.close()

    async def query(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one read-only statement (for tools and tests)."""
        params = tuple(args)
        return await self.db.read(lambda c: c.execute(sql, params).fetchall())

    async def schema_version(self) -> int:
        return await self.db.read(_user_version)

    async def migrate(self) -> None:
        """Bring the schema up to date, one transaction per migration (a version is either
        wholly applied or not at all)."""
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreUnusable(_newer(self.path, version))
        for number in range(version, SCHEMA_VERSION):

            def apply(c: sqlite3.Connection, number: int = number) -> None:
                if _user_version(c) != number:  # another process migrated meanwhile
                    if _user_version(c) > SCHEMA_VERSION:  # (a newer program)
                        raise StoreUnusable(_newer(self.path, _user_version(c)))
                    return
                for statement in _statements(MIGRATIONS[number]):
                    c.execute(statement)
                c.execute(f"PRAGMA user_version={number + 1}")

            await self.db.write(apply)

    # --- games ---------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        name: str,
        ruleset: str,
        settings: dict[str, Any],
        clock: dict[str, Any],
        world_json: str,
        kind: str = "strategic-initiative",
        world_hash: str,
        guild_id: str | None = None,
        channel_id: str | None = None,
        created_by: str | None = None,
        status: str = "lobby",
        members: Iterable[tuple[str, str]] = (),
    ) -> int:
        """One transaction: the game, its first world and its players ((nation, user) pairs)."""
        now = time.time()
        world_blob = zlib.compress(world_json.encode(), 1)
        pairs = list(members)

        def create(c: sqlite3.Connection) -> int:
            game_id = c.execute(
                "INSERT INTO games (name, ruleset, status, guild_id, channel_id, created_by,"
                " created_at, settings, clock, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    ruleset,
                    status,
                    guild_id,
                    channel_id,
                    created_by,
                    now,
                    _dumps(settings),
                    _dumps(clock),
                    kind,
                ),
            ).lastrowid  # (no cursor kept: see database._no_cursor)
            assert game_id is not None
            c.execute(
                "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at)"
                " VALUES (?, 0, 0, ?, ?, ?)",
                (game_id, world_blob, world_hash, now),
            )
            _set_members(c, game_id, pairs, [])
            return game_id

        self._creates += 1
        game_id = await self.db.write(create)
        self._members.pop(game_id, None)  # ids are never reused: only to be sure
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        return await self.db.read(lambda c: _select_game(c, game_id))

    async def games(
        self, *, status: Iterable[str] | None = None, guild_id: str | None = None
    ) -> list[GameRow]:
        """Games by status and server, in id order. The whole list is read again only when
        the games table changed since it was last read (`games_version`, raised by any
        process's change): the ticker, the AI runner, the notifier and every command ask."""
        cached = self._games

        def read(c: sqlite3.Connection) -> tuple[int, list[Any] | None]:
            version = int(c.execute("SELECT version FROM games_version").fetchone()[0])
            if cached is not None and cached[0] == version:
                return version, None
            return version, c.execute("SELECT * FROM games ORDER BY id").fetchall()

        version, raw = await self.db.read(read)
        if raw is None:
            assert cached is not None
            rows = cached[1]
        else:
            rows = [self._parsed(r) for r in raw]
            self._games = (version, rows)
        return filter_games(rows, status, guild_id)

    def _parsed(self, raw: tuple[Any, ...]) -> GameRow:
        """The `GameRow` of a raw row, parsed again only when its text changed."""
        known = self._rows.get(raw[0])
        if known is not None and known[0] == raw:
            return known[1]
        row = _game_row(raw)
        self._rows[row.id] = (raw, row)
        return row

    async def update_game(
        self,
        game_id: int,
        *,
        status: str | None = None,
        clock: dict | None = None,
        settings: dict | None = None,
        on_commit: Callable[[GameRow | None], None] | None = None,
        fence: Fence | None = None,
    ) -> GameRow | None:
        """Change a game's status, clock or settings; returns the row as committed (None if
        the game is gone). `on_commit` as in `Database.write`; `fence` as in `append_many`."""

        def update(c: sqlite3.Connection) -> GameRow | None:
            _check_fence(c, game_id, fence)
            _update_game(c, game_id, status=status, clock=clock, settings=settings)
            return _select_game(c, game_id)

        return await self.db.write(update, on_commit=on_commit)

    async def delete_game(
        self,
        game_id: int,
        *,
        on_commit: Callable[[None], None] | None = None,
        fence: Fence | None = None,
    ) -> None:
        def delete(c: sqlite3.Connection) -> None:
            _check_fence(c, game_id, fence)
            # other tables that name the game (the bot's) go with it: ON DELETE CASCADE
            for table in ("outbox", "members", "snapshots", "log", "leases"):
                c.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))

        self._members_change(game_id)
        self._rows.pop(game_id, None)
        await self.db.write(delete, on_commit=on_commit)

    # --- the log ---------------------------------------------------------------------------------

    async def append_many(
        self,
        game_id: int,
        writes: list[LogWrite],
        *,
        snapshot: tuple[str, str] | None = None,
        status: str | None = None,
        clock: dict[str, Any] | None = None,
        members: tuple[list[tuple[str, str]], list[str]] | None = None,
        on_commit: Callable[[GameRow | None], None] | None = None,
        fence: Fence | None = None,
    ) -> GameRow | None:
        """One transaction: the log entries, their events for each recipient, and optionally a
        snapshot of the world after the last one (taken at its seq), a new game status or
        clock, and membership changes ((added (nation, user) pairs), (removed nations)).

        Returns after COMMIT: the game's row as committed when the status or clock changed,
        else None. `on_commit` as in `Database.write`."""
        now = time.time()
        blob = None
        if snapshot is not None:
            blob = (zlib.compress(snapshot[0].encode(), 1), snapshot[1])
        log_rows = [(game_id, w.seq, w.tick, _dumps(w.entry), now) for w in writes]
        outbox_rows = [
            (game_id, w.seq, w.tick, nation, _dumps(payload), now)
            for w in writes
            for nation, payload in w.events
        ]
        last = writes[-1]

        def append(c: sqlite3.Connection) -> GameRow | None:
            _check_fence(c, game_id, fence)  # a stale holder writes nothing
            c.executemany(
                "INSERT INTO log (game_id, seq, tick, entry, created_at) VALUES (?, ?, ?, ?, ?)",
                log_rows,
            )
            if outbox_rows:
                c.executemany(
                    "INSERT INTO outbox (game_id, seq, tick, nation, event, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    outbox_rows,
                )
            if blob is not None:
                c.execute(
                    "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, last.seq, last.tick, blob[0], blob[1], now),
                )
                # keep the first world (seq 0: the whole history is it + the log) and the newest
                c.execute(
                    "DELETE FROM snapshots WHERE game_id = ? AND seq > 0 AND seq < ?",
                    (game_id, last.seq),
                )
            if members is not None:
                _set_members(c, game_id, *members)
            if status is None and clock is None:
                return None
            _update_game(c, game_id, status=status, clock=clock)
            return _select_game(c, game_id)

        if members is not None:
            self._members_change(game_id)
        return await self.db.write(append, on_commit=on_commit)

    async def latest_snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """(seq, world json, hash) of the newest snapshot."""
        return await self._snapshot(game_id, "DESC")

    async def first_snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """(seq, world json, hash) of the world the game was created with (seq 0): with the
        whole log it replays the game's history."""
        return await self._snapshot(game_id, "ASC")

    async def _snapshot(self, game_id: int, order: str) -> tuple[int, str, str] | None:
        assert order in ("ASC", "DESC")
        rows = await self.query(
            f"SELECT seq, world, hash FROM snapshots WHERE game_id = ? ORDER BY seq {order} LIMIT 1",
            (game_id,),
        )
        if not rows:
            return None
        seq, world, digest = rows[0]
        return int(seq), zlib.decompress(world).decode(), digest

    async def load(
        self, game_id: int
    ) -> tuple[GameRow, tuple[int, str, str], list[tuple[int, dict[str, Any]]]] | None:
        """What a game is rebuilt from, read in one go (one consistent state): its row, its
        latest snapshot and the log after it. None if there is no such game or world."""

        def read(c: sqlite3.Connection):
            c.execute("BEGIN")  # one read transaction: the three reads see the same state
            try:
                row = _select_game(c, game_id)
                snap = c.execute(
                    "SELECT seq, world, hash FROM snapshots WHERE game_id = ?"
                    " ORDER BY seq DESC LIMIT 1",
                    (game_id,),
                ).fetchone()
                if row is None or snap is None:
                    return None
                entries = c.execute(
                    "SELECT seq, entry FROM log WHERE game_id = ? AND seq > ? ORDER BY seq",
                    (game_id, snap[0]),
                ).fetchall()
            finally:
                c.execute("COMMIT")
            # decoded here, not on the event loop: a long log is thousands of entries
            snapshot = (int(snap[0]), zlib.decompress(snap[1]).decode(), snap[2])
            return row, snapshot, [(int(s), json.loads(e)) for s, e in entries]

        return await self.db.read(read)

    async def log_after(self, game_id: int, seq: int) -> list[tuple[int, dict[str, Any]]]:
        rows = await self.query(
            "SELECT seq, entry FROM log WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, seq)
        )
        return [(int(r[0]), json.loads(r[1])) for r in rows]

    async def last_seq(self, game_id: int) -> int:
        rows = await self.query(
            "SELECT COALESCE(MAX(seq), 0) FROM log WHERE game_id = ?", (game_id,)
        )
        return int(rows[0][0]) if rows else 0

    # --- members -----------------------------------------------------------------------------------

    async def memberships(self, user_id: str) -> list[tuple[int, str]]:
        rows = await self.query(
            "SELECT game_id, nation FROM members WHERE user_id = ? ORDER BY game_id", (user_id,)
        )
        return [(int(r[0]), r[1]) for r in rows]

    async def add_members(self, game_id: int, pairs: Iterable[tuple[str, str]]) -> None:
        """Record who plays which nation: (nation, user id) pairs."""
        added = list(pairs)
        self._members_change(game_id)
        await self.db.write(lambda c: _set_members(c, game_id, added, []))

    async def members(self, game_id: int) -> dict[str, str]:
        """{nation: user id} of the game's players (from memory once read)."""
        known = self._members.get(game_id)
        if known is not None:
            return dict(known)
        writes = (self._member_writes.get(game_id, 0), self._creates)
        rows = await self.query("SELECT nation, user_id FROM members WHERE game_id = ?", (game_id,))
        found = {r[0]: r[1] for r in rows}
        if (self._member_writes.get(game_id, 0), self._creates) == writes:  # none handed over
            self._members[game_id] = found
        return dict(found)

    def members_version(self, game_id: int) -> int:
        """A number that changes whenever the game's members may have changed (a write that
        touches them was handed to the database): callers can keep what they worked out from
        the members until it changes."""
        return self._member_writes.get(game_id, 0)

    def _members_change(self, game_id: int) -> None:
        """Called before a write that may change the game's members is handed over."""
        self._member_writes[game_id] = self._member_writes.get(game_id, 0) + 1
        self._members.pop(game_id, None)

    # --- leases: which process runs a game ---------------------------------------------------------

    async def acquire_lease(self, game_id: int, owner: str, *, now: float, ttl: float) -> int:
        """Take the game for `owner` until `now + ttl` and return the fencing token: a new one
        (the stored one plus one) at every acquisition, also by the same owner after a restart,
        so any earlier holder's fenced writes are refused from now on. Raises `LeaseHeld` while
        another owner's lease runs."""

        def take(c: sqlite3.Connection) -> int:
            row = c.execute(
                "SELECT owner, token, expires FROM leases WHERE game_id = ?", (game_id,)
            ).fetchone()
            if row is None:
                c.execute(
                    "INSERT INTO leases (game_id, owner, token, expires) VALUES (?, ?, 1, ?)",
                    (game_id, owner, now + ttl),
                )
                return 1
            held_by, token, expires = row[0], int(row[1]), float(row[2])
            if held_by != owner and expires > now:
                raise LeaseHeld(game_id, held_by, expires)
            c.execute(
                "UPDATE leases SET owner = ?, token = ?, expires = ?, wanted_by = NULL"
                " WHERE game_id = ?",
                (owner, token + 1, now + ttl, game_id),
            )
            return token + 1

        return await self.db.write(take)

    async def want_lease(self, game_id: int, owner: str) -> None:
        """Ask the game's holder for it back (see `wanted_leases`): `owner` serves its server."""
        await self.db.write(
            lambda c: (
                c.execute(
                    "UPDATE leases SET wanted_by = ? WHERE game_id = ? AND owner != ?",
                    (owner, game_id, owner),
                ).rowcount
            )
        )

    async def wanted_leases(self, owner: str) -> set[int]:
        """The games `owner` holds that another process has asked for back."""
        rows = await self.query(
            "SELECT game_id FROM leases WHERE owner = ? AND wanted_by IS NOT NULL"
            " AND wanted_by != owner",
            (owner,),
        )
        return {int(r[0]) for r in rows}

    async def expired_leases(self, before: float) -> list[Lease]:
        """Leases that ran out before `before`: games whose process died (or was cut off) and
        that nobody runs now."""
        rows = await self.query(
            "SELECT game_id, owner, token, expires FROM leases WHERE expires < ? ORDER BY game_id",
            (before,),
        )
        return [Lease(int(r[0]), r[1], int(r[2]), float(r[3])) for r in rows]

    async def renew_leases(
        self, owner: str, tokens: dict[int, int], *, now: float, ttl: float
    ) -> set[int]:
        """Extend the owner's leases it still holds with these tokens; returns the games whose
        lease it lost (taken over, or deleted)."""

        def renew(c: sqlite3.Connection) -> set[int]:
            lost = set()
            for game_id, token in tokens.items():
                changed = c.execute(
                    "UPDATE leases SET expires = ? WHERE game_id = ? AND owner = ? AND token = ?",
                    (now + ttl, game_id, owner, token),
                ).rowcount
                if not changed:
                    lost.add(game_id)
            return lost

        if not tokens:
            return set()
        return await self.db.write(renew)

    async def release_lease(
        self, game_id: int, owner: str, token: int, *, now: float | None = None
    ) -> None:
        """Give the game up (a clean shutdown, a hand-back): its lease ends `now`, so another
        process may take it at once. The row stays: the next holder's token is higher still."""
        at = time.time() if now is None else now
        await self.db.write(
            lambda c: (
                c.execute(
                    "UPDATE leases SET expires = MIN(expires, ?), wanted_by = NULL"
                    " WHERE game_id = ? AND owner = ? AND token = ?",
                    (at, game_id, owner, token),
                ).rowcount
            )
        )

    async def live_leases(self, now: float) -> list[Lease]:
        """The leases running at `now`: which process runs which game."""
        rows = await self.query(
            "SELECT game_id, owner, token, expires FROM leases WHERE expires > ?", (now,)
        )
        return [Lease(int(r[0]), r[1], int(r[2]), float(r[3])) for r in rows]

    async def lease(self, game_id: int) -> Lease | None:
        rows = await self.query(
            "SELECT game_id, owner, token, expires FROM leases WHERE game_id = ?", (game_id,)
        )
        return (
            Lease(int(rows[0][0]), rows[0][1], int(rows[0][2]), float(rows[0][3])) if rows else None
        )

    # --- the processes writing to the store (engine/host/writers.py) -------------------------------

    async def claim_process(self, mine: ProcessRow, refusal: Refusal) -> ProcessRow | None:
        """In one transaction: the row of the process that stops `mine` (`refusal` of every
        row stored), written nothing; or none, and `mine` is written in place of any row of
        its name."""

        def claim(c: sqlite3.Connection) -> ProcessRow | None:
            rows = [_process_row(r) for r in c.execute(f"SELECT {_PROCESS_COLUMNS} FROM processes")]
            held = refusal(rows)
            if held is None:
                c.execute("DELETE FROM processes WHERE name = ?", (mine.name,))
                c.execute(
                    f"INSERT INTO processes ({_PROCESS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    _process_values(mine),
                )
            return held

        return await self.db.write(claim)

    async def beat_process(self, name: str, token: str, now: float) -> bool:
        """The process's heartbeat; False if its row is no longer its own (taken over)."""
        changed = await self.db.write(
            lambda c: (
                c.execute(
                    "UPDATE processes SET beat = ? WHERE name = ? AND token = ?", (now, name, token)
                ).rowcount
            )
        )
        return bool(changed)

    async def release_process(self, name: str, token: str) -> None:
        await self.db.write(
            lambda c: (
                c.execute(
                    "DELETE FROM processes WHERE name = ? AND token = ?", (name, token)
                ).rowcount
            )
        )

    async def processes(self) -> list[ProcessRow]:
        rows = await self.query(f"SELECT {_PROCESS_COLUMNS} FROM processes ORDER BY name")
        return [_process_row(r) for r in rows]

    # --- orders relayed between processes ----------------------------------------------------------

    async def relay_put(
        self, request_id: int, game_id: int, request: dict[str, Any], *, now: float
    ) -> None:
        """Leave a request for the process that runs the game (`relay_take`), under an id the
        requester chose (so it can withdraw it even if it was cancelled while writing it)."""
        await self.db.write(
            lambda c: (
                c.execute(
                    "INSERT INTO relay (id, game_id, request, created_at) VALUES (?, ?, ?, ?)",
                    (request_id, game_id, _dumps(request), now),
                ).rowcount
            )
        )

    async def relay_take(
        self, owner: str, games: Iterable[int], *, now: float, limit: int = 50
    ) -> list[tuple[int, int, dict[str, Any]]]:
        """The open requests for these games (those `owner` runs: its lease on them runs at
        `now`), oldest first, taken by it in the same transaction: (id, game, request). A request
        taken is never taken again."""
        wanted = json.dumps(sorted(set(games)))

        def take(c: sqlite3.Connection) -> list[tuple[int, int, dict[str, Any]]]:
            rows = c.execute(
                "SELECT id, game_id, request FROM relay WHERE taken_by IS NULL"
                " AND answered_at IS NULL AND game_id IN (SELECT value FROM json_each(?))"
                " AND EXISTS (SELECT 1 FROM leases AS l WHERE l.game_id = relay.game_id"
                " AND l.owner = ? AND l.expires > ?) ORDER BY created_at, id LIMIT ?",
                (wanted, owner, now, limit),
            ).fetchall()
            c.executemany(
                "UPDATE relay SET taken_by = ?, taken_at = ? WHERE id = ?",
                [(owner, now, r[0]) for r in rows],
            )
            return [(int(r[0]), int(r[1]), json.loads(r[2])) for r in rows]

        return await self.db.write(take)

    async def relay_answer(self, request_id: int, answer: dict[str, Any], *, now: float) -> None:
        await self.db.write(
            lambda c: (
                c.execute(
                    "UPDATE relay SET answer = ?, answered_at = ? WHERE id = ?",
                    (_dumps(answer), now, request_id),
                ).rowcount
            )
        )

    async def relay_cancel(self, request_id: int, *, now: float) -> bool:
        """Withdraw a request nobody has taken yet (True); False: it was taken meanwhile."""
        return await self.db.write(
            lambda c: (
                c.execute(
                    "UPDATE relay SET answer = '{\"withdrawn\":true}', answered_at = ?"
                    " WHERE id = ? AND taken_by IS NULL AND answered_at IS NULL",
                    (now, request_id),
                ).rowcount
                == 1
            )
        )

    async def relay_state(self, request_id: int) -> tuple[str | None, dict[str, Any] | None]:
        """(who took the request, its answer), each None while there is none."""
        rows = await self.query("SELECT taken_by, answer FROM relay WHERE id = ?", (request_id,))
        if not rows:
            return None, None
        return rows[0][0], None if rows[0][1] is None else json.loads(rows[0][1])

    async def relay_prune(self, before: float) -> int:
        """Delete the requests made before `before` (answered or not: long given up on)."""
        return await self.db.write(
            lambda c: c.execute("DELETE FROM relay WHERE created_at < ?", (before,)).rowcount
        )

    # --- outbox ------------------------------------------------------------------------------------

    async def pending_events(
        self,
        *,
        limit: int = 500,
        max_attempts: int = 5,
        now: float | None = None,
        claim: OutboxClaim | None = None,
    ) -> list[OutboxRow]:
        """Undelivered rows in id order, without those given up on (`max_attempts`) and those
        held back (`hold`) until after `now`. With `claim`: also without the rows another
        claimer holds, and those returned are the claimer's (in the same transaction)."""
        now = time.time() if now is None else now
        # `own`: the row's event came of an entry the recipient nation itself made (its own
        # command), whose reply told it already
        columns = (
            "SELECT id, game_id, seq, tick, nation, event, attempts, EXISTS (SELECT 1 FROM log"
            " WHERE log.game_id = o.game_id AND log.seq = o.seq"
            " AND json_extract(log.entry, '$.kind') = 'command'"
            " AND json_extract(log.entry, '$.nation') = o.nation), claim_group"
            " FROM outbox AS o INDEXED BY"
        )
        extra, args = "", cast(tuple[Any, ...], ())
        if claim is not None:
            extra = " AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)"
            args = (now, claim.owner)
            if claim.games is not None:
                extra += " AND game_id IN (SELECT value FROM json_each(?))"
                args += (json.dumps(sorted(claim.games)),)

        def read(c: sqlite3.Connection) -> list[tuple[Any, ...]]:
            # two index range reads (outbox_ready, outbox_held) instead of one scan of every
            # undelivered row: the rows still held are never read; the first `limit` of both
            ready = c.execute(
                f"{columns} outbox_ready WHERE delivered_at IS NULL AND hold_until IS NULL"
                f" AND attempts < ?{extra} ORDER BY id LIMIT ?",
                (max_attempts, *args, limit),
            ).fetchall()
            released = c.execute(
                f"{columns} outbox_held WHERE delivered_at IS NULL AND hold_until IS NOT NULL"
                f" AND hold_until <= ? AND attempts < ?{extra} ORDER BY id LIMIT ?",
                (now, max_attempts, *args, limit),
            ).fetchall()
            return sorted(ready + released)[:limit]

        def look(c: sqlite3.Connection) -> list[tuple[Any, ...]]:
            c.execute("BEGIN")  # one read transaction: both see the same state
            try:
                return read(c)
            finally:
                c.execute("COMMIT")

        until = None
        if claim is None:
            rows = await self.db.read(look)
        else:
            until = now + claim.ttl
            group = new_claim_group()

            def take(c: sqlite3.Connection) -> list[tuple[Any, ...]]:
                found = read(c)  # (a write transaction: nobody claims between read and take)
                c.executemany(
                    "UPDATE outbox SET claimed_by = ?, claimed_until = ?,"
                    " claim_group = COALESCE(claim_group, ?) WHERE id = ?",
                    [(claim.owner, until, group, r[0]) for r in found],
                )
                return [(*r[:8], group if r[8] is None else r[8]) for r in found]

            rows = await self.db.write(take)
        return [
            OutboxRow(
                int(r[0]),
                int(r[1]),
                int(r[2]),
                int(r[3]),
                r[4],
                json.loads(r[5]),
                int(r[6]),
                own=bool(r[7]),
                group=None if r[8] is None else int(r[8]),
                claimed_until=until,
            )
            for r in rows
        ]

    async def mark_delivered(self, ids: Iterable[int], *, now: float | None = None) -> None:
        """Mark rows delivered (at `now`, the time `prune_outbox` goes by)."""
        at = time.time() if now is None else now
        await self._update_rows(
            "UPDATE outbox SET delivered_at = ? WHERE id = ?", ids, lambda i: (at, i)
        )

    async def mark_failed(
        self, ids: Iterable[int], error: str, *, retry_at: float | None = None
    ) -> None:
        """Count a failed attempt. With `retry_at`, the rows are not tried again before then
        (Discord's `retry_after`, a back-off); they keep their claim group, so the DM goes
        again under the same idempotency key."""
        await self._update_rows(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?, claimed_by = NULL,"
            " claimed_until = NULL, hold_until = COALESCE(?, hold_until) WHERE id = ?",
            ids,
            lambda i: (error[:500], retry_at, i),
        )

    async def hold(self, ids: Iterable[int], until: float) -> None:
        """Keep these rows out of `pending_events` until `until` (quiet hours, closed DMs)."""
        await self._update_rows(
            "UPDATE outbox SET hold_until = ?, claimed_by = NULL, claimed_until = NULL,"
            " claim_group = NULL WHERE id = ?",
            ids,
            lambda i: (until, i),
        )

    async def _update_rows(
        self, sql: str, ids: Iterable[int], args: Callable[[int], tuple[Any, ...]]
    ) -> None:
        rows = [args(i) for i in ids]
        if rows:
            await self.db.write(lambda c: c.executemany(sql, rows).rowcount)

    async def prune_outbox(
        self, before: float, *, batch: int = 5000, max_attempts: int | None = None
    ) -> int:
        """Delete outbox rows delivered before `before` (a timestamp) and, with
        `max_attempts`, the rows given up on (that many failed attempts: never sent again)
        written before `before`; at most `batch` rows a transaction (call again while it
        returns `batch`). Rows still to send (pending, held) are never deleted. Returns how
        many were deleted."""

        def prune(c: sqlite3.Connection) -> int:
            deleted = c.execute(
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox"
                " WHERE delivered_at IS NOT NULL AND delivered_at < ? LIMIT ?)",
                (before, batch),
            ).rowcount
            if max_attempts is not None and deleted < batch:
                deleted += c.execute(
                    "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox"
                    " WHERE delivered_at IS NULL AND attempts >= ? AND created_at < ? LIMIT ?)",
                    (max_attempts, before, batch - deleted),
                ).rowcount
            return deleted

        return await self.db.write(prune)

    async def release_held(self, user_id: str) -> int:
        """Release every held row for the nations this user plays (e.g. after the player
        changed the quiet hours or opened the DMs); returns how many."""
        return await self.db.write(
            lambda c: (
                c.execute(
                    "UPDATE outbox SET hold_until = NULL WHERE delivered_at IS NULL"
                    " AND hold_until IS NOT NULL AND EXISTS (SELECT 1 FROM members m"
                    " WHERE m.user_id = ? AND m.game_id = outbox.game_id AND m.nation = outbox.nation)",
                    (str(user_id),),
                ).rowcount
            )
        )

    # --- copying a game whole (`si db copy`) -------------------------------------------------------

    async def export_game(self, game_id: int) -> GameDump | None:
        """Every row of the game (but its lease), read in one read transaction (one
        consistent state); None if there is no such game."""

        def read(c: sqlite3.Connection) -> tuple[Any, ...] | None:
            c.execute("BEGIN")
            try:
                game = c.execute(
                    "SELECT id, name, ruleset, status, guild_id, channel_id, created_by,"
                    " created_at, settings, clock, kind FROM games WHERE id = ?",
                    (game_id,),
                ).fetchone()
                if game is None:
                    return None
                return (
                    game,
                    c.execute(
                        "SELECT seq, tick, entry, created_at FROM log WHERE game_id = ?"
                        " ORDER BY seq",
                        (game_id,),
                    ).fetchall(),
                    c.execute(
                        "SELECT seq, tick, world, hash, created_at FROM snapshots"
                        " WHERE game_id = ? ORDER BY seq",
                        (game_id,),
                    ).fetchall(),
                    c.execute(
                        "SELECT id, seq, tick, nation, event, created_at, delivered_at, attempts,"
                        " last_error, hold_until FROM outbox WHERE game_id = ? ORDER BY id",
                        (game_id,),
                    ).fetchall(),
                    c.execute(
                        "SELECT nation, user_id FROM members WHERE game_id = ? ORDER BY nation",
                        (game_id,),
                    ).fetchall(),
                )
            finally:
                c.execute("COMMIT")

        found = await self.db.read(read)
        if found is None:
            return None
        game, log, snaps, outbox, members = found
        return GameDump(
            game=(*game[:8], canonical_json(game[8]), canonical_json(game[9]), game[10]),
            log=[(int(s), int(t), canonical_json(e), float(at)) for s, t, e, at in log],
            snapshots=[
                (int(s), int(t), zlib.decompress(w).decode(), h, float(at))
                for s, t, w, h, at in snaps
            ],
            outbox=[(*r[:4], canonical_json(r[4]), *r[5:]) for r in outbox],
            members=[(n, u) for n, u in members],
        )

    async def import_game(self, dump: GameDump) -> None:
        """Write a game exported from a store (this one's kind or the other) with the same
        game id, seqs and outbox ids, in one transaction: all of it or nothing. Raises
        `GameExists` if this store has a game of that id; outbox ids taken already fail the
        whole transaction. Later games get ids after it (AUTOINCREMENT keeps the largest
        id ever inserted)."""
        game_id = dump.id
        snaps = [
            (game_id, s, t, zlib.compress(w.encode(), 1), h, at)
            for s, t, w, h, at in dump.snapshots
        ]

        def write(c: sqlite3.Connection) -> None:
            if c.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                raise GameExists(game_id)
            c.execute(
                "INSERT INTO games (id, name, ruleset, status, guild_id, channel_id, created_by,"
                " created_at, settings, clock, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                dump.game,
            )
            c.executemany(
                "INSERT INTO log (game_id, seq, tick, entry, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, *r) for r in dump.log],
            )
            c.executemany(
                "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                snaps,
            )
            c.executemany(
                "INSERT INTO outbox (id, game_id, seq, tick, nation, event, created_at,"
                " delivered_at, attempts, last_error, hold_until)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(r[0], game_id, *r[1:]) for r in dump.outbox],
            )
            _set_members(c, game_id, list(dump.members), [])

        self._members_change(game_id)
        self._rows.pop(game_id, None)
        await self.db.write(write)


@dataclass(frozen=True)
class GameDump:
    """Every stored row of one game, as `export_game` reads it and `import_game` writes it
    (`si db copy`: engine/host/copy.py), the same on both backends: JSON as compact text with
    sorted keys (SQLite keeps text, PostgreSQL JSONB, whose own text spaces it otherwise),
    worlds as their JSON text (each store compresses its own blobs), times as seconds.
    Leases are not part of it: they belong to the processes running the source store."""

    # id, name, ruleset, status, guild_id, channel_id, created_by, created_at, settings,
    # clock, kind
    game: tuple[Any, ...]
    log: list[tuple[int, int, str, float]]  # seq, tick, entry, created_at
    snapshots: list[tuple[int, int, str, str, float]]  # seq, tick, world json, hash, created_at
    # id, seq, tick, nation, event, created_at, delivered_at, attempts, last_error, hold_until
    outbox: list[tuple[Any, ...]]
    members: list[tuple[str, str]]  # nation, user_id

    @property
    def id(self) -> int:
        return int(self.game[0])


class GameExists(GameError):
    """`import_game` into a store that has a game of that id already (nothing was written)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"the target store has a game {game_id} already: nothing written")
        self.game_id = game_id


def canonical_json(text: str | bytes) -> str:
    """JSON text as this store writes it (compact, sorted keys), from either backend's."""
    return _dumps(json.loads(text))


@dataclass(frozen=True)
class LogWrite:
    """One log entry to append: its seq and tick, the entry, and its events per recipient."""

    seq: int
    tick: int
    entry: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]]


_PROCESS_COLUMNS = "name, role, alone, host, pid, since, beat, token"


def _process_row(r: Any) -> ProcessRow:
    return ProcessRow(
        str(r[0]), str(r[1]), bool(r[2]), str(r[3]), int(r[4]), float(r[5]), float(r[6]), str(r[7])
    )


def _process_values(p: ProcessRow) -> tuple[Any, ...]:
    return (p.name, p.role, int(p.alone), p.host, p.pid, p.since, p.beat, p.token)


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


def _select_game(c: sqlite3.Connection, game_id: int) -> GameRow | None:
    row = c.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    return _game_row(row) if row else None


def _update_game(
    c: sqlite3.Connection,
    game_id: int,
    *,
    status: str | None = None,
    clock: dict | None = None,
    settings: dict | None = None,
) -> None:
    sets, args = [], []
    if status is not None:
        sets.append("status = ?")
        args.append(status)
    if clock is not None:
        sets.append("clock = ?")
        args.append(_dumps(clock))
    if settings is not None:
        sets.append("settings = ?")
        args.append(_dumps(settings))
    if sets:
        c.execute(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*args, game_id))


def _set_members(
    c: sqlite3.Connection, game_id: int, added: list[tuple[str, str]], removed: list[str]
) -> None:
    for nation in removed:
        c.execute("DELETE FROM members WHERE game_id = ? AND nation = ?", (game_id, nation))
    c.executemany(
        "INSERT OR REPLACE INTO members (game_id, nation, user_id) VALUES (?, ?, ?)",
        [(game_id, nation, user) for nation, user in added],
    )


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


def filter_games(
    rows: list[GameRow], status: Iterable[str] | None, guild_id: str | None
) -> list[GameRow]:
    """The games of these statuses on this server (None: any), in their order (a new list)."""
    wanted = None if status is None else set(status)
    return [
        row
        for row in rows
        if (wanted is None or row.status in wanted)
        and (guild_id is None or row.guild_id == guild_id)
    ]


def _game_row(row: Any) -> GameRow:
    return GameRow(
        id=int(row[0]),
        name=row[1],
        ruleset=row[2],
        status=row[3],
        guild_id=row[4],
        channel_id=row[5],
        created_by=row[6],
        created_at=float(row[7]),
        settings=json.loads(row[8]),
        clock=json.loads(row[9]),
        kind=row[10],
    )
