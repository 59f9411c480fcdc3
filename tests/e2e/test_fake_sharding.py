"""The fake Discord shards as Discord documents it, shown with plain discord.py clients.

A guild belongs to shard ``(guild_id >> 22) % shard_count``: its GUILD_CREATE and its events
go only to that shard's connection, DMs to shard 0; a bad ``[shard_id, shard_count]`` is
closed with 4010; ``GET /gateway/bot`` recommends shards and counts session starts down.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord


async def eventually(predicate, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def guild_creates(fake: FakeDiscord) -> dict[tuple[int, int] | None, list[int]]:
    """GUILD_CREATE guild ids the fake sent, by the shard of the session."""
    out: dict[tuple[int, int] | None, list[int]] = {}
    for conn in fake.gateway.sessions:
        ids = [int(p["d"]["id"]) for p in conn.sent if p.get("t") == "GUILD_CREATE"]
        out.setdefault(conn.shard, []).extend(ids)
    return out


@pytest.fixture
def received(monkeypatch) -> list[tuple[int | None, str, Any]]:
    """Every dispatch a discord.py websocket received, as (its shard id, event, data)."""
    seen: list[tuple[int | None, str, Any]] = []
    original = discord.gateway.DiscordWebSocket.received_message

    async def spy(self, msg):
        payload = json.loads(msg) if isinstance(msg, str) else None
        if payload and payload.get("op") == 0:
            seen.append((self.shard_id, payload["t"], payload["d"]))
        return await original(self, msg)

    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "received_message", spy)
    return seen


# --------------------------------------------------------------------------- placing guilds


async def test_guild_ids_land_on_the_chosen_shard():
    async with FakeDiscord() as fake:
        for count in (1, 2, 3, 16):
            for k in range(count):
                gid = fake.guild_id_on_shard(k, count)
                assert (gid >> 22) % count == k
                assert fake.shard_of(gid, count) == k
        guilds = [fake.add_guild(f"G{k}", shard=(k, 4)) for k in (3, 0, 2, 1, 3)]
        assert [fake.shard_of(g, 4) for g in guilds] == [3, 0, 2, 1, 3]
        assert len({g.id for g in guilds}) == 5
        assert fake.shard_guilds(3, 4) == [guilds[0], guilds[4]]
        chosen = fake.add_guild("Picked", id=(5 << 22) | 7)
        assert chosen.id == (5 << 22) | 7 and fake.shard_of(chosen, 2) == 1
        with pytest.raises(ValueError):
            fake.add_guild("Again", id=chosen.id)
        with pytest.raises(ValueError):
            fake.guild_id_on_shard(2, 2)


# --------------------------------------------------------------------------- (a) one client, all shards


async def test_auto_sharded_client_gets_ready_on_both_shards_and_each_guild_on_its_own(received):
    async with FakeDiscord(shards=2) as fake:
        g0 = [fake.add_guild(f"even{i}", shard=(0, 2)) for i in range(2)]
        g1 = [fake.add_guild(f"odd{i}", shard=(1, 2)) for i in range(3)]
        client = discord.AutoShardedClient(intents=discord.Intents.default())
        ready_shards: list[int] = []

        @client.event
        async def on_shard_ready(shard_id: int) -> None:
            ready_shards.append(shard_id)

        started = time.monotonic()
        await fake.start_client(client)
        # no shard_count given: discord.py took the fake's recommendation from /gateway/bot
        assert "/gateway/bot" in {r.template for r in fake.requests}
        assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
        assert time.monotonic() - started < 4  # discord.py's 5 s identify pause was skipped
        assert sorted(ready_shards) == [0, 1]
        assert sorted(fake.gateway.shards(), key=str) == [(0, 2), (1, 2)]
        # the client sees every guild, each on its shard
        assert {g.id for g in client.guilds} == {g.id for g in g0 + g1}
        for g in g0 + g1:
            seen = client.get_guild(g.id)
            assert seen is not None and seen.shard_id == fake.shard_of(g, 2)
        # READY of each shard lists its guilds only, and each GUILD_CREATE came on its shard
        readies = {shard: d for shard, t, d in received if t == "READY"}
        assert {int(x["id"]) for x in readies[0]["guilds"]} == {g.id for g in g0}
        assert {int(x["id"]) for x in readies[1]["guilds"]} == {g.id for g in g1}
        assert readies[0]["shard"] == [0, 2] and readies[1]["shard"] == [1, 2]
        by_shard: dict[int | None, set[int]] = {}
        for shard, t, d in received:
            if t == "GUILD_CREATE":
                by_shard.setdefault(shard, set()).add(int(d["id"]))
        assert by_shard == {0: {g.id for g in g0}, 1: {g.id for g in g1}}
        sent = guild_creates(fake)
        assert sorted(sent[(0, 2)]) == sorted(g.id for g in g0)
        assert sorted(sent[(1, 2)]) == sorted(g.id for g in g1)
        # a guild joined later goes to its shard only
        late = fake.add_guild("late", shard=(1, 2))
        await eventually(lambda: client.get_guild(late.id) is not None)
        assert [s for s, t, d in received if t == "GUILD_CREATE" and int(d["id"]) == late.id] == [1]
        await fake.stop_client(client)
        # two session starts were used
        limit = fake.gateway_bot()["session_start_limit"]
        assert limit["total"] == 1000 and limit["remaining"] == 998


# --------------------------------------------------------------------------- (b) one client per shard


class ShardClient(discord.Client):
    """A plain client running one shard; notes the interactions and messages it got."""

    def __init__(self, shard_id: int, shard_count: int, log: list[tuple[int, str, int | None]]):
        super().__init__(
            intents=discord.Intents.default(), shard_id=shard_id, shard_count=shard_count
        )
        self.tree = app_commands.CommandTree(self)
        self.log = log
        me = shard_id

        @self.tree.command(description="which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            self.log.append((me, "interaction", interaction.guild_id))
            await interaction.response.send_message(f"shard {me}")

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            guild_id = message.guild.id if message.guild else None
            self.log.append((self.shard_id or 0, "message", guild_id))


async def test_one_client_per_shard_gets_only_its_guilds_and_dms_go_to_shard_0():
    async with FakeDiscord() as fake:
        a = fake.add_guild("A", shard=(0, 2))
        b = fake.add_guild("B", shard=(1, 2))
        chan_a, chan_b = next(iter(a.channels.values())), next(iter(b.channels.values()))
        alice = fake.add_user("alice")
        fake.add_member(a, alice)
        fake.add_member(b, alice)
        log: list[tuple[int, str, int | None]] = []
        zero, one = ShardClient(0, 2, log), ShardClient(1, 2, log)

        async def setup_hook() -> None:
            await zero.tree.sync()

        zero.setup_hook = setup_hook  # type: ignore[method-assign]
        await fake.start_client(zero, wait_for_sync=True)
        # with only shard 0 connected, guild B cannot be reached
        with pytest.raises(RuntimeError, match="shard"):
            await fake.invoke(alice, chan_b, "where")
        await fake.start_client(one)
        assert [g.id for g in zero.guilds] == [a.id]
        assert [g.id for g in one.guilds] == [b.id]

        assert (await fake.invoke(alice, chan_a, "where")).content == "shard 0"
        assert (await fake.invoke(alice, chan_b, "where")).content == "shard 1"
        assert (await fake.invoke(alice, fake.dm_channel(alice), "where")).content == "shard 0"
        fake.post_message(alice, chan_b, "hello B")
        fake.post_message(alice, chan_a, "hello A")
        fake.post_message(alice, fake.dm_channel(alice), "hello bot")
        await eventually(lambda: len(log) == 6)
        assert log[:3] == [
            (0, "interaction", a.id),
            (1, "interaction", b.id),
            (0, "interaction", None),
        ]
        assert sorted(log[3:], key=str) == sorted(
            [(1, "message", b.id), (0, "message", a.id), (0, "message", None)], key=str
        )
        # the bot's own message in B went to shard 1 only
        one_sent = next(c for c in fake.gateway.sessions if c.shard == (1, 2))
        zero_sent = next(c for c in fake.gateway.sessions if c.shard == (0, 2))
        creates = [p["d"] for p in one_sent.sent if p.get("t") == "MESSAGE_CREATE"]
        assert {d["content"] for d in creates} == {"shard 1", "hello B"}
        assert all(d.get("guild_id") == str(b.id) for d in creates)
        zero_creates = {p["d"]["content"] for p in zero_sent.sent if p.get("t") == "MESSAGE_CREATE"}
        assert zero_creates == {"shard 0", "hello A", "hello bot"}
        await fake.stop_client(one)
        await fake.stop_client(zero)


# --------------------------------------------------------------------------- (c) refused identifies


async def identify(fake: FakeDiscord, shard: Any, *, token: str | None = None) -> dict[str, Any]:
    """Open a raw gateway connection, IDENTIFY with ``shard``: the first answer or the close."""
    url = fake.gateway_url + "?v=10&encoding=json"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        hello = await ws.receive_json(timeout=2)
        assert hello["op"] == 10
        d: dict[str, Any] = {"token": token or fake.token, "intents": 513, "properties": {}}
        if shard is not None:
            d["shard"] = shard
        await ws.send_json({"op": 2, "d": d})
        msg = await ws.receive(timeout=2)
        if msg.type == aiohttp.WSMsgType.TEXT:
            return json.loads(msg.data)
        return {"closed": ws.close_code}


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [1], "0,1", [0.0, 1], [True, 2]])
async def test_an_invalid_shard_pair_is_closed_with_4010(shard):
    async with FakeDiscord() as fake:
        assert await identify(fake, shard) == {"closed": 4010}
        assert fake.gateway.sessions == []
        assert fake.gateway.refused == [(shard, 4010)]


async def test_discord_py_client_with_an_invalid_shard_stops_with_4010():
    async with FakeDiscord() as fake:
        fake.add_guild("G")
        client = discord.Client(intents=discord.Intents.default(), shard_id=3, shard_count=2)
        with pytest.raises(RuntimeError, match="4010"):
            await fake.start_client(client)
        assert client.is_closed()


async def test_valid_pairs_are_ready_with_the_shard_and_its_guilds_only():
    async with FakeDiscord() as fake:
        g = [fake.add_guild(f"G{k}", shard=(k, 3)) for k in range(3)]
        for k in range(3):
            ready = await identify(fake, [k, 3])
            assert ready["t"] == "READY" and ready["d"]["shard"] == [k, 3]
            assert [x["id"] for x in ready["d"]["guilds"]] == [str(g[k].id)]
        unsharded = await identify(fake, None)
        assert "shard" not in unsharded["d"]
        assert {x["id"] for x in unsharded["d"]["guilds"]} == {str(x.id) for x in g}


async def test_sharding_required_is_off_by_default_and_4011_when_set():
    async with FakeDiscord() as fake:
        for _ in range(3):
            fake.add_guild("G", shard=(0, 2))
        assert (await identify(fake, None))["t"] == "READY"
    async with FakeDiscord(max_guilds_per_shard=2) as fake:
        for k in (0, 0, 1):
            fake.add_guild("G", shard=(k, 2))
        assert await identify(fake, None) == {"closed": 4011}
        assert await identify(fake, [0, 1]) == {"closed": 4011}
        assert (await identify(fake, [0, 2]))["t"] == "READY"
        assert (await identify(fake, [1, 2]))["t"] == "READY"


async def test_gateway_bot_recommends_shards_and_keeps_the_session_start_limit():
    async with FakeDiscord(session_start_limit=2, max_concurrency=16) as fake:
        client = discord.Client(intents=discord.Intents.default())
        await fake.start_client(client)
        old_token = fake.token
        shards, url, limit = await client.http.get_bot_gateway()
        assert shards == 1 and url == fake.gateway_url
        assert limit["total"] == 2 and limit["remaining"] == 1
        assert limit["max_concurrency"] == 16
        assert 0 < limit["reset_after"] <= 24 * 3600 * 1000
        plain = await client.http.request(discord.http.Route("GET", "/gateway"))
        assert plain == {"url": fake.gateway_url}
        assert (await identify(fake, None))["t"] == "READY"
        # no session start left: Discord ends every session and resets the token
        assert await identify(fake, None) == {"closed": 4004}
        await eventually(lambda: client.is_closed())
        assert not fake.gateway.has_session
        assert fake.gateway_bot()["session_start_limit"]["remaining"] == 0
        assert fake.token != old_token
        assert await identify(fake, None, token=old_token) == {"closed": 4004}
        (error,) = fake.pop_errors()
        assert error.kind == "session-start-limit"
        await fake.stop_client(client)
        fake.pop_errors()  # what the closing client still asked with the old token
    async with FakeDiscord(shards=4) as fake:
        assert fake.gateway_bot()["shards"] == 4


async def test_identifies_beyond_max_concurrency_get_invalid_session_when_enforced():
    async with FakeDiscord(identify_window=0.5, max_concurrency=2) as fake:
        assert (await identify(fake, [0, 4]))["t"] == "READY"
        assert (await identify(fake, [1, 4]))["t"] == "READY"  # another rate limit key
        assert await identify(fake, [2, 4]) == {"op": 9, "d": False, "s": None, "t": None}
        await asyncio.sleep(0.5)
        assert (await identify(fake, [2, 4]))["t"] == "READY"
        assert fake.gateway.refused == [([2, 4], 9)]
    async with FakeDiscord() as fake:  # off by default
        for k in range(4):
            assert (await identify(fake, [k, 4]))["t"] == "READY"
