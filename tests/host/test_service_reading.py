"""The service's read side: players, moderators and reports read a game through a nation's view
or the public summary, never through the live world."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.errors import GameError
from engine.host.service import GameService
from engine.strategic import commands as cmd
from tests.games.strategic.worlds import strip_world

BOT = Path(__file__).resolve().parents[2] / "bot"


@pytest.fixture
async def service(store_url):  # on SQLite and on PostgreSQL
    svc = await GameService.open(store_url)
    yield svc
    await svc.close()


async def test_the_summary_tells_public_facts_and_follows_the_game(service: GameService):
    game = await service.create_game(name="t", world=strip_world())
    before = await service.summary(game)
    assert sorted(before.nations) == ["blue", "red"]
    assert before.nations["red"].name and not before.nations["red"].out
    assert before.started and not before.ended and before.tick == 0
    assert before.clock() == "day 1 00:00"
    with pytest.raises(AttributeError):  # frozen: a reader cannot change the game through it
        before.tick = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        before.nations["red"] = before.nations["blue"]  # type: ignore[index]
    await service.advance(game, 5)
    after = await service.summary(game)
    assert after.tick == 5 and after.clock() == "day 1 01:15"
    assert before.tick == 0  # a summary taken earlier does not change


async def test_a_view_is_the_nations_own_and_an_unknown_nation_is_refused(service):
    game = await service.create_game(name="t", world=strip_world())
    view = await service.view(game, "red")
    assert view.nation == "red" and all(u.owner == "red" for u in view.own_units())
    with pytest.raises(GameError, match="no nation 'green'"):
        await service.view(game, "green")
    await service.submit(game, "red", cmd.Move(units=[1], to=(4, 2)))
    assert (await service.view(game, "red")).unit(1).sq != view.unit(1).sq


async def test_a_joining_nations_home_is_told_to_it_alone(service):
    game = await service.create_game(name="lobby", max_nations=3, width=40, height=40, seed=5)
    await service.join(game, name="Red", colour="#c0392b", player="100")
    await service.join(game, name="Blue", colour="#2e86c1", player="200")
    joined = [r for r in await service.store.pending_events() if r.event["kind"] == "NationJoined"]
    told = {(r.nation, r.event["nation"]): r.event.get("home") for r in joined}
    assert told[("red", "red")] and told[("blue", "blue")]  # each learns its own home
    assert told[("red", "blue")] is None  # red learns that blue joined, not where it lives


def test_the_bot_never_reads_the_live_world() -> None:
    """Every reply, DM and picture of the bot comes from a view or the summary: no module of
    the bot asks the service for the live world."""
    offenders = []
    for path in sorted(BOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("live_world", "world")
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "service"
            ):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


async def test_a_long_tick_holds_neither_the_event_loop_nor_other_games(service, monkeypatch):
    """Time moves on in a worker thread: while one game's tick runs, another game's command is
    applied and committed, and the ticking game's readers wait for its tick to end (never a
    world half-way through a tick)."""
    import asyncio
    import threading

    import engine.strategic.replay

    slow = await service.create_game(name="slow", world=strip_world())
    other = await service.create_game(name="other", world=strip_world())
    slow_world = await service.live_world(slow)
    started, release = threading.Event(), threading.Event()
    real = engine.strategic.replay.advance

    def held(world, ticks):  # the slow game's tick waits for the test to let it go
        if world is slow_world:
            started.set()
            release.wait(10)
        return real(world, ticks)

    monkeypatch.setattr(engine.strategic.replay, "advance", held)
    ticking = asyncio.create_task(service.advance(slow, 4))
    try:
        assert await asyncio.to_thread(started.wait, 10)
        done = await asyncio.wait_for(
            service.submit(other, "red", cmd.Move(units=[1], to=(4, 2))), 10
        )
        assert done.seq == 1  # committed while the other game's tick is still running
        reading = asyncio.create_task(service.summary(slow))
        await asyncio.sleep(0.05)
        assert not ticking.done() and not reading.done()
    finally:
        release.set()
    await ticking
    assert (await reading).tick == 4


async def test_two_catch_ups_at_once_never_go_past_the_clock(service: GameService):
    """The ticker's pass and a moderator's pause at the same moment: each batch is worked out
    under the game's lock, so the game ends where its clock is, not 80 ticks further."""
    import asyncio

    game = await service.create_game(name="t", world=strip_world(), speed=60.0, now=1000.0)
    now = 1000.0 + 15.0 * 200  # a game hour a real minute: 200 ticks due
    assert await service.due_ticks(game, now=now) == 200
    await asyncio.gather(service.catch_up(game, now, max_ticks=96), service.pause(game, now=now))
    assert (await service.summary(game)).tick == 200


async def test_a_tick_cancelled_twice_still_holds_the_game_until_its_thread_ends(
    service: GameService, monkeypatch
):
    import asyncio
    import threading

    import engine.strategic.replay

    game = await service.create_game(name="t", world=strip_world())
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    real = engine.strategic.replay.advance

    def held(world, ticks):
        started.set()
        release.wait(10)
        try:
            return real(world, ticks)
        finally:
            finished.set()

    monkeypatch.setattr(engine.strategic.replay, "advance", held)
    task = asyncio.create_task(service.advance(game, 4))
    assert await asyncio.to_thread(started.wait, 10)
    task.cancel()
    await asyncio.sleep(0.01)
    task.cancel()  # a second cancel (a timeout, then a shutdown) on top of the first
    await asyncio.sleep(0.05)
    assert not task.done()  # still waiting for the thread, holding the game
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert finished.is_set()
    assert (await service.summary(game)).tick == 0  # nothing committed: the world is reloaded
