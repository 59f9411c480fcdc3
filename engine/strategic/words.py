"""Small pieces of English shared by every message: the article before a word or a number."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"\d+")


def article(word: str) -> str:
    """`word` with "a" or "an" before it, by how it is said: "an airport", "an ICBM",
    "an 80x80 map", "an 11x11 map", "a fort", "a 32x32 map"."""
    number = _NUMBER.match(word)
    if number:
        n = number.group()
        vowel = n.startswith("8") or (n[:2] in ("11", "18") and len(n) % 3 == 2)
    else:
        vowel = word[:1].lower() in "aeiou"
    return f"{'an' if vowel else 'a'} {word}"
