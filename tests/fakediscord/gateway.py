"""The gateway side of the fake Discord: the websocket at ``/gateway``.

A connection gets HELLO, then answers heartbeats (op 1 -> 11), IDENTIFY (op 2 -> READY and
a GUILD_CREATE per guild), RESUME (op 6 -> RESUMED), presence updates (op 3, kept in
``state.presences``) and member requests (op 8 -> GUILD_MEMBERS_CHUNK). Events reach the bot
only through :meth:`Gateway.dispatch`, to every identified connection.

Sessions and the routing of events live here and nowhere else, so this is where sharding
belongs: the ``[shard_id, shard_count]`` of IDENTIFY kept on the connection, READY and the
GUILD_CREATEs limited to the shard's guilds, and :meth:`Gateway.dispatch` picking the
connection of the event's guild (``guild_id``, or ``id`` for GUILD_CREATE; DMs on shard 0).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.state import State

INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
HEARTBEAT_INTERVAL_MS = 41250


class GatewayConnection:
    """One websocket session: its sequence number, intents, and a queue of frames to send."""

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


class Gateway:
    """The gateway endpoint and the sessions on it."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.connections: list[GatewayConnection] = []

    # ------------------------------------------------------------------ events
    @property
    def has_session(self) -> bool:
        """Is some connection identified (would a dispatched event reach a bot)?"""
        return any(c.identified for c in self.connections)

    def dispatch(self, event: str, data: Any) -> None:
        """Send the event ``event`` with ``data`` to every identified connection."""
        for conn in self.connections:
            if conn.identified:
                conn.send(0, data, event)

    def wants(self, intent: int) -> bool:
        """Did some identified connection ask for (one of) these intents?"""
        return any(c.identified and c.intents & intent for c in self.connections)

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
            conn.queue.put_nowait(None)
            await writer
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
            conn.identified = True
            conn.send(0, {}, "RESUMED")
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
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        conn.intents = d.get("intents", 0)
        ready = {
            "v": 10,
            "user": {**state.bot_user.to_api(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in state.guilds],
            "session_id": conn.session_id,
            "resume_gateway_url": state.gateway_url,
            "application": {"id": str(state.application_id), "flags": 0},
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
        for guild in state.guilds.values():
            conn.send(0, guild.to_gateway(), "GUILD_CREATE")

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
