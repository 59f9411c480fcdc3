"""Map pictures from a nation's View (never from the world: what is not in the view cannot be
drawn).

`render_map(view)` draws the whole map: terrain (water, land, coast), fog (never seen: dark;
remembered: dimmed, with the cities and units as last seen; in sight: clear), cities by owner
colour and designation, units by class in their owner's colour with a count where several share
a square, markers for what happened, coordinates on the edges as players type them, a title line
and a legend. `render_crop(view, centre, radius)` draws a window around a square, larger, with
unit ids.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from PIL import Image, ImageDraw

from engine.rules import Ruleset
from engine.rules import load as load_rules
from engine.view import CityView, UnitView, View

from . import style
from .markers import Marker

_CLASS_ORDER = {"sea": 0, "air": 1, "land": 2, "tech": 3}


@dataclass(frozen=True)
class Region:
    """The squares a picture shows: rows and columns of the map (they may wrap)."""

    rows: list[int]
    cols: list[int]
    cell: int

    @property
    def width_px(self) -> int:
        return len(self.cols) * self.cell

    @property
    def height_px(self) -> int:
        return len(self.rows) * self.cell


def render_map(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int | None = None,
    legend: bool = True,
) -> Image.Image:
    c = cell or style.cell_size(view.width, view.height)
    region = Region(list(range(view.height)), list(range(view.width)), c)
    return _picture(view, region, title=title, markers=markers, detail=False, legend=legend)


def render_crop(
    view: View,
    centre: int,
    radius: int,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int = 60,
) -> Image.Image:
    radius = max(1, min(radius, max(view.width, view.height) // 2))
    cx, cy = centre % view.width, centre // view.width
    cols = _span(cx, radius, view.width)
    rows = _span(cy, radius, view.height)
    region = Region(rows, cols, cell)
    return _picture(view, region, title=title, markers=markers, detail=True, legend=True)


def png_bytes(image: Image.Image, *, compress_level: int = 6) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()


# --- layout -----------------------------------------------------------------------------------


def _span(centre: int, radius: int, size: int) -> list[int]:
    if 2 * radius + 1 >= size:
        return list(range(size))
    return [(centre + d) % size for d in range(-radius, radius + 1)]


def _label_step(cell: int, digits: int, font_px: int) -> int:
    """Label every n-th line, n a round number, so that labels never touch."""
    need = digits * font_px * 0.7 + 10
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if step * cell >= need:
            return step
    return 200


def _picture(
    view: View,
    region: Region,
    *,
    title: str,
    markers: Sequence[Marker],
    detail: bool,
    legend: bool,
) -> Image.Image:
    rules = load_rules(view.ruleset)
    font_px = 14 if region.cell >= 8 else 12
    label_font = style.font(font_px)
    digits = len(str(max(view.width, view.height) - 1))
    margin_left = int(digits * font_px * 0.62) + 10
    margin_top = font_px + 8
    title_h = 2 * (font_px + 6) + 8
    top = title_h + margin_top
    map_w, map_h = region.width_px, region.height_px
    legend_img = _legend(view, rules, max(map_w + margin_left, 640)) if legend else None
    width = max(margin_left + map_w + 8, legend_img.width if legend_img else 0)
    height = top + map_h + 8 + (legend_img.height if legend_img else 0)
    canvas = Image.new("RGB", (width, height), style.BACKGROUND)

    canvas.paste(_terrain_pixels(view, region), (margin_left, top))
    draw = ImageDraw.Draw(canvas)
    _title(draw, view, title, font_px)
    _coordinates(draw, view, region, margin_left, top, label_font, font_px, detail)
    _draw_cities(draw, view, region, margin_left, top, detail)
    _draw_units(draw, view, region, margin_left, top, detail)
    _draw_markers(draw, view, region, margin_left, top, markers)
    if legend_img is not None:
        canvas.paste(legend_img, (0, top + map_h + 8))
    canvas.info["origin"] = (margin_left, top)  # pixel of the region's first square
    canvas.info["region"] = region
    return canvas


def square_box(image: Image.Image, view: View, sq: int) -> tuple[int, int, int, int] | None:
    """The pixel box (left, top, right, bottom; exclusive) of a square on a picture made by
    this module, or None when the picture does not show it."""
    region: Region = image.info["region"]
    left, top = image.info["origin"]
    x, y = sq % view.width, sq // view.width
    if x not in region.cols or y not in region.rows:
        return None
    c = region.cell
    i, j = region.cols.index(x), region.rows.index(y)
    return (left + i * c, top + j * c, left + (i + 1) * c, top + (j + 1) * c)


# --- terrain and fog -------------------------------------------------------------------------


def _terrain_pixels(view: View, region: Region) -> Image.Image:
    h, w = view.height, view.width
    terrain = view.terrain.reshape(h, w)
    visible = view.visible.reshape(h, w)
    # 0 never seen, 1 water, 2 land, 3 waste, 4 coast (known land next to known water)
    codes = terrain.astype(np.uint8).copy()
    water = terrain == 1
    near_water = np.zeros_like(water)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                near_water |= np.roll(np.roll(water, dy, axis=0), dx, axis=1)
    codes[(terrain == 2) & near_water] = 4
    ix = np.ix_(region.rows, region.cols)
    codes = codes[ix]
    seen_now = visible[ix]
    palette = np.array(
        [style.NEVER_SEEN, style.WATER, style.LAND, style.WASTE, style.COAST], dtype=np.uint8
    )
    dimmed = np.array([style.NEVER_SEEN] + [style.dim(c) for c in palette[1:].tolist()], np.uint8)
    lookup = np.concatenate([dimmed, palette])  # index: code + 5 * in sight
    small = lookup[codes + 5 * seen_now.astype(np.uint8)]
    c = region.cell
    big = Image.fromarray(small).resize((small.shape[1] * c, small.shape[0] * c), Image.NEAREST)
    if c < 8:
        return big
    pixels = np.array(big)  # faint grid lines: the first row and column of each square darker
    pixels[::c] = style.grid_line_array(pixels[::c])
    pixels[:, ::c] = style.grid_line_array(pixels[:, ::c])
    return Image.fromarray(pixels)


# --- text ------------------------------------------------------------------------------------


def _title(draw: ImageDraw.ImageDraw, view: View, title: str, font_px: int) -> None:
    big = style.font(font_px + 2)
    me = view.nations.get(view.nation)
    if me is None:  # the full view (moderators, timelapses)
        line1 = f"{title} - everything" if title else "everything"
        draw.text((6, 6), line1, font=big, fill=style.TEXT)
        counts = {n: 0 for n in view.nations}
        for c in view.cities.values():
            if c.owner in counts:
                counts[c.owner] += 1
        line2 = f"{view.clock} (tick {view.tick})   " + "   ".join(
            f"{view.nations[n].name} {k}" for n, k in sorted(counts.items(), key=lambda i: -i[1])
        )
        draw.text((6, 12 + font_px), line2[:200], font=style.font(font_px), fill=style.TEXT_DIM)
        return
    s = view.status
    line1 = f"{title} - {me.name}" if title else me.name
    draw.rectangle((6, 8, 6 + font_px, 8 + font_px), fill=style.parse_colour(me.colour))
    draw.text((12 + font_px, 6), line1, font=big, fill=style.TEXT)
    line2 = (
        f"{view.clock} (tick {view.tick})   tech {s.tech:.2f}   command points {s.cp}"
        f" (+{s.cp_regen}/h)   power {s.power}/{s.power_limit}   cities {s.cities}"
        f"   units {s.units}"
    )
    draw.text((6, 12 + font_px), line2, font=style.font(font_px), fill=style.TEXT_DIM)


def _coordinates(draw, view, region, left, top, font, font_px, detail) -> None:
    c = region.cell
    step = 1 if detail else _label_step(c, len(str(view.width - 1)), font_px)
    for i, x in enumerate(region.cols):
        if detail or x % step == 0:
            cx = left + i * c + c // 2
            draw.text((cx, top - 3), str(x), font=font, fill=style.TEXT_DIM, anchor="mb")
            if not detail and c < 8:
                draw.line((left + i * c, top - 2, left + i * c, top - 1), fill=style.TEXT_DIM)
    step = 1 if detail else _label_step(c, 1, font_px)
    for j, y in enumerate(region.rows):
        if detail or y % step == 0:
            cy = top + j * c + c // 2
            draw.text((left - 4, cy), str(y), font=font, fill=style.TEXT_DIM, anchor="rm")


# --- cities, units, markers ------------------------------------------------------------------


def _positions(view: View, region: Region) -> dict[int, tuple[int, int]]:
    """Map square -> pixel of its top-left corner, for the squares in the region."""
    out = {}
    c = region.cell
    w = view.width
    for j, y in enumerate(region.rows):
        for i, x in enumerate(region.cols):
            out[y * w + x] = (i * c, j * c)
    return out


def _owner_colour(view: View, owner: str | None) -> tuple[int, int, int]:
    if owner is None or owner not in view.nations:
        return style.NEUTRAL
    return style.parse_colour(view.nations[owner].colour)


def _draw_cities(draw, view: View, region: Region, left: int, top: int, detail: bool) -> None:
    c = region.cell
    where = _positions(view, region) if detail else None
    for sq, city in view.cities.items():
        pos = where.get(sq) if where is not None else _pos(view, region, sq)
        if pos is None:
            continue
        x, y = left + pos[0], top + pos[1]
        _city(draw, view, city, x, y, c, detail)


def _pos(view: View, region: Region, sq: int) -> tuple[int, int] | None:
    x, y = sq % view.width, sq // view.width
    try:
        i = region.cols.index(x) if len(region.cols) != view.width else x
        j = region.rows.index(y) if len(region.rows) != view.height else y
    except ValueError:
        return None
    return i * region.cell, j * region.cell


def _city(draw, view: View, city: CityView, x: int, y: int, c: int, detail: bool) -> None:
    fill = _owner_colour(view, city.owner)
    if city.seen == "memory":
        fill = style.dim(fill, 0.7)
    inset = 0 if c < 8 else 1
    draw.rectangle(
        (x + inset, y + inset, x + c - 1 - inset, y + c - 1 - inset),
        fill=fill,
        outline=style.OUTLINE,
        width=2 if c >= 16 else 1,
    )
    letter = style.DESIGNATION_LETTERS.get(city.designation, city.designation[:1].upper())
    if detail:
        f = style.font(max(10, c // 4))
        draw.text((x + 4, y + 3), letter, font=f, fill=style.text_on(fill))
    elif c >= 10:
        f = style.font(max(8, int(c * 0.5)))
        draw.text((x + 2, y + 1), letter, font=f, fill=style.text_on(fill))


def _draw_units(draw, view: View, region: Region, left: int, top: int, detail: bool) -> None:
    by_square: dict[int, list[UnitView]] = {}
    for u in view.units:
        by_square.setdefault(u.sq, []).append(u)
    if not by_square:
        return
    rules = load_rules(view.ruleset)
    c = region.cell
    where = _positions(view, region) if detail else None
    count_px = max(8, int(c * 0.45))
    for sq, units in by_square.items():
        pos = where.get(sq) if where is not None else _pos(view, region, sq)
        if pos is None:
            continue
        x, y = left + pos[0], top + pos[1]
        on_city = sq in view.cities
        if detail:
            _unit_list(draw, view, rules, units, x, y, c, on_city)
            continue
        lead = _lead(units, rules)
        cls = _class_of(rules, lead.type)
        colour = _owner_colour(view, lead.owner)
        if on_city:
            box = (x + c * 0.42, y + c * 0.42, x + c - 1, y + c - 1)
        else:
            pad = max(1, c * 0.14)
            box = (x + pad, y + pad, x + c - 1 - pad, y + c - 1 - pad)
        _shape(draw, cls, box, colour, ghost=lead.seen == "memory")
        if len(units) > 1 and c >= 12:
            stamp = _count_stamp(len(units), count_px)
            draw.bitmap((x + c - stamp.width, y), stamp, fill=(255, 255, 255))


@cache
def _count_stamp(n: int, size: int) -> Image.Image:
    """A unit count as a one-bit mask (drawn once per number and size, stamped many times)."""
    text = str(n) if n < 100 else "99+"
    f = style.font(size)
    left, top, right, bottom = f.getbbox(text)
    mask = Image.new("L", (right + 2, bottom + 2), 0)
    ImageDraw.Draw(mask).text((1, 0), text, font=f, fill=255)
    return mask


def _lead(units: list[UnitView], rules: Ruleset) -> UnitView:
    """The unit that represents a square: seen beats remembered, then by class order."""
    return min(
        units,
        key=lambda u: (
            u.seen == "memory",
            u.carried_by is not None,
            _CLASS_ORDER.get(_class_of(rules, u.type), 9),
            u.id,
        ),
    )


def _class_of(rules: Ruleset, type_name: str) -> str:
    ut = rules.unit.get(type_name)
    return ut.unit_class.value if ut is not None else "land"


def _shape(draw, cls: str, box, colour, *, ghost: bool) -> None:
    x0, y0, x1, y1 = box
    fill = None if ghost else colour
    outline = colour if ghost else style.OUTLINE
    width = max(1, int((x1 - x0) / 6)) if ghost else 1
    if cls == "land":
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    elif cls == "sea":  # a hull: wide top, narrow keel
        mx = (x0 + x1) / 2
        points = [(x0, y0 + (y1 - y0) * 0.25), (x1, y0 + (y1 - y0) * 0.25), (mx, y1)]
        draw.polygon(points, fill=fill, outline=outline, width=width)
    elif cls == "air":
        mx = (x0 + x1) / 2
        draw.polygon([(mx, y0), (x1, y1), (x0, y1)], fill=fill, outline=outline, width=width)
    else:
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        draw.polygon(
            [(mx, y0), (x1, my), (mx, y1), (x0, my)], fill=fill, outline=outline, width=width
        )


def _unit_list(draw, view, rules, units: list[UnitView], x, y, c, on_city) -> None:
    """Zoomed pictures: a small shape and 'type id' lines for the units on a square."""
    units = sorted(units, key=lambda u: (u.seen == "memory", u.id))
    f = style.font(max(9, c // 5))
    line_h = max(10, c // 5 + 2)
    top = y + (c // 4 + 2 if on_city else 2)
    room = max(1, (y + c - 2 - top) // line_h)
    for shown, u in enumerate(units):
        if shown == room - 1 and len(units) > room:
            draw.text(
                (x + 3, top + shown * line_h),
                f"+{len(units) - shown} more",
                font=f,
                fill=(255, 255, 255),
                stroke_width=2,
                stroke_fill=(0, 0, 0),
            )
            break
        colour = _owner_colour(view, u.owner)
        ly = top + shown * line_h
        _shape(
            draw,
            _class_of(rules, u.type),
            (x + 2, ly + 1, x + 2 + line_h - 3, ly + line_h - 2),
            colour,
            ghost=u.seen == "memory",
        )
        label = f"{style.short_name(u.type)} {u.id}" + ("?" if u.seen == "memory" else "")
        draw.text(
            (x + line_h + 1, ly),
            label,
            font=f,
            fill=(255, 255, 255),
            stroke_width=2,
            stroke_fill=(0, 0, 0),
        )


def _draw_markers(draw, view: View, region: Region, left: int, top: int, markers) -> None:
    c = region.cell
    for m in markers:
        pos = _pos(view, region, m.sq)
        if pos is None:
            continue
        colour = style.MARKER_COLOURS.get(m.kind, (255, 0, 0))
        cx, cy = left + pos[0] + c / 2, top + pos[1] + c / 2
        r = max(c * 0.8, 6) + m.radius * c
        width = max(2, c // 10)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=width)
        if m.kind in ("attack", "lost"):  # ticks outside the ring, leaving the square clear
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                draw.line(
                    (cx + dx * r * 0.75, cy + dy * r * 0.75, cx + dx * r * 1.2, cy + dy * r * 1.2),
                    fill=colour,
                    width=width,
                )


# --- legend ----------------------------------------------------------------------------------


def _legend(view: View, rules: Ruleset, width: int) -> Image.Image:
    font_px = 13
    f = style.font(font_px)
    items: list[tuple[str, object]] = [
        ("in sight", ("swatch", style.LAND)),
        ("remembered", ("swatch", style.dim(style.LAND))),
        ("never seen", ("swatch", style.NEVER_SEEN)),
        ("water", ("swatch", style.WATER)),
        ("coast", ("swatch", style.COAST)),
        ("land unit", ("shape", "land")),
        ("ship", ("shape", "sea")),
        ("aircraft", ("shape", "air")),
        ("last seen", ("ghost", "land")),
    ]
    for ct in rules.cities:
        letter = style.DESIGNATION_LETTERS.get(ct.name, ct.name[:1].upper())
        items.append((ct.title.lower(), ("city", letter)))
    for kind in ("attack", "capture", "interception", "blast", "lost"):
        items.append((kind if kind != "lost" else "unit lost", ("marker", kind)))
    nations = []
    for n in view.nations.values():
        if view.nation not in view.nations:  # the full view: no relations to show
            nations.append((n.name, ("city_colour", style.parse_colour(n.colour))))
            continue
        rel = "you" if n.id == view.nation else n.relation_to.replace("_", " ")
        if n.id != view.nation and n.relation_from != n.relation_to:
            rel += f" (they: {n.relation_from.replace('_', ' ')})"
        if n.out:
            rel += ", out"
        nations.append((f"{n.name}: {rel}", ("city_colour", style.parse_colour(n.colour))))
    nations.append(("neutral", ("city_colour", style.NEUTRAL)))

    col_w = 150
    per_row = max(1, (width - 12) // col_w)
    rows = -(-len(items) // per_row) + -(-len(nations) // max(1, per_row // 2))
    row_h = font_px + 8
    img = Image.new("RGB", (width, rows * row_h + 10), style.BACKGROUND)
    draw = ImageDraw.Draw(img)
    s = font_px
    for i, (label, (kind, arg)) in enumerate(items):
        x = 8 + (i % per_row) * col_w
        y = 4 + (i // per_row) * row_h
        box = (x, y + 1, x + s, y + 1 + s)
        if kind == "swatch":
            draw.rectangle(box, fill=arg, outline=(90, 90, 90))
        elif kind in ("shape", "ghost"):
            draw.rectangle(box, fill=style.LAND)
            _shape(
                draw,
                arg,
                (x + 2, y + 3, x + s - 2, y + s - 1),
                (200, 60, 60),
                ghost=kind == "ghost",
            )
        elif kind == "city":
            draw.rectangle(box, fill=style.NEUTRAL, outline=style.OUTLINE)
            draw.text(
                (x + s / 2, y + 1 + s / 2), arg, font=style.font(11), fill=(0, 0, 0), anchor="mm"
            )
        elif kind == "marker":
            colour = style.MARKER_COLOURS[arg]
            draw.ellipse(box, outline=colour, width=2)
        draw.text((x + s + 5, y), label, font=f, fill=style.TEXT)
    base = 4 + (-(-len(items) // per_row)) * row_h
    wide = col_w * 2
    per_row_n = max(1, (width - 12) // wide)
    for i, (label, (_, colour)) in enumerate(nations):
        x = 8 + (i % per_row_n) * wide
        y = base + (i // per_row_n) * row_h
        draw.rectangle((x, y + 1, x + s, y + 1 + s), fill=colour, outline=style.OUTLINE)
        draw.text((x + s + 5, y), label[:34], font=f, fill=style.TEXT)
    return img
