"""What the bot must be allowed to do in a game's channel, in Discord's words: the invite link
asks for exactly these (`INVITE_PERMISSIONS`, the README's link), `/game create` checks them in
its channel, and the bot looks at them before each post there (`bot.client`), so that a channel
it cannot post in costs no refused request.

Since 2026-02-23 pinning needs *Pin Messages*; *Manage Messages* alone no longer pins. The bot
never reads the channel's history, reacts or manages others' messages, so it asks for none of
that."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Need:
    attr: str  # discord.Permissions' attribute
    label: str  # as Discord's settings name it
    why: str
    essential: bool  # without it a game cannot be run in the channel


NEEDS: tuple[Need, ...] = (
    Need("view_channel", "View Channel", "to see the game's channel", True),
    Need("send_messages", "Send Messages", "to announce joins, starts and ends", True),
    Need(
        "send_messages_in_threads",
        "Send Messages in Threads",
        "to run a game in a thread",
        True,  # in a thread, instead of Send Messages
    ),
    Need("attach_files", "Attach Files", "to post turn boards and the end-of-game map", True),
    Need("embed_links", "Embed Links", "for the cards of /status, /units and /nations", False),
    Need("pin_messages", "Pin Messages", "to pin the game's status", False),
)

INVITE_PERMISSIONS: int = sum(getattr(discord.Permissions, need.attr).flag for need in NEEDS)
"""The permissions integer of the README's invite link."""


def missing(perms: discord.Permissions, *, thread: bool = False) -> tuple[Need, ...]:
    """What of `NEEDS` these permissions (the bot's, in one channel) lack. Threads need
    *Send Messages in Threads* instead of *Send Messages*."""
    out = []
    for need in NEEDS:
        if need.attr == ("send_messages" if thread else "send_messages_in_threads"):
            continue
        if not getattr(perms, need.attr, False):
            out.append(need)
    return tuple(out)


def labels(needs: tuple[Need, ...] | list[Need]) -> str:
    """'Send Messages and Attach Files'."""
    names = [n.label for n in needs]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def to_post(*, files: bool, thread: bool) -> tuple[str, ...]:
    """The attributes a post needs (with files or not) in a channel or a thread."""
    send = "send_messages_in_threads" if thread else "send_messages"
    return ("view_channel", send, "attach_files") if files else ("view_channel", send)


def label_of(attr: str) -> str:
    """Discord's name of a permission attribute ('pin_messages': 'Pin Messages')."""
    for need in NEEDS:
        if need.attr == attr:
            return need.label
    return attr.replace("_", " ").title()
