"""Pictures of a Supply Lines game (`engine.supplylines`): the whole board, as every player sees
it (the game has no fog), for DMs and the game's channel.

    data = draw_board(view, title="Duel", turn_report=moved)        # PNG bytes
    data = await draw_board_in_pool(view, title="Duel")             # the same, in a worker

A picture is `size` pixels square (900 by default: Discord shows it at about 550, where its
smallest text is still about 9 pixels high). It shows:

- a header: the title, the turn and the phase, whose view it is (a player's, or a moderator's),
  the winner when the game is over, and a supply choice the viewer has to make;
- the roads, and each player's supply lines: a road between two structures of one player is
  drawn thick in their colour (their networks, `engine.supplylines.supply.networks`; a network
  with no refinery or home city in it sends no lines, and its roads stay thin);
- each structure as a shape by type (city: a circle, home city: a house, refinery: a diamond,
  military base: a square) filled in its owner's colour (grey: nobody's), with its label;
- the units in each structure as badges in their owner's colour ("3i", "1T"), one per type and
  number of marks, each mark a pip; immobile units (3 marks) on a dark badge with a red border;
  a red "!" where a player's network has fewer supply lines than its units need;
- the viewer's orders of this turn (a moderator: everyone's): moves as arrows in the player's
  colour with the units they take, builds as "+1T" badges;
- with a `TurnMoved` event, what the last turn did: moves as dashed arrows, moves stopped on a
  road (a head-on conflict lost or tied) as dashed arrows ending in a bar, conflicts as orange
  bursts (on the structure, or on the road), units bumped back as orange dashed arrows,
  captured structures ringed in magenta, units lost (destroyed, or disbanded over the PopCap)
  as "x1i" badges;
- a legend: the players (colour, structures held, PopCap used and owned, supply lines and what
  their units need, submitted or out) and what the shapes and signs mean.

Drawing is deterministic (the same view and event give the same bytes: everything is drawn in
label, seat and id order) and takes about 10-15 ms at 900 pixels. It is drawn as palette
indices (as `mapimage` draws), so the PNG is a small palette PNG in which every colour of the
style and of the players is exact. `places` says where each structure is drawn (tests, and
anything that points at the picture, use it). `draw_board_in_pool` draws in the drawing pool's
workers (`renderers.pool`); a View and a TurnMoved pickle as they are.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engine.errors import CommandError
from engine.supplylines import supply
from engine.supplylines.board import label_order, sorted_labels
from engine.supplylines.events import TurnMoved
from engine.supplylines.orders import Build, Move, parse
from engine.supplylines.rules import Rules
from engine.supplylines.rules import load as load_rules
from engine.supplylines.state import NEUTRAL, State, Unit
from engine.supplylines.view import View, state_of
from renderers import style
from renderers.encoding import png_bytes
from renderers.palette import Palette
from renderers.text import COVER, QUANTISE

if TYPE_CHECKING:
    from renderers.pool import DrawPool

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

# --- colours (the rest are `style`'s) -------------------------------------------------------------

ROAD = (84, 90, 104)
CONFLICT = style.CLASH  # bursts and bump-backs
CAPTURE = style.CAPTURE
LOST = style.LOST
IMMOBILE = (235, 30, 30)
SHORT = (255, 70, 70)  # "!": a network short of supply lines
QUESTION = style.YOURS  # "?": a supply choice to make
PIP = (0, 0, 0)
PIP_EDGE = (255, 255, 255)
BADGE_DARK = (16, 16, 20)
LEGEND_INK = (230, 230, 230)  # the legend's signs on a moderator's picture

# the shape a structure type is drawn as (`_shape`); other types are hexagons
SHAPES = {"city": "circle", "home": "house", "refinery": "diamond", "base": "square"}
SHAPE_NAMES = {
    "circle": "city",
    "house": "home city",
    "diamond": "refinery",
    "square": "military base",
}
# a unit type's letter on badges ("3i 1T"); other types: their first letter
UNIT_LETTERS = {"infantry": "i", "tank": "T"}

BASE = 900  # the size the proportions below are given for


def unit_letter(type_: str) -> str:
    return UNIT_LETTERS.get(type_, type_[:1] or "?")


def counts_text(counts: dict[str, int]) -> str:
    """{"infantry": 3, "tank": 1} -> "3i 1T" (in the order given)."""
    return " ".join(f"{n}{unit_letter(t)}" for t, n in counts.items() if n > 0)


# --- where things are ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where a structure is drawn: its centre and radius in pixels, and its shape."""

    label: str
    kind: str
    shape: str
    x: float
    y: float
    r: float

    @property
    def fill_point(self) -> tuple[int, int]:
        """A pixel inside the shape that shows its fill (below the label)."""
        return (round(self.x), round(self.y + 0.62 * self.r))

    @property
    def reach(self) -> float:
        """How far from the centre the shape goes at most."""
        return self.r * (1.12 if self.shape in ("house", "diamond") else 1.0)


@dataclass(frozen=True)
class _Layout:
    size: int
    scale: float
    header: int  # the header's height
    legend_top: int
    places: dict[str, Place]
    legend_rows_players: int
    legend_rows_signs: int
    row: int  # a legend row's height
    per_row_players: int
    per_row_signs: int


def _px(layout_scale: float, n: float) -> int:
    return max(1, round(n * layout_scale))


def _rules(view: View) -> Rules:
    return load_rules(view.rules)


def _kind(rules: Rules, label: str) -> str:
    return rules.structure_of_letter(label[0]) or "structure"


_SIGNS = (
    "order",
    "moved",
    "stopped",
    "bumped",
    "conflict",
    "captured",
    "lost",
    "marks",
    "immobile",
    "supply",
    "short",
)


def _layout(view: View, size: int) -> _Layout:
    s = size / BASE
    header = _px(s, 74)
    row = _px(s, 25)
    per_row_players = 1 if len(view.players) <= 3 else 2
    per_row_signs = 5
    rows_players = max(1, -(-len(view.players) // per_row_players))
    rows_signs = -(-(len(SHAPE_NAMES) + len(_SIGNS)) // per_row_signs)
    legend_h = (rows_players + rows_signs) * row + _px(s, 16)
    legend_top = size - legend_h
    base_r = 27 * s
    # the map's x and y keep their proportions (a map drawn symmetric stays so), fitted to
    # the room between the header and the legend, with room round it for the units' badges
    left, right = 2.2 * base_r, size - 2.2 * base_r
    top, bottom = header + 1.8 * base_r, legend_top - 2.4 * base_r
    labels = sorted_labels(view.board.structures)
    xs = [view.board.structures[label].x for label in labels] or [0.5]
    ys = [view.board.structures[label].y for label in labels] or [0.5]
    span_x, span_y = max(max(xs) - min(xs), 0.05), max(max(ys) - min(ys), 0.05)
    k = min((right - left) / span_x, (bottom - top) / span_y)
    mid_x, mid_y = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    cx, cy = (left + right) / 2, (top + bottom) / 2
    centres = {}
    for label in labels:
        st = view.board.structures[label]
        centres[label] = (cx + (st.x - mid_x) * k, cy + (st.y - mid_y) * k)
    closest = min(
        (math.dist(centres[a], centres[b]) for i, a in enumerate(labels) for b in labels[i + 1 :]),
        default=4 * base_r,
    )
    r = max(10 * s, min(base_r, 0.36 * closest))
    rules = _rules(view)
    places = {}
    for label in labels:
        kind = _kind(rules, label)
        x, y = centres[label]
        places[label] = Place(label, kind, SHAPES.get(kind, "hexagon"), x, y, r)
    return _Layout(
        size=size,
        scale=s,
        header=header,
        legend_top=legend_top,
        places=places,
        legend_rows_players=rows_players,
        legend_rows_signs=rows_signs,
        row=row,
        per_row_players=per_row_players,
        per_row_signs=per_row_signs,
    )


def places(view: View, size: int = BASE) -> dict[str, Place]:
    """Where `draw_board(view, size=size)` draws each structure."""
    return _layout(view, size).places


# --- the game as the picture needs it ---------------------------------------------------------------


@dataclass(frozen=True)
class _Supply:
    lines: dict[str, int]  # player -> lines of all their networks
    need: dict[str, int]  # player -> lines their units need
    short: frozenset[tuple[str, str]]  # (player, structure) in a network short of lines
    feeding: frozenset[tuple[str, str]]  # (player, structure) in a network that sends lines


def _supply(state: State, view: View) -> _Supply:
    lines: dict[str, int] = {}
    need: dict[str, int] = {}
    short: set[tuple[str, str]] = set()
    feeding: set[tuple[str, str]] = set()
    for p in _seat_order(view):
        if view.players[p].out:
            continue
        lines[p] = need[p] = 0
        for network in supply.networks(state, p):
            lines[p] += network.lines
            need[p] += network.need
            if network.short and network.units:
                short.update((p, s) for s in network.structures)
            if network.lines:
                feeding.update((p, s) for s in network.structures)
    return _Supply(lines, need, frozenset(short), frozenset(feeding))


def _seat_order(view: View) -> list[str]:
    return [p.id for p in sorted(view.players.values(), key=lambda p: (p.seat, p.id))]


def _colour(view: View, owner: str | None) -> RGB:
    player = view.players.get(owner) if owner is not None else None
    return style.parse_colour(player.colour) if player is not None else style.NEUTRAL


def _owner_rank(view: View, owner: str) -> tuple[int, str]:
    player = view.players.get(owner)
    return (player.seat if player is not None else 10**6, owner)


def _type_rank(rules: Rules, type_: str) -> tuple[int, str]:
    names = list(rules.units)
    return (names.index(type_) if type_ in names else len(names), type_)


# --- drawing helpers --------------------------------------------------------------------------------

HEADER_LINE = (60, 64, 74)


def _base_colours(view: View) -> list[RGB]:
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
    return fixed + [style.parse_colour(view.players[p].colour) for p in _seat_order(view)]


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


class _Pen:
    """The picture as palette indices (an "L" image and its `Palette`, as `mapimage` draws):
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
        return _px(self.s, n)

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
        if pips:
            pr = self.px(3)
            step = self.px(7.5)
            cx = x1 - pad - pr - (pips - 1) * step
            for k in range(pips):
                self.ellipse(
                    (cx + k * step, (y0 + y1) / 2), pr, pip_fill, PIP_EDGE, max(1, self.px(1.2))
                )

    def badge_width(self, text: str, size: int, pips: int = 0) -> float:
        pad = self.px(5)
        w = self.width(text, size) + 2 * pad
        if pips:
            w += self.px(3) + pips * self.px(7.5)
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


def _shape(pen: _Pen, shape: str, x: float, y: float, r: float, fill: RGB) -> None:
    width = max(1, pen.px(2.5))
    if shape == "circle":
        pen.ellipse((x, y), r, fill, style.OUTLINE, width)
    else:
        pen.polygon(_shape_points(shape, x, y, r), fill, style.OUTLINE, width)


def _trimmed(a: Place, b: Place, offset: float, gap: float) -> tuple[Point, Point] | None:
    """The segment from a's edge to b's edge, shifted `offset` pixels to its right (so that
    moves both ways along a road do not cover each other). None when the two touch."""
    length = math.dist((a.x, a.y), (b.x, b.y))
    if length <= a.reach + b.reach + 2 * gap:
        return None
    ux, uy = (b.x - a.x) / length, (b.y - a.y) / length
    nx_, ny_ = -uy, ux  # to the right on screen (y down)
    start, end = a.reach + gap, length - b.reach - gap
    p = (a.x + ux * start + nx_ * offset, a.y + uy * start + ny_ * offset)
    q = (a.x + ux * end + nx_ * offset, a.y + uy * end + ny_ * offset)
    return p, q


def _along(p: Point, q: Point, t: float) -> Point:
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _bar(pen: _Pen, p: Point, q: Point, half: float, colour: RGB) -> None:
    """A bar across the end of a move stopped on the road."""
    length = max(1e-9, math.dist(p, q))
    nx_, ny_ = -(q[1] - p[1]) / length, (q[0] - p[0]) / length
    a = (q[0] + nx_ * half, q[1] + ny_ * half)
    b = (q[0] - nx_ * half, q[1] - ny_ * half)
    pen.line(a, b, colour, pen.px(4), outline=pen.px(1.5))


# --- what is drawn next to a structure ---------------------------------------------------------------


@dataclass(frozen=True)
class _Item:
    """A badge: "2i" in the owner's colour (with a pip per mark), an immobile group, a build
    ordered ("+1T", dashed), units lost ("x1i"), or a network short of supply ("!")."""

    text: str
    fill: RGB
    ink: RGB
    border: RGB = style.OUTLINE
    border_w: int = 1
    pips: int = 0
    pip_fill: RGB = PIP
    kind: str = "badge"  # "badge", "dashed" or "short"


def _unit_items(
    view: View, rules: Rules, pen: _Pen, units: list[Unit], short: set[str]
) -> list[list[_Item]]:
    """One row per owner: a badge per (type, marks), then "!" when the owner's network here is
    short of supply lines."""
    immobile_at = rules.marks.immobile_at
    by_owner: dict[str, dict[tuple[str, int], int]] = {}
    for u in units:
        groups = by_owner.setdefault(u.owner, {})
        groups[(u.type, u.marks)] = groups.get((u.type, u.marks), 0) + 1
    rows = []
    for owner in sorted(by_owner, key=lambda o: _owner_rank(view, o)):
        colour = _colour(view, owner)
        row = []
        for (type_, marks), n in sorted(
            by_owner[owner].items(), key=lambda kv: (_type_rank(rules, kv[0][0]), kv[0][1])
        ):
            text = f"{n}{unit_letter(type_)}"
            if marks >= immobile_at:
                row.append(_Item(text, BADGE_DARK, colour, IMMOBILE, pen.px(2.5), marks, IMMOBILE))
            else:
                row.append(_Item(text, colour, style.text_on(colour), pips=marks))
        if owner in short:
            row.append(_Item("!", SHORT, (255, 255, 255), kind="short"))
        rows.append(row)
    return rows


@dataclass(frozen=True)
class _Block:
    rows: list[list[_Item]]
    widths: list[list[float]]
    w: float
    h: float


def _block(pen: _Pen, rows: list[list[_Item]], size: int, row_h: int) -> _Block:
    gap = pen.px(3)
    widths = [
        [
            float(row_h) if it.kind == "short" else pen.badge_width(it.text, size, it.pips)
            for it in row
        ]
        for row in rows
    ]
    w = max((sum(ws) + gap * (len(ws) - 1) for ws in widths), default=0.0)
    h = len(rows) * row_h + max(0, len(rows) - 1) * gap
    return _Block(rows, widths, w, h)


def _road_boxes(layout: _Layout, roads: list[tuple[str, str]]) -> list[Box]:
    """Small boxes along the roads: a badge had better not hide one."""
    P = layout.places
    step = 12 * layout.scale
    half = 3 * layout.scale
    boxes = []
    for a, b in roads:
        pa, pb = P[a], P[b]
        length = math.dist((pa.x, pa.y), (pb.x, pb.y))
        n = max(1, int(length // step))
        for k in range(1, n):
            x, y = _along((pa.x, pa.y), (pb.x, pb.y), k / n)
            boxes.append((x - half, y - half, x + half, y + half))
    return boxes


def _place_blocks(
    layout: _Layout, blocks: dict[str, _Block], avoid: Sequence[Box], roads: Sequence[Box]
) -> dict[str, tuple[int, int]]:
    """The top-left corner of each structure's block: below it if that is clear of the other
    structures, blocks and roads, else above, right, left..., else where it covers least."""
    s = layout.scale
    taken: list[Box] = list(avoid)
    for p in layout.places.values():
        k = p.reach + 2 * s
        taken.append((p.x - k, p.y - k, p.x + k, p.y + k))
    lo_x, hi_x = 4 * s, layout.size - 4 * s
    lo_y, hi_y = layout.header + 2 * s, layout.legend_top - 2 * s
    corners: dict[str, tuple[int, int]] = {}
    for label in sorted(blocks, key=label_order):
        b, p = blocks[label], layout.places[label]
        gap = 4 * s
        below = p.y + p.reach + gap
        above = p.y - p.reach - gap - b.h
        options = [
            (p.x - b.w / 2, below),
            (p.x - b.w / 2, above),
            (p.x + p.reach + gap, p.y - b.h / 2),
            (p.x - p.reach - gap - b.w, p.y - b.h / 2),
            (p.x + p.reach * 0.6, below),
            (p.x - p.reach * 0.6 - b.w, below),
            (p.x + p.reach * 0.6, above),
            (p.x - p.reach * 0.6 - b.w, above),
        ]
        best: tuple[float, int, int] | None = None
        for x, y in options:
            x = round(min(max(x, lo_x), hi_x - b.w))
            y = round(min(max(y, lo_y), hi_y - b.h))
            box = (x, y, x + b.w, y + b.h)
            cost = sum(_overlap(box, o) for o in taken)
            cost += 0.2 * sum(_overlap(box, o) for o in roads)
            if best is None or cost < best[0]:
                best = (cost, x, y)
            if cost == 0:
                break
        assert best is not None
        _, x, y = best
        corners[label] = (x, y)
        taken.append((x, y, x + b.w, y + b.h))
    return corners


def _draw_block(pen: _Pen, block: _Block, x: float, y: float, size: int, row_h: int) -> None:
    gap = pen.px(3)
    for r, (row, widths) in enumerate(zip(block.rows, block.widths, strict=True)):
        top = y + r * (row_h + gap)
        row_w = sum(widths) + gap * (len(widths) - 1)
        left = round(x + (block.w - row_w) / 2)
        for it, w in zip(row, widths, strict=True):
            box = (left, top, left + w - 1, top + row_h - 1)
            if it.kind == "short":
                _sign(pen, "short", box, it.fill)
            elif it.kind == "dashed":
                pen.box(box, BADGE_DARK, radius=pen.px(4))
                _dashed_box(pen, box, it.border, max(1, pen.px(2)))
                pen.text(
                    (box[0] + pen.px(5), (box[1] + box[3]) / 2),
                    it.text,
                    size,
                    it.ink,
                    BADGE_DARK,
                    "lm",
                )
            else:
                pen.badge(
                    box,
                    it.text,
                    size,
                    it.fill,
                    it.ink,
                    it.border,
                    it.border_w,
                    it.pips,
                    it.pip_fill,
                )
            left += round(w) + gap


def _dashed_box(pen: _Pen, box: Box, colour: RGB, width: int) -> None:
    x0, y0, x1, y1 = box
    dash, gap = pen.px(5), pen.px(3)
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    for k in range(4):
        pen.dashed(corners[k], corners[(k + 1) % 4], colour, width, dash, gap)


# --- orders -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Arrow:
    owner: str
    src: str
    dst: str
    counts: dict[str, int]


def _orders(
    view: View, state: State, rules: Rules
) -> tuple[list[_Arrow], dict[str, list[tuple[str, dict[str, int]]]]]:
    """The orders the view holds, read with the engine's parser: moves (with the units each
    takes: counted moves their counts, an "every unit" move the rest of the units free to
    move) and builds by structure. Orders that do not read (any more) are left out."""
    immobile_at = rules.marks.immobile_at
    arrows: list[_Arrow] = []
    builds: dict[str, list[tuple[str, dict[str, int]]]] = {}
    for player in sorted(view.orders, key=lambda o: _owner_rank(view, o)):
        moves: list[Move] = []
        for text in view.orders[player]:
            try:
                order = parse(text, state)
            except (CommandError, ValueError):
                continue
            if isinstance(order, Move):
                moves.append(order)
            elif isinstance(order, Build):
                builds.setdefault(order.at, []).append((player, {order.unit: order.count}))
        taken: dict[tuple[str, str], int] = {}
        for m in moves:
            for t, n in (m.units or {}).items():
                taken[(m.src, t)] = taken.get((m.src, t), 0) + n
        for m in moves:
            if m.units is not None:
                counts = dict(m.units)
            else:
                free: dict[str, int] = {}
                for u in view.units:
                    if u.owner == player and u.at == m.src and u.marks < immobile_at:
                        free[u.type] = free.get(u.type, 0) + 1
                counts = {t: max(0, n - taken.get((m.src, t), 0)) for t, n in free.items()}
            arrows.append(_Arrow(player, m.src, m.dst, _by_type(rules, counts)))
    return arrows, builds


def _by_type(rules: Rules, counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: _type_rank(rules, kv[0])))


# --- the last turn ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    moved: list[tuple[_Arrow, bool]]  # (arrow, stopped on the road by a head-on conflict)
    bumped: list[_Arrow]  # from a conflict's structure to where its losers went
    road_bursts: list[tuple[str, str]]
    structure_bursts: list[str]
    captured: list[str]
    lost: dict[str, dict[tuple[str, str], int]]  # structure -> (owner, type) -> how many


def _outcome(view: View, rules: Rules, report: TurnMoved) -> _Outcome:
    structures = view.board.structures
    who: dict[int, tuple[str, str]] = {u.id: (u.owner, u.type) for u in view.units}
    for entry in [*report.moved, *report.disbanded, *report.destroyed, *report.built]:
        who.setdefault(int(entry["id"]), (str(entry.get("owner")), str(entry.get("type"))))
    stopped: set[int] = set()
    road_bursts: set[tuple[str, str]] = set()
    structure_bursts: set[str] = set()
    bumps: dict[tuple[str, str, str], dict[str, int]] = {}
    for c in report.conflicts:
        place = str(c.get("place", ""))
        if place not in structures:  # a head-on conflict on the road "C2-C3"
            a, _, b = place.partition("-")
            if a in structures and b in structures:
                road_bursts.add((min(a, b, key=label_order), max(a, b, key=label_order)))
            stopped.update(int(i) for i in c.get("bumped", {}))
            continue
        structure_bursts.add(place)
        for uid, target in c.get("bumped", {}).items():
            owner, type_ = who.get(int(uid), (NEUTRAL, "?"))
            if target in structures and target != place:
                counts = bumps.setdefault((owner, place, str(target)), {})
                counts[type_] = counts.get(type_, 0) + 1
    groups: dict[tuple[str, str, str, bool], dict[str, int]] = {}
    for m in report.moved:
        src, dst = str(m.get("src")), str(m.get("dst"))
        if src in structures and dst in structures and src != dst:
            owner, type_ = who[int(m["id"])]
            counts = groups.setdefault((owner, src, dst, int(m["id"]) in stopped), {})
            counts[type_] = counts.get(type_, 0) + 1
    lost: dict[str, dict[tuple[str, str], int]] = {}
    for entry in [*report.destroyed, *report.disbanded]:
        at = str(entry.get("at"))
        if at in structures:
            here = lost.setdefault(at, {})
            key = (str(entry.get("owner")), str(entry.get("type")))
            here[key] = here.get(key, 0) + 1

    def road(key: tuple[str, str, str]) -> tuple[Any, ...]:
        return (_owner_rank(view, key[0]), label_order(key[1]), label_order(key[2]))

    return _Outcome(
        moved=[
            (_Arrow(k[0], k[1], k[2], _by_type(rules, c)), k[3])
            for k, c in sorted(groups.items(), key=lambda kv: (road(kv[0][:3]), kv[0][3]))
        ],
        bumped=[
            _Arrow(k[0], k[1], k[2], _by_type(rules, c))
            for k, c in sorted(bumps.items(), key=lambda kv: road(kv[0]))
        ],
        road_bursts=sorted(road_bursts, key=lambda ab: (label_order(ab[0]), label_order(ab[1]))),
        structure_bursts=sorted_labels(structure_bursts),
        captured=sorted_labels(
            {str(c.get("at")) for c in report.captured if str(c.get("at")) in structures}
        ),
        lost=lost,
    )


# --- the picture ----------------------------------------------------------------------------------


def render_board(
    view: View, *, title: str, turn_report: TurnMoved | None = None, size: int = BASE
) -> Image.Image:
    """The picture ("P" mode) that `draw_board` encodes."""
    size = max(300, int(size))
    rules = _rules(view)
    layout = _layout(view, size)
    state = state_of(view)
    sup = _supply(state, view)
    pen = _Pen(size, layout.scale, _base_colours(view))
    P = layout.places
    s = layout.scale

    # the roads, then the supply lines over them
    roads = sorted(
        (
            (min(a, b, key=label_order), max(a, b, key=label_order))
            for a, b in view.board.roads
            if a in P and b in P
        ),
        key=lambda ab: (label_order(ab[0]), label_order(ab[1])),
    )
    road_w = pen.px(4)
    for a, b in roads:
        pen.line((P[a].x, P[a].y), (P[b].x, P[b].y), ROAD, road_w)
    for a, b in roads:
        owner = view.owners.get(a)
        if owner is None or owner != view.owners.get(b) or owner not in view.players:
            continue
        if view.players[owner].out:
            continue
        colour = _colour(view, owner)
        if (owner, a) in sup.feeding:  # a network that sends lines: thick
            pen.line((P[a].x, P[a].y), (P[b].x, P[b].y), colour, pen.px(9), outline=pen.px(2))
        else:
            pen.line((P[a].x, P[a].y), (P[b].x, P[b].y), colour, road_w, outline=pen.px(1))

    small = pen.font_px(15)
    head = 15 * s
    counts: list[tuple[Point, str, RGB]] = []  # the units on arrows, drawn over everything

    # the last turn: moves (dashed), moves stopped on the road (a bar), bumps (orange)
    outcome = _outcome(view, rules, turn_report) if turn_report is not None else None
    if outcome is not None:
        for arrow, stop in outcome.moved:
            seg = _trimmed(P[arrow.src], P[arrow.dst], 0.5 * P[arrow.src].r, 3 * s)
            if seg is None:
                continue
            p, q = seg
            colour = _colour(view, arrow.owner)
            if stop:  # it met the enemy halfway and went back
                q = _along(p, q, 0.4)
            pen.dashed(p, q, colour, pen.px(4), 11 * s, 6 * s, outline=pen.px(1.5))
            if stop:
                _bar(pen, p, q, 9 * s, colour)
            else:
                pen.arrowhead(p, q, head, colour)
            counts.append((_along(p, q, 0.45), counts_text(arrow.counts), colour))
        for arrow in outcome.bumped:
            seg = _trimmed(P[arrow.src], P[arrow.dst], 0.5 * P[arrow.src].r, 3 * s)
            if seg is None:
                continue
            p, q = seg
            pen.dashed(p, q, CONFLICT, pen.px(4), 7 * s, 5 * s, outline=pen.px(1.5))
            pen.arrowhead(p, q, head, CONFLICT)
            counts.append(
                (_along(p, q, 0.25), counts_text(arrow.counts), _colour(view, arrow.owner))
            )

    # this turn's orders: solid arrows in the player's colour (in a turn's supply phase they
    # have been carried out: with the turn's outcome, the outcome shows them; none once the
    # game is over)
    arrows, builds = _orders(view, state, rules)
    if view.ended or (outcome is not None and view.phase != "orders"):
        arrows, builds = [], {}
    for arrow in arrows:
        if arrow.src not in P or arrow.dst not in P:
            continue
        seg = _trimmed(P[arrow.src], P[arrow.dst], 0.22 * P[arrow.src].r, 3 * s)
        if seg is None:
            continue
        p, q = seg
        colour = _colour(view, arrow.owner)
        pen.line(p, _along(q, p, head / max(1.0, math.dist(p, q))), colour, pen.px(6), pen.px(1.5))
        pen.arrowhead(p, q, head * 1.2, colour)
        counts.append((_along(p, q, 0.6), counts_text(arrow.counts), colour))

    # the structures
    label_px = max(10, round(0.78 * min((pl.r for pl in P.values()), default=16)))
    for label in sorted_labels(P):
        pl = P[label]
        fill = _colour(view, view.owners.get(label))
        if outcome is not None and label in outcome.captured:
            pen.ellipse((pl.x, pl.y), pl.reach + 7 * s, None, CAPTURE, pen.px(4))
        _shape(pen, pl.shape, pl.x, pl.y, pl.r, fill)
        ty = pl.y + (0.18 * pl.r if pl.shape == "house" else 0)
        pen.text((pl.x, ty), label, label_px, style.text_on(fill), fill, "mm")

    # next to each structure: its units, builds ordered, units lost
    badge_px = pen.font_px(17)
    row_h = pen.px(24)
    asked = {u for q in view.questions for u in q[0]}
    asked_at: set[str] = set()
    units_at: dict[str, list[Unit]] = {}
    for u in sorted(view.units, key=lambda u: u.id):
        if u.at in P:
            units_at.setdefault(u.at, []).append(u)
            if u.id in asked:
                asked_at.add(u.at)
    blocks: dict[str, _Block] = {}
    for label in sorted_labels(P):
        short = {o for o, st in sup.short if st == label}
        rows = _unit_items(view, rules, pen, units_at.get(label, []), short)
        for player, built in builds.get(label, []):
            colour = _colour(view, player)
            rows.append(
                [_Item("+" + counts_text(built), BADGE_DARK, colour, colour, kind="dashed")]
            )
        gone = outcome.lost.get(label) if outcome is not None else None
        if gone:
            rows.append(
                [
                    _Item(
                        f"x{n}{unit_letter(type_)}",
                        LOST,
                        (255, 255, 255),
                        _colour(view, owner),
                        pen.px(2),
                    )
                    for (owner, type_), n in sorted(
                        gone.items(),
                        key=lambda kv: (_owner_rank(view, kv[0][0]), _type_rank(rules, kv[0][1])),
                    )
                ]
            )
        if rows:
            blocks[label] = _block(pen, rows, badge_px, row_h)
    count_h = pen.px(21)
    count_boxes = []
    for pt, text, colour in counts:
        if text:
            w = pen.badge_width(text, small)
            box = (
                round(pt[0] - w / 2),
                round(pt[1] - count_h / 2),
                round(pt[0] - w / 2) + w,
                round(pt[1] - count_h / 2) + count_h,
            )
            count_boxes.append((box, text, colour))
    corners = _place_blocks(
        layout, blocks, [b for b, _, _ in count_boxes], _road_boxes(layout, roads)
    )
    for label in sorted_labels(blocks):
        _draw_block(pen, blocks[label], *corners[label], badge_px, row_h)
    for box, text, colour in count_boxes:
        pen.badge(box, text, small, BADGE_DARK, colour, colour, max(1, pen.px(1.5)))

    # conflicts, over everything on the board; supply questions
    if outcome is not None:
        for a, b in outcome.road_bursts:
            pen.burst(_along((P[a].x, P[a].y), (P[b].x, P[b].y), 0.5), 17 * s)
        for label in outcome.structure_bursts:
            pl = P[label]
            pen.burst((pl.x + 0.85 * pl.reach, pl.y - 0.85 * pl.reach), 16 * s)
    for label in sorted_labels(asked_at):
        pl = P[label]
        c = (pl.x - 0.85 * pl.reach, pl.y - 0.85 * pl.reach)
        pen.ellipse(c, 11 * s, QUESTION, style.OUTLINE, max(1, pen.px(1.5)))
        pen.text(c, "?", pen.font_px(15), (0, 0, 0), QUESTION, "mm")

    _header(pen, view, layout, title, bool(view.questions))
    _legend(pen, view, layout, sup, rules)
    return pen.finish()


# --- header and legend -----------------------------------------------------------------------------


def _header(pen: _Pen, view: View, layout: _Layout, title: str, asked: bool) -> None:
    s = layout.scale
    big, mid = pen.font_px(27), pen.font_px(17)
    x0 = 14 * s
    bg = style.BACKGROUND
    turn = f"Turn {view.turn}"
    pen.text((layout.size - x0, 12 * s), turn, big, style.TEXT, bg, "ra")
    room = layout.size - 3 * x0 - pen.width(turn, big)
    shown = title
    while shown and pen.width(shown, big) > room:
        shown = shown[:-1]
    if shown != title:
        shown = shown[:-1] + "..."
    pen.text((x0, 12 * s), shown, big, style.TEXT, bg)
    if view.ended:
        winner = view.players.get(view.winner) if view.winner else None
        phase = f"game over: {winner.name} wins" if winner else "game over: nobody wins"
    elif not view.started:
        phase = "waiting for players"
    elif view.phase == "supply":
        phase = "supply phase: waiting for supply choices"
    else:
        phase = "orders phase"
    me = view.players.get(view.nation) if view.nation is not None else None
    if me is not None:
        whose = f"{me.name}'s view"
    elif view.orders:
        whose = "moderator's view: every player's orders"
    else:
        whose = "the board as everyone sees it"
    pen.text((x0, 50 * s), f"{phase}  |  {whose}", mid, style.TEXT_DIM, bg)
    if asked:
        pen.text((layout.size - x0, 50 * s), "? you have a supply choice", mid, QUESTION, bg, "ra")
    pen.draw.line(
        ((0, layout.header - 1), (layout.size, layout.header - 1)), fill=pen.ink(HEADER_LINE)
    )


def _legend(pen: _Pen, view: View, layout: _Layout, sup: _Supply, rules: Rules) -> None:
    s = layout.scale
    size = layout.size
    bg = style.BACKGROUND
    top = layout.legend_top + 6 * s
    pen.draw.line(((0, layout.legend_top), (size, layout.legend_top)), fill=pen.ink(HEADER_LINE))
    font = pen.font_px(15)
    sw = pen.px(16)
    row = layout.row
    # the players: colour, structures, PopCap, supply lines / lines needed, submitted or out
    col = (size - 16 * s) / layout.per_row_players
    for i, pid in enumerate(_seat_order(view)):
        p = view.players[pid]
        x = round(10 * s + (i % layout.per_row_players) * col)
        y = round(top + (i // layout.per_row_players) * row)
        cy = y + 2 * s + sw / 2
        colour = style.parse_colour(p.colour)
        pen.box((x, y + 2 * s, x + sw, y + 2 * s + sw), colour, style.OUTLINE)
        short = any(o == pid for o, _ in sup.short)
        bits = [f"{p.structures} held", f"PopCap {p.popcap_used}/{p.popcap}"]
        if p.out:
            bits.append("out")
        else:
            bits.append(f"supply lines {sup.lines.get(pid, 0)}/{sup.need.get(pid, 0)}")
            if p.submitted:
                bits.append("orders done")
        tail = "  " + "  ".join(bits)
        you = " (you)" if pid == view.nation else ""
        room = col - sw - 14 * s - (sw + 6 * s if short else 0)
        name = p.name
        while name and pen.width(name + you + tail, font) > room:
            name = name[:-1]
        if name != p.name and len(name) > 1:
            name = name[:-1] + "."
        text = name + you + tail
        pen.text(
            (x + sw + 7 * s, cy), text, font, style.TEXT_DIM if p.out else style.TEXT, bg, "lm"
        )
        if short:
            tx = round(x + sw + 7 * s + pen.width(text, font) + 6 * s)
            _sign(pen, "short", (tx, cy - sw / 2, tx + sw, cy + sw / 2), colour)
    # what the shapes and signs mean
    y0 = top + layout.legend_rows_players * row + 4 * s
    col = (size - 16 * s) / layout.per_row_signs
    names = {
        **SHAPE_NAMES,
        "order": "your orders" if view.nation is not None else "orders",
        "moved": "moved last turn",
        "stopped": "stopped on the road",
        "bumped": "bumped back",
        "conflict": "conflict",
        "captured": "captured",
        "lost": "units lost",
        "marks": "marks: no supply",
        "immobile": f"immobile ({rules.marks.immobile_at} marks)",
        "supply": "supply line",
        "short": "short of supply",
    }
    ink = _colour(view, view.nation) if view.nation in view.players else LEGEND_INK
    for i, sign in enumerate([*SHAPE_NAMES, *_SIGNS]):
        x = round(10 * s + (i % layout.per_row_signs) * col)
        y = round(y0 + (i // layout.per_row_signs) * row)
        _sign(pen, sign, (x, y + 2 * s, x + 2 * sw, y + 2 * s + sw), ink)
        pen.text((x + 2 * sw + 7 * s, y + 2 * s + sw / 2), names[sign], font, style.TEXT, bg, "lm")


def _sign(pen: _Pen, sign: str, box: Box, ink: RGB) -> None:
    """A sign of the legend in `box` (the player's colour `ink` where it has one)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h = y1 - y0
    tip = x1 - h * 0.6
    dash, gap = 5 * pen.s, 3 * pen.s
    if sign in SHAPE_NAMES:
        _shape(pen, sign, cx, cy, h * 0.5, style.NEUTRAL)
    elif sign == "order":
        pen.line((x0, cy), (tip, cy), ink, pen.px(4), outline=pen.px(1))
        pen.arrowhead((x0, cy), (x1, cy), h * 0.7, ink)
    elif sign == "moved":
        pen.dashed((x0, cy), (tip, cy), ink, pen.px(3), dash, gap)
        pen.arrowhead((x0, cy), (x1, cy), h * 0.7, ink)
    elif sign == "stopped":
        pen.dashed((x0, cy), (x1 - 3 * pen.s, cy), ink, pen.px(3), dash, gap)
        _bar(pen, (x0, cy), (x1 - 3 * pen.s, cy), h * 0.45, ink)
    elif sign == "bumped":
        pen.dashed((x0, cy), (tip, cy), CONFLICT, pen.px(3), dash, gap)
        pen.arrowhead((x0, cy), (x1, cy), h * 0.7, CONFLICT)
    elif sign == "conflict":
        pen.burst((cx, cy), h * 0.6)
    elif sign == "captured":
        pen.ellipse((cx, cy), h * 0.5, None, CAPTURE, pen.px(3))
    elif sign == "lost":
        pen.badge(box, "x1i", pen.font_px(12), LOST, (255, 255, 255), ink, pen.px(1.5))
    elif sign == "marks":
        pen.badge(box, "1i", pen.font_px(12), ink, style.text_on(ink), pips=2)
    elif sign == "immobile":
        pen.badge(box, "1i", pen.font_px(12), BADGE_DARK, ink, IMMOBILE, pen.px(2), 3, IMMOBILE)
    elif sign == "supply":
        pen.line((x0, cy), (x1, cy), ink, pen.px(8), outline=pen.px(1.5))
    elif sign == "short":
        r = min(h, x1 - x0) * 0.5
        pen.ellipse((cx, cy), r, SHORT, style.OUTLINE, max(1, pen.px(1.2)))
        pen.text((cx, cy), "!", max(10, round(r * 1.5)), (255, 255, 255), SHORT, "mm")


# --- bytes ----------------------------------------------------------------------------------------


def draw_board(
    view: View, *, title: str, turn_report: TurnMoved | None = None, size: int = BASE
) -> bytes:
    """The board as PNG bytes, `size` pixels square (see the module's docstring for what it
    shows). `turn_report`: the last turn's moves, conflicts, captures and losses, drawn over
    the board as it is now."""
    return png_bytes(render_board(view, title=title, turn_report=turn_report, size=size))


def draw_board_job(view: View, options: dict[str, Any]) -> bytes:
    """`draw_board(view, **options)`, for a drawing worker (`renderers.pool.DrawPool.run`:
    the view and a `TurnMoved` pickle as they are)."""
    return draw_board(view, **options)


async def draw_board_in_pool(
    view: View,
    *,
    title: str,
    turn_report: TurnMoved | None = None,
    size: int = BASE,
    pool: DrawPool | None = None,
) -> bytes:
    """`draw_board` in a worker of the drawing pool (`pool`, else the default one), so that
    drawing never holds the event loop."""
    from renderers import pool as drawing

    chosen = pool if pool is not None else drawing.default_pool()
    options = {"title": title, "turn_report": turn_report, "size": size}
    data: bytes = await chosen.run(draw_board_job, view, options)
    return data


def timelapse(first: State, entries: Iterable[dict[str, Any]], *, title: str = "") -> bytes:
    """The game replayed from its first state (changed in place) as a GIF: the whole board
    after each turn, with that turn's moves and conflicts, and the board at the end.
    Replaying and drawing take a while: run it off the event loop."""
    from engine.interface.entries import entry_from_json
    from engine.supplylines.kind import KIND
    from engine.supplylines.view import full_view
    from renderers.encoding import encode_gif

    images: list[Image.Image] = []
    for data in entries:
        events = KIND.apply(first, entry_from_json(data))
        for event in events:
            if isinstance(event, TurnMoved):
                images.append(
                    render_board(full_view(first), title=title, turn_report=event, size=600)
                )
    images.append(render_board(full_view(first), title=title, size=600))
    return encode_gif(images, frame_ms=900)
