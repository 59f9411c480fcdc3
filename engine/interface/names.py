"""What a name a player gives (a nation's, its leader's, a title) may hold: plain words that
every message shows as they are. Discord would turn a mention into a ping, and markdown
(asterisks, underscores, tildes, backquotes, bars, brackets, a leading '#') would bend
the lines that quote it."""

from __future__ import annotations

import re

_MARKUP = re.compile(r"[@<>*_~`|\\\[\]]|://|^\s*#")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def markup_in(text: str) -> str | None:
    """What in `text` would break a message quoting it (None: nothing)."""
    if _CONTROL.search(text):
        return "a line break or control character"
    found = _MARKUP.search(text)
    if found is None:
        return None
    return f"{found.group().strip()!r}"
