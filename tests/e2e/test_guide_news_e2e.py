"""/help, the welcome DM and /news through the real bot and the fake Discord."""

from __future__ import annotations

import re

from engine.strategic.rules import load as load_rules
from tests.e2e.test_bot_e2e import env, open_game  # noqa: F401 - `env` is a fixture


async def test_help_units_through_discord(env) -> None:  # noqa: F811
    reply = await env.fake.invoke(env.carol, env.channel, "help", {"topic": "units"})
    assert reply.ephemeral and reply.text.startswith("**Help: units and tech** (Standard")
    assert len(reply.text) <= 2000 and reply.text.rstrip().endswith(".")  # never cut off
    battleship = load_rules("standard").unit["battleship"]
    row = next(line for line in reply.text.splitlines() if line.startswith("Battleship"))
    assert row.split()[2:6] == [
        str(battleship.tech),
        str(battleship.cost_hours),
        str(battleship.hp),
        str(battleship.attack),
    ]
    classic = await env.fake.invoke(
        env.carol, env.channel, "help", {"topic": "cp", "ruleset": "classic"}
    )
    assert "(Classic rules)" in classic.text and "64 CP" in classic.text


async def test_the_welcome_dm_after_joining_and_news(env) -> None:  # noqa: F811
    fake = env.fake
    await open_game(env)
    joined = await fake.invoke(
        env.alice, env.channel, "game join", {"name": "Red", "colour": "red"}
    )
    assert "You lead **Red**" in joined.text
    welcome = await fake.wait_for_dm(env.alice, lambda m: "Welcome" in m.content, timeout=10)
    text = welcome.content
    assert text.startswith("**Welcome to Island War, Red!**") and "**red**" in text
    assert "has not started yet (1/2 nations)" in text
    capital = re.search(r"Your capital: \*\*(\d+,\d+)", text)
    assert capital is not None and f"`/map at:{capital.group(1)} radius:6`" in text
    assert fake.dms(env.bob) == []
    # bob joins: the game is full and starts; bob's welcome says it has started
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    bob = await fake.wait_for_dm(env.bob, lambda m: "Welcome" in m.content, timeout=10)
    assert "It has started" in bob.content
    # /news: alice reads her own reports again, never bob's
    await fake.wait_for_dm(env.alice, lambda m: "The game has started" in m.content, timeout=10)
    news = await fake.invoke(env.alice, env.channel, "news")
    assert news.ephemeral and news.text.startswith("**Your reports from Island War**")
    assert "Welcome to Island War, Red!" in news.text and "Blue!" not in news.text
    assert re.search(r"<t:\d+:f>", news.text) and len(news.text) <= 2000
    # the newest first: the start came after the welcome
    assert news.text.index("The game has started!") < news.text.index("Welcome to Island War, Red!")
    nothing = await fake.invoke(env.carol, env.channel, "news")
    assert "no reports" in nothing.text
