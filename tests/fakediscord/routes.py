"""REST routes of the fake Discord for the bot's resources: identity and gateway URL,
guilds, application commands, channels, messages, DMs, pins and reactions.

:class:`BotMessages` creates, edits and deletes the bot's messages (also for the
interaction callbacks of :mod:`.callbacks`): Discord's limits, attachments, and the
MESSAGE_* events on the gateway.

In a guild channel the bot's permissions there (its roles and the channel's overwrites,
:mod:`.permissions`) are checked as Discord documents them (resources/message.mdx):

- without VIEW_CHANNEL anything in the channel is ``403 50001 Missing Access``;
- a message needs SEND_MESSAGES, its files ATTACH_FILES, a reply READ_MESSAGE_HISTORY;
  anything missing is ``403 50013 Missing Permissions``;
- embeds without EMBED_LINKS are dropped from the message, as Discord does (not
  documented; discord/discord-api-docs#2601, #5648), noted ``embeds-dropped`` (an error
  unless ``strict_embeds=False``); a message left empty by that is 403 50013;
- pinning and unpinning need PIN_MESSAGES (since 2026-02-23 MANAGE_MESSAGES no longer does);
- reading messages or pins needs READ_MESSAGE_HISTORY (a list without it is empty);
- deleting another's message needs MANAGE_MESSAGES; a reaction ADD_REACTIONS and
  READ_MESSAGE_HISTORY.

Each 403 of a permission is also noted (``state.notes``, kind ``forbidden``).
``FakeDiscord(permissions=False)`` switches the checks off.

Opening DM channels (``POST /users/@me/channels``) faster than ``state.dm_open_limit`` new
ones in ``state.dm_open_window`` seconds is ``403 40003 You are opening direct messages
too fast`` (Discord publishes no numbers; reopening a user's existing DM does not count).
"""

from __future__ import annotations

import time
from typing import Any

from tests.fakediscord import permissions as P
from tests.fakediscord.gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, Gateway
from tests.fakediscord.limits import check_command, check_command_list, check_message
from tests.fakediscord.models import (
    EPHEMERAL,
    Attachment,
    Channel,
    Guild,
    InteractionRecord,
    Message,
    User,
    _guess_type,
    iso_now,
    snowflake,
)
from tests.fakediscord.rest import ApiError, ApiRequest, RouteTable, limit_error
from tests.fakediscord.state import State


class BotMessages:
    """The bot's messages: checked, stored, and announced on the gateway."""

    def __init__(self, state: State, gateway: Gateway) -> None:
        self.state = state
        self.gateway = gateway

    def check_limits(
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
            file_limit=self.state.file_limit,
            path=prefix,
            existing_attachments=existing,
        )
        if problems:
            raise limit_error(problems)

    def create(
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
        state = self.state
        msg = Message(
            snowflake(),
            channel.id,
            author or state.bot_user,
            guild_id=channel.guild_id,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=flags,
            tts=bool(payload.get("tts")),
            webhook_id=state.application_id if webhook else None,
            interaction_id=interaction.id if interaction else None,
            application_id=state.application_id if interaction else None,
            interaction_metadata=_metadata(interaction) if interaction else None,
        )
        msg.attachments = self._attachments(req, channel.id, payload, [])
        msg.history.append(payload)
        state.messages[msg.id] = msg
        channel.message_ids.append(msg.id)
        if not msg.ephemeral and not msg.loading:
            self.announce(msg, channel)
        return msg

    def announce(self, msg: Message, channel: Channel) -> None:
        """MESSAGE_CREATE for ``msg`` (if the bot asked for the intent)."""
        intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
        self.gateway.dispatch("MESSAGE_CREATE", msg.to_api(), intents=intent)

    def edit(self, req: ApiRequest, msg: Message, payload: dict[str, Any]) -> Message:
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        msg.attachments = self._attachments(req, msg.channel_id, payload, msg.attachments)
        msg.edited_timestamp = iso_now()
        msg.history.append(payload)
        if not msg.ephemeral and not msg.loading:
            intent = INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DIRECT_MESSAGES
            self.gateway.dispatch("MESSAGE_UPDATE", msg.to_api(), intents=intent)
        return msg

    def delete(self, msg: Message) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self.gateway.dispatch("MESSAGE_DELETE", data)

    def _attachments(
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
                    f"{self.state.base_url}/attachments/{channel_id}/{aid}/{filename}",
                    _guess_type(filename) or upload.content_type,
                    info.get("description"),
                )
            )
        return kept + new


class Routes:
    """Handlers of the resource routes (see :meth:`table`)."""

    def __init__(self, state: State, messages: BotMessages) -> None:
        self.state = state
        self.messages = messages

    def table(self) -> RouteTable:
        r: RouteTable = {}
        app = "/applications/{application_id}"
        ch = "/channels/{channel_id}"
        r["GET", "/users/@me"] = self._get_me
        r["GET", "/oauth2/applications/@me"] = self._get_application
        r["GET", "/applications/@me"] = self._get_application
        r["GET", "/gateway"] = self._get_gateway
        r["GET", "/gateway/bot"] = self._get_gateway_bot
        for prefix in (app, app + "/guilds/{guild_id}"):
            r["PUT", prefix + "/commands"] = self._put_commands
            r["GET", prefix + "/commands"] = self._get_commands
            r["POST", prefix + "/commands"] = self._post_command
            r["GET", prefix + "/commands/{command_id}"] = self._get_command
            r["PATCH", prefix + "/commands/{command_id}"] = self._patch_command
            r["DELETE", prefix + "/commands/{command_id}"] = self._delete_command
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

    # ------------------------------------------------------------------ identity
    async def _get_me(self, req: ApiRequest) -> Any:
        bot = self.state.bot_user
        return {**bot.to_api(), "verified": True, "mfa_enabled": False, "locale": "en-US"}

    async def _get_application(self, req: ApiRequest) -> Any:
        state = self.state
        return {
            "id": str(state.application_id),
            "name": state.bot_user.name,
            "icon": None,
            "description": "fake application",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": state.owner.to_api(),
            "team": None,
            "bot": state.bot_user.to_api(),
            "rpc_origins": [],
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(state.guilds),
        }

    async def _get_gateway(self, req: ApiRequest) -> Any:
        return {"url": self.state.gateway_url}

    async def _get_gateway_bot(self, req: ApiRequest) -> Any:
        return self.state.gateway_bot()

    async def _get_user(self, req: ApiRequest) -> Any:
        user = self.state.users.get(int(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return user.to_api()

    # ------------------------------------------------------------------ guilds
    def _guild(self, req: ApiRequest) -> Guild:
        gid = int(req.params["guild_id"])
        if gid not in self.state.guilds:
            raise ApiError(404, 10004, "Unknown Guild", record="unknown-entity")
        return self.state.guilds[gid]

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

    # ------------------------------------------------------------------ commands
    def _check_app(self, req: ApiRequest) -> int | None:
        if int(req.params["application_id"]) != self.state.application_id:
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
        cmd["application_id"] = str(self.state.application_id)
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
        if guild_id is not None and guild_id not in self.state.guilds:
            raise ApiError(404, 10004, "Unknown Guild", record="unknown-entity")
        payload = req.json or []
        problems = check_command_list(payload)
        if problems:
            raise limit_error(problems)
        old = {(c["type"], c["name"]): c for c in self.state.app_commands.get(guild_id, [])}
        stored = [
            self._store_command(guild_id, c, old.get((c.get("type", 1) or 1, c["name"])))
            for c in payload
        ]
        self.state.app_commands[guild_id] = stored
        self.state.command_syncs.append((guild_id, payload))
        return stored

    async def _get_commands(self, req: ApiRequest) -> Any:
        return self.state.app_commands.get(self._check_app(req), [])

    def _find_command(self, req: ApiRequest) -> tuple[int | None, int, dict[str, Any]]:
        guild_id = self._check_app(req)
        for i, cmd in enumerate(self.state.app_commands.get(guild_id, [])):
            if cmd["id"] == req.params["command_id"]:
                return guild_id, i, cmd
        raise ApiError(404, 10063, "Unknown application command", record="unknown-entity")

    async def _post_command(self, req: ApiRequest) -> Any:
        guild_id = self._check_app(req)
        problems = check_command(req.json)
        if problems:
            raise limit_error(problems)
        cmds = self.state.app_commands.setdefault(guild_id, [])
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
        self.state.command_syncs.append((guild_id, [req.json]))
        return cmds[-1]

    async def _get_command(self, req: ApiRequest) -> Any:
        return self._find_command(req)[2]

    async def _patch_command(self, req: ApiRequest) -> Any:
        guild_id, i, cmd = self._find_command(req)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "application_id", "version")}
        merged.update(req.json or {})
        problems = check_command(merged)
        if problems:
            raise limit_error(problems)
        cmds = self.state.app_commands[guild_id]
        cmds[i] = self._store_command(guild_id, merged, cmd)
        return cmds[i]

    async def _delete_command(self, req: ApiRequest) -> Any:
        guild_id, i, _ = self._find_command(req)
        del self.state.app_commands[guild_id][i]
        return None

    # ------------------------------------------------------------------ channels and messages
    def _channel(self, req: ApiRequest) -> Channel:
        chan = self.state.channels.get(int(req.params["channel_id"]))
        if chan is None:
            raise ApiError(404, 10003, "Unknown Channel", record="unknown-entity")
        return chan

    def _channel_message(self, req: ApiRequest) -> tuple[Channel, Message]:
        chan = self._channel(req)
        msg = self.state.messages.get(int(req.params["message_id"]))
        if msg is None or msg.channel_id != chan.id or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message", record="unknown-entity")
        return chan, msg

    def _perms(self, chan: Channel) -> int | None:
        """The bot's permissions in ``chan`` (None: a DM, or the checks are off)."""
        if not self.state.enforce_permissions:
            return None
        return self.state.bot_permissions(chan)

    def _require(self, chan: Channel, bits: int) -> None:
        """403 unless the bot has ``bits`` in ``chan``: 50001 without VIEW_CHANNEL, else
        50013 (no check in a DM, or with the checks off)."""
        perms = self._perms(chan)
        if perms is None:
            return
        missing = (bits | P.VIEW_CHANNEL) & ~perms
        if not missing:
            return
        where = f"#{chan.name} ({chan.id})"
        if missing & P.VIEW_CHANNEL:
            self.state.note("forbidden", f"50001 Missing Access: no VIEW_CHANNEL in {where}")
            raise ApiError(403, 50001, "Missing Access")
        self.state.note("forbidden", f"50013 Missing Permissions: {P.names(missing)} in {where}")
        raise ApiError(403, 50013, "Missing Permissions")

    async def _create_dm(self, req: ApiRequest) -> Any:
        state = self.state
        rid = (req.json or {}).get("recipient_id")
        user = state.users.get(int(rid)) if rid is not None else None
        if user is None:
            raise ApiError(
                400, 50035, "Invalid Form Body (unknown recipient)", record="unknown-entity"
            )
        if user.id not in state.dm_users and state.dm_open_limit is not None:
            now = time.monotonic()
            opened = state.dm_opened
            while opened and opened[0] <= now - state.dm_open_window:
                opened.popleft()
            if len(opened) >= state.dm_open_limit:
                state.note(
                    "dm-too-fast",
                    f"40003: more than {state.dm_open_limit} new DM channels within "
                    f"{state.dm_open_window:g} s (to {user.name})",
                )
                raise ApiError(403, 40003, "You are opening direct messages too fast.")
            opened.append(now)
        state.dm_users.add(user.id)
        return state.dm_channel(user).to_api()

    async def _get_channel(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        self._require(chan, P.VIEW_CHANNEL)
        return chan.to_api()

    def _can_read_history(self, chan: Channel) -> bool:
        self._require(chan, P.VIEW_CHANNEL)
        perms = self._perms(chan)
        return perms is None or bool(perms & P.READ_MESSAGE_HISTORY)

    async def _list_messages(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        if not self._can_read_history(chan):
            return []  # Discord: "no messages will be returned"
        limit = int(req.query.get("limit", 50))
        msgs = list(reversed(self.state.channel_messages(chan)))
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
        return [m.to_api() for m in msgs[:limit]]

    async def _create_message(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        payload = req.json or {}
        self.messages.check_limits(req, payload, create=True)
        if chan.is_dm and chan.recipient is not None and chan.recipient.id in self.state.closed_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        self._require(chan, P.VIEW_CHANNEL | P.SEND_MESSAGES)
        if req.files:
            self._require(chan, P.ATTACH_FILES)
        if payload.get("message_reference") is not None:
            self._require(chan, P.READ_MESSAGE_HISTORY)
        payload = self._without_embeds_if_forbidden(req, chan, payload, create=True)
        # Discord's idempotency: with `enforce_nonce`, a message whose nonce the same author
        # used in the same channel in the past few minutes is not created again; the earlier
        # one is returned (discord.py sends `enforce_nonce` with every nonce)
        nonce = payload.get("nonce")
        key = (chan.id, str(nonce))
        if nonce is not None and payload.get("enforce_nonce"):
            seen = self.state.nonces.get(key)
            if seen is not None and time.time() - seen[1] < self.state.nonce_window:
                earlier = self.state.messages.get(seen[0])
                if earlier is not None:
                    self.state.deduplicated += 1
                    return earlier.to_api()
        flags = (payload.get("flags") or 0) & ~EPHEMERAL
        msg = self.messages.create(req, chan, payload, flags=flags)
        if nonce is not None and payload.get("enforce_nonce"):
            self.state.nonces[key] = (msg.id, time.time())
        return msg.to_api()

    def _without_embeds_if_forbidden(
        self, req: ApiRequest, chan: Channel, payload: dict[str, Any], *, create: bool
    ) -> dict[str, Any]:
        """Discord drops the embeds of a bot without EMBED_LINKS (the message is sent without
        them); left empty, the message is refused 403 50013."""
        perms = self._perms(chan)
        if perms is None or perms & P.EMBED_LINKS or not payload.get("embeds"):
            return payload
        kept = {k: v for k, v in payload.items() if k != "embeds"}
        empty = not (
            kept.get("content")
            or kept.get("components")
            or req.files
            or kept.get("sticker_ids")
            or kept.get("poll")
        )
        where = f"#{chan.name} ({chan.id})"
        if create and empty:
            self.state.note("forbidden", f"50013 Missing Permissions: EMBED_LINKS in {where}")
            raise ApiError(403, 50013, "Missing Permissions")
        self.state.note(
            "embeds-dropped",
            f"{len(payload['embeds'])} embed(s) dropped: no EMBED_LINKS in {where}",
            error=self.state.strict_embeds,
            method=req.method,
            path=req.path,
        )
        return kept

    async def _get_message(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        self._require(chan, P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY)
        return msg.to_api()

    async def _edit_message(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        if msg.author is not self.state.bot_user:
            raise ApiError(
                403, 50005, "Cannot edit a message authored by another user", record="forbidden"
            )
        self._require(chan, P.VIEW_CHANNEL)
        if req.files:
            self._require(chan, P.ATTACH_FILES)
        payload = req.json or {}
        self.messages.check_limits(req, payload, create=False)
        payload = self._without_embeds_if_forbidden(req, chan, payload, create=False)
        return self.messages.edit(req, msg, payload).to_api()

    async def _delete_message(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        self._require(chan, P.VIEW_CHANNEL)
        if msg.author is not self.state.bot_user:
            self._require(chan, P.MANAGE_MESSAGES)
        self.messages.delete(msg)
        return None

    async def _typing(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        self._require(chan, P.VIEW_CHANNEL | P.SEND_MESSAGES)
        return None

    async def _get_pins(self, req: ApiRequest) -> Any:
        chan = self._channel(req)
        readable = self._can_read_history(chan)
        msgs = [self.state.messages[m].to_api() for m in chan.pins] if readable else []
        if req.op and req.op.template.endswith("/messages/pins"):
            return {
                "items": [{"pinned_at": iso_now(), "message": m} for m in msgs],
                "has_more": False,
            }
        return msgs

    async def _pin(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        # PIN_MESSAGES only: MANAGE_MESSAGES stopped allowing pins on 2026-02-23
        self._require(chan, P.PIN_MESSAGES)
        if not msg.pinned:
            if len(chan.pins) >= 250:
                raise ApiError(400, 30003, "Maximum number of pins reached (250)", record="limits")
            msg.pinned = True
            chan.pins.append(msg.id)
        return None

    async def _unpin(self, req: ApiRequest) -> Any:
        chan, msg = self._channel_message(req)
        self._require(chan, P.PIN_MESSAGES)
        if msg.pinned:
            msg.pinned = False
            chan.pins.remove(msg.id)
        return None

    async def _react(self, req: ApiRequest) -> Any:
        chan, _ = self._channel_message(req)
        needed = P.READ_MESSAGE_HISTORY | (P.ADD_REACTIONS if req.method == "PUT" else 0)
        self._require(chan, needed)
        return None


def _metadata(interaction: InteractionRecord) -> dict[str, Any]:
    """A message's `interaction_metadata`: the interaction that made it and who used it."""
    data: dict[str, Any] = {
        "id": str(interaction.id),
        "type": interaction.type,
        "user": interaction.user.to_api(),
        "authorizing_integration_owners": {},
    }
    if interaction.type == 3 and "message" in interaction.payload:  # a component's
        data["interacted_message_id"] = interaction.payload["message"]["id"]
    return data
