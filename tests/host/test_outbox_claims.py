"""Outbox rows claimed by one notifier at a time (several processes on one store, issue 16),
on SQLite and on PostgreSQL: claimers racing for the same rows each get a part and no row goes
to two of them; a claim that runs out passes the rows on with the claim group they were first
taken under (the DM's idempotency key), and a row held back loses it; claims are only of the
games asked for."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.host.rows import OutboxClaim
from engine.host.storage import open_store
from tests import stores

NOW = 1_800_000_000.0
GAMES = (
    "INSERT INTO games (id, name, ruleset, status, created_at, settings, clock)"
    " VALUES (?, 'g', 'standard', 'running', 0, '{}', '{}')"
)
ROW = (
    "INSERT INTO outbox (game_id, seq, tick, nation, event, created_at) VALUES (?, 1, 1, ?,"
    ' \'{"kind":"X"}\', ?)'
)


@pytest.fixture
async def store(store_url):
    st = await open_store(store_url, synchronous="NORMAL")
    await stores.execute(st, GAMES, [(1,), (2,), (3,)])
    yield st
    await st.close()


async def _rows(store, n: int, rng: random.Random) -> None:
    await stores.execute(
        store, ROW, [(rng.choice([1, 2, 3]), rng.choice(["red", "blue"]), NOW) for _ in range(n)]
    )


def claim(owner: str, ttl: float = 60.0, games=None) -> OutboxClaim:
    return OutboxClaim(owner, ttl, None if games is None else frozenset(games))


@pytest.mark.parametrize("seed", range(3))
async def test_racing_claimers_never_take_the_same_row(store, seed):
    rng = random.Random(seed)
    await _rows(store, 300, rng)
    owners = [f"p{k}" for k in range(5)]
    taken: dict[int, str] = {}

    async def claimer(owner: str) -> None:
        while True:
            rows = await store.pending_events(limit=rng.randint(3, 40), now=NOW, claim=claim(owner))
            if not rows:
                return
            for row in rows:
                assert row.id not in taken, f"row {row.id}: {taken[row.id]} and {owner}"
                taken[row.id] = owner
            await asyncio.sleep(0)
            await store.mark_delivered([r.id for r in rows], now=NOW)

    await asyncio.gather(*(claimer(o) for o in owners))
    assert len(taken) == 300  # every row went to one claimer
    assert len(set(taken.values())) > 1  # and they shared the work
    assert await store.pending_events(now=NOW) == []


async def test_an_expired_claim_passes_the_rows_on_in_their_first_group(store):
    await _rows(store, 6, random.Random(1))
    first = await store.pending_events(now=NOW, claim=claim("a", ttl=60))
    assert len(first) == 6 and len({r.group for r in first}) == 1
    assert all(r.claimed_until == NOW + 60 for r in first)
    # a's claim runs: b gets nothing; a itself takes them again (the same group)
    assert await store.pending_events(now=NOW + 59, claim=claim("b")) == []
    again = await store.pending_events(now=NOW + 30, claim=claim("a"))
    assert [(r.id, r.group) for r in again] == [(r.id, r.group) for r in first]
    # a died: once its claim ran out, b takes the rows in a's group (the same DM key)
    assert await store.pending_events(now=NOW + 61, claim=claim("b")) == []  # renewed at +30
    taken = await store.pending_events(now=NOW + 91, claim=claim("b"))
    assert [(r.id, r.group) for r in taken] == [(r.id, r.group) for r in first]
    # rows written later get a group of their own
    await _rows(store, 2, random.Random(2))
    later = await store.pending_events(now=NOW + 200, claim=claim("c"))
    new = [r for r in later if r.id not in {f.id for f in first}]
    assert len(new) == 2 and {r.group for r in new}.isdisjoint({first[0].group})


async def test_delivered_failed_and_held_rows_leave_the_claim(store):
    await _rows(store, 3, random.Random(3))
    one, two, three = await store.pending_events(now=NOW, claim=claim("a"))
    await store.mark_delivered([one.id], now=NOW)
    await store.mark_failed([two.id], "rate limited")  # retried at once, by anyone, same group
    await store.hold([three.id], NOW + 100)  # nothing was sent: a fresh group when released
    got = await store.pending_events(now=NOW + 1, claim=claim("b"))
    assert [(r.id, r.group, r.attempts) for r in got] == [(two.id, two.group, 1)]
    await store.mark_delivered([two.id], now=NOW + 1)
    released = await store.pending_events(now=NOW + 101, claim=claim("b"))
    assert [r.id for r in released] == [three.id] and released[0].group != three.group


async def test_a_claim_takes_only_the_games_asked_for(store):
    await _rows(store, 60, random.Random(4))
    mine = await store.pending_events(now=NOW, claim=claim("a", games={1, 3}))
    assert mine and {r.game_id for r in mine} <= {1, 3}
    others = await store.pending_events(now=NOW, claim=claim("b", games={2}))
    assert others and {r.game_id for r in others} == {2}
    assert await store.pending_events(now=NOW, claim=claim("c", games=set())) == []
    assert len(mine) + len(others) == 60
    # unclaimed reading (one process alone) still sees every pending row
    assert len(await store.pending_events(now=NOW)) == 60
