"""The outbox's queries: the rows to send (read through two indexes so the rows held back are
never read) are exactly the undelivered, not given up, not still held ones, in id order; and
pruning deletes only rows delivered (or given up on and written) before its time. On SQLite and
on PostgreSQL, but for the count of SQLite's virtual machine steps."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from engine.host.sqlite import SqliteStore
from engine.host.storage import GameStore, open_store
from tests import stores

T = TypeVar("T")

NOW = 1_800_000_000.0
OLD_QUERY = (  # what pending_events meant before it was read through the two indexes
    "SELECT id FROM outbox WHERE delivered_at IS NULL AND attempts < ?"
    " AND (hold_until IS NULL OR hold_until <= ?) ORDER BY id LIMIT ?"
)


GAME = (
    "INSERT INTO games (id, name, ruleset, status, created_at, settings, clock)"
    " VALUES (1, 'g', 'standard', 'running', 0, '{}', '{}')"
)


@pytest.fixture
async def store(store_url):  # on SQLite and on PostgreSQL
    st = await open_store(store_url, synchronous="NORMAL")
    await stores.execute(st, GAME)
    yield st
    await st.close()


@pytest.fixture
async def sqlite_store(tmp_path):
    st = await SqliteStore.open(tmp_path / "outbox.db", synchronous="NORMAL")
    await stores.execute(st, GAME)
    yield st
    await st.close()


async def _fill(store: GameStore, rng: random.Random, n: int) -> None:
    """Rows in every state: delivered (long ago, lately), ready, failed, given up, held until
    before or after NOW, released."""
    rows = []
    for _ in range(n):
        state = rng.choice(["delivered", "ready", "held", "released"])
        delivered = NOW - rng.choice([60, 8 * 86400]) if state == "delivered" else None
        hold = NOW + rng.choice([-3600, -1, 0, 1, 3600]) if state == "held" else None
        attempts = rng.choice([0, 0, 0, 1, 4, 5, 7])
        rows.append(('{"kind":"X"}', NOW - 9 * 86400, delivered, attempts, hold))

    await stores.execute(
        store,
        "INSERT INTO outbox (game_id, seq, tick, nation, event, created_at, delivered_at,"
        " attempts, hold_until) VALUES (1, 1, 1, 'red', ?, ?, ?, ?, ?)",
        rows,
    )


@pytest.mark.parametrize("seed", range(6))
async def test_pending_rows_are_those_of_the_plain_query(store, seed):
    rng = random.Random(seed)
    await _fill(store, rng, 400)
    for limit in (1, 7, 50, 500):
        for max_attempts in (1, 5, 8):
            for now in (NOW - 3600, NOW, NOW + 2):
                expected = [
                    r[0] for r in await stores.query(store, OLD_QUERY, (max_attempts, now, limit))
                ]
                got = await store.pending_events(limit=limit, max_attempts=max_attempts, now=now)
                assert [r.id for r in got] == expected


async def _vm_steps(store: SqliteStore, read: Callable[[], Awaitable[T]]) -> tuple[int, T]:
    """SQLite virtual machine steps taken by `await read()` (a progress handler counts them)."""
    count = [0]

    def tick() -> int:
        count[0] += 1
        return 0

    await store.db.read(lambda c: c.set_progress_handler(tick, 1))
    try:
        result = await read()
    finally:
        await store.db.read(lambda c: c.set_progress_handler(None, 1))
    return count[0], result


async def test_the_rows_still_held_are_not_read(sqlite_store):
    """The work of finding the rows to send does not grow with the rows held back (20 or
    20,000 held rows); the query before the two indexes read every one of them. (SQLite only:
    it counts SQLite's virtual machine steps; PostgreSQL's query reads the same two partial
    indexes.)"""
    store = sqlite_store

    def add(c, n: int, hold: float | None) -> None:
        c.executemany(
            "INSERT INTO outbox (game_id, seq, tick, nation, event, created_at, hold_until)"
            " VALUES (1, 1, 1, 'red', '{}', 0, ?)",
            [(hold,)] * n,
        )

    await store.db.write(lambda c: add(c, 10, None))
    await store.db.write(lambda c: add(c, 20, NOW + 3600))
    few, rows = await _vm_steps(store, lambda: store.pending_events(now=NOW))
    assert len(rows) == 10
    await store.db.write(lambda c: add(c, 19_980, NOW + 3600))
    many, rows = await _vm_steps(store, lambda: store.pending_events(now=NOW))
    assert len(rows) == 10
    assert many < few + 200, (few, many)
    old, rows = await _vm_steps(store, lambda: store.query(OLD_QUERY, (5, NOW, 500)))
    assert len(rows) == 10 and old > 20_000


@pytest.mark.parametrize("seed", range(3))
async def test_prune_deletes_only_rows_delivered_before_its_time(store, seed):
    await _fill(store, random.Random(seed), 300)
    before = await stores.query(store, "SELECT id, delivered_at FROM outbox ORDER BY id")
    cut = NOW - 7 * 86400
    deleted = 0
    while (n := await store.prune_outbox(cut, batch=7)) == 7:
        deleted += n
    deleted += n
    after = await stores.query(store, "SELECT id, delivered_at FROM outbox ORDER BY id")
    assert after == [(i, d) for i, d in before if d is None or d >= cut]
    assert deleted == len(before) - len(after) > 0
    assert await store.prune_outbox(cut) == 0


@pytest.mark.parametrize("seed", range(3))
async def test_prune_deletes_given_up_rows_written_before_its_time(store, seed):
    """With `max_attempts`, rows given up on (never sent again) go too once written before
    the cut; rows still to send (fewer attempts, held or not) stay however old."""
    rng = random.Random(seed)
    rows = []
    for _ in range(300):
        delivered = rng.choice([None, None, NOW - 60, NOW - 8 * 86400])
        created = rng.choice([NOW - 9 * 86400, NOW - 7 * 86400 - 1, NOW - 3600])
        hold = rng.choice([None, NOW - 1, NOW + 3600])
        rows.append((created, delivered, rng.choice([0, 1, 4, 5, 7]), hold))
    await stores.execute(
        store,
        "INSERT INTO outbox (game_id, seq, tick, nation, event, created_at, delivered_at,"
        " attempts, hold_until) VALUES (1, 1, 1, 'red', '{}', ?, ?, ?, ?)",
        rows,
    )
    columns = "SELECT id, created_at, delivered_at, attempts FROM outbox ORDER BY id"
    before = await stores.query(store, columns)
    cut = NOW - 7 * 86400
    deleted = 0
    while (n := await store.prune_outbox(cut, batch=7, max_attempts=5)) == 7:
        deleted += n
    deleted += n

    def kept(created: float, delivered: float | None, attempts: int) -> bool:
        if delivered is not None:
            return delivered >= cut
        return attempts < 5 or created >= cut

    after = await stores.query(store, columns)
    assert after == [r for r in before if kept(*r[1:])]
    assert deleted == len(before) - len(after) > 0
    assert any(d is None and a >= 5 and c < cut for _, c, d, a in before)  # some went
    assert any(d is None and a >= 5 and c >= cut for _, c, d, a in after)  # some stayed
    assert await store.prune_outbox(cut, max_attempts=5) == 0
