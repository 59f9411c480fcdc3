"""Cities on the map: a square in the owner's colour (dimmed when last seen) with its
designation's letter; another nation's city on a nation's own map inside a ring in the colour
of its relation to the viewer (`canvas.relation_ring`)."""

from __future__ import annotations

from engine.strategic.view import CityView, View
from renderers.palette import RGB
from renderers.strategic import style
from renderers.strategic.canvas import MapCanvas, owner_colour
from renderers.strategic.region import Region, corner_of, corners
from renderers.text import paste


def draw_cities(canvas: MapCanvas, view: View, region: Region, left: int, top: int, detail) -> None:
    c = region.cell
    where = corners(view, region) if detail else None
    for sq, city in view.cities.items():
        pos = where.get(sq) if where is not None else corner_of(view, region, sq)
        if pos is None:
            continue
        x, y = left + pos[0], top + pos[1]
        _city(canvas, view, city, x, y, c, detail)


def ring_width(c: int) -> int:
    """How thick a relation ring is on squares of `c` pixels (0: none fits)."""
    return 0 if c < 6 else max(1, c // 10)


def letter_bottom(c: int, ringed: bool, detail: bool) -> int:
    """Pixels from a city square's top to just under its letter (what is drawn under it
    starts there)."""
    inset = 0 if c < 8 else 1
    rw = ring_width(c) if ringed else 0
    edge = inset + (
        (1 if c >= 10 else 0) + rw + (1 if c >= 10 else 0) if rw else (2 if c >= 16 else 1)
    )
    size = max(10, c // 4) if detail else max(8, int(c * 0.45))
    return edge + 1 + size


def _city(canvas: MapCanvas, view: View, city: CityView, x: int, y: int, c: int, detail) -> None:
    """A city's square but its first row and column (the grid's lines): all of it drawn over,
    so a city of the same look is drawn once a picture and pasted after."""
    fill = owner_colour(view, city.owner, canvas.colours)
    if city.seen == "memory":
        fill = style.dim(fill, 0.7)
    inset = 0 if c < 8 else 1
    ring = canvas.ring(view, city.owner)
    letter = style.DESIGNATION_LETTERS.get(city.designation, city.designation[:1].upper())
    key = ("city", c, bool(detail), fill, ring, letter)
    done = canvas.patches.get(key)
    if done is not None:
        paste(canvas.image, done, x + inset, y + inset)
        return
    _draw_city(canvas, fill, ring, letter, x, y, c, detail)
    canvas.patches[key] = canvas.image.crop((x + inset, y + inset, x + c - inset, y + c - inset))


def _draw_city(
    canvas: MapCanvas, fill: RGB, ring: int | None, letter: str, x: int, y: int, c: int, detail
) -> None:
    inset = 0 if c < 8 else 1
    width = 2 if c >= 16 else 1
    outline = canvas.ink(style.OUTLINE)
    rw = ring_width(c) if ring is not None else 0
    box = (x + inset, y + inset, x + c - 1 - inset, y + c - 1 - inset)
    if rw:  # black, the relation's ring, black, then the owner's colour
        edge = 1 if c >= 10 else 0
        canvas.draw.rectangle(box, fill=ring, outline=outline if edge else None, width=edge)
        step = edge + rw
        box = (box[0] + step, box[1] + step, box[2] - step, box[3] - step)
        width = 1 if c >= 10 else 0
    canvas.draw.rectangle(
        box, fill=canvas.ink(fill), outline=outline if width else None, width=width
    )
    inside = (box[0] + width, box[1] + width, box[2] + 1 - width, box[3] + 1 - width)
    if detail:
        size = max(10, c // 4)
        canvas.text(
            (inside[0] + 2, inside[1] + 1), letter, size, style.text_on(fill), fill, clip=inside
        )
    elif c >= 10:
        size = max(8, int(c * 0.45))
        canvas.text(
            (inside[0] + 1, inside[1]), letter, size, style.text_on(fill), fill, clip=inside
        )
