"""The games store's two backends stay one store: `GameStore` (engine/host/store.py) writes
every query once, so each backend must offer the same operations to run it, and its
migrations (written per backend) must end in the same tables and columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.host.postgres import PostgresBackend, PostgresConnection, PostgresStore
from engine.host.sqlite import SqliteBackend, SqliteConnection, SqliteStore
from engine.host.store import Backend, Connection
from engine.interface.kind import FIRST_KIND
from tests import pg

# where each backend keeps its own bookkeeping (not the store's tables)
OWN_TABLES = {"sqlite_sequence", "schema_version"}


def _names(cls: type) -> set[str]:
    """The public names of a class, or of a protocol (with its attributes' annotations)."""
    names = {n for n in vars(cls) if not n.startswith("_")}
    names |= {n for n in getattr(cls, "__annotations__", {}) if not n.startswith("_")}
    return names


def test_both_backends_offer_the_operations_the_store_runs_on_and_no_others():
    assert _names(SqliteConnection) == _names(PostgresConnection) == _names(Connection)
    # (PostgreSQL's also lends its transactions to the bot's tables: bot/store.py)
    assert _names(Backend) <= _names(SqliteBackend)
    assert _names(Backend) <= _names(PostgresBackend)


async def _sqlite_columns(store: SqliteStore) -> dict[str, dict[str, tuple[bool, Any]]]:
    tables = [
        r[0] for r in await store.query("SELECT name FROM sqlite_master WHERE type = 'table'")
    ]
    found: dict[str, dict[str, tuple[bool, Any]]] = {}
    for table in tables:
        found[table] = {
            name: (bool(notnull) or pk > 0, default)
            for _, name, _, notnull, default, pk in await store.query(f"PRAGMA table_info({table})")
        }
    return found


async def _postgres_columns(store: PostgresStore) -> dict[str, dict[str, tuple[bool, Any]]]:
    found: dict[str, dict[str, tuple[bool, Any]]] = {}
    for table, name, nullable, default in await store.query(
        "SELECT table_name, column_name, is_nullable, column_default FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
    ):
        found.setdefault(table, {})[name] = (nullable == "NO", default)
    return found


async def test_both_backends_migrate_to_the_same_tables_and_columns(
    tmp_path: Path, pg_server: pg.Server
):
    sqlite = await SqliteStore.open(tmp_path / "games.db", synchronous="NORMAL")
    url = await pg_server.new_database()
    postgres = await PostgresStore.open(url)
    try:
        mine = await _sqlite_columns(sqlite)
        theirs = await _postgres_columns(postgres)
    finally:
        await sqlite.close()
        await postgres.close()
        await pg_server.drop_database(url)
    assert set(mine) - OWN_TABLES == set(theirs) - OWN_TABLES
    for table in set(mine) - OWN_TABLES:
        # the same columns, each NOT NULL (or a key) on both or on neither
        shape = {name: required for name, (required, _) in mine[table].items()}
        assert shape == {name: required for name, (required, _) in theirs[table].items()}, table
    # a game stored before games had kinds is of the first kind on both
    assert FIRST_KIND in str(mine["games"]["kind"][1])
    assert FIRST_KIND in str(theirs["games"]["kind"][1])
