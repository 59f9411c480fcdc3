"""The host serves any game kind through its small interface (`engine.interface.kind`): a second,
tiny kind (the counter game's core, `tests.games.counter.core`) is created, joined, started,
played, recovered after a restart and read through the same service as Strategic Initiative."""

from __future__ import annotations

import pytest

from engine.errors import CommandError, GameError
from engine.host.service import GameService
from engine.interface.kind import kind
from tests.games.counter.core import Add
from tests.games.counter.registration import registered


@pytest.fixture(autouse=True)
def counter_kind():
    with registered():
        yield


async def test_a_second_kind_is_hosted_like_the_first(store_url) -> None:
    path = store_url
    service = await GameService.open(path)
    try:
        si = await service.create_game(name="war", max_nations=2, width=40, height=40, seed=3)
        game = await service.create_game(name="count", kind="counter", max_nations=2)
        assert (await service.game(game)).kind == "counter"
        assert (await service.game(si)).kind == "strategic-initiative"
        with pytest.raises(CommandError, match="not started"):
            await service.submit(game, "red", Add(amount=1))
        await service.join(game, name="Red", colour="#c0392b", player="1")
        await service.join(game, name="Blue", colour="#2e86c1", player="2")
        assert (await service.game(game)).status == "running"  # full: started at once
        result = await service.submit(game, "red", Add(amount=3))
        assert [(e.kind, e.to) for e in result.events] == [("Added", ["blue", "red"])]
        with pytest.raises(CommandError, match="add 1 to 3"):
            await service.submit(game, "blue", Add(amount=9))
        await service.advance(game, 5)
        summary = await service.summary(game)
        assert (
            summary.kind == "counter"
            and summary.tick == 5
            and sorted(summary.nations)
            == [
                "blue",
                "red",
            ]
        )
        assert await service.view(game, "blue") == {"nation": "blue", "total": 8, "tick": 5}
        with pytest.raises(GameError, match="no nation 'green'"):
            await service.view(game, "green")
        before = kind("counter").hash(await service.live_world(game))
    finally:
        await service.close()
    again = await GameService.open(path)  # a restart: snapshot + log, through the kind
    try:
        assert kind("counter").hash(await again.live_world(game)) == before
        assert (await again.summary(si)).kind == "strategic-initiative"
    finally:
        await again.close()


async def test_an_unknown_kind_is_refused_with_the_known_ones(store_url) -> None:
    service = await GameService.open(store_url)
    try:
        with pytest.raises(GameError, match="no game kind 'chess'.*strategic-initiative"):
            await service.create_game(name="x", kind="chess")
        assert await service.games() == []
    finally:
        await service.close()
