"""Torus geometry and the supply dilation agree with a brute-force definition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import Grid, parse_coord
from engine.supply import dilate


def brute_distance(grid: Grid, a: int, b: int) -> int:
    (ax, ay), (bx, by) = grid.xy(a), grid.xy(b)
    dx = min((ax - bx) % grid.width, (bx - ax) % grid.width)
    dy = min((ay - by) % grid.height, (by - ay) % grid.height)
    return max(dx, dy)


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 40), st.integers(3, 40), st.data())
def test_distance_wraps_both_edges_and_is_symmetric(w, h, data):
    grid = Grid(w, h)
    a = data.draw(st.integers(0, grid.size - 1))
    b = data.draw(st.integers(0, grid.size - 1))
    assert grid.distance(a, b) == grid.distance(b, a) == brute_distance(grid, a, b)
    assert all(grid.distance(a, n) <= 1 for n in grid.neighbours(a))
    r = data.draw(st.integers(0, 6))
    assert sorted(grid.within(a, r)) == sorted(
        i for i in range(grid.size) if brute_distance(grid, a, i) <= r
    )


def test_corner_neighbours_wrap():
    grid = Grid(10, 8)
    assert sorted(grid.label(n) for n in grid.neighbours(grid.index(0, 0))) == sorted(
        ["9,7", "0,7", "1,7", "9,0", "1,0", "9,1", "0,1", "1,1"]
    )
    assert grid.distance(grid.index(0, 0), grid.index(9, 7)) == 1


def test_parse_coord():
    assert parse_coord("12,7") == (12, 7)
    assert parse_coord(" 3 4 ") == (3, 4)


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 30), st.integers(4, 30), st.integers(0, 8), st.data())
def test_dilation_matches_the_definition(w, h, r, data):
    grid = Grid(w, h)
    sources = data.draw(st.lists(st.integers(0, grid.size - 1), max_size=6))
    mask = np.zeros(grid.size, dtype=bool)
    mask[sources] = True
    got = dilate(mask.reshape(h, w), r).reshape(-1)
    want = [any(brute_distance(grid, s, i) <= r for s in sources) for i in range(grid.size)]
    assert got.tolist() == want
