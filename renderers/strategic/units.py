"""Units on the map: a shape by class (land: a disc, sea: a hull, air: a triangle, tech: a
diamond) in the owner's colour, hollow when last seen, another nation's inside a rim in the
colour of its relation to the viewer; the count where several share a square, hit points left,
out of supply; on zoomed squares a line a unit or a type (`stack_lines`), kept inside its
square."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.strategic.rules import Ruleset
from engine.strategic.rules import load as load_rules
from engine.strategic.view import UnitView, View
from renderers.canvas import Canvas
from renderers.palette import RGB
from renderers.strategic import style
from renderers.strategic.canvas import MapCanvas, owner_colour
from renderers.strategic.cities import letter_bottom, ring_width
from renderers.strategic.region import Region, corner_of, corners
from renderers.text import QUANTISE, Glyphs

_CLASS_ORDER = {"sea": 0, "air": 1, "land": 2, "tech": 3}


@cache
def _classes(ruleset: str) -> dict[str, str]:
    rules = load_rules(ruleset)
    return {ut.name: ut.unit_class.value for ut in rules.units}


def draw_units(
    canvas: MapCanvas,
    view: View,
    rules: Ruleset,
    region: Region,
    left: int,
    top: int,
    detail: bool,
    drawn: set[str],
) -> None:
    by_square: dict[int, list[UnitView]] = {}
    for u in view.units:
        by_square.setdefault(u.sq, []).append(u)
    if not by_square:
        return
    classes = _classes(view.ruleset)
    most_hp = {ut.name: ut.hp for ut in rules.units}
    c = region.cell
    where = corners(view, region) if detail else None
    count_px = max(8, int(c * 0.45))
    outline = canvas.ink(style.OUTLINE)
    for sq, units in by_square.items():
        pos = where.get(sq) if where is not None else corner_of(view, region, sq)
        if pos is None:
            continue
        x, y = left + pos[0], top + pos[1]
        on_city = sq in view.cities
        unsupplied = any(u.supplied is False for u in units)
        if unsupplied and c >= 10:
            drawn.add("supply")
        if detail:
            ringed = on_city and canvas.ring(view, view.cities[sq].owner) is not None
            _unit_list(canvas, view, classes, most_hp, units, x, y, c, (on_city, ringed), drawn)
            if unsupplied:
                b = max(7, c // 5)
                no_supply(canvas, x + c - b - 2, y + 2, b)
            continue
        lead = _lead(units, classes) if len(units) > 1 else units[0]
        cls = classes.get(lead.type, "land")
        colour = canvas.owner(view, lead.owner)
        box: tuple[float, float, float, float]
        if on_city:
            box = (x + c * 0.42, y + c * 0.42, x + c - 1, y + c - 1)
        else:
            pad = max(1, c * 0.14)
            box = (x + pad, y + pad, x + c - 1 - pad, y + c - 1 - pad)
        ghost = lead.seen == "memory"
        ring = None if ghost or c < 12 else canvas.ring(view, lead.owner)
        if ring is not None:  # the relation's rim round another nation's unit
            box = _rimmed(canvas, cls, box, ring, outline, max(1, c // 12))
        unit_shape(canvas, cls, box, colour, outline, ghost=ghost)
        drawn.add(f"{'ghost' if ghost else 'shape'}:{cls}")
        if ghost and c >= 14:  # last seen here: a question mark in the hollow shape
            mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            size = max(8, int((box[2] - box[0]) * 0.7))
            canvas.text_over((mx, my), "?", size, (255, 255, 255), "mm", 1, (0, 0, 0))
        if len(units) > 1 and c >= 12:
            ink: RGB = (255, 255, 255)
            if on_city:  # under the city's letter, left of the unit, on the city's fill
                holder = view.cities[sq].owner
                ringed = canvas.ring(view, holder) is not None
                stamp = _count_stamp(len(units), max(8, int(c * 0.4)))
                ink = style.text_on(owner_colour(view, holder, canvas.colours))
                edge = _city_edge(c, ringed)
                below = letter_bottom(c, ringed, False)
                if c >= 20:  # room under the letter (the stamp's top rows are blank)
                    cx, cy = x + edge + 1, y + max(below, c - edge - stamp.levels.height)
                else:  # a small square: its top right corner, as off a city
                    cx, cy = x + c - edge - stamp.levels.width, y + edge
                canvas.glyphs_over(cx, cy, stamp, ink, (x, y, x + c, y + c))
            else:  # the square's top right corner
                stamp = _count_stamp(len(units), count_px)
                canvas.glyphs_over(x + c - stamp.levels.width, y, stamp, ink)
            drawn.add("count")
        if c >= 10:
            have = most = 0  # hit points of the units whose hit points the nation knows
            for u in units:
                if u.hp is not None and (full := most_hp.get(u.type)):
                    have += u.hp
                    most += full
            if have < most:
                bar_h = max(2, c // 10)
                hp_bar(
                    canvas, int(box[0]), int(box[3]) - bar_h + 1, int(box[2]), bar_h, have / most
                )
                drawn.add("hp")
            if unsupplied:
                no_supply(canvas, int(box[0]) - 1, int(box[1]) - 1, max(7, c // 4))


def _city_edge(c: int, ringed: bool) -> int:
    """Pixels from a city square's edge to its fill (its inset, outline and any ring)."""
    inset = 0 if c < 8 else 1
    if ringed and ring_width(c):
        return inset + (1 if c >= 10 else 0) + ring_width(c) + (1 if c >= 10 else 0)
    return inset + (2 if c >= 16 else 1)


def _rimmed(canvas: Canvas, cls: str, box, ring: int, outline: int, rim: int):
    """The unit's shape drawn `rim` pixels larger in the relation's colour (outlined in black):
    the box left inside it for the unit's own shape."""
    unit_shape(canvas, cls, box, ring, outline, ghost=False)
    if cls == "sea":  # a hull's keel is sharp: its rim is thicker at the bottom
        return (box[0] + rim * 2, box[1] + rim, box[2] - rim * 2, box[3] - rim * 2)
    if cls == "air":
        return (box[0] + rim * 2, box[1] + rim * 2, box[2] - rim * 2, box[3] - rim)
    return (box[0] + rim, box[1] + rim, box[2] - rim, box[3] - rim)


def hp_bar(canvas: Canvas, x0: int, y0: int, x1: int, h: int, share: float) -> None:
    """Hit points left: the white part of a bar on black."""
    draw = canvas.draw
    draw.rectangle((x0, y0, x1, y0 + h), fill=canvas.ink(style.OUTLINE))
    full = x0 + 1 + round((x1 - x0 - 2) * share)
    if full > x0:
        draw.rectangle(
            (x0 + 1, y0 + 1 if h > 2 else y0, full, y0 + h - 1 if h > 2 else y0 + h),
            fill=canvas.ink(style.HP_BAR),
        )


def no_supply(canvas: Canvas, x: int, y: int, b: int) -> None:
    """Out of supply: a white "!" on a black badge, `b` pixels square."""
    draw = canvas.draw
    draw.rectangle((x, y, x + b - 1, y + b - 1), fill=canvas.ink(style.OUTLINE))
    ink = canvas.ink(style.NO_SUPPLY)
    mx = x + b // 2
    w = max(0, b // 8)
    draw.rectangle((mx - w, y + 1, mx + w, y + b - 4), fill=ink)
    draw.rectangle((mx - w, y + b - 2, mx + w, y + b - 2), fill=ink)


@cache
def _count_stamp(n: int, size: int) -> Glyphs:
    """A unit count's anti-aliasing steps (drawn once per number and size, stamped many
    times)."""
    text = str(n) if n < 100 else "99+"
    f = style.font(size)
    _, _, right, bottom = f.getbbox(text)  # whole pixels without a stroke: int() keeps them
    mask = Image.new("L", (int(right) + 2, int(bottom) + 2), 0)
    ImageDraw.Draw(mask).text((1, 0), text, font=f, fill=255)
    return Glyphs.of(mask.point(QUANTISE))


def _lead(units: list[UnitView], classes: dict[str, str]) -> UnitView:
    """The unit that represents a square: seen beats remembered, then by class order."""
    return min(
        units,
        key=lambda u: (
            u.seen == "memory",
            u.carried_by is not None,
            _CLASS_ORDER.get(classes.get(u.type, "land"), 9),
            u.id,
        ),
    )


def unit_shape(
    canvas: Canvas, cls: str, box, colour: int, outline_ink: int, *, ghost: bool
) -> None:
    draw = canvas.draw
    x0, y0, x1, y1 = box
    fill = None if ghost else colour
    outline = colour if ghost else outline_ink
    width = max(1, int((x1 - x0) / 6)) if ghost else 1
    if cls == "land":
        draw.ellipse(box, fill=fill, outline=outline, width=width)
        return
    if cls == "sea":  # a hull: wide top, narrow keel
        mx = (x0 + x1) / 2
        points = [(x0, y0 + (y1 - y0) * 0.25), (x1, y0 + (y1 - y0) * 0.25), (mx, y1)]
    elif cls == "air":
        mx = (x0 + x1) / 2
        points = [(mx, y0), (x1, y1), (x0, y1)]
    else:
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        points = [(mx, y0), (x1, my), (mx, y1), (x0, my)]
    if width > 1:
        _thick_outline(canvas.image, points, outline, width)
    else:
        draw.polygon(points, fill=fill, outline=outline, width=width)


def _thick_outline(
    image: Image.Image, points: list[tuple[float, float]], ink: int, width: int
) -> None:
    """`draw.polygon(points, outline=ink, width=width)`, pixel for pixel, through a mask the size
    of the polygon (Pillow makes a mask the size of the whole picture for a thick outline),
    drawn once for each shape (`_outline_mask`: Pillow draws at the whole pixels under the
    points, so a shape is the same wherever it is)."""
    left = int(min(p[0] for p in points)) - width - 2
    top = int(min(p[1] for p in points)) - width - 2
    right = int(max(p[0] for p in points)) + width + 3
    bottom = int(max(p[1] for p in points)) + width + 3
    corners = tuple((int(x) - left, int(y) - top) for x, y in points)
    image.paste(ink, (left, top), _outline_mask(corners, width, (right - left, bottom - top)))


@lru_cache(maxsize=1024)
def _outline_mask(
    corners: tuple[tuple[int, int], ...], width: int, size: tuple[int, int]
) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).polygon(corners, outline=255, width=width)
    return mask


def stack_lines(units: list[UnitView], room: int) -> list[tuple[UnitView, str]]:
    """What a zoomed square says of its units, at most `room` lines, each with the unit whose
    shape it shows: one line a unit ("inf #12", "tank #7?" when last seen) while they fit,
    else one a type ("inf 4"), the last line joining what is left ("tank 2, eng 1")."""
    units = sorted(units, key=lambda u: (u.seen == "memory", u.id))
    room = max(1, room)
    if len(units) <= room:
        return [
            (u, f"{style.short_name(u.type)} #{u.id}" + ("?" if u.seen == "memory" else ""))
            for u in units
        ]
    groups: dict[tuple[str, str, bool], list[UnitView]] = {}
    for u in units:
        groups.setdefault((u.owner, u.type, u.seen == "memory"), []).append(u)
    parts = [
        (g[0], f"{style.short_name(g[0].type)} {len(g)}" + ("?" if g[0].seen == "memory" else ""))
        for g in groups.values()
    ]
    if len(parts) <= room:
        return parts
    head, rest = parts[: room - 1], parts[room - 1 :]
    return [*head, (rest[0][0], ", ".join(label for _, label in rest))]


def _fitting(label: str, size: int, room: int) -> int:
    """The largest font size down to 8 at which `label` fits in `room` pixels (8 if none: the
    rest is cut at the square's edge)."""
    while size > 8 and style.font(size).getlength(label) > room:
        size -= 1
    return size


def _unit_list(
    canvas: MapCanvas, view, classes, most_hp, units: list[UnitView], x, y, c, on_city, drawn
) -> None:
    """Zoomed pictures: a small shape and a line of text for each unit, or each type when they
    do not fit (`stack_lines`), hit points as a bar under the shape."""
    size = max(10, c // 5)
    line_h = max(11, c // 5 + 2)
    top = y + (letter_bottom(c, on_city[1], True) + 1 if on_city[0] else 2)  # under the letter
    room = max(1, (y + c - 2 - top) // line_h)
    cell_box = (x + 1, y + 1, x + c - 1, y + c - 1)
    white, black = (255, 255, 255), (0, 0, 0)
    outline = canvas.ink(style.OUTLINE)
    lines = stack_lines(units, room)
    if len(lines) < len(units):
        drawn.add("stack")
    for shown, (u, label) in enumerate(lines):
        colour = canvas.owner(view, u.owner)
        ly = top + shown * line_h
        cls = classes.get(u.type, "land")
        ghost = u.seen == "memory"
        box = (x + 2, ly + 1, x + 2 + line_h - 3, ly + line_h - 2)
        ring = None if ghost else canvas.ring(view, u.owner)
        inner = box
        if ring is not None:
            inner = _rimmed(canvas, cls, box, ring, outline, 1)
        unit_shape(canvas, cls, inner, colour, outline, ghost=ghost)
        drawn.add(f"{'ghost' if ghost else 'shape'}:{cls}")
        lx = x + line_h + 1
        fitted = _fitting(label, size, x + c - 3 - lx)
        canvas.text_over((lx, ly), label, fitted, white, None, 2, black, cell_box)
        most = most_hp.get(u.type)
        if len(lines) == len(units) and u.hp is not None and most and u.hp < most:
            hp_bar(canvas, box[0], box[3] - 1, box[2], 2, u.hp / most)
            drawn.add("hp")
