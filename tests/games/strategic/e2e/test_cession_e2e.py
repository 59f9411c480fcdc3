"""/cede and /disband through the real bot and the fake Discord (tests/fakediscord)."""

from __future__ import annotations

import pytest

from tests.e2e.test_bot_e2e import running_bot, seat_game

MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~A......B~~~~~~~~~~~~~~~~~~C.~
~........~~~~~~~~~~~~~~~~~~..~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
"""


@pytest.fixture
async def env(tmp_path):
    async with running_bot(tmp_path, ["alice", "bob", "carol"]) as env:
        env.game = await seat_game(
            env,
            "Allies",
            {
                "ruleset": "standard",
                "map": MAP,
                "nations": {
                    "red": {"player": str(env.alice.id)},
                    "blue": {"player": str(env.bob.id)},
                    "green": {"player": str(env.carol.id)},
                },
                "relations": [["red", "blue", "allied"]],
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                    "C": {"owner": "green", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "infantry", "at": "3,1"},
                    {"id": 2, "owner": "red", "type": "tank", "at": "3,2"},
                    {"id": 3, "owner": "blue", "type": "infantry", "at": "7,2"},
                    {"id": 4, "owner": "green", "type": "infantry", "at": "27,1"},
                ],
            },
        )
        yield env


async def test_cede_hands_units_to_the_ally_who_is_told_by_dm(env) -> None:
    fake = env.fake
    offered = await fake.autocomplete(env.alice, env.channel, "cede", focused="to", value="bl")
    assert [c["value"] for c in offered] == ["blue"]
    both = await fake.invoke(
        env.alice, env.channel, "cede", {"to": "blue", "units": "1", "city": "1,1"}
    )
    assert both.ephemeral and "not both" in both.text
    reply = await fake.invoke(env.alice, env.channel, "cede", {"to": "blue", "units": "1"})
    assert reply.ephemeral and reply.text.startswith("You ceded 1 unit to Blue: infantry 1 at 3,1.")
    assert "1 command point spent; 511 left." in reply.text
    told = await fake.wait_for_dm(env.bob, lambda m: "ceded you" in m.content, timeout=10)
    assert "**Red ceded you 1 unit**: infantry 1 at 3,1" in told.content
    # the infantry is bob's to move now, not alice's
    moved = await fake.invoke(env.bob, env.channel, "move", {"units": "1", "to": "4,1"})
    assert "Unit 1 moved" in moved.text
    refused = await fake.invoke(env.alice, env.channel, "move", {"units": "1", "to": "5,1"})
    assert "no unit 1" in refused.text.lower()
    await env.bot.notifier.deliver_now(env.game)
    assert not any("ceded" in m.content for m in fake.dms(env.carol))  # far off: not told


async def test_disband_waits_for_its_button(env) -> None:
    fake = env.fake
    ask = await fake.invoke(env.alice, env.channel, "disband", {"units": "2"})
    assert ask.ephemeral and ask.message.buttons
    assert "Disband tank 2 at 3,2?" in ask.text
    world = await env.bot.service.live_world(env.game)
    assert 2 in world.units  # nothing happens before the button
    done = await fake.click(env.alice, ask, ask.message.buttons[0]["custom_id"])
    assert "You disbanded 1 unit: tank 2 at 3,2." in done.text
    world = await env.bot.service.live_world(env.game)
    assert 2 not in world.units and world.nations["red"].cp == 511
