"""`engine.host.realtime.RealClock`: a game's stored clock dict as a typed value (ticks due at a
real time, the real time of a tick), and the service and `/status` reading it."""

from __future__ import annotations

import math

import pytest

from bot.games.strategic.intel import Intel
from engine.host.realtime import RealClock
from engine.host.rows import GameRow
from tests.games.strategic.worlds import strip_world

T0 = 1_700_000_000.0
TPH = 4  # ticks per game hour


def clock(**stored) -> RealClock:
    base = {"speed": 360.0, "paused": False, "anchor_real": T0, "anchor_tick": 8}
    return RealClock.of(dict(base, **stored), ticks_per_hour=TPH)


def test_the_stored_dict_round_trips_and_old_dicts_load():
    stored = {"speed": 360.0, "paused": False, "anchor_real": T0, "anchor_tick": 8}
    c = RealClock.of(stored, ticks_per_hour=TPH)
    assert c.to_dict() == stored
    assert c.seconds_per_tick == 90.0 and c.ticking
    # a lobby game's clock: never anchored
    lobby = RealClock.of(
        {"speed": 3600.0, "paused": False, "anchor_real": None, "anchor_tick": 0},
        ticks_per_hour=TPH,
    )
    assert not lobby.ticking and lobby.tick_at(T0) is None
    # missing keys take their defaults (real time, not paused, not started)
    bare = RealClock.of({}, ticks_per_hour=TPH)
    assert bare.to_dict() == {
        "speed": 3600.0,
        "paused": False,
        "anchor_real": None,
        "anchor_tick": 0,
    }
    with pytest.raises(AttributeError):
        c.speed = 1.0  # type: ignore[misc]  # frozen
    with pytest.raises(ValueError):
        RealClock(ticks_per_hour=TPH, speed=0.0)


def test_ticks_due_follow_the_speed_from_the_anchor():
    c = clock()  # 90 real seconds a tick from tick 8 at T0
    assert c.tick_at(T0) == 8
    assert c.tick_at(T0 + 89.999) == 8
    assert c.tick_at(T0 + 90) == 9
    assert c.tick_at(T0 - 1) == 7  # before the anchor: floor, not truncation
    assert c.due_ticks(T0 + 900, tick=8) == 10
    assert c.due_ticks(T0 + 900, tick=15) == 3
    assert c.due_ticks(T0 + 900, tick=30) == 0  # ahead of the clock: nothing due
    assert c.due_ticks(T0 + 900, tick=8, end_tick=12) == 4  # never past the end


def test_the_real_time_of_a_tick_and_the_next_tick():
    c = clock()
    assert c.real_time_of(8) == T0
    assert c.real_time_of(12) == T0 + 360.0
    assert c.real_time_of(4) == T0 - 360.0  # a tick in the past
    assert c.next_tick_at(8) == T0 + 90.0
    assert c.next_tick_at(11, end_tick=20) == T0 + 360.0
    assert c.next_tick_at(20, end_tick=20) == math.inf  # the game is over
    for tick in range(8, 40):  # each tick is due exactly at its real time
        at = c.real_time_of(tick)
        assert at is not None and c.tick_at(at) == tick


@pytest.mark.parametrize(
    "stopped",
    [{"paused": True}, {"anchor_real": None}, "not running"],
    ids=["paused", "never started", "not running"],
)
def test_time_stands_still_when_paused_not_started_or_not_running(stopped):
    if stopped == "not running":
        stored = {"speed": 360.0, "paused": False, "anchor_real": T0, "anchor_tick": 8}
        c = RealClock.of(stored, ticks_per_hour=TPH, running=False)
    else:
        c = clock(**stopped)
    assert not c.ticking
    assert c.tick_at(T0 + 10_000) is None
    assert c.due_ticks(T0 + 10_000, tick=8) == 0
    assert c.real_time_of(9) is None
    assert c.next_tick_at(8) == math.inf


def test_a_change_of_speed_or_a_pause_goes_on_from_the_anchor():
    c = clock()
    later = T0 + 900  # ten ticks later, caught up to tick 18
    faster = c.changed(speed=36.0).anchored(later, 18)
    assert faster.to_dict() == {
        "speed": 36.0,
        "paused": False,
        "anchor_real": later,
        "anchor_tick": 18,
    }
    assert faster.due_ticks(later, tick=18) == 0  # the change moved nothing by itself
    assert faster.due_ticks(later + 90, tick=18) == 10  # then 9 s a tick
    paused = faster.changed(paused=True).anchored(later + 90, 28)
    assert paused.due_ticks(later + 10_000, tick=28) == 0
    resumed = paused.changed(paused=False).anchored(later + 5_000, 28)
    assert resumed.due_ticks(later + 5_000, tick=28) == 0  # the pause is not made up
    assert resumed.due_ticks(later + 5_009, tick=28) == 1
    assert c.changed(paused=True).anchor_real == T0  # not re-anchored unless asked (lobby)
    with pytest.raises(ValueError):
        c.changed(speed=-1.0)


def test_of_row_is_running_only_with_the_running_status():
    stored = {"speed": 360.0, "paused": False, "anchor_real": T0, "anchor_tick": 8}
    row = GameRow(1, "g", "standard", "running", None, None, None, T0, {}, stored)
    assert RealClock.of_row(row, TPH).ticking
    for status in ("lobby", "ended"):
        ended = GameRow(1, "g", "standard", status, None, None, None, T0, {}, stored)
        assert not RealClock.of_row(ended, TPH).ticking


async def test_the_service_keeps_the_stored_form_and_follows_the_clock(tmp_path):
    from engine.host.service import GameService

    service = await GameService.open(str(tmp_path / "clock.db"), synchronous="NORMAL")
    try:
        game = await service.create_game(name="g", world=strip_world(), speed=360.0, now=T0)
        row = await service.game(game)
        assert row.clock == {"speed": 360.0, "paused": False, "anchor_real": T0, "anchor_tick": 0}
        tph = (await service.live_world(game)).rules.ticks_per_hour
        assert await service.due_ticks(game, T0 + 10 * 360.0 / tph) == 10
        assert service.next_tick_at(game) == T0 + 360.0 / tph
        assert await service.catch_up(game, T0 + 10 * 360.0 / tph) == 10
        await service.set_speed(game, 36.0, now=T0 + 3600)  # catches up, then re-anchors
        tick = (await service.live_world(game)).tick
        row = await service.game(game)
        assert row.clock == {
            "speed": 36.0,
            "paused": False,
            "anchor_real": T0 + 3600,
            "anchor_tick": tick,
        }
        assert service.next_tick_at(game) == T0 + 3600 + 36.0 / tph
        await service.pause(game, now=T0 + 3700)
        assert service.next_tick_at(game) == math.inf
        assert await service.due_ticks(game, T0 + 99_999) == 0
        await service.resume(game, now=T0 + 5000)
        row = await service.game(game)
        assert row.clock["paused"] is False and row.clock["anchor_real"] == T0 + 5000
        assert await service.due_ticks(game, T0 + 5000 + 36.0 / tph) == 1
    finally:
        await service.close()


async def test_status_gives_the_real_time_of_the_game_end_and_none_when_paused(tmp_path):
    """`/status` (bot/games/strategic/intel.py) reads the same clock: the game's end as a Discord timestamp
    while time runs, none while paused."""
    from bot.desk import Desk
    from engine.host.service import GameService
    from tests.bot.test_desk import caller, started

    service = await GameService.open(str(tmp_path / "status.db"), synchronous="NORMAL")
    try:
        desk = Desk(service)
        game = await started(desk)
        row = await service.game(game)
        world = await service.live_world(game)
        end = RealClock.of_row(row, world.ticks_per_hour).real_time_of(world.end_tick)
        assert end is not None  # started and not paused: its time moves
        assert (
            end
            == row.clock["anchor_real"] + world.end_tick * row.clock["speed"] / world.ticks_per_hour
        )
        text = (await desk.part(Intel).status(caller("1"))).full_text
        assert f"(<t:{int(end)}:R>)" in text
        await service.pause(game)
        text = (await desk.part(Intel).status(caller("1"))).full_text
        assert "(paused)" in text and "<t:" not in text
    finally:
        await service.close()
