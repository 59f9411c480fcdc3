"""A picture being drawn: an "L" image of palette indices and its `Palette`, with the text
helpers (text on a plain colour, pasted as a stamp; text over whatever is there, blended with
each pixel under it). `finish()` makes it the palette picture."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.palette import LEVELS, RGB, Palette
from renderers.text import Glyphs, clipped_stamp, glyphs_of, paste, stamp_of, whole_and_fraction


class Canvas:
    """An "L" image of palette indices and its palette, with the text helpers."""

    def __init__(self, image: Image.Image, pal: Palette) -> None:
        self.image = image
        self.pal = pal
        self.draw = ImageDraw.Draw(image)
        self._done: dict[tuple, tuple[Glyphs, Image.Image]] = {}

    def ink(self, colour: Sequence[int]) -> int:
        return self.pal.add(colour)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        on: RGB,
        anchor: str | None = None,
        clip: tuple[int, int, int, int] | None = None,
    ) -> None:
        """Text over a known plain colour `on` (the background, a city's fill): pasted as
        ready-made palette indices. `clip` (left, top, right, bottom; exclusive) keeps it off
        what is around that colour (a city's outline)."""
        (x, fx), (y, fy) = whole_and_fraction(xy[0]), whole_and_fraction(xy[1])
        g = glyphs_of(text, size, anchor, fx, fy, 0)
        ramp = self.pal.ramp(self.pal.add(on), self.pal.add(fill))
        left, top = x + g.dx, y + g.dy
        if clip is None:
            paste(self.image, stamp_of(g, ramp), left, top, g.cover)
            return
        inner = (clip[0] - left, clip[1] - top, clip[2] - left, clip[3] - top)
        clipped = clipped_stamp(g, ramp, inner)
        if clipped is not None:
            stamp, cover, (dx, dy) = clipped
            paste(self.image, stamp, left + dx, top + dy, cover)

    def text_over(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        anchor: str | None = None,
        stroke: int = 0,
        stroke_fill: RGB | None = None,
        clip: tuple[int, int, int, int] | None = None,
    ) -> None:
        """Text over whatever is there (units, terrain): blended with the colours under it;
        `clip` (left, top, right, bottom; exclusive) keeps it inside a box."""
        (x, fx), (y, fy) = whole_and_fraction(xy[0]), whole_and_fraction(xy[1])
        if stroke:
            g = glyphs_of(text, size, anchor, fx, fy, stroke)
            self.glyphs_over(x + g.dx, y + g.dy, g, stroke_fill or fill, clip)
        g = glyphs_of(text, size, anchor, fx, fy, 0)
        self.glyphs_over(x + g.dx, y + g.dy, g, fill, clip)

    def glyphs_over(
        self, x: int, y: int, g: Glyphs, fill: RGB, clip: tuple[int, int, int, int] | None = None
    ) -> None:
        """`g` in ink `fill` with its top left at x, y, each of its pixels blended with the
        colour under it (a stamp has a few dozen pixels: a loop costs less than numpy's calls,
        and a crop less than a copy of the picture); only inside `clip` when given."""
        w, h = g.levels.size
        box = (max(0, x), max(0, y), min(self.image.width, x + w), min(self.image.height, y + h))
        if clip is not None:
            box = (
                max(box[0], clip[0]),
                max(box[1], clip[1]),
                min(box[2], clip[2]),
                min(box[3], clip[3]),
            )
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        under = self.image.crop(box).tobytes()
        # the same text over the same pixels is the same result: a stack's count over the
        # same terrain and unit shape repeats all over a map
        key = (id(g), box[0] - x, box[1] - y, fill, under)
        done = self._done.get(key)
        if done is None:
            ink = self.pal.add(fill)
            known = self.pal.blends
            blend = self.pal.blend
            out = bytearray(under)
            bw = box[2] - box[0]
            whole = bw == w and box[3] - box[1] == h
            for k, step in g.pixels:
                if not whole:  # cut by the picture's edge: where is this pixel in the crop?
                    ky, kx = divmod(k, w)
                    kx, ky = kx + x - box[0], ky + y - box[1]
                    if not (0 <= kx < bw and 0 <= ky < box[3] - box[1]):
                        continue
                    k = ky * bw + kx
                if step == LEVELS:
                    out[k] = ink
                    continue
                i = known.get((out[k], ink, step))
                out[k] = blend(out[k], ink, step) if i is None else i
            done = (g, Image.frombytes("L", (bw, box[3] - box[1]), bytes(out)))
            self._done[key] = done
        paste(self.image, done[1], box[0], box[1])

    def finish(self) -> Image.Image:
        self.image.putpalette(self.pal.data())
        return self.image
