"""Discord's interaction rules as a player meets them (issue 26): an answer that takes long is
deferred in time, privately, so an error never shows in the channel (the first message after a
defer keeps the defer's privacy); a command whose answer comes too late has still done what it
did and the channel still hears of it, and the dead interaction is not called again."""

from __future__ import annotations

import pytest

from bot import discord_io
from bot.client import StrategicBot
from tests.e2e.test_bot_e2e import eventually, settings
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def table(tmp_path):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Wargames", channels=["war-room"])
        channel = next(c for c in guild.channels.values() if c.name == "war-room")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        for user in (alice, bob):
            fake.add_member(guild, user)
        bot = StrategicBot(settings(tmp_path, guild.id))
        await fake.start_client(bot, wait_for_sync=guild)
        yield fake, channel, alice, bob
        await fake.stop_client(bot)


def channel_texts(fake, channel) -> list[str]:
    """What everyone in the channel sees: its messages that are not private."""
    return [m.content for m in fake.channel_messages(channel) if not m.ephemeral]


async def test_a_slow_game_create_that_fails_says_so_privately(table, monkeypatch) -> None:
    fake, channel, alice, bob = table
    monkeypatch.setattr(discord_io, "DEFER_AFTER", 0.0)  # every answer is deferred
    made = await fake.invoke(
        alice,
        channel,
        "game create strategic-initiative",
        {"name": "First", "nations": 2, "speed": "test (x360)"},
    )
    assert made.ephemeral and "Done" in made.content  # the creator's own note
    await eventually(lambda: any("**First**" in t for t in channel_texts(fake, channel)))
    refused = await fake.invoke(
        bob,
        channel,
        "game create strategic-initiative",
        {"name": "Second", "nations": 2, "speed": "test (x360)"},
    )
    assert refused.ephemeral and "already hosts game" in refused.content
    assert not any("already hosts" in t for t in channel_texts(fake, channel))


async def test_a_quick_game_create_answers_in_the_channel_and_errors_privately(table) -> None:
    fake, channel, alice, bob = table
    made = await fake.invoke(
        alice,
        channel,
        "game create strategic-initiative",
        {"name": "First", "nations": 2, "speed": "test (x360)"},
    )
    assert not made.ephemeral and "**First**" in made.content
    refused = await fake.invoke(
        bob,
        channel,
        "game create strategic-initiative",
        {"name": "Second", "nations": 2, "speed": "test (x360)"},
    )
    assert refused.ephemeral and "already hosts game" in refused.content


async def test_a_command_answered_too_late_is_done_and_announced(table) -> None:
    fake, channel, alice, bob = table
    await fake.invoke(
        alice,
        channel,
        "game create strategic-initiative",
        {"name": "Late", "nations": 3, "speed": "test (x360)"},
    )
    fake.interaction_timeout = 0.0  # every acknowledgement now comes too late (10062)
    late = await fake.invoke(bob, channel, "game join", {"name": "Blue"})
    assert late.rejected and "10062" in late.rejected[0]
    errors = fake.pop_errors()
    assert [e.kind for e in errors] == ["late-ack"]  # the dead token is not called again
    fake.interaction_timeout = 3.0
    # the join was committed, and the channel was told
    await eventually(lambda: any("**Blue** joins" in t for t in channel_texts(fake, channel)))
    again = await fake.invoke(bob, channel, "game join", {"name": "Blue again"})
    assert "already play blue" in again.content.lower()


async def test_the_bot_asks_discord_for_the_one_intent_it_uses(table) -> None:
    fake = table[0]
    # guilds (1 << 0) only: everything a player does arrives as an interaction
    assert {conn.intents for conn in fake.gateway.identified()} == {1}


async def test_a_slow_confirmation_is_deferred_and_its_message_still_says_what_was_done(
    table, monkeypatch
) -> None:
    fake, channel, alice, bob = table
    await fake.invoke(
        alice,
        channel,
        "game create strategic-initiative",
        {"name": "Duel", "nations": 2, "speed": "test (x360)"},
    )
    await fake.invoke(alice, channel, "game join", {"name": "Red"})
    await fake.invoke(bob, channel, "game join", {"name": "Blue"})
    ask = await fake.invoke(bob, channel, "game resign")
    button = ask.message.buttons[0]["custom_id"]
    monkeypatch.setattr(discord_io, "DEFER_AFTER", 0.0)  # every answer is deferred
    pressed = await fake.click(bob, ask, button)
    assert pressed.callback_type == 6  # acknowledged in time, the answer to come
    await eventually(lambda: "resigned" in ask.message.content)
    assert not ask.message.buttons  # the button is gone with the question
    await eventually(
        lambda: any("**Blue** has resigned" in t for t in channel_texts(fake, channel))
    )
