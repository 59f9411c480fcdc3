"""The choice of a games store's backend by URL.

One class keeps the games, the log, the snapshots, the outbox and the members,
`engine.host.store.GameStore`, written once over a backend that runs its SQL, with the same
guarantees on both (each write one transaction, committed before it returns, `on_commit` run
after COMMIT even for a cancelled caller):

- `engine.host.sqlite.SqliteStore`: SQLite in one file, the embedded default (`make run` needs
  nothing else);
- `engine.host.postgres.PostgresStore`: PostgreSQL through an asyncpg connection pool, the
  store several processes can share.

`open_store(url)` opens the one a URL names: `sqlite:///var/games.db` (three slashes: a path
relative to the working folder; four: an absolute one), a plain path (as before URLs), or
`postgresql://user@host/db`.
"""

from __future__ import annotations

from pathlib import Path

from engine.host.postgres import PostgresStore
from engine.host.sqlite import SqliteStore
from engine.host.store import GameStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


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
    return await SqliteStore.open(sqlite_path(url), synchronous=synchronous)
