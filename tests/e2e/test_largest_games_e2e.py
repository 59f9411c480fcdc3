"""The largest games through the fake Discord, as strict as Discord (issue 26's "done when"):
32 nations on a 256x256 map, and six players of Supply Lines on a large random map. Nothing a
player is shown is cut, no limit is broken and Discord refuses no request."""

from __future__ import annotations

import math
import re
import time

import pytest

from bot.client import StrategicBot
from bot.dm import delivery
from bot.permissions import INVITE_PERMISSIONS
from engine.strategic.kind import MAX_NATIONS
from tests.e2e.test_bot_e2e import eventually, settings
from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import DM_OPEN_WINDOW

MANAGE_GUILD = 1 << 5
MENTION = re.compile(r"<@!?(\d+)>")


async def answer(record) -> str:
    """The text of a command's answer. A public answer that takes longer than the bot waits
    before deferring (`DEFER_AFTER`: a 256x256 map on a busy machine) comes after the private
    "Done: see the channel." as a message of its own: waited for."""
    if record.deferred and record.content.startswith("Done: see the channel"):
        await record.wait_for_followups(1, timeout=30)
    return str(record.text)


def refused(fake) -> list:
    return [r for r in fake.requests if r.status >= 400]


def whole(mentions_in: str) -> set[str]:
    """The users a text mentions; a mention cut open fails."""
    opened = mentions_in.count("<@")
    found = MENTION.findall(mentions_in)
    assert opened == len(found), f"a mention was cut: {mentions_in[-80:]!r}"
    return set(found)


async def every_page(fake, user, channel, first) -> list[str]:
    """The text of a reply and of every page after it (its Next buttons)."""
    texts, reply = [first.content], first
    for message in first.messages[1:]:
        texts.append(message.content)
    seen = 0
    while seen < 40:
        buttons = [
            c
            for row in reply.components
            for c in row.get("components", [])
            if str(c.get("label", "")).lower().startswith("next")
        ]
        if not buttons or buttons[0].get("disabled"):
            break
        reply = await fake.click(user, reply, buttons[0]["custom_id"])
        texts.append(reply.content)
        seen += 1
    return texts


# Discord's time, a tenth as long: every rate-limit window of the fake and the bot's own pace
# of opening DM channels alike (both keep their ratio). A 32-nation start opens 32 DM channels,
# which Discord wants spread out (about a minute at real speed); that pace itself is tested at
# real speed in tests/e2e/test_dm_delivery.py, here the games are.
FASTER = 10.0


@pytest.fixture
async def server(tmp_path, monkeypatch):
    monkeypatch.setattr(delivery, "OPEN_RATE", delivery.OPEN_RATE * FASTER)
    monkeypatch.setattr(delivery, "OPEN_PAUSE", delivery.OPEN_PAUSE / FASTER)
    async with FakeDiscord(
        rate_limit_scale=1 / FASTER, dm_open_window=DM_OPEN_WINDOW / FASTER
    ) as fake:
        guild = fake.add_guild(
            "Wargames",
            channels=["war-room"],
            bot_permissions=INVITE_PERMISSIONS,
            everyone_permissions=1 << 10,
        )
        channel = next(c for c in guild.channels.values() if c.name == "war-room")
        mod = fake.add_user("mod")
        fake.add_member(guild, mod, permissions=MANAGE_GUILD)
        bot = StrategicBot(settings(tmp_path, guild.id))
        await fake.start_client(bot, wait_for_sync=guild)
        yield fake, guild, channel, mod, bot
        await fake.stop_client(bot)
        assert not refused(fake), [(r.method, r.path, r.status) for r in refused(fake)]


@pytest.mark.slow
async def test_thirty_two_nations_on_the_largest_map(server) -> None:
    fake, guild, channel, mod, bot = server
    players = [fake.add_user(f"player{i:02d}") for i in range(MAX_NATIONS)]
    for user in players:
        fake.add_member(guild, user)
    made = await fake.invoke(
        players[0],
        channel,
        "game create strategic-initiative",
        {"name": "World War", "nations": MAX_NATIONS, "speed": "test (x360)"},
    )
    assert "256x256" in await answer(made)
    began = time.monotonic()
    for i, user in enumerate(players):
        joined = await fake.invoke(user, channel, "game join", {"name": f"Nation {i:02d}"})
        assert "You lead" in await answer(joined), joined.text
    assert "has started" in await answer(joined)
    # every join is announced, in order, and those that piled up went together (Discord lets a
    # channel have 5 messages in 5 seconds)
    said = lambda: "\n".join(m.content for m in fake.channel_messages(channel))  # noqa: E731
    await eventually(lambda: "**Nation 31** joins" in said(), timeout=30)
    lines = [line for line in said().splitlines() if " joins World War" in line]
    assert lines == [f"**Nation {i:02d}** joins World War ({i + 1}/32)." for i in range(31)] + [
        "**Nation 31** joins World War (32/32). The game is full: **it has started!**"
    ]
    took = time.monotonic() - began
    posts = [m for m in fake.channel_messages(channel) if "joins World War" in m.content]
    # at most what the channel allows in that time (5 messages a 5-second window, scaled):
    # joins that came faster went together (the fake refuses a message over the limit, and
    # the fixture checks that none was refused); on a fast machine that is a handful of
    # posts for 32 joins, on a loaded one (a join a second) nearer one each
    windows = math.ceil(took / (5.0 / FASTER))
    assert len(posts) <= min(MAX_NATIONS, 5 * (windows + 1)), (len(posts), took)
    everyone = {str(u.id) for u in players}

    # the pinned status and /game info name every nation's player, no mention cut
    def pinned() -> str:
        return fake.messages[channel.pins[0]].content if channel.pins else ""

    await eventually(lambda: "running" in pinned(), timeout=20)
    assert len(pinned()) <= 2000
    whole(pinned())
    info = await fake.invoke(players[5], channel, "game info")
    assert whole("\n".join(await every_page(fake, players[5], channel, info))) == everyone
    # /nations: all 32 on its pages
    nations = await fake.invoke(players[5], channel, "nations")
    listed = "\n".join(
        [m.content for m in nations.messages] + [str(e) for m in nations.messages for e in m.embeds]
    )
    pages = await every_page(fake, players[5], channel, nations)
    listed += "\n".join(pages)
    for nation in nations.messages[-1:]:
        listed += "\n".join(str(e) for e in nation.embeds)
    missing = [i for i in range(MAX_NATIONS) if f"Nation {i:02d}" not in listed]
    assert not missing or "more" in listed.lower(), missing
    # every player gets the start by DM, with a picture
    for user in players:
        await fake.wait_for_dm(user, lambda m: bool(m.attachments), timeout=60)
    # a game day: every player's sitrep
    ticked = await fake.invoke(mod, channel, "mod tick", {"ticks": 96})
    assert "96 ticks" in ticked.content
    for user in players:
        await fake.wait_for_dm(user, lambda m: "day 2" in m.content.lower(), timeout=60)
    listing = await fake.invoke(players[1], channel, "game list")
    assert "World War" in listing.content


async def test_six_players_of_supply_lines_on_a_large_random_map(server) -> None:
    from engine.supplylines.kind import GiveOrder, SubmitOrders
    from engine.supplylines.simulate import RandomPlayer

    fake, guild, channel, mod, bot = server
    service = bot.service
    players = [fake.add_user(f"general{i}") for i in range(6)]
    for user in players:
        fake.add_member(guild, user)
    made = await fake.invoke(
        players[0],
        channel,
        "game create supply-lines",
        {"name": "Big Front", "map": "random-large", "nations": 6},
    )
    game = int(made.content.split("(game ")[1].split(")")[0])
    for i, user in enumerate(players):
        await fake.invoke(user, channel, "game join", {"name": f"General {i}"})
    assert (await service.game(game)).status == "running"
    members = await service.members(game)
    seat_of = {user: next(n for n, u in members.items() if u == str(user.id)) for user in players}
    dice = {user: RandomPlayer(i + 7) for i, user in enumerate(players)}
    for turn in range(1, 4):
        summary = await service.summary(game)
        if summary.ended or summary.turn is None or summary.turn.phase != "orders":
            break
        for user in players:
            view = await service.view(game, seat_of[user])
            if view.players[seat_of[user]].out:
                continue
            for command in dice[user].commands(view):
                if isinstance(command, GiveOrder):
                    await fake.invoke(user, channel, "orders add", {"order": command.text})
            board = await fake.invoke(user, channel, "orders board")
            text = "\n".join(await every_page(fake, user, channel, board))
            assert board.files  # the board's picture
            listed = await fake.invoke(user, channel, "orders list")
            assert "\n".join(await every_page(fake, user, channel, listed))
            for command in dice[user].commands(view):
                if isinstance(command, SubmitOrders):
                    await fake.invoke(user, channel, "orders submit")
            assert text
        await eventually(
            lambda turn=turn: (
                sum("has resolved" in m.content for m in fake.channel_messages(channel)) >= turn
            ),
            timeout=30,
        )
        assert all(
            m.attachments for m in fake.channel_messages(channel) if "has resolved" in m.content
        )
    info = await fake.invoke(players[3], channel, "game info")
    assert whole("\n".join(await every_page(fake, players[3], channel, info))) == {
        str(u.id) for u in players
    }
