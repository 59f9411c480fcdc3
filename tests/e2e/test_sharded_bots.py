"""Two bot processes, each running one of two Discord shards, on one store and one fake
Discord (issue 16): each serves the games of its shard's servers (orders, ticks, DMs once),
and holds their leases."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import SecretStr

from bot.client import StrategicBot
from bot.config import Settings, shard_of
from tests.e2e.test_bot_e2e import eventually
from tests.fakediscord import FakeDiscord


def settings(path: str, shard: int, **extra) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        discord_token=SecretStr("fake-token"),
        SI_DATABASE=path,
        SI_TICK_SECONDS=0.05,
        SI_NOTIFY_SECONDS=0.05,
        SI_INSTANCE=f"shard-{shard}",
        SI_SHARD_IDS=[shard],
        SI_SHARD_COUNT=2,
        **extra,
    )


def env(**values: Any) -> Settings:
    """Settings as the environment gives them: text."""
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]  # BaseSettings takes it


def test_shard_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="needs SI_SHARD_COUNT"):
        env(SI_SHARD_IDS="0")
    with pytest.raises(ValueError, match="must be shards 0 to 1"):
        env(SI_SHARD_IDS="0,2", SI_SHARD_COUNT="2")
    assert env(SI_SHARD_IDS="0, 1", SI_SHARD_COUNT="4").shard_ids == [0, 1]
    assert env(SI_SHARD_IDS="", SI_SHARD_COUNT="").serves() is None  # empty: all shards


@pytest.mark.parametrize(
    ("given", "ids"), [("0", [0]), ("3", [3]), ("1,3", [1, 3]), ("2 0", [2, 0])]
)
def test_shard_ids_from_the_environment(monkeypatch, given, ids) -> None:
    """As `si bot` reads them: from the process's environment (one id alone once failed)."""
    monkeypatch.setenv("SI_SHARD_IDS", given)
    monkeypatch.setenv("SI_SHARD_COUNT", "4")
    assert Settings(_env_file=None).shard_ids == ids  # type: ignore[call-arg]
    assert shard_of(None, 4) == 0 and shard_of((5 << 22) | 77, 4) == 1


async def test_two_processes_each_serve_their_shards_servers(tmp_path) -> None:
    path = str(tmp_path / "shared.db")
    async with FakeDiscord() as fake:
        guilds = [
            fake.add_guild(f"Server {k}", channels=["war-room"], shard=(k, 2)) for k in (0, 1)
        ]
        users = [fake.add_user(n) for n in ("ann", "bob", "cat", "dan")]
        for user, guild in zip(users, (guilds[0], guilds[0], guilds[1], guilds[1]), strict=True):
            fake.add_member(guild, user)
        bots = [StrategicBot(settings(path, k)) for k in (0, 1)]
        for bot in bots:
            await fake.start_client(bot, wait_for_sync=True)
        try:
            games = []
            for k, guild in enumerate(guilds):
                channel = next(iter(guild.channels.values()))
                first, second = users[2 * k], users[2 * k + 1]
                made = await fake.invoke(
                    first,
                    channel,
                    "game create strategic-initiative",
                    {"name": f"War {k}", "nations": 2, "speed": "test (x360)"},
                )
                games.append(int(made.text.split("(game ")[1].split(")")[0]))
                await fake.invoke(first, channel, "game join", {"name": f"Red {k}"})
                joined = await fake.invoke(second, channel, "game join", {"name": f"Blue {k}"})
                assert "has started" in joined.text
                moved = await fake.invoke(first, channel, "status")
                assert moved.embeds and moved.embeds[0]["title"].startswith(f"Red {k} in War {k}")
            # each game is its shard's process's: its lease, its ticks
            for k, game in enumerate(games):
                service = bots[k].service
                assert service is not None
                lease = await service.store.lease(game)
                assert lease is not None and lease.owner == f"shard-{k}"
                await eventually(lambda s=service, g=game: s.next_tick_at(g) is not None, 5)
            # every player hears of their game's start by DM once, from their own process
            for user in users:
                await eventually(
                    lambda u=user: any("has started" in m.content for m in fake.dms(u)), 10
                )
            await asyncio.sleep(0.5)  # a few more notifier passes of both processes
            for user in users:
                told = [m.content for m in fake.dms(user)]
                assert sum("The game has started!" in t for t in told) == 1, told
                assert sum(t.startswith("**Welcome to") for t in told) == 1, told
                assert len(told) == len(set(told)), told  # nothing sent twice
        finally:
            for bot in bots:
                await fake.stop_client(bot)
