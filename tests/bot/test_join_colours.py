"""Every nation of the largest game gets a colour of its own without choosing one (the palette
used to run out at 18 and refuse the 20th join as "that colour is taken")."""

from __future__ import annotations

import pytest

from bot.context import Caller
from bot.desk import Desk
from engine.host.service import GameService
from engine.interface.colours import FALLBACK
from engine.strategic.kind import MAX_NATIONS


def caller(user: int) -> Caller:
    return Caller(user_id=str(user), name=f"user{user}", guild_id="900", channel_id="901")


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def test_thirty_two_nations_join_without_choosing_and_each_has_its_own_colour(
    desk: Desk,
) -> None:
    created = await desk.lifecycle.game_create(caller(1), "Big war", nations=MAX_NATIONS)
    game = created.refresh_game
    assert game is not None
    for user in range(1, MAX_NATIONS + 1):
        reply = await desk.lifecycle.game_join(caller(user), f"Nation {user}")
        assert "You lead" in reply.text, reply.text
    summary = await desk.ctx.service.summary(game)
    shown = [n.colour for n in summary.nations.values()]
    assert len(shown) == MAX_NATIONS
    assert len(set(shown)) == MAX_NATIONS and FALLBACK not in shown
    assert (await desk.ctx.service.game(game)).status == "running"
