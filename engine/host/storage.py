"""The one interface of a games store, and the choice of its backend by URL.

Two classes keep the games, the log, the snapshots, the outbox and the members, with the same
async API and the same guarantees (each write one transaction, committed before it returns,
`on_commit` run after COMMIT even for a cancelled caller):

- `engine.host.store.Store`: SQLite in one file, the embedded default (`make run` needs nothing
  else);
- `engine.host.postgres.PostgresStore`: PostgreSQL through an asyncpg connection pool, the
  store several processes can share.

`GameStore` is what the service, the notifier and the tests may use of either; mypy checks
below that both classes satisfy it. `open_store(url)` opens the one a URL names:
`sqlite:///var/games.db` (three slashes: a path relative to the working folder;
four: an absolute one), a plain path (as before URLs), or `postgresql://user@host/db`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from engine.host.postgres import PostgresStore
from engine.host.store import (
    Fence,
    GameDump,
    GameRow,
    Lease,
    LogWrite,
    OutboxClaim,
    OutboxRow,
    ProcessRow,
    Refusal,
    Store,
)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


class GameStore(Protocol):
    """What callers may use of a games store, whichever its backend."""

    async def close(self) -> None: ...

    async def query(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one read-only statement, in the backend's own SQL and parameter style
        (`?` for SQLite, `$1` for PostgreSQL): for tools and tests."""
        ...

    async def schema_version(self) -> int: ...

    async def migrate(self) -> None: ...

    # games
    async def create_game(
        self,
        *,
        name: str,
        ruleset: str,
        settings: dict[str, Any],
        clock: dict[str, Any],
        world_json: str,
        kind: str = ...,
        world_hash: str,
        guild_id: str | None = None,
        channel_id: str | None = None,
        created_by: str | None = None,
        status: str = ...,
        members: Iterable[tuple[str, str]] = (),
    ) -> int: ...

    async def game(self, game_id: int) -> GameRow | None: ...

    async def games(
        self, *, status: Iterable[str] | None = None, guild_id: str | None = None
    ) -> list[GameRow]: ...

    async def update_game(
        self,
        game_id: int,
        *,
        status: str | None = None,
        clock: dict | None = None,
        settings: dict | None = None,
        on_commit: Callable[[GameRow | None], None] | None = None,
        fence: Fence | None = None,
    ) -> GameRow | None: ...

    async def delete_game(
        self,
        game_id: int,
        *,
        on_commit: Callable[[None], None] | None = None,
        fence: Fence | None = None,
    ) -> None: ...

    # the log and the snapshots
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
    ) -> GameRow | None: ...

    async def latest_snapshot(self, game_id: int) -> tuple[int, str, str] | None: ...

    async def first_snapshot(self, game_id: int) -> tuple[int, str, str] | None: ...

    async def load(
        self, game_id: int
    ) -> tuple[GameRow, tuple[int, str, str], list[tuple[int, dict[str, Any]]]] | None: ...

    async def log_after(self, game_id: int, seq: int) -> list[tuple[int, dict[str, Any]]]: ...

    async def last_seq(self, game_id: int) -> int: ...

    # members
    async def memberships(self, user_id: str) -> list[tuple[int, str]]: ...

    async def add_members(self, game_id: int, pairs: Iterable[tuple[str, str]]) -> None: ...

    async def members(self, game_id: int) -> dict[str, str]: ...

    def members_version(self, game_id: int) -> int: ...

    # leases: which process runs a game (several processes on one store)
    async def acquire_lease(self, game_id: int, owner: str, *, now: float, ttl: float) -> int: ...

    async def renew_leases(
        self, owner: str, tokens: dict[int, int], *, now: float, ttl: float
    ) -> set[int]: ...

    async def release_lease(
        self, game_id: int, owner: str, token: int, *, now: float | None = None
    ) -> None: ...

    async def lease(self, game_id: int) -> Lease | None: ...

    async def want_lease(self, game_id: int, owner: str) -> None: ...

    async def live_leases(self, now: float) -> list[Lease]: ...

    async def wanted_leases(self, owner: str) -> set[int]: ...

    async def expired_leases(self, before: float) -> list[Lease]: ...

    # the processes writing to the store, each with a heartbeat (engine/host/writers.py)
    async def claim_process(self, mine: ProcessRow, refusal: Refusal) -> ProcessRow | None: ...

    async def beat_process(self, name: str, token: str, now: float) -> bool: ...

    async def release_process(self, name: str, token: str) -> None: ...

    async def processes(self) -> list[ProcessRow]: ...

    # orders relayed between processes
    async def relay_put(
        self, request_id: int, game_id: int, request: dict[str, Any], *, now: float
    ) -> None: ...

    async def relay_take(
        self, owner: str, games: Iterable[int], *, now: float, limit: int = 50
    ) -> list[tuple[int, int, dict[str, Any]]]: ...

    async def relay_answer(
        self, request_id: int, answer: dict[str, Any], *, now: float
    ) -> None: ...

    async def relay_cancel(self, request_id: int, *, now: float) -> bool: ...

    async def relay_state(self, request_id: int) -> tuple[str | None, dict[str, Any] | None]: ...

    async def relay_prune(self, before: float) -> int: ...

    # the outbox
    async def pending_events(
        self,
        *,
        limit: int = 500,
        max_attempts: int = 5,
        now: float | None = None,
        claim: OutboxClaim | None = None,
    ) -> list[OutboxRow]: ...

    async def mark_delivered(self, ids: Iterable[int], *, now: float | None = None) -> None: ...

    async def mark_failed(
        self, ids: Iterable[int], error: str, *, retry_at: float | None = None
    ) -> None: ...

    async def hold(self, ids: Iterable[int], until: float) -> None: ...

    async def prune_outbox(
        self, before: float, *, batch: int = 5000, max_attempts: int | None = None
    ) -> int: ...

    async def release_held(self, user_id: str) -> int: ...

    # copying a game whole, with its ids (`si db copy`: engine/host/copy.py)
    async def export_game(self, game_id: int) -> GameDump | None: ...

    async def import_game(self, dump: GameDump) -> None: ...


def backend_of(url: str | Path) -> str:
    """ "postgresql" or "sqlite": which backend a database URL (or plain path) names."""
    text = str(url)
    if text.startswith(POSTGRES_SCHEMES):
        return "postgresql"
    if "://" in text and not text.startswith(SQLITE_SCHEME):
        raise ValueError(
            f"unknown database URL {text!r}: use sqlite:///path, a path, or postgresql://..."
        )
    return "sqlite"


def sqlite_path(url: str | Path) -> str:
    """The file (or ":memory:") of a `sqlite:///` URL or a plain path."""
    text = str(url)
    return text[len(SQLITE_SCHEME) :] if text.startswith(SQLITE_SCHEME) else text


async def open_store(url: str | Path, *, synchronous: str = "FULL") -> GameStore:
    """Open (and migrate) the store a URL names. `synchronous` is SQLite's durability setting
    (FULL, NORMAL, EXTRA); PostgreSQL's comes from its server's configuration."""
    if backend_of(url) == "postgresql":
        return await PostgresStore.open(str(url))
    return await Store.open(sqlite_path(url), synchronous=synchronous)


def _sqlite_is_a_game_store(store: Store) -> GameStore:
    return store  # mypy: Store satisfies GameStore


def _postgres_is_a_game_store(store: PostgresStore) -> GameStore:
    return store  # mypy: PostgresStore satisfies GameStore
