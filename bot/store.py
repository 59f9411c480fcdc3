"""The bot's own tables, beside the games' in the same database (one connection, one thread:
`engine.host.database`), with their own migrations: what players chose for their DMs, whether
the bot can DM them, the daily sitreps sent, and the confirmations waiting for their button.
The engine knows nothing of these.

It also keeps each player's latest DM reports per game for `/news`.

`BotStore.of(store)` gives the one bot store of a games store; its tables are made (or
brought up to date) on first use, so a database created before the bot's tables moved here
keeps them as they are."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import weakref
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.host.database import Database
from engine.host.storage import GameStore
from engine.host.store import Store

# The bot's migrations, numbered on their own (table `bot_schema`). The first one's tables were
# made by the games store's migrations 2 and 3 before they moved here: IF NOT EXISTS keeps
# those databases as they are.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE IF NOT EXISTS player_settings (
        user_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS dm_status (
        user_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        detail TEXT,
        since REAL NOT NULL,
        checked REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS sitreps (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        nation TEXT NOT NULL,
        last_day INTEGER NOT NULL,
        PRIMARY KEY (game_id, nation)
    );
    CREATE TABLE IF NOT EXISTS confirmations (
        token TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        game_id INTEGER REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        args TEXT NOT NULL,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL
    );
    CREATE INDEX IF NOT EXISTS confirmations_expiry ON confirmations (expires_at);
    """,
    # 2: the reports composed for each player (/news), the last few per game and user;
    # `first_row` (the first outbox row told) and `part` make recording a report idempotent
    """
    CREATE TABLE news (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        at REAL NOT NULL,
        first_row INTEGER NOT NULL,
        part INTEGER NOT NULL,
        text TEXT NOT NULL,
        UNIQUE (game_id, user_id, first_row, part)
    );
    CREATE INDEX news_reader ON news (game_id, user_id, id);
    """,
]


class DmStatus(NamedTuple):
    """Whether the bot can DM a user: status "ok", "closed" (the user does not accept DMs) or
    "failing" (Discord errors); `since` is when it became so, `checked` the last attempt."""

    status: str
    detail: str | None
    since: float
    checked: float


@dataclass(frozen=True)
class ConfirmationRow:
    """An action waiting for its confirmation button: who asked, in which game, what to do
    (`kind` and its JSON arguments) and until when."""

    token: str
    user_id: str
    game_id: int | None
    kind: str
    args: dict[str, Any]
    created_at: float
    expires_at: float


_stores: weakref.WeakKeyDictionary[Database, BotStore] = weakref.WeakKeyDictionary()


class BotStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._migrated = False
        self._lock = asyncio.Lock()

    @classmethod
    def of(cls, store: GameStore) -> BotStore:
        """The bot store beside a games store (one per database)."""
        if not isinstance(store, Store):
            raise NotImplementedError(
                "the bot's own tables (players' DM settings, DM status, sitreps, confirmations,"
                " news) are kept only in a SQLite games store so far; on PostgreSQL they are"
                " still to be written (issue 16)"
            )
        found = _stores.get(store.db)
        if found is None:
            found = _stores[store.db] = cls(store.db)
        return found

    async def _ready(self) -> None:
        if self._migrated:
            return
        async with self._lock:
            if not self._migrated:
                await self.db.write(_migrate)
                self._migrated = True

    async def _query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        await self._ready()
        return await self.db.read(lambda c: c.execute(sql, args).fetchall())

    async def _write(self, fn: Any) -> Any:
        await self._ready()
        return await self.db.write(fn)

    # --- players' notification settings --------------------------------------------------------

    async def get_player_settings(self, user_id: str) -> dict[str, Any]:
        rows = await self._query(
            "SELECT settings FROM player_settings WHERE user_id = ?", (str(user_id),)
        )
        return json.loads(rows[0][0]) if rows else {}

    async def set_player_settings(self, user_id: str, settings: dict[str, Any]) -> None:
        args = (str(user_id), _dumps(settings))
        await self._write(
            lambda c: c.execute(
                "INSERT OR REPLACE INTO player_settings (user_id, settings) VALUES (?, ?)", args
            )
        )

    # --- whether the bot can DM a player ----------------------------------------------------------

    async def get_dm_status(self, user_id: str) -> DmStatus | None:
        rows = await self._query(
            "SELECT status, detail, since, checked FROM dm_status WHERE user_id = ?",
            (str(user_id),),
        )
        if not rows:
            return None
        status, detail, since, checked = rows[0]
        return DmStatus(status, detail, float(since), float(checked))

    async def set_dm_status(
        self, user_id: str, status: str, detail: str | None = None, *, now: float | None = None
    ) -> None:
        """Record the outcome of a DM attempt; `since` only moves when the status changes."""
        now = time.time() if now is None else now
        args = (str(user_id), status, detail, now, now)
        await self._write(
            lambda c: c.execute(
                "INSERT INTO dm_status (user_id, status, detail, since, checked)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " since = CASE WHEN dm_status.status = excluded.status THEN dm_status.since"
                " ELSE excluded.since END,"
                " status = excluded.status, detail = excluded.detail, checked = excluded.checked",
                args,
            )
        )

    # --- confirmations waiting for their button ----------------------------------------------------

    async def add_confirmation(
        self,
        token: str,
        *,
        user_id: str,
        game_id: int | None,
        kind: str,
        args: dict[str, Any],
        expires_at: float,
        now: float | None = None,
    ) -> None:
        """One transaction: drop the confirmations that expired, record this one."""
        now = time.time() if now is None else now
        row = (token, str(user_id), game_id, kind, _dumps(args), now, expires_at)

        def add(c: sqlite3.Connection) -> None:
            c.execute("DELETE FROM confirmations WHERE expires_at < ?", (now,))
            c.execute(
                "INSERT INTO confirmations (token, user_id, game_id, kind, args, created_at,"
                " expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                row,
            )

        await self._write(add)

    async def confirmation(self, token: str) -> ConfirmationRow | None:
        rows = await self._query(
            "SELECT token, user_id, game_id, kind, args, created_at, expires_at"
            " FROM confirmations WHERE token = ?",
            (token,),
        )
        if not rows:
            return None
        r = rows[0]
        return ConfirmationRow(
            r[0],
            r[1],
            None if r[2] is None else int(r[2]),
            r[3],
            json.loads(r[4]),
            float(r[5]),
            float(r[6]),
        )

    async def take_confirmation(self, token: str) -> bool:
        """Remove a confirmation; True for the one caller that removed it (a button pressed
        twice at once runs once)."""
        return bool(
            await self._write(
                lambda c: (
                    c.execute("DELETE FROM confirmations WHERE token = ?", (token,)).rowcount == 1
                )
            )
        )

    # --- daily situation reports ------------------------------------------------------------------

    async def get_sitrep(self, game_id: int, nation: str) -> int | None:
        """The last game day a sitrep was sent to this nation (None: never)."""
        rows = await self._query(
            "SELECT last_day FROM sitreps WHERE game_id = ? AND nation = ?", (game_id, nation)
        )
        return int(rows[0][0]) if rows else None

    async def set_sitrep(self, game_id: int, nation: str, day: int) -> None:
        await self.set_sitreps(game_id, {nation: day})

    async def sitreps(self, game_id: int) -> dict[str, int]:
        """{nation: the last game day a sitrep was sent to it} for every nation of the game
        that has one."""
        rows = await self._query(
            "SELECT nation, last_day FROM sitreps WHERE game_id = ?", (game_id,)
        )
        return {r[0]: int(r[1]) for r in rows}

    async def set_sitreps(self, game_id: int, days: dict[str, int]) -> None:
        """Record the last sitrep day of several nations of a game in one transaction."""
        rows = [(game_id, nation, day) for nation, day in days.items()]
        if rows:
            await self._write(
                lambda c: c.executemany(
                    "INSERT OR REPLACE INTO sitreps (game_id, nation, last_day) VALUES (?, ?, ?)",
                    rows,
                )
            )

    # --- reports kept for /news ------------------------------------------------------------------

    async def add_news(
        self,
        game_id: int,
        user_id: str,
        texts: list[str],
        *,
        first_row: int,
        at: float,
        keep: int,
    ) -> None:
        """Record the messages of one report for a player (once: the same report recorded
        again changes nothing), and keep only the player's `keep` latest of this game."""
        rows = [(game_id, str(user_id), at, first_row, i, t) for i, t in enumerate(texts)]
        trim = (game_id, str(user_id), game_id, str(user_id), keep)

        def add(c: sqlite3.Connection) -> None:
            c.executemany(
                "INSERT OR IGNORE INTO news (game_id, user_id, at, first_row, part, text)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
            c.execute(
                "DELETE FROM news WHERE game_id = ? AND user_id = ? AND id NOT IN ("
                " SELECT id FROM news WHERE game_id = ? AND user_id = ?"
                " ORDER BY id DESC LIMIT ?)",
                trim,
            )

        if rows:
            await self._write(add)

    async def news(self, game_id: int, user_id: str, limit: int) -> list[NewsRow]:
        """A player's latest report messages in a game, the newest report first (the messages
        of one report in their order)."""
        rows = await self._query(
            "SELECT at, text FROM news WHERE game_id = ? AND user_id = ?"
            " ORDER BY first_row DESC, part LIMIT ?",
            (game_id, str(user_id), limit),
        )
        return [NewsRow(float(at), text) for at, text in rows]


class NewsRow(NamedTuple):
    """One report message kept for /news: when it was composed (a UTC timestamp), its text."""

    at: float
    text: str


def _migrate(c: sqlite3.Connection) -> None:
    """Bring the bot's tables up to date (in the database thread, one transaction)."""
    c.execute("CREATE TABLE IF NOT EXISTS bot_schema (version INTEGER NOT NULL)")
    row = c.execute("SELECT version FROM bot_schema").fetchone()
    version = 0 if row is None else int(row[0])
    if version > len(MIGRATIONS):
        raise RuntimeError(
            f"the bot's tables are at version {version}, newer than this program ({len(MIGRATIONS)})"
        )
    for number in range(version, len(MIGRATIONS)):
        for statement in (s.strip() for s in MIGRATIONS[number].split(";")):
            if statement:
                c.execute(statement)
    c.execute("DELETE FROM bot_schema")
    c.execute("INSERT INTO bot_schema (version) VALUES (?)", (len(MIGRATIONS),))


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
