"""A picture being drawn: an "L" image of palette indices and its `Palette`, with the text
helpers (text on a plain colour, pasted as a stamp; text over whatever is there, blended with
each pixel under it). `finish()` makes it the palette picture."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, cast

from PIL import Image, ImageDraw

from renderers.palette import LEVELS, RGB, Palette
from renderers.text import Glyphs, clipped_stamp, glyphs_of, paste, stamp_of, whole_and_fraction

STEPS = LEVELS + 1


class _Pixels(Protocol):
    """An "L" picture's pixel access (`Image.load()`): palette indices by (x, y)."""

    def __getitem__(self, xy: tuple[int, int]) -> int: ...
    def __setitem__(self, xy: tuple[int, int], value: int) -> None: ...


class IndexDraw(ImageDraw.ImageDraw):
    """`ImageDraw` on a picture of palette indices, giving the indices of the shapes pictures
    draw by the hundred (rectangles, ellipses, polygons one pixel wide) straight to Pillow's
    core, as `ImageDraw` does after converting each ink (a few microseconds a call: the ink
    of an "L" picture is the index itself). Anything else goes the usual way."""

    def rectangle(self, xy, fill=None, outline=None, width=1) -> None:
        if not _shape(self.draw.draw_rectangle, xy, fill, outline, width):
            super().rectangle(xy, fill, outline, width)

    def ellipse(self, xy, fill=None, outline=None, width=1) -> None:
        if not _shape(self.draw.draw_ellipse, xy, fill, outline, width):
            super().ellipse(xy, fill, outline, width)

    def polygon(self, xy, fill=None, outline=None, width=1) -> None:
        thick = width != 1 and outline is not None and outline != fill  # Pillow's own way
        if thick or not _shape(self.draw.draw_polygon, xy, fill, outline, width):
            super().polygon(xy, fill, outline, width)


def _shape(draw, xy, fill: object, outline: object, width: int) -> bool:
    """`ImageDraw`'s order, the fill, then the outline when it differs, when both inks are
    palette indices (or none) and one at least is given; False (nothing drawn) otherwise."""
    if fill is None:
        if type(outline) is not int:
            return False
    elif type(fill) is not int or (outline is not None and type(outline) is not int):
        return False
    else:
        draw(xy, fill, 1)
    if outline is not None and outline != fill and width != 0:
        draw(xy, outline, 0, width)
    return True


class Canvas:
    """An "L" image of palette indices and its palette, with the text helpers."""

    def __init__(self, image: Image.Image, pal: Palette) -> None:
        self.image = image
        self.pal = pal
        self.draw: ImageDraw.ImageDraw = IndexDraw(image)
        # what this picture draws again and again (a city of the same owner and letter): drawn
        # once, then pasted (their palette indices are this picture's: kept with the canvas)
        self.patches: dict[Hashable, Image.Image] = {}
        self._over: dict[int, list[int]] = {}  # ink -> its blends (`glyphs_over`)
        self._pixels_of: Image.Image | None = None
        self._pixels: _Pixels

    def use(self, image: Image.Image) -> None:
        """Go on drawing on `image` (the picture made larger)."""
        self.image = image
        self.draw = IndexDraw(image)

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
        colour under it; only inside `clip` when given. Pixel by pixel through the picture's
        pixel access: a stamp has a few dozen pixels, so reading and writing just those costs
        less than cutting the patch out, blending it and pasting it back (Pillow's crop,
        `tobytes` and `frombytes` are a few tens of microseconds each)."""
        w, h = g.levels.size
        image = self.image
        left, top = max(0, x), max(0, y)
        right, bottom = min(image.width, x + w), min(image.height, y + h)
        if clip is not None:
            left, top = max(left, clip[0]), max(top, clip[1])
            right, bottom = min(right, clip[2]), min(bottom, clip[3])
        if left >= right or top >= bottom:
            return
        whole = left == x and top == y and right == x + w and bottom == y + h
        px = self._pixel_access()
        ink = self.pal.add(fill)
        # the blends over each colour in this ink, by under * STEPS + step (-1: not yet asked of
        # the palette, which adds a blend's colour when first needed: in the same order as ever)
        table = self._over.get(ink)
        if table is None:
            table = self._over[ink] = [-1] * (256 * STEPS)
        blend = self.pal.blend
        for dx, dy, step in g.points:
            at = (x + dx, y + dy)
            if not whole and not (left <= at[0] < right and top <= at[1] < bottom):
                continue
            if step == LEVELS:
                px[at] = ink
                continue
            under = px[at]
            i = table[under * STEPS + step]
            if i < 0:
                i = table[under * STEPS + step] = blend(under, ink, step)
            px[at] = i

    def _pixel_access(self) -> _Pixels:
        """The picture's pixel access (got again when the picture is replaced)."""
        if self._pixels_of is not self.image:
            self._pixels = cast(_Pixels, self.image.load())
            self._pixels_of = self.image
        return self._pixels

    def finish(self) -> Image.Image:
        self.image.putpalette(self.pal.data())
        return self.image
