"""A two-part ICBM in a total-war game, through the real bot and the fake Discord: /status shows
the ecological meter, /launch asks first, the button launches the pair, the victim and the
channel are told (the wasteland, the war, the meter) and /status shows the meter risen; a
launch that brings the collapse ends the game with every nation losing, told to every player
and the channel, and the result has no winner."""

from __future__ import annotations

import pytest

from engine.strategic.scenario import build_world
from tests.e2e.test_bot_e2e import running_bot, seat_world

MAP = """
~~~~~~~~~~~~~~~
~A..........C~~
~............~~
~~~~~~~~~~~~~~~
"""


@pytest.fixture(params=[0])
async def env(tmp_path, request):
    async with running_bot(tmp_path, ["alice", "bob"]) as env:
        world, _ = build_world(
            {
                "ruleset": "total-war",
                "map": MAP,
                "nations": {
                    "red": {"player": str(env.alice.id), "tech": 12},
                    "blue": {"player": str(env.bob.id)},
                },
                "cities": {
                    "A": {"owner": "red", "designation": "tech"},
                    "C": {"owner": "blue", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "missile_base", "at": "A"},
                    {"id": 2, "owner": "red", "type": "explosive_warhead", "at": "A"},
                    {"id": 3, "owner": "blue", "type": "infantry", "at": "C"},
                    {"id": 4, "owner": "blue", "type": "infantry", "at": "5,2"},
                ],
            }
        )
        world.tick = world.rules.ticks_per_hour  # 01:00: the parts stood there since 00:00
        world.ecology = request.param
        env.game = await seat_world(env, "Fallout", world)
        yield env


def meter(card: dict) -> str:
    return next(f["value"] for f in card["fields"] if f["name"] == "Ecological meter")


async def test_a_two_part_launch_told_to_both_sides_and_the_channel(env) -> None:
    fake = env.fake
    status = await fake.invoke(env.alice, env.channel, "status")
    assert meter(status.embeds[0]).startswith("0 of 60")
    ask = await fake.invoke(env.alice, env.channel, "launch", {"unit": 1, "target": "12,1"})
    assert ask.ephemeral and ask.message.buttons
    assert "Launch an ICBM with **Missile Base 1** and the best warhead" in ask.text
    world = await env.bot.service.live_world(env.game)
    assert 1 in world.units  # nothing happens before the button
    done = await fake.click(env.alice, ask, ask.message.buttons[0]["custom_id"])
    assert "**You launched an explosive warhead** at 12,1 (radius 0, 100% to hit)" in done.text
    assert "1 city turned into wasteland (12,1) for 3 days" in done.text
    assert "you are now at war with Blue; the ecological meter stands at **10/60**" in done.text
    world = await env.bot.service.live_world(env.game)
    assert 1 not in world.units and 2 not in world.units
    await env.bot.notifier.deliver_now(env.game)
    told = await fake.wait_for_dm(env.bob, lambda m: "explosive warhead" in m.content)
    assert (
        "**Red launched an explosive warhead** at 12,1 (radius 0, 100% to hit): 1 city turned "
        "into wasteland (12,1) for 3 days; **your cities were hit** and you are at war "
        "with Red; the ecological meter stands at **10/60**" in told.content
    )
    news = await fake.wait_for_message(env.channel, lambda m: "☢️" in m.content)
    assert (
        "☢️ **Red** launched an ICBM at 12,1 (blast radius 0); the ecological meter stands at "
        "10/60." in news.content
    )
    status = await fake.invoke(env.bob, env.channel, "status")
    assert meter(status.embeds[0]).startswith("10 of 60")
    # a second launch needs a new pair: none left
    again = await fake.invoke(env.alice, env.channel, "launch", {"unit": 2, "target": "12,1"})
    assert "no unit 2" in again.text.lower()


@pytest.mark.parametrize("env", [50], indirect=True)  # one wasteland more: the collapse
async def test_a_launch_into_the_collapse_ends_the_game_with_everyone_losing(env) -> None:
    fake = env.fake
    ask = await fake.invoke(env.alice, env.channel, "launch", {"unit": 2, "target": "12,1"})
    await fake.click(env.alice, ask, ask.message.buttons[0]["custom_id"])
    for user in (env.alice, env.bob):
        told = await fake.wait_for_dm(user, lambda m: "Society has collapsed" in m.content)
        assert "every nation lost" in told.content
    news = await fake.wait_for_message(env.channel, lambda m: "🌋" in m.content)
    assert "Society has collapsed" in news.content and "every nation lost" in news.content
    result = await fake.wait_for_message(
        env.channel, lambda m: "the result" in m.content, timeout=30
    )
    assert "Nobody won: every nation lost." in result.content
    mine = await fake.invoke(env.alice, env.channel, "stats player")
    assert "1 game, 0 wins" in mine.text
    status = await fake.invoke(env.bob, env.channel, "status")
    assert "Nobody won: society collapsed" in status.embeds[0]["description"]
