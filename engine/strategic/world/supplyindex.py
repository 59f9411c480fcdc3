"""Where each nation's supplier units supply, kept up to date as they move: per nation and
class (land, sea), how many of its own suppliers with ammunition cover each square.

A supplier that moves changes one window of one count grid, instead of the nation's whole
supply grid being dilated again from every source (which made every step of a moving
transport or engineer cost a full-map rebuild). Cities are few and change rarely; their part
stays a dilated grid cached per nation (`engine/strategic/systems/supply.py`). Derived state: built
from the units at once on load, never serialised.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.strategic.world.windows import add_windows, window

if TYPE_CHECKING:  # pragma: no cover
    from engine.strategic.world import Unit, World

CLASSES = ("land", "sea")


class SupplyIndex:
    def __init__(self, world: World) -> None:
        # the world owns the index: a weak reference back, so a world dropped is freed at
        # once by reference counting, never left to the cyclic garbage collector
        self.world: World = weakref.proxy(world)
        self.shape = (world.height, world.width)
        self.counts: dict[tuple[str, str], np.ndarray] = {}
        self.stamped: dict[
            int, tuple[str, int, tuple[str, ...]]
        ] = {}  # uid -> (owner, sq, classes)
        self._kernels: dict[tuple[int, int, int], np.ndarray] = {}  # `_move`'s, per step
        # the world's units at once (a world loaded): each grid's windows counted at once
        squares: dict[tuple[str, str], list[int]] = {}
        for unit in world.units.values():
            want = self._source(unit)
            if want is not None:
                self.stamped[unit.id] = want
                owner, sq, classes = want
                for unit_class in classes:
                    squares.setdefault((owner, unit_class), []).append(sq)
        r = world.rules.supply.radius
        for key, where in squares.items():
            grid = self.counts[key] = np.zeros(self.shape, dtype=np.int32)
            add_windows(grid, where, r)

    def grid(self, nation: str, unit_class: str) -> np.ndarray | None:
        """The count grid of a nation's supplier units for a class (None: it has none)."""
        return self.counts.get((nation, unit_class))

    def unit_changed(self, unit: Unit) -> None:
        """A unit appeared, vanished, moved or changed its ammunition."""
        ut = self.world.rules.unit[unit.type]
        if not (ut.supplies_land or ut.supplies_sea):
            return
        want = self._source(unit)
        have = self.stamped.get(unit.id)
        if have == want:
            return
        if have is not None and want is not None and have[0] == want[0] and have[2] == want[2]:
            self._move(want[0], have[1], want[1], want[2])  # a step: one window moved
            self.stamped[unit.id] = want
            return
        if have is not None:
            self._stamp(*have, -1)
            del self.stamped[unit.id]
        if want is not None:
            self._stamp(*want, +1)
            self.stamped[unit.id] = want

    def _source(self, unit: Unit) -> tuple[str, int, tuple[str, ...]] | None:
        """What a unit stamps: (owner, square, classes it supplies), None if nothing."""
        world = self.world
        ut = world.rules.unit[unit.type]
        if not (ut.supplies_land or ut.supplies_sea):
            return None
        if unit.id not in world.units or unit.ammo < 1:
            return None
        classes = tuple(
            c for c, on in zip(CLASSES, (ut.supplies_land, ut.supplies_sea), strict=True) if on
        )
        return (unit.owner, unit.sq, classes)

    def _move(self, owner: str, old: int, new: int, classes: tuple[str, ...]) -> None:
        """`_stamp` at `old` with -1 then at `new` with +1: a step away from the map's edges
        is one slice of the two windows' span, added a kernel of -1s and +1s."""
        h, w = self.shape
        r = self.world.rules.supply.radius
        y0, x0 = divmod(old, w)
        y1, x1 = divmod(new, w)
        dy, dx = y1 - y0, x1 - x0
        top, left = min(y0, y1), min(x0, x1)
        if not (
            -1 <= dy <= 1
            and -1 <= dx <= 1
            and r <= top
            and top + abs(dy) < h - r
            and r <= left
            and left + abs(dx) < w - r
        ):
            self._stamp(owner, old, classes, -1)
            self._stamp(owner, new, classes, +1)
            return
        kernel = self._kernels.get((dy, dx, r))
        if kernel is None:
            side = 2 * r + 1
            kernel = np.zeros((side + abs(dy), side + abs(dx)), dtype=np.int32)
            kernel[y0 - top : y0 - top + side, x0 - left : x0 - left + side] -= 1
            kernel[y1 - top : y1 - top + side, x1 - left : x1 - left + side] += 1
            self._kernels[(dy, dx, r)] = kernel
        for unit_class in classes:
            grid = self.counts[(owner, unit_class)]  # stamped at `old` already
            grid[top - r : top + r + 1 + abs(dy), left - r : left + r + 1 + abs(dx)] += kernel

    def _stamp(self, owner: str, sq: int, classes: tuple[str, ...], sign: int) -> None:
        h, w = self.shape
        r = self.world.rules.supply.radius
        y, x = divmod(sq, w)
        for unit_class in classes:
            grid = self.counts.get((owner, unit_class))
            if grid is None:
                grid = self.counts[(owner, unit_class)] = np.zeros(self.shape, dtype=np.int32)
            if r <= y < h - r and r <= x < w - r:
                grid[y - r : y + r + 1, x - r : x + r + 1] += sign
            else:  # (a window holds each square once, and the grid is
                # contiguous, a layer of its table: one fancy-indexed addition to its flat view)
                grid.reshape(-1)[window(self.shape, sq, r)] += sign


class SupplyCache(dict[tuple[str, str], Any]):
    """`World.supply_cache`: (nation, name) -> a nation's supply grids and what is worked out
    from them, which also knows the keys each nation was given, so that a transport's or an
    engineer's step drops its nation's keys without looking through every nation's."""

    def __init__(self) -> None:
        super().__init__()
        self.keys_of: dict[str, set[tuple[str, str]]] = {}  # may hold keys dropped since

    def __setitem__(self, key: tuple[str, str], value: Any) -> None:
        super().__setitem__(key, value)
        self.keys_of.setdefault(key[0], set()).add(key)

    def clear(self) -> None:
        super().clear()
        self.keys_of.clear()

    def drop_nation(self, nation: str, *, keep_suffix: str) -> None:
        """Drop the nation's keys but those whose name ends with `keep_suffix`."""
        keys = self.keys_of.get(nation)
        if not keys:
            return
        for key in [k for k in keys if not k[1].endswith(keep_suffix)]:
            keys.discard(key)
            self.pop(key, None)
