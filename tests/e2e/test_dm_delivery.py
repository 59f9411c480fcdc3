"""DMs through the fake Discord (bot/dm/delivery.py `discord_sender`, the bot's notifier): one
request per DM once the user's DM channel is known (kept in the bot store, so also after a
restart), no user fetched; Discord's refusals told apart (50007 closed, 40003 opening too fast,
429 with its retry_after); a player whose DMs are closed is told once, privately, at their
next command."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.dm.delivery import DmChannels, DmClosed, RateLimited, discord_sender
from bot.pacer import Pacer
from bot.store import BotStore
from engine.host.service import GameService
from tests.e2e.test_bot_e2e import eventually, open_game, running_bot
from tests.fakediscord import FakeDiscord, RateLimitRule


def dm_requests(fake: FakeDiscord, since: int) -> list[str]:
    """The requests made since `since` (an index of fake.requests), as 'METHOD template'."""
    return [f"{r.method} {r.template or r.path}" for r in fake.requests[since:]]


@pytest.fixture
async def store(tmp_path):
    service = await GameService.open(str(tmp_path / "dm.db"), synchronous="NORMAL")
    yield BotStore.of(service.store)
    await service.close()


async def test_a_dm_is_one_request_once_the_users_channel_is_known(store):
    """130 players (more than discord.py's 128 DM channels kept in memory): the first DM to
    each opens its channel (2 requests, no GET /users), every later one is 1 request, also
    from a restarted process (the channels are kept in the bot store). (The old sender: 3 a
    DM at first, then 2, and 3 again past 128 players.)"""
    # 40003: its own test below; Discord's time a tenth as long (every bucket and the global
    # window): this test counts requests, the pace is tested on its own
    async with FakeDiscord(dm_open_limit=None, rate_limit_scale=0.1) as fake:
        users = [fake.add_user(f"player{i}") for i in range(130)]
        client = discord.Client(intents=discord.Intents.none())
        await fake.start_client(client)
        # just under the fake's global 50 a (tenth of a) second, no wait to open channels
        pace, opens = Pacer(450, burst=1), Pacer(10_000)
        send = discord_sender(client, channels=DmChannels(store), pace=pace, opens=opens)
        start = len(fake.requests)
        for u in users:
            await send(str(u.id), "turn 1 has resolved", [])
        first = dm_requests(fake, start)
        assert len(first) == 2 * len(users)
        assert first.count("POST /users/@me/channels") == len(users)
        assert not any(r.startswith("GET /users/") for r in first)

        start = len(fake.requests)
        for u in users:
            await send(str(u.id), "turn 2 has resolved", [])
        assert dm_requests(fake, start) == ["POST /channels/{channel_id}/messages"] * len(users)

        # a restart: a new sender, nothing in memory; the bot store knows every channel
        again = discord_sender(client, channels=DmChannels(store), pace=pace, opens=opens)
        start = len(fake.requests)
        for u in users:
            await again(str(u.id), "turn 3 has resolved", [])
        assert dm_requests(fake, start) == ["POST /channels/{channel_id}/messages"] * len(users)
        assert all(len(fake.dms(u)) == 3 for u in users)
        assert not any(r.status == 429 for r in fake.requests)
        await fake.stop_client(client)


async def test_closed_dms_rate_limits_and_opening_too_fast_are_told_apart(store):
    async with FakeDiscord() as fake:  # 10 new DM channels in 10 s, then 40003
        users = [fake.add_user(f"player{i}") for i in range(14)]
        client = discord.Client(intents=discord.Intents.none())
        await fake.start_client(client)
        pace, opens = Pacer(45, burst=1), Pacer(10_000)
        send = discord_sender(client, channels=DmChannels(store), pace=pace, opens=opens)
        for u in users[:10]:
            await send(str(u.id), "hello", [])
        # the 11th new channel in 10 s: Discord says 40003; that is not "your DMs are closed"
        with pytest.raises(RateLimited) as limited:
            await send(str(users[10].id), "hello", [])
        assert limited.value.retry_after >= 30
        before = len(fake.requests)
        for u in users[11:]:  # opening stays paused: no more refused requests meanwhile
            with pytest.raises(RateLimited):
                await send(str(u.id), "hello", [])
        assert len(fake.requests) == before
        await send(str(users[0].id), "still here", [])  # a known channel: DMed as ever
        assert fake.dms(users[0])[-1].content == "still here"

        # 50007: the user's settings refuse the bot's DMs
        fake.close_dms(users[1])
        with pytest.raises(DmClosed, match="50007"):
            await send(str(users[1].id), "hello", [])

        # a 429 discord.py does not wait out itself (its 5 tries): Discord's retry_after
        fake.rest.rate_limits.append(
            RateLimitRule(f"/channels/{fake.dm_channel(users[2]).id}/messages", times=5)
        )
        with pytest.raises(RateLimited) as limited:
            await send(str(users[2].id), "hello", [])
        assert 0 < limited.value.retry_after <= 1
        await send(str(users[2].id), "hello again", [])
        assert fake.dms(users[2])[-1].content == "hello again"
        await fake.stop_client(client)


async def test_new_dm_channels_are_opened_a_few_at_a_time(store):
    """The default sender opens 5 new DM channels at once, then waits its turn for more (the
    DM is tried again later, no request made): Discord's 40003 is never met."""
    async with FakeDiscord() as fake:
        users = [fake.add_user(f"player{i}") for i in range(12)]
        client = discord.Client(intents=discord.Intents.none())
        await fake.start_client(client)
        send = discord_sender(client, channels=DmChannels(store))
        waits = []
        for u in users:
            try:
                await send(str(u.id), "the game has started", [])
            except RateLimited as exc:
                waits.append(exc.retry_after)
        assert sum(1 for u in users if fake.dms(u)) == 5 and len(waits) == 7
        assert all(0 < w <= 2 for w in waits)
        assert not any(r.status == 403 for r in fake.requests)
        await fake.stop_client(client)


@pytest.fixture
async def bot_env(tmp_path):
    async with running_bot(tmp_path, ["alice", "bob"]) as env:
        yield env


async def test_a_player_whose_dms_are_closed_is_told_once_privately(bot_env) -> None:
    env, fake = bot_env, bot_env.fake
    fake.close_dms(env.bob)
    await open_game(env)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    await fake.wait_for_dm(env.alice, lambda m: "started" in m.content.lower(), timeout=10)
    store = BotStore.of(env.bot.service.store)
    for _ in range(500):  # the notifier tried bob's DM of the start and was refused (50007)
        status = await store.get_dm_status(str(env.bob.id))
        if status is not None and status.status == "closed":
            break
        await asyncio.sleep(0.02)
    assert status is not None and status.status == "closed" and "50007" in (status.detail or "")
    assert fake.dms(env.bob) == []

    def notices(*records) -> list:
        return [m for r in records for m in r.messages if "cannot DM you" in m.content]

    # bob's next command: its answer, then a private word that his DMs are closed
    first = await fake.invoke(env.bob, env.channel, "game list")
    await eventually(lambda: bool(notices(first)))
    [notice] = notices(first)
    assert notice.ephemeral and "/notify" in notice.content and notice is not first.original
    assert not any("cannot DM you" in m.content for m in fake.channel_messages(env.channel))
    # once: his next commands say nothing of it, nor do alice's (her DMs are open)
    second = await fake.invoke(env.bob, env.channel, "game list")
    theirs = await fake.invoke(env.alice, env.channel, "game list")
    await asyncio.sleep(0.3)
    assert notices(second, theirs) == []
