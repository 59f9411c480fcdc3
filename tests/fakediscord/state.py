"""What the fake Discord holds: its settings, the world (users, guilds, channels, messages,
interactions, commands), what it recorded (requests, errors, presences), and lookups on them.

The gateway, the REST side and the driver all read and change this one :class:`State`
(:class:`~.server.FakeDiscord` is one); the model objects themselves are in :mod:`.models`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tests.fakediscord.limits import DEFAULT_FILE_LIMIT
from tests.fakediscord.models import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    InteractionRecord,
    Member,
    Message,
    User,
    snowflake,
)
from tests.fakediscord.ratelimits import (
    BAN_DURATION,
    GLOBAL_LIMIT,
    INVALID_LIMIT,
    Bucket,
    RateLimiter,
    RateLimitHit,
)
from tests.fakediscord.spec import ApiSpec, load_spec

log = logging.getLogger("fakediscord")

SESSION_LIMIT_PERIOD = 24 * 60 * 60.0
"""Seconds after which the session start limit resets (Discord: a day)."""
DM_OPEN_LIMIT = 10
DM_OPEN_WINDOW = 10.0
"""At most DM_OPEN_LIMIT new DM channels in DM_OPEN_WINDOW seconds, else 40003 "You are
opening direct messages too fast" (Discord does not publish its numbers: a choice)."""


# --------------------------------------------------------------------------- records


@dataclass
class RecordedError:
    """A protocol error the fake detected (the bot did something Discord rejects)."""

    kind: str
    message: str
    method: str = ""
    path: str = ""
    status: int = 0
    details: Any = None

    def __str__(self) -> str:
        where = f" {self.method} {self.path}" if self.method else ""
        extra = f"\n    {json.dumps(self.details)[:2000]}" if self.details else ""
        return f"[{self.kind}]{where} -> {self.status}: {self.message}{extra}"


class FakeDiscordErrors(AssertionError):
    """Raised when errors were recorded and not consumed by the test."""

    def __init__(self, errors: list[RecordedError]):
        self.errors = errors
        lines = "\n".join(f"  - {e}" for e in errors)
        super().__init__(f"fake Discord recorded {len(errors)} error(s):\n{lines}")


@dataclass
class RequestLog:
    """One REST request the bot made, with the fake's answer."""

    method: str
    path: str
    template: str | None
    query: dict[str, str]
    json: Any
    files: list[tuple[str, int]]
    status: int = 0
    response: Any = None


def as_id(obj: Any) -> int:
    """The id of a model object, a member's user, or an id given as int or str."""
    if isinstance(obj, int):
        return obj
    if isinstance(obj, str):
        return int(obj)
    if isinstance(obj, Member):
        return obj.user.id
    return int(obj.id)


# --------------------------------------------------------------------------- state


class State:
    """The data of one fake Discord, shared by its gateway, REST side and driver."""

    def __init__(
        self,
        *,
        token: str = "fake-token",
        bot_name: str = "FakeBot",
        interaction_timeout: float = 3.0,
        token_ttl: float = 15 * 60,
        followup_timeout: float = 5.0,
        file_limit: int = DEFAULT_FILE_LIMIT,
        raise_on_errors: bool = True,
        spec_path: str | None = None,
        shards: int | None = None,
        session_start_limit: int = 1000,
        max_concurrency: int = 1,
        identify_window: float | None = None,
        max_guilds_per_shard: int | None = None,
        permissions: bool = True,
        rate_limits: bool = True,
        rate_limit_scale: float = 1.0,
        buckets: Mapping[tuple[str, str], Bucket] | None = None,
        global_rate_limit: int | None = GLOBAL_LIMIT,
        invalid_request_limit: int | None = INVALID_LIMIT,
        ban_duration: float = BAN_DURATION,
        dm_open_limit: int | None = DM_OPEN_LIMIT,
        dm_open_window: float = DM_OPEN_WINDOW,
        strict_ephemeral: bool = True,
        strict_embeds: bool = True,
    ) -> None:
        self.token = token
        self.interaction_timeout = interaction_timeout
        self.token_ttl = token_ttl
        self.followup_timeout = followup_timeout
        self.file_limit = file_limit
        self.raise_on_errors = raise_on_errors
        self.spec: ApiSpec = load_spec(spec_path)

        self.application_id = snowflake()
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.owner = User(snowflake(), "app-owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        """Interactions by token (the bot answers and follows up with the token)."""
        self.app_commands: dict[int | None, list[dict[str, Any]]] = {}
        """Registered application commands as stored, by guild id (``None`` = global)."""
        self.command_syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.uploads: dict[int, Attachment] = {}
        """Attachments the driver sent as command options (served by the CDN)."""
        self.closed_dms: set[int] = set()
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        """(channel, nonce) -> (message id, when): Discord's `enforce_nonce` (see routes)."""
        self.nonce_window = 300.0
        self.deduplicated = 0
        """Messages not created again because their nonce was seen (enforce_nonce)."""
        self.errors: list[RecordedError] = []
        self.notes: list[RecordedError] = []
        """What Discord accepts but a test may want to see (``ephemeral-ignored``,
        ``embeds-dropped``, ...): see :meth:`note`."""
        self.requests: list[RequestLog] = []
        self.presences: list[dict[str, Any]] = []
        self.port = 0
        self._changed = asyncio.Condition()

        # Discord's rules, each on unless a test switches it off (and says why)
        self.enforce_permissions = permissions
        """Channel permissions of the bot (overwrites included) for what it does in a guild
        channel: 403 50013 / 50001 (see :mod:`.routes`); False: everything allowed."""
        self.ratelimiter = RateLimiter(
            enabled=rate_limits,
            scale=rate_limit_scale,
            buckets=buckets,
            global_limit=global_rate_limit,
            invalid_limit=invalid_request_limit,
            ban_duration=ban_duration,
        )
        """Per-route buckets, the global limit, the invalid request limit (:mod:`.ratelimits`)."""
        self.dm_open_limit = dm_open_limit
        """More new DM channels than this in ``dm_open_window`` seconds: 403 40003 (Discord
        publishes no number: the fake's choice); None: off."""
        self.dm_open_window = dm_open_window
        self.dm_opened: deque[float] = deque()
        """When the bot opened a DM channel with a user it had none with."""
        self.dm_users: set[int] = set()
        """Users the bot opened a DM channel with (opening it again is free)."""
        self.strict_ephemeral = strict_ephemeral
        """The first follow-up after a public "thinking" defer asking to be ephemeral: an
        error (True), or only a note ``ephemeral-ignored`` (False). Discord accepts it and
        shows the message publicly."""
        self.strict_embeds = strict_embeds
        """Embeds dropped for want of EMBED_LINKS: an error (True) or only a note."""

        # sharding (see :mod:`.gateway`)
        self.recommended_shards = shards
        """``shards`` of ``GET /gateway/bot``; None: one per 1000 guilds (at least 1)."""
        self.session_start_limit: dict[str, int] = {
            "total": session_start_limit,
            "remaining": session_start_limit,
            "max_concurrency": max_concurrency,
        }
        """``total``, ``remaining`` (counted down by each IDENTIFY) and ``max_concurrency``."""
        self.session_limit_resets = time.monotonic() + SESSION_LIMIT_PERIOD
        self.identify_window = identify_window
        """Seconds in which one IDENTIFY per rate limit key is allowed (Discord: 5); None: off."""
        self.max_guilds_per_shard = max_guilds_per_shard
        """More guilds on one shard close its IDENTIFY with 4011 (Discord: 2500); None: off."""

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def gateway_bot(self) -> dict[str, Any]:
        """The answer of ``GET /gateway/bot``: URL, recommended shards, session start limit."""
        now = time.monotonic()
        limit = self.session_start_limit
        if now >= self.session_limit_resets:
            limit["remaining"] = limit["total"]
            self.session_limit_resets = now + SESSION_LIMIT_PERIOD
        shards = self.recommended_shards or max(1, -(-len(self.guilds) // 1000))
        return {
            "url": self.gateway_url,
            "shards": shards,
            "session_start_limit": {
                "total": limit["total"],
                "remaining": limit["remaining"],
                "reset_after": int((self.session_limit_resets - now) * 1000),
                "max_concurrency": limit["max_concurrency"],
            },
        }

    # ------------------------------------------------------------------ errors
    def record(self, kind: str, message: str, **kw: Any) -> RecordedError:
        """Record a protocol error (fails the test at exit unless popped)."""
        err = RecordedError(kind, message, **kw)
        self.errors.append(err)
        log.warning("fake discord error: %s", err)
        return err

    def note(self, kind: str, message: str, *, error: bool = False, **kw: Any) -> RecordedError:
        """Note something Discord accepts but a test may want to see (``self.notes``); with
        ``error`` it is also recorded as an error (fails the test at exit unless popped)."""
        item = RecordedError(kind, message, **kw)
        self.notes.append(item)
        if error:
            self.errors.append(item)
            log.warning("fake discord error: %s", item)
        return item

    def notes_of(self, kind: str) -> list[RecordedError]:
        return [n for n in self.notes if n.kind == kind]

    @property
    def rate_limited(self) -> list[RateLimitHit]:
        """Every 429 the fake sent (see :class:`~.ratelimits.RateLimitHit`)."""
        return self.ratelimiter.hits

    def record_error(self, message: str, kind: str = "test") -> None:
        """Record an error from test code (fails the test at exit like any other)."""
        self.record(kind, message)

    def pop_errors(self) -> list[RecordedError]:
        """Return and clear the recorded errors (for tests that expect some)."""
        errors, self.errors = self.errors, []
        return errors

    def assert_no_errors(self) -> None:
        if self.errors:
            errors = self.pop_errors()
            raise FakeDiscordErrors(errors)

    # ------------------------------------------------------------------ changes
    async def notify(self) -> None:
        """Wake whoever waits for a change (after every REST request)."""
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        """Wait (without timeout) until ``predicate()`` holds after some change."""
        async with self._changed:
            await self._changed.wait_for(predicate)

    # ------------------------------------------------------------------ lookups
    def commands(self, guild: Guild | int | None = None) -> list[dict[str, Any]]:
        """Registered commands (as stored, with ids) globally or for ``guild``."""
        key = None if guild is None else as_id(guild)
        return list(self.app_commands.get(key, []))

    def command(self, name: str, guild: Guild | int | None = None) -> dict[str, Any]:
        for cmd in self.commands(guild):
            if cmd["name"] == name:
                return cmd
        raise KeyError(
            f"command {name!r} not registered; have {[c['name'] for c in self.commands(guild)]}"
        )

    def channel_messages(
        self, channel: Channel, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[Message]:
        out = []
        for mid in channel.message_ids:
            msg = self.messages[mid]
            if msg.deleted and not include_deleted:
                continue
            if msg.ephemeral and not include_ephemeral:
                continue
            out.append(msg)
        return out

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on demand)."""
        for chan in self.channels.values():
            if chan.type == ChannelType.DM and chan.recipient is user:
                return chan
        chan = Channel(snowflake(), ChannelType.DM, recipient=user)
        self.channels[chan.id] = chan
        return chan

    def find_dm_channel(self, user: User) -> Channel | None:
        for chan in self.channels.values():
            if chan.type == ChannelType.DM and chan.recipient is user:
                return chan
        return None

    def bot_permissions(self, channel: Channel) -> int | None:
        """The bot's permissions in a guild channel (None: a DM, where none apply)."""
        if channel.guild_id is None:
            return None
        return self.guilds[channel.guild_id].permissions_in(channel, self.bot_user.id)

    def member(self, guild: Guild, user: User) -> Member:
        return guild.members[user.id]

    def user_permissions(self, guild: Guild, user: User) -> int:
        return guild.permissions_of(user.id)
