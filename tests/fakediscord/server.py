"""The fake Discord server: :class:`FakeDiscord` puts the parts together on 127.0.0.1.

It is the :class:`~.state.State` (the world and what was recorded) and its
:class:`~.driver.Driver` (the users), serves the :class:`~.gateway.Gateway` at
``/gateway`` and the :class:`~.rest.RestApi` (with :mod:`.routes` and :mod:`.callbacks`)
below ``/api/v10``, points discord.py at itself, builds the world (guilds, members,
roles, channels) with the events a bot would see, simulates failures, and runs clients.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import yarl
from aiohttp import web

from tests.fakediscord.callbacks import Callbacks
from tests.fakediscord.driver import Driver
from tests.fakediscord.gateway import Gateway, shard_of
from tests.fakediscord.limits import DEFAULT_FILE_LIMIT
from tests.fakediscord.models import Channel, ChannelType, Guild, Member, Role, User, snowflake
from tests.fakediscord.permissions import MEMBER, ROLE, Overwrite
from tests.fakediscord.ratelimits import BAN_DURATION, GLOBAL_LIMIT, INVALID_LIMIT, Bucket
from tests.fakediscord.rest import API_PREFIX, ApiRequest, RateLimitRule, RestApi
from tests.fakediscord.routes import BotMessages, Routes
from tests.fakediscord.state import DM_OPEN_LIMIT, DM_OPEN_WINDOW, as_id

log = logging.getLogger("fakediscord")

# typical permissions of an invited bot: view, send, embed, attach, history, reactions,
# external emojis, application commands, threads, manage messages and pin messages
DEFAULT_BOT_PERMISSIONS = (
    (1 << 6)
    | (1 << 10)
    | (1 << 11)
    | (1 << 13)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 18)
    | (1 << 31)
    | (1 << 38)
    | (1 << 51)
)


def point_discord_py_at(base_url: str, gateway_url: str) -> tuple[str, Any]:
    """Make this process's discord.py talk to a fake Discord at `base_url` (REST) and
    `gateway_url` (also from another process: tests/bot_child.py); returns what was there."""
    import discord.gateway
    import discord.http

    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = base_url + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return saved


class FakeDiscord(Driver):
    """A local Discord API + gateway peer for the real discord.py client.

    See the package docstring for a usage example.
    """

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
        """Discord's rules are all on by default; a test switches one off only with a reason:

        ``permissions=False``: no channel permission checks; ``rate_limits=False``: no
        per-route buckets and no global limit (a test's :meth:`rate_limit` still works);
        ``rate_limit_scale``: every bucket's window times this (1.0: real time);
        ``buckets``: ``{(method, template): Bucket}`` over :data:`.ratelimits.DEFAULT_BUCKETS`;
        ``global_rate_limit`` / ``invalid_request_limit``: None switches one off;
        ``dm_open_limit=None``: no 40003; ``strict_ephemeral=False`` /
        ``strict_embeds=False``: only a note, not an error, for an ignored ephemeral flag or
        dropped embeds.
        """
        super().__init__(
            token=token,
            bot_name=bot_name,
            interaction_timeout=interaction_timeout,
            token_ttl=token_ttl,
            followup_timeout=followup_timeout,
            file_limit=file_limit,
            raise_on_errors=raise_on_errors,
            spec_path=spec_path,
            shards=shards,
            session_start_limit=session_start_limit,
            max_concurrency=max_concurrency,
            identify_window=identify_window,
            max_guilds_per_shard=max_guilds_per_shard,
            permissions=permissions,
            rate_limits=rate_limits,
            rate_limit_scale=rate_limit_scale,
            buckets=buckets,
            global_rate_limit=global_rate_limit,
            invalid_request_limit=invalid_request_limit,
            ban_duration=ban_duration,
            dm_open_limit=dm_open_limit,
            dm_open_window=dm_open_window,
            strict_ephemeral=strict_ephemeral,
            strict_embeds=strict_embeds,
        )
        self.gateway = Gateway(self)
        messages = BotMessages(self, self.gateway)
        routes = Routes(self, messages).table() | Callbacks(self, messages).table()
        self.rest = RestApi(self, routes)
        self._clients: dict[Any, asyncio.Task] = {}
        self._saved_patches: tuple[str, Any] | None = None
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self.install()
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:
        await self.close()
        if exc_type is None and self.raise_on_errors:
            self.assert_no_errors()

    def summary(self) -> str:
        """One paragraph on the traffic: requests, 429s by scope and route, the busiest
        second, notes and 403s (``FAKEDISCORD_SUMMARY=1`` prints it at the end of each fake)."""
        limiter = self.ratelimiter
        hits: dict[str, int] = {}
        for hit in limiter.hits:
            key = f"{hit.scope} {hit.route}"
            hits[key] = hits.get(key, 0) + 1
        notes: dict[str, int] = {}
        for note in self.notes:
            notes[note.kind] = notes.get(note.kind, 0) + 1
        lines = [
            f"fake discord: {len(self.requests)} requests, {len(limiter.hits)} answered 429, "
            f"{limiter.invalid_total} invalid (401/403/429), busiest second "
            f"{limiter.peak_per_second()} requests",
            *(
                f"  {len(times)} x {route} (busiest second {limiter.peak_per_second(route)})"
                for route, times in sorted(limiter.traffic.items(), key=lambda kv: -len(kv[1]))[:8]
            ),
            *(f"  429 x{n}: {key}" for key, n in sorted(hits.items())),
            *(f"  note x{n}: {kind}" for kind, n in sorted(notes.items())),
        ]
        return "\n".join(lines)

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self.gateway.handle)
        app.router.add_route("GET", "/attachments/{channel}/{attachment}/{name}", self.rest.cdn)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)  # typed as the abstract one; started: real
        self.port = server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        for client in list(self._clients):
            await self.stop_client(client)
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
            if os.environ.get("FAKEDISCORD_SUMMARY"):
                print(self.summary(), file=sys.stderr)
        self.uninstall()

    def install(self) -> None:
        """Point discord.py's REST base and default gateway at this fake (undone on exit)."""
        if self._saved_patches is not None:
            return
        self._saved_patches = point_discord_py_at(self.base_url, self.gateway_url)

    def uninstall(self) -> None:
        import discord.gateway
        import discord.http

        if self._saved_patches is None:
            return
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
            self._saved_patches
        )
        self._saved_patches = None

    # ------------------------------------------------------------------ world building
    def add_user(self, name: str, *, bot: bool = False, id: int | None = None) -> User:
        user = User(id or snowflake(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: User | None = None,
        everyone_permissions: int = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31),
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        channels: Iterable[str] = ("general",),
        id: int | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """Create a guild the bot is in (owner defaults to a fresh user).

        ``id`` picks the guild's id; ``shard=(shard_id, shard_count)`` makes one that lands on
        that shard (see :meth:`guild_id_on_shard`).
        """
        if id is not None and shard is not None:
            raise ValueError("give id or shard, not both")
        owner = owner or self.add_user(f"{name.lower().replace(' ', '-')}-owner")
        gid = (
            id
            if id is not None
            else snowflake()
            if shard is None
            else self.guild_id_on_shard(*shard)
        )
        if gid in self.guilds:
            raise ValueError(f"guild {gid} exists")
        guild = Guild(gid, name, owner.id)
        guild.roles[gid] = Role(gid, gid, "@everyone", everyone_permissions)
        self.guilds[gid] = guild
        bot_role = self.add_role(guild, self.bot_user.name, bot_permissions, _dispatch=False)
        guild.members[owner.id] = Member(owner, gid)
        guild.members[self.bot_user.id] = Member(self.bot_user, gid, roles=[bot_role.id])
        for chan in channels:
            self.add_channel(guild, chan, _dispatch=False)
        self.gateway.dispatch("GUILD_CREATE", guild.to_gateway())
        return guild

    @staticmethod
    def guild_id_on_shard(shard_id: int, shard_count: int) -> int:
        """A fresh snowflake ``g`` with ``(g >> 22) % shard_count == shard_id``.

        The timestamp part of a fresh snowflake is moved forward by less than
        ``shard_count`` milliseconds; the low bits keep it unique.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"no shard {shard_id} of {shard_count}")
        base = snowflake()
        ms = base >> 22
        return ((ms + (shard_id - ms) % shard_count) << 22) | (base & 0x3FFFFF)

    def shard_of(self, guild: Guild | int, shard_count: int | None = None) -> int:
        """The shard of ``guild``: ``(guild_id >> 22) % shard_count``.

        ``shard_count`` defaults to the one of the identified connections (there must be
        one, and only one count among them).
        """
        if shard_count is None:
            counts = {s[1] if s else 1 for s in self.gateway.shards()}
            if len(counts) != 1:
                raise ValueError(f"give shard_count: the connections use {sorted(counts)}")
            (shard_count,) = counts
        return shard_of(as_id(guild), shard_count)

    def shard_guilds(self, shard_id: int, shard_count: int) -> list[Guild]:
        """The guilds of one shard (what its READY lists)."""
        return [g for g in self.guilds.values() if shard_of(g.id, shard_count) == shard_id]

    async def wait_for_shards(
        self, shard_ids: Iterable[int], shard_count: int, *, timeout: float = 10.0
    ) -> None:
        """Wait until a connection of each of ``shard_ids`` (of ``shard_count``) identified
        (for bots that run elsewhere, e.g. in other processes)."""
        wanted = list(shard_ids)
        try:
            async with asyncio.timeout(timeout):
                await self.wait_until(lambda: self.gateway.covers(wanted, shard_count))
        except TimeoutError:
            raise AssertionError(
                f"shards {wanted} of {shard_count} not identified within {timeout}s; "
                f"have {self.gateway.shards()}"
            ) from None

    def add_role(
        self, guild: Guild, name: str, permissions: int = 0, *, _dispatch: bool = True
    ) -> Role:
        role = Role(snowflake(), guild.id, name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        if _dispatch:
            self.gateway.dispatch(
                "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_api()}
            )
        return role

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        roles: Iterable[Role | int] = (),
        permissions: int | None = None,
        nick: str | None = None,
    ) -> Member:
        """Add ``user`` to ``guild``; ``permissions`` creates a personal role with those bits."""
        role_ids = [as_id(r) for r in roles]
        if permissions is not None:
            role_ids.append(self.add_role(guild, f"{user.name}-perms", permissions).id)
        member = guild.members.get(user.id)
        if member is None:
            member = Member(user, guild.id, roles=role_ids, nick=nick)
            guild.members[user.id] = member
            data = member.to_api()
            data["guild_id"] = str(guild.id)
            self.gateway.dispatch("GUILD_MEMBER_ADD", data)
        else:
            member.roles += [r for r in role_ids if r not in member.roles]
            member.nick = nick or member.nick
            data = member.to_api()
            data["guild_id"] = str(guild.id)
            self.gateway.dispatch("GUILD_MEMBER_UPDATE", data)
        return member

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        type: int = ChannelType.GUILD_TEXT,
        topic: str | None = None,
        overwrites: Mapping[Any, tuple[int, int]] | None = None,
        _dispatch: bool = True,
    ) -> Channel:
        """Add a channel; ``overwrites`` maps a role, member, user or the guild (its
        @everyone) to ``(allow, deny)``."""
        chan = Channel(snowflake(), type, name, guild.id, position=len(guild.channels), topic=topic)
        for target, (allow, deny) in (overwrites or {}).items():
            ow = self._overwrite_for(guild, target)
            ow.allow, ow.deny = allow, deny
            chan.overwrites[ow.id] = ow
        guild.channels[chan.id] = chan
        self.channels[chan.id] = chan
        if _dispatch:
            self.gateway.dispatch("CHANNEL_CREATE", chan.to_api())
        return chan

    # ------------------------------------------------------------------ permissions
    def bot_role(self, guild: Guild) -> Role:
        """The role the bot got when it joined ``guild`` (its permissions: ``bot_permissions``)."""
        member = guild.members[self.bot_user.id]
        return guild.roles[member.roles[0]]

    def _overwrite_for(self, guild: Guild, target: Any) -> Overwrite:
        if isinstance(target, Guild) or as_id(target) == guild.id:
            return Overwrite(guild.id, ROLE)  # @everyone
        if isinstance(target, Role):
            return Overwrite(target.id, ROLE)
        tid = as_id(target)
        if tid in guild.roles:
            return Overwrite(tid, ROLE)
        if tid in guild.members:
            return Overwrite(tid, MEMBER)
        raise ValueError(f"{target!r} is no role or member of {guild.name}")

    def set_overwrite(
        self, channel: Channel, target: Any, *, allow: int = 0, deny: int = 0
    ) -> Overwrite | None:
        """Set ``channel``'s overwrite for ``target`` (a role, a member or user, or the guild
        for @everyone; ``fake.bot_user`` for the bot itself) and dispatch CHANNEL_UPDATE so
        the bot's cache follows; ``allow=deny=0`` removes it."""
        if channel.guild_id is None:
            raise ValueError("a DM channel has no permission overwrites")
        guild = self.guilds[channel.guild_id]
        ow = self._overwrite_for(guild, target)
        if allow or deny:
            ow.allow, ow.deny = allow, deny
            channel.overwrites[ow.id] = ow
        else:
            channel.overwrites.pop(ow.id, None)
        self.gateway.dispatch("CHANNEL_UPDATE", channel.to_api())
        return channel.overwrites.get(ow.id)

    def set_role_permissions(self, role: Role, permissions: int) -> None:
        """Change a role's permissions (``guild.default_role`` for @everyone, or
        :meth:`bot_role`) and dispatch GUILD_ROLE_UPDATE."""
        role.permissions = permissions
        self.gateway.dispatch(
            "GUILD_ROLE_UPDATE", {"guild_id": str(role.guild_id), "role": role.to_api()}
        )

    def bot_permissions_in(self, channel: Channel) -> int:
        """The bot's permissions in a guild channel, as Discord computes them."""
        perms = self.bot_permissions(channel)
        if perms is None:
            raise ValueError("a DM channel has no permissions")
        return perms

    # ------------------------------------------------------------------ failure simulation
    def close_dms(self, user: User | int) -> None:
        """Make DMs to ``user`` fail with 403 / 50007 (user has DMs closed)."""
        self.closed_dms.add(as_id(user))

    def open_dms(self, user: User | int) -> None:
        self.closed_dms.discard(as_id(user))

    def rate_limit(
        self,
        match: str | Callable[[ApiRequest], bool],
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        method: str | None = None,
    ) -> RateLimitRule:
        """Answer the next ``times`` matching requests with 429.

        ``match`` is a substring of ``"METHOD /path"`` (path below ``/api/v10``) or a
        predicate on :class:`ApiRequest`. The returned rule counts ``hits``.
        """
        rule = RateLimitRule(match, times, retry_after, is_global, method)
        self.rest.rate_limits.append(rule)
        return rule

    # ------------------------------------------------------------------ clients
    async def start_client(
        self,
        client: Any,
        *,
        token: str | None = None,
        timeout: float = 10.0,
        wait_for_sync: bool | Guild | int = False,
        guild_ready_timeout: float | None = 0.05,
        identify_wait: bool | None = None,
    ) -> None:
        """Run ``client.start(token)`` in a task and wait until it is ready.

        Several clients may run at once (e.g. ``discord.Client(shard_id=0, shard_count=2)``
        and ``shard_id=1``, or an ``AutoShardedClient``): each is started this way, and an
        ``AutoShardedClient`` is ready once every one of its shards is.

        ``guild_ready_timeout`` shortens discord.py's wait for GUILD_CREATEs after
        READY (it defaults to 2 s). ``wait_for_sync`` also waits for a command sync
        (``True`` = global, or a guild). ``identify_wait``: keep discord.py's 5 s pause
        before each IDENTIFY but the first (its way of keeping to ``max_concurrency``);
        by default it is kept only when the fake enforces that limit (``identify_window``)
        and the client did not override ``before_identify_hook`` itself.
        """
        self.install()
        if guild_ready_timeout is not None:
            client._connection.guild_ready_timeout = guild_ready_timeout
        if identify_wait is None:
            identify_wait = self.identify_window is not None
        if not identify_wait:
            self._skip_identify_wait(client)
        self._hook_client_errors(client)
        task = asyncio.create_task(client.start(token or self.token), name="fakediscord-client")
        self._clients[client] = task
        deadline = time.monotonic() + timeout
        while not client.is_ready():
            if task.done():
                self._clients.pop(client, None)
                exc = task.exception()
                raise RuntimeError(f"client stopped before becoming ready: {exc!r}") from exc
            if time.monotonic() > deadline:
                await self.stop_client(client)
                raise TimeoutError(f"client not ready within {timeout}s")
            await asyncio.sleep(0.005)
        if wait_for_sync is not False:
            guild = None if wait_for_sync is True else wait_for_sync
            await self.wait_for_commands(guild, timeout=max(0.1, deadline - time.monotonic()))

    @staticmethod
    def _skip_identify_wait(client: Any) -> None:
        import discord

        if type(client).before_identify_hook is not discord.Client.before_identify_hook:
            return  # the client's own hook stays

        async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
            return None

        client.before_identify_hook = before_identify_hook

    async def stop_client(self, client: Any) -> None:
        task = self._clients.pop(client, None)
        if not client.is_closed():
            await client.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, 5)
            except Exception as exc:  # pragma: no cover - diagnostic only
                log.warning("client task ended with %r", exc)

    def _hook_client_errors(self, client: Any) -> None:
        """Record exceptions that reach discord.py's *default* error handlers."""
        import discord
        from discord import app_commands

        fake = self
        # works for commands.Bot (client.tree) and a plain Client with its own CommandTree
        tree = getattr(client._connection, "_command_tree", None) or getattr(client, "tree", None)
        if (
            isinstance(tree, app_commands.CommandTree)
            and "on_error" not in vars(tree)
            and type(tree).on_error is app_commands.CommandTree.on_error
        ):
            original = tree.on_error

            async def tree_on_error(interaction, error):
                name = interaction.command.qualified_name if interaction.command else "?"
                fake.record("bot-exception", f"command {name!r} raised {error!r}")
                rec = fake.interactions.get(interaction.id)
                if rec is not None:
                    rec.bot_errors.append(error)
                    await rec._notify()
                await original(interaction, error)

            tree.on_error = tree_on_error  # type: ignore[method-assign]
        if "on_error" not in vars(client) and type(client).on_error is discord.Client.on_error:
            original_client = client.on_error

            async def client_on_error(event_method, *args, **kwargs):
                import sys

                fake.record("bot-exception", f"event {event_method!r} raised {sys.exc_info()[1]!r}")
                await original_client(event_method, *args, **kwargs)

            client.on_error = client_on_error
