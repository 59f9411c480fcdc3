"""Discord's permission model, as its documentation tells it (topics/permissions.mdx).

A member's permissions in a guild channel:

1. base: the ``@everyone`` role's permissions OR the permissions of the member's roles
   (the guild's owner has every permission; ``ADMINISTRATOR`` gives every permission and
   skips the overwrites);
2. the channel's ``@everyone`` overwrite (deny, then allow);
3. the overwrites of the member's roles, their denies OR-ed and their allows OR-ed
   (deny, then allow): the roles' positions do not matter;
4. the member's own overwrite (deny, then allow);
5. implicit denials: without ``VIEW_CHANNEL`` nothing is allowed in the channel; in a text
   channel without ``SEND_MESSAGES``, ``MENTION_EVERYONE``, ``SEND_TTS_MESSAGES``,
   ``ATTACH_FILES`` and ``EMBED_LINKS`` are ignored as well.

:func:`channel_permissions` computes that; discord.py's ``channel.permissions_for(member)``
computes the same from the ``permission_overwrites`` the fake sends in channel objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the models import this module for the overwrites of a channel
    from tests.fakediscord.models import Channel, Guild

CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51
BYPASS_SLOWMODE = 1 << 52

ALL_PERMISSIONS = ((1 << 53) - 1) & ~(1 << 47)
"""Every permission bit Discord documents (up to ``BYPASS_SLOWMODE``, 1 << 52; 1 << 47 is
not one)."""

NAMES = {
    ADMINISTRATOR: "ADMINISTRATOR",
    MANAGE_GUILD: "MANAGE_GUILD",
    VIEW_CHANNEL: "VIEW_CHANNEL",
    SEND_MESSAGES: "SEND_MESSAGES",
    SEND_TTS_MESSAGES: "SEND_TTS_MESSAGES",
    MANAGE_MESSAGES: "MANAGE_MESSAGES",
    EMBED_LINKS: "EMBED_LINKS",
    ATTACH_FILES: "ATTACH_FILES",
    READ_MESSAGE_HISTORY: "READ_MESSAGE_HISTORY",
    MENTION_EVERYONE: "MENTION_EVERYONE",
    ADD_REACTIONS: "ADD_REACTIONS",
    PIN_MESSAGES: "PIN_MESSAGES",
}

SEND_DEPENDENT = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS
"""Ignored in a text channel without SEND_MESSAGES (Implicit Permissions)."""

DM_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS
"""``app_permissions`` of an interaction in the DM with the app's bot user (Discord:
``ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE``, and ``USE_EXTERNAL_EMOJIS`` there).
The bot may still send its ordinary DM messages (a DM has no permissions to check)."""

ROLE = 0
MEMBER = 1


@dataclass
class Overwrite:
    """A channel's permission overwrite of a role (``type`` 0) or a member (``type`` 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_api(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def names(bits: int) -> str:
    """``"SEND_MESSAGES, ATTACH_FILES"``: the names of the bits set (unknown ones as ``1 << n``)."""
    out = []
    for n in range(bits.bit_length()):
        bit = 1 << n
        if bits & bit:
            out.append(NAMES.get(bit, f"1 << {n}"))
    return ", ".join(out)


def base_permissions(guild: Guild, user_id: int) -> int:
    """Guild-level permissions of a member (owner and ADMINISTRATOR: everything)."""
    if user_id == guild.owner_id:
        return ALL_PERMISSIONS
    perms = guild.default_role.permissions
    member = guild.members.get(user_id)
    if member is not None:
        for rid in member.roles:
            role = guild.roles.get(rid)
            if role is not None:
                perms |= role.permissions
    if perms & ADMINISTRATOR:
        return ALL_PERMISSIONS
    return perms


def channel_permissions(guild: Guild, channel: Channel, user_id: int) -> int:
    """A member's permissions in a guild channel, with the overwrites and implicit denials."""
    perms = base_permissions(guild, user_id)
    if perms & ADMINISTRATOR:
        return ALL_PERMISSIONS
    overwrites = channel.overwrites
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        perms &= ~everyone.deny
        perms |= everyone.allow
    member = guild.members.get(user_id)
    role_ids = member.roles if member is not None else []
    allow = deny = 0
    for rid in role_ids:
        ow = overwrites.get(rid)
        if ow is not None and ow.type == ROLE:
            allow |= ow.allow
            deny |= ow.deny
    perms &= ~deny
    perms |= allow
    own = overwrites.get(user_id)
    if own is not None and own.type == MEMBER:
        perms &= ~own.deny
        perms |= own.allow
    if not perms & VIEW_CHANNEL:
        return 0
    if channel.is_text and not perms & SEND_MESSAGES:
        perms &= ~SEND_DEPENDENT
    return perms
