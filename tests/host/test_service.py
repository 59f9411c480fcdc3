"""The service: one write path, commit before answer, recovery from snapshot + log. Every test
runs on SQLite and on PostgreSQL (`store_url`, tests/conftest.py)."""

from __future__ import annotations

import contextlib

import pytest

from engine.errors import CommandError, GameError
from engine.host.service import GameService
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from tests import stores
from tests.games.strategic.worlds import strip_world


@pytest.fixture
async def service(store_url):
    svc = await GameService.open(store_url, snapshot_every=8)
    yield svc
    await svc.close()


async def test_accepted_command_is_logged_and_survives_a_restart(store_url):
    path = store_url
    svc = await GameService.open(path)
    game = await svc.create_game(name="t", world=strip_world())
    result = await svc.submit(game, "red", cmd.Move(units=[1, 2], to=(4, 2)))
    assert result.seq == 1
    moved = [e for e in result.events if isinstance(e, ev.UnitsMoved)]
    assert moved and moved[0].arrived == [1, 2]
    world = await svc.live_world(game)
    before = world.hash()
    assert world.grid.label(world.units[1].sq) == "4,2"
    await svc.close()

    again = await GameService.open(path)
    world2 = await again.live_world(game)
    assert world2.hash() == before
    assert world2.grid.label(world2.units[2].sq) == "4,2"
    await again.close()


async def test_rejected_command_changes_nothing_and_is_not_logged(service):
    game = await service.create_game(name="t", world=strip_world())
    world = await service.live_world(game)
    before = world.hash()
    with pytest.raises(CommandError, match="no unit 4"):
        await service.submit(game, "red", cmd.Move(units=[1, 4], to=(4, 2)))  # 4 is blue's
    with pytest.raises(CommandError, match="is water"):
        await service.submit(game, "red", cmd.Move(units=[1], to=(0, 1)))  # in sight
    with pytest.raises(CommandError, match="off the map"):
        await service.submit(game, "red", cmd.Move(units=[1], to=(99, 1)))
    assert (await service.live_world(game)).hash() == before
    assert await service.store.last_seq(game) == 0


async def test_events_reach_the_outbox_for_each_recipient(service):
    game = await service.create_game(name="t", world=strip_world())
    await service.advance(game, 8 * 4)  # 8 hours: an infantry in each fort
    rows = await service.store.pending_events()
    built = [(r.nation, r.event["unit"]) for r in rows if r.event["kind"] == "UnitBuilt"]
    assert ("red", "infantry") in built and ("blue", "infantry") in built
    assert all(r.nation in r.event["to"] for r in rows)
    await service.store.mark_delivered([r.id for r in rows])
    assert await service.store.pending_events() == []


async def test_advance_is_batched_and_equals_single_ticks(make_store_url):
    a = await GameService.open(await make_store_url(), advance_batch=16)
    b = await GameService.open(await make_store_url(), advance_batch=1)
    ga = await a.create_game(name="a", world=strip_world())
    gb = await b.create_game(name="b", world=strip_world())
    for svc, g in ((a, ga), (b, gb)):
        await svc.submit(g, "red", cmd.Move(units=[1], to=(9, 1)))
        await svc.advance(g, 50)
    assert (await a.live_world(ga)).hash() == (await b.live_world(gb)).hash()
    assert await a.store.last_seq(ga) == 1 + 4  # 16+16+16+2
    assert await b.store.last_seq(gb) == 1 + 50
    await a.close()
    await b.close()


async def test_recovery_replays_the_log_after_the_latest_snapshot(store_url):
    path = store_url
    svc = await GameService.open(path, snapshot_every=5, advance_batch=1)
    game = await svc.create_game(name="t", world=strip_world())
    for _ in range(13):
        await svc.advance(game, 1)
    await svc.submit(game, "blue", cmd.Move(units=[4], to=(17, 2)))
    expected = (await svc.live_world(game)).hash()
    snap = await svc.store.latest_snapshot(game)
    assert snap is not None and 0 < snap[0] < 14  # a snapshot was taken, with log after it
    await svc.close()
    again = await GameService.open(path)
    assert (await again.live_world(game)).hash() == expected
    await again.close()


FULL_DISK = {  # a trigger that fails every outbox insert, as a full disk would
    "sqlite": [
        "CREATE TRIGGER disk_full AFTER INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'disk full'); END"
    ],
    "postgresql": [
        "CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'disk full'; END $$",
        "CREATE TRIGGER disk_full AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION full_disk()",
    ],
}
DROP_FULL_DISK = {
    "sqlite": "DROP TRIGGER disk_full",
    "postgresql": "DROP TRIGGER disk_full ON outbox",
}


async def test_a_failed_commit_leaves_memory_as_the_store_has_it(service, backend):
    game = await service.create_game(name="t", world=strip_world())
    before = (await service.live_world(game)).hash()
    # the transaction fails half-way, after the log row went in
    for statement in FULL_DISK[backend]:
        await stores.execute(service.store, statement)
    with pytest.raises(Exception, match="disk full"):
        await service.submit(game, "red", cmd.Move(units=[1], to=(4, 2)))
    assert (await service.live_world(game)).hash() == before  # rebuilt from the store
    assert await service.store.last_seq(game) == 0  # the log row was rolled back
    await stores.execute(service.store, DROP_FULL_DISK[backend])
    await service.submit(game, "red", cmd.Move(units=[1], to=(4, 2)))  # the store goes on
    assert await service.store.last_seq(game) == 1


async def test_clock_speed_pause_and_catch_up(service):
    # 1 game hour a real minute; the scenario world is already running from t=1000
    game = await service.create_game(name="t", world=strip_world(), speed=60.0, now=1000.0)
    assert await service.due_ticks(game, now=1000.0) == 0
    assert await service.due_ticks(game, now=1059.0) == 3
    assert await service.catch_up(game, now=1120.0) == 8
    assert (await service.live_world(game)).tick == 8
    await service.pause(game, now=1180.0)
    assert (await service.live_world(game)).tick == 12
    assert await service.due_ticks(game, now=5000.0) == 0  # paused
    await service.resume(game, now=5000.0)
    assert await service.due_ticks(game, now=5015.0) == 1
    await service.set_speed(game, 3600.0, now=5030.0)  # back to real time
    assert (await service.live_world(game)).tick == 14
    assert await service.due_ticks(game, now=5030.0 + 3600.0) == 4


async def test_lobby_join_start_and_commands_before_start(service):
    game = await service.create_game(name="lobby", max_nations=2, width=40, height=40, seed=5)
    red = await service.join(game, name="Red", colour="#c0392b", player="100")
    world = await service.live_world(game)
    assert red == "red" and len(world.cities_of("red")) == len(world.rules.start.cities)
    with pytest.raises(CommandError, match="not started"):
        await service.submit(game, "red", cmd.Move(units=[1], to=(0, 0)))
    with pytest.raises(GameError, match="already play"):
        await service.join(game, name="Again", colour="#000000", player="100")
    await service.join(game, name="Blue", colour="#2e86c1", player="200")
    row = await service.game(game)
    assert row.status == "running"  # full: started at once
    assert await service.store.memberships("200") == [(game, "blue")]
    with pytest.raises(GameError, match="full"):
        await service.join(game, name="Late", colour="#000000", player="300")


async def test_schema_is_migrated_once(store_url, backend):
    from engine.host import postgres, sqlite
    from engine.host.storage import open_store

    latest = {"sqlite": sqlite.SCHEMA_VERSION, "postgresql": postgres.SCHEMA_VERSION}[backend]
    opened = await open_store(store_url)
    assert await opened.schema_version() == latest
    await opened.close()
    opened = await open_store(store_url)  # a second start finds nothing to do
    assert await opened.schema_version() == latest
    await opened.close()


async def play_generated_game(path: str, *, restart_midway: bool) -> str:
    svc = await GameService.open(path, snapshot_every=3)
    game = await svc.create_game(name="det", max_nations=3, width=48, height=48, seed=42)
    for name in ("Red", "Blue", "Green"):
        await svc.join(game, name=name, colour="#123456", player=None)
    for step in range(12):
        world = await svc.live_world(game)
        if step == 6 and restart_midway:
            await svc.close()
            svc = await GameService.open(path, snapshot_every=3)
            world = await svc.live_world(game)
        nation = ["red", "blue", "green"][step % 3]
        units = sorted(u.id for u in world.units_of(nation) if u.type == "infantry")
        city = world.cities_of(nation)[0]
        x, y = world.grid.xy(city.sq)
        with contextlib.suppress(CommandError):
            await svc.submit(game, nation, cmd.Move(units=units[:2], to=(x + 1, y)))
        await svc.advance(game, 7)
    digest = (await svc.live_world(game)).hash()
    await svc.close()
    return digest


async def test_same_seed_and_commands_give_the_same_world_also_across_a_restart(make_store_url):
    a = await play_generated_game(await make_store_url(), restart_midway=False)
    b = await play_generated_game(await make_store_url(), restart_midway=True)
    assert a == b


async def test_a_crash_inside_the_core_after_a_change_is_rolled_back(service, monkeypatch):
    """A bug that raises halfway through a command must not leave the half-changed world in
    memory: the next request sees what the store has."""
    import engine.strategic.replay as replay

    game = await service.create_game(name="t", world=strip_world())
    before = (await service.live_world(game)).hash()
    real = replay.apply

    def half_then_crash(world, nation, command):
        world.nations[nation].cp -= 100  # a change ...
        raise RuntimeError("bug")  # ... then a crash

    monkeypatch.setattr(replay, "apply", half_then_crash)
    with pytest.raises(RuntimeError):
        await service.submit(game, "red", cmd.Move(units=[1], to=(4, 2)))
    monkeypatch.setattr(replay, "apply", real)
    world = await service.live_world(game)
    assert world.hash() == before
    assert world.nations["red"].cp == 512
    await service.submit(game, "red", cmd.Move(units=[1], to=(4, 2)))  # and the game goes on
    assert (await service.live_world(game)).nations["red"].cp == 511
