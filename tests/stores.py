"""Raw SQL on either store backend, for tests that set up or inspect rows directly.

The tests' SQL is written once with `?` placeholders; on PostgreSQL they become `$1`, `$2`...
(the stores' own `query` takes each backend's native style)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from engine.host.postgres import PostgresStore
from engine.host.sqlite import SqliteStore
from engine.host.storage import GameStore


def native(store: GameStore, sql: str) -> str:
    """`sql` with its `?` placeholders in the store's own style."""
    if not isinstance(store, PostgresStore):
        return sql
    numbers = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)


async def query(store: GameStore, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    return await store.query(native(store, sql), tuple(args))


async def execute(store: GameStore, sql: str, rows: Sequence[Sequence[Any]] = ((),)) -> None:
    """Run one statement once per row of arguments, in one transaction."""
    params = [tuple(r) for r in rows]
    if isinstance(store, SqliteStore):
        await store.db.write(lambda c: c.executemany(sql, params).rowcount)
        return
    assert isinstance(store, PostgresStore)
    statement = native(store, sql)
    async with store.pool.acquire() as conn, conn.transaction():
        if params == [()]:
            await conn.execute(statement)
        else:
            await conn.executemany(statement, params)
