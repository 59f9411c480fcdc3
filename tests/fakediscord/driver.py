"""The driver: the test-facing side of the fake Discord that plays the users.

Users post messages, run slash commands (with options checked and converted against the
registered command, as Discord's client would), ask for autocomplete, click buttons,
choose in select menus and submit modals; each interaction goes to the bot over the
gateway and comes back as an :class:`~.models.InteractionRecord` once the bot answered.
Tests read what a user received with :meth:`Driver.dms`, :meth:`Driver.wait_for_dm`
and :meth:`Driver.wait_for_message`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from tests.fakediscord.gateway import Gateway
from tests.fakediscord.models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    Attachment,
    Channel,
    Guild,
    InteractionRecord,
    InteractionTimeout,
    Member,
    Message,
    Role,
    User,
    _guess_type,
    snowflake,
)
from tests.fakediscord.permissions import DM_APP_PERMISSIONS
from tests.fakediscord.state import State, as_id


class CommandUnavailable(Exception):
    """The Discord client would not let this user run this command here."""


class Driver(State):
    """Plays the users of a :class:`State` through its ``gateway``."""

    gateway: Gateway

    # ------------------------------------------------------------------ what users received
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
                await self.wait_until(lambda: find() is not None)
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
        key = None if guild is None else as_id(guild)
        try:
            async with asyncio.timeout(timeout):
                await self.wait_until(lambda: any(k == key for k, _ in self.command_syncs))
        except TimeoutError:
            raise AssertionError(
                f"commands were not synced (guild={key}) within {timeout}s"
            ) from None
        return self.commands(key)

    # ------------------------------------------------------------------ playing users
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
        self.gateway.dispatch("MESSAGE_CREATE", data)
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
        self,
        opt: dict[str, Any],
        value: Any,
        guild: Guild | None,
        resolved: dict[str, dict],
        user: User | None = None,
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
            target = value.user if isinstance(value, Member) else value
            if not isinstance(target, User):
                target = self.users[as_id(target)]
            resolved.setdefault("users", {})[str(target.id)] = target.to_api()
            if guild is not None and target.id in guild.members:
                member = guild.members[target.id].to_api(
                    permissions=guild.permissions_of(target.id)
                )
                member.pop("user")
                resolved.setdefault("members", {})[str(target.id)] = member
            value = str(target.id)
        elif kind in (8, 9):
            role = (
                value if isinstance(value, Role) else guild.roles[as_id(value)] if guild else None
            )
            if role is None:
                raise ValueError(f"option {name!r}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.to_api()
            value = str(role.id)
        elif kind == 7:
            chan = value if isinstance(value, Channel) else self.channels[as_id(value)]
            types = opt.get("channel_types")
            if types and chan.type not in types:
                raise ValueError(f"option {name!r}: channel type {chan.type} not in {types}")
            data = chan.to_api()
            perms = (
                self.guilds[chan.guild_id].permissions_in(chan, user.id)
                if chan.guild_id is not None and user is not None
                else ALL_PERMISSIONS
            )
            data["permissions"] = str(perms)
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
            self.uploads[att.id] = att
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
        user: User | None = None,
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
            value = self._option_value(opt, values[name], guild, resolved, user)
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
            # Discord: the member's and the app's permissions in this channel, overwrites
            # included ("app_permissions": "the computed permissions ... including any
            # channel overwrites")
            perms = guild.permissions_in(channel, user.id)
            app_perms = guild.permissions_in(channel, self.bot_user.id)
            chan["permissions"] = str(perms)
            chan["app_permissions"] = str(app_perms)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                    "guild_locale": "en-US",
                    "member": member.to_api(permissions=perms),
                    "app_permissions": str(app_perms),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            chan["permissions"] = str(ALL_PERMISSIONS)
            # Discord, in the DM with the app's bot user: ATTACH_FILES | EMBED_LINKS |
            # MENTION_EVERYONE | USE_EXTERNAL_EMOJIS (Receiving and Responding)
            chan["app_permissions"] = str(DM_APP_PERMISSIONS)
            payload.update(
                {
                    "user": user.to_api(),
                    "app_permissions": str(DM_APP_PERMISSIONS),
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
        if not self.gateway.has_session:
            raise RuntimeError("no identified gateway connection: call start_client() first")
        guild_id = channel.guild_id
        if not self.gateway.reaches(guild_id):
            where = f"guild {guild_id}" if guild_id else "DMs (shard 0)"
            raise RuntimeError(
                f"no identified gateway connection for the shard of {where}; "
                f"connected shards: {self.gateway.shards()}"
            )
        rec = InteractionRecord(
            int(payload["id"]), payload["token"], payload["type"], payload, user, channel
        )
        self.interactions[rec.id] = rec
        self.by_token[rec.token] = rec
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        if not wait:
            return rec
        ack_timeout = self.interaction_timeout + 1.0
        try:
            await rec.wait_for(
                lambda r: r.acknowledged or bool(r.rejected) or bool(r.bot_errors), ack_timeout
            )
        except InteractionTimeout:
            self.record("no-ack", f"interaction {self._describe(payload)} was never acknowledged")
            raise
        if rec.callback_type == 5:
            try:
                await rec.wait_for(
                    lambda r: r.complete or bool(r.bot_errors) or bool(r.rejected),
                    timeout or self.followup_timeout,
                )
            except InteractionTimeout:
                self.record(
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
        opts, resolved = self._build_options(cmd, path, options or {}, guild, None, user)
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
        opts, resolved = self._build_options(cmd, path, values, guild, focused, user)
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
