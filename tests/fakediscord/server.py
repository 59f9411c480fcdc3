"""The fake Discord server: REST API + gateway on 127.0.0.1, driven by tests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from .limits import (
    DEFAULT_FILE_LIMIT,
    Problem,
    check_autocomplete,
    check_command,
    check_command_list,
    check_message,
    errors_object,
)
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    EPHEMERAL,
    LOADING,
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
    _guess_type,
    iso_now,
    snowflake,
)
from .spec import ApiSpec, Operation, load_spec

log = logging.getLogger("fakediscord")

API_PREFIX = "/api/v10"
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
P_VIEW_CHANNEL = 1 << 10
P_SEND_MESSAGES = 1 << 11
P_MANAGE_MESSAGES = 1 << 13
P_ATTACH_FILES = 1 << 15
P_PIN_MESSAGES = 1 << 51
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

OPTION_TYPES = {
    "SUB_COMMAND": 1,
    "SUB_COMMAND_GROUP": 2,
    "STRING": 3,
    "INTEGER": 4,
    "BOOLEAN": 5,
    "USER": 6,
    "CHANNEL": 7,
    "ROLE": 8,
    "MENTIONABLE": 9,
    "NUMBER": 10,
    "ATTACHMENT": 11,
}


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


class CommandUnavailable(Exception):
    """The Discord client would not let this user run this command here."""


@dataclass
class RequestLog:
    method: str
    path: str
    template: str | None
    query: dict[str, str]
    json: Any
    files: list[tuple[str, int]]
    status: int = 0
    response: Any = None


@dataclass
class RateLimitRule:
    match: str | Callable[[ApiRequest], bool]
    times: int = 1
    retry_after: float = 0.05
    is_global: bool = False
    method: str | None = None
    hits: int = 0

    def matches(self, req: ApiRequest) -> bool:
        if self.hits >= self.times:
            return False
        if self.method and self.method.upper() != req.method:
            return False
        if callable(self.match):
            return bool(self.match(req))
        return self.match in f"{req.method} {req.path}"


@dataclass
class ApiRequest:
    method: str
    path: str
    query: Mapping[str, str]
    headers: Mapping[str, str]
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    multipart: bool = False
    op: Operation | None = None

    @property
    def params(self) -> dict[str, str]:
        return self.op.path_params if self.op else {}

    def flag(self, name: str) -> bool:
        return str(self.query.get(name, "")).lower() in ("1", "true")


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes
    content_type: str | None


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        record: str | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"code": code, "message": message}
        if errors:
            self.body["errors"] = errors
        self.record = record  # error kind to record, None = legitimate API answer


def _json_response(data: Any, status: int = 200, headers: Mapping[str, str] | None = None):
    # discord.py only parses JSON when the content type is exactly "application/json"
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def _id(obj: Any) -> int:
    if isinstance(obj, int):
        return obj
    if isinstance(obj, str):
        return int(obj)
    if isinstance(obj, Member):
        return obj.user.id
    return int(obj.id)


# --------------------------------------------------------------------------- gateway


class _GatewayConnection:
    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws
        self.seq = 0
        self.identified = False
        self.intents = 0
        self.session_id = secrets.token_hex(16)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []

    def send(self, op: int, d: Any, t: str | None = None) -> None:
        payload: dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
        if op == 0:
            self.seq += 1
            payload["s"] = self.seq
        self.sent.append(payload)
        self.queue.put_nowait(json.dumps(payload))

    async def writer(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None or self.ws.closed:
                return
            try:
                await self.ws.send_str(item)
            except ConnectionError:
                return


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
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
        self._by_token: dict[str, InteractionRecord] = {}
        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.errors: list[RecordedError] = []
        self.requests: list[RequestLog] = []
        self.presences: list[dict[str, Any]] = []
        self._closed_dms: set[int] = set()
        self._rate_limits: list[RateLimitRule] = []
        self._uploads: dict[int, Attachment] = {}
        self._connections: list[_GatewayConnection] = []
        self._changed = asyncio.Condition()
        self._clients: dict[Any, asyncio.Task] = {}
        self._saved_patches: tuple[str, Any] | None = None
        self._runner: web.AppRunner | None = None
        self._bg: set[asyncio.Task] = set()
        self.port = 0
        self._routes = self._build_routes()

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self.install()
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:
        await self.close()
        if exc_type is None and self.raise_on_errors:
            self.assert_no_errors()

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/attachments/{channel}/{attachment}/{name}", self._cdn)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for client in list(self._clients):
            await self.stop_client(client)
        for conn in list(self._connections):
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await conn.ws.close()
        for task in list(self._bg):
            task.cancel()
        if self._bg:
            await asyncio.gather(*self._bg, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.uninstall()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def install(self) -> None:
        """Point discord.py's REST base and default gateway at this fake (undone on exit)."""
        import discord.gateway
        import discord.http

        if self._saved_patches is not None:
            return
        self._saved_patches = (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        )
        discord.http.Route.BASE = self.base_url + API_PREFIX
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def uninstall(self) -> None:
        import discord.gateway
        import discord.http

        if self._saved_patches is None:
            return
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
            self._saved_patches
        )
        self._saved_patches = None

    # ------------------------------------------------------------------ errors
    def _record(self, kind: str, message: str, **kw: Any) -> RecordedError:
        err = RecordedError(kind, message, **kw)
        self.errors.append(err)
        log.warning("fake discord error: %s", err)
        return err

    def record_error(self, message: str, kind: str = "test") -> None:
        """Record an error from test code (fails the test at exit like any other)."""
        self._record(kind, message)

    def pop_errors(self) -> list[RecordedError]:
        """Return and clear the recorded errors (for tests that expect some)."""
        errors, self.errors = self.errors, []
        return errors

    def assert_no_errors(self) -> None:
        if self.errors:
            errors = self.pop_errors()
            raise FakeDiscordErrors(errors)

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
    ) -> Guild:
        """Create a guild the bot is in (owner defaults to a fresh user)."""
        owner = owner or self.add_user(f"{name.lower().replace(' ', '-')}-owner")
        gid = snowflake()
        guild = Guild(gid, name, owner.id)
        guild.roles[gid] = Role(gid, gid, "@everyone", everyone_permissions)
        self.guilds[gid] = guild
        bot_role = self.add_role(guild, self.bot_user.name, bot_permissions, _dispatch=False)
        guild.members[owner.id] = Member(owner, gid)
        guild.members[self.bot_user.id] = Member(self.bot_user, gid, roles=[bot_role.id])
        for chan in channels:
            self.add_channel(guild, chan, _dispatch=False)
        self._dispatch("GUILD_CREATE", guild.to_gateway())
        return guild

    def add_role(
        self, guild: Guild, name: str, permissions: int = 0, *, _dispatch: bool = True
    ) -> Role:
        role = Role(snowflake(), guild.id, name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        if _dispatch:
            self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_api()})
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
        role_ids = [_id(r) for r in roles]
        if permissions is not None:
            role_ids.append(self.add_role(guild, f"{user.name}-perms", permissions).id)
        member = guild.members.get(user.id)
        if member is None:
            member = Member(user, guild.id, roles=role_ids, nick=nick)
            guild.members[user.id] = member
            data = member.to_api()
            data["guild_id"] = str(guild.id)
            self._dispatch("GUILD_MEMBER_ADD", data)
        else:
            member.roles += [r for r in role_ids if r not in member.roles]
            member.nick = nick or member.nick
            data = member.to_api()
            data["guild_id"] = str(guild.id)
            self._dispatch("GUILD_MEMBER_UPDATE", data)
        return member

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        type: int = ChannelType.GUILD_TEXT,
        topic: str | None = None,
        _dispatch: bool = True,
    ) -> Channel:
        chan = Channel(snowflake(), type, name, guild.id, position=len(guild.channels), topic=topic)
        guild.channels[chan.id] = chan
        self.channels[chan.id] = chan
        if _dispatch:
            self._dispatch("CHANNEL_CREATE", chan.to_api())
        return chan

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on demand)."""
        for chan in self.channels.values():
            if chan.type == ChannelType.DM and chan.recipient is user:
                return chan
        chan = Channel(snowflake(), ChannelType.DM, recipient=user)
        self.channels[chan.id] = chan
        return chan

    def member(self, guild: Guild, user: User) -> Member:
        return guild.members[user.id]

    def user_permissions(self, guild: Guild, user: User) -> int:
        return guild.permissions_of(user.id)

    # ------------------------------------------------------------------ failure simulation
    def close_dms(self, user: User | int) -> None:
        """Make DMs to ``user`` fail with 403 / 50007 (user has DMs closed)."""
        self._closed_dms.add(_id(user))

    def open_dms(self, user: User | int) -> None:
        self._closed_dms.discard(_id(user))

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
        self._rate_limits.append(rule)
        return rule

    # ------------------------------------------------------------------ queries
    def commands(self, guild: Guild | int | None = None) -> list[dict[str, Any]]:
        """Registered commands (as stored, with ids) globally or for ``guild``."""
        key = None if guild is None else _id(guild)
        return list(self._commands.get(key, []))

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

    def dms(self, user: User) -> list[Message]:
        """Messages the bot sent to ``user``'s DM channel (oldest first)."""
        chan = self.dm_channel(user)
        return [m for m in self.channel_messages(chan) if m.author is self.bot_user]

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,
        include_ephemeral: bool = False,
    ) -> Message:
        """Wait until a (non-deleted) message in ``channel`` satisfies ``predicate``."""

        def find() -> Message | None:
            for msg in self.channel_messages(channel, include_ephemeral=include_ephemeral):
                if predicate is None or predicate(msg):
                    return msg
            return None

        try:
            async with asyncio.timeout(timeout):
                async with self._changed:
                    await self._changed.wait_for(lambda: find() is not None)
        except TimeoutError:
            raise AssertionError(
                f"no matching message in channel {channel.id} within {timeout}s"
            ) from None
        found = find()
        assert found is not None
        return found

    async def wait_for_dm(
        self,
        user: User,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,
    ) -> Message:
        return await self.wait_for_message(
            self.dm_channel(user),
            lambda m: m.author is self.bot_user and (predicate is None or predicate(m)),
            timeout=timeout,
        )

    async def wait_for_commands(self, guild: Guild | int | None = None, *, timeout: float = 5.0):
        key = None if guild is None else _id(guild)
        try:
            async with asyncio.timeout(timeout):
                async with self._changed:
                    await self._changed.wait_for(
                        lambda: any(k == key for k, _ in self.command_syncs)
                    )
        except TimeoutError:
            raise AssertionError(
                f"commands were not synced (guild={key}) within {timeout}s"
            ) from None
        return self.commands(key)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ------------------------------------------------------------------ clients
    async def start_client(
        self,
        client: Any,
        *,
        token: str | None = None,
        timeout: float = 10.0,
        wait_for_sync: bool | Guild | int = False,
        guild_ready_timeout: float | None = 0.05,
    ) -> None:
        """Run ``client.start(token)`` in a task and wait until it is ready.

        ``guild_ready_timeout`` shortens discord.py's wait for GUILD_CREATEs after
        READY (it defaults to 2 s). ``wait_for_sync`` also waits for a command sync
        (``True`` = global, or a guild).
        """
        self.install()
        if guild_ready_timeout is not None:
            client._connection.guild_ready_timeout = guild_ready_timeout
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
                fake._record("bot-exception", f"command {name!r} raised {error!r}")
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

                fake._record(
                    "bot-exception", f"event {event_method!r} raised {sys.exc_info()[1]!r}"
                )
                await original_client(event_method, *args, **kwargs)

            client.on_error = client_on_error

    # ------------------------------------------------------------------ gateway
    def _dispatch(self, event: str, data: Any) -> None:
        for conn in self._connections:
            if conn.identified:
                conn.send(0, data, event)

    def _wants(self, intent: int) -> bool:
        return any(c.identified and c.intents & intent for c in self._connections)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = _GatewayConnection(ws)
        if request.query.get("encoding", "json") != "json":
            self._record("gateway", f"unsupported encoding {request.query.get('encoding')!r}")
        self._connections.append(conn)
        writer = asyncio.create_task(conn.writer())
        conn.send(10, {"heartbeat_interval": 41250})
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._gateway_message(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    self._record("gateway", "binary frames are not supported by the fake")
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._connections.remove(conn)
            conn.queue.put_nowait(None)
            await writer
        return ws

    async def _gateway_message(self, conn: _GatewayConnection, payload: dict[str, Any]) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == 1:
            conn.send(11, None)
        elif op == 2:
            if d.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            conn.intents = d.get("intents", 0)
            ready = {
                "v": 10,
                "user": {**self.bot_user.to_api(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
                "session_id": conn.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "session_type": "normal",
            }
            if "shard" in d:
                ready["shard"] = d["shard"]
            conn.send(0, ready, "READY")
            conn.identified = True
            for guild in self.guilds.values():
                conn.send(0, guild.to_gateway(), "GUILD_CREATE")
        elif op == 3:
            self.presences.append(d)
        elif op == 6:
            conn.identified = True
            conn.send(0, {}, "RESUMED")
        elif op == 8:
            guild = self.guilds.get(int(d["guild_id"]))
            members = list(guild.members.values()) if guild else []
            if d.get("user_ids"):
                wanted = {int(u) for u in d["user_ids"]}
                members = [m for m in members if m.user.id in wanted]
            conn.send(
                0,
                {
                    "guild_id": d["guild_id"],
                    "members": [m.to_api() for m in members],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": d.get("nonce"),
                },
                "GUILD_MEMBERS_CHUNK",
            )
        elif op in (4, 31, 36, 37):
            pass  # voice state / soundboard / misc: accepted, ignored
        else:
            self._record("gateway", f"unexpected gateway opcode {op}", details=payload)

    # ------------------------------------------------------------------ CDN
    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["attachment"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(body=att.data, content_type="application/octet-stream")
        if aid in self._uploads:
            return web.Response(
                body=self._uploads[aid].data, content_type="application/octet-stream"
            )
        return web.Response(status=404)

    # ------------------------------------------------------------------ REST plumbing
    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method.upper()
        req = ApiRequest(method, path, dict(request.query), request.headers)
        entry = RequestLog(method, path, None, dict(request.query), None, [])
        self.requests.append(entry)
        try:
            await self._read_body(request, req)
            entry.json = req.json
            entry.files = [(f.filename, len(f.data)) for f in req.files]
            result = await self._handle(req)
            entry.template = req.op.template if req.op else None
            if isinstance(result, web.StreamResponse):
                entry.status = result.status
                return result
            if result is None:
                entry.status = 204
                return web.Response(status=204)
            entry.status, entry.response = 200, result
            return _json_response(result)
        except ApiError as err:
            entry.template = req.op.template if req.op else None
            entry.status, entry.response = err.status, err.body
            await self._reject_interaction(req, err)
            if err.record:
                self._record(
                    err.record,
                    err.body["message"],
                    method=method,
                    path=path,
                    status=err.status,
                    details=err.body.get("errors"),
                )
            return _json_response(err.body, err.status)
        finally:
            await self._notify()

    async def _reject_interaction(self, req: ApiRequest, err: ApiError) -> None:
        token = req.params.get("interaction_token") or req.params.get("webhook_token")
        rec = self._by_token.get(token) if token else None
        if rec is None:
            return
        text = f"{err.status} {err.body}"
        if text not in rec.rejected:
            rec.rejected.append(text)
        await rec._notify()

    async def _read_body(self, request: web.Request, req: ApiRequest) -> None:
        ctype = request.content_type
        if ctype == "multipart/form-data":
            req.multipart = True
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                name = part.name or ""  # type: ignore[union-attr]
                if name == "payload_json":
                    req.json = self._parse_json(bytes(data))
                elif part.filename is not None:  # type: ignore[union-attr]
                    req.files.append(
                        UploadedFile(
                            name,
                            part.filename,  # type: ignore[union-attr]
                            bytes(data),
                            part.headers.get("Content-Type"),  # type: ignore[union-attr]
                        )
                    )
                else:
                    raise ApiError(
                        400, 50035, f"Unexpected form field {name!r}", record="invalid-body"
                    )
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                if ctype != "application/json":
                    raise ApiError(
                        400, 50035, f"Unsupported content type {ctype!r}", record="invalid-body"
                    )
                req.json = self._parse_json(raw)

    @staticmethod
    def _parse_json(raw: bytes) -> Any:
        try:
            return json.loads(raw)
        except ValueError:
            raise ApiError(
                400, 50109, "The request body contains invalid JSON.", record="invalid-body"
            ) from None

    async def _handle(self, req: ApiRequest) -> Any:
        op, path_known = self.spec.match(req.method, req.path)
        req.op = op
        # rate limits come before validation, like on the real API
        for rule in self._rate_limits:
            if rule.matches(req):
                rule.hits += 1
                return self._too_many_requests(rule)
        if op is None:
            if path_known:
                raise ApiError(405, 0, "405: Method Not Allowed", record="unknown-route")
            raise ApiError(404, 0, "404: Not Found", record="unknown-route")

        webhook_route = op.template.startswith(
            ("/webhooks/{webhook_id}/{webhook_token}", "/interactions/")
        )
        if not webhook_route and req.headers.get("Authorization") != f"Bot {self.token}":
            raise ApiError(401, 0, "401: Unauthorized", record="auth")

        problems = [
            Problem((name,), "PARAM_INVALID", msg) for name, msg in op.validate_params(req.query)
        ]
        if problems:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=errors_object(problems),
                record="invalid-params",
            )
        if req.json is not None:
            if not op.accepts_body:
                raise ApiError(400, 50035, "This route takes no body", record="invalid-body")
            schema_errors = op.validate_body(req.json, multipart=req.multipart)
            if schema_errors:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors=errors_object(_schema_problems(schema_errors)),
                    record="schema",
                )
        elif op.accepts_body and op.definition["requestBody"].get("required") and not req.files:
            raise ApiError(400, 50035, "Invalid Form Body (missing body)", record="invalid-body")

        handler = self._routes.get((req.method, op.template))
        if handler is None:
            raise ApiError(
                404,
                0,
                f"fake Discord does not implement {req.method} {op.template}",
                record="not-implemented",
            )
        return await handler(req)

    def _too_many_requests(self, rule: RateLimitRule) -> web.Response:
        body = {
            "message": "You are being rate limited.",
            "retry_after": rule.retry_after,
            "global": rule.is_global,
        }
        headers = {
            "Retry-After": str(max(1, math.ceil(rule.retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
            "X-RateLimit-Bucket": "fakebucket" + str(id(rule)),
            "X-RateLimit-Scope": "global" if rule.is_global else "user",
            # discord.py treats a 429 without "Via" as a Cloudflare ban and gives up
            "Via": "1.1 google",
        }
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        return _json_response(body, 429, headers)

    @staticmethod
    def _limit_error(problems: list[Problem]) -> ApiError:
        if len(problems) == 1 and problems[0].code == "50006":
            return ApiError(400, 50006, "Cannot send an empty message", record="limits")
        return ApiError(
            400, 50035, "Invalid Form Body", errors=errors_object(problems), record="limits"
        )

    # ------------------------------------------------------------------ routes
    def _build_routes(self) -> dict[tuple[str, str], Callable[[ApiRequest], Any]]:
        r: dict[tuple[str, str], Callable[[ApiRequest], Any]] = {}
        app = "/applications/{application_id}"
        wh = "/webhooks/{webhook_id}/{webhook_token}"
        ch = "/channels/{channel_id}"
        r["GET", "/users/@me"] = self._get_me
        r["GET", "/oauth2/applications/@me"] = self._get_application
        r["GET", "/applications/@me"] = self._get_application
        r["GET", "/gateway"] = self._get_gateway
        r["GET", "/gateway/bot"] = self._get_gateway
        for prefix in (app, app + "/guilds/{guild_id}"):
            r["PUT", prefix + "/commands"] = self._put_commands
            r["GET", prefix + "/commands"] = self._get_commands
            r["POST", prefix + "/commands"] = self._post_command
            r["GET", prefix + "/commands/{command_id}"] = self._get_command
            r["PATCH", prefix + "/commands/{command_id}"] = self._patch_command
            r["DELETE", prefix + "/commands/{command_id}"] = self._delete_command
        r["POST", "/interactions/{interaction_id}/{interaction_token}/callback"] = self._callback
        r["POST", wh] = self._execute_webhook
        for mid in ("@original", "{message_id}"):
            r["GET", f"{wh}/messages/{mid}"] = self._get_webhook_message
            r["PATCH", f"{wh}/messages/{mid}"] = self._edit_webhook_message
            r["DELETE", f"{wh}/messages/{mid}"] = self._delete_webhook_message
        r["POST", "/users/@me/channels"] = self._create_dm
        r["GET", "/users/{user_id}"] = self._get_user
        r["GET", ch] = self._get_channel
        r["GET", ch + "/messages"] = self._list_messages
        r["POST", ch + "/messages"] = self._create_message
        r["GET", ch + "/messages/{message_id}"] = self._get_message
        r["PATCH", ch + "/messages/{message_id}"] = self._edit_message
        r["DELETE", ch + "/messages/{message_id}"] = self._delete_message
        r["POST", ch + "/typing"] = self._typing
        for pins in (ch + "/pins", ch + "/messages/pins"):
            r["GET", pins] = self._get_pins
            r["PUT", pins + "/{message_id}"] = self._pin
            r["DELETE", pins + "/{message_id}"] = self._unpin
        r["PUT", ch + "/messages/{message_id}/reactions/{emoji_name}/@me"] = self._react
        r["DELETE", ch + "/messages/{message_id}/reactions/{emoji_name}/@me"] = self._react
        r["GET", "/guilds/{guild_id}"] = self._get_guild
        r["GET", "/guilds/{guild_id}/channels"] = self._get_guild_channels
        r["GET", "/guilds/{guild_id}/roles"] = self._get_guild_roles
        r["GET", "/guilds/{guild_id}/members/{user_id}"] = self._get_guild_member
        return r

    # --- identity
    async def _get_me(self, req: ApiRequest) -> Any:
        return {**self.bot_user.to_api(), "verified": True, "mfa_enabled": False, "locale": "en-US"}

    async def _get_application(self, req: ApiRequest) -> Any:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "fake application",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": self.owner.to_api(),
            "team": None,
            "bot": self.bot_user.to_api(),
            "rpc_origins": [],
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
        }

    async def _get_gateway(self, req: ApiRequest) -> Any:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def _get_user(self, req: ApiRequest) -> Any:
        user = self.users.get(int(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return user.to_api()

    # --- guilds
    def _guild(self, req: ApiRequest) -> Guild:
        gid = int(req.params["guild_id"])
        if gid not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild", record="unknown-entity")
        return self.guilds[gid]

    async def _get_guild(self, req: ApiRequest) -> Any:
        return self._guild(req).to_api()

    async def _get_guild_channels(self, req: ApiRequest) -> Any:
        return [c.to_api() for c in self._guild(req).channels.values()]

    async def _get_guild_roles(self, req: ApiRequest) -> Any:
        return [r.to_api() for r in self._guild(req).roles.values()]

    async def _get_guild_member(self, req: ApiRequest) -> Any:
        member = self._guild(req).members.get(int(req.params["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return member.to_api()

    # --- commands
    def _check_app(self, req: ApiRequest) -> int | None:
        if int(req.params["application_id"]) != self.application_id:
            raise ApiError(403, 50001, "Missing Access", record="wrong-application")
        return int(req.params["guild_id"]) if "guild_id" in req.params else None

    def _store_command(self, guild_id: int | None, payload: dict[str, Any], old: dict | None):
        cmd = dict(payload)
        cmd.setdefault("type", 1)
        cmd.setdefault("description", "")
        cmd.setdefault("options", [])
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("nsfw", False)
        cmd["id"] = old["id"] if old else str(snowflake())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(snowflake())
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
            cmd.pop("contexts", None)
            cmd.pop("integration_types", None)
        else:
            cmd.setdefault("contexts", None)
            cmd.setdefault("integration_types", [0])
            cmd.setdefault("dm_permission", True)
        return cmd

    async def _put_commands(self, req: ApiRequest) -> Any:
        guild_id = self._check_app(req)
        if guild_id is not None and guild_id not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild", record="unknown-entity")
        payload = req.json or []
        problems = check_command_list(payload)
        if problems:
            raise self._limit_error(problems)
        old = {(c["type"], c["name"]): c for c in self._commands.get(guild_id, [])}
        stored = [
            self._store_command(guild_id, c, old.get((c.get("type", 1) or 1, c["name"])))
            for c in payload
        ]
        self._commands[guild_id] = stored
        self.command_syncs.append((guild_id, payload))
        return stored

    async def _get_commands(self, req: ApiRequest) -> Any:
        return self._commands.get(self._check_app(req), [])

    def _find_command(self, req: ApiRequest) -> tuple[int | None, int, dict[str, Any]]:
        guild_id = self._check_app(req)
        for i, cmd in enumerate(self._commands.get(guild_id, [])):
            if cmd["id"] == req.params["command_id"]:
                return guild_id, i, cmd
        raise ApiError(404, 10063, "Unknown application command", record="unknown-entity")

    async def _post_command(self, req: ApiRequest) -> Any:
        guild_id = self._check_app(req)
        problems = check_command(req.json)
        if problems:
            raise self._limit_error(problems)
        cmds = self._commands.setdefault(guild_id, [])
        kind = req.json.get("type", 1) or 1
        for i, cmd in enumerate(cmds):
            if cmd["name"] == req.json["name"] and cmd["type"] == kind:
                cmds[i] = self._store_command(guild_id, req.json, cmd)
                return cmds[i]
        if len([c for c in cmds if c["type"] == kind]) >= (100 if kind == 1 else 5):
            raise ApiError(
                400, 30032, "Maximum number of application commands reached", record="limits"
            )
        cmds.append(self._store_command(guild_id, req.json, None))
        self.command_syncs.append((guild_id, [req.json]))
        return cmds[-1]

    async def _get_command(self, req: ApiRequest) -> Any:
        return self._find_command(req)[2]

    async def _patch_command(self, req: ApiRequest) -> Any:
        guild_id, i, cmd = self._find_command(req)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "application_id", "version")}
        merged.update(req.json or {})
        problems = check_command(merged)
        if problems:
            raise self._limit_error(problems)
        self._commands[guild_id][i] = self._store_command(guild_id, merged, cmd)
        return self._commands[guild_id][i]

    async def _delete_command(self, req: ApiRequest) -> Any:
        guild_id, i, _ = self._find_command(req)
        del self._commands[guild_id][i]
        return None

    # --- messages (shared)
    def _attachments_from(
        self, req: ApiRequest, channel_id: int, payload: dict[str, Any], existing: list[Attachment]
    ) -> list[Attachment]:
        meta = {
            str(a.get("id")): a for a in payload.get("attachments") or [] if isinstance(a, dict)
        }
        if "attachments" in payload and payload["attachments"] is not None:
            kept = [a for a in existing if str(a.id) in meta]
        else:
            kept = list(existing)
        new: list[Attachment] = []
        for upload in req.files:
            index = upload.field[6:-1] if upload.field.startswith("files[") else upload.field
            info = meta.get(index, {})
            aid = snowflake()
            filename = info.get("filename") or upload.filename
            new.append(
                Attachment(
                    aid,
                    filename,
                    upload.data,
                    f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
                    _guess_type(filename) or upload.content_type,
                    info.get("description"),
                )
            )
        return kept + new

    def _check_message_limits(
        self,
        req: ApiRequest,
        payload: dict[str, Any],
        *,
        create: bool,
        prefix: tuple = (),
        existing: int = 0,
    ) -> None:
        files = [(f.filename, f.data) for f in req.files]
        problems = check_message(
            payload,
            files,
            create=create,
            file_limit=self.file_limit,
            path=prefix,
            existing_attachments=existing,
        )
        if problems:
            raise self._limit_error(problems)

    def _new_message(
        self,
        req: ApiRequest,
        channel: Channel,
        payload: dict[str, Any],
        *,
        author: User | None = None,
        flags: int = 0,
        interaction: InteractionRecord | None = None,
        webhook: bool = False,
    ) -> Message:
        msg = Message(
            snowflake(),
            channel.id,
            author or self.bot_user,
            guild_id=channel.guild_id,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=flags,
            tts=bool(payload.get("tts")),
            webhook_id=self.application_id if webhook else None,
            interaction_id=interaction.id if interaction else None,
            application_id=self.application_id if interaction else None,
        )
        msg.attachments = self._attachments_from(req, channel.id, payload, [])
        msg.history.append(payload)
        self.messages[msg.id] = msg
        channel.message_ids.append(msg.id)
        if not msg.ephemeral and not msg.loading:
            self._dispatch_message_create(msg, channel)
        return msg

    def _dispatch_message_create(self, msg: Message, channel: Channel) -> None:
        intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
        if self._wants(intent):
            self._dispatch("MESSAGE_CREATE", msg.to_api())

    def _edit(self, req: ApiRequest, msg: Message, payload: dict[str, Any]) -> Message:
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        msg.attachments = self._attachments_from(req, msg.channel_id, payload, msg.attachments)
        msg.edited_timestamp = iso_now()
        msg.history.append(payload)
        if (
            not msg.ephemeral
            and not msg.loading
            and self._wants(INTENT_DIRECT_MESSAGES | INTENT_GUILD_MESSAGES)
        ):
            self._dispatch("MESSAGE_UPDATE", msg.to_api())
        return msg

    def _delete(self, msg: Message) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self._dispatch("MESSAGE_DELETE", data)

    # --- channels
    def _channel(self, req: ApiRequest) -> Channel:
        chan = self.channels.get(int(req.params["channel_id"]))
        if chan is None:
            raise ApiError(404, 10003, "Unknown Channel", record="unknown-entity")
        return chan

    def _channel_message(self, req: ApiRequest) -> tuple[Channel, Message]:
        chan = self._channel(req)
        msg = self.messages.get(int(req.params["message_id"]))
        if msg is None or msg.channel_id != chan.id or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message", record="unknown-entity")
        return chan, msg

    def _require(self, chan: Channel, bits: int, what: str) -> None:
        if chan.guild_id is None:
            return
        perms = self.guilds[chan.guild_id].permissions_of(self.bot_user.id)
        if perms & bits != bits:
            raise ApiError(403, 50013, f"Missing Permissions ({what})")

    async def _create_dm(self, req: ApiRequest) -> Any:
        rid = (req.json or {}).get("recipient_id")
        user = self.users.get(int(rid)) if rid is not None else None
        if user is None:
            raise ApiError(
                400, 50035, "Invalid Form Body (unknown recipient)", record="unknown-entity"
            )
        return self.dm_channel(user).to_api()

    async def _get_channel(self, req: ApiRequest) -> Any:
        return self._channel(req).to_api()

    async def _list_messages(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        limit = int(req.query.get("limit", 50))
        msgs = list(reversed(self.channel_messages(chan)))
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
        return [m.to_api() for m in msgs[:limit]]

    async def _create_message(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        payload = req.json or {}
        self._check_message_limits(req, payload, create=True)
        if chan.is_dm and chan.recipient is not None and chan.recipient.id in self._closed_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        self._require(chan, P_VIEW_CHANNEL | P_SEND_MESSAGES, "SEND_MESSAGES")
        if req.files:
            self._require(chan, P_ATTACH_FILES, "ATTACH_FILES")
        flags = (payload.get("flags") or 0) & ~EPHEMERAL
        return self._new_message(req, chan, payload, flags=flags).to_api()

    async def _get_message(self, req: ApiRequest) -> Any:
        return self._channel_message(req)[1].to_api()

    async def _edit_message(self, req: ApiRequest) -> Any:
        _, msg = self._channel_message(req)
        if msg.author is not self.bot_user:
            raise ApiError(
                403, 50005, "Cannot edit a message authored by another user", record="forbidden"
            )
        payload = req.json or {}
        self._check_message_limits(req, payload, create=False)
        return self._edit(req, msg, payload).to_api()

    async def _delete_message(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        if msg.author is not self.bot_user:
            self._require(chan, P_MANAGE_MESSAGES, "MANAGE_MESSAGES")
        self._delete(msg)
        return None

    async def _typing(self, req: ApiRequest) -> Any:
        self._channel(req)
        return None

    async def _get_pins(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        msgs = [self.messages[m].to_api() for m in chan.pins]
        if req.op and req.op.template.endswith("/messages/pins"):
            return {
                "items": [{"pinned_at": iso_now(), "message": m} for m in msgs],
                "has_more": False,
            }
        return msgs

    async def _pin(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        if chan.guild_id is not None:
            perms = self.guilds[chan.guild_id].permissions_of(self.bot_user.id)
            if not perms & (P_MANAGE_MESSAGES | P_PIN_MESSAGES):
                raise ApiError(403, 50013, "Missing Permissions (PIN_MESSAGES)")
        if not msg.pinned:
            if len(chan.pins) >= 250:
                raise ApiError(400, 30003, "Maximum number of pins reached (250)", record="limits")
            msg.pinned = True
            chan.pins.append(msg.id)
        return None

    async def _unpin(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        if msg.pinned:
            msg.pinned = False
            chan.pins.remove(msg.id)
        return None

    async def _react(self, req: ApiRequest) -> Any:
        self._channel_message(req)
        return None

    # --- interactions
    def _interaction_for(self, req: ApiRequest, *, webhook: bool) -> InteractionRecord:
        if webhook:
            if int(req.params["webhook_id"]) != self.application_id:
                raise ApiError(404, 10015, "Unknown Webhook", record="unknown-webhook")
            rec = self._by_token.get(req.params["webhook_token"])
            if rec is None or time.monotonic() - rec.created > self.token_ttl:
                raise ApiError(401, 50027, "Invalid Webhook Token", record="unknown-webhook")
            return rec
        rec = self.interactions.get(int(req.params["interaction_id"]))
        if rec is None or rec.token != req.params["interaction_token"]:
            raise ApiError(404, 10062, "Unknown interaction", record="unknown-interaction")
        return rec

    async def _callback(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=False)
        try:
            return await self._callback_inner(req, rec)
        finally:
            await rec._notify()

    async def _callback_inner(self, req: ApiRequest, rec: InteractionRecord) -> Any:
        if rec.callback_type is not None:
            raise ApiError(
                400, 40060, "Interaction has already been acknowledged.", record="double-ack"
            )
        elapsed = time.monotonic() - rec.created
        if elapsed > self.interaction_timeout:
            raise ApiError(
                404,
                10062,
                f"Unknown interaction (answered after {elapsed:.2f}s > {self.interaction_timeout}s)",
                record="late-ack",
            )
        body = req.json or {}
        kind = body.get("type")
        data = body.get("data") or {}
        allowed = {
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5, 6, 7},
        }[rec.type]
        if kind not in allowed:
            raise ApiError(
                400,
                40043,
                f"Interaction callback type {kind} is invalid for interaction type {rec.type}",
                record="bad-callback",
            )
        message: Message | None = None
        if kind == 4:
            self._check_message_limits(req, data, create=True, prefix=("data",))
            flags = (data.get("flags") or 0) & (EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15))
            message = self._new_message(req, rec.channel, data, flags=flags, interaction=rec)
            rec.original = message
        elif kind == 5:
            flags = ((data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self._new_message(req, rec.channel, {}, flags=flags, interaction=rec)
            rec.original = message
        elif kind in (6, 7):
            source = self._component_message(rec)
            if kind == 7:
                self._check_message_limits(req, data, create=False, prefix=("data",))
                self._edit(req, source, data)
                rec._original_edited = True
            rec.original = source
            message = source
        elif kind == 8:
            problems = check_autocomplete(data)
            if problems:
                raise self._limit_error(problems)
            rec.choices = list(data.get("choices") or [])
        elif kind == 9:
            rec.modal = data
        rec.callback_type = kind
        rec.callback_payload = body
        if not req.flag("with_response"):
            return None
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind != 6:
            resource["message"] = message.to_api()
        return {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "activity_instance_id": None,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": resource,
        }

    def _component_message(self, rec: InteractionRecord) -> Message:
        raw = rec.payload.get("message")
        if raw is None:
            raise ApiError(
                400, 40043, "No message to update for this interaction", record="bad-callback"
            )
        return self.messages[int(raw["id"])]

    async def _execute_webhook(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        try:
            if rec.callback_type is None or rec.callback_type in (8, 9):
                raise ApiError(
                    404,
                    10015,
                    "Unknown Webhook (interaction not acknowledged)",
                    record="early-followup",
                )
            payload = req.json or {}
            self._check_message_limits(req, payload, create=True)
            original = rec.original
            if (
                rec.callback_type == 5
                and original is not None
                and original.loading
                and not rec._original_edited
            ):
                # the first follow-up after a "thinking" defer replaces the loading message
                original.flags &= ~LOADING
                self._edit(req, original, payload)
                rec._original_edited = True
                if not original.ephemeral:
                    self._dispatch_message_create(original, rec.channel)
                msg = original
            else:
                flags = (payload.get("flags") or 0) & (EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15))
                msg = self._new_message(
                    req, rec.channel, payload, flags=flags, interaction=rec, webhook=True
                )
            rec.followups.append(msg)
            return msg.to_api() if req.flag("wait") else None
        finally:
            await rec._notify()

    def _webhook_message(self, req: ApiRequest, rec: InteractionRecord) -> Message:
        mid = req.path.rsplit("/", 1)[-1]
        if mid == "@original":
            if rec.original is None or rec.original.deleted:
                raise ApiError(404, 10008, "Unknown Message", record="unknown-entity")
            return rec.original
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted or (msg is not rec.original and msg not in rec.followups):
            raise ApiError(404, 10008, "Unknown Message", record="unknown-entity")
        return msg

    async def _get_webhook_message(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        return self._webhook_message(req, rec).to_api()

    async def _edit_webhook_message(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        try:
            msg = self._webhook_message(req, rec)
            payload = req.json or {}
            self._check_message_limits(req, payload, create=False)
            was_loading = msg.loading
            msg.flags &= ~LOADING
            self._edit(req, msg, payload)
            if was_loading and not msg.ephemeral:
                self._dispatch_message_create(msg, rec.channel)
            if msg is rec.original:
                rec._original_edited = True
            return msg.to_api()
        finally:
            await rec._notify()

    async def _delete_webhook_message(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        self._delete(self._webhook_message(req, rec))
        await rec._notify()
        return None

    # ------------------------------------------------------------------ driving the bot
    def post_message(self, user: User, channel: Channel, content: str) -> Message:
        """Simulate ``user`` posting ``content`` in ``channel`` (dispatches MESSAGE_CREATE)."""
        msg = Message(snowflake(), channel.id, user, guild_id=channel.guild_id, content=content)
        self.messages[msg.id] = msg
        channel.message_ids.append(msg.id)
        data = msg.to_api()
        if channel.guild_id is not None:
            member = self.guilds[channel.guild_id].members.get(user.id)
            if member is not None:
                data["member"] = {k: v for k, v in member.to_api().items() if k != "user"}
        self._dispatch("MESSAGE_CREATE", data)
        return msg

    def _resolve_command(
        self, user: User, channel: Channel, path: list[str]
    ) -> tuple[dict[str, Any], Guild | None]:
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        candidates = (self.commands(guild) if guild else []) + self.commands(None)
        for cmd in candidates:
            if cmd["name"] == path[0] and cmd.get("type", 1) == 1:
                break
        else:
            raise CommandUnavailable(
                f"no chat-input command {path[0]!r} registered for this channel; "
                f"have {[c['name'] for c in candidates]}"
            )
        if "guild_id" not in cmd:
            ctx = 0 if guild else 1
            contexts = cmd.get("contexts")
            if contexts is not None and ctx not in contexts:
                raise CommandUnavailable(f"command {path[0]!r} is not available in context {ctx}")
            if guild is None and cmd.get("dm_permission") is False:
                raise CommandUnavailable(f"command {path[0]!r} is not available in DMs")
        required = cmd.get("default_member_permissions")
        if guild is not None and required is not None:
            perms = guild.permissions_of(user.id)
            need = int(required)
            ok = perms & ADMINISTRATOR if need == 0 else perms & need == need
            if not ok:
                raise CommandUnavailable(
                    f"{user.name} lacks default_member_permissions={need} for {path[0]!r}"
                )
        return cmd, guild

    def _option_value(
        self, opt: dict[str, Any], value: Any, guild: Guild | None, resolved: dict[str, dict]
    ) -> Any:
        kind = opt["type"]
        name = opt["name"]
        if kind == 3:
            value = str(value)
            if (
                "min_length" in opt
                and opt["min_length"] is not None
                and len(value) < opt["min_length"]
            ):
                raise ValueError(f"option {name!r}: shorter than min_length")
            if (
                "max_length" in opt
                and opt["max_length"] is not None
                and len(value) > opt["max_length"]
            ):
                raise ValueError(f"option {name!r}: longer than max_length")
        elif kind == 4:
            if isinstance(value, bool) or int(value) != value:
                raise ValueError(f"option {name!r}: {value!r} is not an integer")
            value = int(value)
        elif kind == 10:
            value = float(value) if not isinstance(value, int) else value
        elif kind == 5:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r}: {value!r} is not a boolean")
        elif kind == 6 or (kind == 9 and isinstance(value, User | Member)):
            user = value.user if isinstance(value, Member) else value
            if not isinstance(user, User):
                user = self.users[_id(user)]
            resolved.setdefault("users", {})[str(user.id)] = user.to_api()
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id].to_api(permissions=guild.permissions_of(user.id))
                member.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = member
            value = str(user.id)
        elif kind in (8, 9):
            role = value if isinstance(value, Role) else guild.roles[_id(value)] if guild else None
            if role is None:
                raise ValueError(f"option {name!r}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.to_api()
            value = str(role.id)
        elif kind == 7:
            chan = value if isinstance(value, Channel) else self.channels[_id(value)]
            types = opt.get("channel_types")
            if types and chan.type not in types:
                raise ValueError(f"option {name!r}: channel type {chan.type} not in {types}")
            data = chan.to_api()
            data["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(chan.id)] = data
            value = str(chan.id)
        elif kind == 11:
            if isinstance(value, Attachment):
                att = value
            else:
                filename, blob = value
                aid = snowflake()
                att = Attachment(
                    aid,
                    filename,
                    blob,
                    f"{self.base_url}/attachments/0/{aid}/{filename}",
                    _guess_type(filename),
                )
            self._uploads[att.id] = att
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_api()
            value = str(att.id)
        if kind in (4, 10):
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"option {name!r}: {value!r} outside [{lo}, {hi}]")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices {choices}")
        return value

    def _build_options(
        self,
        cmd: dict[str, Any],
        path: list[str],
        values: Mapping[str, Any],
        guild: Guild | None,
        focused: str | None,
    ) -> tuple[list[dict[str, Any]], dict[str, dict]]:
        node = cmd
        chain: list[dict[str, Any]] = []
        for sub in path[1:]:
            for opt in node.get("options") or []:
                if opt["name"] == sub and opt["type"] in (1, 2):
                    node = opt
                    chain.append(opt)
                    break
            else:
                raise ValueError(f"{cmd['name']!r} has no subcommand (group) {sub!r}")
        defs = node.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            raise ValueError(
                f"{' '.join(path)!r} needs a subcommand: {[o['name'] for o in defs if o['type'] in (1, 2)]}"
            )
        by_name = {o["name"]: o for o in defs}
        unknown = set(values) - set(by_name)
        if unknown:
            raise ValueError(
                f"unknown option(s) {sorted(unknown)} for {' '.join(path)!r}; have {list(by_name)}"
            )
        resolved: dict[str, dict] = {}
        opts: list[dict[str, Any]] = []
        for opt in defs:
            name = opt["name"]
            if name == focused:
                opts.append(
                    {
                        "type": opt["type"],
                        "name": name,
                        "value": values.get(name, ""),
                        "focused": True,
                    }
                )
                continue
            if name not in values:
                if opt.get("required") and focused is None:
                    raise ValueError(f"required option {name!r} missing for {' '.join(path)!r}")
                continue
            value = self._option_value(opt, values[name], guild, resolved)
            opts.append({"type": opt["type"], "name": name, "value": value})
        if focused is not None and focused not in by_name:
            raise ValueError(f"focused option {focused!r} does not exist")
        if focused is not None and not by_name[focused].get("autocomplete"):
            raise ValueError(f"option {focused!r} has no autocomplete")
        for sub in reversed(chain):
            opts = [{"type": sub["type"], "name": sub["name"], "options": opts}]
        return opts, resolved

    def _base_interaction(
        self, kind: int, user: User, channel: Channel, data: dict[str, Any]
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(snowflake()),
            "application_id": str(self.application_id),
            "type": kind,
            "token": "fake-interaction-" + secrets.token_urlsafe(24),
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": self.file_limit,
        }
        chan = channel.to_api()
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            member = guild.members.get(user.id)
            if member is None:
                raise CommandUnavailable(f"{user.name} is not a member of {guild.name}")
            perms = guild.permissions_of(user.id)
            chan["permissions"] = str(perms)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                    "guild_locale": "en-US",
                    "member": member.to_api(permissions=perms),
                    "app_permissions": str(guild.permissions_of(self.bot_user.id)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            chan["permissions"] = str(ALL_PERMISSIONS)
            payload.update(
                {
                    "user": user.to_api(),
                    "app_permissions": str(ALL_PERMISSIONS),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": 1,
                }
            )
        payload["channel"] = chan
        return payload

    async def _send_interaction(
        self,
        payload: dict[str, Any],
        user: User,
        channel: Channel,
        *,
        wait: bool,
        timeout: float | None,
    ) -> InteractionRecord:
        if not any(c.identified for c in self._connections):
            raise RuntimeError("no identified gateway connection: call start_client() first")
        rec = InteractionRecord(
            int(payload["id"]), payload["token"], payload["type"], payload, user, channel
        )
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        self._dispatch("INTERACTION_CREATE", payload)
        if not wait:
            return rec
        ack_timeout = self.interaction_timeout + 1.0
        try:
            await rec.wait_for(
                lambda r: r.acknowledged or bool(r.rejected) or bool(r.bot_errors), ack_timeout
            )
        except InteractionTimeout:
            self._record("no-ack", f"interaction {self._describe(payload)} was never acknowledged")
            raise
        if rec.callback_type == 5:
            try:
                await rec.wait_for(
                    lambda r: r.complete or bool(r.bot_errors) or bool(r.rejected),
                    timeout or self.followup_timeout,
                )
            except InteractionTimeout:
                self._record(
                    "no-followup",
                    f"interaction {self._describe(payload)} deferred but never answered",
                )
                raise
        return rec

    @staticmethod
    def _describe(payload: dict[str, Any]) -> str:
        data = payload.get("data") or {}
        return repr(data.get("name") or data.get("custom_id"))

    async def invoke(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Run slash command ``command`` (``"game"``, ``"game create"``, or with ``subcommand=``).

        ``options`` maps option names to values (users/channels/roles may be given
        as fake objects; attachments as ``(filename, bytes)``); they are converted
        with the registered command definition. Waits for the callback and, after a
        "thinking" defer, for the edit/follow-up.
        """
        path = command.split()
        if subcommand:
            path += subcommand.split()
        cmd, guild = self._resolve_command(user, channel, path)
        opts, resolved = self._build_options(cmd, path, options or {}, guild, None)
        data = self._command_data(cmd, opts, resolved)
        payload = self._base_interaction(2, user, channel, data)
        return await self._send_interaction(payload, user, channel, wait=wait, timeout=timeout)

    def _command_data(self, cmd, opts, resolved) -> dict[str, Any]:
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        focused: str,
        value: Any = "",
        options: Mapping[str, Any] | None = None,
        *,
        subcommand: str | None = None,
    ) -> list[dict[str, Any]]:
        """Send an autocomplete interaction; returns the choices (``[{name, value}]``)."""
        path = command.split() + (subcommand.split() if subcommand else [])
        cmd, guild = self._resolve_command(user, channel, path)
        values = dict(options or {})
        values[focused] = value
        opts, resolved = self._build_options(cmd, path, values, guild, focused)
        payload = self._base_interaction(4, user, channel, self._command_data(cmd, opts, resolved))
        rec = await self._send_interaction(payload, user, channel, wait=True, timeout=None)
        if rec.choices is None:
            raise InteractionTimeout(f"autocomplete was not answered: {rec.rejected}")
        return rec.choices

    async def click(
        self,
        user: User,
        message: Message | InteractionRecord,
        custom_id: str,
        *,
        values: list[str] | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Click a button (or choose ``values`` in a select menu) on a bot message."""
        if isinstance(message, InteractionRecord):
            if message.message is None:
                raise ValueError("interaction has no response message")
            message = message.message
        comp = message.component(custom_id)
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        channel = self.channels[message.channel_id]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] != 2:
            data["values"] = list(values or [])
        elif values:
            raise ValueError("values are for select menus")
        payload = self._base_interaction(3, user, channel, data)
        payload["message"] = message.to_api()
        return await self._send_interaction(payload, user, channel, wait=wait, timeout=timeout)

    async def select(
        self,
        user: User,
        message: Message | InteractionRecord,
        custom_id: str,
        values: list[str],
        **kw: Any,
    ) -> InteractionRecord:
        return await self.click(user, message, custom_id, values=values, **kw)

    async def submit_modal(
        self, user: User, record: InteractionRecord, values: Mapping[str, str], **kw: Any
    ) -> InteractionRecord:
        """Submit the modal the bot opened in ``record`` with text input ``values`` (custom_id -> text)."""
        if record.modal is None:
            raise ValueError("the bot did not answer with a modal")
        components = [
            {"type": 1, "components": [{"type": 4, "custom_id": cid, "value": text}]}
            for cid, text in values.items()
        ]
        data = {"custom_id": record.modal["custom_id"], "components": components}
        payload = self._base_interaction(5, user, record.channel, data)
        if record.type == 3:
            payload["message"] = record.payload["message"]
        return await self._send_interaction(
            payload, user, record.channel, wait=kw.get("wait", True), timeout=kw.get("timeout")
        )


def _is_discriminator_miss(err) -> bool:
    """Does this error say "wrong union branch" (root type, or the ``type`` field)?"""
    rel = list(err.relative_path)
    if not rel and err.validator == "type":
        return True
    return rel == ["type"] and err.validator in ("enum", "const", "type")


def _leaf_errors(err) -> list:
    """Descend into anyOf/oneOf errors, following the branch the payload meant."""
    if not err.context:
        return [err]
    branches: dict[Any, list] = {}
    for sub in err.context:
        branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)
    chosen = min(
        branches.values(),
        key=lambda errs: (any(_is_discriminator_miss(e) for e in errs), len(errs)),
    )
    if all(_is_discriminator_miss(e) for e in chosen) and len(branches) > 1:
        return [err]  # no branch fits at all: report the union itself
    out: list = []
    for sub in chosen:
        out += _leaf_errors(sub)
    return out


def _discord_message(err) -> tuple[str, str]:
    """Discord-like error code and message for a schema violation."""
    value = err.validator_value
    match err.validator:
        case "maxLength" | "maxItems":
            return "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length. (schema)"
        case "minLength" | "minItems":
            return "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length. (schema)"
        case "maximum":
            return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}. (schema)"
        case "minimum":
            return (
                "NUMBER_TYPE_MIN",
                f"int value should be greater than or equal to {value}. (schema)",
            )
        case "required":
            return "BASE_TYPE_REQUIRED", f"This field is required: {err.message} (schema)"
        case "enum" | "const":
            return "BASE_TYPE_CHOICES", f"Value must be one of {value}. (schema)"
    msg = err.message if len(err.message) <= 200 else err.message[:200] + "..."
    return str(err.validator).upper(), f"{msg} (schema)"


def _schema_problems(errors) -> list[Problem]:
    problems = []
    for err in errors:
        for leaf in _leaf_errors(err):
            code, msg = _discord_message(leaf)
            problems.append(Problem(tuple(leaf.absolute_path), code, msg))
    return problems
