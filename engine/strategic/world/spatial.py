"""Who is near a square: ids of units bucketed by tile, kept up to date as they move.

Interception and interdiction ask, for every step of every moving unit, which fighters, ships
and coastal guns are within their radius of the square entered. Scanning every such unit of
the world made a tick of a busy war cost seconds; a tile index answers from the few tiles the
radius touches. The index is derived state, rebuilt from the units on load.
"""

from __future__ import annotations

TILE = 8


class TileIndex:
    def __init__(self, width: int, height: int, tile: int = TILE) -> None:
        self.width, self.height, self.tile = width, height, tile
        self.cols = -(-width // tile)
        self.rows = -(-height // tile)
        self.tiles: dict[int, set[int]] = {}
        self._line_cache: dict[tuple[int, int, int], tuple[int, ...]] = {}

    def _tile(self, sq: int) -> int:
        y, x = divmod(sq, self.width)
        return (y // self.tile) * self.cols + x // self.tile

    def add(self, uid: int, sq: int) -> None:
        self.tiles.setdefault(self._tile(sq), set()).add(uid)

    def remove(self, uid: int, sq: int) -> None:
        bucket = self.tiles.get(self._tile(sq))
        if bucket is not None:
            bucket.discard(uid)

    def move(self, uid: int, old: int, new: int) -> None:
        a, b = self._tile(old), self._tile(new)
        if a != b:
            self.tiles[a].discard(uid)
            self.tiles.setdefault(b, set()).add(uid)

    def near(self, sq: int, radius: int) -> set[int]:
        """Ids of the units in every tile the (2r+1)^2 window around the square touches (a
        superset of those within `radius`: callers check the distance)."""
        y, x = divmod(sq, self.width)
        cols = self._lines(x, radius, self.width, self.cols)
        rows = self._lines(y, radius, self.height, self.rows)
        out: set[int] = set()
        tiles = self.tiles
        for row in rows:
            base = row * self.cols
            for col in cols:
                bucket = tiles.get(base + col)
                if bucket:
                    out |= bucket
        return out

    def _lines(self, at: int, radius: int, size: int, count: int) -> tuple[int, ...]:
        """Tile lines (columns or rows) the window [at - r, at + r] touches, wrapping."""
        key = (at, radius, size)
        lines = self._line_cache.get(key)
        if lines is None:
            if 2 * radius + 1 >= size:
                lines = tuple(range(count))
            else:
                lines = tuple(
                    sorted({((at + d) % size) // self.tile for d in range(-radius, radius + 1)})
                )
            self._line_cache[key] = lines
        return lines
