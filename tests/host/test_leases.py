"""Several processes on one store: each game is run by the holder of its lease, and every write
is fenced with the lease's token, so a process that lost a game (paused past its lease, cut
off, restarted elsewhere) writes nothing (issue 16). Two services on one store (SQLite and
PostgreSQL) stand in for two processes; their clocks are set by hand."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from engine.errors import CommandError, GameError
from engine.host.rows import LeaseHeld, LeaseLost
from engine.host.service import GameService
from engine.strategic import commands as cmd
from tests.games.strategic.worlds import strip_world

TTL = 30.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def two(store_url):
    """(a, b, clock, game): two processes sharing a store (each backend) and a clock, and a
    game."""
    path = store_url
    clock = Clock()
    a = await GameService.open(path, owner="a", lease_seconds=TTL, clock=clock)
    b = await GameService.open(path, owner="b", lease_seconds=TTL, clock=clock)
    game = await a.create_game(name="shared", world=strip_world())
    yield a, b, clock, game
    await a.close()
    await b.close()


async def log_entries(service: GameService, game: int) -> list[dict]:
    return [entry for _, entry in await service.store.log_after(game, 0)]


async def test_a_game_is_run_by_one_process_until_its_lease_runs_out(two) -> None:
    a, b, clock, game = two
    await a.submit(game, "red", cmd.Move(units=[1], to=(3, 1)))
    with pytest.raises(LeaseHeld, match="moving between the bot.s servers"):
        await b.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))
    # renewed in time, it stays a's
    clock.now += TTL * 0.6
    assert await a.renew_leases() == set()
    clock.now += TTL * 0.6
    # b may read it meanwhile (a copy from the store: what a committed), never write it
    seen = await b.view(game, "red")
    assert [seen.label(u.sq) for u in seen.units if u.id == 1] == ["3,1"]
    with pytest.raises(LeaseHeld):
        await b.advance(game, 1)
    # a stops renewing (paused, cut off): once its lease has run out, b takes the game over and
    # goes on from everything a committed
    clock.now += TTL
    await b.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))
    world = await b.live_world(game)
    assert world.grid.label(world.units[1].sq) == "3,1"  # a's move, read from the store
    assert (await b.store.lease(game)).owner == "b"


async def test_the_old_holder_writes_nothing_once_the_game_is_taken_over(store_url) -> None:
    """b's clock runs a lease ahead of a's (machines' clocks differ): a still believes its
    lease runs when b takes the game over. a's writes are refused by the store itself (the
    fencing token), and nothing of them is written."""
    a_clock, b_clock = Clock(), Clock()
    a = await GameService.open(store_url, owner="a", lease_seconds=TTL, clock=a_clock)
    b = await GameService.open(store_url, owner="b", lease_seconds=TTL, clock=b_clock)
    try:
        game = await a.create_game(name="shared", world=strip_world())
        await a.submit(game, "red", cmd.Move(units=[1], to=(3, 1)))
        before = await log_entries(a, game)
        b_clock.now += TTL + 1
        await b.advance(game, 4)  # b runs it now: time moves on there
        after_b = await log_entries(b, game)
        with pytest.raises(LeaseLost, match="moving between the bot.s servers"):
            await a.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))
        assert await log_entries(a, game) == after_b
        with pytest.raises(GameError):  # it forgot the game; b still holds it
            await a.advance(game, 4)
        assert await log_entries(a, game) == after_b
        assert len(after_b) > len(before)
        assert await a.renew_leases() == set()  # nothing left to renew: it was forgotten
    finally:
        await a.close()
        await b.close()


async def test_a_process_paused_past_its_lease_reads_and_writes_its_old_world_no_more(two) -> None:
    """a is paused past its lease (its clock jumps when it wakes) while b moves the game on:
    a no longer uses the world it had in memory. It reads what b committed, and its order is
    refused before anything is tried."""
    a, b, clock, game = two
    await a.submit(game, "red", cmd.Move(units=[1], to=(3, 1)))
    clock.now += TTL + 1
    await b.advance(game, 4)
    assert (await a.summary(game)).tick == (await b.summary(game)).tick == 4  # not a's old 0
    with pytest.raises(LeaseHeld):
        await a.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))
    assert (await b.live_world(game)).tick == 4


async def test_a_lost_lease_is_found_at_renewal_and_the_game_forgotten(two) -> None:
    a, b, clock, game = two
    await a.view(game, "red")  # loaded: a holds it
    clock.now += TTL + 1
    await b.view(game, "red")  # b took it over
    assert await a.renew_leases() == {game}
    with pytest.raises(LeaseHeld):
        await a.advance(game, 1)
    await a.view(game, "red")  # (read from a copy of what b committed)
    assert game not in a._games  # forgotten: a runs it no more


async def test_a_restarted_process_takes_its_games_back_at_once(store_url) -> None:
    path = store_url
    clock = Clock()
    old = await GameService.open(path, owner="a", lease_seconds=TTL, clock=clock)
    game = await old.create_game(name="g", world=strip_world())
    await old.submit(game, "red", cmd.Move(units=[1], to=(3, 1)))
    # the same process again (same owner name), before its lease ran out: no waiting
    new = await GameService.open(path, owner="a", lease_seconds=TTL, clock=clock)
    await new.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))
    # the old incarnation, if it still ran, is fenced off by the new token
    with pytest.raises(LeaseLost):
        await old.submit(game, "blue", cmd.Move(units=[4], to=(18, 1)))
    entries = await log_entries(new, game)
    assert [e["command"]["units"] for e in entries if e["kind"] == "command"] == [[1], [2]]
    await old.close()
    await new.close()


async def test_a_clean_shutdown_hands_its_games_over_at_once(two) -> None:
    a, b, clock, game = two
    await a.submit(game, "red", cmd.Move(units=[1], to=(3, 1)))
    await a.release_leases()
    await b.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))  # no wait for the lease
    assert (await b.store.lease(game)).owner == "b"


async def test_without_an_owner_there_are_no_leases(store_url) -> None:
    service = await GameService.open(store_url)
    try:
        game = await service.create_game(name="g", world=strip_world())
        await service.submit(game, "red", cmd.Move(units=[1], to=(3, 1)))
        assert await service.store.lease(game) is None
    finally:
        await service.close()


async def test_a_dead_processs_games_are_taken_over_and_handed_back(store_url) -> None:
    """Failover: `a` serves server 1, `b` server 2. `a` dies (stops renewing). One lease's
    length after its leases ran out, `b` takes its game over and runs it (its loops see it as
    theirs). When `a` comes back it asks for the game; `b` hands it back at its next
    `keep_leases`, and `a` runs it from what `b` wrote."""
    clock = Clock()
    a = await GameService.open(
        store_url, owner="a", lease_seconds=TTL, clock=clock, serves=lambda r: r.guild_id == "1"
    )
    b = await GameService.open(
        store_url, owner="b", lease_seconds=TTL, clock=clock, serves=lambda r: r.guild_id == "2"
    )
    try:
        mine = await a.create_game(name="a's", world=strip_world(), guild_id="1")
        theirs = await b.create_game(name="b's", world=strip_world(), guild_id="2")
        await a.advance(mine, 2)
        await b.advance(theirs, 2)
        assert [g.id for g in await b.games(mine=True)] == [theirs]
        clock.now += TTL  # a died: its lease ran out, but a restart may still come
        await b.keep_leases()
        assert [g.id for g in await b.games(mine=True)] == [theirs]
        clock.now += TTL + 1  # a lease's length later: b takes it over
        await b.keep_leases()
        assert {g.id for g in await b.games(mine=True)} == {mine, theirs}
        await b.advance(mine, 3)  # b runs it now
        with pytest.raises(LeaseHeld):  # a, were it only paused, writes nothing
            await a.advance(mine, 1)
        # a comes back (a new process under its name): the game is b's until b hands it back
        back = await GameService.open(
            store_url, owner="a", lease_seconds=TTL, clock=clock, serves=lambda r: r.guild_id == "1"
        )
        try:
            with pytest.raises(LeaseHeld, match="moving between the bot's servers"):
                await back.advance(mine, 1)  # it asks for the game back
            assert (await back.summary(mine)).tick == 5  # (reading a copy meanwhile)
            assert await b.store.wanted_leases("b") == {mine}
            await b.keep_leases()
            # handed back: b reading it (a DM to b about it) does not take it again
            assert (await b.summary(mine)).tick == 5
            released = await b.store.lease(mine)
            assert released is not None and released.expires <= clock.now
            assert [g.id for g in await b.games(mine=True)] == [theirs]
            assert (await back.summary(mine)).tick == 5  # b's ticks are there
            await back.advance(mine, 1)
            with pytest.raises(LeaseHeld):  # b dropped its copy; and may not take it again
                await b.advance(mine, 1)
            assert await b.store.wanted_leases("a") == set()  # b does not ask: not its server
        finally:
            await back.close()
    finally:
        await a.close()
        await b.close()


async def test_an_order_for_a_game_another_process_runs_is_relayed_to_it(store_url) -> None:
    """Discord sends every DM to shard 0: a player's order in a DM reaches a process that does
    not run their game. It is carried out by the process that does, through the store, once;
    a refusal comes back as it is; an order nobody takes in time is withdrawn (never carried
    out later), and one taken but not answered in time is said to be so."""
    clock = Clock()
    a = await GameService.open(
        store_url, owner="a", lease_seconds=TTL, clock=clock, serves=lambda r: r.guild_id == "1"
    )
    b = await GameService.open(
        store_url, owner="b", lease_seconds=TTL, clock=clock, serves=lambda r: r.guild_id == "2"
    )
    a.relay_wait = 0.3

    async def serve() -> None:
        while True:
            await b.serve_relayed()
            await asyncio.sleep(0.01)

    async def logged() -> int:
        return sum(1 for _, e in await b.store.log_after(game, 0) if e["kind"] == "command")

    try:
        game = await b.create_game(name="b's", world=strip_world(), guild_id="2")
        await b.advance(game, 1)  # b runs it
        serving = asyncio.create_task(serve())
        try:
            result = await a.submit(game, "red", cmd.Move(units=[1], to=(3, 1)))
            assert result.for_nation("red")  # the events came back with the answer
            world = await b.live_world(game)
            assert world.units[1].sq == world.grid.index(3, 1)  # b carried it out (moved there)
            with pytest.raises(CommandError) as relayed:
                await a.submit(game, "red", cmd.Move(units=[99], to=(3, 1)))
            with pytest.raises(CommandError) as direct:
                await b.submit(game, "red", cmd.Move(units=[99], to=(3, 1)))
            assert str(relayed.value) == str(direct.value)
            view = await a.view(game, "red")  # a reads what b committed
            assert [u.id for u in view.units if u.id == 1] == [1]
        finally:
            serving.cancel()
            # b has stopped serving before the next order (a pass under way when cancelled
            # would still take it, and rightly answer "reached the game but ...")
            with contextlib.suppress(asyncio.CancelledError):
                await serving
        assert await logged() == 1
        with pytest.raises(GameError, match="did not answer in time, so your order was not"):
            await a.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))
        assert await b.serve_relayed() == 0  # withdrawn: never carried out later
        assert await logged() == 1
        # the player's request is cancelled while it waits (the bot stops): withdrawn too
        waiting = asyncio.create_task(a.submit(game, "red", cmd.Move(units=[2], to=(3, 1))))
        await asyncio.sleep(0.1)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert await b.serve_relayed() == 0
        assert await logged() == 1

        async def take_and_die() -> None:  # b takes the order, and stops before answering
            while not await b.store.relay_take("b", [game], now=clock()):
                await asyncio.sleep(0.01)

        taker = asyncio.create_task(take_and_die())
        with pytest.raises(GameError, match="look at /status"):
            await a.submit(game, "red", cmd.Move(units=[2], to=(3, 1)))
        await taker
    finally:
        await a.close()
        await b.close()
