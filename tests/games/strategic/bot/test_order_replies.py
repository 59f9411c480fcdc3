"""A move's reply says what happened: how far each unit went and where it is, and for a unit
that goes on, where to and when it should arrive (issue 15)."""

from __future__ import annotations

import re

from bot.context import Caller
from bot.desk import Desk
from bot.games.strategic.playing import Playing
from engine.host.service import GameService
from tests.games.strategic.worlds import STRIP, strip_world

RED = Caller(user_id="100", name="red", guild_id=None, channel_id=None)


async def test_a_move_reply_tells_how_far_the_units_went_and_when_the_rest_arrive(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"))
    try:
        game = await service.create_game(name="t", world=strip_world())
        desk = Desk(service)
        # infantry 1 has 6 mobility now and walks 2 at each 4-hourly update
        cp = (await service.view(game, "red")).status.cp
        cost = (await service.live_world(game)).rules.command_points.costs.move
        far, paid = (await desk.part(Playing).move(RED, "1", "10,1")).text.split("\n")
        match = re.fullmatch(
            r"Unit 1 moved 6 squares, now at 7,1; goes on to 10,1, arriving about (day \d+ \d\d:\d\d)\.",
            far,
        )
        assert match, far
        # and what the order cost, and what is left
        assert paid == f"{cost} command point{'s' if cost != 1 else ''} spent; {cp - cost} left."
        near = (await desk.part(Playing).move(RED, "2", "3,1")).text
        assert near.split("\n")[0] == "Unit 2 moved 2 squares to 3,1."
        assert near.endswith(f"spent; {cp - 2 * cost} left.")
        # the arrival it named is when the unit really gets there
        await _unit_1_arrives_when_named(service, game, match.group(1), "10,1", within=200)
    finally:
        await service.close()


async def _unit_1_arrives_when_named(
    service: GameService, game: int, arrival: str, square: str, *, within: int
) -> None:
    """Advance the game tick by tick to the named arrival (at most `within` ticks): unit 1 is
    not at `square` before it, and is there then."""
    summary = await service.summary(game)
    while summary.clock() != arrival:
        assert summary.tick < within, "the named arrival never came"
        world = await service.live_world(game)
        assert world.grid.label(world.units[1].sq) != square  # not before
        await service.advance(game, 1)
        summary = await service.summary(game)
    world = await service.live_world(game)
    assert world.grid.label(world.units[1].sq) == square


LONG = {
    "map": """
        ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        ~A...........................B.~
        ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    """,
    "cities": {
        "A": {"owner": "red", "designation": "fort", "build": "infantry"},
        "B": {"owner": "blue", "designation": "fort", "build": "infantry"},
    },
    "units": [
        {"id": 1, "owner": "red", "type": "infantry", "at": "1,1", "mobility": 6},
        {"id": 4, "owner": "blue", "type": "infantry", "at": "29,1", "mobility": 6},
    ],
}


async def test_the_arrival_a_move_names_counts_the_dearer_steps_out_of_supply(tmp_path):
    """Beyond the supply radius every step costs the ruleset's out-of-supply cost: the arrival
    the reply names is when the unit really gets there (issue 29), not the distance over its
    mobility."""
    service = await GameService.open(str(tmp_path / "g.db"))
    try:
        game = await service.create_game(name="t", world=strip_world(**LONG))
        rules = (await service.live_world(game)).rules
        assert rules.supply.out_of_supply_step_cost > 1
        desk = Desk(service)
        far = (await desk.part(Playing).move(RED, "1", "25,1")).text.split("\n")[0]
        match = re.search(r"arriving about (day \d+ \d\d:\d\d)\.", far)
        assert match, far
        await _unit_1_arrives_when_named(service, game, match.group(1), "25,1", within=400)
    finally:
        await service.close()


async def test_giving_a_base_a_build_warns_that_the_command_point_income_drops(tmp_path):
    """A base gives the ruleset's extra command points; a build of a unit another designation
    makes turns it into that designation, and the reply says what the nation loses."""
    service = await GameService.open(str(tmp_path / "g.db"))
    try:
        cities = {**STRIP["cities"], "A": {"owner": "red", "designation": "base"}}
        game = await service.create_game(name="t", world=strip_world(cities=cities))
        before = (await service.view(game, "red")).status.cp_regen
        desk = Desk(service)
        reply = (await desk.part(Playing).build(RED, "1,1", "infantry")).text
        after = (await service.view(game, "red")).status.cp_regen
        assert after < before
        assert (
            f"**Warning:** It is no longer a base: your command points per hour drop from "
            f"{before} to {after}." in reply
        ), reply
        # an order that changes no income warns of nothing
        quiet = (await desk.part(Playing).build(RED, "1,1", "engineer")).text
        assert "Warning" not in quiet, quiet
    finally:
        await service.close()
