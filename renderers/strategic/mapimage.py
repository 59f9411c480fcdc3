"""Map pictures from a nation's View (never from the world: what is not in the view cannot be
drawn). `docs/PICTURES.md` is the player's guide to them.

`render_focus(view)` is what a player is shown by default: the part of the map the nation has
something in (its cities and units and a margin; with markers, the squares where things happened
and the nation's own things near them), at about `FOCUS_WIDTH` pixels across, which Discord shows
without shrinking. `render_map(view)` draws the whole board: terrain (water, land, coast), fog
(never seen: dark; remembered: dimmed, with the cities and units as last seen; in sight: clear),
cities by owner and designation, units by class with a count where several share a square, hit
points, supply, standing orders, markers for what happened, coordinates on the edges as players
type them, a header and a legend of what is drawn. `render_crop(view, centre, radius)` draws a
window around a square. Squares of 40 pixels and more list their units by type and id.

Owners are coloured by relation on a nation's own map (`colours="relation"`: you, allied,
friendly, neutral, war) or by each nation's colour (`colours="nation"`; the full view has no
relations and always uses them).

Pictures are palette images ("P", at most 256 colours), drawn as palette indices from the
start (the kit's `renderers.palette`): the project's colours (`style`, the nations' colours) are
registered first and are exact (`canvas.palette_for`); anti-aliased text is drawn in `LEVELS`
steps between its ink and the colour under it. So a picture encodes as a palette PNG (a third of
the bytes of an RGB PNG, five times faster) and nothing needs quantising afterwards.

What does not change from picture to picture is drawn once per process and pasted: text as
ready-made stamps (`renderers.text`), the coordinates round a map of a given size, the legend's
signs.

This module lays the picture out and draws it in order: terrain (`terrain`), the header, the
coordinates (`coordinates`), cities (`cities`), orders (`overlays`), units (`units`), markers
(`overlays`), the legend (`legend`); `region` says which squares it shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.strategic.rules import load as load_rules
from engine.strategic.view import View
from renderers.strategic import overview as overview_
from renderers.strategic import style
from renderers.strategic.canvas import Colours, MapCanvas, owner_colour, palette_for
from renderers.strategic.cities import draw_cities
from renderers.strategic.coordinates import draw_coordinates, left_margin
from renderers.strategic.legend import draw_legend, legend_layout
from renderers.strategic.markers import Marker
from renderers.strategic.overlays import draw_ends, draw_markers, draw_orders, draw_waypoints
from renderers.strategic.region import Region, around, corner_of, focus_region
from renderers.strategic.terrain import terrain_pixels
from renderers.strategic.units import draw_units
from renderers.text import paste, text_length

FOCUS_WIDTH = 550  # pixels: what Discord shows of a picture in a message without shrinking it
DETAIL_CELL = 40  # squares at least this big list their units ("inf 12") instead of one shape
OVERVIEW_CELL = 10  # squares smaller than this are drawn as an overview (`overview`)
GAP = "   "  # between the items of the header's lines


def render_map(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int | None = None,
    legend: bool = True,
    colours: Colours = "nation",
) -> Image.Image:
    """The whole board."""
    c = cell or style.cell_size(view.width, view.height)
    region = Region(list(range(view.height)), list(range(view.width)), c)
    return _picture(
        view, region, title=title, markers=markers, legend=legend, colours=colours, width=640
    )


def render_overview(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    colours: Colours = "nation",
    width: int = FOCUS_WIDTH,
    legend: bool = True,
) -> Image.Image:
    """The whole board drawn to be read `width` pixels across (`overview`): territory, front
    lines, cities, units as dots, nations' names."""
    return _fitted(
        view,
        list(range(view.width)),
        list(range(view.height)),
        title=title,
        markers=markers,
        colours=colours,
        width=width,
        legend=legend,
    )


def render_window(
    view: View,
    centre: int,
    radius: int,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    colours: Colours = "nation",
    width: int = FOCUS_WIDTH,
) -> Image.Image:
    """The squares within `radius` of `centre`, about `width` pixels across (an overview when
    its squares would be smaller than `OVERVIEW_CELL`): the map's zoom steps."""
    cx, cy = centre % view.width, centre // view.width
    cols = around(cx, radius, view.width)
    rows = around(cy, radius, view.height)
    return _fitted(view, cols, rows, title=title, markers=markers, colours=colours, width=width)


def _fitted(
    view: View,
    cols: list[int],
    rows: list[int],
    *,
    title: str,
    markers: Sequence[Marker],
    colours: Colours,
    width: int,
    legend: bool = True,
) -> Image.Image:
    """`cols` by `rows` at the size of square that fits `width` pixels across (and not much
    taller than wide): detailed from `OVERVIEW_CELL` pixels a square up, an overview below."""
    margin_left = left_margin(view, 14)
    room = width - margin_left - 8
    c = max(2, min(60, room // len(cols), room * 3 // 2 // len(rows)))
    region = Region(rows, cols, c)
    return _picture(
        view,
        region,
        title=title,
        markers=markers,
        legend=legend,
        colours=colours,
        width=width,
        overview=c < OVERVIEW_CELL,
    )


def render_focus(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    colours: Colours = "nation",
    width: int = FOCUS_WIDTH,
    legend: bool = True,
) -> Image.Image:
    """The part of the board that matters to the nation (`focus_region`), about `width` pixels
    across: its own cities and all its units, or, with markers, what happened and its things
    near it; an overview when that part is too wide for detail (`_fitted`)."""
    cols, rows = focus_region(view, markers)
    return _fitted(
        view, cols, rows, title=title, markers=markers, colours=colours, width=width, legend=legend
    )


def render_crop(
    view: View,
    centre: int,
    radius: int,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int = 60,
    colours: Colours = "nation",
) -> Image.Image:
    """A window of `radius` squares round `centre`."""
    radius = max(1, min(radius, max(view.width, view.height) // 2))
    cx, cy = centre % view.width, centre // view.width
    cols = around(cx, radius, view.width)
    rows = around(cy, radius, view.height)
    region = Region(rows, cols, cell)
    return _picture(
        view, region, title=title, markers=markers, legend=True, colours=colours, width=640
    )


def _picture(
    view: View,
    region: Region,
    *,
    title: str,
    markers: Sequence[Marker],
    legend: bool,
    colours: Colours,
    width: int,
    overview: bool = False,
) -> Image.Image:
    rules = load_rules(view.ruleset)
    pal = palette_for(view, colours)
    detail = region.cell >= DETAIL_CELL
    font_px = 14 if region.cell >= 8 else 12
    margin_left = left_margin(view, font_px)
    margin_top = font_px + 8
    map_w, map_h = region.width_px, region.height_px
    width = max(margin_left + map_w + 8, width)
    header = _header_lines(view, title, width, font_px)
    title_h = 8 + (font_px + 8) + (len(header) - 1) * (font_px + 4) + 4
    top = title_h + margin_top
    shown = [m for m in markers if corner_of(view, region, m.sq) is not None]
    drawn: set[str] = set()
    layout = legend_layout(view, rules, width, colours, drawn) if legend else None
    height = top + map_h + 8
    image = Image.new("L", (width, height), pal.add(style.BACKGROUND))
    ground = terrain_pixels(view, region, pal)
    if overview:
        who, owners = overview_.tint_territory(ground, view, region, pal, colours)
        if (who >= 0).any():
            drawn.add("territory")
    image.paste(ground, (margin_left, top))
    canvas = MapCanvas(image, pal, colours)
    _title(canvas, view, header, font_px)
    draw_coordinates(canvas, view, region, margin_left, top, font_px, detail)
    clip = (margin_left, top, margin_left + map_w, top + map_h)
    if overview:
        overview_.draw_borders(canvas, view, region, margin_left, top, who, owners)
    draw_cities(canvas, view, region, margin_left, top, detail)
    if overview:
        if overview_.draw_fronts(canvas, view, region, margin_left, top, who, owners):
            drawn.add("front")
        overview_.draw_dots(canvas, view, region, margin_left, top, drawn)
    else:
        ends = draw_waypoints(canvas, view, region, margin_left, top, clip, drawn)
        ends += draw_orders(canvas, view, region, margin_left, top, clip, drawn)
        draw_units(canvas, view, rules, region, margin_left, top, detail, drawn)
        draw_ends(canvas, ends, region.cell)
    draw_markers(canvas, view, region, margin_left, top, shown)
    drawn |= {f"marker:{m.kind}" for m in shown}
    labels = overview_.draw_labels(canvas, view, region, margin_left, top, clip) if overview else []
    if layout is not None:
        layout = legend_layout(view, rules, width, colours, drawn)
        picture = Image.new("L", (width, height + layout.height), pal.add(style.BACKGROUND))
        paste(picture, image, 0, 0)
        canvas.use(picture)
        draw_legend(canvas, layout, height)
    picture = canvas.finish()
    picture.info["origin"] = (margin_left, top)  # pixel of the region's first square
    picture.info["region"] = region
    picture.info["legend"] = [label for label, _ in layout.items] if layout else []
    picture.info["labels"] = labels  # the overview's names of nations, with their boxes
    return picture


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


def clock_label(clock: str) -> str:
    """The game clock as a picture's header says it: "day 3 14:00", and midnight as the end of
    the day before ("end of day 10", not "day 11 00:00": a day's snapshot is taken then)."""
    parts = clock.split()
    if len(parts) == 3 and parts[0] == "day" and parts[2] == "00:00" and parts[1].isdigit():
        day = int(parts[1])
        if day > 1:
            return f"end of day {day - 1}"
    return clock


def _header_lines(view: View, title: str, width: int, font_px: int) -> list[str]:
    """The title line, then the nation's numbers, labelled, wrapped to the picture's width."""
    me = view.nations.get(view.nation)
    if me is None:  # the full view (moderators, timelapses)
        counts = {n: 0 for n in view.nations}
        for c in view.cities.values():
            if c.owner in counts:
                counts[c.owner] += 1
        first = f"{title} - everything" if title else "everything"
        items = [clock_label(view.clock)] + [
            f"{view.nations[n].name} {k} cities"
            for n, k in sorted(counts.items(), key=lambda i: -i[1])
        ]
    else:
        s = view.status
        first = f"{title} - {me.name}" if title else me.name
        items = [
            clock_label(view.clock),
            f"command points {s.cp} (+{s.cp_regen} an hour)",
            f"tech {s.tech:.2f}",
            f"power {s.power} of {s.power_limit}",
            f"{s.cities} cities, {s.units} units",
        ]
    lines = [first]
    room = width - 12
    gap = text_length(GAP, font_px)
    line, length = "", 0.0  # the line so far and its length (its items' and gaps' added)
    for item in items:
        more = text_length(item, font_px)
        if not line:
            line, length = item, more
        elif length + gap + more > room:
            lines.append(line)
            line, length = item, more
        else:
            line, length = f"{line}{GAP}{item}", length + gap + more
    lines.append(line)
    return lines[:6]


def _title(canvas: MapCanvas, view: View, lines: list[str], font_px: int) -> None:
    me = view.nations.get(view.nation)
    bg = style.BACKGROUND
    x = 6
    if me is not None:  # the nation's colour (or "you") beside its name
        colour = owner_colour(view, view.nation, canvas.colours)
        canvas.draw.rectangle(
            (6, 8, 6 + font_px, 8 + font_px),
            fill=canvas.ink(colour),
            outline=canvas.ink(style.OUTLINE),
        )
        x = 12 + font_px
    canvas.text((x, 6), lines[0], font_px + 2, style.TEXT, bg)
    y = 14 + font_px
    for line in lines[1:]:
        canvas.text((6, y), line, font_px, style.TEXT_DIM, bg)
        y += font_px + 4
