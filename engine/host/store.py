"""The games store, written once for both backends: games, the append-only log, world
snapshots, the event outbox, members, leases, the processes writing to the store and the
orders relayed between them, with versioned migrations applied at start-up.

`GameStore` holds every method: its statements, its arguments, how its rows are read and what
it keeps in memory. Its SQL is written once, with `?` parameters, in what both databases
accept. A backend (`Backend`, in engine/host/sqlite.py and engine/host/postgres.py) only runs
it, and holds what truly differs:

- how a unit of work runs (`Backend.read`, `Backend.write`): SQLite hands one job to its
  database thread (BEGIN IMMEDIATE ... COMMIT, engine/host/database.py); PostgreSQL runs it on
  a connection of its pool (`$1`, `$2`... for `?`);
- the few pieces of SQL that differ (`Connection`): row locks (`FOR UPDATE`, `FOR SHARE`,
  `SKIP LOCKED`: SQLite's write transactions run one at a time, so it needs none), the
  advisory locks, the index a query must read (`INDEXED BY`), a list of values as one
  parameter, a JSON field, a new row's id, the identities moved past copied ids;
- the schema: each backend's own migrations (`Backend.migrations`) and where it keeps its
  version.

A method's unit of work is an `async` function of a `Connection` that awaits nothing but the
connection: on SQLite its statements run at once on the database thread (the function never
suspends, so the whole transaction is one job there), on PostgreSQL each is a round trip.

Every write is one transaction, committed before the method returns; a caller cancelled while
it runs still waits for the outcome, runs its `on_commit(result)` if it committed, then
re-raises its cancellation (see `Database.write`). So a committed write is never reported as
failed, and memory kept beside the store can always be brought in line with it.

Kept in memory (a process hosting many games asks for them all the time): each game's members,
and the games' rows as last parsed. Members are written only by this class's methods, which
count a game's member writes before they hand them over and forget its members; a read's
answer is kept only if no member write (or game creation) was handed over meanwhile and, where
a read may overtake a write handed over before it (a pool: `Backend.ordered` false), none was
in flight at any moment while it ran. So the memory never holds members older than what was
committed. Games' rows are read every time, only their parsing is saved (a row whose text did
not change gives the same `GameRow`; rows are never changed in place); the list of games is
read again only when `games_version` (raised by any process's change of the games table)
moved.
"""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from engine.host.database import StoreUnusable
from engine.host.rows import (
    Fence,
    GameDump,
    GameExists,
    GameRow,
    Lease,
    LeaseHeld,
    LeaseLost,
    LogWrite,
    OutboxClaim,
    OutboxRow,
    ProcessRow,
    Refusal,
    canonical_json,
    dumps,
    filter_games,
    new_claim_group,
)

T = TypeVar("T")

Args = Sequence[Any]

GAME_COLUMNS = (
    "id, name, ruleset, status, guild_id, channel_id, created_by, created_at, settings, clock, kind"
)
PROCESS_COLUMNS = "name, role, alone, host, pid, since, beat, token"

# a number of our own for an advisory lock: claims of the processes table, one at a time
PROCESSES_LOCK = 0x5349_5052_4F43


class Connection(Protocol):
    """One backend's connection, as a unit of work uses it: statements with `?` parameters,
    and the pieces of SQL that differ between the backends. Rows are tuples; nothing returns
    a cursor."""

    # appended to a SELECT of one table's rows that the transaction changes next, or that a
    # fenced write relies on until COMMIT (row locks; empty where a write transaction holds
    # the whole database)
    for_update: str
    for_share: str

    def skip_locked(self, table: str) -> str:
        """Appended to a SELECT of rows to take: lock them and pass over those another
        transaction holds (empty where transactions run one at a time)."""
        ...

    def indexed_by(self, index: str) -> str:
        """After a table's name: read it through this index (empty where the planner picks
        it unasked)."""
        ...

    def among(self, column: str, kind: str = "bigint") -> str:
        """A condition: the column's value is one of a list, given as one parameter made by
        `values` (`kind`: the values' SQL type)."""
        ...

    def values(self, items: Iterable[Any]) -> Any:
        """The parameter of a list of values for `among`."""
        ...

    def json_text(self, column: str, key: str) -> str:
        """A JSON column's field `key` (a string), as text."""
        ...

    async def rows(self, sql: str, args: Args = ()) -> list[tuple[Any, ...]]: ...

    async def row(self, sql: str, args: Args = ()) -> tuple[Any, ...] | None: ...

    async def value(self, sql: str, args: Args = ()) -> Any:
        """The first column of the first row (None: no row)."""
        ...

    async def run(self, sql: str, args: Args = ()) -> int:
        """Run one statement; the rows it changed."""
        ...

    async def run_many(self, sql: str, rows: Sequence[Args]) -> None:
        """Run one statement once for each row of parameters."""
        ...

    async def insert(self, sql: str, args: Args) -> int:
        """Run one INSERT of one row; the id the table gave it."""
        ...

    async def exclusive(self, key: int) -> None:
        """Hold a lock of this number until the transaction ends: such transactions run one at
        a time (a no-op where every write transaction does)."""
        ...

    async def ids_copied(self, tables: Sequence[str]) -> None:
        """After rows were inserted with their own ids: later rows of these tables get ids
        past them, never back."""
        ...

    # the schema (`GameStore.migrate`)
    async def schema_version(self) -> int: ...

    async def begin_migration(self) -> None:
        """First in a migration's transaction: wait for any other process migrating."""
        ...

    async def run_script(self, script: str) -> None:
        """Run a migration's statements."""
        ...

    async def set_schema_version(self, version: int) -> None: ...


# a unit of work: an async function of a connection that awaits nothing else
Work = Callable[[Connection], Coroutine[Any, Any, T]]


class Backend(Protocol):
    """How one database runs the store's units of work."""

    # the backend's migrations, in order (`GameStore.migrate`)
    migrations: list[str]
    # whether a read handed over after a write sees it (jobs run in order, one at a time):
    # False where a read may run while a write handed over before it is under way
    ordered: bool

    def newer(self, version: int) -> str:
        """What to say of a database of a newer schema than `migrations` (one line)."""
        ...

    async def read(self, fn: Work[T], *, consistent: bool = False) -> T:
        """`fn(connection)`'s result, outside any write transaction (a cancelled caller simply
        does not get it); `consistent`: its statements all see one state of the database."""
        ...

    async def write(
        self,
        fn: Work[T],
        *,
        on_commit: Callable[[T], None] | None = None,
        settle: Callable[[], None] | None = None,
    ) -> T:
        """Run `fn(connection)` as one transaction and return its result after COMMIT; any
        error rolls it back and is raised here. A caller cancelled meanwhile still waits for
        the outcome, runs `on_commit(result)` if it committed, then re-raises its cancellation.
        `settle()` runs once the outcome is known, whatever it is."""
        ...

    async def query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Rows of one statement in the backend's own SQL and parameter style."""
        ...

    async def close(self) -> None: ...


class GameStore:
    """The games store over a backend (`SqliteStore`, `PostgresStore`)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._members: dict[int, dict[str, str]] = {}  # game -> {nation: user}, as committed
        self._member_writes: dict[int, int] = {}  # game -> member writes handed over so far
        self.member_writes = 0  # every game's member writes handed over so far
        self._members_in_flight: dict[int, int] = {}  # game -> member writes not yet settled
        self._creates = 0  # games created so far (a new game's members are written too)
        self._creates_in_flight = 0
        self._rows: dict[int, tuple[tuple[Any, ...], GameRow]] = {}  # game -> (raw row, parsed)
        self._games: tuple[int, list[GameRow]] | None = None  # (games_version, every game)
        # the lists `games` filtered out of that version, by (statuses, server, channel): the
        # ticker, the notifier and every command ask the same few questions of a list that
        # changes only when a game is created, changes status or is deleted
        self._filtered: dict[tuple[Any, ...], list[GameRow]] = {}

    async def close(self) -> None:
        await self.backend.close()

    async def query(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one read-only statement, in the backend's own SQL and parameter style
        (`?` for SQLite, `$1` for PostgreSQL): for tools and tests."""
        return await self.backend.query(sql, tuple(args))

    async def _read(self, sql: str, args: Args = ()) -> list[tuple[Any, ...]]:
        """Rows of one statement of the store's own (`?` parameters)."""
        return await self.backend.read(lambda c: c.rows(sql, args))

    async def _run(self, sql: str, args: Args = ()) -> int:
        """One statement of the store's own as a transaction; the rows it changed."""
        return await self.backend.write(lambda c: c.run(sql, args))

    # --- the schema -------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        return await self.backend.read(lambda c: c.schema_version())

    async def migrate(self) -> None:
        """Bring the schema up to date, one transaction per migration (a version is either
        wholly applied or not at all); another process migrating at the same moment is waited
        for, and then nothing is left to do."""
        migrations = self.backend.migrations
        version = await self.schema_version()
        if version > len(migrations):
            raise StoreUnusable(self.backend.newer(version))
        for number in range(version, len(migrations)):

            async def apply(c: Connection, number: int = number) -> None:
                await c.begin_migration()
                if (now := await c.schema_version()) != number:  # migrated meanwhile
                    if now > len(migrations):  # (by a newer program)
                        raise StoreUnusable(self.backend.newer(now))
                    return
                await c.run_script(migrations[number])
                await c.set_schema_version(number + 1)

            await self.backend.write(apply)

    async def _check_writable(self) -> None:
        """A write that changes nothing: a store this process may only read is found now, not
        at the first player's command."""
        await self._run("UPDATE games_version SET version = version")

    # --- games ------------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        name: str,
        ruleset: str,
        settings: dict[str, Any],
        clock: dict[str, Any],
        world_json: str,
        kind: str,
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

        async def create(c: Connection) -> int:
            game_id = await c.insert(
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
                    dumps(settings),
                    dumps(clock),
                    kind,
                ),
            )
            await c.run(
                "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at)"
                " VALUES (?, 0, 0, ?, ?, ?)",
                (game_id, world_blob, world_hash, now),
            )
            await _set_members(c, game_id, pairs, [])
            return game_id

        self._creates += 1
        self._creates_in_flight += 1

        def settle() -> None:
            self._creates_in_flight -= 1

        game_id = await self.backend.write(create, settle=settle)
        self._members.pop(game_id, None)  # ids are never reused: only to be sure
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._read(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return self._parsed(rows[0]) if rows else None

    async def games(
        self,
        *,
        status: Iterable[str] | None = None,
        guild_id: str | None = None,
        channel_id: str | None = None,
    ) -> list[GameRow]:
        """Games by status, server and channel, in id order (a new list each time). The
        whole list is read again only when the games table changed since it was last read
        (`games_version`, raised by any process's change, read first: a list newer than its
        version is only read again once more): the ticker, the AI runner, the notifier and
        every command ask. What a question filtered out of a version is kept with it."""
        cached = self._games

        async def read(c: Connection) -> tuple[int, list[tuple[Any, ...]] | None]:
            version = int(await c.value("SELECT version FROM games_version"))
            if cached is not None and cached[0] == version:
                return version, None
            return version, await c.rows(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id")

        version, raw = await self.backend.read(read)
        if raw is None:
            assert cached is not None
            rows = cached[1]
        else:
            rows = [self._parsed(r) for r in raw]
            self._games = (version, rows)
            self._filtered = {}
        key = (None if status is None else frozenset(status), guild_id, channel_id)
        found = self._filtered.get(key)
        if found is None:
            found = filter_games(rows, status, guild_id)
            if channel_id is not None:
                found = [row for row in found if row.channel_id == channel_id]
            if len(self._filtered) > 256:  # many servers and channels asked: start again
                self._filtered = {}
            self._filtered[key] = found
        return list(found)

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
        the game is gone). `on_commit` as in `Backend.write`; `fence` as in `append_many`."""

        async def update(c: Connection) -> GameRow | None:
            await _check_fence(c, game_id, fence)
            return await _update_game(c, game_id, status=status, clock=clock, settings=settings)

        return await self.backend.write(update, on_commit=on_commit)

    async def delete_game(
        self,
        game_id: int,
        *,
        on_commit: Callable[[None], None] | None = None,
        fence: Fence | None = None,
    ) -> None:
        async def delete(c: Connection) -> None:
            await _check_fence(c, game_id, fence)
            # other tables that name the game (the bot's) go with it: ON DELETE CASCADE
            for table in ("outbox", "members", "snapshots", "log", "leases", "ai_memories"):
                await c.run(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            await c.run("DELETE FROM games WHERE id = ?", (game_id,))

        settle = self._members_change(game_id)
        self._rows.pop(game_id, None)
        await self.backend.write(delete, on_commit=on_commit, settle=settle)

    # --- the log ----------------------------------------------------------------------------------

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
        else None. `on_commit` as in `Backend.write`. With a `fence` (owner, token) nothing is
        written unless it is the game's lease as stored now (else `LeaseLost`)."""
        now = time.time()
        blob = None
        if snapshot is not None:
            blob = (zlib.compress(snapshot[0].encode(), 1), snapshot[1])
        log_rows = [(game_id, w.seq, w.tick, dumps(w.entry), now) for w in writes]
        outbox_rows = [
            (game_id, w.seq, w.tick, nation, dumps(payload), now)
            for w in writes
            for nation, payload in w.events
        ]
        last = writes[-1]

        async def append(c: Connection) -> GameRow | None:
            await _check_fence(c, game_id, fence)  # a stale holder writes nothing
            await c.run_many(
                "INSERT INTO log (game_id, seq, tick, entry, created_at) VALUES (?, ?, ?, ?, ?)",
                log_rows,
            )
            if outbox_rows:
                await c.run_many(
                    "INSERT INTO outbox (game_id, seq, tick, nation, event, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    outbox_rows,
                )
            if blob is not None:
                await c.run(
                    "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, last.seq, last.tick, blob[0], blob[1], now),
                )
                # keep the first world (seq 0: the whole history is it + the log) and the newest
                await c.run(
                    "DELETE FROM snapshots WHERE game_id = ? AND seq > 0 AND seq < ?",
                    (game_id, last.seq),
                )
            if members is not None:
                await _set_members(c, game_id, *members)
            if status is None and clock is None:
                return None
            return await _update_game(c, game_id, status=status, clock=clock)

        settle = self._members_change(game_id) if members is not None else None
        return await self.backend.write(append, on_commit=on_commit, settle=settle)

    async def latest_snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """(seq, world json, hash) of the newest snapshot."""
        return await self._snapshot(game_id, "DESC")

    async def first_snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """(seq, world json, hash) of the world the game was created with (seq 0): with the
        whole log it replays the game's history."""
        return await self._snapshot(game_id, "ASC")

    async def _snapshot(self, game_id: int, order: str) -> tuple[int, str, str] | None:
        assert order in ("ASC", "DESC")
        rows = await self._read(
            f"SELECT seq, world, hash FROM snapshots WHERE game_id = ? ORDER BY seq {order}"
            " LIMIT 1",
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

        async def read(c: Connection) -> Any:
            row = await c.row(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            snap = await c.row(
                "SELECT seq, world, hash FROM snapshots WHERE game_id = ?"
                " ORDER BY seq DESC LIMIT 1",
                (game_id,),
            )
            if row is None or snap is None:
                return None
            entries = await c.rows(
                "SELECT seq, entry FROM log WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, snap[0]),
            )
            return row, snap, entries

        found = await self.backend.read(read, consistent=True)
        if found is None:
            return None
        row, snap, entries = found

        def decode() -> tuple[tuple[int, str, str], list[tuple[int, dict[str, Any]]]]:
            snapshot = (int(snap[0]), zlib.decompress(snap[1]).decode(), snap[2])
            return snapshot, [(int(s), json.loads(e)) for s, e in entries]

        # in a thread, not on the event loop: a long log is thousands of entries
        snapshot, decoded = await asyncio.to_thread(decode)
        return self._parsed(row), snapshot, decoded

    async def log_after(self, game_id: int, seq: int) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._read(
            "SELECT seq, entry FROM log WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, seq)
        )
        return [(int(r[0]), json.loads(r[1])) for r in rows]

    async def last_seq(self, game_id: int) -> int:
        rows = await self._read(
            "SELECT COALESCE(MAX(seq), 0) FROM log WHERE game_id = ?", (game_id,)
        )
        return int(rows[0][0]) if rows else 0

    # --- members ----------------------------------------------------------------------------------

    async def memberships(self, user_id: str) -> list[tuple[int, str]]:
        rows = await self._read(
            "SELECT game_id, nation FROM members WHERE user_id = ? ORDER BY game_id, nation",
            (user_id,),
        )
        return [(int(r[0]), r[1]) for r in rows]

    async def add_members(self, game_id: int, pairs: Iterable[tuple[str, str]]) -> None:
        """Record who plays which nation: (nation, user id) pairs."""
        added = list(pairs)

        async def add(c: Connection) -> None:
            await _set_members(c, game_id, added, [])

        settle = self._members_change(game_id)
        await self.backend.write(add, settle=settle)

    async def members(self, game_id: int) -> dict[str, str]:
        """{nation: user id} of the game's players (from memory once read)."""
        known = self._members.get(game_id)
        if known is not None:
            return dict(known)
        quiet = self._members_quiet(game_id)
        writes = (self._member_writes.get(game_id, 0), self._creates)
        rows = await self._read("SELECT nation, user_id FROM members WHERE game_id = ?", (game_id,))
        found = {r[0]: r[1] for r in rows}
        # kept only if no member write was handed over meanwhile, nor (where a read may
        # overtake a write handed over before it) ran at any moment of the read
        unchanged = (self._member_writes.get(game_id, 0), self._creates) == writes
        if unchanged and (self.backend.ordered or (quiet and self._members_quiet(game_id))):
            self._members[game_id] = found
        return dict(found)

    def members_version(self, game_id: int) -> int:
        """A number that changes whenever the game's members may have changed (a write that
        touches them was handed to the database): callers can keep what they worked out from
        the members until it changes."""
        return self._member_writes.get(game_id, 0)

    def _members_quiet(self, game_id: int) -> bool:
        return not self._members_in_flight.get(game_id) and not self._creates_in_flight

    def _members_change(self, game_id: int) -> Callable[[], None]:
        """Called before a write that may change the game's members is handed over; returns
        what to call once its outcome is known."""
        self._member_writes[game_id] = self._member_writes.get(game_id, 0) + 1
        self.member_writes += 1
        self._members_in_flight[game_id] = self._members_in_flight.get(game_id, 0) + 1
        self._members.pop(game_id, None)

        def settle() -> None:
            left = self._members_in_flight[game_id] - 1
            if left:
                self._members_in_flight[game_id] = left
            else:
                del self._members_in_flight[game_id]
            if not self.backend.ordered:
                self._members.pop(game_id, None)

        return settle

    # --- leases: which process runs a game --------------------------------------------------------

    async def acquire_lease(self, game_id: int, owner: str, *, now: float, ttl: float) -> int:
        """Take the game for `owner` until `now + ttl` and return the fencing token: a new one
        (the stored one plus one) at every acquisition, also by the same owner after a restart,
        so any earlier holder's fenced writes are refused from now on. Raises `LeaseHeld` while
        another owner's lease runs."""

        async def take(c: Connection) -> int:
            while True:
                # the row locked until COMMIT: fenced writes of the old holder wait for it
                row = await c.row(
                    f"SELECT owner, token, expires FROM leases WHERE game_id = ?{c.for_update}",
                    (game_id,),
                )
                if row is None:
                    if await c.run(
                        "INSERT INTO leases (game_id, owner, token, expires) VALUES (?, ?, 1, ?)"
                        " ON CONFLICT (game_id) DO NOTHING",
                        (game_id, owner, now + ttl),
                    ):
                        return 1
                    continue  # another process inserted it meanwhile: read it again
                held_by, token, expires = row[0], int(row[1]), float(row[2])
                if held_by != owner and expires > now:
                    raise LeaseHeld(game_id, held_by, expires)
                await c.run(
                    "UPDATE leases SET owner = ?, token = ?, expires = ?, wanted_by = NULL"
                    " WHERE game_id = ?",
                    (owner, token + 1, now + ttl, game_id),
                )
                return token + 1

        return await self.backend.write(take)

    async def renew_leases(
        self, owner: str, tokens: dict[int, int], *, now: float, ttl: float
    ) -> set[int]:
        """Extend the owner's leases it still holds with these tokens; returns the games whose
        lease it lost (taken over, or deleted)."""
        if not tokens:
            return set()

        async def renew(c: Connection) -> set[int]:
            held = await c.rows(
                f"SELECT game_id, token FROM leases WHERE owner = ? AND {c.among('game_id')}"
                f" ORDER BY game_id{c.for_update}",
                (owner, c.values(sorted(tokens))),
            )
            kept = [int(g) for g, token in held if tokens.get(int(g)) == int(token)]
            if kept:
                await c.run(
                    f"UPDATE leases SET expires = ? WHERE {c.among('game_id')}",
                    (now + ttl, c.values(kept)),
                )
            return set(tokens) - set(kept)

        return await self.backend.write(renew)

    async def want_lease(self, game_id: int, owner: str) -> None:
        """Ask the game's holder for it back (see `wanted_leases`): `owner` serves its server."""
        await self._run(
            "UPDATE leases SET wanted_by = ? WHERE game_id = ? AND owner != ?",
            (owner, game_id, owner),
        )

    async def wanted_leases(self, owner: str) -> set[int]:
        """The games `owner` holds that another process has asked for back."""
        rows = await self._read(
            "SELECT game_id FROM leases WHERE owner = ? AND wanted_by IS NOT NULL"
            " AND wanted_by != owner",
            (owner,),
        )
        return {int(r[0]) for r in rows}

    async def expired_leases(self, before: float) -> list[Lease]:
        """Leases that ran out before `before`: games whose process died (or was cut off) and
        that nobody runs now."""
        rows = await self._read(
            "SELECT game_id, owner, token, expires FROM leases WHERE expires < ? ORDER BY game_id",
            (before,),
        )
        return [_lease(r) for r in rows]

    async def release_lease(
        self, game_id: int, owner: str, token: int, *, now: float | None = None
    ) -> None:
        """Give the game up (a clean shutdown, a hand-back): its lease ends `now`, so another
        process may take it at once. The row stays: the next holder's token is higher still."""
        at = time.time() if now is None else now
        await self._run(
            "UPDATE leases SET expires = CASE WHEN expires < ? THEN expires ELSE ? END,"
            " wanted_by = NULL WHERE game_id = ? AND owner = ? AND token = ?",
            (at, at, game_id, owner, token),
        )

    async def live_leases(self, now: float) -> list[Lease]:
        """The leases running at `now`: which process runs which game."""
        rows = await self._read(
            "SELECT game_id, owner, token, expires FROM leases WHERE expires > ?", (now,)
        )
        return [_lease(r) for r in rows]

    async def lease(self, game_id: int) -> Lease | None:
        rows = await self._read(
            "SELECT game_id, owner, token, expires FROM leases WHERE game_id = ?", (game_id,)
        )
        return _lease(rows[0]) if rows else None

    # --- AI seats' memories (engine/host/runner.py) ------------------------------------------------

    async def ai_memory(self, game_id: int, nation: str) -> dict[str, Any] | None:
        """What an AI seat carried after its last decision (`Ai.save`), if it stored any."""
        rows = await self._read(
            "SELECT memory FROM ai_memories WHERE game_id = ? AND nation = ?", (game_id, nation)
        )
        return json.loads(rows[0][0]) if rows else None

    async def set_ai_memory(self, game_id: int, nation: str, memory: dict[str, Any]) -> None:
        await self._run(
            "INSERT INTO ai_memories (game_id, nation, memory) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, nation) DO UPDATE SET memory = excluded.memory",
            (game_id, nation, json.dumps(memory, separators=(",", ":"), sort_keys=True)),
        )

    # --- the processes writing to the store (engine/host/writers.py) ------------------------------

    async def claim_process(self, mine: ProcessRow, refusal: Refusal) -> ProcessRow | None:
        """In one transaction (one claim at a time): the row of the process that stops `mine`
        (`refusal` of every row stored), written nothing; or none, and `mine` is written in
        place of any row of its name."""

        async def claim(c: Connection) -> ProcessRow | None:
            await c.exclusive(PROCESSES_LOCK)
            rows = [
                _process_row(r) for r in await c.rows(f"SELECT {PROCESS_COLUMNS} FROM processes")
            ]
            held = refusal(rows)
            if held is None:
                await c.run("DELETE FROM processes WHERE name = ?", (mine.name,))
                await c.run(
                    f"INSERT INTO processes ({PROCESS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        mine.name,
                        mine.role,
                        mine.alone,
                        mine.host,
                        mine.pid,
                        mine.since,
                        mine.beat,
                        mine.token,
                    ),
                )
            return held

        return await self.backend.write(claim)

    async def beat_process(self, name: str, token: str, now: float) -> bool:
        """The process's heartbeat; False if its row is no longer its own (taken over)."""
        return bool(
            await self._run(
                "UPDATE processes SET beat = ? WHERE name = ? AND token = ?", (now, name, token)
            )
        )

    async def release_process(self, name: str, token: str) -> None:
        await self._run("DELETE FROM processes WHERE name = ? AND token = ?", (name, token))

    async def processes(self) -> list[ProcessRow]:
        rows = await self._read(f"SELECT {PROCESS_COLUMNS} FROM processes ORDER BY name")
        return [_process_row(r) for r in rows]

    # --- orders relayed between processes ---------------------------------------------------------

    async def relay_put(
        self, request_id: int, game_id: int, request: dict[str, Any], *, now: float
    ) -> None:
        """Leave a request for the process that runs the game (`relay_take`), under an id the
        requester chose (so it can withdraw it even if it was cancelled while writing it)."""
        await self._run(
            "INSERT INTO relay (id, game_id, request, created_at) VALUES (?, ?, ?, ?)",
            (request_id, game_id, dumps(request), now),
        )

    async def relay_take(
        self, owner: str, games: Iterable[int], *, now: float, limit: int = 50
    ) -> list[tuple[int, int, dict[str, Any]]]:
        """The open requests for these games (those `owner` runs: its lease on them runs at
        `now`), oldest first, taken by it in the same transaction: (id, game, request). A
        request taken is never taken again (nor, being taken, by another process at once)."""
        wanted = sorted(set(games))

        async def take(c: Connection) -> list[tuple[int, int, dict[str, Any]]]:
            rows = await c.rows(
                "SELECT id, game_id, request FROM relay WHERE taken_by IS NULL"
                f" AND answered_at IS NULL AND {c.among('game_id')}"
                " AND EXISTS (SELECT 1 FROM leases AS l WHERE l.game_id = relay.game_id"
                " AND l.owner = ? AND l.expires > ?) ORDER BY created_at, id LIMIT ?"
                f"{c.skip_locked('relay')}",
                (c.values(wanted), owner, now, limit),
            )
            if rows:
                await c.run(
                    f"UPDATE relay SET taken_by = ?, taken_at = ? WHERE {c.among('id')}",
                    (owner, now, c.values(int(r[0]) for r in rows)),
                )
            return [(int(r[0]), int(r[1]), json.loads(r[2])) for r in rows]

        return await self.backend.write(take)

    async def relay_answer(self, request_id: int, answer: dict[str, Any], *, now: float) -> None:
        await self._run(
            "UPDATE relay SET answer = ?, answered_at = ? WHERE id = ?",
            (dumps(answer), now, request_id),
        )

    async def relay_cancel(self, request_id: int, *, now: float) -> bool:
        """Withdraw a request nobody has taken yet (True); False: it was taken meanwhile."""
        changed = await self._run(
            "UPDATE relay SET answer = ?, answered_at = ?"
            " WHERE id = ? AND taken_by IS NULL AND answered_at IS NULL",
            (dumps({"withdrawn": True}), now, request_id),
        )
        return changed == 1

    async def relay_state(self, request_id: int) -> tuple[str | None, dict[str, Any] | None]:
        """(who took the request, its answer), each None while there is none."""
        rows = await self._read("SELECT taken_by, answer FROM relay WHERE id = ?", (request_id,))
        if not rows:
            return None, None
        return rows[0][0], None if rows[0][1] is None else json.loads(rows[0][1])

    async def relay_prune(self, before: float) -> int:
        """Delete the requests made before `before` (answered or not: long given up on)."""
        return await self._run("DELETE FROM relay WHERE created_at < ?", (before,))

    # --- the outbox -------------------------------------------------------------------------------

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
        claimer holds or is taking, and those returned are the claimer's (in the same
        transaction)."""
        now = time.time() if now is None else now
        until = None if claim is None else now + claim.ttl
        group = new_claim_group()

        async def pick(c: Connection) -> list[OutboxRow]:
            # `own`: the row's event came of an entry the recipient nation itself made (its
            # own command), whose reply told it already
            columns = (
                "SELECT id, game_id, seq, tick, nation, event, attempts, EXISTS (SELECT 1"
                " FROM log WHERE log.game_id = o.game_id AND log.seq = o.seq"
                f" AND {c.json_text('log.entry', 'kind')} = 'command'"
                f" AND {c.json_text('log.entry', 'nation')} = o.nation) AS own, claim_group"
                " FROM outbox AS o"
            )
            mine, args = "", []
            if claim is not None:
                mine = " AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)"
                args = [now, claim.owner]
                if claim.games is not None:
                    mine += f" AND {c.among('game_id')}"
                    args.append(c.values(sorted(claim.games)))
            lock = "" if claim is None else c.skip_locked("o")
            # two index range reads (outbox_ready, outbox_held) instead of one scan of every
            # undelivered row: the rows still held are never read; the first `limit` of both
            rows = await c.rows(
                f"SELECT * FROM ({columns}{c.indexed_by('outbox_ready')}"
                " WHERE delivered_at IS NULL AND hold_until IS NULL"
                f" AND attempts < ?{mine} ORDER BY id LIMIT ?{lock}) AS ready"
                f" UNION ALL SELECT * FROM ({columns}{c.indexed_by('outbox_held')}"
                " WHERE delivered_at IS NULL AND hold_until IS NOT NULL AND hold_until <= ?"
                f" AND attempts < ?{mine} ORDER BY id LIMIT ?{lock}) AS released"
                " ORDER BY id LIMIT ?",
                (max_attempts, *args, limit, now, max_attempts, *args, limit, limit),
            )
            if claim is not None and rows:
                await c.run(
                    "UPDATE outbox SET claimed_by = ?, claimed_until = ?,"
                    f" claim_group = COALESCE(claim_group, ?) WHERE {c.among('id')}",
                    (claim.owner, until, group, c.values(int(r[0]) for r in rows)),
                )
                rows = [(*r[:8], group if r[8] is None else r[8]) for r in rows]
            # the events parsed where the rows were read (SQLite: its thread, not the event
            # loop: a pass of hundreds of rows after a restart)
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

        if claim is None:
            return await self.backend.read(pick)
        # (a write transaction: nobody claims between the read and the take)
        return await self.backend.write(pick)

    async def mark_delivered(self, ids: Iterable[int], *, now: float | None = None) -> None:
        """Mark rows delivered (at `now`, the time `prune_outbox` goes by)."""
        at = time.time() if now is None else now
        await self._update_rows("UPDATE outbox SET delivered_at = ?", (at,), ids)

    async def mark_failed(
        self, ids: Iterable[int], error: str, *, retry_at: float | None = None
    ) -> None:
        """Count a failed attempt. With `retry_at`, the rows are not tried again before then
        (Discord's `retry_after`, a back-off); they keep their claim group, so the DM goes
        again under the same idempotency key."""
        await self._update_rows(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?, claimed_by = NULL,"
            " claimed_until = NULL, hold_until = COALESCE(CAST(? AS DOUBLE PRECISION), hold_until)",
            (error[:500], retry_at),
            ids,
        )

    async def hold(self, ids: Iterable[int], until: float) -> None:
        """Keep these rows out of `pending_events` until `until` (quiet hours, closed DMs)."""
        await self._update_rows(
            "UPDATE outbox SET hold_until = ?, claimed_by = NULL, claimed_until = NULL,"
            " claim_group = NULL",
            (until,),
            ids,
        )

    async def _update_rows(self, update: str, args: Args, ids: Iterable[int]) -> None:
        """`update` (an UPDATE of the outbox without its WHERE) on the rows of these ids."""
        rows = [int(i) for i in ids]
        if not rows:
            return

        async def run(c: Connection) -> int:
            return await c.run(f"{update} WHERE {c.among('id')}", (*args, c.values(rows)))

        await self.backend.write(run)

    async def prune_outbox(
        self, before: float, *, batch: int = 5000, max_attempts: int | None = None
    ) -> int:
        """Delete outbox rows delivered before `before` (a timestamp) and, with
        `max_attempts`, the rows given up on (that many failed attempts: never sent again)
        written before `before`; at most `batch` rows a transaction (call again while it
        returns `batch`). Rows still to send (pending, held) are never deleted. Returns how
        many were deleted."""

        async def prune(c: Connection) -> int:
            deleted = await c.run(
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox"
                " WHERE delivered_at IS NOT NULL AND delivered_at < ? LIMIT ?)",
                (before, batch),
            )
            if max_attempts is not None and deleted < batch:
                deleted += await c.run(
                    "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox"
                    " WHERE delivered_at IS NULL AND attempts >= ? AND created_at < ? LIMIT ?)",
                    (max_attempts, before, batch - deleted),
                )
            return deleted

        return await self.backend.write(prune)

    async def release_held(self, user_id: str) -> int:
        """Release every held row for the nations this user plays (e.g. after the player
        changed the quiet hours or opened the DMs); returns how many."""
        return await self._run(
            "UPDATE outbox SET hold_until = NULL WHERE delivered_at IS NULL"
            " AND hold_until IS NOT NULL AND EXISTS (SELECT 1 FROM members m"
            " WHERE m.user_id = ? AND m.game_id = outbox.game_id AND m.nation = outbox.nation)",
            (str(user_id),),
        )

    # --- copying a game whole (`si db copy`) ------------------------------------------------------

    async def export_game(self, game_id: int) -> GameDump | None:
        """Every row of the game (but its lease), read in one go (one consistent state); None
        if there is no such game."""

        async def read(c: Connection) -> Any:
            game = await c.row(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            if game is None:
                return None
            return (
                game,
                await c.rows(
                    "SELECT seq, tick, entry, created_at FROM log WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                ),
                await c.rows(
                    "SELECT seq, tick, world, hash, created_at FROM snapshots"
                    " WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                ),
                await c.rows(
                    "SELECT id, seq, tick, nation, event, created_at, delivered_at, attempts,"
                    " last_error, hold_until FROM outbox WHERE game_id = ? ORDER BY id",
                    (game_id,),
                ),
                await c.rows(
                    "SELECT nation, user_id FROM members WHERE game_id = ? ORDER BY nation",
                    (game_id,),
                ),
            )

        found = await self.backend.read(read, consistent=True)
        if found is None:
            return None
        game, log, snaps, outbox, members = found
        return GameDump(
            game=(
                int(game[0]),
                *game[1:7],
                float(game[7]),
                canonical_json(game[8]),
                canonical_json(game[9]),
                game[10],
            ),
            log=[(int(s), int(t), canonical_json(e), float(at)) for s, t, e, at in log],
            snapshots=[
                (int(s), int(t), zlib.decompress(w).decode(), h, float(at))
                for s, t, w, h, at in snaps
            ],
            outbox=[
                (int(r[0]), int(r[1]), int(r[2]), r[3], canonical_json(r[4]), *r[5:])
                for r in outbox
            ],
            members=[(n, u) for n, u in members],
        )

    async def import_game(self, dump: GameDump) -> None:
        """Write a game exported from a store (this one's backend or the other) with the same
        game id, seqs and outbox ids, in one transaction: all of it or nothing. Raises
        `GameExists` if this store has a game of that id; outbox ids taken already fail the
        whole transaction. Later games and outbox rows get ids after the copied ones."""
        game_id = dump.id
        snaps = [
            (game_id, s, t, zlib.compress(w.encode(), 1), h, at)
            for s, t, w, h, at in dump.snapshots
        ]

        async def write(c: Connection) -> None:
            if await c.row("SELECT 1 FROM games WHERE id = ?", (game_id,)):
                raise GameExists(game_id)
            await c.run(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                dump.game,
            )
            await c.run_many(
                "INSERT INTO log (game_id, seq, tick, entry, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, *r) for r in dump.log],
            )
            await c.run_many(
                "INSERT INTO snapshots (game_id, seq, tick, world, hash, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                snaps,
            )
            await c.run_many(
                "INSERT INTO outbox (id, game_id, seq, tick, nation, event, created_at,"
                " delivered_at, attempts, last_error, hold_until)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(r[0], game_id, *r[1:]) for r in dump.outbox],
            )
            await _set_members(c, game_id, list(dump.members), [])
            await c.ids_copied(("games", "outbox"))

        self._rows.pop(game_id, None)
        settle = self._members_change(game_id)
        await self.backend.write(write, settle=settle)


# --- pieces of units of work ----------------------------------------------------------------------


async def _check_fence(c: Connection, game_id: int, fence: Fence | None) -> None:
    """Inside a write's transaction: refuse it (rolling everything back) unless the fence is
    the game's lease as stored now. The lease row is locked (`for_share`) until COMMIT, so a
    process taking the game over waits for this write, and this check waits for a take-over
    under way and then reads the new holder."""
    if fence is None:
        return
    row = await c.row(f"SELECT owner, token FROM leases WHERE game_id = ?{c.for_share}", (game_id,))
    if row is None or (row[0], int(row[1])) != fence:
        raise LeaseLost(game_id)


async def _update_game(
    c: Connection,
    game_id: int,
    *,
    status: str | None = None,
    clock: dict | None = None,
    settings: dict | None = None,
) -> GameRow | None:
    """Change what is given and return the row as it is now (None if there is no game)."""
    sets: list[str] = []
    args: list[Any] = []
    if status is not None:
        sets.append("status = ?")
        args.append(status)
    if clock is not None:
        sets.append("clock = ?")
        args.append(dumps(clock))
    if settings is not None:
        sets.append("settings = ?")
        args.append(dumps(settings))
    if sets:
        await c.run(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*args, game_id))
    row = await c.row(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    return _game_row(row) if row is not None else None


async def _set_members(
    c: Connection, game_id: int, added: list[tuple[str, str]], removed: list[str]
) -> None:
    if removed:
        await c.run(
            f"DELETE FROM members WHERE game_id = ? AND {c.among('nation', 'text')}",
            (game_id, c.values(removed)),
        )
    if added:
        await c.run_many(
            "INSERT INTO members (game_id, nation, user_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, nation) DO UPDATE SET user_id = excluded.user_id",
            [(game_id, nation, user) for nation, user in added],
        )


def _game_row(row: tuple[Any, ...]) -> GameRow:
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


def _lease(r: tuple[Any, ...]) -> Lease:
    return Lease(int(r[0]), r[1], int(r[2]), float(r[3]))


def _process_row(r: tuple[Any, ...]) -> ProcessRow:
    return ProcessRow(
        str(r[0]), str(r[1]), bool(r[2]), str(r[3]), int(r[4]), float(r[5]), float(r[6]), str(r[7])
    )
