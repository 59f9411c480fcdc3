"""The ticker: running games follow their clocks, catch up in bounded passes, and one failing
game (or a failing pass) never stops the others or the loop."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.ticker import Ticker
from engine.host.service import GameService
from tests.games.strategic.worlds import strip_world

T0 = 1000.0
SPEED = 60.0  # a game hour a real minute: a tick every 15 s


class Clock:
    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def service(tmp_path):
    svc = await GameService.open(str(tmp_path / "t.db"), synchronous="NORMAL")
    yield svc
    await svc.close()


async def tick_of(service, game) -> int:
    return (await service.live_world(game)).tick


async def test_running_games_follow_their_clocks(service):
    a = await service.create_game(name="a", world=strip_world(), speed=SPEED, now=T0)
    b = await service.create_game(name="b", world=strip_world(), speed=SPEED * 2, now=T0)
    lobby = await service.create_game(name="lobby", max_nations=2, width=40, height=40, seed=5)
    clock = Clock()
    ticker = Ticker(service, clock=clock)
    assert await ticker.run_once() == {a: 0, b: 0}  # the lobby is not running
    clock.t = T0 + 60
    assert await ticker.run_once() == {a: 4, b: 2}
    clock.t = T0 + 74  # not a whole tick yet for a
    assert await ticker.run_once() == {a: 0, b: 0}
    assert (await tick_of(service, a), await tick_of(service, b)) == (4, 2)
    await service.pause(a, now=clock.t)
    clock.t = T0 + 600
    assert (await ticker.run_once())[a] == 0
    assert await tick_of(service, lobby) == 0


async def test_a_clock_changed_between_passes_is_followed_at_the_next_one(service):
    """The ticker keeps each game's next tick time between passes (`GameService.watch`): a
    moderator's change of speed, a pause and a resume are followed at the very next pass, as
    are the ticks a player's command brought the game to meanwhile."""
    game = await service.create_game(name="g", world=strip_world(), speed=SPEED, now=T0)
    clock = Clock(T0 + 60)
    ticker = Ticker(service, clock=clock)
    assert await ticker.run_once() == {game: 4}  # the next tick is due at T0 + 75
    await service.set_speed(game, SPEED / 10, now=T0 + 61)  # a tick every 1.5 s from here
    clock.t = T0 + 64
    assert await ticker.run_once() == {game: 2}
    await service.pause(game, now=clock.t)
    clock.t = T0 + 600
    assert await ticker.run_once() == {game: 0}
    await service.resume(game, now=T0 + 600)
    clock.t = T0 + 603
    assert await ticker.run_once() == {game: 2}
    await service.catch_up(game, T0 + 609)  # a command's catch-up: 4 more ticks, by another
    clock.t = T0 + 609.5
    assert await ticker.run_once() == {game: 0}
    assert await tick_of(service, game) == 12


async def test_downtime_is_caught_up_in_bounded_passes(service):
    game = await service.create_game(name="g", world=strip_world(), speed=SPEED, now=T0)
    clock = Clock(T0 + 100 * 60)  # 100 game hours later: 400 ticks behind
    ticker = Ticker(service, max_ticks_per_pass=96, clock=clock)
    passes = []
    while True:
        done = (await ticker.run_once())[game]
        if not done:
            break
        passes.append(done)
        assert ticker.behind == (done == 96)
    assert passes == [96, 96, 96, 96, 16]
    assert await tick_of(service, game) == 400
    assert await service.due_ticks(game, now=clock.t) == 0


async def test_a_failing_game_does_not_stop_the_others(service, monkeypatch):
    bad = await service.create_game(name="bad", world=strip_world(), speed=SPEED, now=T0)
    good = await service.create_game(name="good", world=strip_world(), speed=SPEED, now=T0)
    real_catch_up = service.catch_up

    async def catch_up(game_id, *args, **kwargs):
        if game_id == bad:
            raise RuntimeError("corrupt world")
        return await real_catch_up(game_id, *args, **kwargs)

    monkeypatch.setattr(service, "catch_up", catch_up)
    clock = Clock(T0 + 60)
    ticker = Ticker(service, clock=clock, backoff=5.0)
    assert await ticker.run_once() == {good: 4}
    clock.t = T0 + 62  # backing off: the bad game is not even tried
    assert await ticker.run_once() == {good: 0}
    monkeypatch.setattr(service, "catch_up", real_catch_up)  # fixed
    clock.t = T0 + 66
    assert await ticker.run_once() == {bad: 4, good: 0}
    assert await tick_of(service, bad) == 4


async def test_run_forever_survives_a_failing_pass_and_cancels_cleanly(service, monkeypatch):
    game = await service.create_game(name="g", world=strip_world(), speed=SPEED, now=T0)
    real_games = service.games
    calls = {"n": 0}

    async def games(**kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("database is locked")
        return await real_games(**kwargs)

    monkeypatch.setattr(service, "games", games)
    ticker = Ticker(service, clock=Clock(T0 + 120))
    task = asyncio.create_task(ticker.run_forever(interval=0.01))
    deadline = time.monotonic() + 5
    while await tick_of(service, game) < 8:
        assert time.monotonic() < deadline and not task.done()
        await asyncio.sleep(0.01)
    assert calls["n"] >= 2
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert task.cancelled()


async def test_a_pass_leaves_games_that_are_not_due_alone(service, monkeypatch):
    """Idle games cost a clock check a pass: only games with a tick due are caught up."""
    games = [
        await service.create_game(name=f"g{i}", world=strip_world(), speed=SPEED, now=T0)
        for i in range(6)
    ]
    clock = Clock()
    ticker = Ticker(service, clock=clock)
    await ticker.run_once()  # loads them all
    asked: list[int] = []
    real = service.catch_up

    async def counting(game_id, now=None, **kw):
        asked.append(game_id)
        return await real(game_id, now, **kw)

    monkeypatch.setattr(service, "catch_up", counting)
    clock.t = T0 + 10  # less than a tick (15 s at this speed) after the start
    assert await ticker.run_once() == {g: 0 for g in games}
    assert asked == []
    await service.set_speed(games[0], SPEED / 4, now=clock.t)  # four times faster from now
    asked.clear()  # (the speed change catches the game up first)
    clock.t = T0 + 10 + 4  # a tick of the fast game is due, none of the others
    assert await ticker.run_once() == {g: (1 if g == games[0] else 0) for g in games}
    assert asked == [games[0]]


async def test_a_ticker_moves_on_only_the_games_its_process_runs(tmp_path, caplog):
    """Two processes on one store (issue 16): each ticker moves on the games whose lease its
    process holds, skips the other's quietly, and takes a game over once its lease ran out."""
    path = str(tmp_path / "shared.db")
    clock = Clock()
    a = await GameService.open(path, owner="a", lease_seconds=300.0, clock=clock)
    b = await GameService.open(path, owner="b", lease_seconds=300.0, clock=clock)
    try:
        game = await a.create_game(name="g", world=strip_world(), speed=SPEED, now=T0)
        await a.view(game, "red")  # a runs it, until T0 + 300 unless it renews
        clock.t = T0 + 60
        ours, theirs = Ticker(a, clock=clock), Ticker(b, clock=clock)
        assert (await theirs.run_once()).get(game) is None  # not b's: not moved on, no error
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
        assert await ours.run_once() == {game: 4}
        # a stops renewing (paused, dead): once its lease ran out, b's ticker takes the game
        # over and goes on from what a committed
        clock.t = T0 + 299
        assert (await theirs.run_once()).get(game) is None
        clock.t = T0 + 301
        moved = await theirs.run_once()
        assert moved[game] == 20 - 4 and (await b.live_world(game)).tick == 20
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
    finally:
        await a.close()
        await b.close()


async def test_each_process_serves_only_its_own_servers_games(tmp_path):
    """Several processes (issue 16): a process moves on, plays the AI of and tells the players
    of only the games of the servers it serves; the others are left to their own process."""
    from bot.dm.notifier import Notifier
    from engine.host.runner import AiRunner
    from tests.bot.test_notifier import FakeSender

    path = str(tmp_path / "shared.db")
    clock = Clock()
    one = await GameService.open(path, serves=lambda row: row.guild_id == "g1", clock=clock)
    two = await GameService.open(path, serves=lambda row: row.guild_id == "g2", clock=clock)
    try:
        first = await one.create_game(
            name="a", world=strip_world(), speed=SPEED, now=T0, guild_id="g1"
        )
        second = await one.create_game(
            name="b", world=strip_world(), speed=SPEED, now=T0, guild_id="g2"
        )
        clock.t = T0 + 9 * 60  # nine game hours: cities have built something to report
        assert await Ticker(one, clock=clock).run_once() == {first: 36}
        assert await Ticker(two, clock=clock).run_once() == {second: 36}
        assert [g.id for g in await one.games(mine=True)] == [first]
        assert {g.id for g in await one.games()} == {first, second}  # the store has both
        # DMs: each process tells the players of its own games, once
        sent_one, sent_two = FakeSender(), FakeSender()
        await Notifier(one, sent_one, render=False, clock=clock).run_once()
        await Notifier(two, sent_two, render=False, clock=clock).run_once()
        assert sent_one.sent and sent_two.sent
        told_one = "\n".join(text for _, text, _ in sent_one.sent)
        told_two = "\n".join(text for _, text, _ in sent_two.sent)
        assert "**a, day 1" in told_one and "**b, day" not in told_one  # game a's reports only
        assert "**b, day 1" in told_two and "**a, day" not in told_two
        assert await AiRunner(one).run_once() == 0  # no AI seats, and no error for b's game
    finally:
        await one.close()
        await two.close()
