"""Every nation of the largest game gets a colour of its own without choosing one (the palette
used to run out at 18 and refuse the 20th join as "that colour is taken")."""

from __future__ import annotations

import pytest

from bot.context import Caller, UserError
from bot.desk import Desk
from engine.host.service import GameService
from engine.interface.colours import FALLBACK, PALETTE
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


async def test_a_default_colour_keeps_clear_of_a_colour_chosen_near_it(desk: Desk) -> None:
    created = await desk.lifecycle.game_create(caller(1), "Near red", nations=3)
    game = created.refresh_game
    assert game is not None
    await desk.lifecycle.game_join(caller(1), "Scarlet", "#e6195e")  # a hair from red
    await desk.lifecycle.game_join(caller(2), "Plain")  # the default steps over red
    colours = {n.name: n.colour for n in (await desk.ctx.service.summary(game)).nations.values()}
    assert colours == {"Scarlet": "#e6195e", "Plain": PALETTE["blue"]}
    offered = {v for _, v in await desk.lifecycle.choose_colours(caller(3), "")}
    assert "red" not in offered and "blue" not in offered and "yellow" in offered
    with pytest.raises(UserError, match="too close to #e6195e"):
        await desk.lifecycle.game_add_ai(caller(1), "Hal", "red")
    assert len((await desk.ctx.service.summary(game)).nations) == 2


async def test_a_game_without_founding_refuses_a_leader_and_changes_nothing(desk: Desk) -> None:
    created = await desk.lifecycle.game_create(caller(1), "Lines", kind="supply-lines")
    game = created.refresh_game
    assert game is not None
    with pytest.raises(UserError, match="a nation is a name and a colour: leave out leader"):
        await desk.lifecycle.game_join(caller(1), "Red", leader="Ada")
    assert not (await desk.ctx.service.summary(game)).nations
    assert await desk.lifecycle.choose_homes(caller(1), "") == []
