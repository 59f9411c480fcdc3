"""The star map's picture (`render_star_map`; as PNG bytes, `draw_star_map`): the header, every
known tile as a hex (what it shows, its zone number), unexplored space round them as grey
hatched hexes with a "?", NPC bases, battles, fleets as badges in their owner's colour with
their count, and the legend. What each looks like: the package's docstring."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.caldera.hexes import key_order
from renderers import style
from renderers.caldera import style as cs
from renderers.caldera.layout import (
    LEGEND_COLUMNS,
    Box,
    Layout,
    Point,
    lay_out,
)
from renderers.caldera.view import MapFleet, MapTile, StarMapView
from renderers.canvas import Canvas
from renderers.encoding import png_bytes
from renderers.palette import RGB, Palette

FOG = "fog"  # a place drawn as unexplored space

# what the legend explains, in its order: (what is drawn, its words)
LEGEND: tuple[tuple[str, str], ...] = (
    ("earth", "Earth"),
    ("empty", "empty space"),
    ("half-nebula", "half nebula: moves x2"),
    ("full-nebula", "full nebula: moves x4"),
    ("asteroids", "asteroids: small, average, huge"),
    (FOG, "unexplored space"),
    ("earthlike", "earthlike planet"),
    ("arid", "arid planet"),
    ("cold", "cold planet"),
    ("vulcan", "vulcan planet"),
    ("battle", "battle this turn"),
    ("base", "NPC base"),
    ("zone", "zone the tile is from"),
)


def _fixed_colours() -> list[RGB]:
    return [
        style.BACKGROUND,
        style.TEXT,
        style.TEXT_DIM,
        style.OUTLINE,
        (0, 0, 0),
        (255, 255, 255),
        cs.GRID,
        cs.SPACE,
        cs.STAR,
        cs.FOG,
        cs.FOG_HATCH,
        cs.FOG_MARK,
        cs.HALF_NEBULA,
        cs.FULL_NEBULA,
        cs.EARTH_FILL,
        cs.EARTH,
        cs.EARTH_LAND,
        cs.ROCK,
        cs.ROCK_EDGE,
        *cs.PLANETS.values(),
        cs.ZONE_INK,
        cs.BATTLE,
        cs.HEADER_LINE,
    ]


def owners(view: StarMapView) -> list[tuple[str, RGB, int]]:
    """Each fleet owner, their colour and ships on the map, by name."""
    ships: dict[str, int] = {}
    colours: dict[str, RGB] = {}
    for f in view.fleets:
        ships[f.owner] = ships.get(f.owner, 0) + f.count
        colours.setdefault(f.owner, style.parse_colour(f.colour))
    return [(o, colours[o], ships[o]) for o in sorted(ships)]


def layout_of(view: StarMapView, width: int = cs.WIDTH) -> Layout:
    """Where `render_star_map(view, width=width)` draws each place."""
    return lay_out(view, len(LEGEND), width)


def render_star_map(view: StarMapView, *, width: int = cs.WIDTH) -> Image.Image:
    """The picture ("P" mode) that `draw_star_map` encodes."""
    layout = layout_of(view, width)
    colours = _fixed_colours()
    colours += [c for _, c, _ in owners(view)]
    colours += sorted({style.parse_colour(b.colour) for b in view.bases})
    pal = Palette(colours)
    cv = Canvas(Image.new("L", (layout.width, layout.height), pal.add(style.BACKGROUND)), pal)
    r = layout.radius
    known = view.known()

    for place in view.unexplored():
        _hexagon(cv, layout.centres[place], r, FOG)
    for place, tile in sorted(known.items(), key=lambda kv: key_order(kv[0])):
        _hexagon(cv, layout.centres[place], r, tile)
    zone_px = max(15, round(0.3 * r))
    for place, tile in known.items():  # on the tile's plain fill
        cx, cy = layout.centres[place]
        spot = (round(cx), round(cy - 0.62 * r))
        cv.text(spot, str(tile.zone), zone_px, cs.ZONE_INK, _fill_of(tile.kind, tile), "mm")
    for base in sorted(view.bases, key=lambda b: (key_order(b.place), b.label)):
        if base.place in layout.centres:
            _base(cv, layout.centres[base.place], r, base.label, style.parse_colour(base.colour))
    for place in sorted(set(view.battles), key=key_order):
        if place in layout.centres:
            cx, cy = layout.centres[place]
            _burst(cv, (cx + 0.52 * r, cy - 0.48 * r), max(11.0, 0.26 * r))
    at: dict[str, list[MapFleet]] = {}
    for f in view.fleets:
        if f.place in layout.centres and f.count > 0:
            at.setdefault(f.place, []).append(f)
    for place in sorted(at, key=key_order):
        _fleets(cv, layout, place, sorted(at[place], key=lambda f: f.owner))

    _header(cv, view, layout)
    _legend(cv, view, layout)
    return cv.finish()


def draw_star_map(view: StarMapView, *, width: int = cs.WIDTH) -> bytes:
    """The star map as PNG bytes, `width` pixels wide (its height follows the map)."""
    return png_bytes(render_star_map(view, width=width))


# --- a hex and what it shows ---------------------------------------------------------------


def _corners(c: Point, r: float) -> list[Point]:
    return [
        (c[0] + r * math.cos(math.pi / 3 * k), c[1] + r * math.sin(math.pi / 3 * k))
        for k in range(6)
    ]


def _fill_of(what: str, tile: MapTile | None) -> RGB:
    if what == FOG:
        return cs.FOG
    if what == "earth":
        return cs.EARTH_FILL
    nebula = tile.nebula if tile is not None else None
    if what == "half-nebula" or nebula == "half-nebula":
        return cs.HALF_NEBULA
    if what == "full-nebula" or nebula == "full-nebula":
        return cs.FULL_NEBULA
    return cs.SPACE


def _hexagon(
    cv: Canvas, c: Point, r: float, tile: MapTile | str, edge: bool = True, zoom: float = 1.0
) -> None:
    """A hex and what it shows: a tile, unexplored space (FOG), or a legend's sample (a kind,
    or a planet type; what it shows `zoom` times larger)."""
    t = tile if isinstance(tile, MapTile) else None
    what = t.kind if t is not None else str(tile)
    if what in cs.PLANETS:  # a legend's planet sample
        t, what = MapTile("", "planet", planet=what), "planet"
    fill = _fill_of(what, t)
    points = _corners(c, r)
    cv.draw.polygon(points, fill=cv.ink(fill))
    q = r * zoom  # what the tile shows is drawn for hexes of this radius
    if what == FOG:
        _hatch(cv, c, r)
        mark = max(13, round(0.42 * r))
        cv.text_over((round(c[0]), round(c[1])), "?", mark, cs.FOG_MARK, "mm")
    elif what == "empty":
        for dx, dy in ((-0.45, -0.2), (0.38, -0.05), (-0.1, 0.32), (0.2, 0.55)):
            x, y = c[0] + dx * r, c[1] + dy * r
            cv.draw.rectangle((x, y, x + max(1, r / 30), y + max(1, r / 30)), fill=cv.ink(cs.STAR))
    elif what == "earth":
        g = 0.3 * q
        cv.draw.ellipse((c[0] - g, c[1] - g, c[0] + g, c[1] + g), fill=cv.ink(cs.EARTH))
        cv.draw.ellipse(
            (c[0] - 0.55 * g, c[1] - 0.5 * g, c[0] + 0.15 * g, c[1] + 0.3 * g),
            fill=cv.ink(cs.EARTH_LAND),
        )
        cv.draw.ellipse(
            (c[0] - g, c[1] - g, c[0] + g, c[1] + g), outline=cv.ink(style.OUTLINE), width=2
        )
    elif what == "asteroids":
        sizes = t.asteroids if t is not None else ("small", "average", "huge")
        _rocks(cv, c, q, sizes)
    elif what == "planet" and t is not None and t.planet is not None:
        colour = cs.PLANETS.get(t.planet, style.NEUTRAL)
        g = 0.28 * q
        cv.draw.ellipse(
            (c[0] - g, c[1] - g, c[0] + g, c[1] + g),
            fill=cv.ink(colour),
            outline=cv.ink(style.OUTLINE),
            width=max(1, round(q / 30)),
        )
        letter = cs.PLANET_LETTERS.get(t.planet, "?")
        cv.text(c, letter, max(11, round(0.3 * q)), style.text_on(colour), colour, "mm")
    if edge:
        cv.draw.polygon(points, outline=cv.ink(cs.GRID), width=max(1, round(r / 30)))


def _hatch(cv: Canvas, c: Point, r: float) -> None:
    """Unexplored space's diagonal lines, kept inside the hex (the same stamp for every
    unexplored hex of a picture)."""
    part, mask = _hatch_stamp(r, cv.ink(cs.FOG), cv.ink(cs.FOG_HATCH))
    cv.image.paste(part, (round(c[0] - r) - 1, round(c[1] - r) - 1), mask)


@lru_cache(maxsize=64)
def _hatch_stamp(r: float, fog: int, hatch: int) -> tuple[Image.Image, Image.Image]:
    size = math.ceil(2 * r) + 3
    part = Image.new("L", (size, size), fog)
    mask = Image.new("L", (size, size), 0)
    step = max(5, round(r / 5))
    draw = ImageDraw.Draw(part)
    for k in range(-size, size, step):
        draw.line(((k, size), (k + size, 0)), fill=hatch, width=max(1, round(r / 25)))
    ImageDraw.Draw(mask).polygon(_corners((r + 1, r + 1), r - 1), fill=255)
    return part, mask


def _rocks(cv: Canvas, c: Point, r: float, sizes: Sequence[str]) -> None:
    """The asteroids side by side, largest in the middle."""
    radii = [cs.ROCK_SIZES.get(s, 0.12) * r for s in sizes]
    gap = 0.06 * r
    total = sum(2 * g for g in radii) + gap * (len(radii) - 1)
    x = c[0] - total / 2
    for k, g in enumerate(radii):
        cx = x + g
        cy = c[1] + (0.06 * r if k % 2 else -0.04 * r)
        cv.draw.ellipse(
            (cx - g, cy - g * 0.85, cx + g, cy + g * 0.85),
            fill=cv.ink(cs.ROCK),
            outline=cv.ink(cs.ROCK_EDGE),
            width=max(1, round(r / 28)),
        )
        x += 2 * g + gap


def _burst(cv: Canvas, c: Point, r: float) -> None:
    """A battle: an orange star."""
    points = []
    for k in range(16):
        angle = math.pi * k / 8 + math.pi / 16
        rr = r if k % 2 == 0 else r * 0.5
        points.append((c[0] + rr * math.cos(angle), c[1] + rr * math.sin(angle)))
    cv.draw.polygon(points, fill=cv.ink(cs.BATTLE), outline=cv.ink(style.OUTLINE), width=2)


def _base(cv: Canvas, c: Point, r: float, label: str, colour: RGB) -> None:
    """An NPC's base: a ring round the tile in its colour and its short name on a tag."""
    g = 0.4 * r
    cv.draw.ellipse(
        (c[0] - g, c[1] - g, c[0] + g, c[1] + g),
        outline=cv.ink(colour),
        width=max(2, round(r / 14)),
    )
    size = max(13, round(0.26 * r))
    w = style.font(size).getlength(label) + 8
    h = size + 6
    x, y = c[0] - 0.62 * r, c[1] - 0.08 * r
    box = (round(x - w / 2), round(y - h / 2), round(x + w / 2), round(y + h / 2))
    cv.draw.rounded_rectangle(box, radius=3, fill=cv.ink(colour), outline=cv.ink(style.OUTLINE))
    cv.text(
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
        label,
        size,
        style.text_on(colour),
        colour,
        "mm",
    )


# --- fleets ---------------------------------------------------------------------------------


def fleet_boxes(layout: Layout, place: str, fleets: Sequence[MapFleet]) -> list[Box]:
    """Where each fleet's badge at a place is drawn (in the order given): side by side at the
    bottom of the hex, as many to a row as its width holds, more rows above it."""
    r = layout.radius
    size = _badge_px(r)
    h = size + 6
    widths = [round(style.font(size).getlength(str(f.count)) + 12) for f in fleets]
    rows: list[list[int]] = []
    for w in widths:
        if rows and sum(rows[-1]) + 3 * len(rows[-1]) + w <= 1.5 * r:
            rows[-1].append(w)
        else:
            rows.append([w])
    boxes = []
    x_mid, cy = layout.centres[place]
    y_mid = cy + min(0.6 * r, 0.866 * r - h / 2 - 1)  # below the tile's middle, inside it
    for k, row in enumerate(rows):
        total = sum(row) + 3 * (len(row) - 1)
        x = round(x_mid - total / 2)
        y = round(y_mid - h / 2 - k * (h + 2))
        for w in row:
            boxes.append((x, y, x + w, y + h))
            x += w + 3
    return boxes


def _badge_px(r: float) -> int:
    return max(15, round(0.3 * r))


def _fleets(cv: Canvas, layout: Layout, place: str, fleets: Sequence[MapFleet]) -> None:
    size = _badge_px(layout.radius)
    for f, box in zip(fleets, fleet_boxes(layout, place, fleets), strict=True):
        colour = style.parse_colour(f.colour)
        cv.draw.rounded_rectangle(
            box, radius=4, fill=cv.ink(colour), outline=cv.ink(cs.BADGE_EDGE), width=2
        )
        cv.text(
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            str(f.count),
            size,
            style.text_on(colour),
            colour,
            "mm",
        )


# --- header and legend ----------------------------------------------------------------------


def _header(cv: Canvas, view: StarMapView, layout: Layout) -> None:
    bg = style.BACKGROUND
    px = layout.px
    cv.text((px(12), px(22)), view.title, max(12, px(26)), style.TEXT, bg, "lm")
    if view.subtitle:
        cv.text((px(12), px(52)), view.subtitle, max(10, px(17)), style.TEXT_DIM, bg, "lm")
    line = layout.header
    cv.draw.line(((0, line), (layout.width, line)), fill=cv.ink(cs.HEADER_LINE))


def _legend(cv: Canvas, view: StarMapView, layout: Layout) -> None:
    bg = style.BACKGROUND
    px = layout.px
    top = layout.legend_top
    cv.draw.line(((0, top), (layout.width, top)), fill=cv.ink(cs.HEADER_LINE))
    col = (layout.width - px(20)) / LEGEND_COLUMNS
    font = max(10, px(15))
    ir = 15.0 * layout.scale  # a sample's radius
    for i, (what, words) in enumerate(LEGEND):
        x = px(10) + (i % LEGEND_COLUMNS) * col
        y = top + px(6) + (i // LEGEND_COLUMNS) * layout.row
        c = (x + ir, y + ir)
        if what == "battle":
            _burst(cv, c, ir * 0.9)
        elif what == "base":
            _hexagon(cv, c, ir, "empty", edge=False)
            g = 0.55 * ir
            ring = (c[0] - g, c[1] - g, c[0] + g, c[1] + g)
            cv.draw.ellipse(ring, outline=cv.ink(style.TEXT), width=max(2, px(3)))
        elif what == "zone":
            cv.text_over(c, "2", font, cs.ZONE_INK, "mm", 2, (0, 0, 0))
        else:
            _hexagon(cv, c, ir, what, zoom=2.4 if what in ("earth", *cs.PLANETS) else 1.4)
        cv.text(
            (x + 2 * ir + px(8), c[1]),
            _fit(words, font, col - 2 * ir - px(14)),
            font,
            style.TEXT,
            bg,
            "lm",
        )
    y0 = top + px(8) + -(-len(LEGEND) // LEGEND_COLUMNS) * layout.row
    for i, (owner, colour, ships) in enumerate(owners(view)):
        x = px(10) + (i % LEGEND_COLUMNS) * col
        y = y0 + (i // LEGEND_COLUMNS) * layout.row
        box = (round(x), round(y + 2), round(x + 2 * ir), round(y + 2 * ir))
        cv.draw.rounded_rectangle(
            box, radius=4, fill=cv.ink(colour), outline=cv.ink(cs.BADGE_EDGE), width=2
        )
        tail = f": {ships} ship{'s' if ships != 1 else ''}"
        words = _fit(owner, font, col - 2 * ir - px(14), tail) + tail
        cv.text((x + 2 * ir + px(8), y + ir + 1), words, font, style.TEXT, bg, "lm")


def _fit(text: str, font: int, room: float, tail: str = "") -> str:
    """`text`, cut short with a "." when it and `tail` are wider than `room`."""
    cut = text
    while len(cut) > 1 and style.font(font).getlength(cut + tail) > room:
        cut = cut[:-1]
    return text if cut == text else cut[:-1] + "."
