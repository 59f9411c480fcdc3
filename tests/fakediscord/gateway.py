"""The gateway side of the fake Discord: the websocket at ``/gateway``.

A connection gets HELLO, then answers heartbeats (op 1 -> 11), IDENTIFY (op 2 -> READY and
a GUILD_CREATE per guild of its shard), RESUME (op 6 -> RESUMED), presence updates (op 3, kept
in ``state.presences``) and member requests (op 8 -> GUILD_MEMBERS_CHUNK). Events reach the bot
only through :meth:`Gateway.dispatch`.

Sharding, as Discord documents it: IDENTIFY may carry ``shard: [shard_id, shard_count]``.
A guild belongs to shard ``(guild_id >> 22) % shard_count`` (:func:`shard_of`); its
GUILD_CREATE at READY and every event of it go only to the connections of that shard, and
events without a guild (DMs) go to shard 0. A connection that sent no ``shard`` is the one
shard of one (it gets everything). Refused identifies:

- a bad pair (not two integers, ``shard_count < 1``, ``shard_id`` outside
  ``[0, shard_count)``): closed with 4010 "Invalid shard";
- a shard that would hold more than ``state.max_guilds_per_shard`` guilds (off unless set;
  Discord's limit is 2500): closed with 4011 "Sharding required";
- no session starts left (``state.session_start_limit``'s ``remaining``, counted down by
  every IDENTIFY, not by RESUME): as Discord documents, *every* session of the application
  is terminated (closed with 4004, the token being reset) and the token changes, so the
  old one fails on REST (401) and on the gateway (4004);
- with ``state.identify_window`` set (Discord's is 5 s): a second IDENTIFY in the window of
  one rate limit key (``shard_id % max_concurrency``) is answered with Invalid Session
  (op 9, ``d: false``), as Discord does beyond ``max_concurrency``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Iterable
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.state import State

INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
HEARTBEAT_INTERVAL_MS = 41250

CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a guild, by Discord's rule ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def event_guild_id(event: str, data: Any) -> int | None:
    """The guild an event belongs to (``id`` of GUILD_CREATE/UPDATE/DELETE, else
    ``guild_id``), or None for an event without a guild (a DM)."""
    if not isinstance(data, dict):
        return None
    raw = data.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") else None
    raw = raw if raw is not None else data.get("guild_id")
    return int(raw) if raw is not None else None


class GatewayConnection:
    """One websocket session: its sequence number, intents, and a queue of frames to send."""

    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws
        self.seq = 0
        self.identified = False
        self.intents = 0
        self.shard: tuple[int, int] | None = None
        """``(shard_id, shard_count)`` of IDENTIFY; None: unsharded (gets every event)."""
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

    @property
    def shard_id(self) -> int:
        return self.shard[0] if self.shard else 0

    @property
    def shard_count(self) -> int:
        return self.shard[1] if self.shard else 1

    def routes(self, guild_id: int | None) -> bool:
        """Would Discord send an event of ``guild_id`` (None: no guild) to this shard?"""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id

    async def writer(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None or self.ws.closed:
                return
            try:
                await self.ws.send_str(item)
            except ConnectionError:
                return


class Gateway:
    """The gateway endpoint and the sessions on it."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.connections: list[GatewayConnection] = []
        self.sessions: list[GatewayConnection] = []
        """Every connection that identified, in order (also closed ones: what they were sent)."""
        self._known: dict[str, tuple[tuple[int, int] | None, int]] = {}
        """Shard and intents by session id, restored on RESUME."""
        self._last_identify: dict[int, float] = {}
        self.refused: list[tuple[Any, int]] = []
        """Refused IDENTIFYs: (the ``shard`` sent, close code, or 9 for Invalid Session)."""

    # ------------------------------------------------------------------ events
    @property
    def has_session(self) -> bool:
        """Is some connection identified (would a dispatched event reach a bot)?"""
        return any(c.identified for c in self.connections)

    def identified(self) -> list[GatewayConnection]:
        return [c for c in self.connections if c.identified]

    def reaches(self, guild_id: int | None) -> bool:
        """Is a connection of the shard of ``guild_id`` (None: shard 0) identified?"""
        return any(c.routes(guild_id) for c in self.identified())

    def dispatch(
        self, event: str, data: Any, *, guild_id: int | None = None, intents: int | None = None
    ) -> None:
        """Send the event ``event`` with ``data`` to the identified connections of its shard.

        The guild is ``guild_id`` or else read from ``data`` (:func:`event_guild_id`);
        ``intents``: only to connections that asked for one of these intents.
        """
        gid = guild_id if guild_id is not None else event_guild_id(event, data)
        for conn in self.identified():
            if intents is not None and not conn.intents & intents:
                continue
            if conn.routes(gid):
                conn.send(0, data, event)

    def wants(self, intent: int) -> bool:
        """Did some identified connection ask for (one of) these intents?"""
        return any(c.intents & intent for c in self.identified())

    # ------------------------------------------------------------------ connections
    async def handle(self, request: web.Request) -> web.StreamResponse:
        """The ``GET /gateway`` websocket: HELLO, then the bot's payloads until it closes."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConnection(ws)
        if request.query.get("encoding", "json") != "json":
            self.state.record("gateway", f"unsupported encoding {request.query.get('encoding')!r}")
        self.connections.append(conn)
        writer = asyncio.create_task(conn.writer())
        conn.send(10, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._receive(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    self.state.record("gateway", "binary frames are not supported by the fake")
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.connections.remove(conn)
            conn.identified = False
            conn.queue.put_nowait(None)
            await writer
            await self.state.notify()
        return ws

    async def close(self) -> None:
        """Close every connection (the bot sees the gateway go away)."""
        for conn in list(self.connections):
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await conn.ws.close()

    async def _receive(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == 1:
            conn.send(11, None)
        elif op == 2:
            assert isinstance(d, dict)  # IDENTIFY's data is an object
            await self._identify(conn, d)
        elif op == 3:
            assert isinstance(d, dict)  # PRESENCE_UPDATE's data is an object
            self.state.presences.append(d)
        elif op == 6:
            assert isinstance(d, dict)  # RESUME's data is an object
            known = self._known.get(str(d.get("session_id")))
            if known is not None:
                conn.shard, conn.intents = known
                conn.session_id = str(d["session_id"])
            conn.identified = True
            conn.send(0, {}, "RESUMED")
            await self.state.notify()
        elif op == 8:
            assert isinstance(d, dict)  # REQUEST_GUILD_MEMBERS's data is an object
            self._request_members(conn, d)
        elif op in (4, 31, 36, 37):
            pass  # voice state / soundboard / misc: accepted, ignored
        else:
            self.state.record("gateway", f"unexpected gateway opcode {op}", details=payload)

    async def _identify(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        state = self.state
        if d.get("token") != state.token:
            await conn.ws.close(code=CLOSE_AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        shard: tuple[int, int] | None = None
        if d.get("shard") is not None:
            pair = d["shard"]
            valid = (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
                and pair[1] >= 1
                and 0 <= pair[0] < pair[1]
            )
            if not valid:
                self.refused.append((pair, CLOSE_INVALID_SHARD))
                await conn.ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
                return
            shard = (pair[0], pair[1])
        conn.shard = shard
        guilds = [g for g in state.guilds if conn.routes(g)]
        limit = state.max_guilds_per_shard
        if limit is not None and len(guilds) > limit:
            self.refused.append((d.get("shard"), CLOSE_SHARDING_REQUIRED))
            await conn.ws.close(code=CLOSE_SHARDING_REQUIRED, message=b"Sharding required.")
            return
        if not self._may_start_session(conn):
            return
        if state.session_start_limit["remaining"] <= 0:
            await self._terminate_all_sessions()
            return
        state.session_start_limit["remaining"] -= 1
        conn.intents = d.get("intents", 0)
        ready = {
            "v": 10,
            "user": {**state.bot_user.to_api(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": conn.session_id,
            "resume_gateway_url": state.gateway_url,
            "application": {"id": str(state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "session_type": "normal",
        }
        if shard is not None:
            ready["shard"] = list(shard)
        conn.send(0, ready, "READY")
        conn.identified = True
        self.sessions.append(conn)
        self._known[conn.session_id] = (conn.shard, conn.intents)
        for gid in guilds:
            conn.send(0, state.guilds[gid].to_gateway(), "GUILD_CREATE")
        await state.notify()

    def _may_start_session(self, conn: GatewayConnection) -> bool:
        """Within ``max_concurrency``? Else Invalid Session (op 9), when a window is set."""
        window = self.state.identify_window
        if window is None:
            return True
        key = conn.shard_id % max(1, self.state.session_start_limit["max_concurrency"])
        now = time.monotonic()
        last = self._last_identify.get(key)
        if last is not None and now - last < window:
            self.refused.append((list(conn.shard) if conn.shard else None, 9))
            conn.send(9, False)
            return False
        self._last_identify[key] = now
        return True

    async def _terminate_all_sessions(self) -> None:
        """Past the session start limit: every session ends and the token is reset."""
        state = self.state
        state.record(
            "session-start-limit",
            f"IDENTIFY beyond the session start limit ({state.session_start_limit['total']}): "
            "Discord terminates every session and resets the bot token",
        )
        state.token = "reset-" + secrets.token_urlsafe(16)
        for other in list(self.connections):
            other.identified = False
            with contextlib.suppress(Exception):
                await other.ws.close(
                    code=CLOSE_AUTHENTICATION_FAILED, message=b"Authentication failed."
                )

    def shards(self) -> list[tuple[int, int] | None]:
        """``(shard_id, shard_count)`` of each identified connection (None: unsharded)."""
        return [c.shard for c in self.identified()]

    def covers(self, shard_ids: Iterable[int], shard_count: int) -> bool:
        """Is a connection of each of these shards (of ``shard_count``) identified?"""
        have = {c.shard for c in self.identified()}
        return all((k, shard_count) in have for k in shard_ids)

    def _request_members(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        guild = self.state.guilds.get(int(d["guild_id"]))
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
