"""The squares within a radius of many squares at once (Chebyshev, wrapping), as flat indexes,
and how many of those windows cover each square: count grids built in bulk (a world loaded,
its sight and supply indexes) instead of one window at a time.

A window is the (2r+1)^2 squares around its centre; along an axis no longer than 2r+1 it takes
each line of that axis once (as the indexes' own stamps do), so no square is in it twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

# the most indexes a table of every square's window may hold (64 KiB; tables of large maps
# would cost more memory than working their windows out each time saves), and how many
# tables are kept (a map's shape and each radius its sight and supply use)
TABLE_LIMIT = 1 << 14
TABLES = 256


def windows(shape: tuple[int, int], squares: Sequence[int] | np.ndarray, r: int) -> np.ndarray:
    """One row per square: the flat indexes of its window (row by row, wrapping)."""
    h, w = shape
    centres = np.asarray(squares, dtype=np.intp)
    table = _table(h, w, r) if h * w * _side(r, h) * _side(r, w) <= TABLE_LIMIT else None
    if table is not None:
        return table[centres]
    return _windows(h, w, centres, r)


def window(shape: tuple[int, int], sq: int, r: int) -> np.ndarray:
    """The flat indexes of one square's window (`windows` of one square)."""
    h, w = shape
    if h * w * _side(r, h) * _side(r, w) <= TABLE_LIMIT:
        return _table(h, w, r)[sq]
    y, x = divmod(sq, w)
    rows = np.arange(y - r, y + r + 1) % h if 2 * r + 1 < h else np.arange(h)
    cols = np.arange(x - r, x + r + 1) % w if 2 * r + 1 < w else np.arange(w)
    return (rows[:, None] * w + cols).reshape(-1)


def count_windows(
    shape: tuple[int, int], squares: Sequence[int] | np.ndarray, r: int
) -> np.ndarray:
    """For every square, how many of the windows round `squares` cover it (int32, `shape`); a
    square listed twice counts twice."""
    h, w = shape
    flat = windows(shape, squares, r).reshape(-1)
    return np.bincount(flat, minlength=h * w).astype(np.int32).reshape(h, w)


def add_windows(grid: np.ndarray, squares: Sequence[int] | np.ndarray, r: int) -> None:
    """Add to `grid` (int32, the map's shape) how many of the windows round `squares` cover
    each square, writing only the squares they cover: a new grid's memory (`np.zeros`)
    stays untouched, and out of the process's resident memory, where no window reaches (a
    nation's few suppliers on a large map; a dense count would touch it all)."""
    flat = windows(grid.shape, squares, r).reshape(-1)
    where, count = np.unique(flat, return_counts=True)
    grid.reshape(-1)[where] += count.astype(np.int32)


def _side(r: int, n: int) -> int:
    return min(2 * r + 1, n)


@lru_cache(maxsize=TABLES)
def _table(h: int, w: int, r: int) -> np.ndarray:
    """Every square's window (read only: shared by every world of this shape)."""
    table = _windows(h, w, np.arange(h * w), r).astype(np.int32)
    table.flags.writeable = False
    return table


def _windows(h: int, w: int, centres: np.ndarray, r: int) -> np.ndarray:
    ys = centres // w
    rows = _lines(ys, r, h)
    cols = _lines(centres - ys * w, r, w)
    flat = rows[:, :, None] * w + cols[:, None, :]
    if len(flat) != len(centres):  # (every window takes every line of both axes)
        flat = np.broadcast_to(flat, (len(centres), *flat.shape[1:]))
    return flat.reshape(len(centres), flat.shape[1] * flat.shape[2])


def _lines(at: np.ndarray, r: int, n: int) -> np.ndarray:
    """The lines (rows or columns) of each window along an axis of `n` lines (one row for
    them all when each window takes every line)."""
    if 2 * r + 1 >= n:
        return np.arange(n)[None, :]
    return (at[:, None] + np.arange(-r, r + 1)) % n
