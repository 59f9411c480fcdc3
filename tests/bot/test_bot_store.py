"""The bot's own tables (bot/store.py) live beside the games' with their own migrations: made
on first use, kept as they are in a database whose older games store made them, and gone with
the game they name."""

from __future__ import annotations

import sqlite3

from bot.store import BotStore
from engine.host.service import GameService
from tests.worlds import strip_world


async def test_the_bot_makes_its_tables_on_first_use_and_they_go_with_their_game(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"))
    try:
        tables = {r[0] for r in await service.store.query("SELECT name FROM sqlite_master")}
        assert "player_settings" not in tables  # the games store makes none of the bot's
        bot = BotStore.of(service.store)
        assert BotStore.of(service.store) is bot  # one per database
        game = await service.create_game(name="t", world=strip_world())
        await bot.set_sitreps(game, {"red": 2})
        await bot.add_confirmation(
            "tok", user_id="1", game_id=game, kind="resign", args={}, expires_at=10**12
        )
        await bot.set_player_settings("1", {"sitrep": False})
        await service.delete_game(game)
        assert await bot.sitreps(game) == {}
        assert await bot.confirmation("tok") is None
        assert await bot.get_player_settings("1") == {"sitrep": False}  # a player's, not a game's
    finally:
        await service.close()


async def test_tables_an_older_games_store_made_are_kept_with_their_rows(tmp_path):
    path = tmp_path / "old.db"
    service = await GameService.open(str(path))
    await service.close()
    with sqlite3.connect(path) as c:  # as the games store's migration 2 made them before
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
