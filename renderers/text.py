"""Text as ready-made stamps: a text is rendered once per size and placement as its
anti-aliasing steps (`Glyphs`: 0..LEVELS), then written as palette indices on a plain colour
(`stamp_of`, the steps mapped to a ramp of the palette) or blended pixel by pixel over what is
there (`canvas.Canvas.glyphs_over`). What a picture writes again and again is drawn once per
process."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image

from renderers import style
from renderers.palette import LEVELS

QUANTISE = [(a * LEVELS + 127) // 255 for a in range(256)]  # coverage 0-255 -> step
COVER = [0] + [255] * 255  # step > 0 -> the pixel is text


@dataclass(frozen=True, eq=False)
class Glyphs:
    """A text rendered once: its anti-aliasing steps (an "L" image of 0..LEVELS, and the same
    as a list of its drawn pixels), where it is drawn (an "L" mask of 0/255), and where its
    top-left pixel goes from the drawing point. Compared by identity (one per text, cached)."""

    levels: Image.Image
    cover: Image.Image
    dx: int
    dy: int
    points: tuple[tuple[int, int, int], ...]  # (x, y, step) of each pixel drawn, row by row

    @classmethod
    def of(cls, levels: Image.Image, dx: int = 0, dy: int = 0) -> Glyphs:
        array = np.asarray(levels).reshape(-1)
        where = np.flatnonzero(array)
        x, y = where % levels.width, where // levels.width
        points = tuple(zip(x.tolist(), y.tolist(), array[where].tolist(), strict=True))
        return cls(levels, levels.point(COVER), dx, dy, points)


@lru_cache(maxsize=8192)
def glyphs_of(
    text: str, size: int, anchor: str | None, fx: float, fy: float, stroke: int
) -> Glyphs:
    """As `ImageDraw.text` places it: `fx`, `fy` are the fractional parts of the point."""
    font = style.font(size)
    mask, (dx, dy) = font.getmask2(
        text, "L", None, None, None, stroke, anchor, 0, (fx, fy), stroke_filled=True
    )
    return Glyphs.of(Image.Image()._new(mask).point(QUANTISE), dx, dy)


@lru_cache(maxsize=4096)
def text_length(text: str, size: int) -> float:
    """How far `text` advances at `size` (`getlength`, in whole 64ths of a pixel, so sums are
    exact). Remembered: Pillow takes a few microseconds a character. The font has no kerning
    next to a space, so the length of "a   b" is the lengths of "a", "   " and "b" added
    (`tests/renderers/test_text.py` checks it)."""
    return style.font(size).getlength(text)


@lru_cache(maxsize=16384)
def stamp_of(g: Glyphs, ramp: tuple[int, ...]) -> Image.Image:
    """The glyphs as palette indices: ramp[level]."""
    return g.levels.point(list(ramp) + [0] * (256 - len(ramp)))


@lru_cache(maxsize=4096)
def clipped_stamp(
    g: Glyphs, ramp: tuple[int, ...], clip: tuple[int, int, int, int]
) -> tuple[Image.Image, Image.Image, tuple[int, int]] | None:
    """The stamp and its cover inside `clip` (relative to the stamp's corner), and where
    that part starts; None when nothing is inside."""
    w, h = g.levels.size
    box = (max(0, clip[0]), max(0, clip[1]), min(w, clip[2]), min(h, clip[3]))
    if box[0] >= box[2] or box[1] >= box[3]:
        return None
    return stamp_of(g, ramp).crop(box), g.cover.crop(box), (box[0], box[1])


def paste(
    image: Image.Image, part: Image.Image, x: int, y: int, mask: Image.Image | None = None
) -> None:
    """`image.paste(part, (x, y), mask)` for images of the same mode, without the checks
    `Image.paste` makes each time (a fifth of the cost; pictures paste a few hundred
    stamps). Pillow's own paste clips to the picture alike."""
    box = (x, y, x + part.width, y + part.height)
    try:
        if mask is None:
            image.im.paste(part.im, box)
        else:
            image.im.paste(part.im, box, mask.im)
    except (AttributeError, TypeError):  # should Pillow's internals change: the public way
        image.paste(part, (x, y), mask)


def whole_and_fraction(v: float) -> tuple[int, float]:
    i = int(v)
    return i, v - i
