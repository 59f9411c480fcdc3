"""State objects of the fake server (users, guilds, channels, messages, interactions)."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.permissions import ADMINISTRATOR as ADMINISTRATOR  # re-exported
from tests.fakediscord.permissions import ALL_PERMISSIONS as ALL_PERMISSIONS  # re-exported
from tests.fakediscord.permissions import Overwrite, base_permissions, channel_permissions

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

_counter = itertools.count()


def snowflake() -> int:
    """A fresh, increasing snowflake id (timestamp-based, like Discord's)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GUILD_CATEGORY = 4
    GUILD_ANNOUNCEMENT = 5
    PUBLIC_THREAD = 11
    GUILD_FORUM = 15


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    avatar: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_api(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": self.avatar,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_api(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def to_api(self, *, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.to_api(),
            "nick": self.nick,
            "avatar": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    recipient: User | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    message_ids: list[int] = field(default_factory=list)
    pins: list[int] = field(default_factory=list)
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    """Permission overwrites by role or member id (the @everyone role's id is the guild's)."""

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def is_text(self) -> bool:
        """A channel messages are sent in (SEND_MESSAGES' implicit denials apply)."""
        return self.type in (ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT)

    def to_api(self) -> dict[str, Any]:
        if self.type == ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": str(self.message_ids[-1]) if self.message_ids else None,
                "recipients": [self.recipient.to_api()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.to_api() for o in self.overwrites.values()],
            "nsfw": False,
            "topic": self.topic,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "rate_limit_per_user": 0,
            "last_message_id": str(self.message_ids[-1]) if self.message_ids else None,
            "flags": 0,
        }


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    created_at: str = field(default_factory=iso_now)

    @property
    def default_role(self) -> Role:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions of a member (without any channel's overwrites)."""
        return base_permissions(self, user_id)

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """A member's permissions in ``channel`` (overwrites and implicit denials applied)."""
        return channel_permissions(self, channel, user_id)

    def to_api(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_api() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
        }

    def to_gateway(self) -> dict[str, Any]:
        data = self.to_api()
        data.update(
            {
                "joined_at": self.created_at,
                "large": False,
                "unavailable": False,
                "member_count": len(self.members),
                "voice_states": [],
                "members": [m.to_api() for m in self.members.values()],
                "channels": [c.to_api() for c in self.channels.values()],
                "threads": [],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "description": self.description,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        return data


def _guess_type(filename: str) -> str | None:
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return {
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "svg": "image/svg+xml",
    }.get(ext)


@dataclass(eq=False)
class Message:
    """A message stored by the fake (sent by the bot, a webhook or a simulated user)."""

    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    tts: bool = False
    pinned: bool = False
    deleted: bool = False
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    application_id: int | None = None
    # a message an interaction made: who made it and how (Discord's `interaction_metadata`)
    interaction_metadata: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    """Every payload that created/edited this message, oldest first."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def files(self) -> list[Attachment]:
        return self.attachments

    def file(self, filename: str) -> Attachment:
        for att in self.attachments:
            if att.filename == filename:
                return att
        raise KeyError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")

    def iter_components(self):
        """All components, depth first (rows, buttons, selects, v2 containers...)."""

        def walk(items):
            for comp in items:
                yield comp
                for key in ("components", "accessory"):
                    sub = comp.get(key)
                    if isinstance(sub, dict):
                        yield from walk([sub])
                    elif isinstance(sub, list):
                        yield from walk(sub)

        yield from walk(self.components)

    def component(self, custom_id: str) -> dict[str, Any]:
        for comp in self.iter_components():
            if comp.get("custom_id") == custom_id:
                return comp
        raise KeyError(
            f"no component {custom_id!r}; have {[c.get('custom_id') for c in self.iter_components() if 'custom_id' in c]}"
        )

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_api(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_api() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": self.pinned,
            "type": 20 if self.interaction_id else 0,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata:
            data["interaction_metadata"] = self.interaction_metadata
        return data


class InteractionTimeout(AssertionError):
    """The bot did not answer an interaction (in time)."""


@dataclass(eq=False)
class InteractionRecord:
    """What happened to one interaction the fake sent to the bot.

    ``content``/``embeds``/``files``/``components``/``ephemeral`` describe the
    visible response: the original response message if there is one, else the
    first follow-up.
    """

    id: int
    token: str
    type: int
    payload: dict[str, Any]
    user: User
    channel: Channel
    created: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    callback_payload: dict[str, Any] | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    rejected: list[str] = field(default_factory=list)
    """Fake's answers to rejected requests made with this interaction's id/token."""
    bot_errors: list[BaseException] = field(default_factory=list)
    """Exceptions that reached discord.py's default ``CommandTree.on_error``."""
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition, repr=False)
    _original_edited: bool = False

    # ------------------------------------------------------------- views
    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def message(self) -> Message | None:
        if self.original is not None and not self.original.deleted:
            return self.original
        return self.followups[0] if self.followups else None

    @property
    def messages(self) -> list[Message]:
        """The original response (if any) followed by all follow-ups."""
        out = [self.original] if self.original is not None else []
        # after a "thinking" defer the first follow-up *is* the original message
        return out + [m for m in self.followups if m is not self.original]

    @property
    def content(self) -> str:
        msg = self.message
        return msg.content if msg else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        msg = self.message
        return msg.embeds if msg else []

    @property
    def files(self) -> list[Attachment]:
        msg = self.message
        return msg.attachments if msg else []

    @property
    def components(self) -> list[dict[str, Any]]:
        msg = self.message
        return msg.components if msg else []

    @property
    def flags(self) -> int:
        msg = self.message
        return msg.flags if msg else 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def text(self) -> str:
        """Content plus embed titles/descriptions/fields of all messages (handy for asserts)."""
        parts: list[str] = []
        for msg in self.messages:
            parts.append(msg.content)
            for emb in msg.embeds:
                parts += [emb.get("title") or "", emb.get("description") or ""]
                for fld in emb.get("fields") or []:
                    parts += [fld.get("name") or "", fld.get("value") or ""]
        return "\n".join(p for p in parts if p)

    @property
    def complete(self) -> bool:
        """Acknowledged, and if deferred then followed by an edit or a follow-up."""
        if self.callback_type is None:
            return False
        if self.callback_type == 5:
            return self._original_edited or bool(self.followups)
        if self.callback_type == 6:
            return self._original_edited or bool(self.followups)
        return True

    # ------------------------------------------------------------- waiting
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[InteractionRecord], bool], timeout: float = 5.0):
        """Wait until ``predicate(self)`` holds; raises :class:`InteractionTimeout`."""
        try:
            async with asyncio.timeout(timeout):
                async with self._changed:
                    await self._changed.wait_for(lambda: predicate(self))
        except TimeoutError:
            raise InteractionTimeout(
                f"interaction {self.payload.get('data', {}).get('name') or self.payload.get('data', {}).get('custom_id')!r}: "
                f"condition not met within {timeout}s (callback_type={self.callback_type}, "
                f"followups={len(self.followups)}, rejected={self.rejected})"
            ) from None
        return self

    async def wait_for_followups(self, count: int = 1, timeout: float = 5.0):
        return await self.wait_for(lambda r: len(r.followups) >= count, timeout)
