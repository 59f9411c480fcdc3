"""Who is near a square: ids of units bucketed by tile, kept up to date as they move.

Interception and interdiction ask, for every step of every moving unit, which fighters, ships
and coastal guns are within their radius of the square entered. Scanning every such unit of
the world made a tick of a busy war cost seconds; a tile index answers from the few tiles the
radius touches. The index is derived state, rebuilt from the units on load.
"""

from __future__ import annotations

TILE = 8
# `buckets`' answers kept at most: a walk's steps ask of the same tiles over and over, and a
# hosted world keeps its indexes (a few tens of KiB at most)
_ANSWERS_KEPT = 256


class TileIndex:
    """Unit ids by tile, and within a tile by owner: a mover's own fighters and ships (most
    of those round it) are never looked at."""

    def __init__(self, width: int, height: int, tile: int = TILE) -> None:
        self.width, self.height, self.tile = width, height, tile
        self.cols = -(-width // tile)
        self.rows = -(-height // tile)
        self.tiles: dict[int, dict[str, set[int]]] = {}  # tile -> owner -> ids
        self._line_cache: dict[tuple[int, int, int], tuple[int, ...]] = {}
        # `buckets`' answers by window and owner left out: the sets it names are read in
        # place, so an answer holds while no tile gains or loses an owner's set (a unit
        # moving within its tile and owner's set changes none of them)
        self._answers: dict[
            tuple[tuple[int, ...], tuple[int, ...], str | None], list[set[int]]
        ] = {}

    def _tile(self, sq: int) -> int:
        y, x = divmod(sq, self.width)
        return (y // self.tile) * self.cols + x // self.tile

    def add(self, uid: int, sq: int, owner: str) -> None:
        owners = self.tiles.setdefault(self._tile(sq), {})
        ids = owners.get(owner)
        if ids is None:
            ids = owners[owner] = set()
            self._answers.clear()
        ids.add(uid)

    def remove(self, uid: int, sq: int, owner: str) -> None:
        owners = self.tiles.get(self._tile(sq))
        if owners is not None:
            ids = owners.get(owner)
            if ids is not None:
                ids.discard(uid)
                if not ids:
                    del owners[owner]
                    self._answers.clear()

    def move(self, uid: int, old: int, new: int, owner: str) -> None:
        if self._tile(old) != self._tile(new):
            self.remove(uid, old, owner)
            self.add(uid, new, owner)

    def buckets(self, sq: int, radius: int, *, besides: str | None = None) -> list[set[int]]:
        """The ids of the units in every tile the (2r+1)^2 window around the square touches (a
        superset of those within `radius`: callers check the distance), but those of the owner
        `besides`: the index's own sets, one per tile and owner (each unit in one of them), for
        a caller that reads them while nothing moves (no set of them all is built). The list
        is kept for the next caller asking of the same tiles: callers only read it."""
        y, x = divmod(sq, self.width)
        cols = self._lines(x, radius, self.width, self.cols)
        rows = self._lines(y, radius, self.height, self.rows)
        key = (rows, cols, besides)
        out = self._answers.get(key)
        if out is not None:
            return out
        if len(self._answers) >= _ANSWERS_KEPT:
            self._answers.clear()
        out = self._answers[key] = []
        tiles = self.tiles
        for row in rows:
            base = row * self.cols
            for col in cols:
                owners = tiles.get(base + col)
                if owners:
                    for owner, ids in owners.items():
                        if owner != besides:
                            out.append(ids)
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
