"""What the store keeps in memory beside the file (members, parsed game rows) is never older
than what was committed: every way members change, reads racing writes, and game rows that
change status, clock or settings."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from engine.host.service import GameService
from engine.host.storage import GameStore
from tests import stores
from tests.games.strategic.worlds import strip_world


@pytest.fixture
async def service(store_url):  # on SQLite and on PostgreSQL
    svc = await GameService.open(store_url, synchronous="NORMAL")
    yield svc
    await svc.close()


async def _on_file(store: GameStore, game_id: int) -> dict[str, str]:
    rows = await stores.query(
        store, "SELECT nation, user_id FROM members WHERE game_id = ?", (game_id,)
    )
    return dict(rows)


async def test_members_follow_every_change(service):
    store = service.store
    game = await service.create_game(name="g", world=strip_world())
    assert await store.members(game) == {"red": "100", "blue": "200"}
    version = store.members_version(game)
    # what a caller does with its copy does not change the store's
    (await store.members(game))["red"] = "999"
    assert await store.members(game) == {"red": "100", "blue": "200"}
    assert store.members_version(game) == version
    await service.substitute(game, "blue", "300")
    assert await store.members(game) == {"red": "100", "blue": "300"} == await _on_file(store, game)
    assert store.members_version(game) != version
    await service.substitute(game, "blue", None)  # nobody (the AI)
    assert await store.members(game) == {"red": "100"} == await _on_file(store, game)
    await store.add_members(game, [("blue", "400")])
    assert await store.members(game) == {"red": "100", "blue": "400"} == await _on_file(store, game)
    await service.delete_game(game)
    assert await store.members(game) == {}


async def test_lobby_joins_and_leaves_change_members(service):
    store = service.store
    game = await service.create_game(name="lobby", max_nations=3, width=40, height=40, seed=2)
    assert await store.members(game) == {}
    red = await service.join(game, name="Red", colour="#c0392b", player="100")
    assert await store.members(game) == {red: "100"}
    blue = await service.join(game, name="Blue", colour="#2e86c1", player="200")
    assert await store.members(game) == {red: "100", blue: "200"}
    await service.leave(game, red)
    assert await store.members(game) == {blue: "200"} == await _on_file(store, game)


async def test_a_read_racing_a_member_write_is_not_kept(service):
    """A read handed over before a member write answers with the members before it; that
    answer must not stay in memory after the write committed."""
    store = service.store
    game = await service.create_game(name="g", world=strip_world())
    for order in range(2):
        store._members.clear()  # nothing in memory: the read goes to the file
        read = asyncio.ensure_future(store.members(game))
        await asyncio.sleep(0)  # the read is handed over first
        user = f"5{order}"
        write = asyncio.ensure_future(store.add_members(game, [("blue", user)]))
        if order:  # the write lands before the read's answer is looked at
            await write
            await read
        else:
            await asyncio.gather(read, write)
        assert (await store.members(game))["blue"] == user
        assert await store.members(game) == await _on_file(store, game)


async def test_a_cancelled_member_write_leaves_memory_right(service):
    store = service.store
    game = await service.create_game(name="g", world=strip_world())
    for steps in range(1, 30):
        await store.members(game)  # in memory
        task = asyncio.ensure_future(store.add_members(game, [("red", f"7{steps}")]))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()  # before it was handed over, while it ran, or after it finished
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert await store.members(game) == await _on_file(store, game)


async def test_game_rows_are_parsed_again_only_when_they_change(service):
    store = service.store
    games = [await service.create_game(name=f"g{i}", world=strip_world()) for i in range(3)]
    first = await store.games()
    again = await store.games()
    assert [a is b for a, b in zip(first, again, strict=True)] == [True] * 3
    await service.update_settings(games[1], ai={"blue": "normal"})
    await service.pause(games[2])
    rows = {r.id: r for r in await store.games()}
    assert rows[games[0]] is first[0]
    assert rows[games[1]].settings["ai"] == {"blue": "normal"}
    assert rows[games[2]].clock["paused"] is True
    assert rows == {r.id: r for r in [await store.game(g) for g in games]}
    await service.end(games[0])
    assert [r.id for r in await store.games(status=["running"])] == games[1:]
    await service.delete_game(games[1])
    assert [r.id for r in await store.games()] == [games[0], games[2]]


async def test_the_games_of_a_channel_follow_creation_status_and_deletion(service):
    """A command finds its game by the channel it is typed in: the answers the store keeps
    per question change whenever the games table does, and a caller's copy is its own."""
    store = service.store

    async def here(**status) -> list[int]:
        rows = await store.games(guild_id="1", channel_id="10", **status)
        return [r.id for r in rows]

    one = await service.create_game(name="a", world=strip_world(), guild_id="1", channel_id="10")
    await service.create_game(name="b", world=strip_world(), guild_id="1", channel_id="11")
    await service.create_game(name="c", world=strip_world(), guild_id="2", channel_id="10")
    assert await here() == [one]
    (await store.games(guild_id="1", channel_id="10")).clear()  # the caller's copy only
    assert await here() == [one]
    assert await here(status=["running"]) == [one]
    two = await service.create_game(name="d", world=strip_world(), guild_id="1", channel_id="10")
    assert await here() == [one, two]
    await service.end(one)
    assert await here(status=["running"]) == [two]
    assert await here() == [one, two]
    await service.delete_game(two)
    assert await here() == [one]
    assert await here(status=["running"]) == []
