"""Orders as players think of them, at the desk (issue 29): a city's waypoint."""

from __future__ import annotations

import pytest

from bot.context import UserError
from bot.desk import Desk
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from engine.host.service import GameService
from tests.bot.test_desk import caller, started


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def test_a_city_sends_what_it_builds_to_its_waypoint(desk: Desk) -> None:
    game = await started(desk)
    # its clock stands still: at the test speed (10 s a game hour) a loaded machine would let
    # commands catch the game up and build the infantry before the waypoint is set
    await desk.ctx.service.pause(game)
    view = await desk.ctx.view(game, "red")
    city = next(c for c in view.own_cities() if c.build == "infantry")
    # the next square along the row on land, as the nation sees it
    x, y = city.sq % view.width, city.sq // view.width
    where = view.label(city.sq)
    with pytest.raises(UserError, match="has no waypoint"):
        await desk.part(Playing).waypoint(caller("1"), where)
    with pytest.raises(UserError, match="off the map"):
        await desk.part(Playing).waypoint(caller("1"), where, f"{view.width + 3},1")
    assert "new units go to" not in (await desk.part(Intel).cities(caller("1"))).full_text
    to = f"{x},{(y + 1) % view.height}"
    reply = await desk.part(Playing).waypoint(caller("1"), where, to)
    assert reply.text.startswith(f"The city at {where} sends each unit it builds to {to}")
    listed = (await desk.part(Intel).cities(caller("1"))).full_text
    assert f"new units go to {to}" in listed
    # Blue is told nothing of it, and its list of cities does not show it
    assert to not in (await desk.part(Intel).cities(caller("2"))).full_text
    before = {u.id for u in view.own_units()}
    await desk.ctx.service.advance(game, 8 * 4)  # infantry: 8 hours
    after = await desk.ctx.view(game, "red")
    new = [u for u in after.own_units() if u.id not in before]
    assert new and all(after.label(u.sq) == to for u in new)
    reply = await desk.part(Playing).waypoint(caller("1"), where, "none")
    assert reply.text.startswith(f"The city at {where} keeps what it builds now.")
    assert "new units go to" not in (await desk.part(Intel).cities(caller("1"))).full_text


async def test_a_queued_attack_says_it_waits_until_in_range(desk: Desk) -> None:
    from engine.strategic.scenario import build_world
    from tests.bot.test_desk import CHANNEL, GUILD

    world, _ = build_world(
        {
            "map": "~~~~~~~~~~~~~~\n~A..........B~\n~............~\n~~~~~~~~~~~~~~\n",
            "nations": {"red": {"player": "1"}, "blue": {"player": "2"}},
            "relations": [["red", "blue", "war"]],
            "cities": {"A": {"owner": "red"}, "B": {"owner": "blue"}},
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "A", "mobility": 2},
                {"id": 2, "owner": "blue", "type": "infantry", "at": "6,1"},
                {"id": 3, "owner": "red", "type": "zeppelin", "at": "5,2"},
            ],
        }
    )
    await desk.ctx.service.create_game(
        name="Queue", world=world, guild_id=GUILD, channel_id=CHANNEL
    )
    red = caller("1")
    with pytest.raises(UserError, match="queue:true: it goes on and attacks once in range"):
        await desk.part(Playing).attack(red, "1", "6,1")
    reply = await desk.part(Playing).attack(red, "1", "6,1", queue=True)
    assert "Unit 1, now at 3,1, attacks 6,1 once in range" in reply.text
    assert "2 command points spent" in reply.text
    listed = (await desk.part(Intel).units(red)).full_text
    assert "attacks 6,1" in listed  # its standing order shows in /units
