"""Adding a game is its own packages plus one registry line (issue 28): the counter game
(`tests.games.counter`: a core, a bot side, a desk part, a teller, two cogs), registered by
the test and nowhere else, is played through the real bot and the fake Discord. Nothing of the
shell names it: its `/game create counter`, its `/add`, its DM wording, its help and its
hint in another game's command all come from its side."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from bot.client import StrategicBot
from tests.e2e.test_bot_e2e import MANAGE_GUILD, eventually, settings
from tests.fakediscord import FakeDiscord
from tests.games.counter.registration import registered


@pytest.fixture
async def env(tmp_path):
    """The bot with the counter game registered, against the fake Discord; the game is
    unregistered once the bot has stopped."""
    with registered():
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Wargames", channels=["general", "counting"])
            channel = next(c for c in guild.channels.values() if c.name == "counting")
            alice, bob, mod = (fake.add_user(n) for n in ("alice", "bob", "mod"))
            for user in (alice, bob):
                fake.add_member(guild, user)
            fake.add_member(guild, mod, permissions=MANAGE_GUILD)
            bot = StrategicBot(settings(tmp_path, guild.id))
            await fake.start_client(bot, wait_for_sync=guild)
            yield SimpleNamespace(
                fake=fake, guild=guild, channel=channel, alice=alice, bob=bob, mod=mod, bot=bot
            )
            await fake.stop_client(bot)


async def test_a_counter_game_is_played_through_discord(env, caplog) -> None:
    fake = env.fake
    created = await fake.invoke(
        env.alice, env.channel, "game create counter", {"name": "Count", "nations": 2}
    )
    assert not created.ephemeral and "a counter for 2 players" in created.text
    game = int(created.text.split("(game ")[1].split(")")[0])
    red = await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    assert red.ephemeral and "You lead **Red** in Count; the counter is at 0." in red.text
    blue = await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    assert "The game is full and has started" in blue.text  # two seats: full, it starts

    # Blue adds: the reply to Blue, the news to Red by DM in the game's own words
    added = await fake.invoke(env.bob, env.channel, "add", {"amount": 3})
    assert added.ephemeral and added.text == "You added 3: the counter is 3."
    told = await fake.wait_for_dm(env.alice, lambda m: "added" in m.content, timeout=10)
    assert told.content.startswith("**Count")  # the teller's header: the game's name
    assert "Blue added 3: the counter is 3." in told.content

    # a wrong amount: refused privately, saying why and what stays; nothing changes
    before = await env.bot.service.live_world(game)
    refused = await fake.invoke(env.alice, env.channel, "add", {"amount": 9})
    assert refused.ephemeral
    assert refused.text == "Add 1 to 3 at a time, not 9: the counter stays at 3."
    after = await env.bot.service.live_world(game)
    assert (after.total, after.tick) == (before.total, before.tick) == (3, 0)

    # /help in the counter game: its own pages, its own topics among /help's choices
    page = await fake.invoke(env.alice, env.channel, "help")
    assert page.ephemeral and page.text.startswith("**Counter: first steps** (counter rules")
    assert "`/add amount:` adds 1 to 3" in page.text
    topic = await fake.invoke(env.alice, env.channel, "help", {"topic": "counting"})
    assert topic.text.startswith("**Counter: how the counter counts**")

    # another game's command in the counter game: refused, naming what its players use
    moved = await fake.invoke(env.alice, env.channel, "move", {"units": "1", "to": "2,2"})
    assert moved.ephemeral
    assert moved.text == (
        f"Count (game {game}) is a Counter game, and this command is for Strategic Initiative "
        "games: add to its counter with `/add amount:`."
    )

    # the referee's view is the side's (text: the game has no picture)
    view = await fake.invoke(env.mod, env.channel, "mod view")
    assert view.ephemeral and not view.files
    assert "everyone sees the counter at 3 (only you see this)" in view.text

    # a moderator ends it: the players hear it in the game's words; no timelapse is posted
    # (the game has none), and nothing fails trying
    caplog.set_level(logging.INFO)
    ask = await fake.invoke(env.mod, env.channel, "mod end")
    ended = await fake.click(env.mod, ask, ask.message.buttons[0]["custom_id"])
    assert "has been ended by a moderator" in ended.text
    for user in (env.alice, env.bob):
        over = await fake.wait_for_dm(user, lambda m: "is over" in m.content, timeout=10)
        assert "The game is over: the counter stopped at 3." in over.content
    # Blue's own addition came back to Blue as the reply only, never by DM
    assert not any("added" in m.content for m in fake.dms(env.bob))
    await eventually(
        lambda: any(t.get_name() == f"game-over-{game}" and t.done() for t in env.bot._tasks),
        timeout=10,
    )
    assert not any("is over." in m.content for m in fake.channel_messages(env.channel))
    assert f"timelapse of game {game} failed" not in caplog.text
    # its result is posted and counted all the same, with no charts (it has none): everyone
    # counted together shares the first place
    result = next(m for m in fake.channel_messages(env.channel) if "the result" in m.content)
    assert "1st: Red" in result.content and "Blue" in result.content
    assert not result.attachments
    assert f"the result of game {game} failed" not in caplog.text
    assert (await env.bot.service.game(game)).status == "ended"
