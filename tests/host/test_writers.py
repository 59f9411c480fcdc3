"""The processes writing to a store, each with a heartbeat (engine/host/writers.py; issue 27,
findings 5 and 7): a second process of a name already held is refused, saying who holds it;
a bot without SI_INSTANCE must be alone; a holder that died is taken over; `si db copy`
refuses a store a bot writes to, and no bot starts while it copies. Each test runs on SQLite
and PostgreSQL; "processes" are claims with a host and pid of their own, clocks set by hand."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engine.host.copy import CopyRefused, hold_stores, release_stores
from engine.host.storage import open_store
from engine.host.writers import STALE_SECONDS, StoreInUse, Writer, this_host

T0 = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(store_url):
    opened = await open_store(store_url)
    yield opened
    await opened.close()


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], stdout=-1)
    return int(done.stdout)


async def test_a_second_process_of_a_name_already_held_is_refused_saying_who_holds_it(
    store,
) -> None:
    clock = Clock()
    first = await Writer.claim(store, "shard-0", clock=clock, host="web-1", pid=4242)
    clock.now += 12
    with pytest.raises(StoreInUse) as refused:
        await Writer.claim(store, "shard-0", clock=clock, host="web-2", pid=77)
    assert str(refused.value) == (
        "this store is in use by the bot process 'shard-0' (pid 4242 on host web-1, running"
        " since 2023-11-14 22:13:20 UTC, last heard from 12 s ago): stop that one first, or"
        " give this process a name of its own (SI_INSTANCE, si bot --instance;"
        f" docs/DEPLOY.md); a process that died is forgotten {STALE_SECONDS:.0f} s after it"
        " was last heard from (at once on its own machine)"
    )
    assert refused.value.holder == first.row
    # another name starts beside it; the first one's row is as it was
    other = await Writer.claim(store, "shard-1", clock=clock, host="web-2", pid=77)
    assert [p.name for p in await store.processes()] == ["shard-0", "shard-1"]
    assert await first.beat() and await other.beat()


async def test_a_holder_not_heard_from_is_taken_over_and_stops_when_it_wakes(store) -> None:
    clock = Clock()
    first = await Writer.claim(store, "shard-0", clock=clock, host="web-1", pid=4242)
    clock.now += STALE_SECONDS / 2
    assert await first.beat()  # heard from: a restart elsewhere is refused
    clock.now += STALE_SECONDS - 1
    with pytest.raises(StoreInUse, match="last heard from 59 s ago"):
        await Writer.claim(store, "shard-0", clock=clock, host="web-2", pid=77)
    clock.now += 2  # not heard from for longer than STALE_SECONDS: it died, or froze
    second = await Writer.claim(store, "shard-0", clock=clock, host="web-2", pid=77)
    # the first wakes (it was paused): its row is not its own any more, and it says so once
    lost: list[str] = []
    await first.keep(lost.append, every=0)
    assert first.lost and not await first.beat()
    assert lost == [
        "another process has taken over the name 'shard-0' on the store (this one was not"
        f" heard from for {STALE_SECONDS:.0f} s): stopping"
    ]
    await first.release()  # removes nothing of the new holder's
    assert [(p.host, p.pid) for p in await store.processes()] == [("web-2", 77)]
    assert await second.beat()


async def test_on_its_own_machine_a_holder_whose_process_is_gone_is_taken_over_at_once(
    store,
) -> None:
    clock = Clock()
    host, gone = this_host(), dead_pid()
    await Writer.claim(store, "shard-0", clock=clock, host=host, pid=gone)  # then SIGKILLed
    clock.now += 1
    restarted = await Writer.claim(store, "shard-0", clock=clock, host=host, pid=os.getpid() + 1)
    assert restarted.row.pid == os.getpid() + 1
    # a process of the same machine that runs is heard from (whether a pid runs is told by the
    # machine: here, that the restarted one does)
    with pytest.raises(StoreInUse, match=f"pid {os.getpid() + 1} on host"):
        await Writer.claim(
            store,
            "shard-0",
            clock=clock,
            host=host,
            pid=os.getpid() + 2,
            alive=lambda pid: pid == os.getpid() + 1,
        )


async def test_a_bot_without_an_instance_name_must_be_alone_on_its_store(store) -> None:
    clock = Clock()
    alone = await Writer.claim(store, None, clock=clock, host="web-1", pid=10)
    with pytest.raises(StoreInUse) as refused:
        await Writer.claim(store, "shard-0", clock=clock, host="web-2", pid=20)
    assert "in use by a bot process without SI_INSTANCE (pid 10 on host web-1" in str(refused.value)
    assert "runs every game by itself" in str(refused.value)
    with pytest.raises(StoreInUse, match="one bot without SI_INSTANCE runs every game"):
        await Writer.claim(store, None, clock=clock, host="web-2", pid=21)
    await alone.release()  # a clean stop: another may start at once
    named = await Writer.claim(store, "shard-0", clock=clock, host="web-2", pid=20)
    with pytest.raises(StoreInUse, match="must be alone on its store") as refused:
        await Writer.claim(store, None, clock=clock, host="web-1", pid=11)
    assert refused.value.holder == named.row


async def test_a_copy_refuses_a_store_a_bot_writes_to_and_holds_both_off_while_it_copies(
    store, make_store_url
) -> None:
    target = await open_store(await make_store_url())
    try:
        bot = await Writer.claim(store, None, host="web-1", pid=10)  # one process, no leases
        with pytest.raises(CopyRefused) as refused:
            await hold_stores(store, target)
        message = str(refused.value)
        assert message.startswith(
            "the source store is in use by a bot process without SI_INSTANCE (pid 10 on host"
            " web-1, running since "
        )
        assert "stop every bot process on it" in message and message.endswith("; nothing copied")
        assert await target.processes() == []  # the target was not claimed either
        await bot.release()
        held = await hold_stores(store, target)
        for either in (store, target):  # no bot starts on either meanwhile
            with pytest.raises(StoreInUse, match="in use by si db copy .* wait until the copy"):
                await Writer.claim(either, "shard-0", host="web-1", pid=11)
        await release_stores(held)
        assert await store.processes() == [] and await target.processes() == []
        await Writer.claim(store, "shard-0", host="web-1", pid=11)
        with pytest.raises(CopyRefused, match="the source store is in use by the bot process"):
            await hold_stores(store, target)
    finally:
        await target.close()
