"""SQLite storage through aiosqlite: games, the append-only log, world snapshots and the event
outbox, with versioned migrations applied at start-up.

Durability: WAL journal; `synchronous=FULL` by default so an acknowledged command survives
even a power cut (NORMAL survives a killed process, and is faster).
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite

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
    # 2: DM notifications: players' settings, whether we can DM them, daily sitreps, and
    # outbox rows held back (quiet hours, closed DMs) until a time
    """
    CREATE TABLE player_settings (
        user_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE dm_status (
        user_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        detail TEXT,
        since REAL NOT NULL,
        checked REAL NOT NULL
    );
    CREATE TABLE sitreps (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        nation TEXT NOT NULL,
        last_day INTEGER NOT NULL,
        PRIMARY KEY (game_id, nation)
    );
    ALTER TABLE outbox ADD COLUMN hold_until REAL;
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


class DmStatus(NamedTuple):
    """Whether the bot can DM a user: status "ok", "closed" (the user does not accept DMs) or
    "failing" (Discord errors); `since` is when it became so, `checked` the last attempt."""

    status: str
    detail: str | None
    since: float
    checked: float


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    seq: int
    tick: int
    nation: str
    event: dict[str, Any]
    attempts: int


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Store:
    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = path

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> Store:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute(f"PRAGMA synchronous={synchronous}")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"database schema {version} is newer than this program ({SCHEMA_VERSION})"
            )
        for number in range(version, SCHEMA_VERSION):
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(MIGRATIONS[number]):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version={number + 1}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    # --- games ---------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        name: str,
        ruleset: str,
        settings: dict[str, Any],
        clock: dict[str, Any],
        world_json: str,
        world_hash: str,
        guild_id: str | None = None,
        channel_id: str | None = None,
        created_by: str | None = None,
        status: str = "lobby",
    ) -> int:
        now = time.time()
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            cur = await self.db.execute(
                "INSERT INTO games (name, ruleset, status, guild_id, channel_id, created_by, created_at, settings, clock)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
            game_id = cur.lastrowid
            assert game_id is not None
            await self.db.execute(
                "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at) VALUES (?, 0, 0, ?, ?, ?)",
                (game_id, zlib.compress(world_json.encode(), 1), world_hash, now),
            )
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _game_row(row) if row else None

    async def games(
        self, *, status: Iterable[str] | None = None, guild_id: str | None = None
    ) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE 1=1"
        args: list[Any] = []
        if status is not None:
            status = list(status)
            sql += f" AND status IN ({','.join('?' * len(status))})"
            args += status
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        async with self.db.execute(sql + " ORDER BY id", args) as cur:
            rows = await cur.fetchall()
        return [_game_row(r) for r in rows]

    async def update_game(
        self,
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
        if not sets:
            return
        await self.db.execute(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*args, game_id))

    async def delete_game(self, game_id: int) -> None:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("outbox", "members", "snapshots", "log"):
                await self.db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            await self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    # --- the log ---------------------------------------------------------------------------------

    async def append(
        self,
        game_id: int,
        seq: int,
        tick: int,
        entry: dict[str, Any],
        events: list[tuple[str, dict[str, Any]]],
        *,
        snapshot: tuple[str, str] | None = None,
        status: str | None = None,
        clock: dict[str, Any] | None = None,
        members: tuple[list[tuple[str, str]], list[str]] | None = None,
    ) -> None:
        """One transaction: the log entry, its events for each recipient, and optionally a
        snapshot of the world after it, a new game status or clock, and membership changes
        ((added (nation, user) pairs), (removed nations)). Returns after COMMIT."""
        now = time.time()
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(
                "INSERT INTO log (game_id, seq, tick, entry, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, tick, _dumps(entry), now),
            )
            if events:
                await db.executemany(
                    "INSERT INTO outbox (game_id, seq, tick, nation, event, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (game_id, seq, tick, nation, _dumps(payload), now)
                        for nation, payload in events
                    ],
                )
            if snapshot is not None:
                world_json, world_hash = snapshot
                await db.execute(
                    "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, tick, zlib.compress(world_json.encode(), 1), world_hash, now),
                )
                # keep the first world (seq 0: the whole history is it + the log) and the newest
                await db.execute(
                    "DELETE FROM snapshots WHERE game_id = ? AND seq > 0 AND seq < ?",
                    (game_id, seq),
                )
            if status is not None or clock is not None:
                await self.update_game(game_id, status=status, clock=clock)
            if members is not None:
                added, removed = members
                for nation in removed:
                    await db.execute(
                        "DELETE FROM members WHERE game_id = ? AND nation = ?", (game_id, nation)
                    )
                for nation, user in added:
                    await db.execute(
                        "INSERT OR REPLACE INTO members (game_id, nation, user_id) VALUES (?, ?, ?)",
                        (game_id, nation, user),
                    )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def latest_snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """(seq, world json, hash) of the newest snapshot."""
        return await self._snapshot(game_id, "DESC")

    async def first_snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """(seq, world json, hash) of the world the game was created with (seq 0): with the
        whole log it replays the game's history."""
        return await self._snapshot(game_id, "ASC")

    async def _snapshot(self, game_id: int, order: str) -> tuple[int, str, str] | None:
        assert order in ("ASC", "DESC")
        async with self.db.execute(
            f"SELECT seq, world, hash FROM snapshots WHERE game_id = ? ORDER BY seq {order} LIMIT 1",
            (game_id,),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        return int(row[0]), zlib.decompress(row[1]).decode(), row[2]

    async def log_after(self, game_id: int, seq: int) -> list[tuple[int, dict[str, Any]]]:
        async with self.db.execute(
            "SELECT seq, entry FROM log WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, seq)
        ) as cur:
            rows = await cur.fetchall()
        return [(int(r[0]), json.loads(r[1])) for r in rows]

    async def last_seq(self, game_id: int) -> int:
        async with self.db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM log WHERE game_id = ?", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    # --- members -----------------------------------------------------------------------------------

    async def memberships(self, user_id: str) -> list[tuple[int, str]]:
        async with self.db.execute(
            "SELECT game_id, nation FROM members WHERE user_id = ? ORDER BY game_id", (user_id,)
        ) as cur:
            rows = await cur.fetchall()
        return [(int(r[0]), r[1]) for r in rows]

    async def add_members(self, game_id: int, pairs: Iterable[tuple[str, str]]) -> None:
        """Record who plays which nation: (nation, user id) pairs."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            for nation, user in pairs:
                await self.db.execute(
                    "INSERT OR REPLACE INTO members (game_id, nation, user_id) VALUES (?, ?, ?)",
                    (game_id, nation, user),
                )
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def members(self, game_id: int) -> dict[str, str]:
        async with self.db.execute(
            "SELECT nation, user_id FROM members WHERE game_id = ?", (game_id,)
        ) as cur:
            rows = await cur.fetchall()
        return {r[0]: r[1] for r in rows}

    # --- outbox ------------------------------------------------------------------------------------

    async def pending_events(
        self, *, limit: int = 500, max_attempts: int = 5, now: float | None = None
    ) -> list[OutboxRow]:
        """Undelivered rows in id order, without those given up on (`max_attempts`) and those
        held back (`hold`) until after `now`."""
        now = time.time() if now is None else now
        async with self.db.execute(
            "SELECT id, game_id, seq, tick, nation, event, attempts FROM outbox"
            " WHERE delivered_at IS NULL AND attempts < ?"
            " AND (hold_until IS NULL OR hold_until <= ?) ORDER BY id LIMIT ?",
            (max_attempts, now, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [
            OutboxRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), r[4], json.loads(r[5]), int(r[6]))
            for r in rows
        ]

    async def mark_delivered(self, ids: Iterable[int]) -> None:
        ids = list(ids)
        if ids:
            await self.db.executemany(
                "UPDATE outbox SET delivered_at = ? WHERE id = ?", [(time.time(), i) for i in ids]
            )

    async def mark_failed(self, ids: Iterable[int], error: str) -> None:
        ids = list(ids)
        if ids:
            await self.db.executemany(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                [(error[:500], i) for i in ids],
            )

    async def hold(self, ids: Iterable[int], until: float) -> None:
        """Keep these rows out of `pending_events` until `until` (quiet hours, closed DMs)."""
        ids = list(ids)
        if ids:
            await self.db.executemany(
                "UPDATE outbox SET hold_until = ? WHERE id = ?", [(until, i) for i in ids]
            )

    async def release_held(self, user_id: str) -> int:
        """Release every held row for the nations this user plays (e.g. after the player
        changed the quiet hours or opened the DMs); returns how many."""
        cur = await self.db.execute(
            "UPDATE outbox SET hold_until = NULL WHERE delivered_at IS NULL"
            " AND hold_until IS NOT NULL AND EXISTS (SELECT 1 FROM members m"
            " WHERE m.user_id = ? AND m.game_id = outbox.game_id AND m.nation = outbox.nation)",
            (str(user_id),),
        )
        return cur.rowcount

    # --- players' notification settings --------------------------------------------------------

    async def get_player_settings(self, user_id: str) -> dict[str, Any]:
        async with self.db.execute(
            "SELECT settings FROM player_settings WHERE user_id = ?", (str(user_id),)
        ) as cur:
            row = await cur.fetchone()
        return json.loads(row[0]) if row else {}

    async def set_player_settings(self, user_id: str, settings: dict[str, Any]) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO player_settings (user_id, settings) VALUES (?, ?)",
            (str(user_id), _dumps(settings)),
        )

    async def get_dm_status(self, user_id: str) -> DmStatus | None:
        async with self.db.execute(
            "SELECT status, detail, since, checked FROM dm_status WHERE user_id = ?",
            (str(user_id),),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        return DmStatus(row[0], row[1], float(row[2]), float(row[3]))

    async def set_dm_status(
        self, user_id: str, status: str, detail: str | None = None, *, now: float | None = None
    ) -> None:
        """Record the outcome of a DM attempt; `since` only moves when the status changes."""
        now = time.time() if now is None else now
        await self.db.execute(
            "INSERT INTO dm_status (user_id, status, detail, since, checked) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET"
            " since = CASE WHEN dm_status.status = excluded.status THEN dm_status.since"
            " ELSE excluded.since END,"
            " status = excluded.status, detail = excluded.detail, checked = excluded.checked",
            (str(user_id), status, detail, now, now),
        )

    # --- daily situation reports ------------------------------------------------------------------

    async def get_sitrep(self, game_id: int, nation: str) -> int | None:
        """The last game day a sitrep was sent to this nation (None: never)."""
        async with self.db.execute(
            "SELECT last_day FROM sitreps WHERE game_id = ? AND nation = ?", (game_id, nation)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else None

    async def set_sitrep(self, game_id: int, nation: str, day: int) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO sitreps (game_id, nation, last_day) VALUES (?, ?, ?)",
            (game_id, nation, day),
        )


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


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
    )
