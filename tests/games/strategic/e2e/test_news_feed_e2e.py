"""The game's public news in its channel (issue 29, item 14), through the real bot and the fake
Discord: wars, alliances, a city taken (never where), a nation out; a moderator turns it off."""

from __future__ import annotations

import pytest

from tests.e2e.test_bot_e2e import running_bot, seat_game
from tests.fakediscord import CommandUnavailable

MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~A.....B~~~~~~~~~~~~~~~~~~~C.~
~.......~~~~~~~~~~~~~~~~~~~..~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
"""


@pytest.fixture
async def env(tmp_path):
    async with running_bot(tmp_path, ["alice", "bob", "carol"], moderators=["mod"]) as env:
        await seat_game(
            env,
            "Headlines",
            {
                "ruleset": "classic",
                "map": MAP,
                "nations": {
                    "red": {"player": str(env.alice.id)},
                    "blue": {"player": str(env.bob.id)},
                    "green": {"player": str(env.carol.id)},
                },
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                    "C": {"owner": "green", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "tank", "at": "6,1"},
                    {"id": 2, "owner": "red", "type": "infantry", "at": "2,2"},
                    {"id": 3, "owner": "green", "type": "infantry", "at": "27,2"},
                ],
            },
        )
        yield env


def posted(env) -> str:
    return "\n".join(m.content for m in env.fake.channel_messages(env.channel))


async def test_the_channel_reads_wars_alliances_captures_and_a_nation_out(env) -> None:
    fake = env.fake
    war = await fake.invoke(env.alice, env.channel, "diplomacy", {"nation": "Blue", "level": "war"})
    assert war.ephemeral
    line = await fake.wait_for_message(env.channel, lambda m: "declared war" in m.content)
    assert "⚔️ **Red** declared war on **Blue**." in line.content
    # one declaration, one line: Blue's side going to war with it is not a second one
    assert "**Blue** declared war" not in posted(env)
    # an alliance is news when both sides are allied, not at the offer
    await fake.invoke(env.carol, env.channel, "diplomacy", {"nation": "Red", "level": "allied"})
    await fake.invoke(env.alice, env.channel, "diplomacy", {"nation": "Green", "level": "allied"})
    await fake.wait_for_message(env.channel, lambda m: "now allies" in m.content)
    assert posted(env).count("now allies") == 1
    # Blue's only city falls: taken (never where) and Blue is out
    taken = await fake.invoke(env.alice, env.channel, "attack", {"units": "1", "target": "7,1"})
    assert "7,1" in taken.text  # the attacker's own reply names its square
    out = await fake.wait_for_message(env.channel, lambda m: "out of the game" in m.content)
    text = posted(env)
    assert "🏴 **Red** took a city from **Blue**." in text
    assert "🏳️ **Blue** is out of the game." in out.content
    assert "7,1" not in text and "6,1" not in text  # no square but an ICBM's is ever news
    # the alliance ends: news again
    await fake.invoke(env.carol, env.channel, "diplomacy", {"nation": "Red", "level": "friendly"})
    await fake.wait_for_message(env.channel, lambda m: "alliance of" in m.content)
    assert "💔 The alliance of **Green** and **Red** is over." in posted(env)


async def test_a_moderator_turns_the_news_off_and_on(env) -> None:
    fake = env.fake
    with pytest.raises(CommandUnavailable):  # a moderator's command (Manage Server)
        await fake.invoke(env.alice, env.channel, "mod news", {"on": False})
    off = await fake.invoke(env.mod, env.channel, "mod news", {"on": False})
    assert "no longer posted" in off.text
    again = await fake.invoke(env.mod, env.channel, "mod news", {"on": False})
    assert again.ephemeral and "already off" in again.text
    await fake.invoke(env.alice, env.channel, "diplomacy", {"nation": "Blue", "level": "war"})
    on = await fake.invoke(env.mod, env.channel, "mod news", {"on": True})
    assert "posted here again" in on.text
    await fake.invoke(env.carol, env.channel, "diplomacy", {"nation": "Blue", "level": "war"})
    await fake.wait_for_message(env.channel, lambda m: "**Green** declared war" in m.content)
    assert "**Red** declared war" not in posted(env)  # said while the news was off
