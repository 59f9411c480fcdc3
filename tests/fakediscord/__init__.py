"""A local fake Discord (REST API + gateway) for end-to-end tests of discord.py bots.

The *real* discord.py client connects to it: the fake answers ``/users/@me``,
the gateway handshake (HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats),
command sync, interactions, follow-up webhooks, DMs, channel messages and pins.
Every JSON request body (also the ``payload_json`` of multipart requests) is
validated against Discord's OpenAPI spec (``../shared/discord-api-spec/openapi.json``
beside the repository, the ``DISCORD_OPENAPI_SPEC`` environment variable, or a pinned copy
fetched into the user's cache: see :mod:`.spec`; without any, only that validation is
skipped) and against Discord's documented limits (see :mod:`.limits`). Rejected requests are answered like Discord would
(e.g. ``400 {"code": 50035, "message": "Invalid Form Body", "errors": {...}}``)
and recorded in ``fake.errors``; leaving the ``async with`` block raises
:class:`FakeDiscordErrors` if errors were recorded and not consumed with
``fake.pop_errors()``.

Usage::

    from tests.fakediscord import FakeDiscord

    async def test_something():
        async with FakeDiscord() as fake:          # starts server, patches discord.py
            guild = fake.add_guild("Test")
            alice = fake.add_user("alice")
            fake.add_member(guild, alice, permissions=1 << 5)   # Manage Guild
            channel = fake.add_channel(guild, "play")
            bot = MyBot()                             # any discord.Client / commands.Bot
            await fake.start_client(bot)              # token "fake-token"; waits for on_ready
            reply = await fake.invoke(alice, channel, "game create", {"size": 3})
            assert reply.ephemeral and "created" in reply.content
            later = await reply.wait_for_followups(1)
            choices = await fake.autocomplete(alice, channel, "move", focused="unit", value="3")
            clicked = await fake.click(alice, reply, "confirm")
            dm = await fake.wait_for_dm(alice)
            png = dm.file("map.png").data
            await fake.stop_client(bot)               # also done on exit

Sharding (Discord's rule: a guild is on shard ``(guild_id >> 22) % shard_count``; its
events go only to that shard's connection, DMs to shard 0)::

    async with FakeDiscord() as fake:
        a = fake.add_guild("A", shard=(0, 2))     # or id=..., or fake.guild_id_on_shard(0, 2)
        b = fake.add_guild("B", shard=(1, 2))
        zero = MyClient(shard_id=0, shard_count=2)
        one = MyClient(shard_id=1, shard_count=2)  # or one AutoShardedClient(shard_count=2)
        await fake.start_client(zero)
        await fake.start_client(one)              # zero gets A's events, one gets B's
        assert fake.shard_of(b) == 1               # by the connected shard count
        await fake.wait_for_shards([0, 1], 2)     # for bots in other processes

``FakeDiscord(shards=N)`` is the recommendation of ``GET /gateway/bot`` (an
``AutoShardedClient`` without ``shard_count`` opens that many); ``session_start_limit``,
``max_concurrency``, ``identify_window`` (enforce ``max_concurrency`` per window, off by
default) and ``max_guilds_per_shard`` (4011, off by default) are the gateway's limits; a bad
``[shard_id, shard_count]`` is closed with 4010 (see :mod:`.gateway`).

Discord's rules, each on by default (docs/DISCORD-RULES.md lists them all, with sources):

- channel permissions with overwrites (:mod:`.permissions`, checked in :mod:`.routes`):
  ``fake.set_overwrite(channel, role_or_member, allow=..., deny=...)``,
  ``fake.set_role_permissions(fake.bot_role(guild), bits)`` (CHANNEL_UPDATE /
  GUILD_ROLE_UPDATE reach the bot); interactions carry the bot's ``app_permissions``;
- rate limits (:mod:`.ratelimits`): per-route buckets with their headers, the global 50/s,
  the invalid request limit; ``fake.rate_limited`` lists every 429,
  ``fake.ratelimiter.peak_per_second()`` and ``.per_second()`` measure the traffic;
- the interaction lifecycle (:mod:`.callbacks`): 3 s, 15 minutes, 40060, the ignored
  ephemeral flag of the first follow-up after a defer (``fake.notes_of("ephemeral-ignored")``);
- length and count limits (:mod:`.limits`); DM errors 50007 and 40003.

Switches (each only for a test that says why): ``FakeDiscord(permissions=False,
rate_limits=False, rate_limit_scale=0.1, global_rate_limit=None, invalid_request_limit=None,
dm_open_limit=None, strict_ephemeral=False, strict_embeds=False)``.

Failure simulation: ``fake.close_dms(user)`` (403 / 50007),
``fake.rate_limit("POST /channels", times=1, retry_after=0.05)`` (429 that
discord.py retries). Tuning: ``FakeDiscord(interaction_timeout=3.0,
followup_timeout=5.0, file_limit=10 MiB, raise_on_errors=True)``.

``invoke``/``click`` raise :class:`CommandUnavailable` when the Discord client
would not offer the command (unknown, wrong context, missing
``default_member_permissions``) and ``ValueError`` for options the client
would refuse (unknown names, missing required options, not a choice, ...).

Modules: :mod:`.server` (``FakeDiscord``: lifecycle, world building, clients),
:mod:`.state` (the data and what was recorded), :mod:`.gateway` (the websocket and
the dispatch of events), :mod:`.rest` (HTTP plumbing: validation, auth, rate limits),
:mod:`.routes` and :mod:`.callbacks` (the REST handlers), :mod:`.driver` (the users
the tests play), :mod:`.models`, :mod:`.permissions`, :mod:`.ratelimits`, :mod:`.limits`
and :mod:`.spec`.
"""

from tests.fakediscord.driver import CommandUnavailable
from tests.fakediscord.limits import Problem
from tests.fakediscord.models import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    InteractionRecord,
    InteractionTimeout,
    Member,
    Message,
    Role,
    User,
)
from tests.fakediscord.permissions import Overwrite
from tests.fakediscord.ratelimits import Bucket, RateLimitHit
from tests.fakediscord.rest import ApiRequest, RateLimitRule
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.spec import ApiSpec, SpecUnavailableWarning, load_spec
from tests.fakediscord.state import FakeDiscordErrors, RecordedError, RequestLog

__all__ = [
    "ApiRequest",
    "ApiSpec",
    "Attachment",
    "Bucket",
    "Channel",
    "ChannelType",
    "CommandUnavailable",
    "FakeDiscord",
    "FakeDiscordErrors",
    "Guild",
    "InteractionRecord",
    "InteractionTimeout",
    "Member",
    "Message",
    "Overwrite",
    "Problem",
    "RateLimitHit",
    "RateLimitRule",
    "RecordedError",
    "RequestLog",
    "Role",
    "SpecUnavailableWarning",
    "User",
    "load_spec",
]
