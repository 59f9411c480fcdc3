"""Background work stops on one cancel, whatever it is doing: the ticker, the notifier and the
AI runner in the middle of busy games, and the whole bot through the fake Discord."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.background import stop_tasks
from bot.client import StrategicBot
from bot.dm.notifier import Notifier
from bot.ticker import Ticker
from engine.host.runner import AiRunner
from engine.host.service import GameService
from tests.e2e.test_bot_e2e import MANAGE_GUILD, settings
from tests.fakediscord import FakeDiscord
from tests.games.strategic.worlds import strip_world

FAST = 1.0  # a game hour a real second


@pytest.fixture
async def busy(tmp_path):
    """A service with several fast running games, some with AI seats."""
    svc = await GameService.open(str(tmp_path / "busy.db"), synchronous="NORMAL")
    now = time.time()
    for i in range(6):
        game = await svc.create_game(name=f"g{i}", world=strip_world(), speed=FAST, now=now - 30)
        if i % 2:
            await svc.update_settings(game, ai={"blue": "normal"})
    yield svc
    await svc.close()


async def _sent(*_args, **_kwargs) -> None:
    await asyncio.sleep(0)


def _loops(svc: GameService):
    return {
        "ticker": lambda: Ticker(svc, max_ticks_per_pass=8).run_forever(interval=0.001),
        "notifier": lambda: Notifier(svc, _sent, render=False).run_forever(0.001, settle=0),
        "ai": lambda: AiRunner(svc).run_forever(interval=0.001),
    }


@pytest.mark.parametrize("loop", ["ticker", "notifier", "ai"])
async def test_a_background_loop_stops_on_the_first_cancel(busy, loop):
    start = _loops(busy)[loop]
    for steps in range(1, 120, 3):
        task = asyncio.create_task(start(), name=loop)
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()  # once
        done, _ = await asyncio.wait([task], timeout=2.0)
        assert task in done, f"{loop} still running 2 s after its cancel (step {steps})"
        assert task.cancelled(), f"{loop} swallowed its cancel (step {steps})"
    # and the store was left working
    game = (await busy.games(status=["running"]))[0].id
    await busy.advance(game, 1)


async def test_all_loops_together_stop_and_leave_the_store_consistent(busy):
    loops = _loops(busy)
    for delay in (0.0, 0.005, 0.02, 0.05, 0.1):
        tasks = [asyncio.create_task(start(), name=name) for name, start in loops.items()]
        await asyncio.sleep(delay)
        started = time.monotonic()
        assert await stop_tasks(tasks, timeout=3.0) == []
        assert time.monotonic() - started < 3.0
        assert all(t.cancelled() for t in tasks)
    for row in await busy.games():
        fresh = GameService(busy.store)
        assert (await fresh.live_world(row.id)).hash() == (await busy.live_world(row.id)).hash()


async def test_stop_tasks_reports_a_task_that_ignores_its_cancel():
    release = asyncio.Event()

    async def stubborn():
        while not release.is_set():
            try:
                await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                continue

    task = asyncio.create_task(stubborn(), name="stubborn")
    await asyncio.sleep(0)
    assert await stop_tasks([task], timeout=0.1) == ["stubborn"]
    release.set()
    await task


async def test_the_bot_closes_within_seconds_while_games_run(tmp_path):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Wargames", channels=["war-room"])
        channel = next(iter(guild.channels.values()))
        alice, bob, mod = (fake.add_user(n) for n in ("alice", "bob", "mod"))
        for user in (alice, bob):
            fake.add_member(guild, user)
        fake.add_member(guild, mod, permissions=MANAGE_GUILD)
        bot = StrategicBot(settings(tmp_path, guild.id))
        await fake.start_client(bot, wait_for_sync=guild)
        reply = await fake.invoke(
            alice,
            channel,
            "game create strategic-initiative",
            {"name": "War", "nations": 2, "speed": "test (x360)"},
        )
        game = int(reply.text.split("(game ")[1].split(")")[0])
        await fake.invoke(alice, channel, "game join", {"name": "Red"})
        await fake.invoke(bob, channel, "game join", {"name": "Blue"})  # full: it starts
        await asyncio.sleep(0.3)  # the ticker, notifier and AI are busy with the game
        assert bot.service is not None  # opened when the client started (setup_hook)
        assert (await bot.service.live_world(game)).started
        started = time.monotonic()
        await asyncio.wait_for(bot.close(), 5.0)
        assert time.monotonic() - started < 5.0
        assert bot._tasks == []
        await fake.stop_client(bot)
