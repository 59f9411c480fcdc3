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
start: the project's colours (`style`, the nations' colours) are registered first and are exact;
anti-aliased text is drawn in `LEVELS` steps between its ink and the colour under it, each step a
palette entry added when first needed (`Palette`). So a picture encodes as a palette PNG (a
third of the bytes of an RGB PNG, five times faster) and nothing needs quantising afterwards.

What does not change from picture to picture is drawn once per process and pasted: text as
ready-made stamps, the coordinates round a map of a given size, the legend's signs.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
from PIL import Image, ImageDraw

from engine.strategic.rules import Ruleset
from engine.strategic.rules import load as load_rules
from engine.strategic.view import CityView, UnitView, View
from renderers.strategic import style
from renderers.strategic.markers import Marker

_CLASS_ORDER = {"sea": 0, "air": 1, "land": 2, "tech": 3}

RGB = tuple[int, int, int]

LEVELS = 7  # anti-aliased text: steps from the colour under it (0) to its ink (LEVELS)
_QUANTISE = [(a * LEVELS + 127) // 255 for a in range(256)]  # coverage 0-255 -> step
_COVER = [0] + [255] * 255  # step > 0 -> the pixel is text


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


FOCUS_WIDTH = 550  # pixels: what Discord shows of a picture in a message without shrinking it
DETAIL_CELL = 40  # squares at least this big list their units ("inf 12") instead of one shape
Colours = str  # "relation" or "nation"


def render_map(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int | None = None,
    legend: bool = True,
    colours: Colours = "relation",
) -> Image.Image:
    """The whole board."""
    c = cell or style.cell_size(view.width, view.height)
    region = Region(list(range(view.height)), list(range(view.width)), c)
    return _picture(
        view, region, title=title, markers=markers, legend=legend, colours=colours, width=640
    )


def render_focus(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    colours: Colours = "relation",
    width: int = FOCUS_WIDTH,
    legend: bool = True,
) -> Image.Image:
    """The part of the board that matters to the nation (`focus_region`), about `width` pixels
    across: its own cities and units, or, with markers, what happened and its things near it."""
    cols, rows = focus_region(view, markers)
    margin_left = _margin_left(view, 14)
    room = width - margin_left - 8
    c = max(12, min(60, room // len(cols), room * 3 // 2 // len(rows)))
    region = Region(rows, cols, c)
    return _picture(
        view, region, title=title, markers=markers, legend=legend, colours=colours, width=width
    )


def render_crop(
    view: View,
    centre: int,
    radius: int,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int = 60,
    colours: Colours = "relation",
) -> Image.Image:
    """A window of `radius` squares round `centre`."""
    radius = max(1, min(radius, max(view.width, view.height) // 2))
    cx, cy = centre % view.width, centre // view.width
    cols = _span(cx, radius, view.width)
    rows = _span(cy, radius, view.height)
    region = Region(rows, cols, cell)
    return _picture(
        view, region, title=title, markers=markers, legend=True, colours=colours, width=640
    )


# --- what a focused picture shows --------------------------------------------------------------

FOCUS_MARGIN = 3  # squares round the nation's things
FOCUS_LEAST = 11  # squares across at least
FOCUS_MOST = 30  # and at most (16 pixels a square at FOCUS_WIDTH)
FOCUS_REACH = 8  # units further than this from every own city are left to the whole board
EVENT_MARGIN = 2
EVENT_NEAR = 4  # own things this close to a marker are shown with it
EVENT_MOST = 24


def focus_region(view: View, markers: Sequence[Marker] = ()) -> tuple[list[int], list[int]]:
    """The columns and rows (wrapping round the torus) a focused picture shows: with markers,
    their squares (a blast's whole radius) and the nation's own things within `EVENT_NEAR` of
    them; else its cities and its units within `FOCUS_REACH` of them; else its units; else the
    squares it knows; else the whole board."""
    w, h = view.width, view.height
    cities = [c.sq for c in view.own_cities()]
    units = [u.sq for u in view.own_units()]
    own = cities + units
    if markers:
        points: list[tuple[int, int]] = []
        for m in markers:
            x, y = m.sq % w, m.sq // w
            points += [(x - m.radius, y - m.radius), (x + m.radius, y + m.radius)]
        for sq in own:
            if any(_distance(sq, m.sq, w, h) <= EVENT_NEAR + m.radius for m in markers):
                points.append((sq % w, sq // w))
        margin, most = EVENT_MARGIN, EVENT_MOST
    else:
        home = cities + [
            sq for sq in units if any(_distance(sq, c, w, h) <= FOCUS_REACH for c in cities)
        ]
        squares = home or units or np.flatnonzero(view.terrain).tolist()
        if not squares:
            return list(range(w)), list(range(h))
        points = [(sq % w, sq // w) for sq in squares]
        margin, most = FOCUS_MARGIN, FOCUS_MOST
    points = _cluster(points, w, h, most - 2 * margin)
    cols = _window([p[0] for p in points], w, margin, most)
    rows = _window([p[1] for p in points], h, margin, most)
    return cols, rows


def _cluster(points: list[tuple[int, int]], w: int, h: int, span: int) -> list[tuple[int, int]]:
    """The points in the square of `span` (round the torus) that holds the most of them, when
    they do not all fit in one: a picture of one place, not of two far-off corners."""
    if len(points) < 2:
        return points
    xy = np.array(points) % np.array([w, h])
    dx = np.abs(xy[:, None, 0] - xy[None, :, 0])
    dy = np.abs(xy[:, None, 1] - xy[None, :, 1])
    dx, dy = np.minimum(dx, w - dx), np.minimum(dy, h - dy)
    if dx.max() < span and dy.max() < span:
        return points
    near = (dx <= span // 2) & (dy <= span // 2)  # near[i]: the square centred on point i
    best = int(near.sum(axis=1).argmax())
    return [p for p, keep in zip(points, near[best].tolist(), strict=True) if keep]


def _distance(a: int, b: int, w: int, h: int) -> int:
    """Chebyshev distance on the torus (as `Grid.distance`)."""
    dx = abs(a % w - b % w)
    dy = abs(a // w - b // w)
    return max(min(dx, w - dx), min(dy, h - dy))


def _arc(coords: Sequence[int], size: int) -> tuple[int, int]:
    """The shortest run of a circle of `size` that holds every coordinate: (start, length)."""
    xs = sorted({c % size for c in coords})
    gap, after = -1, 0
    for i, x in enumerate(xs):
        nxt = xs[i + 1] if i + 1 < len(xs) else xs[0] + size
        if nxt - x > gap:
            gap, after = nxt - x, i
    return xs[(after + 1) % len(xs)], size - gap + 1


def _window(coords: Sequence[int], size: int, margin: int, most: int) -> list[int]:
    """The run holding the coordinates and `margin` round them, `FOCUS_LEAST` to `most` long
    (the run of `most` holding the most of them when they spread wider), round the circle."""
    most = min(most, size)
    least = min(FOCUS_LEAST, most)
    start, length = _arc(coords, size)
    start, length = start - margin, length + 2 * margin
    if length > most:
        counts = np.bincount([c % size for c in coords], minlength=size)
        inside = np.convolve(np.concatenate([counts, counts[: most - 1]]), np.ones(most, int))
        window = inside[most - 1 : most - 1 + size]  # window[s]: coordinates in s .. s+most-1
        best = int(window.argmax())
        # round the coordinates in that window, with what margin there is room for
        start, length = _arc([c for c in coords if (c - best) % size < most], size)
        extra = min(2 * margin, most - length)
        start, length = start - extra // 2, length + extra
    if length < least:
        start, length = start - (least - length) // 2, least
    if length >= size:
        return list(range(size))
    return [(start + d) % size for d in range(length)]


def png_bytes(image: Image.Image, *, compress_level: int = 6) -> bytes:
    """The picture as a PNG (a palette PNG for the pictures of this module)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()


# --- the palette -------------------------------------------------------------------------------


class Palette:
    """The colours of one picture by index, at most 256. Colours added with `add` are exact
    (the project's colours are added before anything is drawn, so there is always room for
    them); the steps of anti-aliased text between a colour and an ink are added as text needs
    them while there is room, and are the nearest colour there is after that."""

    def __init__(self, colours: Iterable[RGB] = ()) -> None:
        self.colours: list[RGB] = []
        self._index: dict[RGB, int] = {}
        self._blends: dict[tuple[int, int, int], int] = {}
        self._ramps: dict[tuple[int, int], tuple[int, ...]] = {}
        for colour in colours:
            self.add(colour)

    def __len__(self) -> int:
        return len(self.colours)

    def add(self, colour: Sequence[int]) -> int:
        try:
            i = self._index.get(colour)  # type: ignore[call-overload]
        except TypeError:  # a list or an array
            i = None
        if i is not None:  # the usual case: an RGB tuple already there
            return i
        rgb = (int(colour[0]), int(colour[1]), int(colour[2]))
        i = self._index.get(rgb)
        if i is None:
            if len(self.colours) >= 256:
                return self.nearest(rgb)
            i = len(self.colours)
            self.colours.append(rgb)
            self._index[rgb] = i
        return i

    def nearest(self, colour: RGB) -> int:
        have = np.array(self.colours, dtype=np.int32)
        return int(((have - np.array(colour, dtype=np.int32)) ** 2).sum(axis=1).argmin())

    def blend(self, under: int, ink: int, level: int) -> int:
        """The index of `ink` drawn at `level` (0..LEVELS) over the colour `under`."""
        if level <= 0:
            return under
        if level >= LEVELS:
            return ink
        key = (under, ink, level)
        i = self._blends.get(key)
        if i is None:
            i = self._blends[key] = self.add(_mix(self.colours[under], self.colours[ink], level))
        return i

    def ramp(self, under: int, ink: int) -> tuple[int, ...]:
        """Indices of the steps from `under` (level 0) to `ink` (level LEVELS)."""
        key = (under, ink)
        r = self._ramps.get(key)
        if r is None:
            r = self._ramps[key] = tuple(self.blend(under, ink, k) for k in range(LEVELS + 1))
        return r

    def data(self) -> bytes:
        return b"".join(bytes(c) for c in self.colours)


@lru_cache(maxsize=65536)
def _mix(under: RGB, ink: RGB, level: int) -> RGB:
    """`ink` at `level` of LEVELS over `under`, rounded."""
    r0, g0, b0 = under
    r1, g1, b1 = ink
    k, n, half = level, LEVELS - level, LEVELS // 2
    return (
        (r0 * n + r1 * k + half) // LEVELS,
        (g0 * n + g1 * k + half) // LEVELS,
        (b0 * n + b1 * k + half) // LEVELS,
    )


def _base_colours() -> list[RGB]:
    """Every colour of the style that a picture may show, terrain first."""
    terrain = [style.NEVER_SEEN, style.WATER, style.LAND, style.WASTE, style.COAST]
    dimmed = [style.dim(c) for c in terrain[1:]]
    lines = [style.grid_line(c) for c in terrain + dimmed]
    crossings = [style.grid_line(c) for c in lines]
    return [
        style.BACKGROUND,
        *terrain,
        *dimmed,
        *lines,
        *crossings,
        style.TEXT,
        style.TEXT_DIM,
        style.NEUTRAL,
        style.dim(style.NEUTRAL, 0.7),
        style.OUTLINE,
        (0, 0, 0),
        (255, 255, 255),
        *style.MARKER_COLOURS.values(),
        *style.RELATION_COLOURS.values(),
        *(style.dim(c, 0.7) for c in style.RELATION_COLOURS.values()),
        style.ORDER_LINE,
        _UNKNOWN_MARKER,
        _LEGEND_OUTLINE,
        _LEGEND_UNIT,
    ]


_UNKNOWN_MARKER = (255, 0, 0)
_LEGEND_OUTLINE = (90, 90, 90)
_LEGEND_UNIT = (200, 200, 200)


def _fixed_palette() -> Palette:
    """How every picture's palette starts: the style's colours and the steps of the text on
    the background (and of the legend's black letters on grey). These indices are the same in
    every picture, so what is drawn only in them is drawn once and reused (the coordinates
    round the map, the first part of the legend)."""
    pal = Palette(_base_colours())
    background = pal.add(style.BACKGROUND)
    pal.ramp(background, pal.add(style.TEXT))
    pal.ramp(background, pal.add(style.TEXT_DIM))
    pal.ramp(pal.add(style.NEUTRAL), pal.add((0, 0, 0)))
    return pal


def palette_for(view: View, colours: Colours = "nation") -> Palette:
    """The picture's palette before drawing: `_fixed_palette` (the relation colours among them),
    then each nation's colour and its remembered (dimmed) shade when nations are drawn in
    their own colours."""
    pal = _fixed_palette()
    if _by_relation(view, colours):
        return pal
    for n in view.nations.values():
        colour = style.parse_colour(n.colour)
        pal.add(colour)
        pal.add(style.dim(colour, 0.7))
    return pal


# --- text ----------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Glyphs:
    """A text rendered once: its anti-aliasing steps (an "L" image of 0..LEVELS, and the same
    as a list of its drawn pixels), where it is drawn (an "L" mask of 0/255), and where its
    top-left pixel goes from the drawing point. Compared by identity (one per text, cached)."""

    levels: Image.Image
    cover: Image.Image
    dx: int
    dy: int
    pixels: tuple[tuple[int, int], ...]  # (index in the stamp's bytes, step) where it is drawn

    @classmethod
    def of(cls, levels: Image.Image, dx: int = 0, dy: int = 0) -> _Glyphs:
        array = np.asarray(levels).reshape(-1)
        where = np.flatnonzero(array)
        pixels = tuple(zip(where.tolist(), array[where].tolist(), strict=True))
        return cls(levels, levels.point(_COVER), dx, dy, pixels)


@lru_cache(maxsize=8192)
def _glyphs(text: str, size: int, anchor: str | None, fx: float, fy: float, stroke: int) -> _Glyphs:
    """As `ImageDraw.text` places it: `fx`, `fy` are the fractional parts of the point."""
    font = style.font(size)
    mask, (dx, dy) = font.getmask2(
        text, "L", None, None, None, stroke, anchor, 0, (fx, fy), stroke_filled=True
    )
    return _Glyphs.of(Image.Image()._new(mask).point(_QUANTISE), dx, dy)


@lru_cache(maxsize=16384)
def _stamp(g: _Glyphs, ramp: tuple[int, ...]) -> Image.Image:
    """The glyphs as palette indices: ramp[level]."""
    return g.levels.point(list(ramp) + [0] * (256 - len(ramp)))


@lru_cache(maxsize=4096)
def _clipped(
    g: _Glyphs, ramp: tuple[int, ...], clip: tuple[int, int, int, int]
) -> tuple[Image.Image, Image.Image, tuple[int, int]] | None:
    """The stamp and its cover inside `clip` (relative to the stamp's corner), and where
    that part starts; None when nothing is inside."""
    w, h = g.levels.size
    box = (max(0, clip[0]), max(0, clip[1]), min(w, clip[2]), min(h, clip[3]))
    if box[0] >= box[2] or box[1] >= box[3]:
        return None
    return _stamp(g, ramp).crop(box), g.cover.crop(box), (box[0], box[1])


def _paste(
    image: Image.Image, part: Image.Image, x: int, y: int, mask: Image.Image | None = None
) -> None:
    """`image.paste(part, (x, y), mask)` for images of the same mode, without the checks
    `Image.paste` makes each time (a fifth of the cost; pictures paste a few hundred
    stamps). Pillow's own paste clips to the picture alike."""
    box = (x, y, x + part.width, y + part.height)
    try:
        if mask is None:
            image.im.paste(part.im, box)
        else:
            image.im.paste(part.im, box, mask.im)
    except (AttributeError, TypeError):  # should Pillow's internals change: the public way
        image.paste(part, (x, y), mask)


def _split(v: float) -> tuple[int, float]:
    i = int(v)
    return i, v - i


class _Canvas:
    """An "L" image of palette indices and its palette, with the text helpers."""

    def __init__(self, image: Image.Image, pal: Palette, colours: Colours = "nation") -> None:
        self.image = image
        self.pal = pal
        self.colours = colours
        self.draw = ImageDraw.Draw(image)
        self._done: dict[tuple, tuple[_Glyphs, Image.Image]] = {}
        self._owners: dict[str | None, int] = {}

    def owner(self, view: View, owner: str | None) -> int:
        """The index of a nation's colour (neutral grey for none)."""
        i = self._owners.get(owner)
        if i is None:
            i = self._owners[owner] = self.pal.add(_owner_colour(view, owner, self.colours))
        return i

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
        (x, fx), (y, fy) = _split(xy[0]), _split(xy[1])
        g = _glyphs(text, size, anchor, fx, fy, 0)
        ramp = self.pal.ramp(self.pal.add(on), self.pal.add(fill))
        left, top = x + g.dx, y + g.dy
        if clip is None:
            _paste(self.image, _stamp(g, ramp), left, top, g.cover)
            return
        inner = (clip[0] - left, clip[1] - top, clip[2] - left, clip[3] - top)
        clipped = _clipped(g, ramp, inner)
        if clipped is not None:
            stamp, cover, (dx, dy) = clipped
            _paste(self.image, stamp, left + dx, top + dy, cover)

    def text_over(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        anchor: str | None = None,
        stroke: int = 0,
        stroke_fill: RGB | None = None,
    ) -> None:
        """Text over whatever is there (units, terrain): blended with the colours under it."""
        (x, fx), (y, fy) = _split(xy[0]), _split(xy[1])
        if stroke:
            g = _glyphs(text, size, anchor, fx, fy, stroke)
            self.glyphs_over(x + g.dx, y + g.dy, g, stroke_fill or fill)
        g = _glyphs(text, size, anchor, fx, fy, 0)
        self.glyphs_over(x + g.dx, y + g.dy, g, fill)

    def glyphs_over(self, x: int, y: int, g: _Glyphs, fill: RGB) -> None:
        """`g` in ink `fill` with its top left at x, y, each of its pixels blended with the
        colour under it (a stamp has a few dozen pixels: a loop costs less than numpy's calls,
        and a crop less than a copy of the picture)."""
        w, h = g.levels.size
        box = (max(0, x), max(0, y), min(self.image.width, x + w), min(self.image.height, y + h))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        under = self.image.crop(box).tobytes()
        # the same text over the same pixels is the same result: a stack's count over the
        # same terrain and unit shape repeats all over a map
        key = (id(g), box[0] - x, box[1] - y, fill, under)
        done = self._done.get(key)
        if done is None:
            ink = self.pal.add(fill)
            known = self.pal._blends
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
        _paste(self.image, done[1], box[0], box[1])

    def finish(self) -> Image.Image:
        self.image.putpalette(self.pal.data())
        return self.image


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


def _margin_left(view: View, font_px: int) -> int:
    digits = len(str(max(view.width, view.height) - 1))
    return int(digits * font_px * 0.62) + 10


def _picture(
    view: View,
    region: Region,
    *,
    title: str,
    markers: Sequence[Marker],
    legend: bool,
    colours: Colours,
    width: int,
) -> Image.Image:
    rules = load_rules(view.ruleset)
    pal = palette_for(view, colours)
    detail = region.cell >= DETAIL_CELL
    font_px = 14 if region.cell >= 8 else 12
    margin_left = _margin_left(view, font_px)
    margin_top = font_px + 8
    map_w, map_h = region.width_px, region.height_px
    width = max(margin_left + map_w + 8, width)
    header = _header_lines(view, title, width, font_px)
    title_h = 8 + (font_px + 8) + (len(header) - 1) * (font_px + 4) + 4
    top = title_h + margin_top
    shown = [m for m in markers if _pos(view, region, m.sq) is not None]
    drawn: set[str] = set()
    layout = _legend_layout(view, rules, width, colours, drawn) if legend else None
    height = top + map_h + 8
    image = Image.new("L", (width, height), pal.add(style.BACKGROUND))
    image.paste(_terrain_pixels(view, region, pal), (margin_left, top))
    canvas = _Canvas(image, pal, colours)
    _title(canvas, view, header, font_px)
    _coordinates(canvas, view, region, margin_left, top, font_px, detail)
    clip = (margin_left, top, margin_left + map_w, top + map_h)
    _draw_cities(canvas, view, region, margin_left, top, detail)
    _draw_orders(canvas, view, region, margin_left, top, clip, drawn)
    _draw_units(canvas, view, rules, region, margin_left, top, detail, drawn)
    _draw_markers(canvas, view, region, margin_left, top, shown)
    drawn |= {f"marker:{m.kind}" for m in shown}
    if layout is not None:
        layout = _legend_layout(view, rules, width, colours, drawn)
        picture = Image.new("L", (width, height + layout.height), pal.add(style.BACKGROUND))
        _paste(picture, image, 0, 0)
        canvas.image = picture
        canvas.draw = ImageDraw.Draw(picture)
        _draw_legend(canvas, layout, height)
    picture = canvas.finish()
    picture.info["origin"] = (margin_left, top)  # pixel of the region's first square
    picture.info["region"] = region
    picture.info["legend"] = [label for label, _ in layout.items] if layout else []
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


# --- terrain and fog -------------------------------------------------------------------------


def _terrain_pixels(view: View, region: Region, pal: Palette) -> Image.Image:
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
    colours = [style.NEVER_SEEN, style.WATER, style.LAND, style.WASTE, style.COAST]
    dimmed = [style.NEVER_SEEN] + [style.dim(c) for c in colours[1:]]
    lookup = np.array([pal.add(c) for c in dimmed + colours], np.uint8)  # code + 5 * in sight
    small = lookup[codes + 5 * seen_now.astype(np.uint8)]
    c = region.cell
    rows, cols = small.shape
    if c < 8:
        return Image.fromarray(np.repeat(np.repeat(small, c, axis=0), c, axis=1))
    # faint grid lines: the first row and column of each square darker, twice where they cross
    line = np.arange(256, dtype=np.uint8)
    for i in set(lookup.tolist()):
        line[i] = pal.add(style.grid_line(pal.colours[i]))
        line[line[i]] = pal.add(style.grid_line(pal.colours[line[i]]))
    edge = line[small]
    body = np.repeat(small, c, axis=1)  # a square's rows but the first
    body[:, ::c] = edge
    first = np.repeat(edge, c, axis=1)
    first[:, ::c] = line[edge]
    big = np.empty((rows, c, cols * c), np.uint8)
    big[:, 0, :] = first
    big[:, 1:, :] = body[:, None, :]
    return Image.fromarray(big.reshape(rows * c, cols * c))


# --- text ------------------------------------------------------------------------------------


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
    font = style.font(font_px)
    line = ""
    for item in items:
        joined = f"{line}   {item}" if line else item
        if line and font.getlength(joined) > room:
            lines.append(line)
            joined = item
        line = joined
    lines.append(line)
    return lines[:6]


def _title(canvas: _Canvas, view: View, lines: list[str], font_px: int) -> None:
    me = view.nations.get(view.nation)
    bg = style.BACKGROUND
    x = 6
    if me is not None:  # the nation's colour (or "you") beside its name
        colour = _owner_colour(view, view.nation, canvas.colours)
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


def _coordinates(canvas: _Canvas, view, region, left, top, font_px, detail) -> None:
    """The squares' numbers over the columns and beside the rows: the same for every picture of
    a map of this size, so drawn once (`_coordinate_bands`) and pasted."""
    digits = len(str(view.width - 1))
    key = (tuple(region.cols), tuple(region.rows), region.cell, left, top, font_px, detail)
    for band, mask, (x, y) in _coordinate_bands(*key, digits):
        _paste(canvas.image, band, x, y, mask)


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
    """Two bands (over the map, left of it) as palette indices of `_fixed_palette`, each with
    the mask of what is drawn on it, and where they go."""
    pal = _fixed_palette()
    bg = pal.add(style.BACKGROUND)
    margin_top = font_px + 8
    y0 = top - margin_top
    width, height = left + len(cols) * c + 4 * font_px, top + len(rows) * c + 2 * font_px
    bands = []
    for box in ((0, y0, width, top), (0, y0, left, height)):  # in picture coordinates
        image = Image.new("L", (box[2] - box[0], box[3] - box[1]), bg)
        canvas = _Canvas(image, pal)
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
        assert len(pal) == len(_fixed_palette()), "the coordinates need no other colour"
        mask = image.point([0 if v == bg else 255 for v in range(256)])
        bands.append((image, mask, (ox, oy)))
    return bands


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


def _by_relation(view: View, colours: Colours) -> bool:
    """Whether owners are coloured by relation (never in the full view: it has none)."""
    if colours not in ("relation", "nation"):
        raise ValueError(f"colours are 'relation' or 'nation', not {colours!r}")
    return colours == "relation" and view.nation in view.nations


def _owner_colour(view: View, owner: str | None, colours: Colours = "nation") -> RGB:
    if owner is None or owner not in view.nations:
        return style.NEUTRAL
    if _by_relation(view, colours):
        return style.RELATION_COLOURS[_relation(view, owner)]
    return style.parse_colour(view.nations[owner].colour)


def _relation(view: View, owner: str) -> str:
    """ "you" or the relation group of another nation (`style.relation_group`)."""
    if owner == view.nation:
        return "you"
    n = view.nations[owner]
    return style.relation_group(n.relation_to, n.relation_from)


def _draw_cities(canvas: _Canvas, view: View, region: Region, left: int, top: int, detail) -> None:
    c = region.cell
    where = _positions(view, region) if detail else None
    for sq, city in view.cities.items():
        pos = where.get(sq) if where is not None else _pos(view, region, sq)
        if pos is None:
            continue
        x, y = left + pos[0], top + pos[1]
        _city(canvas, view, city, x, y, c, detail)


def _pos(view: View, region: Region, sq: int) -> tuple[int, int] | None:
    x, y = sq % view.width, sq // view.width
    try:
        i = region.cols.index(x) if len(region.cols) != view.width else x
        j = region.rows.index(y) if len(region.rows) != view.height else y
    except ValueError:
        return None
    return i * region.cell, j * region.cell


def _city(canvas: _Canvas, view: View, city: CityView, x: int, y: int, c: int, detail) -> None:
    fill = _owner_colour(view, city.owner, canvas.colours)
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


@cache
def _classes(ruleset: str) -> dict[str, str]:
    rules = load_rules(ruleset)
    return {ut.name: ut.unit_class.value for ut in rules.units}


def _draw_units(
    canvas: _Canvas,
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
    where = _positions(view, region) if detail else None
    count_px = max(8, int(c * 0.45))
    outline = canvas.ink(style.OUTLINE)
    for sq, units in by_square.items():
        pos = where.get(sq) if where is not None else _pos(view, region, sq)
        if pos is None:
            continue
        x, y = left + pos[0], top + pos[1]
        on_city = sq in view.cities
        if any(u.supplied is False for u in units) and c >= 10:
            drawn.add("supply")
        if detail:
            _unit_list(canvas, view, classes, most_hp, units, x, y, c, on_city, drawn)
            if any(u.supplied is False for u in units):
                b = max(7, c // 5)
                _no_supply(canvas, x + c - b - 2, y + 2, b)
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
        _shape(canvas, cls, box, colour, outline, ghost=ghost)
        drawn.add(f"{'ghost' if ghost else 'shape'}:{cls}")
        if ghost and c >= 14:  # last seen here: a question mark in the hollow shape
            mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            size = max(8, int((box[2] - box[0]) * 0.7))
            canvas.text_over((mx, my), "?", size, (255, 255, 255), "mm", 1, (0, 0, 0))
        if len(units) > 1 and c >= 12:
            stamp = _count_stamp(len(units), count_px)
            ink: RGB = (255, 255, 255)
            if on_city:  # over the city's fill: black on light fills ("you" yellow)
                city = view.cities[sq]
                ink = style.text_on(_owner_colour(view, city.owner, canvas.colours))
            canvas.glyphs_over(x + c - stamp.levels.width, y, stamp, ink)
            drawn.add("count")
        if c >= 10:
            known = [u for u in units if u.hp is not None and most_hp.get(u.type)]
            have = sum(u.hp or 0 for u in known)
            most = sum(most_hp[u.type] for u in known)
            if have < most:
                bar_h = max(2, c // 10)
                _hp_bar(
                    canvas, int(box[0]), int(box[3]) - bar_h + 1, int(box[2]), bar_h, have / most
                )
                drawn.add("hp")
            if any(u.supplied is False for u in units):
                _no_supply(canvas, int(box[0]) - 1, int(box[1]) - 1, max(7, c // 4))


def _hp_bar(canvas: _Canvas, x0: int, y0: int, x1: int, h: int, share: float) -> None:
    """Hit points left: the white part of a bar on black."""
    draw = canvas.draw
    draw.rectangle((x0, y0, x1, y0 + h), fill=canvas.ink(style.OUTLINE))
    full = x0 + 1 + round((x1 - x0 - 2) * share)
    if full > x0:
        draw.rectangle(
            (x0 + 1, y0 + 1 if h > 2 else y0, full, y0 + h - 1 if h > 2 else y0 + h),
            fill=canvas.ink(style.HP_BAR),
        )


def _no_supply(canvas: _Canvas, x: int, y: int, b: int) -> None:
    """Out of supply: a white "!" on a black badge, `b` pixels square."""
    draw = canvas.draw
    draw.rectangle((x, y, x + b - 1, y + b - 1), fill=canvas.ink(style.OUTLINE))
    ink = canvas.ink(style.NO_SUPPLY)
    mx = x + b // 2
    w = max(0, b // 8)
    draw.rectangle((mx - w, y + 1, mx + w, y + b - 4), fill=ink)
    draw.rectangle((mx - w, y + b - 2, mx + w, y + b - 2), fill=ink)


@cache
def _count_stamp(n: int, size: int) -> _Glyphs:
    """A unit count's anti-aliasing steps (drawn once per number and size, stamped many
    times)."""
    text = str(n) if n < 100 else "99+"
    f = style.font(size)
    _, _, right, bottom = f.getbbox(text)  # whole pixels without a stroke: int() keeps them
    mask = Image.new("L", (int(right) + 2, int(bottom) + 2), 0)
    ImageDraw.Draw(mask).text((1, 0), text, font=f, fill=255)
    return _Glyphs.of(mask.point(_QUANTISE))


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


def _shape(canvas: _Canvas, cls: str, box, colour: int, outline_ink: int, *, ghost: bool) -> None:
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
    """`draw.polygon(points, outline=ink, width=width)`, pixel for pixel, on a patch the size of
    the polygon: Pillow makes a mask the size of the whole picture for a thick outline."""
    left = int(min(p[0] for p in points)) - width - 2
    top = int(min(p[1] for p in points)) - width - 2
    right = int(max(p[0] for p in points)) + width + 3
    bottom = int(max(p[1] for p in points)) + width + 3
    patch = Image.new("L", (right - left, bottom - top), 0)
    shifted = [(x - left, y - top) for x, y in points]
    ImageDraw.Draw(patch).polygon(shifted, outline=255, width=width)
    image.paste(ink, (left, top), patch)


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


def _unit_list(
    canvas: _Canvas, view, classes, most_hp, units: list[UnitView], x, y, c, on_city, drawn
) -> None:
    """Zoomed pictures: a small shape and a line of text for each unit, or each type when they
    do not fit (`stack_lines`), hit points as a bar under the shape."""
    size = max(10, c // 5)
    line_h = max(11, c // 5 + 2)
    top = y + (c // 4 + 2 if on_city else 2)
    room = max(1, (y + c - 2 - top) // line_h)
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
        _shape(canvas, cls, box, colour, outline, ghost=ghost)
        drawn.add(f"{'ghost' if ghost else 'shape'}:{cls}")
        canvas.text_over((x + line_h + 1, ly), label, size, white, None, 2, black)
        most = most_hp.get(u.type)
        if len(lines) == len(units) and u.hp is not None and most and u.hp < most:
            _hp_bar(canvas, box[0], box[3] - 1, box[2], 2, u.hp / most)
            drawn.add("hp")


def _draw_orders(
    canvas: _Canvas,
    view: View,
    region: Region,
    left: int,
    top: int,
    clip: tuple[int, int, int, int],
    drawn: set[str],
) -> None:
    """Standing orders: a line from each own unit to where it is going, the short way round
    the torus (on the whole board, both ends of a line that crosses an edge), an arrowhead at
    the target."""
    c = region.cell
    w, h = view.width, view.height
    done: set[tuple[int, int]] = set()
    light, dark = canvas.ink(style.ORDER_LINE), canvas.ink(style.OUTLINE)
    width = 2 if c >= 16 else 1
    shifts_x = (0, -w * c, w * c) if len(region.cols) == w else (0,)
    shifts_y = (0, -h * c, h * c) if len(region.rows) == h else (0,)
    for u in view.units:
        if u.seen != "own" or u.order is None or u.order == u.sq or (u.sq, u.order) in done:
            continue
        done.add((u.sq, u.order))
        pos = _pos(view, region, u.sq)
        if pos is None:
            continue
        dx = (u.order % w - u.sq % w + w // 2) % w - w // 2
        dy = (u.order // w - u.sq // w + h // 2) % h - h // 2
        x0, y0 = left + pos[0] + c / 2, top + pos[1] + c / 2
        for sx in shifts_x:
            for sy in shifts_y:
                a = (x0 + sx, y0 + sy)
                b = (a[0] + dx * c, a[1] + dy * c)
                seg = _clip_line(a, b, clip)
                if seg is None:
                    continue
                drawn.add("order")
                canvas.draw.line(seg, fill=dark, width=width + 2)
                canvas.draw.line(seg, fill=light, width=width)
                if seg[2:] == b:  # the target is on the picture: an arrowhead
                    _arrowhead(canvas, a, b, max(4, c // 3), light, dark)


def _arrowhead(canvas: _Canvas, a, b, size: int, light: int, dark: int) -> None:
    length = max(1e-9, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    back = (b[0] - ux * size, b[1] - uy * size)
    points = [
        b,
        (back[0] - uy * size * 0.6, back[1] + ux * size * 0.6),
        (back[0] + uy * size * 0.6, back[1] - ux * size * 0.6),
    ]
    canvas.draw.polygon(points, fill=light, outline=dark)


def _clip_line(a, b, box) -> tuple[float, float, float, float] | None:
    """The part of the segment a-b inside box (left, top, right, bottom; exclusive): Liang and
    Barsky's clipping. None when nothing is inside."""
    x0, y0 = a
    dx, dy = b[0] - x0, b[1] - y0
    t0, t1 = 0.0, 1.0
    for p, q in (
        (-dx, x0 - box[0]),
        (dx, box[2] - 1 - x0),
        (-dy, y0 - box[1]),
        (dy, box[3] - 1 - y0),
    ):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    end = (x0 + t1 * dx, y0 + t1 * dy) if t1 < 1 else b
    return (x0 + t0 * dx, y0 + t0 * dy, *end)


def _draw_markers(canvas: _Canvas, view: View, region: Region, left: int, top: int, markers):
    c = region.cell
    draw = canvas.draw
    for m in markers:
        pos = _pos(view, region, m.sq)
        if pos is None:
            continue
        colour = canvas.ink(style.MARKER_COLOURS.get(m.kind, _UNKNOWN_MARKER))
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


@dataclass(frozen=True)
class _Legend:
    width: int
    height: int
    items: list[tuple[str, tuple[str, object]]]
    nations: list[tuple[str, RGB]]
    per_row: int
    per_row_nations: int


_LEGEND_PX = 13
_LEGEND_COL = 150
_LEGEND_NATION_COL = 265


_SHAPE_NAMES = {"land": "land unit", "sea": "ship", "air": "aircraft", "tech": "satellite, missile"}


def _legend_layout(
    view: View, rules: Ruleset, width: int, colours: Colours, drawn: set[str]
) -> _Legend:
    """What the picture's signs mean: terrain always, then only what was drawn (unit shapes,
    last seen, counts, hit points, supply, orders, the markers), the cities, and the owners."""
    items: list[tuple[str, tuple[str, object]]] = [
        ("in sight", ("swatch", style.LAND)),
        ("remembered", ("swatch", style.dim(style.LAND))),
        ("never seen", ("swatch", style.NEVER_SEEN)),
        ("water", ("swatch", style.WATER)),
        ("coast: ships reach it", ("swatch", style.COAST)),
    ]
    for cls, name in _SHAPE_NAMES.items():
        if f"shape:{cls}" in drawn:
            items.append((name, ("shape", cls)))
    if any(d.startswith("ghost:") for d in drawn):
        items.append(("hollow, ?: last seen", ("ghost", "land")))
    if "count" in drawn:
        items.append(("number: units there", ("count", "3")))
    if "stack" in drawn:
        items.append(("inf 4: 4 infantry", ("count", "4")))
    if "hp" in drawn:
        items.append(("hit points left", ("hp", 0.6)))
    if "supply" in drawn:
        items.append(("out of supply", ("supply", None)))
    if "order" in drawn:
        items.append(("standing order", ("order", None)))
    for ct in rules.cities:
        letter = style.DESIGNATION_LETTERS.get(ct.name, ct.name[:1].upper())
        items.append((ct.title.lower(), ("city", letter)))
    for kind in ("attack", "capture", "interception", "blast", "lost"):
        if f"marker:{kind}" in drawn:
            items.append((kind if kind != "lost" else "unit lost", ("marker", kind)))
    nations: list[tuple[str, RGB]] = []
    by_relation = _by_relation(view, colours)
    for n in view.nations.values():
        if view.nation not in view.nations:  # the full view: no relations to show
            nations.append((n.name, style.parse_colour(n.colour)))
            continue
        rel = "you" if n.id == view.nation else n.relation_to.replace("_", " ")
        if n.id != view.nation and n.relation_from != n.relation_to:
            rel += f" (they: {n.relation_from.replace('_', ' ')})"
        if n.out:
            rel += ", out"
        nations.append((f"{n.name}: {rel}", _owner_colour(view, n.id, colours)))
    if by_relation:  # you first, then by relation, friends before foes
        order = list(style.RELATION_COLOURS.values())
        nations.sort(key=lambda item: order.index(item[1]))
    nations.append(("unowned", style.NEUTRAL))
    per_row = max(1, (width - 12) // _LEGEND_COL)
    per_row_nations = max(1, (width - 12) // _LEGEND_NATION_COL)
    rows = -(-len(items) // per_row) + -(-len(nations) // per_row_nations)
    height = rows * (_LEGEND_PX + 8) + 10
    return _Legend(width, height, items, nations, per_row, per_row_nations)


def _draw_legend(canvas: _Canvas, legend: _Legend, y0: int) -> None:
    draw = canvas.draw
    ink = canvas.ink
    bg = style.BACKGROUND
    s = _LEGEND_PX
    row_h = s + 8
    per_row = legend.per_row
    width, height = canvas.image.size
    draw.rectangle((0, y0, width - 1, height - 1), fill=ink(bg))  # over markers near the edge
    # what the signs mean: the same in every picture of a ruleset and width, drawn once
    _paste(canvas.image, _legend_items(tuple(legend.items), per_row, width), 0, y0)
    base = y0 + 4 + (-(-len(legend.items) // per_row)) * row_h
    wide = _LEGEND_NATION_COL
    per_row_n = legend.per_row_nations
    for i, (label, colour) in enumerate(legend.nations):
        x = 8 + (i % per_row_n) * wide
        y = base + (i // per_row_n) * row_h
        draw.rectangle((x, y + 1, x + s, y + 1 + s), fill=ink(colour), outline=ink(style.OUTLINE))
        canvas.text((x + s + 5, y), label[:34], _LEGEND_PX, style.TEXT, bg)


@lru_cache(maxsize=16)
def _legend_items(
    items: tuple[tuple[str, tuple[str, object]], ...], per_row: int, width: int
) -> Image.Image:
    """The legend's signs (terrain, units, cities, markers) as indices of `_fixed_palette`."""
    pal = _fixed_palette()
    s = _LEGEND_PX
    row_h = s + 8
    image = Image.new(
        "L", (width, 4 + (-(-len(items) // per_row)) * row_h), pal.add(style.BACKGROUND)
    )
    canvas = _Canvas(image, pal)
    draw = canvas.draw
    ink = canvas.ink
    bg = style.BACKGROUND
    y0 = 0
    for i, (label, (kind, arg)) in enumerate(items):
        x = 8 + (i % per_row) * _LEGEND_COL
        y = y0 + 4 + (i // per_row) * row_h
        box = (x, y + 1, x + s, y + 1 + s)
        if kind == "swatch":
            draw.rectangle(box, fill=ink(arg), outline=ink(_LEGEND_OUTLINE))  # type: ignore[arg-type]
        elif kind in ("shape", "ghost"):
            draw.rectangle(box, fill=ink(style.LAND))
            _shape(
                canvas,
                str(arg),
                (x + 2, y + 3, x + s - 2, y + s - 1),
                ink(_LEGEND_UNIT),
                ink(style.OUTLINE),
                ghost=kind == "ghost",
            )
        elif kind == "city":
            draw.rectangle(box, fill=ink(style.NEUTRAL), outline=ink(style.OUTLINE))
            canvas.text(
                (x + s / 2, y + 1 + s / 2),
                str(arg),
                11,
                (0, 0, 0),
                style.NEUTRAL,
                anchor="mm",
                clip=(x + 1, y + 2, x + s, y + 1 + s),
            )
        elif kind == "marker":
            draw.ellipse(box, outline=ink(style.MARKER_COLOURS[str(arg)]), width=2)
        elif kind == "count":
            canvas.text((x + s / 2, y + 1 + s / 2), str(arg), _LEGEND_PX, style.TEXT, bg, "mm")
        elif kind == "hp":
            draw.rectangle(box, fill=ink(style.LAND))
            _hp_bar(canvas, x + 1, y + s - 3, x + s - 1, 3, float(arg))  # type: ignore[arg-type]
        elif kind == "supply":
            draw.rectangle(box, fill=ink(style.LAND))
            _no_supply(canvas, x + 2, y + 3, s - 3)
        elif kind == "order":
            draw.line((x, y + s - 1, x + s - 3, y + 4), fill=ink(style.OUTLINE), width=4)
            draw.line((x, y + s - 1, x + s - 3, y + 4), fill=ink(style.ORDER_LINE), width=2)
        canvas.text((x + s + 5, y), label, _LEGEND_PX, style.TEXT, bg)
    assert len(pal) == len(_fixed_palette()), "the legend's signs need no other colour"
    return image
