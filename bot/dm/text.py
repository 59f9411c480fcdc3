"""What every game's DMs share: the categories a player may mute, Discord's message limit, and
fitting lines into messages (`clip`, `pack`). Pure: no Discord, no I/O."""

from __future__ import annotations

CATEGORIES = (
    "combat",
    "cities",
    "builds",
    "diplomacy",
    "tech",
    "moves",
    "game",
    "reminders",
    "others",
)
"""What a player may mute (each game files its events under these; `reminders`: a deadline
near with orders not yet given; `others`: what happens between other nations, such as their
fights)."""

DEFAULT_MUTED = ("others",)
"""What a player is not told until they unmute it (`/notify unmute:others`)."""

MAX_LINE = 300  # a line of a DM at most
DISCORD_LIMIT = 2000  # a message at most


def clip(text: str, limit: int = MAX_LINE) -> str:
    """The text cut to `limit` characters with an ellipsis, never inside bold markup."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if cut.count("**") % 2:
        cut = cut[: limit - 3] + "**"
    return cut + "…"


def pack(lines: list[str], limit: int) -> list[str]:
    """The lines in as few messages of at most `limit` characters as they fit in."""
    messages: list[str] = []
    current = ""
    for line in lines:
        line = clip(line, limit)
        if not current:
            current = line
        elif len(current) + 1 + len(line) <= limit:
            current += "\n" + line
        else:
            messages.append(current)
            current = line
    if current:
        messages.append(current)
    return messages
