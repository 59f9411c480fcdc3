"""Where things are on the star map's picture: each place's centre (the known tiles, the
unexplored space round them and the places the view leaves room for), the hexes' radius
fitted to the picture's width, the header above and the legend below, and where a place's
fleets' badges go."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.caldera import hexes
from renderers.caldera.style import MAX_RADIUS, WIDTH
from renderers.caldera.view import StarMapView

Point = tuple[float, float]
Box = tuple[int, int, int, int]

SQRT3 = math.sqrt(3)
HEADER = 70  # at WIDTH
LEGEND_ROW = 36
LEGEND_COLUMNS = 3


def legend_rows(view: StarMapView, entries: int) -> int:
    owners = len({f.owner for f in view.fleets})
    return -(-entries // LEGEND_COLUMNS) + -(-owners // LEGEND_COLUMNS)


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    scale: float  # the picture's width over WIDTH: the header's and the legend's proportions
    header: int  # the header's height
    radius: float
    legend_top: int
    row: int  # a legend row's height
    centres: dict[str, Point]  # every place drawn: known tiles and unexplored space

    def px(self, n: float) -> int:
        """n pixels of a picture WIDTH wide, in this one."""
        return max(1, round(n * self.scale))


def lay_out(view: StarMapView, legend_entries: int, width: int = WIDTH) -> Layout:
    scale = width / WIDTH
    header, row, pad = round(HEADER * scale), round(LEGEND_ROW * scale), round(10 * scale)
    places = list(dict.fromkeys([t.place for t in view.tiles] + view.unexplored() + [*view.extent]))
    units = {p: _unit_centre(hexes.parse(p)) for p in places}
    xs = [x for x, _ in units.values()] or [0.0]
    ys = [y for _, y in units.values()] or [0.0]
    span_x = max(xs) - min(xs) + 2.0  # hex radii, a hex's width round each centre
    span_y = max(ys) - min(ys) + SQRT3
    radius = min(MAX_RADIUS * scale, (width - 2 * pad) / span_x)
    map_h = span_y * radius
    left = (width - (max(xs) - min(xs)) * radius) / 2
    top = header + pad + SQRT3 / 2 * radius
    centres = {
        p: (left + (x - min(xs)) * radius, top + (y - min(ys)) * radius)
        for p, (x, y) in units.items()
    }
    legend_top = round(header + pad + map_h + pad)
    height = legend_top + legend_rows(view, legend_entries) * row + 2 * pad
    return Layout(width, height, scale, header, radius, legend_top, row, centres)


def _unit_centre(h: hexes.Hex) -> Point:
    """A flat-top hex's centre for hexes of radius 1, Earth at (0, 0), y down."""
    q, r = h
    return (1.5 * q, SQRT3 * (r + q / 2))
