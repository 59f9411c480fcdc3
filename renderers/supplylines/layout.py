"""Where things are: each structure's place (its centre, radius and shape), fitted between the
header and the legend with the map's proportions kept; the segment between two places, and a
point along a segment."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.supplylines.board import sorted_labels
from engine.supplylines.rules import Rules
from engine.supplylines.view import View
from renderers.supplylines.game import rules_of
from renderers.supplylines.style import BASE, SHAPE_NAMES, SHAPES, px

Point = tuple[float, float]
Box = tuple[float, float, float, float]


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
class Layout:
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


def _kind(rules: Rules, label: str) -> str:
    return rules.structure_of_letter(label[0]) or "structure"


SIGNS = (
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


def lay_out(view: View, size: int) -> Layout:
    s = size / BASE
    header = px(s, 74)
    row = px(s, 25)
    per_row_players = 1 if len(view.players) <= 3 else 2
    per_row_signs = 5
    rows_players = max(1, -(-len(view.players) // per_row_players))
    rows_signs = -(-(len(SHAPE_NAMES) + len(SIGNS)) // per_row_signs)
    legend_h = (rows_players + rows_signs) * row + px(s, 16)
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
    rules = rules_of(view)
    places = {}
    for label in labels:
        kind = _kind(rules, label)
        x, y = centres[label]
        places[label] = Place(label, kind, SHAPES.get(kind, "hexagon"), x, y, r)
    return Layout(
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
    return lay_out(view, size).places


def trimmed(a: Place, b: Place, offset: float, gap: float) -> tuple[Point, Point] | None:
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


def along(p: Point, q: Point, t: float) -> Point:
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
