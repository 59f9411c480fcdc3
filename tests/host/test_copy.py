"""`si db copy`: every game from one store to the other (SQLite to PostgreSQL and back) with
its ids, its history and its outbox as it was, and each game replays to the same hash
(engine/host/copy.py; issue 16)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.cli import main
from engine.host.copy import CopyRefused, copy_stores, verify
from engine.host.postgres import PostgresStore
from engine.host.service import GameService
from engine.host.storage import GameStore, open_store
from engine.strategic import commands as cmd
from tests import pg, stores
from tests.games.strategic.worlds import strip_world

HOUR = 3600.0


async def cli(argv: list[str]) -> int:
    """`si ...` as from a shell (its own event loop: in a thread of its own)."""
    return await asyncio.to_thread(main, argv)


@pytest.fixture
async def pg_url(pg_server: pg.Server) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """`await pg_url()`: a new, empty (migrated) PostgreSQL database."""
    made: list[str] = []

    async def make() -> str:
        made.append(await pg_server.new_database())
        return made[-1]

    yield make
    for url in made:
        await pg_server.drop_database(url)


async def make_games(url: str) -> list[int]:
    """Three games with history on a store (a fourth deleted: a gap in the ids): two running
    games with commands, ticks, snapshots (first and newest) and outbox rows delivered,
    failed, held and pending; one lobby game."""
    service = await GameService.open(url, snapshot_every=8)
    try:
        one = await service.create_game(name="one", world=strip_world(), guild_id="7")
        await service.submit(one, "red", cmd.Move(units=[1, 2], to=(4, 2)))
        await service.submit(one, "blue", cmd.Move(units=[4], to=(17, 2)))
        for _ in range(20):  # an entry a tick: a snapshot every 8 entries
            await service.advance(one, 1)
        await service.submit(one, "red", cmd.Move(units=[1], to=(6, 1)))
        await service.advance(one, 5)
        gone = await service.create_game(name="gone", world=strip_world(seed=3))
        await service.advance(gone, 3)
        two = await service.create_game(name="two", world=strip_world(seed=5), channel_id="9")
        for _ in range(12):
            await service.advance(two, 1)
        await service.submit(two, "blue", cmd.Move(units=[5], to=(18, 2)))
        await service.advance(two, 2)
        await service.delete_game(gone)
        lobby = await service.create_game(
            name="lobby", max_nations=3, width=40, height=40, seed=5, created_by="100"
        )
        await service.join(lobby, name="Red", colour="#c0392b", player="100")
        store = service.store
        rows = await store.pending_events(limit=1000)
        assert len(rows) >= 8
        await store.mark_delivered([r.id for r in rows[:3]], now=1000.0)
        await store.mark_failed([rows[3].id, rows[4].id], "Forbidden: closed DMs")
        await store.mark_failed([rows[4].id], "Forbidden: closed DMs")
        await store.hold([rows[5].id, rows[6].id], until=time.time() + 10 * HOUR)
        return [one, two, lobby]
    finally:
        await service.close()


async def outbox_states(store: GameStore) -> list[tuple]:
    return await stores.query(
        store,
        "SELECT id, game_id, seq, nation, delivered_at, attempts, last_error, hold_until"
        " FROM outbox ORDER BY id",
    )


async def test_a_round_trip_sqlite_postgresql_sqlite_keeps_every_game_and_its_replay(
    tmp_path: Path, pg_url: Callable[[], Awaitable[str]]
) -> None:
    first_url = f"sqlite:///{tmp_path / 'first.db'}"
    games = await make_games(first_url)
    pg_target, back_url = await pg_url(), f"sqlite:///{tmp_path / 'back.db'}"
    first, middle, back = (
        await open_store(first_url),
        await open_store(pg_target),
        await open_store(back_url),
    )
    try:
        there = await copy_stores(first, middle)
        assert there.game_ids == games and there.games == 3
        assert await verify(first, middle, games) == []
        again = await copy_stores(middle, back)
        assert again.game_ids == games
        assert await verify(middle, back, games) == []
        for game in games:  # the same rows after both moves
            assert await back.export_game(game) == await first.export_game(game)
        assert (there.log_entries, there.outbox_rows) == (again.log_entries, again.outbox_rows)
        assert there.log_entries > 30 and there.snapshots == 6  # first and newest of each
        # every outbox row as it was: delivered stays delivered, failed keeps its attempts
        # and error, held stays held, pending stays pending
        states = await outbox_states(first)
        assert await outbox_states(middle) == states == await outbox_states(back)
        assert {(r[4] is not None, r[5], r[7] is not None) for r in states} == {
            (True, 0, False),
            (False, 1, False),
            (False, 2, False),
            (False, 0, True),
            (False, 0, False),
        }
        assert there.outbox_pending == sum(1 for r in states if r[4] is None)
        assert await middle.pending_events(limit=1000) == await first.pending_events(limit=1000)
        assert await middle.lease(games[0]) is None
    finally:
        for store in (first, middle, back):
            await store.close()

    # each game, loaded by a service from each store, is the same game, and goes on the same
    services = [await GameService.open(url) for url in (first_url, pg_target, back_url)]
    try:
        for game in games:
            rows = [await s.game(game) for s in services]
            assert rows[0] == rows[1] == rows[2]
            worlds = [await s.live_world(game) for s in services]
            assert worlds[0].hash() == worlds[1].hash() == worlds[2].hash()
            assert worlds[0].tick == worlds[1].tick == worlds[2].tick
            views = [(await s.view(game, "red")).to_dict() for s in services]
            assert views[0] == views[1] == views[2]
            assert [await s.members(game) for s in services] == [
                await services[0].members(game)
            ] * 3
        for s in services:
            await s.submit(games[0], "blue", cmd.Move(units=[4], to=(15, 2)))
            await s.advance(games[0], 4)
        hashes = {(await s.live_world(games[0])).hash() for s in services}
        assert len(hashes) == 1
        # new games get ids after the copied ones on every store
        new = [await s.create_game(name="new", world=strip_world()) for s in services]
        assert new == [games[-1] + 1] * 3
    finally:
        for s in services:
            await s.close()


async def test_new_rows_on_postgresql_get_ids_after_the_copied_ones(
    tmp_path: Path, pg_url: Callable[[], Awaitable[str]]
) -> None:
    source_url = f"sqlite:///{tmp_path / 'games.db'}"
    games = await make_games(source_url)
    source, target = await open_store(source_url), await open_store(await pg_url())
    try:
        await copy_stores(source, target)
        top_outbox = (await stores.query(target, "SELECT MAX(id) FROM outbox"))[0][0]
        service = GameService(target)
        new = await service.create_game(name="after", world=strip_world())
        assert new == max(games) + 1
        await service.advance(new, 2)
        await service.submit(new, "red", cmd.Move(units=[1], to=(3, 1)))
        new_rows = await stores.query(target, "SELECT id FROM outbox WHERE game_id = ?", (new,))
        assert new_rows and min(r[0] for r in new_rows) > top_outbox
    finally:
        await source.close()
        await target.close()


async def test_a_second_copy_into_the_same_target_is_refused_and_changes_nothing(
    tmp_path: Path, pg_url: Callable[[], Awaitable[str]]
) -> None:
    source_url = f"sqlite:///{tmp_path / 'games.db'}"
    await make_games(source_url)
    source, target = await open_store(source_url), await open_store(await pg_url())
    try:
        await copy_stores(source, target)
        counts = "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM log),"
        counts += " (SELECT COUNT(*) FROM outbox), (SELECT COUNT(*) FROM snapshots)"
        before = await stores.query(target, counts)
        with pytest.raises(CopyRefused, match="ids of 3 source games already"):
            await copy_stores(source, target)
        assert await stores.query(target, counts) == before
    finally:
        await source.close()
        await target.close()


async def test_a_game_leased_to_a_running_process_stops_the_copy_before_it_starts(
    tmp_path: Path,
) -> None:
    source = await open_store(tmp_path / "a.db")
    target = await open_store(tmp_path / "b.db")
    try:
        service = GameService(source)
        game = await service.create_game(name="t", world=strip_world())
        await source.acquire_lease(game, "bot-1", now=time.time(), ttl=60)
        with pytest.raises(CopyRefused, match="leased to the process 'bot-1'"):
            await copy_stores(source, target)
        assert await target.games() == []
        report = await copy_stores(source, target, live_leases=True)
        assert report.game_ids == [game] and await target.lease(game) is None
    finally:
        await source.close()
        await target.close()


async def test_verify_finds_a_copy_that_does_not_replay_the_same(tmp_path: Path) -> None:
    source = await open_store(tmp_path / "a.db")
    target = await open_store(tmp_path / "b.db")
    try:
        games = await make_games(str(tmp_path / "a.db"))
        await copy_stores(source, target)
        assert await verify(source, target, games) == []
        # one command of the first game's log changed in the copy
        await stores.execute(
            target,
            "UPDATE log SET entry = replace(entry, '[4,2]', '[3,2]') WHERE game_id = ? AND seq = 1",
            [(games[0],)],
        )
        problems = await verify(source, target, games)
        assert len(problems) == 2
        assert problems[0] == f"game {games[0]}: rows differ (log)"
        assert "replays to" in problems[1] and "in the target" in problems[1]
    finally:
        await source.close()
        await target.close()


async def test_the_cli_copies_verifies_and_refuses_a_second_time(
    tmp_path: Path, pg_url: Callable[[], Awaitable[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.db"
    games = await make_games(str(path))
    target = await pg_url()
    assert await cli(["db", "copy", str(path), target]) == 0
    out = capsys.readouterr().out
    assert f"copying every game from {path} to {target}" in out
    assert "copied 3 games: " in out and " outbox rows (" in out
    assert "verified in " in out and "replays to the same world hash" in out
    # the bot's own tables go too (tests/bot/test_copy_bot_tables.py): here, none has rows
    assert "copied the bot's rows: 0 players' settings, 0 DM statuses" in out
    assert "not copied: the bot's own tables" not in out
    store = await open_store(target)
    try:
        assert [g.id for g in await store.games()] == games
    finally:
        await store.close()

    assert await cli(["db", "copy", f"sqlite:///{path}", target]) == 2
    assert "nothing copied" in capsys.readouterr().err
    assert await cli(["db", "copy", str(tmp_path / "missing.db"), target]) == 2
    assert "no database at" in capsys.readouterr().err


async def test_the_cli_fails_loudly_when_the_copy_does_not_replay_the_same(
    tmp_path: Path, pg_url: Callable[[], Awaitable[str]], capsys, monkeypatch
) -> None:
    path = tmp_path / "games.db"
    games = await make_games(str(path))
    real_import = PostgresStore.import_game

    async def lossy(self, dump):  # a broken copy: the last log entry of the first game lost
        if dump.id == games[0]:
            dump = type(dump)(dump.game, dump.log[:-1], dump.snapshots, dump.outbox, dump.members)
        await real_import(self, dump)

    monkeypatch.setattr(PostgresStore, "import_game", lossy)
    assert await cli(["db", "copy", str(path), await pg_url()]) == 1
    captured = capsys.readouterr()
    assert "copied 3 games" in captured.out and "verified" not in captured.out
    assert "ERROR: 2 differences" in captured.err
    assert f"game {games[0]}: rows differ (log)" in captured.err
    assert "do not use the target store" in captured.err


async def test_games_made_in_the_source_during_the_copy_make_it_fail(
    tmp_path: Path, pg_url: Callable[[], Awaitable[str]], capsys, monkeypatch
) -> None:
    """Issue 27, finding 5: a writer the copy cannot see (no heartbeat: an older bot, a tool)
    creates games while the copy runs. The copy says so and fails, naming them, instead of
    'verified' with games missing from the target."""
    path = tmp_path / "games.db"
    games = await make_games(str(path))
    real_import = PostgresStore.import_game
    made: list[int] = []

    async def meanwhile(self, dump):  # the source gains two games while the first is copied
        await real_import(self, dump)
        if not made:
            writer = await GameService.open(str(path))
            try:
                for n in range(2):
                    made.append(await writer.create_game(name=f"new{n}", world=strip_world()))
            finally:
                await writer.close()

    monkeypatch.setattr(PostgresStore, "import_game", meanwhile)
    assert await cli(["db", "copy", str(path), await pg_url()]) == 1
    captured = capsys.readouterr()
    assert made == [games[-1] + 1, games[-1] + 2]
    assert "verified" not in captured.out
    assert "ERROR: 2 differences" in captured.err
    for game in made:
        assert (
            f"game {game}: in the source at the end of the copy, not in the target (made during"
            " the copy?)"
        ) in captured.err
    assert "do not use the target store" in captured.err
