"""Ruleset total-war (seed 002) through the real bot and the fake Discord: a game created
with it, /help telling its battles, and an attack fought as a battle in rounds, told to the
attacker in the reply and to the defender by DM (a nation that sees nothing hears nothing)."""

from __future__ import annotations

import pytest

from tests.e2e.test_bot_e2e import running_bot, seat_game

MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~A..........B~~~~~~~~~~~~~~~~~~~~~~~~~~~
~............~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~C..~~
"""


@pytest.mark.slow  # a generated map and both players' start pictures (about 4 s)
async def test_a_total_war_game_is_created_joined_and_explained(tmp_path) -> None:
    async with running_bot(tmp_path, ["alice", "bob"]) as env:
        fake = env.fake
        made = await fake.invoke(
            env.alice,
            env.channel,
            "game create strategic-initiative",
            {
                "name": "Total",
                "nations": 2,
                "size": "small",
                "speed": "test (x360)",
                "ruleset": "total-war",
            },
        )
        assert not made.ephemeral and "Total" in made.text
        game = int(made.text.split("(game ")[1].split(")")[0])
        await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
        started = await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
        assert "has started" in started.text
        world = await env.bot.service.live_world(game)
        assert world.rules.name == "total-war" and world.rules.battle is not None
        told = await fake.invoke(env.alice, env.channel, "help", {"topic": "battles"})
        assert "Total War rules" in told.text
        assert "tank           > infantry, engineer" in told.text
        assert "+50% attack" in told.text and "ceil(its units ÷ 3) misses" in told.text


@pytest.fixture
async def env(tmp_path):
    async with running_bot(tmp_path, ["alice", "bob", "carol"]) as env:
        env.game = await seat_game(
            env,
            "Battle",
            {
                "ruleset": "total-war",
                "seed": 11,
                "map": MAP,
                "explored": "all",
                "nations": {
                    "red": {"player": str(env.alice.id)},
                    "blue": {"player": str(env.bob.id)},
                    "green": {"player": str(env.carol.id)},
                },
                "relations": [["red", "blue", "war"]],
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                    "C": {"owner": "green", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "infantry", "at": "5,1", "mobility": 2},
                    {"id": 2, "owner": "red", "type": "tank", "at": "5,2", "mobility": 3},
                    {"id": 3, "owner": "blue", "type": "infantry", "at": "6,1"},
                    {"id": 4, "owner": "blue", "type": "engineer", "at": "6,1"},
                ],
            },
        )
        yield env


async def test_an_attack_is_a_battle_told_in_the_reply_and_by_dm(env) -> None:
    fake = env.fake
    reply = await fake.invoke(env.alice, env.channel, "attack", {"units": "1 2", "target": "6,1"})
    assert reply.ephemeral
    # each attack of the battle, with its dice, in the attacker's reply
    assert "(battle turn 1)" in reply.text
    assert "Your infantry 1 attacked Blue's engineer 4" in reply.text  # effective: first
    assert "of 1-" in reply.text and "or less hits" in reply.text
    assert "(battle turn 2)" in reply.text  # then blue's side attacks
    # the defender hears of it by DM; green, far away, sees nothing and hears nothing
    await env.bot.notifier.deliver_now(env.game)
    dm = await fake.wait_for_dm(env.bob, lambda m: "attacks near 6,1" in m.content, timeout=10)
    # red's attacks collapse into one line; its own side's attacks are told one by one
    assert "Red on you; destroyed: your engineer 4" in dm.content
    assert "Your infantry 3 attacked Red's infantry 1 at 5,1 (battle turn 2)" in dm.content
    assert not any("battle" in m.content for m in fake.dms(env.carol))
    # a bad attack changes nothing and says why, privately
    before = (await env.bot.service.live_world(env.game)).hash()
    bad = await fake.invoke(env.alice, env.channel, "attack", {"units": "1", "target": "30,4"})
    assert bad.ephemeral
    assert (await env.bot.service.live_world(env.game)).hash() == before
