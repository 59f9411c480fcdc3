"""Cities on the map: a square in the owner's colour (dimmed when last seen) with its
designation's letter."""

from __future__ import annotations

from engine.strategic.view import CityView, View
from renderers.strategic import style
from renderers.strategic.canvas import MapCanvas, owner_colour
from renderers.strategic.region import Region, corner_of, corners


def draw_cities(canvas: MapCanvas, view: View, region: Region, left: int, top: int, detail) -> None:
    c = region.cell
    where = corners(view, region) if detail else None
    for sq, city in view.cities.items():
        pos = where.get(sq) if where is not None else corner_of(view, region, sq)
        if pos is None:
            continue
        x, y = left + pos[0], top + pos[1]
        _city(canvas, view, city, x, y, c, detail)


def _city(canvas: MapCanvas, view: View, city: CityView, x: int, y: int, c: int, detail) -> None:
    fill = owner_colour(view, city.owner, canvas.colours)
    if city.seen == "memory":
        fill = style.dim(fill, 0.7)
    inset = 0 if c < 8 else 1
    width = 2 if c >= 16 else 1
    canvas.draw.rectangle(
        (x + inset, y + inset, x + c - 1 - inset, y + c - 1 - inset),
        fill=canvas.ink(fill),
        outline=canvas.ink(style.OUTLINE),
        width=width,
    )
    letter = style.DESIGNATION_LETTERS.get(city.designation, city.designation[:1].upper())
    inside = (x + inset + width, y + inset + width, x + c - inset - width, y + c - inset - width)
    if detail:
        size = max(10, c // 4)
        canvas.text((x + 4, y + 3), letter, size, style.text_on(fill), fill, clip=inside)
    elif c >= 10:
        size = max(8, int(c * 0.5))
        canvas.text((x + 2, y + 1), letter, size, style.text_on(fill), fill, clip=inside)
