"""A game's channel where the bot may not do everything (issue 26): `/game create` says what it
lacks; a status that cannot be pinned is posted unpinned, without a refused request; a channel
the bot loses is told once to the game's creator, costs no request while nothing changes, and
is posted in again once its permissions come back."""

from __future__ import annotations

import re

from bot.client import StrategicBot
from bot.permissions import INVITE_PERMISSIONS
from tests.e2e.test_bot_e2e import eventually, settings
from tests.fakediscord import FakeDiscord

VIEW, SEND, MANAGE_MESSAGES, ATTACH, PIN = 1 << 10, 1 << 11, 1 << 13, 1 << 15, 1 << 51
# what the README's invite link asked for until Discord split Pin Messages off Manage Messages
OLD_INVITE = 274878032896


async def started(fake, tmp_path, bot_permissions: int):
    # @everyone may only look: what the bot may do is its role's
    guild = fake.add_guild(
        "Wargames",
        channels=["war-room"],
        bot_permissions=bot_permissions,
        everyone_permissions=VIEW,
    )
    channel = next(c for c in guild.channels.values() if c.name == "war-room")
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    for user in (alice, bob, carol):
        fake.add_member(guild, user)
    bot = StrategicBot(settings(tmp_path, guild.id, SI_STATUS_SECONDS=0.2))
    await fake.start_client(bot, wait_for_sync=guild)
    return guild, channel, alice, bob, carol, bot


def set_bot_permissions(fake, guild, permissions: int, *, tell_the_bot: bool = True) -> None:
    """Change the bot's role (`tell_the_bot`: with the gateway event Discord sends)."""
    role = guild.roles[guild.members[fake.bot_user.id].roles[0]]
    role.permissions = permissions
    if tell_the_bot:
        fake.gateway.dispatch(
            "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.to_api()}
        )


def posts(fake, channel) -> list:
    return [
        r
        for r in fake.requests
        if r.method == "POST" and r.path == f"/channels/{channel.id}/messages"
    ]


def refused(fake) -> list:
    return [r for r in fake.requests if r.status in (401, 403, 429)]


async def test_the_invite_link_asks_for_pin_messages_and_a_game_runs_on_exactly_it(
    tmp_path,
) -> None:
    assert INVITE_PERMISSIONS & PIN and not INVITE_PERMISSIONS & MANAGE_MESSAGES
    async with FakeDiscord() as fake:
        guild, channel, alice, bob, _, bot = await started(fake, tmp_path, INVITE_PERMISSIONS)
        made = await fake.invoke(
            alice,
            channel,
            "game create strategic-initiative",
            {"name": "War", "nations": 2, "speed": "test (x360)"},
        )
        assert "Note" not in made.content  # nothing lacking
        await fake.invoke(alice, channel, "game join", {"name": "Red"})
        await fake.invoke(bob, channel, "game join", {"name": "Blue"})
        await eventually(
            lambda: bool(channel.pins) and "running" in fake.messages[channel.pins[0]].content
        )
        assert not refused(fake)
        await fake.stop_client(bot)


async def test_without_pin_messages_the_status_is_posted_unpinned_and_nothing_is_refused(
    tmp_path,
) -> None:
    async with FakeDiscord() as fake:
        guild, channel, alice, bob, _, bot = await started(fake, tmp_path, OLD_INVITE)
        made = await fake.invoke(
            alice,
            channel,
            "game create strategic-initiative",
            {"name": "War", "nations": 2, "speed": "test (x360)"},
        )
        assert "I lack Pin Messages" in made.content  # said at once, with the way to fix it
        await fake.invoke(bob, channel, "game join", {"name": "Blue"})
        await eventually(lambda: any("Blue" in m.content for m in fake.channel_messages(channel)))
        await eventually(lambda: any("lack Pin Messages" in m.content for m in fake.dms(alice)))
        assert not channel.pins
        assert not refused(fake)  # the bot knew from its permissions: no pin was tried
        await fake.invoke(alice, channel, "game join", {"name": "Red"})  # the game starts
        await eventually(
            lambda: sum("running" in m.content for m in fake.channel_messages(channel)) >= 1
        )
        assert len([m for m in fake.dms(alice) if "Pin Messages" in m.content]) == 1
        await fake.stop_client(bot)


async def test_a_channel_without_send_messages_refuses_a_new_game_and_says_why(
    tmp_path,
) -> None:
    async with FakeDiscord() as fake:
        guild, channel, alice, *_, bot = await started(fake, tmp_path, VIEW | PIN)
        reply = await fake.invoke(
            alice,
            channel,
            "game create strategic-initiative",
            {"name": "War", "nations": 2, "speed": "test (x360)"},
        )
        assert reply.ephemeral
        assert "Send Messages" in reply.content and "Attach Files" in reply.content
        assert "Edit Channel > Permissions" in reply.content
        listed = await fake.invoke(alice, channel, "game list")
        assert "War" not in listed.content  # nothing was created
        await fake.stop_client(bot)


async def test_a_channel_lost_mid_game_is_told_once_costs_nothing_and_comes_back(
    tmp_path,
) -> None:
    async with FakeDiscord() as fake:
        guild, channel, alice, bob, carol, bot = await started(fake, tmp_path, INVITE_PERMISSIONS)
        await fake.invoke(
            alice,
            channel,
            "game create strategic-initiative",
            {"name": "War", "nations": 3, "speed": "test (x360)"},
        )
        await fake.invoke(alice, channel, "game join", {"name": "Red"})
        await eventually(lambda: bool(channel.pins))
        # a moderator takes Send Messages away, and Discord does not tell the bot at once: its
        # first post is refused
        set_bot_permissions(fake, guild, INVITE_PERMISSIONS & ~SEND, tell_the_bot=False)
        before = len(posts(fake, channel))
        joined = await fake.invoke(bob, channel, "game join", {"name": "Blue"})
        assert "You lead" in joined.content  # the command itself is answered as ever
        await eventually(lambda: any("lack Send Messages" in m.content for m in fake.dms(alice)))
        fake.pop_errors()
        refusals = len(refused(fake))
        assert refusals == 1
        # the status loop and other commands go on: nothing more is sent there, nor refused
        await fake.invoke(bob, channel, "status")
        await fake.invoke(alice, channel, "game info")
        for _ in range(10):
            await fake.wait_until(lambda: True)
        assert len(refused(fake)) == refusals
        # Discord's event arrives: the bot now knows why, and still sends nothing there
        set_bot_permissions(fake, guild, INVITE_PERMISSIONS & ~SEND)
        await fake.invoke(bob, channel, "game info")
        assert len(refused(fake)) == refusals
        assert len(posts(fake, channel)) == before + 1
        # the permission comes back: the next announcement is posted
        set_bot_permissions(fake, guild, INVITE_PERMISSIONS)
        await fake.invoke(carol, channel, "game join", {"name": "Green"})
        await eventually(
            lambda: any("**Green** joins" in m.content for m in fake.channel_messages(channel))
        )
        told = [m for m in fake.dms(alice) if "lack Send Messages" in m.content]
        assert len(told) == 1
        await fake.stop_client(bot)


def test_the_readme_invites_the_bot_with_exactly_the_permissions_it_checks() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    asked = {int(n) for n in re.findall(r"permissions=(\d+)", readme)}
    assert asked == {INVITE_PERMISSIONS}
