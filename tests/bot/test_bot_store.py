"""The bot's own tables (bot/store.py) live beside the games' with their own migrations: made
on first use, kept as they are in a database whose older games store made them, and gone with
the game they name. The same API and the same meaning on SQLite and on PostgreSQL (`store_url`:
every test here that takes it runs on both)."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from bot.store import MIGRATIONS, POSTGRES_MIGRATIONS, BotStore
from engine.host.postgres import PostgresStore
from engine.host.service import GameService
from engine.host.storage import GameStore, open_store
from tests import stores
from tests.games.strategic.worlds import strip_world

BOT_TABLES = {
    "bot_schema",
    "player_settings",
    "dm_status",
    "sitreps",
    "confirmations",
    "news",
    "game_results",
    "game_charts",
    "end_posts",
}


async def _tables(store: GameStore) -> set[str]:
    if isinstance(store, PostgresStore):
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {r[0] for r in await store.query(sql)}


async def _count(store: GameStore, table: str, game_id: int) -> int:
    rows = await stores.query(store, f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,))
    return int(rows[0][0])


@pytest.fixture
async def service(store_url):
    svc = await GameService.open(store_url, synchronous="NORMAL")
    yield svc
    await svc.close()


async def test_the_bot_makes_its_tables_on_first_use(service, backend):
    assert not BOT_TABLES & await _tables(service.store)  # the games store makes none
    bot = BotStore.of(service.store)
    assert BotStore.of(service.store) is bot  # one per database
    assert await bot.get_player_settings("1") == {}
    assert await _tables(service.store) >= BOT_TABLES
    latest = len(POSTGRES_MIGRATIONS if backend == "postgresql" else MIGRATIONS)
    assert await service.store.query("SELECT version FROM bot_schema") == [(latest,)]


async def test_a_games_bot_rows_go_with_the_game(service):
    bot = BotStore.of(service.store)
    game = await service.create_game(name="t", world=strip_world())
    other = await service.create_game(name="u", world=strip_world())
    for g in (game, other):
        await bot.set_sitreps(g, {"red": 2, "blue": 3})
        await bot.add_confirmation(
            f"tok{g}", user_id="1", game_id=g, kind="resign", args={}, expires_at=10**12
        )
        await bot.add_news(g, "1", ["a", "b"], first_row=1, at=1.0, keep=5)
    await bot.add_confirmation(
        "no-game", user_id="1", game_id=None, kind="x", args={}, expires_at=10**12
    )
    await bot.set_player_settings("1", {"sitrep": False})
    await bot.set_dm_status("1", "closed")
    await service.delete_game(game)
    assert await bot.sitreps(game) == {}
    assert await bot.confirmation(f"tok{game}") is None
    assert await bot.news(game, "1", 10) == []
    for table in ("sitreps", "confirmations", "news"):
        assert await _count(service.store, table, game) == 0, table
    # the other game's rows, and a player's own, stay
    assert await bot.sitreps(other) == {"red": 2, "blue": 3}
    assert await bot.confirmation(f"tok{other}") is not None
    assert [r.text for r in await bot.news(other, "1", 10)] == ["a", "b"]
    assert await bot.confirmation("no-game") is not None
    assert await bot.get_player_settings("1") == {"sitrep": False}
    status = await bot.get_dm_status("1")
    assert status is not None and status.status == "closed"


async def test_player_settings_and_dm_status(service):
    bot = BotStore.of(service.store)
    await bot.set_player_settings("1", {"quiet_from": 22, "muted": ["builds"], "n": 1.5})
    await bot.set_player_settings("2", {"sitrep": False})
    await bot.set_player_settings("1", {"pictures": False})  # replaces the whole choice
    assert await bot.get_player_settings("1") == {"pictures": False}
    assert await bot.get_player_settings("2") == {"sitrep": False}
    assert await bot.get_dm_status("1") is None
    await bot.set_dm_status("1", "ok", now=100.0)
    await bot.set_dm_status("1", "ok", now=150.0)  # the same status: `since` stays
    assert tuple(await bot.get_dm_status("1") or ()) == ("ok", None, 100.0, 150.0)
    await bot.set_dm_status("1", "closed", "50007", now=200.0)  # a change: `since` moves
    assert tuple(await bot.get_dm_status("1") or ()) == ("closed", "50007", 200.0, 200.0)
    await bot.set_dm_status(1, "closed", now=300)  # type: ignore[arg-type]  # an int id
    assert tuple(await bot.get_dm_status("1") or ()) == ("closed", None, 200.0, 300.0)


async def test_confirmations_by_token_with_expiry_taken_once(service):
    bot = BotStore.of(service.store)
    game = await service.create_game(name="t", world=strip_world())
    args = {"nation": "red", "days": [1, 2], "note": "é"}
    await bot.add_confirmation(
        "old", user_id="1", game_id=game, kind="resign", args={}, expires_at=50.0, now=10.0
    )
    await bot.add_confirmation(
        "new", user_id="7", game_id=game, kind="cede", args=args, expires_at=400.0, now=100.0
    )
    assert await bot.confirmation("old") is None  # expired: dropped by the next one
    row = await bot.confirmation("new")
    assert row is not None
    assert (row.token, row.user_id, row.game_id, row.kind) == ("new", "7", game, "cede")
    assert row.args == args and (row.created_at, row.expires_at) == (100.0, 400.0)
    with pytest.raises(Exception, match="(?i)unique|duplicate"):  # a token names one action
        await bot.add_confirmation(
            "new", user_id="1", game_id=None, kind="x", args={}, expires_at=500.0, now=100.0
        )
    assert (await bot.confirmation("new")) == row  # the failed write changed nothing
    # a button pressed several times at once acts once
    taken = await asyncio.gather(*(bot.take_confirmation("new") for _ in range(5)))
    assert sorted(taken) == [False, False, False, False, True]
    assert await bot.confirmation("new") is None
    assert await bot.take_confirmation("new") is False


async def test_sitrep_days(service):
    bot = BotStore.of(service.store)
    game = await service.create_game(name="t", world=strip_world())
    assert await bot.get_sitrep(game, "red") is None
    await bot.set_sitreps(game, {})  # nothing to write
    await bot.set_sitreps(game, {"red": 1, "blue": 1})
    await bot.set_sitrep(game, "red", 2)
    assert await bot.get_sitrep(game, "red") == 2
    assert await bot.sitreps(game) == {"red": 2, "blue": 1}
    with pytest.raises(Exception, match="(?i)foreign key"):  # sitreps name a game that exists
        await bot.set_sitreps(game + 100, {"red": 1})
    assert await bot.sitreps(game + 100) == {}


async def test_two_processes_on_one_database_migrate_once_and_share_the_rows(store_url):
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        a, b = BotStore.of(first), BotStore.of(second)
        assert a is not b
        # both make the tables at the same moment: one does, the other finds them made
        await asyncio.gather(a.get_player_settings("1"), b.get_player_settings("1"))
        await a.set_player_settings("1", {"sitrep": False})
        assert await b.get_player_settings("1") == {"sitrep": False}
        assert len(await first.query("SELECT version FROM bot_schema")) == 1
    finally:
        await first.close()
        await second.close()


async def test_tables_an_older_games_store_made_are_kept_with_their_rows(tmp_path):
    path = tmp_path / "old.db"
    service = await GameService.open(str(path))
    await service.close()
    with sqlite3.connect(path) as c:  # as the SQLite games store's migration 2 made them before
        c.execute("CREATE TABLE player_settings (user_id TEXT PRIMARY KEY, settings TEXT NOT NULL)")
        c.execute("INSERT INTO player_settings VALUES ('7', '{\"pictures\": false}')")
    service = await GameService.open(str(path))
    try:
        bot = BotStore.of(service.store)
        assert await bot.get_player_settings("7") == {"pictures": False}
        await bot.set_dm_status("7", "closed", "no DMs")
        status = await bot.get_dm_status("7")
        assert status is not None and status.status == "closed"
    finally:
        await service.close()


async def test_a_games_result_is_kept_once_and_outlives_the_game(service):
    from bot.store import ResultRow

    bot = BotStore.of(service.store)
    game = await service.create_game(name="t", world=strip_world(), guild_id="7")
    places: list[list[dict[str, Any]]] = [
        [{"nation": "red", "name": "Red", "player": "1"}],
        [
            {"nation": "blue", "name": "Blue", "player": None},
            {"nation": "x", "name": "X", "player": "ai"},
        ],
    ]
    first = ResultRow(game, "7", "strategic-initiative", "t", 100.0, places)
    assert await bot.add_result(first) is True
    # a second record (another process, a restart, a /stats catching up) changes nothing
    again = first._replace(ended_at=200.0, places=[])
    assert await bot.add_result(again) is False
    assert await bot.result(game) == first
    earlier = ResultRow(game + 1000, "7", "supply-lines", "u", 50.0, [])
    elsewhere = ResultRow(game + 2000, "8", "supply-lines", "v", 10.0, [])
    for row in (earlier, elsewhere):
        assert await bot.add_result(row)
    assert await bot.results("7") == [earlier, first]  # the server's, oldest first
    await service.delete_game(game)
    assert await bot.result(game) == first  # the standings keep a deleted game's result


CHARTS = {
    "xs": ["day 1", ""],
    "panels": [
        {"title": "Cities", "series": [{"name": "Red", "colour": "#e6195f", "values": [1.0, 2.0]}]}
    ],
}


async def test_an_ended_games_charts_are_kept_once_and_its_posts_noted(service):
    """The charts `/stats game` reads (kept once, after the game too) and which of the end's
    posts are made (a restart makes the others; they go with the game)."""
    bot = BotStore.of(service.store)
    game = await service.create_game(name="t", world=strip_world())
    running = await service.create_game(name="u", world=strip_world())
    assert await bot.ends_unposted("result") == []  # none has ended
    await service.end(game)
    assert await bot.ends_unposted("result") == [game]
    await bot.mark_end_posted(game, "timelapse")
    assert await bot.ends_unposted("result") == [game]
    await bot.mark_end_posted(game, "result")
    await bot.mark_end_posted(game, "result")  # (noted again: a second process, late)
    assert await bot.end_posted(game) == {"timelapse", "result"}
    assert await bot.ends_unposted("result") == [] and await bot.end_posted(running) == set()
    assert await bot.charts(game) is None
    await bot.add_charts(game, CHARTS)
    await bot.add_charts(game, {"xs": [], "panels": []})  # kept once: the first stays
    assert await bot.charts(game) == CHARTS
    await service.delete_game(game)
    assert await _count(service.store, "end_posts", game) == 0
    assert await bot.charts(game) == CHARTS  # kept with the game's result


async def test_the_games_that_ended_before_the_end_was_noted_count_as_posted(tmp_path):
    """A database whose bot tables are older than the end's posts being noted: its ended
    games were posted by the bot of then, so the new one posts none of them again."""
    path = tmp_path / "old.db"
    service = await GameService.open(str(path))
    ended = await service.create_game(name="t", world=strip_world())
    later = await service.create_game(name="u", world=strip_world())
    await service.end(ended)
    await service.close()
    with sqlite3.connect(path) as c:  # the bot's tables as its fourth migration left them
        c.execute("CREATE TABLE bot_schema (version INTEGER NOT NULL)")
        for script in MIGRATIONS[:4]:
            c.executescript(script)
        c.execute("INSERT INTO bot_schema VALUES (4)")
    service = await GameService.open(str(path))
    try:
        bot = BotStore.of(service.store)
        assert await bot.ends_unposted("result") == []
        assert await bot.end_posted(ended) == {"timelapse", "result"}
        await service.end(later)
        assert await bot.ends_unposted("result") == [later]
    finally:
        await service.close()
