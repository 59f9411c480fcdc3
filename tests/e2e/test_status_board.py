"""The pinned status message of a game (bot/client.py `refresh_status`) through the fake
Discord: edited only when its text changed since the last edit, so a pass over 1,000 idle games
sends no request for the games whose status did not change."""

from __future__ import annotations

import pytest

from tests.e2e.test_bot_e2e import running_bot
from tests.fakediscord import FakeDiscord
from tests.games.strategic.worlds import strip_world


@pytest.fixture
async def env(tmp_path):
    """The real bot without its background loops: every refresh is the test's."""
    async with running_bot(tmp_path, ["alice", "bob"], background=False) as env:
        yield env


def sent(fake: FakeDiscord, channel_id: int) -> list[str]:
    """The bot's requests that post, edit or pin messages in the channel, as 'METHOD path'."""
    return [
        f"{r.method} {r.path}"
        for r in fake.requests
        if r.method in ("POST", "PATCH", "PUT") and f"/channels/{channel_id}/messages" in r.path
    ]


async def hosted_game(env) -> int:
    """A running game hosted in the channel, made through the service (no command's own
    refresh runs beside the test's)."""
    return await env.bot.service.create_game(
        name="Island War",
        world=strip_world(),
        speed=360.0,
        guild_id=str(env.channel.guild_id),
        channel_id=str(env.channel.id),
    )


async def test_the_status_message_is_edited_only_when_it_changed(env) -> None:
    fake, bot, channel = env.fake, env.bot, env.channel
    service = bot.service
    game = await hosted_game(env)
    await bot.refresh_status(game)  # posted and pinned
    message_id = (await service.game(game)).settings["status_message_id"]
    pinned = fake.messages[int(message_id)]
    assert pinned.pinned and "running" in pinned.content
    posted = sent(fake, channel.id)
    assert [r.split()[0] for r in posted] == ["POST", "PUT"]

    for _ in range(3):  # passes over a game whose status did not change: nothing sent
        await bot.refresh_status(game)
    assert sent(fake, channel.id) == posted

    await service.advance(game, 1)  # the game's time moved on: its status changed
    await bot.refresh_status(game)
    await bot.refresh_status(game)
    edit = f"PATCH /channels/{channel.id}/messages/{message_id}"
    assert sent(fake, channel.id) == [*posted, edit]
    assert pinned.content == await bot.desk.lifecycle.status_board(game)
    assert (await service.live_world(game)).clock() in pinned.content

    await service.update_settings(game, ai={"blue": "normal"})  # a change besides the clock
    await bot.refresh_status(game)
    assert sent(fake, channel.id) == [*posted, edit, edit]
    assert "**Blue** - AI" in pinned.content


async def test_after_a_restart_only_a_changed_status_is_edited(env) -> None:
    """What the pinned status says is kept in the bot store (its text's hash): a restarted
    process edits none of the statuses that did not change (1,000 games: no 1,000 edits), and
    edits once one that did."""
    fake, bot, channel = env.fake, env.bot, env.channel
    game = await hosted_game(env)
    await bot.refresh_status(game)
    posted = sent(fake, channel.id)
    bot._status_shown.clear()  # a new process knows nothing in memory of what it says
    for _ in range(3):
        await bot.refresh_status(game)
    assert sent(fake, channel.id) == posted
    await bot.service.advance(game, 1)  # changed while the bot was down
    bot._status_shown.clear()
    for _ in range(3):
        await bot.refresh_status(game)
    message_id = (await bot.service.game(game)).settings["status_message_id"]
    assert sent(fake, channel.id) == [
        *posted,
        f"PATCH /channels/{channel.id}/messages/{message_id}",
    ]
