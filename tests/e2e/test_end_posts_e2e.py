"""The end of a game in its channel survives a restart (issue 29): a process that stops between
a game's end and its posts (the timelapse, the result with its charts) leaves them noted as
not made in the bot store, and the next process makes them, once; the charts are kept there,
so `/stats game` draws them without replaying the game. Through the real bot and the fake
Discord."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

from bot.client import StrategicBot
from bot.store import BotStore
from tests.e2e.test_bot_e2e import MANAGE_GUILD, PNG_MAGIC, open_game, settings
from tests.fakediscord import FakeDiscord


def end_posts(fake, channel) -> list[str]:
    """The end's posts in the channel, in order: "timelapse", "result"."""
    out = []
    for m in fake.channel_messages(channel):
        if "is over.** The whole game" in m.content:
            out.append("timelapse")
        elif "the result" in m.content:
            out.append("result")
    return out


@pytest.mark.slow
async def test_the_end_is_posted_by_the_next_process_when_one_stops_before_its_posts(
    tmp_path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Wargames", channels=["war-room"])
        channel = next(iter(guild.channels.values()))
        alice, bob, mod = (fake.add_user(n) for n in ("alice", "bob", "mod"))
        for user in (alice, bob):
            fake.add_member(guild, user)
        fake.add_member(guild, mod, permissions=MANAGE_GUILD)
        bot = StrategicBot(settings(tmp_path, guild.id))
        await fake.start_client(bot, wait_for_sync=guild)
        env = SimpleNamespace(fake=fake, alice=alice, channel=channel)
        game = await open_game(env, days=1)
        await fake.invoke(alice, channel, "game join", {"name": "Red"})
        await fake.invoke(bob, channel, "game join", {"name": "Blue"})

        # the process stops while it draws the game's timelapse, after the end was committed
        drawing = asyncio.Event()

        async def stopped_midway(game_id: int) -> bool:
            drawing.set()
            await asyncio.Event().wait()  # (until the process stops)
            return True

        bot.post_timelapse = stopped_midway  # type: ignore[method-assign]
        ask = await fake.invoke(mod, channel, "mod end")
        assert ask.message is not None
        await fake.click(mod, ask, ask.message.buttons[0]["custom_id"])
        await asyncio.wait_for(drawing.wait(), 30)
        await fake.stop_client(bot)
        assert end_posts(fake, channel) == []

        # the next process posts them: the timelapse, then the result with its charts
        again = StrategicBot(settings(tmp_path, guild.id))
        await fake.start_client(again, wait_for_sync=guild)
        result = await fake.wait_for_message(
            channel, lambda m: "the result" in m.content, timeout=30
        )
        assert result.attachments and result.attachments[0].data.startswith(PNG_MAGIC)
        assert end_posts(fake, channel) == ["timelapse", "result"]
        assert again.service is not None
        store_bot = BotStore.of(again.service.store)
        deadline = time.monotonic() + 10  # (noted just after the post)
        while await store_bot.end_posted(game) != {"timelapse", "result"}:
            assert time.monotonic() < deadline, "the end's posts were not noted"
            await asyncio.sleep(0.02)
        assert await store_bot.charts(game) is not None  # kept for /stats game
        # what a later start looks for (the store's word) finds nothing more to post
        await again.post_missed_ends()
        assert end_posts(fake, channel) == ["timelapse", "result"]

        # /stats game draws the kept charts: the game is not replayed for them
        async def no_replay(game_id: int):
            raise AssertionError("the game was replayed for its charts")

        again.service.history = no_replay  # type: ignore[method-assign]
        asked = await fake.invoke(alice, channel, "stats game", {"game": game})
        shown = await fake.wait_for_message(
            channel, lambda m: "the result" in m.content and m.id != result.id, timeout=30
        )
        assert "see the channel" in asked.text or not asked.ephemeral
        assert shown.attachments and shown.attachments[0].data.startswith(PNG_MAGIC)
        assert shown.attachments[0].data == result.attachments[0].data  # the same charts
        await fake.stop_client(again)
