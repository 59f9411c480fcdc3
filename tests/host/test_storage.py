"""The choice of the games store by URL, and what both backends must do alike (each test here
runs on SQLite and on PostgreSQL: the `store_url` fixture, tests/conftest.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.store import BotStore
from engine.host.database import DatabaseClosed
from engine.host.postgres import PostgresStore
from engine.host.rows import LeaseLost, LogWrite
from engine.host.service import GameService
from engine.host.sqlite import SqliteStore
from engine.host.storage import GameStore, backend_of, open_store, sqlite_path
from engine.interface.kind import FIRST_KIND
from tests import stores
from tests.games.strategic.worlds import strip_world


async def _bare_game(store: GameStore) -> int:
    """A game made in the store itself (no service): an empty world, no players."""
    return await store.create_game(
        name="g",
        ruleset="standard",
        settings={},
        clock={},
        world_json="{}",
        world_hash="h",
        kind=FIRST_KIND,
    )


def test_a_url_names_its_backend() -> None:
    assert backend_of("postgresql://si@db.example/games") == "postgresql"
    assert backend_of("postgres://si@db.example/games") == "postgresql"
    assert backend_of("sqlite:///var/strategic-initiative.db") == "sqlite"
    assert backend_of("var/strategic-initiative.db") == "sqlite"  # a plain path, as before
    assert sqlite_path("sqlite:///var/x.db") == "var/x.db"
    assert sqlite_path("sqlite:////srv/x.db") == "/srv/x.db"
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    assert sqlite_path("var/x.db") == "var/x.db"
    with pytest.raises(ValueError, match="unknown database URL"):
        backend_of("mysql://si@db.example/games")


def test_si_database_url_wins_over_the_sqlite_file(monkeypatch) -> None:
    monkeypatch.delenv("SI_DATABASE_URL", raising=False)
    monkeypatch.setenv("SI_DATABASE", "var/other.db")
    assert Settings(_env_file=None).store_url == "var/other.db"  # type: ignore[call-arg]
    monkeypatch.setenv("SI_DATABASE_URL", "")  # empty: unset
    assert Settings(_env_file=None).store_url == "var/other.db"  # type: ignore[call-arg]
    monkeypatch.setenv("SI_DATABASE_URL", "postgresql://si@db.example/games")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.store_url == "postgresql://si@db.example/games"


async def test_open_store_opens_the_backend_the_url_names(store_url, backend) -> None:
    store = await open_store(store_url)
    try:
        expected = PostgresStore if backend == "postgresql" else SqliteStore
        assert type(store) is expected
        assert await store.schema_version() >= 1
        await store.migrate()  # a second start finds nothing to do
        assert await store.games() == []
    finally:
        await store.close()
    with pytest.raises(DatabaseClosed):
        await store.games()


async def test_a_game_survives_a_reopen_on_either_backend(store_url) -> None:
    svc = await GameService.open(store_url, snapshot_every=4, advance_batch=1)
    game = await svc.create_game(name="kept", world=strip_world(), guild_id="7")
    await svc.advance(game, 9)
    expected = (await svc.live_world(game)).hash()
    await svc.close()
    again = await GameService.open(store_url)
    try:
        assert (await again.live_world(game)).hash() == expected
        assert [g.id for g in await again.games(guild_id="7")] == [game]
        assert await again.games(guild_id="8") == []
        assert [g.id for g in await again.games(status=["running", "lobby"])] == [game]
        snap = await again.store.latest_snapshot(game)
        first = await again.store.first_snapshot(game)
        assert snap is not None and first is not None and first[0] == 0 < snap[0] <= 9
    finally:
        await again.close()


async def test_a_failed_append_writes_nothing_and_memory_is_not_told(store_url) -> None:
    """One transaction: a log row that exists already makes the whole append fail (the
    outbox row and the status change before it roll back), and `on_commit` is not called."""
    store = await open_store(store_url)
    try:
        game = await _bare_game(store)
        entry = {"kind": "command", "nation": "red"}
        await store.append_many(game, [LogWrite(1, 0, entry, [("red", {"kind": "X"})])])
        told: list[object] = []
        with pytest.raises(Exception) as failed:
            await store.append_many(
                game,
                [
                    LogWrite(2, 0, entry, [("blue", {"kind": "Y"})]),
                    LogWrite(1, 0, entry, []),  # seq 1 again
                ],
                status="ended",
                on_commit=told.append,
            )
        assert "unique" in str(failed.value).lower()
        assert told == []
        assert await store.last_seq(game) == 1
        assert [r.nation for r in await store.pending_events()] == ["red"]
        row = await store.game(game)
        assert row is not None and row.status == "lobby"
    finally:
        await store.close()


async def test_pending_rows_know_whether_they_answer_the_recipients_own_command(
    store_url,
) -> None:
    store = await open_store(store_url)
    try:
        game = await _bare_game(store)
        await store.append_many(
            game,
            [
                LogWrite(1, 0, {"kind": "command", "nation": "red"}, [("red", {}), ("blue", {})]),
                LogWrite(2, 1, {"kind": "advance", "ticks": 1}, [("red", {})]),
            ],
        )
        rows = await store.pending_events()
        assert [(r.seq, r.nation, r.own) for r in rows] == [
            (1, "red", True),
            (1, "blue", False),
            (2, "red", False),
        ]
    finally:
        await store.close()


async def test_a_fenced_write_after_a_take_over_writes_nothing(store_url) -> None:
    store = await open_store(store_url)
    try:
        game = await _bare_game(store)
        old = await store.acquire_lease(game, "a", now=0.0, ttl=10.0)
        new = await store.acquire_lease(game, "b", now=11.0, ttl=10.0)  # a's ran out
        assert new == old + 1
        with pytest.raises(LeaseLost):
            await store.append_many(game, [LogWrite(1, 0, {}, [])], fence=("a", old))
        with pytest.raises(LeaseLost):
            await store.update_game(game, status="ended", fence=("a", old))
        await store.append_many(game, [LogWrite(1, 0, {}, [])], fence=("b", new))
        assert await store.last_seq(game) == 1
        assert await store.renew_leases("a", {game: old}, now=12.0, ttl=10.0) == {game}
        assert await store.renew_leases("b", {game: new}, now=12.0, ttl=10.0) == set()
        lease = await store.lease(game)
        assert lease is not None and (lease.owner, lease.token, lease.expires) == ("b", new, 22.0)
        await store.release_lease(game, "b", new, now=13.0)
        lease = await store.lease(game)  # ended now; the row stays, so tokens only go up
        assert lease is not None and (lease.owner, lease.token, lease.expires) == ("b", new, 13.0)
        after = await store.acquire_lease(game, "a", now=13.0, ttl=10.0)  # free at once
        assert after == new + 1  # never a token given before: a's old writes stay refused
        with pytest.raises(LeaseLost):
            await store.update_game(game, status="ended", fence=("a", old))
    finally:
        await store.close()


async def test_take_overs_racing_fenced_writes_never_both_win(store_url, backend) -> None:
    """Many processes' worth of take-overs and fenced writes at once: every write that
    committed was fenced with the token that was the game's when it committed, so no two
    holders' writes are interleaved after a take-over."""
    stores_ = [await open_store(store_url) for _ in range(3)]
    try:
        game = await _bare_game(stores_[0])
        seq = [0]
        committed: list[int] = []  # tokens of the writes that committed, in commit order

        async def holder(i: int, store) -> None:
            for _round in range(8):
                token = await store.acquire_lease(game, f"p{i}", now=0.0, ttl=0.0)
                for _ in range(3):
                    seq[0] += 1
                    write = LogWrite(seq[0], 0, {"token": token}, [])
                    try:
                        await store.append_many(
                            game,
                            [write],
                            fence=(f"p{i}", token),
                            on_commit=lambda _, t=token: committed.append(t),
                        )
                    except LeaseLost:
                        break
                    await asyncio.sleep(0)

        await asyncio.gather(*(holder(i, s) for i, s in enumerate(stores_)))
        if backend == "sqlite":
            # one writer thread reports commits in the order they happened: never an older
            # holder after a newer one. (PostgreSQL's pool reports commits of different
            # connections in no set order, so there only what was written is checked; the
            # refusal itself is pinned in tests/host/test_leases.py, on both backends.)
            assert committed == sorted(committed)
        logged = [e["token"] for _, e in await stores_[0].log_after(game, 0)]
        assert sorted(logged) == sorted(committed)
        assert committed  # some writes won (how many holders got one in varies by timing)
    finally:
        for s in stores_:
            await s.close()


async def test_raw_sql_helpers_speak_each_backends_parameters(store_url) -> None:
    store = await open_store(store_url)
    try:
        await stores.execute(
            store,
            "INSERT INTO games (id, name, ruleset, status, created_at, settings, clock)"
            " VALUES (?, ?, 'standard', 'running', 0, '{}', '{}')",
            [(41, "a"), (42, "b")],
        )
        assert await stores.query(
            store, "SELECT name FROM games WHERE id > ? ORDER BY id", (0,)
        ) == [
            ("a",),
            ("b",),
        ]
    finally:
        await store.close()


async def test_the_bot_tables_live_in_either_backend(store_url) -> None:
    store = await open_store(store_url)
    try:
        await BotStore.of(store).set_player_settings("1", {"sitrep": False})
        assert await BotStore.of(store).get_player_settings("1") == {"sitrep": False}
    finally:
        await store.close()


async def test_the_list_of_games_follows_another_process_s_changes(store_url) -> None:
    """The list of games is kept between reads and read again only when the games table
    changed (`games_version`): a game created, changed or deleted by another process (here
    another store on the same database) is seen at the next read all the same."""
    here = await GameService.open(store_url)
    there = await GameService.open(store_url)
    try:
        first = await here.create_game(name="one", world=strip_world(), guild_id="7")
        assert [g.name for g in await here.games()] == ["one"]
        second = await there.create_game(name="two", world=strip_world(), guild_id="8")
        assert [g.name for g in await here.games()] == ["one", "two"]
        assert [g.id for g in await here.games(guild_id="8")] == [second]
        version = (await here.store.query("SELECT version FROM games_version"))[0][0]
        await there.store.update_game(second, status="finished")
        assert [g.id for g in await here.games(status=["finished"])] == [second]
        assert [g.id for g in await here.games(status=["running", "lobby"])] == [first]
        await there.store.delete_game(first)
        assert [g.id for g in await here.games()] == [second]
        after = (await here.store.query("SELECT version FROM games_version"))[0][0]
        assert after > version
        # nothing changed: the same list (a copy: changing it changes nothing kept)
        listed = await here.games()
        listed.clear()
        assert [g.id for g in await here.games()] == [second]
    finally:
        await here.close()
        await there.close()


async def test_a_sqlite_job_may_not_hand_its_cursor_to_the_event_loop(tmp_path) -> None:
    """A cursor freed on the event loop's thread resets its statement while the database
    thread may be running it again from the statement cache: SQLite then fails that job
    ("bad parameter or other API misuse", seen once under load). So a job returning a cursor
    is refused on the database thread, its write rolled back, and the store goes on."""
    from engine.host.database import Database

    db = await Database.open(str(tmp_path / "jobs.db"), [])
    try:
        await db.write(lambda c: c.execute("CREATE TABLE t (x INTEGER)").rowcount)
        with pytest.raises(TypeError, match="returned a cursor"):
            await db.write(lambda c: c.execute("INSERT INTO t VALUES (1)"))
        with pytest.raises(TypeError, match="returned a cursor"):
            await db.read(lambda c: c.execute("SELECT x FROM t"))
        assert await db.read(lambda c: c.execute("SELECT count(*) FROM t").fetchall()) == [(0,)]
        assert (
            await db.write(
                lambda c: c.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)]).rowcount
            )
            == 2
        )
    finally:
        await db.close()
