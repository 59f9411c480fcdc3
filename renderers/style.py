"""What every game's pictures share: the background and the text's colours, the grey of what
nobody owns, outlines, the colours that signal what happened (the same in every game), the text
on a colour, players' colours as they are stored, and the font."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import ImageFont

BACKGROUND = (28, 30, 36)
TEXT = (232, 232, 232)
TEXT_DIM = (160, 164, 172)
NEUTRAL = (150, 150, 150)  # what nobody owns
OUTLINE = (12, 12, 12)

# what happened, and what is yours
CAPTURE = (255, 0, 255)  # a place taken
CLASH = (255, 150, 0)  # a blast, a conflict
LOST = (120, 0, 30)  # units lost
YOURS = (255, 235, 0)  # the viewer's own, and what the viewer is asked


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font: the same on every machine."""
    f = ImageFont.load_default(size=size)
    # Pillow's wheels are built with FreeType, so this is the scalable font; the bitmap
    # fallback of a build without it has one size and no getmask2, which the map text needs
    assert isinstance(f, ImageFont.FreeTypeFont)
    return f


@lru_cache(maxsize=1024)
def parse_colour(text: str | None) -> tuple[int, int, int]:
    """'#rrggbb' (or 'rrggbb') to an RGB tuple; anything else is neutral grey. Remembered (a
    picture asks it of every city and unit's owner)."""
    if not text:
        return NEUTRAL
    t = text.strip().lstrip("#")
    if len(t) == 3:
        t = "".join(c * 2 for c in t)
    try:
        return (int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16))
    except ValueError:
        return NEUTRAL


def text_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on this colour."""
    r, g, b = colour
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)
