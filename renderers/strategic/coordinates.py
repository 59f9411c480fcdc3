"""The squares' numbers round a map, as players type them: over the columns and beside the
rows, every n-th where they would touch. The same for every picture of a map of a size, so
drawn once per process and pasted."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine.strategic.view import View
from renderers.canvas import Canvas
from renderers.strategic import style
from renderers.strategic.canvas import fixed_palette
from renderers.text import paste


def _label_step(cell: int, digits: int, font_px: int) -> int:
    """Label every n-th line, n a round number, so that labels never touch."""
    need = digits * font_px * 0.7 + 10
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if step * cell >= need:
            return step
    return 200


def left_margin(view: View, font_px: int) -> int:
    digits = len(str(max(view.width, view.height) - 1))
    return int(digits * font_px * 0.62) + 10


def draw_coordinates(canvas: Canvas, view, region, left, top, font_px, detail) -> None:
    """The squares' numbers over the columns and beside the rows: the same for every picture of
    a map of this size, so drawn once (`_coordinate_bands`) and pasted."""
    digits = len(str(view.width - 1))
    key = (tuple(region.cols), tuple(region.rows), region.cell, left, top, font_px, detail)
    for band, mask, (x, y) in _coordinate_bands(*key, digits):
        paste(canvas.image, band, x, y, mask)


@lru_cache(maxsize=32)
def _coordinate_bands(
    cols: tuple[int, ...],
    rows: tuple[int, ...],
    c: int,
    left: int,
    top: int,
    font_px: int,
    detail: bool,
    digits: int,
) -> list[tuple[Image.Image, Image.Image, tuple[int, int]]]:
    """Two bands (over the map, left of it) as palette indices of `fixed_palette`, each with
    the mask of what is drawn on it, and where they go."""
    pal = fixed_palette()
    bg = pal.add(style.BACKGROUND)
    margin_top = font_px + 8
    y0 = top - margin_top
    width, height = left + len(cols) * c + 4 * font_px, top + len(rows) * c + 2 * font_px
    bands = []
    for box in ((0, y0, width, top), (0, y0, left, height)):  # in picture coordinates
        image = Image.new("L", (box[2] - box[0], box[3] - box[1]), bg)
        canvas = Canvas(image, pal)
        ox, oy = box[0], box[1]
        dim = style.TEXT_DIM
        if box[3] == top:
            step = 1 if detail else _label_step(c, digits, font_px)
            tick = pal.add(dim)
            for i, x in enumerate(cols):
                if detail or x % step == 0:
                    cx = left + i * c + c // 2
                    canvas.text(
                        (cx - ox, top - 3 - oy), str(x), font_px, dim, style.BACKGROUND, "mb"
                    )
                    if not detail and c < 8:
                        xl = left + i * c - ox
                        canvas.draw.line((xl, top - 2 - oy, xl, top - 1 - oy), fill=tick)
        else:
            step = 1 if detail else _label_step(c, 1, font_px)
            for j, y in enumerate(rows):
                if detail or y % step == 0:
                    cy = top + j * c + c // 2
                    canvas.text(
                        (left - 4 - ox, cy - oy), str(y), font_px, dim, style.BACKGROUND, "rm"
                    )
        assert len(pal) == len(fixed_palette()), "the coordinates need no other colour"
        mask = image.point([0 if v == bg else 255 for v in range(256)])
        bands.append((image, mask, (ox, oy)))
    return bands
