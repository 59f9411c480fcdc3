"""Orders as players think of them (issue 29), through the real bot and the fake Discord: a
fleet on one order, an attack queued until in range (and its DM when given up), a city's
waypoint in /waypoint and /cities."""

from __future__ import annotations

import pytest

from engine.strategic import commands as cmd
from tests.e2e.test_bot_e2e import running_bot, seat_game

MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~A..........B~~~~~~~~~~~~~~~~~~~~~~~~~~~
~............~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
"""


@pytest.fixture
async def env(tmp_path):
    async with running_bot(tmp_path, ["alice", "bob"]) as env:
        env.game = await seat_game(
            env,
            "Orders",
            {
                "ruleset": "standard",
                "map": MAP,
                "explored": "all",
                "nations": {
                    "red": {"player": str(env.alice.id)},
                    "blue": {"player": str(env.bob.id)},
                },
                "relations": [["red", "blue", "war"]],
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "infantry", "at": "A", "mobility": 2},
                    {"id": 2, "owner": "blue", "type": "infantry", "at": "6,1"},
                    {"id": 3, "owner": "red", "type": "zeppelin", "at": "5,2"},
                    {"id": 4, "owner": "red", "type": "destroyer", "at": "15,3"},
                    {"id": 5, "owner": "red", "type": "transport", "at": "15,4"},
                ],
            },
        )
        yield env


async def test_ships_on_one_order_sail_together(env) -> None:
    reply = await env.fake.invoke(env.alice, env.channel, "move", {"units": "4 5", "to": "25,3"})
    assert reply.ephemeral and "one at a time" not in reply.text
    # the destroyer keeps to the transport's pace: both on their way, to squares side by side
    assert "Unit 4 moved 3 squares" in reply.text and "Unit 5 moved 3 squares" in reply.text
    assert "goes on to 25,3" in reply.text and "goes on to 24," in reply.text


async def test_a_queued_attack_goes_on_and_is_given_up_with_a_dm(env) -> None:
    fake = env.fake
    refused = await fake.invoke(env.alice, env.channel, "attack", {"units": "1", "target": "6,1"})
    assert refused.ephemeral and "queue:true" in refused.text
    reply = await fake.invoke(
        env.alice, env.channel, "attack", {"units": "1", "target": "6,1", "queue": True}
    )
    assert "Unit 1, now at 3,1, attacks 6,1 once in range" in reply.text
    listed = await fake.invoke(env.alice, env.channel, "units", {})
    assert "attacks 6,1" in listed.text
    # Blue's infantry is disbanded where Red sees it: the queued attack is given up, by DM
    await env.bot.service.submit(env.game, "blue", cmd.Disband(units=[2]))
    await env.bot.service.advance(env.game, 16)  # the infantry's update, 4 game hours on
    await env.bot.notifier.deliver_now(env.game)
    told = await fake.wait_for_dm(env.alice, lambda m: "gave up" in m.content, timeout=10)
    assert "unit 1 gave up going to 6,1: **nothing you know of to attack there any more**" in (
        told.content
    )


async def test_a_city_waypoint_is_set_shown_and_cleared(env) -> None:
    fake = env.fake
    reply = await fake.invoke(env.alice, env.channel, "waypoint", {"city": "1,1", "to": "4,2"})
    assert reply.ephemeral
    assert reply.text.startswith("The city at 1,1 sends each unit it builds to 4,2")
    cities = await fake.invoke(env.alice, env.channel, "cities", {})
    assert "new units go to 4,2" in cities.text
    bad = await fake.invoke(env.alice, env.channel, "waypoint", {"city": "12,1", "to": "4,2"})
    assert bad.ephemeral and "you have no city at 12,1" in bad.text.lower()
    cleared = await fake.invoke(env.alice, env.channel, "waypoint", {"city": "1,1"})
    assert cleared.text.startswith("The city at 1,1 keeps what it builds now.")
