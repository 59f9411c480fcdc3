"""The fake Discord keeps Discord's documented rules (docs/DISCORD-RULES.md): permissions
with overwrites, rate limits, the interaction lifecycle, length and count limits, DM errors
and where Discord's OpenAPI spec is found. Each rule is tested on and switched off."""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord, SpecUnavailableWarning
from tests.fakediscord import permissions as P
from tests.fakediscord import spec as spec_module
from tests.fakediscord.limits import check_autocomplete, check_message
from tests.fakediscord.models import Channel, ChannelType, Guild, Member, Role, User
from tests.fakediscord.ratelimits import Bucket
from tests.fakediscord.rest import API_PREFIX

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


# --------------------------------------------------------------------------- helpers


async def api(
    fake: FakeDiscord,
    method: str,
    path: str,
    body: Any = None,
    *,
    files: list[tuple[str, bytes]] | None = None,
    token: str | None = "fake-token",
) -> tuple[int, Any, Any]:
    """One raw request to the fake: ``(status, headers, JSON body or text)``."""
    headers = {"Authorization": f"Bot {token}"} if token else {}
    kwargs: dict[str, Any] = {"headers": headers}
    if files:
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps(body or {}), content_type="application/json")
        for i, (name, blob) in enumerate(files):
            form.add_field(f"files[{i}]", blob, filename=name)
        kwargs["data"] = form
    elif body is not None:
        kwargs["json"] = body
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.base_url + API_PREFIX + path, **kwargs) as resp,
    ):
        text = await resp.text()
        data: Any
        try:
            data = json.loads(text) if text else None
        except ValueError:
            data = text
        return resp.status, resp.headers, data


def world(fake: FakeDiscord, *channels: str) -> SimpleNamespace:
    guild = fake.add_guild("Rules", channels=channels or ("play",))
    chans = {str(c.name): c for c in guild.channels.values()}
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    return SimpleNamespace(guild=guild, alice=alice, **chans)


class RuleBot(discord.Client):
    """A tiny bot whose commands do what a rule needs."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.guild_obj = discord.Object(guild_id)
        self.app_permissions: list[discord.Permissions] = []
        self.errors: list[discord.HTTPException] = []
        tree = self.tree

        @tree.command(description="Defer publicly, answer privately")
        async def leak(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("secret error", ephemeral=True)

        @tree.command(description="Answer privately, then edit it")
        async def private(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first", ephemeral=True)
            await interaction.edit_original_response(content="second")

        @tree.command(description="Answer with a file and an embed")
        async def picture(interaction: discord.Interaction) -> None:
            self.app_permissions.append(interaction.app_permissions)
            await interaction.response.send_message(
                "the map",
                file=discord.File(io.BytesIO(PNG), "map.png"),
                embed=discord.Embed(title="Map"),
            )

        @tree.command(description="Post seven messages in this channel")
        async def burst(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            for i in range(7):
                await channel.send(f"message {i}")

        @tree.command(description="Defer, wait, follow up")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await asyncio.sleep(0.4)
            try:
                await interaction.followup.send("late")
            except discord.HTTPException as exc:
                self.errors.append(exc)

    async def setup_hook(self) -> None:
        self.tree.copy_global_to(guild=self.guild_obj)
        await self.tree.sync(guild=self.guild_obj)


async def running_bot(fake: FakeDiscord, guild: Guild) -> RuleBot:
    bot = RuleBot(guild.id)
    await fake.start_client(bot, wait_for_sync=guild)
    return bot


# --------------------------------------------------------------------------- permissions


def test_permissions_are_computed_as_discord_documents() -> None:
    owner = User(1, "owner")
    bot, alice = User(2, "bot", bot=True), User(3, "alice")
    guild = Guild(100, "G", owner.id)
    everyone = guild.roles[100] = Role(100, 100, "@everyone", P.VIEW_CHANNEL | P.SEND_MESSAGES)
    helper = guild.roles[200] = Role(200, 100, "helper", P.ATTACH_FILES)
    admin = guild.roles[300] = Role(300, 100, "admin", P.ADMINISTRATOR)
    guild.members[bot.id] = Member(bot, 100, roles=[helper.id])
    guild.members[alice.id] = Member(alice, 100)
    chan = Channel(10, ChannelType.GUILD_TEXT, "play", 100)
    guild.channels[10] = chan
    base = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.ATTACH_FILES
    assert guild.permissions_in(chan, bot.id) == base
    assert guild.permissions_in(chan, owner.id) == P.ALL_PERMISSIONS
    # @everyone's overwrite denies sending; the helper role's allows it back
    chan.overwrites[100] = P.Overwrite(100, P.ROLE, deny=P.SEND_MESSAGES)
    assert not guild.permissions_in(chan, alice.id) & P.SEND_MESSAGES
    chan.overwrites[200] = P.Overwrite(200, P.ROLE, allow=P.SEND_MESSAGES | P.PIN_MESSAGES)
    assert guild.permissions_in(chan, bot.id) == base | P.PIN_MESSAGES
    # the member's own overwrite comes last
    chan.overwrites[bot.id] = P.Overwrite(bot.id, P.MEMBER, deny=P.PIN_MESSAGES)
    assert guild.permissions_in(chan, bot.id) == base
    # without SEND_MESSAGES, ATTACH_FILES and EMBED_LINKS go too (implicit)
    chan.overwrites[bot.id] = P.Overwrite(bot.id, P.MEMBER, deny=P.SEND_MESSAGES)
    assert guild.permissions_in(chan, bot.id) == P.VIEW_CHANNEL | P.PIN_MESSAGES
    # without VIEW_CHANNEL, nothing
    chan.overwrites[bot.id] = P.Overwrite(bot.id, P.MEMBER, deny=P.VIEW_CHANNEL)
    assert guild.permissions_in(chan, bot.id) == 0
    # ADMINISTRATOR ignores overwrites
    guild.members[bot.id].roles.append(admin.id)
    assert guild.permissions_in(chan, bot.id) == P.ALL_PERMISSIONS
    assert everyone.permissions == P.VIEW_CHANNEL | P.SEND_MESSAGES  # roles untouched


async def test_discord_py_sees_the_same_permissions_and_follows_changes() -> None:
    async with FakeDiscord() as fake:
        w = world(fake, "play")
        bot = await running_bot(fake, w.guild)
        me = bot.get_guild(w.guild.id)
        assert me is not None

        def seen() -> int:
            channel = me.get_channel(w.play.id)
            assert isinstance(channel, discord.TextChannel)
            return channel.permissions_for(me.me).value

        def fakes() -> int:  # discord.py leaves out voice permissions in a text channel
            return fake.bot_permissions_in(w.play) & ~discord.Permissions.voice().value

        assert seen() == fakes()
        fake.set_overwrite(w.play, fake.bot_role(w.guild), deny=P.ATTACH_FILES | P.EMBED_LINKS)
        fake.set_overwrite(w.play, w.guild, deny=P.SEND_MESSAGES)
        await asyncio.sleep(0.1)
        assert seen() == fakes()
        assert not seen() & P.ATTACH_FILES
        fake.set_role_permissions(fake.bot_role(w.guild), P.ADMINISTRATOR)
        await asyncio.sleep(0.1)
        assert seen() == fakes() and fake.bot_permissions_in(w.play) == P.ALL_PERMISSIONS
        await fake.stop_client(bot)


async def test_interactions_carry_app_permissions_and_responses_need_none() -> None:
    async with FakeDiscord() as fake:
        w = world(fake, "play")
        bot = await running_bot(fake, w.guild)
        # the bot may not post, attach or embed here; its interaction responses still work
        fake.set_overwrite(
            w.play, fake.bot_role(w.guild), deny=P.SEND_MESSAGES | P.ATTACH_FILES | P.EMBED_LINKS
        )
        reply = await fake.invoke(w.alice, w.play, "picture")
        assert reply.content == "the map" and reply.files and reply.embeds
        assert bot.app_permissions[0].value == fake.bot_permissions_in(w.play)
        assert not bot.app_permissions[0].send_messages
        await fake.stop_client(bot)


async def test_messages_need_the_channels_permissions() -> None:
    # raw requests do not wait for the bucket of a channel's messages: widened here
    wide = {("POST", "/channels/{channel_id}/messages"): Bucket("message-create", 50, 5.0)}
    async with FakeDiscord(buckets=wide) as fake:
        w = world(fake, "play")
        chan = f"/channels/{w.play.id}"
        role = fake.bot_role(w.guild)
        status, _, body = await api(fake, "POST", chan + "/messages", {"content": "hi"})
        assert status == 200
        mid = body["id"]

        fake.set_overwrite(w.play, role, deny=P.SEND_MESSAGES)
        status, _, body = await api(fake, "POST", chan + "/messages", {"content": "hi"})
        assert (status, body["code"], body["message"]) == (403, 50013, "Missing Permissions")
        assert "SEND_MESSAGES" in fake.notes_of("forbidden")[-1].message

        fake.set_overwrite(w.play, role, deny=P.ATTACH_FILES)
        status, _, body = await api(fake, "POST", chan + "/messages", {}, files=[("a.png", PNG)])
        assert (status, body["code"]) == (403, 50013)

        # embeds without EMBED_LINKS are dropped (an error by default), alone they are refused
        fake.set_overwrite(w.play, role, deny=P.EMBED_LINKS)
        embed = {"title": "t", "description": "d"}
        status, _, body = await api(
            fake, "POST", chan + "/messages", {"content": "x", "embeds": [embed]}
        )
        assert status == 200 and body["embeds"] == []
        assert [e.kind for e in fake.pop_errors()] == ["embeds-dropped"]
        status, _, body = await api(fake, "POST", chan + "/messages", {"embeds": [embed]})
        assert (status, body["code"]) == (403, 50013)

        # pins: PIN_MESSAGES only; MANAGE_MESSAGES is not enough since 2026-02-23
        fake.set_overwrite(w.play, role, deny=P.PIN_MESSAGES)
        assert fake.bot_permissions_in(w.play) & P.MANAGE_MESSAGES
        status, _, body = await api(fake, "PUT", f"{chan}/pins/{mid}")
        assert (status, body["code"]) == (403, 50013)
        fake.set_overwrite(w.play, role)
        assert (await api(fake, "PUT", f"{chan}/pins/{mid}"))[0] == 204
        fake.set_role_permissions(w.guild.default_role, P.VIEW_CHANNEL)
        fake.set_role_permissions(role, P.VIEW_CHANNEL | P.SEND_MESSAGES | P.MANAGE_MESSAGES)
        assert (await api(fake, "DELETE", f"{chan}/pins/{mid}"))[0] == 403

        # history: without READ_MESSAGE_HISTORY a list is empty and one message refused
        assert (await api(fake, "GET", chan + "/messages"))[2] == []
        assert (await api(fake, "GET", f"{chan}/messages/{mid}"))[0] == 403

        # without VIEW_CHANNEL: 50001 Missing Access, also to edit its own message
        fake.set_overwrite(w.play, role, deny=P.VIEW_CHANNEL)
        status, _, body = await api(fake, "PATCH", f"{chan}/messages/{mid}", {"content": "y"})
        assert (status, body["code"], body["message"]) == (403, 50001, "Missing Access")
        status, _, body = await api(fake, "POST", chan + "/messages", {"content": "hi"})
        assert (status, body["code"]) == (403, 50001)
        assert fake.errors == []  # 403s are Discord's answers, not protocol errors


async def test_permissions_can_be_switched_off() -> None:
    # a test of something else in a channel the bot may not use (no bot test does this today)
    async with FakeDiscord(permissions=False) as fake:
        w = world(fake, "play")
        fake.set_overwrite(w.play, fake.bot_role(w.guild), deny=P.VIEW_CHANNEL)
        path = f"/channels/{w.play.id}/messages"
        assert (await api(fake, "POST", path, {"content": "hi"}))[0] == 200


# --------------------------------------------------------------------------- rate limits


async def test_buckets_send_their_headers_and_429_beyond_them() -> None:
    async with FakeDiscord() as fake:
        w = world(fake, "play", "other")
        path = f"/channels/{w.play.id}/messages"
        for i in range(5):
            status, headers, _ = await api(fake, "POST", path, {"content": str(i)})
            assert status == 200
            assert headers["X-RateLimit-Limit"] == "5"
            assert headers["X-RateLimit-Remaining"] == str(4 - i)
            assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5
            assert float(headers["X-RateLimit-Reset"]) > time.time()
            assert headers["X-RateLimit-Bucket"]
        status, headers, body = await api(fake, "POST", path, {"content": "6"})
        assert status == 429
        assert body["global"] is False and 0 < body["retry_after"] <= 5
        assert body["message"] == "You are being rate limited."
        assert headers["X-RateLimit-Scope"] == "user" and headers["Retry-After"]
        assert headers["Via"] and headers["X-RateLimit-Remaining"] == "0"
        # another channel is another bucket
        assert (await api(fake, "POST", f"/channels/{w.other.id}/messages", {"content": "a"}))[
            0
        ] == 200
        [hit] = fake.rate_limited
        assert (hit.scope, hit.route) == ("user", "POST /channels/{channel_id}/messages")
        assert fake.ratelimiter.peak_per_second("POST /channels/{channel_id}/messages") == 7
        assert fake.ratelimiter.per_second()["POST /channels/{channel_id}/messages"] > 0
        # every answer has the headers, also a GET
        _, headers, _ = await api(fake, "GET", "/users/@me")
        assert "X-RateLimit-Bucket" in headers


async def test_the_global_limit_spares_the_interaction_routes() -> None:
    async with FakeDiscord(buckets={("GET", "/users/{user_id}"): Bucket("u", 100, 1.0)}) as fake:
        w = world(fake)
        statuses = [
            (await api(fake, "GET", f"/users/{w.alice.id}"))[0] for _ in range(50)
        ]  # within a second on any machine that runs these tests
        assert statuses == [200] * 50
        status, headers, body = await api(fake, "GET", f"/users/{w.alice.id}")
        assert status == 429 and body["global"] is True
        assert headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        # a follow-up webhook is not bound to the global limit (it answers 401: no such token)
        status, _, _ = await api(fake, "GET", f"/webhooks/{fake.application_id}/x/messages/1")
        assert status == 401
        fake.pop_errors()
        assert [h.scope for h in fake.rate_limited] == ["global"]


async def test_too_many_invalid_requests_get_the_client_banned() -> None:
    async with FakeDiscord(invalid_request_limit=5) as fake:
        world(fake)
        for _ in range(5):
            assert (await api(fake, "GET", "/users/@me", token="wrong"))[0] == 401
        status, headers, body = await api(fake, "GET", "/users/@me")
        assert status == 429 and "Via" not in headers and isinstance(body, str)
        kinds = [e.kind for e in fake.pop_errors()]
        assert kinds.count("auth") == 5 and kinds[-1] == "cloudflare-ban"
        assert fake.rate_limited[-1].scope == "cloudflare"


async def test_discord_py_keeps_to_the_buckets() -> None:
    # scaled: the 5-per-5-seconds bucket of a channel's messages lasts 0.5 s here
    async with FakeDiscord(rate_limit_scale=0.1) as fake:
        w = world(fake, "play")
        bot = await running_bot(fake, w.guild)
        started = time.monotonic()
        await fake.invoke(w.alice, w.play, "burst")
        await fake.wait_for_message(w.play, lambda m: m.content == "message 6")
        assert time.monotonic() - started >= 0.5  # it waited for the bucket to reset
        assert fake.rate_limited == []  # and was never refused
        await fake.stop_client(bot)


async def test_rate_limits_can_be_switched_off() -> None:
    # for a test of something else that must burst (no bot test does this today)
    async with FakeDiscord(rate_limits=False) as fake:
        w = world(fake, "play")
        path = f"/channels/{w.play.id}/messages"
        for i in range(8):
            status, headers, _ = await api(fake, "POST", path, {"content": str(i)})
            assert status == 200 and "X-RateLimit-Bucket" not in headers


# --------------------------------------------------------------------------- interactions


async def test_first_followup_after_a_public_defer_cannot_be_ephemeral() -> None:
    async with FakeDiscord() as fake:
        w = world(fake, "play")
        bot = await running_bot(fake, w.guild)
        reply = await fake.invoke(w.alice, w.play, "leak")
        assert reply.content == "secret error" and not reply.ephemeral  # shown to everyone
        [error] = fake.pop_errors()
        assert error.kind == "ephemeral-ignored"
        assert fake.notes_of("ephemeral-ignored") == [error]
        await fake.stop_client(bot)
    # a test that shows the leak itself may keep it a note
    async with FakeDiscord(strict_ephemeral=False) as fake:
        w = world(fake, "play")
        bot = await running_bot(fake, w.guild)
        reply = await fake.invoke(w.alice, w.play, "leak")
        assert not reply.ephemeral and len(fake.notes_of("ephemeral-ignored")) == 1
        assert fake.errors == []
        await fake.stop_client(bot)


async def test_an_ephemeral_original_can_be_edited() -> None:
    async with FakeDiscord() as fake:
        w = world(fake, "play")
        bot = await running_bot(fake, w.guild)
        reply = await fake.invoke(w.alice, w.play, "private")
        await reply.wait_for(lambda r: r.content == "second")
        assert reply.ephemeral
        await fake.stop_client(bot)


async def test_followups_after_the_token_expired_are_refused() -> None:
    async with FakeDiscord(token_ttl=0.2) as fake:  # Discord: 15 minutes
        w = world(fake, "play")
        bot = await running_bot(fake, w.guild)
        await fake.invoke(w.alice, w.play, "slow", wait=False)
        for _ in range(100):
            if bot.errors:
                break
            await asyncio.sleep(0.02)
        assert bot.errors[0].status == 401 and bot.errors[0].code == 50027
        assert [e.kind for e in fake.pop_errors()] == ["expired-token"]
        await fake.stop_client(bot)


# --------------------------------------------------------------------------- limits


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _select(**kw: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": str(i)} for i in range(kw.pop("n", 3))]
    return {"type": 3, "custom_id": "s", "options": options, **kw}


def _codes(payload: dict[str, Any]) -> list[str]:
    return [p.code for p in check_message(payload)]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"components": [_row(_select(n=26))]}, "BASE_TYPE_BAD_LENGTH"),
        ({"components": [_row(_select(n=0))]}, "BASE_TYPE_BAD_LENGTH"),
        ({"components": [_row(_select(placeholder="p" * 151))]}, "BASE_TYPE_MAX_LENGTH"),
        ({"components": [_row(_select(max_values=4))]}, "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH"),
        ({"components": [_row(_select(min_values=2))]}, "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH"),
        ({"components": [_row(_select(n=30, max_values=26))]}, "NUMBER_TYPE_MAX"),
        (
            {
                "components": [
                    _row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "max_values": 1,
                            "options": [
                                {"label": "a", "value": "a", "default": True},
                                {"label": "b", "value": "b", "default": True},
                            ],
                        }
                    )
                ]
            },
            "SELECT_COMPONENT_TOO_MANY_DEFAULTS",
        ),
        (
            {
                "components": [
                    _row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": "l" * 101, "value": "v", "description": "d"}],
                        }
                    )
                ]
            },
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {
                "components": [
                    _row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": "l", "value": "v", "description": "d" * 101}],
                        }
                    )
                ]
            },
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"components": [_row({"type": 6, "custom_id": "u", "default_values": [{}, {}]})]},
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"components": [_row({"type": 2, "style": 1, "custom_id": "b", "label": "x" * 81})]},
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"components": [_row({"type": 2, "style": 1, "custom_id": "", "label": "x"})]},
            "BASE_TYPE_MIN_LENGTH",
        ),
        ({"components": [_row({"type": 2, "style": 1, "label": "x"})]}, "BASE_TYPE_REQUIRED"),
        ({"components": [_row(_select(), _select())]}, "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
        ({"content": "x", "nonce": "n" * 26}, "BASE_TYPE_MAX_LENGTH"),
        (
            {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
        ),
        (
            {"content": "x", "allowed_mentions": {"users": [str(i) for i in range(101)]}},
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"flags": 1 << 15, "components": [{"type": 10, "content": "t"}] * 41},
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"flags": 1 << 15, "content": "x", "components": [{"type": 10, "content": "t"}]},
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
    ],
)
def test_component_and_message_limits(payload: dict[str, Any], code: str) -> None:
    assert code in _codes(payload)


def test_limits_at_their_edges_are_accepted() -> None:
    options = [{"label": "l" * 100, "value": "v" * 100, "description": "d" * 100}]
    options += [{"label": f"o{i}", "value": str(i)} for i in range(24)]
    select = {
        "type": 3,
        "custom_id": "c" * 100,
        "placeholder": "p" * 150,
        "min_values": 0,
        "max_values": 25,
        "options": options,
    }
    buttons = [{"type": 2, "style": 1, "custom_id": f"b{i}", "label": "x" * 80} for i in range(5)]
    payload = {
        "content": "x" * 2000,
        "nonce": "n" * 25,
        "components": [_row(select), _row(*buttons)],
        "allowed_mentions": {"parse": ["everyone"], "users": ["1"]},
    }
    assert check_message(payload) == []


def test_autocomplete_choices() -> None:
    ok = {"choices": [{"name": "n" * 100, "value": "v" * 100}] * 25}
    assert check_autocomplete(ok) == []
    assert check_autocomplete({"choices": [{"name": "n", "value": "v"}] * 26})
    assert check_autocomplete({"choices": [{"name": "", "value": "v"}]})
    assert check_autocomplete({"choices": [{"name": "n" * 101, "value": "v"}]})
    assert check_autocomplete({"choices": [{"name": "n", "value": "v" * 101}]})


# --------------------------------------------------------------------------- DMs


async def test_opening_dms_too_fast_is_40003_and_closed_dms_50007() -> None:
    async with FakeDiscord(dm_open_limit=3) as fake:
        users = [fake.add_user(f"u{i}") for i in range(5)]
        for user in users[:3]:
            assert (await api(fake, "POST", "/users/@me/channels", {"recipient_id": str(user.id)}))[
                0
            ] == 200
        status, _, body = await api(
            fake, "POST", "/users/@me/channels", {"recipient_id": str(users[3].id)}
        )
        assert (status, body["code"]) == (403, 40003)
        # reopening a DM the bot has is free
        status, _, dm = await api(
            fake, "POST", "/users/@me/channels", {"recipient_id": str(users[0].id)}
        )
        assert status == 200
        fake.close_dms(users[0])
        status, _, body = await api(
            fake, "POST", f"/channels/{dm['id']}/messages", {"content": "x"}
        )
        assert (status, body["code"]) == (403, 50007)
        assert len(fake.notes_of("dm-too-fast")) == 1 and fake.errors == []
    # off: for a test of something else; the bucket of DM opening is widened to show it
    dm_bucket = {("POST", "/users/@me/channels"): Bucket("dm-create", 100, 1.0)}
    async with FakeDiscord(dm_open_limit=None, buckets=dm_bucket) as fake:
        users = [fake.add_user(f"u{i}") for i in range(12)]
        for user in users:
            path = "/users/@me/channels"
            assert (await api(fake, "POST", path, {"recipient_id": str(user.id)}))[0] == 200


# --------------------------------------------------------------------------- the spec


def test_the_spec_is_found_beside_the_repository_or_not_at_all(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("DISCORD_OPENAPI_SPEC", str(tmp_path / "missing.json"))
    found, why = spec_module.find_spec()
    assert found is None and "does not exist" in why
    with pytest.warns(SpecUnavailableWarning, match="skips the schema validation"):
        spec = spec_module.load_spec.__wrapped__()
    assert not spec.validating
    op, known = spec.match("POST", "/channels/1/messages")
    assert op is not None and known and op.accepts_body
    assert op.validate_body({"content": 5}) == []  # no schema: nothing checked
    # without the variable: ../shared beside the repository, else the pinned cached copy
    monkeypatch.delenv("DISCORD_OPENAPI_SPEC")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("DISCORD_OPENAPI_SPEC_FETCH", "0")
    sibling = spec_module.SIBLING_SPEC
    monkeypatch.setattr(spec_module, "SIBLING_SPEC", tmp_path / "nowhere.json")
    assert spec_module.find_spec()[0] is None
    cached = spec_module.cached_spec_path()
    cached.parent.mkdir(parents=True)
    cached.write_text("{}")  # a wrong hash: thrown away
    assert spec_module.find_spec()[0] is None and not cached.exists()
    if sibling.is_file():
        shutil.copy(sibling, cached)
        assert spec_module.find_spec()[0] == cached


async def test_the_fake_runs_without_the_spec(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("DISCORD_OPENAPI_SPEC", str(tmp_path / "missing.json"))
    with pytest.warns(SpecUnavailableWarning):
        bare = spec_module.load_spec.__wrapped__()
    async with FakeDiscord() as fake:
        fake.spec = bare
        w = world(fake, "play")
        path = f"/channels/{w.play.id}/messages"
        status, _, body = await api(fake, "POST", path, {"content": "hi", "tts": "yes"})
        assert status == 200  # the schema would refuse tts: "yes"; only that is skipped
        status, _, body = await api(fake, "POST", path, {"content": "x" * 2001})
        assert status == 400 and body["code"] == 50035  # Discord's limits are still checked
        fake.pop_errors()
        assert (await api(fake, "GET", "/no/such/route"))[0] == 404
        fake.pop_errors()


def test_the_shipped_routes_are_the_specs() -> None:
    spec = spec_module.load_spec()
    if not spec.validating:
        pytest.skip(f"Discord's OpenAPI spec is unavailable: {spec.source}")
    shipped = json.loads(spec_module.ROUTES_FILE.read_text())
    assert shipped["routes"] == spec_module.routes_of(spec.raw)


def test_no_absolute_path_of_a_machine_in_the_fake() -> None:
    here = Path(spec_module.__file__).parent
    machine = "/" + "work" + "/"  # where the repository was written (not named literally)
    for path in [
        *here.glob("*.py"),
        here / "routes.json",
        here.parents[1] / "docs/DISCORD-RULES.md",
    ]:
        assert machine not in path.read_text(), path
