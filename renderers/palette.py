"""A picture's colours by index: pictures are palette images ("P", at most 256 colours), drawn
as palette indices from the start. The picture's own colours are registered first and are
exact; anti-aliased text is drawn in `LEVELS` steps between its ink and the colour under it,
each step a palette entry added when first needed. So a picture encodes as a palette PNG (a
third of the bytes of an RGB PNG, several times faster) and nothing needs quantising
afterwards."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

RGB = tuple[int, int, int]

LEVELS = 7  # anti-aliased text: steps from the colour under it (0) to its ink (LEVELS)


class Palette:
    """The colours of one picture by index, at most 256. Colours added with `add` are exact
    (the project's colours are added before anything is drawn, so there is always room for
    them); the steps of anti-aliased text between a colour and an ink are added as text needs
    them while there is room, and are the nearest colour there is after that."""

    def __init__(self, colours: Iterable[RGB] = ()) -> None:
        self.colours: list[RGB] = []
        self._index: dict[RGB, int] = {}
        self.blends: dict[tuple[int, int, int], int] = {}  # (under, ink, level) -> index
        self._ramps: dict[tuple[int, int], tuple[int, ...]] = {}
        for colour in colours:
            self.add(colour)

    def copy(self) -> Palette:
        """Another palette with the same colours, at the same indices, to go on adding to."""
        other = Palette()
        other.colours = list(self.colours)
        other._index = dict(self._index)
        other.blends = dict(self.blends)
        other._ramps = dict(self._ramps)
        return other

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
        i = self.blends.get(key)
        if i is None:
            i = self.blends[key] = self.add(mix(self.colours[under], self.colours[ink], level))
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
def mix(under: RGB, ink: RGB, level: int) -> RGB:
    """`ink` at `level` of LEVELS over `under`, rounded."""
    r0, g0, b0 = under
    r1, g1, b1 = ink
    k, n, half = level, LEVELS - level, LEVELS // 2
    return (
        (r0 * n + r1 * k + half) // LEVELS,
        (g0 * n + g1 * k + half) // LEVELS,
        (b0 * n + b1 * k + half) // LEVELS,
    )
