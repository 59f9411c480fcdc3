"""End-to-end tests of the fake Discord server with a tiny real discord.py bot."""

from __future__ import annotations

import asyncio
import io
import struct
import time
import zlib
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import CommandUnavailable, FakeDiscord

MANAGE_GUILD = 1 << 5


def tiny_png(width: int = 2, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


PNG = tiny_png()


async def eventually(predicate, timeout: float = 2.0) -> None:
    """Wait until the bot side caught up (its handler runs after the fake answered)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


class VoteView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.votes = 0

    @discord.ui.button(label="Yes", custom_id="vote:yes", style=discord.ButtonStyle.success)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.votes += 1
        await interaction.response.edit_message(
            content=f"{self.votes} vote(s), last by {interaction.user.name}", view=self
        )


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_obj = discord.Object(guild_id)
        self.seen: list[str] = []
        self.forbidden: list[discord.Forbidden] = []
        self.http_errors: list[discord.HTTPException] = []
        self._define_commands()

    async def setup_hook(self) -> None:
        self.tree.copy_global_to(guild=self.guild_obj)
        await self.tree.sync(guild=self.guild_obj)

    def _define_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Roll a die")
        @app_commands.describe(sides="Number of sides", label="What the roll is for")
        async def roll(
            interaction: discord.Interaction,
            sides: app_commands.Range[int, 2, 100],
            label: str | None = None,
        ) -> None:
            self.seen.append(f"roll {sides} {label}")
            await interaction.response.send_message(
                f"{label or 'roll'}: d{sides} -> {sides // 2}", ephemeral=True
            )

        @roll.autocomplete("label")
        async def roll_label(interaction: discord.Interaction, current: str):
            words = ["fire", "first strike", "flank", "morale", "supply"]
            return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]

        game = app_commands.Group(name="game", description="Game management")

        @game.command(name="create", description="Create a game")
        @app_commands.checks.has_permissions(manage_guild=True)
        @app_commands.choices(
            size=[
                app_commands.Choice(name="small", value="small"),
                app_commands.Choice(name="large", value="large"),
            ]
        )
        async def game_create(
            interaction: discord.Interaction, name: str, size: app_commands.Choice[str]
        ) -> None:
            await interaction.response.send_message(f"created {name} ({size.value})")

        orders = app_commands.Group(name="orders", description="Orders", parent=game)

        @orders.command(name="list", description="List orders")
        async def orders_list(interaction: discord.Interaction, turn: int = 1) -> None:
            await interaction.response.send_message(f"orders for turn {turn}", ephemeral=True)

        tree.add_command(game)

        @tree.command(name="map", description="Render the map")
        async def map_(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(
                content="here is the map",
                attachments=[discord.File(io.BytesIO(PNG), filename="map.png")],
                embed=discord.Embed(title="Turn 1", description="The map").set_image(
                    url="attachment://map.png"
                ),
            )
            await interaction.followup.send(
                "legend", file=discord.File(io.BytesIO(PNG), "legend.png"), ephemeral=True
            )

        @tree.command(name="dm", description="Send me my orders by DM")
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send(
                    "your orders", file=discord.File(io.BytesIO(b"move 1 2\n"), "orders.txt")
                )
            except discord.Forbidden as exc:
                self.forbidden.append(exc)
                await interaction.response.send_message("Your DMs are closed", ephemeral=True)
                return
            await interaction.response.send_message("sent you a DM", ephemeral=True)

        @tree.command(name="vote", description="Start a vote")
        async def vote(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("0 vote(s)", view=VoteView())

        @tree.command(name="admin", description="Admin only")
        @app_commands.default_permissions(manage_guild=True)
        async def admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("admin ok", ephemeral=True)

        @tree.command(name="shout", description="Say something too long")
        async def shout(interaction: discord.Interaction, length: int) -> None:
            try:
                await interaction.response.send_message("a" * length)
            except discord.HTTPException as exc:
                self.http_errors.append(exc)

        @tree.error
        async def on_tree_error(
            interaction: discord.Interaction, error: app_commands.AppCommandError
        ) -> None:
            if isinstance(error, app_commands.CheckFailure):
                await interaction.response.send_message("You need Manage Server", ephemeral=True)
                return
            raise error


@pytest.fixture
async def env():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Test", channels=["general", "play"])
        channel = next(c for c in guild.channels.values() if c.name == "play")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice, permissions=MANAGE_GUILD)
        bob = fake.add_user("bob")
        fake.add_member(guild, bob)
        bot = DemoBot(guild.id)
        await fake.start_client(bot)
        yield SimpleNamespace(
            fake=fake, guild=guild, channel=channel, alice=alice, bob=bob, bot=bot
        )
        await fake.stop_client(bot)
        assert bot.is_closed()


async def test_login_ready_and_command_sync(env):
    fake, bot, guild = env.fake, env.bot, env.guild
    assert bot.is_ready()
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    dguild = bot.get_guild(guild.id)
    assert dguild is not None and dguild.name == "Test"
    assert {c.name for c in dguild.text_channels} == {"general", "play"}
    names = {c["name"] for c in fake.commands(guild)}
    assert names == {"roll", "game", "map", "dm", "vote", "admin", "shout"}
    assert fake.commands() == []  # nothing synced globally
    game = fake.command("game", guild)
    assert [o["name"] for o in game["options"]] == ["create", "orders"]
    assert len(fake.command_syncs) == 1
    # the fake answered GET /users/@me, the application info and the sync
    templates = {r.template for r in fake.requests}
    assert "/users/@me" in templates
    assert "/applications/{application_id}/guilds/{guild_id}/commands" in templates


async def test_slash_command_round_trip_ephemeral(env):
    reply = await env.fake.invoke(env.alice, env.channel, "roll", {"sides": 20, "label": "fire"})
    assert reply.callback_type == 4
    assert reply.ephemeral
    assert reply.content == "fire: d20 -> 10"
    assert env.bot.seen == ["roll 20 fire"]
    # ephemeral messages are not visible in the channel
    assert env.fake.channel_messages(env.channel) == []
    with pytest.raises(ValueError, match="outside"):
        await env.fake.invoke(env.alice, env.channel, "roll", {"sides": 1000})
    with pytest.raises(ValueError, match="required option"):
        await env.fake.invoke(env.alice, env.channel, "roll", {})


async def test_subcommands_choices_and_permissions(env):
    fake = env.fake
    reply = await fake.invoke(
        env.alice, env.channel, "game create", {"name": "war", "size": "large"}
    )
    assert reply.content == "created war (large)" and not reply.ephemeral
    assert [m.content for m in fake.channel_messages(env.channel)] == ["created war (large)"]
    # has_permissions check in the bot sees bob's permission bits (no Manage Guild)
    denied = await fake.invoke(
        env.bob, env.channel, "game", {"name": "x", "size": "small"}, subcommand="create"
    )
    assert denied.content == "You need Manage Server" and denied.ephemeral
    nested = await fake.invoke(env.bob, env.channel, "game orders list", {"turn": 3})
    assert nested.content == "orders for turn 3"
    with pytest.raises(ValueError, match="not one of the choices"):
        await fake.invoke(env.alice, env.channel, "game create", {"name": "x", "size": "huge"})
    # default_member_permissions hides /admin from bob, alice may use it
    with pytest.raises(CommandUnavailable):
        await fake.invoke(env.bob, env.channel, "admin")
    assert (await fake.invoke(env.alice, env.channel, "admin")).content == "admin ok"


async def test_autocomplete(env):
    choices = await env.fake.autocomplete(
        env.alice, env.channel, "roll", focused="label", value="fi", options={"sides": 6}
    )
    assert choices == [
        {"name": "fire", "value": "fire"},
        {"name": "first strike", "value": "first strike"},
    ]


async def test_defer_edit_and_followup_with_files(env):
    fake = env.fake
    reply = await fake.invoke(env.alice, env.channel, "map")
    assert reply.deferred and reply.callback_type == 5
    assert reply.content == "here is the map"
    assert not reply.ephemeral
    assert reply.files[0].filename == "map.png" and reply.files[0].data == PNG
    assert reply.embeds[0]["image"]["url"] == "attachment://map.png"
    await reply.wait_for_followups(1)
    legend = reply.followups[0]
    assert legend.ephemeral and legend.file("legend.png").data == PNG
    # the bot can download the attachment from the fake CDN
    msg = await env.bot.get_channel(env.channel.id).fetch_message(reply.original.id)
    assert await msg.attachments[0].read() == PNG


async def test_dm_with_attachment(env):
    fake = env.fake
    reply = await fake.invoke(env.alice, env.channel, "dm")
    assert reply.content == "sent you a DM"
    dm = await fake.wait_for_dm(env.alice, timeout=2)
    assert dm.content == "your orders"
    assert dm.file("orders.txt").data == b"move 1 2\n"
    assert fake.dms(env.alice) == [dm] and fake.dms(env.bob) == []


async def test_button_click_updates_message(env):
    fake = env.fake
    reply = await fake.invoke(env.alice, env.channel, "vote")
    assert reply.content == "0 vote(s)"
    assert [b["custom_id"] for b in reply.message.buttons] == ["vote:yes"]
    click = await fake.click(env.bob, reply, "vote:yes")
    assert click.callback_type == 7
    assert click.original is reply.original
    assert reply.original.content == "1 vote(s), last by bob"
    click2 = await fake.click(env.alice, reply.original, "vote:yes")
    assert click2.message.content == "2 vote(s), last by alice"


async def test_closed_dms_surface_as_forbidden(env):
    env.fake.close_dms(env.alice)
    reply = await env.fake.invoke(env.alice, env.channel, "dm")
    assert reply.content == "Your DMs are closed"
    assert len(env.bot.forbidden) == 1 and env.bot.forbidden[0].code == 50007
    assert env.fake.dms(env.alice) == []
    assert env.fake.errors == []  # a closed DM is a legitimate answer, not a bot error


async def test_rate_limits_are_retried(env):
    fake = env.fake
    dm_rule = fake.rate_limit("/messages", method="POST", times=2, retry_after=0.05)
    hook_rule = fake.rate_limit("POST /webhooks/", times=1, retry_after=0.05)
    started = time.monotonic()
    reply = await fake.invoke(env.alice, env.channel, "dm")
    assert reply.content == "sent you a DM"
    assert dm_rule.hits == 2
    assert len(fake.dms(env.alice)) == 1
    statuses = [r.status for r in fake.requests if r.template == "/channels/{channel_id}/messages"]
    assert statuses[-3:] == [429, 429, 200]
    reply = await fake.invoke(env.alice, env.channel, "map")
    await reply.wait_for_followups(1)
    assert hook_rule.hits == 1
    assert time.monotonic() - started < 3


async def test_invalid_requests_are_rejected_and_recorded(env):
    fake, bot = env.fake, env.bot
    # a 2001 character interaction response is refused with 50035 ...
    reply = await fake.invoke(env.alice, env.channel, "shout", {"length": 2001})
    assert not reply.acknowledged and reply.rejected
    await eventually(lambda: bot.http_errors)
    assert bot.http_errors[0].status == 400 and bot.http_errors[0].code == 50035
    errors = fake.pop_errors()
    assert len(errors) == 1 and errors[0].kind in ("schema", "limits")
    content_errors = errors[0].details["data"]["content"]["_errors"]
    assert content_errors[0]["message"].startswith("Must be 2000 or fewer in length.")
    # ... while 2000 is fine
    assert (await fake.invoke(env.alice, env.channel, "shout", {"length": 2000})).acknowledged

    app_id, guild_id = fake.application_id, env.guild.id
    bad_name = {"name": "Roll", "description": "x", "type": 1}
    too_many = {
        "name": "many",
        "description": "x",
        "options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)],
    }
    required_after_optional = {
        "name": "order",
        "description": "x",
        "options": [
            {"type": 3, "name": "a", "description": "d"},
            {"type": 3, "name": "b", "description": "d", "required": True},
        ],
    }
    for payload in (bad_name, too_many, required_after_optional):
        with pytest.raises(discord.HTTPException) as info:
            await bot.http.bulk_upsert_guild_commands(app_id, guild_id, [payload])
        assert info.value.status == 400 and info.value.code == 50035
    if not fake.spec.validating:
        # a clone without Discord's OpenAPI spec (none beside it, none to fetch): the fake's
        # own limits refused the three above; what only the schema catches is not checked
        assert len(fake.pop_errors()) == 3
        pytest.skip(f"the schema checks need Discord's OpenAPI spec: {fake.spec.source}")
    schema_bad = {"name": "x", "description": "y" * 101}
    with pytest.raises(discord.HTTPException):
        await bot.http.bulk_upsert_guild_commands(app_id, guild_id, [schema_bad])
    # a malformed body (schema violation) and an unknown route
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=env.channel.id)
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"content": 5})
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/no/such/route"))
    # the same malformed body again (its verdict kept by the fake): refused the same way
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"content": 5})
    errors = fake.pop_errors()
    kinds = [e.kind for e in errors]
    assert kinds == ["limits", "schema", "limits", "schema", "schema", "unknown-route", "schema"]
    assert errors[6].details == errors[4].details
    assert (
        errors[0].details["0"]["name"]["_errors"][0]["code"] == "APPLICATION_COMMAND_INVALID_NAME"
    )
    assert "Must be 25 or fewer" in errors[1].details["0"]["options"]["_errors"][0]["message"]
    assert "required" in errors[2].details["0"]["options"]["1"]
    assert "description" in errors[3].details["0"]
    assert "content" in errors[4].details
    # the registered commands were not touched by the rejected syncs
    assert "Roll" not in {c["name"] for c in fake.commands(env.guild)}


async def test_double_ack_and_late_ack_are_errors():
    async with FakeDiscord(interaction_timeout=0.2) as fake:
        guild = fake.add_guild("Slow")
        channel = next(iter(guild.channels.values()))
        user = fake.add_user("carol")
        fake.add_member(guild, user)
        client = discord.Client(intents=discord.Intents.default())
        tree = app_commands.CommandTree(client)
        results: list[str] = []

        @tree.command(description="answers twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("one")
            try:  # bypass discord.py's own guard to hit the API a second time
                await interaction.response._parent._state.http.request(
                    discord.http.Route(
                        "POST",
                        "/interactions/{id}/{token}/callback",
                        id=interaction.id,
                        token=interaction.token,
                    ),
                    json={"type": 4, "data": {"content": "two"}},
                )
            except discord.HTTPException as exc:
                results.append(f"{exc.status}/{exc.code}")

        @tree.command(description="answers too late")
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            try:
                await interaction.response.send_message("late")
            except discord.NotFound as exc:
                results.append(f"{exc.status}/{exc.code}")

        async def setup_hook() -> None:
            tree.copy_global_to(guild=discord.Object(guild.id))
            await tree.sync(guild=discord.Object(guild.id))

        client.setup_hook = setup_hook  # type: ignore[method-assign]
        await fake.start_client(client)
        reply = await fake.invoke(user, channel, "twice")
        assert reply.content == "one"
        await reply.wait_for(lambda r: bool(r.rejected), timeout=2)
        late_reply = await fake.invoke(user, channel, "late")
        assert not late_reply.acknowledged
        await eventually(lambda: len(results) == 2)
        assert results == ["400/40060", "404/10062"]
        await fake.stop_client(client)
        assert [e.kind for e in fake.pop_errors()] == ["double-ack", "late-ack"]


async def test_global_command_in_dm_and_unhandled_exception_is_recorded():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("G")
        dave = fake.add_user("dave")
        fake.add_member(guild, dave)
        client = discord.Client(intents=discord.Intents.default())
        tree = app_commands.CommandTree(client)

        @tree.command(description="where am I")
        async def where(interaction: discord.Interaction) -> None:
            kind = "dm" if interaction.guild_id is None else "guild"
            await interaction.response.send_message(f"{kind} {interaction.user.name}")

        @tree.command(description="raises")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom")

        async def setup_hook() -> None:
            await tree.sync()

        client.setup_hook = setup_hook  # type: ignore[method-assign]
        await fake.start_client(client, wait_for_sync=True)
        assert {c["name"] for c in fake.commands()} == {"where", "boom"}
        reply = await fake.invoke(dave, fake.dm_channel(dave), "where")
        assert reply.content == "dm dave"
        assert reply.message in fake.channel_messages(fake.dm_channel(dave))
        reply = await fake.invoke(dave, next(iter(guild.channels.values())), "where")
        assert reply.content == "guild dave"
        started = time.monotonic()
        failed = await fake.invoke(dave, fake.dm_channel(dave), "boom")
        assert time.monotonic() - started < 1
        assert not failed.acknowledged and "kaboom" in repr(failed.bot_errors[0])
        await fake.stop_client(client)
        errors = fake.pop_errors()
        assert [e.kind for e in errors] == ["bot-exception"]


async def test_channel_messages_edit_pin_delete(env):
    fake, bot = env.fake, env.bot
    chan = bot.get_channel(env.channel.id)
    sent = await chan.send("hello", file=discord.File(io.BytesIO(PNG), "a.png"))
    stored = fake.messages[sent.id]
    assert stored.content == "hello" and stored.file("a.png").data == PNG
    await sent.edit(content="edited", attachments=[])
    assert stored.content == "edited" and stored.attachments == [] and stored.edited_timestamp
    await sent.pin()
    assert stored.pinned and [m.id async for m in chan.pins()] == [sent.id]
    await sent.unpin()
    assert not stored.pinned
    fetched = await chan.fetch_message(sent.id)
    assert fetched.content == "edited"
    await sent.delete()
    assert stored.deleted and fake.channel_messages(env.channel) == []
    # the channel limit (2000) is enforced even though the schema allows 4000
    with pytest.raises(discord.HTTPException) as info:
        await chan.send("x" * 2001)
    assert info.value.code == 50035
    (error,) = fake.pop_errors()
    assert error.kind == "limits" and "content" in error.details
    # no members intent, so the bot fetches the member over REST
    member = await bot.get_guild(env.guild.id).fetch_member(env.alice.id)
    await member.send("direct")
    assert [m.content for m in fake.dms(env.alice)] == ["direct"]
