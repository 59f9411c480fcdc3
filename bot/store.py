"""The bot's own tables, beside the games' in the same database, with their own migrations:
what players chose for their DMs, whether the bot can DM them, the daily sitreps sent, and the
confirmations waiting for their button. The engine knows nothing of these.

It also keeps each player's latest DM reports per game for `/news`.

`BotStore.of(store)` gives the one bot store of a games store, SQLite or PostgreSQL; its tables
are made (or brought up to date) on first use, so a database created before the bot's tables
moved here keeps them as they are.

One `BotStore` for both backends: what each method means (its statements, its arguments, how
its rows are read) is written once, in SQL both backends accept (`INSERT ... ON CONFLICT`),
with `?` parameters. The backend's small runner (`_SqliteTables`, `_PostgresTables`) only runs
it: on SQLite through the games store's database thread, on PostgreSQL on its pool, with `$1`,
`$2`... for `?` (`numbered`, as for the games store's SQL). Every write is one transaction.
Only the migrations differ per backend.

Copying the rows to another store (`si db copy`, bot/cli.py, after the games: engine/host/
copy.py): `export_rows(game_ids)` reads every table (`TABLES`) in a form both backends give
alike (`BotRows`: JSON as canonical text, times as floats), leaving out the rows of games not
named, so no copied row names a game the target lacks; `import_rows` writes them in one
transaction, all tables or none. A row whose key the target has already is skipped when it is
the same row, and refuses the whole import (`BotRowsConflict`, before anything is written)
when it differs: the copy never overwrites a target's row nor keeps two versions of a player's
choice. `/news` messages get new ids on the target, in the source's order (the order is what
their trimming keeps). `differences` compares what both sides read back."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from engine.host.database import Database
from engine.host.postgres import PostgresStore, numbered
from engine.host.sqlite import SqliteStore
from engine.host.storage import GameStore

# The bot's migrations on SQLite, numbered on their own (table `bot_schema`). The first one's
# tables were made by the games store's migrations 2 and 3 before they moved here: IF NOT
# EXISTS keeps those databases as they are.
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
    # 3: each user's DM channel with the bot (a DM is one request: no channel opened again,
    # also after a restart); when a player whose DMs are closed was told so (once, at their
    # next command); the text of each game's pinned status as last shown (its hash: a restart
    # edits only the statuses that changed)
    """
    CREATE TABLE dm_channels (
        user_id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL
    );
    ALTER TABLE dm_status ADD COLUMN told REAL;
    CREATE TABLE status_shown (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        message_id TEXT NOT NULL,
        digest TEXT NOT NULL
    );
    """,
    # 4: each ended game's result, once (the server's standings, bot/standings.py): kept when
    # the game is deleted (no reference to it), as the original's game history was
    """
    CREATE TABLE game_results (
        game_id INTEGER PRIMARY KEY,
        guild_id TEXT,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        ended_at REAL NOT NULL,
        places TEXT NOT NULL
    );
    CREATE INDEX game_results_guild ON game_results (guild_id, ended_at, game_id);
    """,
    # 5: each ended game's charts, worked out once (`/stats game` reads them; kept when the
    # game is deleted, as its result is); and which of an ended game's posts in its channel
    # (its timelapse, its result) are done, so a restart between the end and the posts makes
    # them then (the games that ended before this migration are taken as posted)
    """
    CREATE TABLE game_charts (
        game_id INTEGER PRIMARY KEY,
        charts TEXT NOT NULL
    );
    CREATE TABLE end_posts (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        part TEXT NOT NULL,
        posted_at REAL NOT NULL,
        PRIMARY KEY (game_id, part)
    );
    INSERT INTO end_posts (game_id, part, posted_at)
        SELECT id, 'timelapse', 0 FROM games WHERE status = 'ended';
    INSERT INTO end_posts (game_id, part, posted_at)
        SELECT id, 'result', 0 FROM games WHERE status = 'ended';
    """,
]

# The same tables on PostgreSQL (numbered on their own, also in `bot_schema`): ids BIGINT,
# times DOUBLE PRECISION, JSON as JSONB, a game's rows going with it (ON DELETE CASCADE).
POSTGRES_MIGRATIONS: list[str] = [
    # 1: SQLite's 1 and 2 at once
    """
    CREATE TABLE player_settings (
        user_id TEXT PRIMARY KEY,
        settings JSONB NOT NULL
    );
    CREATE TABLE dm_status (
        user_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        detail TEXT,
        since DOUBLE PRECISION NOT NULL,
        checked DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE sitreps (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        nation TEXT NOT NULL,
        last_day BIGINT NOT NULL,
        PRIMARY KEY (game_id, nation)
    );
    CREATE TABLE confirmations (
        token TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        game_id BIGINT REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        args JSONB NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX confirmations_expiry ON confirmations (expires_at);
    CREATE INDEX confirmations_game ON confirmations (game_id);
    CREATE TABLE news (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        first_row BIGINT NOT NULL,
        part INTEGER NOT NULL,
        text TEXT NOT NULL,
        UNIQUE (game_id, user_id, first_row, part)
    );
    CREATE INDEX news_reader ON news (game_id, user_id, id);
    """,
    # 2: SQLite's 3
    """
    CREATE TABLE dm_channels (
        user_id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL
    );
    ALTER TABLE dm_status ADD COLUMN told DOUBLE PRECISION;
    CREATE TABLE status_shown (
        game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        message_id TEXT NOT NULL,
        digest TEXT NOT NULL
    );
    """,
    # 3: SQLite's 4
    """
    CREATE TABLE game_results (
        game_id BIGINT PRIMARY KEY,
        guild_id TEXT,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        ended_at DOUBLE PRECISION NOT NULL,
        places JSONB NOT NULL
    );
    CREATE INDEX game_results_guild ON game_results (guild_id, ended_at, game_id);
    """,
    # 4: SQLite's 5
    """
    CREATE TABLE game_charts (
        game_id BIGINT PRIMARY KEY,
        charts JSONB NOT NULL
    );
    CREATE TABLE end_posts (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        part TEXT NOT NULL,
        posted_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, part)
    );
    INSERT INTO end_posts (game_id, part, posted_at)
        SELECT id, 'timelapse', 0 FROM games WHERE status = 'ended';
    INSERT INTO end_posts (game_id, part, posted_at)
        SELECT id, 'result', 0 FROM games WHERE status = 'ended';
    """,
]

# a number of our own for pg_advisory_xact_lock: the bot's migrations (processes starting
# together migrate once)
_MIGRATION_LOCK = 0x5349_424F_5453


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


# one statement of a write and its parameters (`?`)
Step = tuple[str, tuple[Any, ...]]
# one statement and the parameters of each of its runs
Batch = tuple[str, list[tuple[Any, ...]]]


class _Tables(Protocol):
    """How one backend runs the bot's SQL."""

    async def migrate(self) -> None:
        """Bring the bot's tables up to date (one transaction)."""
        ...

    async def read(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The rows of one statement."""
        ...

    async def write(self, steps: Sequence[Step]) -> list[int]:
        """Run the statements in order as one transaction; the rows each one changed."""
        ...

    async def write_many(self, batches: Sequence[Batch]) -> None:
        """Run each statement once per row of its parameters, in order, as one transaction."""
        ...


_stores: weakref.WeakKeyDictionary[object, BotStore] = weakref.WeakKeyDictionary()


class BotStore:
    def __init__(self, tables: _Tables) -> None:
        self.tables = tables
        self._migrated = False
        self._lock = asyncio.Lock()

    @classmethod
    def of(cls, store: GameStore) -> BotStore:
        """The bot store beside a games store (one per database)."""
        key: object
        tables: _Tables
        if isinstance(store, SqliteStore):
            key, tables = store.db, _SqliteTables(store.db)
        elif isinstance(store, PostgresStore):
            key, tables = store, _PostgresTables(store)
        else:
            raise TypeError(f"no bot tables for a games store of type {type(store).__name__}")
        found = _stores.get(key)
        if found is None:
            found = _stores[key] = cls(tables)
        return found

    async def _ready(self) -> None:
        if self._migrated:
            return
        async with self._lock:
            if not self._migrated:
                await self.tables.migrate()
                self._migrated = True

    async def _query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        await self._ready()
        return await self.tables.read(sql, args)

    async def _write(self, *steps: Step) -> list[int]:
        await self._ready()
        return await self.tables.write(steps)

    # --- players' notification settings --------------------------------------------------------

    async def get_player_settings(self, user_id: str) -> dict[str, Any]:
        rows = await self._query(
            "SELECT settings FROM player_settings WHERE user_id = ?", (str(user_id),)
        )
        return json.loads(rows[0][0]) if rows else {}

    async def players_settings(self, user_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The settings of several players in one query (those with none are left out)."""
        users = sorted({str(u) for u in user_ids})
        if not users:
            return {}
        rows = await self._query(
            "SELECT user_id, settings FROM player_settings"
            f" WHERE user_id IN ({', '.join('?' * len(users))})",
            tuple(users),
        )
        return {str(user): json.loads(text) for user, text in rows}

    async def set_player_settings(self, user_id: str, settings: dict[str, Any]) -> None:
        await self._write(
            (
                "INSERT INTO player_settings (user_id, settings) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings",
                (str(user_id), _dumps(settings)),
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

    async def dm_statuses(self, user_ids: Iterable[str]) -> dict[str, DmStatus]:
        """Whether the bot can DM several users, in one query (those never tried are left out)."""
        users = sorted({str(u) for u in user_ids})
        if not users:
            return {}
        rows = await self._query(
            "SELECT user_id, status, detail, since, checked FROM dm_status"
            f" WHERE user_id IN ({', '.join('?' * len(users))})",
            tuple(users),
        )
        return {
            str(user): DmStatus(status, detail, float(since), float(checked))
            for user, status, detail, since, checked in rows
        }

    async def set_dm_status(
        self, user_id: str, status: str, detail: str | None = None, *, now: float | None = None
    ) -> None:
        """Record the outcome of a DM attempt; `since` only moves when the status changes."""
        now = float(time.time() if now is None else now)
        await self._write(
            (
                "INSERT INTO dm_status (user_id, status, detail, since, checked)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " since = CASE WHEN dm_status.status = excluded.status THEN dm_status.since"
                " ELSE excluded.since END,"
                " status = excluded.status, detail = excluded.detail, checked = excluded.checked",
                (str(user_id), status, detail, now, now),
            )
        )

    async def closed_untold(self, user_id: str) -> DmStatus | None:
        """The user's DM status if their DMs are closed and they have not been told since they
        closed (`told_closed`); else None. One read by primary key (every command asks)."""
        rows = await self._query(
            "SELECT status, detail, since, checked FROM dm_status WHERE user_id = ?"
            " AND status = 'closed' AND (told IS NULL OR told < since)",
            (str(user_id),),
        )
        if not rows:
            return None
        status, detail, since, checked = rows[0]
        return DmStatus(status, detail, float(since), float(checked))

    async def told_closed(self, user_id: str, *, now: float | None = None) -> bool:
        """Note that the user was told their DMs are closed; False if another process (or
        command) told them first: each closing is told once."""
        now = float(time.time() if now is None else now)
        [changed] = await self._write(
            (
                "UPDATE dm_status SET told = ? WHERE user_id = ? AND status = 'closed'"
                " AND (told IS NULL OR told < since)",
                (now, str(user_id)),
            )
        )
        return changed == 1

    # --- each user's DM channel ------------------------------------------------------------------

    async def dm_channel(self, user_id: str) -> str | None:
        rows = await self._query(
            "SELECT channel_id FROM dm_channels WHERE user_id = ?", (str(user_id),)
        )
        return str(rows[0][0]) if rows else None

    async def set_dm_channel(self, user_id: str, channel_id: str | None) -> None:
        """Keep the user's DM channel (None: forget it, it is unknown to Discord now)."""
        if channel_id is None:
            await self._write(("DELETE FROM dm_channels WHERE user_id = ?", (str(user_id),)))
            return
        await self._write(
            (
                "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
                (str(user_id), str(channel_id)),
            )
        )

    # --- the text of games' pinned statuses as last shown ------------------------------------

    async def status_shown(self, game_id: int) -> tuple[str, str] | None:
        """(message id, digest of its text) of the game's status as the bot last showed it."""
        rows = await self._query(
            "SELECT message_id, digest FROM status_shown WHERE game_id = ?", (int(game_id),)
        )
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    async def set_status_shown(self, game_id: int, message_id: str, digest: str) -> None:
        await self._write(
            (
                "INSERT INTO status_shown (game_id, message_id, digest) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id,"
                " digest = excluded.digest",
                (int(game_id), str(message_id), str(digest)),
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
        now = float(time.time() if now is None else now)
        await self._write(
            ("DELETE FROM confirmations WHERE expires_at < ?", (now,)),
            (
                "INSERT INTO confirmations (token, user_id, game_id, kind, args, created_at,"
                " expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (token, str(user_id), game_id, kind, _dumps(args), now, float(expires_at)),
            ),
        )

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
        (removed,) = await self._write(("DELETE FROM confirmations WHERE token = ?", (token,)))
        return removed == 1

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
        steps = [
            (
                "INSERT INTO sitreps (game_id, nation, last_day) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, nation) DO UPDATE SET last_day = excluded.last_day",
                (game_id, nation, int(day)),
            )
            for nation, day in days.items()
        ]
        if steps:
            await self._write(*steps)

    # --- ended games' results (the server's standings) ---------------------------------------

    async def add_result(self, result: ResultRow) -> bool:
        """Record an ended game's result; True if this call recorded it, False if it was
        recorded already (by another process, or before a restart): a result is kept once."""
        (added,) = await self._write(
            (
                "INSERT INTO game_results (game_id, guild_id, kind, name, ended_at, places)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
                (
                    int(result.game_id),
                    result.guild_id,
                    result.kind,
                    result.name,
                    float(result.ended_at),
                    _dumps(result.places),
                ),
            )
        )
        return added == 1

    async def results(self, guild_id: str | None) -> list[ResultRow]:
        """The server's recorded results, oldest first."""
        rows = await self._query(
            "SELECT game_id, guild_id, kind, name, ended_at, places FROM game_results"
            " WHERE guild_id = ? ORDER BY ended_at, game_id",
            (guild_id,),
        )
        return [_result(r) for r in rows]

    async def result(self, game_id: int) -> ResultRow | None:
        rows = await self._query(
            "SELECT game_id, guild_id, kind, name, ended_at, places FROM game_results"
            " WHERE game_id = ?",
            (int(game_id),),
        )
        return _result(rows[0]) if rows else None

    # --- ended games' charts and posts -----------------------------------------------------------

    async def add_charts(self, game_id: int, charts: dict[str, Any]) -> None:
        """Keep an ended game's charts (`renderers.chart.Charts.to_json`), once."""
        await self._write(
            (
                "INSERT INTO game_charts (game_id, charts) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO NOTHING",
                (int(game_id), _dumps(charts)),
            )
        )

    async def charts(self, game_id: int) -> dict[str, Any] | None:
        """An ended game's charts as kept (None: not kept yet)."""
        rows = await self._query(
            "SELECT charts FROM game_charts WHERE game_id = ?", (int(game_id),)
        )
        if not rows:
            return None
        found = rows[0][0]
        return found if isinstance(found, dict) else json.loads(found)

    async def end_posted(self, game_id: int) -> set[str]:
        """Which of an ended game's posts are done (`mark_end_posted`)."""
        rows = await self._query("SELECT part FROM end_posts WHERE game_id = ?", (int(game_id),))
        return {str(r[0]) for r in rows}

    async def mark_end_posted(self, game_id: int, part: str, *, at: float | None = None) -> None:
        await self._write(
            (
                "INSERT INTO end_posts (game_id, part, posted_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, part) DO NOTHING",
                (int(game_id), part, time.time() if at is None else float(at)),
            )
        )

    async def ends_unposted(self, last: str) -> list[int]:
        """The ended games whose last post (`last`) is not done: a process stopped between
        their end and their posts."""
        rows = await self._query(
            "SELECT g.id FROM games g WHERE g.status = 'ended' AND NOT EXISTS"
            " (SELECT 1 FROM end_posts e WHERE e.game_id = g.id AND e.part = ?) ORDER BY g.id",
            (last,),
        )
        return [int(r[0]) for r in rows]

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
        await self.add_reports([NewsReport(game_id, str(user_id), texts, first_row, at)], keep=keep)

    async def add_reports(self, reports: Sequence[NewsReport], *, keep: int) -> None:
        """Record several reports (`add_news`) in one transaction (the notifier's pass)."""
        steps: list[Step] = []
        for report in reports:
            if not report.texts:
                continue
            game_id, user = report.game_id, str(report.user_id)
            steps.extend(
                (
                    "INSERT INTO news (game_id, user_id, at, first_row, part, text)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (game_id, user, float(report.at), report.first_row, i, text),
                )
                for i, text in enumerate(report.texts)
            )
            steps.append(
                (
                    "DELETE FROM news WHERE game_id = ? AND user_id = ? AND id NOT IN ("
                    " SELECT id FROM news WHERE game_id = ? AND user_id = ?"
                    " ORDER BY id DESC LIMIT ?)",
                    (game_id, user, game_id, user, keep),
                )
            )
        if steps:
            await self._write(*steps)

    async def news(self, game_id: int, user_id: str, limit: int) -> list[NewsRow]:
        """A player's latest report messages in a game, the newest report first (the messages
        of one report in their order)."""
        rows = await self._query(
            "SELECT at, text FROM news WHERE game_id = ? AND user_id = ?"
            " ORDER BY first_row DESC, part LIMIT ?",
            (game_id, str(user_id), limit),
        )
        return [NewsRow(float(at), text) for at, text in rows]

    # --- copying the rows to another store (`si db copy`) --------------------------------------------

    async def export_rows(self, game_ids: Iterable[int] | None = None) -> BotRows:
        """Every row of the bot's tables, each table in its `order`; with `game_ids`, the rows
        of other games are left out (counted in `left_out`), a player's own rows never."""
        wanted = None if game_ids is None else set(game_ids)
        tables: dict[str, list[tuple[Any, ...]]] = {}
        left_out = 0
        for table in TABLES:
            got = await self._query(
                f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {table.order}", ()
            )
            rows = []
            for raw in got:
                row = table.normal(raw)
                game = table.game_of(row)
                if wanted is not None and game is not None and game not in wanted:
                    left_out += 1
                else:
                    rows.append(row)
            tables[table.name] = rows
        return BotRows(tables, left_out)

    async def plan_import(self, rows: BotRows) -> BotRows:
        """The rows of `rows` this store lacks (its rows of the same key and content are
        skipped). Raises `BotRowsConflict` if this store has a row of the same key but another
        content (a player's other settings, another confirmation under that token...)."""
        mine = await self.export_rows()
        conflicts: list[str] = []
        new: dict[str, list[tuple[Any, ...]]] = {}
        for table in TABLES:
            have = {table.key_of(r): r for r in mine.tables[table.name]}
            new[table.name] = []
            for row in rows.tables.get(table.name, []):
                found = have.get(table.key_of(row))
                if found is None:
                    new[table.name].append(row)
                elif found != row:
                    conflicts.append(f"{table.name} {table.key_text(row)}")
        if conflicts:
            shown = "; ".join(conflicts[:10]) + ("; ..." if len(conflicts) > 10 else "")
            raise BotRowsConflict(
                f"the target has {len(conflicts)} rows of the bot's tables already with other"
                f" contents ({shown}): nothing copied (copy into a new, empty store)"
            )
        return BotRows(new, rows.left_out)

    async def import_rows(self, rows: BotRows) -> BotImport:
        """Write another store's rows (`export_rows`) in one transaction: all of them or none.
        Rows already here as they are there are skipped; a row here of the same key with other
        contents, or a row of a game this store does not have, refuses the whole import
        (`BotRowsConflict`) before anything is written. /news messages get new ids, in the
        order of `rows`."""
        plan = await self.plan_import(rows)
        games = {int(r[0]) for r in await self._query("SELECT id FROM games", ())}
        missing = sorted(
            {
                game
                for table in TABLES
                for row in plan.tables[table.name]
                if (game := table.game_of(row)) is not None and game not in games
            }
        )
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
            raise BotRowsConflict(
                f"the bot's rows name games the target does not have ({shown}): nothing copied"
            )
        batches = [
            (table.insert, plan.tables[table.name]) for table in TABLES if plan.tables[table.name]
        ]
        if batches:
            await self._ready()
            await self.tables.write_many(batches)
        written = {t.name: len(plan.tables[t.name]) for t in TABLES}
        there = {t.name: len(rows.tables.get(t.name, [])) - written[t.name] for t in TABLES}
        return BotImport(written, there, rows.left_out)


class BotRowsConflict(Exception):
    """The bot's rows were not imported: the target has rows of those keys with other contents,
    or lacks a game they name. Nothing was written."""


@dataclass(frozen=True)
class BotTable:
    """One of the bot's tables as `export_rows` reads it and `import_rows` writes it: its
    columns (the first `key` of them its key), each column's kind ("text", "int", "real",
    "json"; a "?" after it: may be NULL) and the order its rows are read in."""

    name: str
    title: str  # how a report names its rows
    columns: tuple[str, ...]
    kinds: tuple[str, ...]
    key: int
    order: str
    # its rows go with their game (False: kept after the game, copied whichever games are)
    of_game: bool = True

    def normal(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        """A row as read from either backend, in one form: JSON as canonical text (JSONB and
        TEXT alike), ints, floats."""
        return tuple(_normal(kind, value) for kind, value in zip(self.kinds, raw, strict=True))

    def game_of(self, row: tuple[Any, ...]) -> int | None:
        """The game a row belongs to (None: a player's own row, or this table's rows name none)."""
        if "game_id" not in self.columns or not self.of_game:
            return None
        game = row[self.columns.index("game_id")]
        return None if game is None else int(game)

    def key_of(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        return row[: self.key]

    def key_text(self, row: tuple[Any, ...]) -> str:
        return ", ".join(f"{c}={v}" for c, v in zip(self.columns, self.key_of(row), strict=False))

    @property
    def insert(self) -> str:
        marks = ", ".join("?" for _ in self.columns)
        return f"INSERT INTO {self.name} ({', '.join(self.columns)}) VALUES ({marks})"


def _normal(kind: str, value: Any) -> Any:
    if value is None:
        if not kind.endswith("?"):
            raise ValueError(f"a NULL in a {kind} column")
        return None
    base = kind.rstrip("?")
    if base == "json":
        return _dumps(json.loads(value) if isinstance(value, str | bytes) else value)
    if base == "int":
        return int(value)
    if base == "real":
        return float(value)
    return str(value)


# The bot's tables, in the order they are copied (their keys first). /news messages are keyed by
# what makes recording a report idempotent; their ids are not copied, their order is.
TABLES: tuple[BotTable, ...] = (
    BotTable(
        "player_settings",
        "players' settings",
        ("user_id", "settings"),
        ("text", "json"),
        key=1,
        order="user_id",
    ),
    BotTable(
        "dm_status",
        "DM statuses",
        ("user_id", "status", "detail", "since", "checked"),
        ("text", "text", "text?", "real", "real"),
        key=1,
        order="user_id",
    ),
    BotTable(
        "sitreps",
        "sitrep days",
        ("game_id", "nation", "last_day"),
        ("int", "text", "int"),
        key=2,
        order="game_id, nation",
    ),
    BotTable(
        "confirmations",
        "confirmations",
        ("token", "user_id", "game_id", "kind", "args", "created_at", "expires_at"),
        ("text", "text", "int?", "text", "json", "real", "real"),
        key=1,
        order="token",
    ),
    BotTable(
        "game_results",
        "game results",
        ("game_id", "guild_id", "kind", "name", "ended_at", "places"),
        ("int", "text?", "text", "text", "real", "json"),
        key=1,
        order="game_id",
        of_game=False,
    ),
    BotTable(
        "game_charts",
        "game charts",
        ("game_id", "charts"),
        ("int", "json"),
        key=1,
        order="game_id",
        of_game=False,
    ),
    BotTable(
        "end_posts",
        "end-of-game posts",
        ("game_id", "part", "posted_at"),
        ("int", "text", "real"),
        key=2,
        order="game_id, part",
    ),
    BotTable(
        "news",
        "/news messages",
        ("game_id", "user_id", "first_row", "part", "at", "text"),
        ("int", "text", "int", "int", "real", "text"),
        key=4,
        order="id",
    ),
)


@dataclass
class BotRows:
    """The bot's rows, table by table (`TABLES`; each row as its `columns`, in its `order`), and
    how many rows of games not asked for were left out."""

    tables: dict[str, list[tuple[Any, ...]]]
    left_out: int = 0

    def count(self) -> int:
        return sum(len(rows) for rows in self.tables.values())


@dataclass(frozen=True)
class BotImport:
    """What `import_rows` did, per table: rows written, rows found there already (the same)."""

    written: dict[str, int]
    already: dict[str, int]
    left_out: int  # rows of games not copied, left out of the export

    def summary(self) -> str:
        parts = ", ".join(f"{self.written[t.name]} {t.title}" for t in TABLES)
        same = sum(self.already.values())
        return (
            f"{parts} ({same} there already the same; {self.left_out} of games not copied left out)"
        )


def differences(source: BotRows, target: BotRows) -> list[str]:
    """What differs between the bot's rows read back from both sides of a copy (both exported
    with the copied games' ids; empty: nothing). A game's rows must be the same on both sides,
    /news messages in the same order; a player's own rows (settings, DM status, confirmations of
    no game) must all be on the target as they are in the source, beside any the target had."""
    problems = []
    for table in TABLES:
        mine, theirs = source.tables[table.name], target.tables[table.name]
        games_mine = [r for r in mine if table.game_of(r) is not None]
        games_theirs = [r for r in theirs if table.game_of(r) is not None]
        if games_mine != games_theirs:
            problems.append(
                f"bot table {table.name}: the copied games' rows differ ({len(games_mine)} in"
                f" the source, {len(games_theirs)} in the target"
                + (", in another order" if Counter(games_mine) == Counter(games_theirs) else "")
                + ")"
            )
        present = set(theirs)
        lost = [r for r in mine if table.game_of(r) is None and r not in present]
        if lost:
            problems.append(
                f"bot table {table.name}: {len(lost)} players' rows missing or different in"
                f" the target ({table.key_text(lost[0])}" + (", ..." if len(lost) > 1 else "") + ")"
            )
    return problems


class NewsReport(NamedTuple):
    """One report to keep for a player's /news (`BotStore.add_reports`): its messages, the
    first outbox row it tells (a report recorded twice is kept once) and when it was composed."""

    game_id: int
    user_id: str
    texts: list[str]
    first_row: int
    at: float


class ResultRow(NamedTuple):
    """An ended game's result: its server, its game and name, when it ended (a UTC
    timestamp), and its places, best first: each place a list of {nation, name, player}
    (player: a Discord user id, "ai", or None)."""

    game_id: int
    guild_id: str | None
    kind: str
    name: str
    ended_at: float
    places: list[list[dict[str, Any]]]


def _result(r: Sequence[Any]) -> ResultRow:
    places = r[5] if isinstance(r[5], list) else json.loads(r[5])
    return ResultRow(int(r[0]), r[1], r[2], r[3], float(r[4]), places)


class NewsRow(NamedTuple):
    """One report message kept for /news: when it was composed (a UTC timestamp), its text."""

    at: float
    text: str


# --- SQLite: through the games store's database thread ----------------------------------------------


class _SqliteTables:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def migrate(self) -> None:
        await self.db.write(_migrate_sqlite)

    async def read(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return await self.db.read(lambda c: c.execute(sql, args).fetchall())

    async def write(self, steps: Sequence[Step]) -> list[int]:
        return await self.db.write(lambda c: [c.execute(sql, a).rowcount for sql, a in steps])

    async def write_many(self, batches: Sequence[Batch]) -> None:
        def run(c: sqlite3.Connection) -> None:
            for sql, rows in batches:
                c.executemany(sql, rows)

        await self.db.write(run)


def _migrate_sqlite(c: sqlite3.Connection) -> None:
    """Bring the bot's tables up to date (in the database thread, one transaction)."""
    c.execute("CREATE TABLE IF NOT EXISTS bot_schema (version INTEGER NOT NULL)")
    row = c.execute("SELECT version FROM bot_schema").fetchone()
    version = _checked_version(0 if row is None else int(row[0]), MIGRATIONS)
    for number in range(version, len(MIGRATIONS)):
        for statement in (s.strip() for s in MIGRATIONS[number].split(";")):
            if statement:
                c.execute(statement)
    c.execute("DELETE FROM bot_schema")
    c.execute("INSERT INTO bot_schema (version) VALUES (?)", (len(MIGRATIONS),))


# --- PostgreSQL: on the games store's pool ------------------------------------------------------------


class _PostgresTables:
    def __init__(self, store: PostgresStore) -> None:
        self.store = store

    async def migrate(self) -> None:
        async def migrate(c: Any) -> None:
            await c.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await c.execute("CREATE TABLE IF NOT EXISTS bot_schema (version INTEGER NOT NULL)")
            found = await c.fetchval("SELECT MAX(version) FROM bot_schema")
            version = _checked_version(int(found or 0), POSTGRES_MIGRATIONS)
            for number in range(version, len(POSTGRES_MIGRATIONS)):
                await c.execute(POSTGRES_MIGRATIONS[number])
            await c.execute("DELETE FROM bot_schema")
            await c.execute(
                "INSERT INTO bot_schema (version) VALUES ($1)", len(POSTGRES_MIGRATIONS)
            )

        await self.store.transaction(migrate)

    async def read(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return await self.store.query(numbered(sql), args)

    async def write(self, steps: Sequence[Step]) -> list[int]:
        async def run(c: Any) -> list[int]:
            # the row count ends a command's status: "INSERT 0 1", "DELETE 3"
            return [
                int((await c.execute(numbered(sql), *a)).rsplit(" ", 1)[-1]) for sql, a in steps
            ]

        return await self.store.transaction(run)

    async def write_many(self, batches: Sequence[Batch]) -> None:
        async def run(c: Any) -> None:
            for sql, rows in batches:
                await c.executemany(numbered(sql), rows)

        await self.store.transaction(run)


def _checked_version(version: int, migrations: list[str]) -> int:
    if version > len(migrations):
        raise RuntimeError(
            f"the bot's tables are at version {version}, newer than this program ({len(migrations)})"
        )
    return version


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
