"""The pen a board is drawn with: the picture as palette indices (an "L" image and the kit's
`Palette`) with its shapes, lines, arrows, bursts, text and badges; the structures' shapes;
the bar that ends a move stopped on the road."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.supplylines.view import View
from renderers import style
from renderers.palette import RGB, Palette
from renderers.supplylines.game import colour_of, seat_order
from renderers.supplylines.layout import Box, Point
from renderers.supplylines.style import (
    BADGE_DARK,
    CAPTURE,
    CONFLICT,
    HEADER_LINE,
    IMMOBILE,
    LEGEND_INK,
    LOST,
    PIP,
    PIP_EDGE,
    QUESTION,
    ROAD,
    SHORT,
    px,
)
from renderers.text import COVER, QUANTISE


def base_colours(view: View) -> list[RGB]:
    """The colours every picture may use, registered before anything is drawn (so they are
    exact), then each player's colour."""
    fixed = [
        style.BACKGROUND,
        style.TEXT,
        style.TEXT_DIM,
        style.NEUTRAL,
        style.OUTLINE,
        ROAD,
        HEADER_LINE,
        CONFLICT,
        CAPTURE,
        LOST,
        IMMOBILE,
        SHORT,
        QUESTION,
        PIP,
        PIP_EDGE,
        BADGE_DARK,
        (0, 0, 0),
        (255, 255, 255),
        LEGEND_INK,
    ]
    return fixed + [colour_of(view, p) for p in seat_order(view)]


@lru_cache(maxsize=4096)
def _glyphs(text: str, size: int, anchor: str) -> tuple[Image.Image, Image.Image, int, int]:
    """A text as anti-aliasing steps (an "L" image of 0..LEVELS), where it is drawn (an "L"
    mask of 0/255), and where its top-left pixel goes from the point it is drawn at."""
    font = style.font(size)
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    w, h = max(1, math.ceil(right - left)), max(1, math.ceil(bottom - top))
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor=anchor)
    levels = mask.point(QUANTISE)
    return levels, levels.point(COVER), math.floor(left), math.floor(top)


@lru_cache(maxsize=8192)
def _stamp(text: str, size: int, anchor: str, ramp: tuple[int, ...]) -> Image.Image:
    levels = _glyphs(text, size, anchor)[0]
    return levels.point(list(ramp) + [0] * (256 - len(ramp)))


class Pen:
    """The picture as palette indices (an "L" image and its `Palette`, the kit's palette):
    every colour is registered once and exact, anti-aliased text is drawn in `LEVELS` steps
    between its ink and the plain colour it is written on. So the PNG is a palette PNG, a
    third of the bytes of an RGB one and several times faster to encode."""

    def __init__(self, size: int, scale: float, colours: Sequence[RGB]) -> None:
        self.pal = Palette(colours)
        self.image = Image.new("L", (size, size), self.pal.add(style.BACKGROUND))
        self.draw = ImageDraw.Draw(self.image)
        self.s = scale

    def ink(self, colour: RGB) -> int:
        return self.pal.add(colour)

    def px(self, n: float) -> int:
        return px(self.s, n)

    def font_px(self, n: float) -> int:
        return max(10, round(n * self.s))

    def finish(self) -> Image.Image:
        self.image.putpalette(self.pal.data())
        return self.image

    # --- shapes ---

    def ellipse(
        self,
        c: Point,
        r: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self.draw.ellipse(
            (c[0] - r, c[1] - r, c[0] + r, c[1] + r),
            fill=None if fill is None else self.ink(fill),
            outline=None if outline is None else self.ink(outline),
            width=width,
        )

    def polygon(
        self, points: Sequence[Point], fill: RGB | None, outline: RGB | None, width: int = 1
    ) -> None:
        self.draw.polygon(
            list(points),
            fill=None if fill is None else self.ink(fill),
            outline=None if outline is None else self.ink(outline),
            width=width,
        )

    def box(
        self,
        box: Box,
        fill: RGB | None,
        outline: RGB | None = None,
        width: int = 1,
        radius: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            box,
            radius=radius,
            fill=None if fill is None else self.ink(fill),
            outline=None if outline is None else self.ink(outline),
            width=width,
        )

    def line(self, a: Point, b: Point, fill: RGB, width: int, outline: int = 0) -> None:
        if outline:
            wide = width + 2 * outline
            self.draw.line((a, b), fill=self.ink(style.OUTLINE), width=wide)
            for end in (a, b):  # round ends, so that joints look whole
                self.ellipse(end, wide / 2, style.OUTLINE)
        self.draw.line((a, b), fill=self.ink(fill), width=width)

    def dashed(
        self, a: Point, b: Point, fill: RGB, width: int, dash: float, gap: float, outline: int = 0
    ) -> None:
        length = math.dist(a, b)
        if length <= 0:
            return
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        t = 0.0
        while t < length:
            end = min(length, t + dash)
            p = (a[0] + ux * t, a[1] + uy * t)
            q = (a[0] + ux * end, a[1] + uy * end)
            if outline:
                self.draw.line((p, q), fill=self.ink(style.OUTLINE), width=width + 2 * outline)
            self.draw.line((p, q), fill=self.ink(fill), width=width)
            t = end + gap

    def arrowhead(self, a: Point, b: Point, size: float, fill: RGB) -> None:
        length = max(1e-9, math.dist(a, b))
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        back = (b[0] - ux * size, b[1] - uy * size)
        w = size * 0.62
        points = [b, (back[0] - uy * w, back[1] + ux * w), (back[0] + uy * w, back[1] - ux * w)]
        self.polygon(points, fill, style.OUTLINE, max(1, self.px(1.5)))

    def burst(self, c: Point, r: float) -> None:
        """A conflict: an orange star."""
        points = []
        for k in range(16):
            angle = math.pi * k / 8 + math.pi / 16
            rr = r if k % 2 == 0 else r * 0.5
            points.append((c[0] + rr * math.cos(angle), c[1] + rr * math.sin(angle)))
        self.polygon(points, CONFLICT, style.OUTLINE, max(1, self.px(2)))

    # --- text ---

    def text(self, xy: Point, text: str, size: int, fill: RGB, on: RGB, anchor: str = "la") -> None:
        """Text written on the plain colour `on` (the background, a structure's or a badge's
        fill)."""
        if not text:
            return
        _, cover, dx, dy = _glyphs(text, size, anchor)
        ramp = self.pal.ramp(self.ink(on), self.ink(fill))
        at = (round(xy[0]) + dx, round(xy[1]) + dy)
        self.image.paste(_stamp(text, size, anchor, ramp), at, cover)

    def width(self, text: str, size: int) -> float:
        return style.font(size).getlength(text)

    # --- badges ---

    def badge(
        self,
        box: Box,
        text: str,
        size: int,
        fill: RGB,
        ink: RGB,
        border: RGB = style.OUTLINE,
        border_w: int = 1,
        pips: int = 0,
        pip_fill: RGB = PIP,
    ) -> None:
        x0, y0, x1, y1 = box
        self.box(box, fill, border, border_w, self.px(4))
        pad = self.px(5)
        self.text((x0 + pad, (y0 + y1) / 2), text, size, ink, fill, "lm")
        if pips:  # (5 pixels across at 550, where Discord shows the picture)
            pr = self.px(4.5)
            step = self.px(10.5)
            cx = x1 - pad - pr - (pips - 1) * step
            for k in range(pips):
                self.ellipse(
                    (cx + k * step, (y0 + y1) / 2), pr, pip_fill, PIP_EDGE, max(1, self.px(1.2))
                )

    def badge_width(self, text: str, size: int, pips: int = 0) -> float:
        pad = self.px(5)
        w = self.width(text, size) + 2 * pad
        if pips:
            w += self.px(3) + pips * self.px(10.5)
        return math.ceil(w)


def _shape_points(shape: str, x: float, y: float, r: float) -> list[Point]:
    if shape == "house":
        return [
            (x - r, y + 0.85 * r),
            (x + r, y + 0.85 * r),
            (x + r, y - 0.2 * r),
            (x, y - 1.12 * r),
            (x - r, y - 0.2 * r),
        ]
    if shape == "diamond":
        k = 1.12 * r
        return [(x, y - k), (x + k, y), (x, y + k), (x - k, y)]
    if shape == "square":
        k = 0.86 * r
        return [(x - k, y - k), (x + k, y - k), (x + k, y + k), (x - k, y + k)]
    return [  # a hexagon
        (x + r * math.cos(math.pi / 3 * k), y + r * math.sin(math.pi / 3 * k)) for k in range(6)
    ]


def draw_shape(pen: Pen, shape: str, x: float, y: float, r: float, fill: RGB) -> None:
    width = max(1, pen.px(2.5))
    if shape == "circle":
        pen.ellipse((x, y), r, fill, style.OUTLINE, width)
    else:
        pen.polygon(_shape_points(shape, x, y, r), fill, style.OUTLINE, width)


def bar(pen: Pen, p: Point, q: Point, half: float, colour: RGB) -> None:
    """A bar across the end of a move stopped on the road."""
    length = max(1e-9, math.dist(p, q))
    nx_, ny_ = -(q[1] - p[1]) / length, (q[0] - p[0]) / length
    a = (q[0] + nx_ * half, q[1] + ny_ * half)
    b = (q[0] - nx_ * half, q[1] - ny_ * half)
    pen.line(a, b, colour, pen.px(4), outline=pen.px(1.5))
