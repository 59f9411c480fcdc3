"""Which squares a picture shows and where each is drawn: the `Region` (rows and columns of
the map, which may wrap round the torus, and the size of a square), the part of the board
that matters to a nation (`focus_region`), a window round a square (`span`), and a square's
pixel on a region (`corner_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.strategic.view import View
from renderers.strategic.markers import Marker


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


FOCUS_MARGIN = 3  # squares round the nation's things
FOCUS_LEAST = 11  # squares across at least
FOCUS_MOST = 30  # and at most, round what a nation with nothing of its own has seen
EVENT_MARGIN = 2
EVENT_NEAR = 4  # own things this close to a marker are shown with it
EVENT_MOST = 24


def focus_region(view: View, markers: Sequence[Marker] = ()) -> tuple[list[int], list[int]]:
    """The columns and rows (wrapping round the torus) a focused picture shows: with markers,
    their squares (a blast's whole radius) and the nation's own things within `EVENT_NEAR` of
    them; else all its cities and units, however far apart (the shortest runs round the torus
    that hold them all, up to the whole board); else the squares it knows (at most
    `FOCUS_MOST` across); else the whole board."""
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
    else:  # every city and every unit (issue 29: not only the home island's)
        squares = own or np.flatnonzero(view.terrain).tolist()
        if not squares:
            return list(range(w)), list(range(h))
        points = [(sq % w, sq // w) for sq in squares]
        margin, most = FOCUS_MARGIN, max(w, h) if own else FOCUS_MOST
    if most < max(w, h):  # one place, not two far-off corners (a nation's own: all of them)
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


def around(centre: int, radius: int, size: int) -> list[int]:
    if 2 * radius + 1 >= size:
        return list(range(size))
    return [(centre + d) % size for d in range(-radius, radius + 1)]


def corners(view: View, region: Region) -> dict[int, tuple[int, int]]:
    """Map square -> pixel of its top-left corner, for the squares in the region."""
    out = {}
    c = region.cell
    w = view.width
    for j, y in enumerate(region.rows):
        for i, x in enumerate(region.cols):
            out[y * w + x] = (i * c, j * c)
    return out


def corner_of(view: View, region: Region, sq: int) -> tuple[int, int] | None:
    x, y = sq % view.width, sq // view.width
    try:
        i = region.cols.index(x) if len(region.cols) != view.width else x
        j = region.rows.index(y) if len(region.rows) != view.height else y
    except ValueError:
        return None
    return i * region.cell, j * region.cell
