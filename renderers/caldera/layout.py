"""Where things are on the star map's picture: each place's centre (the known tiles and the
unexplored space round them), the hexes' radius fitted to the picture's width, the header
above and the legend below, and where a place's fleets' badges go."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.caldera import hexes
from renderers.caldera.style import MAX_RADIUS, WIDTH
from renderers.caldera.view import StarMapView

Point = tuple[float, float]
Box = tuple[int, int, int, int]

SQRT3 = math.sqrt(3)
HEADER = 70
LEGEND_ROW = 36
LEGEND_COLUMNS = 3


def legend_rows(view: StarMapView, entries: int) -> int:
    owners = len({f.owner for f in view.fleets})
    return -(-entries // LEGEND_COLUMNS) + -(-owners // LEGEND_COLUMNS)


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    radius: float
    legend_top: int
    centres: dict[str, Point]  # every place drawn: known tiles and unexplored space


def lay_out(view: StarMapView, legend_entries: int, width: int = WIDTH) -> Layout:
    places = [t.place for t in view.tiles] + view.unexplored()
    units = {p: _unit_centre(hexes.parse(p)) for p in places}
    xs = [x for x, _ in units.values()] or [0.0]
    ys = [y for _, y in units.values()] or [0.0]
    span_x = max(xs) - min(xs) + 2.0  # hex radii, a hex's width round each centre
    span_y = max(ys) - min(ys) + SQRT3
    pad = 10
    radius = min(float(MAX_RADIUS), (width - 2 * pad) / span_x)
    map_h = span_y * radius
    left = (width - (max(xs) - min(xs)) * radius) / 2
    top = HEADER + pad + SQRT3 / 2 * radius
    centres = {
        p: (left + (x - min(xs)) * radius, top + (y - min(ys)) * radius)
        for p, (x, y) in units.items()
    }
    legend_top = round(HEADER + pad + map_h + pad)
    height = legend_top + legend_rows(view, legend_entries) * LEGEND_ROW + 2 * pad
    return Layout(width, height, radius, legend_top, centres)


def _unit_centre(h: hexes.Hex) -> Point:
    """A flat-top hex's centre for hexes of radius 1, Earth at (0, 0), y down."""
    q, r = h
    return (1.5 * q, SQRT3 * (r + q / 2))
