"""The real bot through the fake Discord (tests/fakediscord): every request it sends is checked
against Discord's OpenAPI spec and limits. Whole games: create, join, orders, moderators,
the ticker, DMs with pictures."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr

from bot.client import StrategicBot
from bot.config import Settings
from engine.strategic.scenario import build_world
from engine.strategic.world import World
from tests.fakediscord import CommandUnavailable, FakeDiscord

MANAGE_GUILD = 1 << 5
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


async def eventually(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


def settings(tmp_path, guild_id: int, **extra) -> Settings:
    # _env_file is BaseSettings' own argument, which mypy does not see (it reads the fields)
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        discord_token=SecretStr("fake-token"),
        SI_DATABASE=str(tmp_path / "bot.db"),
        SI_DEV_GUILD=guild_id,
        SI_TICK_SECONDS=0.05,
        SI_NOTIFY_SECONDS=0.05,
        **extra,
    )


@asynccontextmanager
async def running_bot(
    tmp_path: Path,
    players: Sequence[str],
    moderators: Sequence[str] = (),
    **bot_options: Any,
) -> AsyncIterator[SimpleNamespace]:
    """The real bot started against the fake Discord in a guild with one channel, the players
    (and moderators, with Manage Server) its members: fake, guild, channel, bot and each user
    by name."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Wargames", channels=["war-room"])
        channel = next(iter(guild.channels.values()))
        users = {name: fake.add_user(name) for name in (*players, *moderators)}
        for name in players:
            fake.add_member(guild, users[name])
        for name in moderators:
            fake.add_member(guild, users[name], permissions=MANAGE_GUILD)
        bot = StrategicBot(settings(tmp_path, guild.id), **bot_options)
        await fake.start_client(bot, wait_for_sync=guild)
        try:
            yield SimpleNamespace(fake=fake, guild=guild, channel=channel, bot=bot, **users)
        finally:
            await fake.stop_client(bot)


async def seat_game(env: SimpleNamespace, name: str, spec: dict[str, Any]) -> int:
    """A game of the world `spec` describes, in the env's channel, created by alice."""
    return await seat_world(env, name, build_world(spec)[0])


async def seat_world(env: SimpleNamespace, name: str, world: World) -> int:
    """A game of `world`, in the env's channel, created by alice."""
    assert env.bot.service is not None  # the bot opened its store when it started
    return await env.bot.service.create_game(
        name=name,
        world=world,
        guild_id=str(env.guild.id),
        channel_id=str(env.channel.id),
        created_by=str(env.alice.id),
    )


@pytest.fixture
async def env(tmp_path):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Wargames", channels=["general", "war-room"])
        channel = next(c for c in guild.channels.values() if c.name == "war-room")
        alice, bob, carol, mod = (fake.add_user(n) for n in ("alice", "bob", "carol", "mod"))
        for user in (alice, bob, carol):
            fake.add_member(guild, user)
        fake.add_member(guild, mod, permissions=MANAGE_GUILD)
        bot = StrategicBot(settings(tmp_path, guild.id))
        await fake.start_client(bot, wait_for_sync=guild)
        yield SimpleNamespace(
            fake=fake,
            guild=guild,
            channel=channel,
            alice=alice,
            bob=bob,
            carol=carol,
            mod=mod,
            bot=bot,
        )
        await fake.stop_client(bot)


async def open_game(env, **options) -> int:
    fake = env.fake
    reply = await fake.invoke(
        env.alice,
        env.channel,
        "game create strategic-initiative",
        {"name": "Island War", "nations": 2, "speed": "test (x360)", **options},
    )
    if reply.deferred:
        # answered late (a loaded machine): the bot said "Done: see the channel." privately,
        # then answers in public in a follow-up
        await reply.wait_for(lambda r: any(not m.ephemeral for m in r.followups), 30.0)
        public = next(m for m in reply.followups if not m.ephemeral)
        text = public.content
    else:
        assert not reply.ephemeral
        text = reply.text
    assert "Island War" in text, text
    return int(text.split("(game ")[1].split(")")[0])


async def test_a_whole_game_through_discord(env) -> None:
    fake = env.fake
    assert {c["name"] for c in fake.commands(env.guild)} >= {"game", "move", "map", "mod"}
    game = await open_game(env)
    # the status message is posted and pinned in the game's channel
    await eventually(
        lambda: any(
            m.pinned and "Island War" in m.content for m in fake.channel_messages(env.channel)
        )
    )
    red = await fake.invoke(env.alice, env.channel, "game join", {"name": "Red", "colour": "red"})
    assert red.ephemeral and "You lead **Red**" in red.text
    blue = await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    assert "has started" in blue.text
    await eventually(
        lambda: any("it has started" in m.content for m in fake.channel_messages(env.channel))
    )
    # both players get the start by DM, with their own map
    for user in (env.alice, env.bob):
        dm = await fake.wait_for_dm(user, lambda m: m.attachments, timeout=10)
        assert dm.attachments[0].data.startswith(PNG_MAGIC)
    assert fake.dms(env.carol) == []

    status = await fake.invoke(env.alice, env.channel, "status")
    assert status.ephemeral and "Red in" in status.text and "Command points" in status.text
    picture = await fake.invoke(env.alice, env.channel, "map")
    assert picture.ephemeral and picture.files[0].data.startswith(PNG_MAGIC)
    zoom = await fake.invoke(env.alice, env.channel, "map", {"at": "1,1", "radius": 3})
    assert zoom.files and len(zoom.files[0].data) < len(picture.files[0].data) * 4

    # autocomplete offers alice's own units only
    world = await env.bot.service.live_world(game)
    red_units = {str(u.id) for u in world.units_of("red")}
    choices = await fake.autocomplete(env.alice, env.channel, "move", focused="units", value="")
    ids = {c["value"] for c in choices if c["value"].isdigit()}
    assert ids and ids <= red_units
    for c in choices:  # and selectors, with the ids each chooses: "all at 3,4 (2 units: 5, 9)"
        if not c["value"].isdigit():
            chosen = set(c["name"].split(": ", 1)[1].rstrip(")").split(", "))
            assert chosen <= red_units, c
    # an order, and bad input that changes nothing
    unit = world.units_of("red")[0]
    x, y = world.grid.xy(unit.sq)
    before = world.hash()
    bad = await fake.invoke(env.alice, env.channel, "move", {"units": "999999", "to": f"{x},{y}"})
    assert bad.ephemeral and "999999" in bad.text
    off = await fake.invoke(env.alice, env.channel, "move", {"units": str(unit.id), "to": "5000,1"})
    assert "off the map" in off.text
    assert (await env.bot.service.live_world(game)).hash() == before
    moved = await fake.invoke(
        env.alice,
        env.channel,
        "move",
        {"units": str(unit.id), "to": f"{x},{(y + 1) % world.height}"},
    )
    assert moved.ephemeral and "Unit" in moved.text

    # moderators only: bob cannot see /mod; the moderator speeds time up and forces ticks
    with pytest.raises(CommandUnavailable):
        await fake.invoke(env.bob, env.channel, "mod pause")
    ticked = await fake.invoke(env.mod, env.channel, "mod tick", {"ticks": 96})
    assert "96 ticks" in ticked.text
    # a game day passed: each player gets a sitrep with their map, nobody else's
    sitrep = await fake.wait_for_dm(
        env.alice, lambda m: "situation report" in m.content.lower() and m.attachments, timeout=10
    )
    assert "Red" in sitrep.content and "Blue" not in sitrep.content.split("\n")[0]
    assert fake.dms(env.carol) == [] and fake.dms(env.mod) == []
    # /engineer suggests alice's own engineers (its tech centre built one in the day), as ids
    world = await env.bot.service.live_world(game)
    engineers = {u.id for u in world.units_of("red") if world.rules.unit[u.type].builds_cities}
    assert engineers
    offered = await fake.autocomplete(env.alice, env.channel, "engineer", focused="unit", value="")
    assert {c["value"] for c in offered} == engineers
    paused = await fake.invoke(env.mod, env.channel, "mod pause")
    assert "paused" in paused.text


async def test_the_ticker_advances_games_by_their_speed(env) -> None:
    fake = env.fake
    game = await open_game(env)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    service = env.bot.service
    # a moderator speeds it up to half a real second per game hour
    fast = await fake.invoke(env.mod, env.channel, "mod speed", {"seconds_per_hour": 0.5})
    assert "now runs at" in fast.text
    await fake.wait_for_message(env.channel, lambda m: "now runs at" in m.content)
    start = (await service.live_world(game)).tick
    await eventually(lambda: service._games[game].world.tick >= start + 8, timeout=10)


async def test_confirmations_and_errors_are_private_and_clear(env) -> None:
    fake = env.fake
    await open_game(env)
    # the creator may not start alone; carol is not in the game
    alone = await fake.invoke(env.alice, env.channel, "game start")
    assert alone.ephemeral and "at least two nations" in alone.text
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    not_in = await fake.invoke(env.carol, env.channel, "status")
    assert not_in.ephemeral and "do not play" in not_in.text
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    ask = await fake.invoke(env.bob, env.channel, "game resign")
    assert ask.ephemeral and ask.message.buttons
    done = await fake.click(env.bob, ask, ask.message.buttons[0]["custom_id"])
    assert "resigned" in done.text
    await eventually(
        lambda: any(
            "**Blue** has resigned" in m.content for m in fake.channel_messages(env.channel)
        )
    )


SCENARIO_MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~A................B~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~C..~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
"""


async def test_a_skipped_build_and_an_interception_reach_the_right_players_only(env) -> None:
    from engine.strategic.scenario import build_world

    fake = env.fake
    world, _ = build_world(
        {
            "ruleset": "classic",
            "seed": 4,
            "map": SCENARIO_MAP,
            "nations": {
                "red": {"player": str(env.alice.id), "tech": 7},
                "blue": {"player": str(env.bob.id), "tech": 6},
                "green": {"player": str(env.carol.id)},
            },
            "cities": {
                # red is at its power limit (5 for one city: 18 + 4 x 8 = 50 build hours)
                "A": {"owner": "red", "designation": "airport", "build": "fighter"},
                "B": {"owner": "blue", "designation": "airport"},
                "C": {"owner": "green", "designation": "fort"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "heavy_bomber", "at": "A", "mobility": 90},
                *({"id": i, "owner": "red", "type": "infantry", "at": "2,1"} for i in (2, 3, 4, 5)),
                {"id": 6, "owner": "blue", "type": "fighter", "at": "12,0", "mobility": 48},
                {"id": 7, "owner": "blue", "type": "zeppelin", "at": "7,1"},
                {"id": 8, "owner": "green", "type": "infantry", "at": "37,3"},
            ],
        }
    )
    game = await seat_world(env, "Scenario", world)
    # red's bomber flies past blue's fighter: intercepted; both sides hear of it
    reply = await fake.invoke(env.alice, env.channel, "move", {"units": "1", "to": "16,1"})
    assert "ntercepted" in reply.text
    told_bob = await fake.wait_for_dm(
        env.bob, lambda m: "intercept" in m.content.lower(), timeout=10
    )
    assert "bomber" in told_bob.content
    # eight game hours later red's airport cannot build its fighter: red is told, alone
    await fake.invoke(env.mod, env.channel, "mod tick", {"ticks": 32})
    told_alice = await fake.wait_for_dm(
        env.alice, lambda m: "skipped" in m.content.lower(), timeout=10
    )
    assert "fighter" in told_alice.content
    await env.bot.notifier.deliver_now(game)
    assert not any("skipped" in m.content.lower() for m in fake.dms(env.bob))
    assert fake.dms(env.carol) == [] or all(
        "intercept" not in m.content.lower() and "skipped" not in m.content.lower()
        for m in fake.dms(env.carol)
    )
    assert fake.dms(env.mod) == []


async def test_the_end_of_a_game_posts_its_timelapse_and_notify_settings(env) -> None:
    fake = env.fake
    await open_game(env, days=1)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    quiet = await fake.invoke(
        env.alice, env.channel, "notify", {"mute": "builds moves", "sitrep": False}
    )
    assert "muted: builds, moves" in quiet.text and "sitrep off" in quiet.text
    bad = await fake.invoke(env.alice, env.channel, "notify", {"mute": "gossip"})
    assert "'gossip' is not one of" in bad.text
    ask = await fake.invoke(env.mod, env.channel, "mod end")
    ended = await fake.click(env.mod, ask, ask.message.buttons[0]["custom_id"])
    assert "ended by a moderator" in ended.text, ended.text
    over = await fake.wait_for_message(
        env.channel, lambda m: m.attachments and "is over" in m.content, timeout=20
    )
    assert over.attachments[0].filename.endswith(".gif")
    assert over.attachments[0].data[:6] in (b"GIF87a", b"GIF89a")


async def test_move_all_on_a_square_through_discord(env) -> None:
    """`/move units:"all at x,y"`: the player's own units on the square move, what cannot is
    skipped and said so, and nobody else's unit is touched."""
    from engine.strategic.scenario import build_world

    fake = env.fake
    world, _ = build_world(
        {
            "ruleset": "standard",
            "seed": 5,
            "map": SCENARIO_MAP,
            "nations": {
                "red": {"player": str(env.alice.id)},
                "blue": {"player": str(env.bob.id)},
            },
            "cities": {
                "A": {"owner": "red", "designation": "fort"},
                "B": {"owner": "blue", "designation": "fort"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "2,1", "mobility": 6},
                {"id": 2, "owner": "blue", "type": "infantry", "at": "16,1", "mobility": 6},
                {"id": 3, "owner": "red", "type": "tank", "at": "2,1", "mobility": 9},
                {"id": 4, "owner": "red", "type": "satellite", "at": "A"},
                {"id": 5, "owner": "red", "type": "infantry", "at": "A", "mobility": 6},
            ],
        }
    )
    game = await seat_world(env, "Selectors", world)
    # the suggestions offer the stack on 2,1 with what it holds
    choices = await fake.autocomplete(env.alice, env.channel, "move", focused="units", value="all")
    assert {"name": "all at 2,1 (2 units: 1, 3)", "value": "all at 2,1"} in choices
    reply = await fake.invoke(env.alice, env.channel, "move", {"units": "all at 2,1", "to": "4,1"})
    assert reply.ephemeral
    assert reply.text.splitlines()[0] == "Ordered 2 units (1, 3)."
    assert "Unit 1 moved 2 squares to 4,1." in reply.text
    assert "Unit 3 moved 2 squares to 4,1." in reply.text
    home = await fake.invoke(env.alice, env.channel, "move", {"units": "all at 1,1 2", "to": "3,1"})
    assert home.text.splitlines()[0] == (
        "Ordered 1 unit (5); skipped 2 (not one of your units), "
        "4 (a Spy Satellite is launched, it does not move)."
    )
    none = await fake.invoke(env.alice, env.channel, "move", {"units": "tanks at 1,1", "to": "3,1"})
    assert none.ephemeral and none.text == "You have no tanks at 1,1."
    after = await env.bot.service.live_world(game)
    assert [after.grid.label(after.units[u].sq) for u in (1, 3, 5)] == ["4,1", "4,1", "3,1"]
    assert after.grid.label(after.units[2].sq) == "16,1"  # blue's, named: untouched
