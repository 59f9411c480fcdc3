"""Supply: which units are in supply, per the ruleset's sources and radius.

A land or sea unit is in supply when a source for its class is within the ruleset's radius
(Chebyshev distance on the torus). Sources: cities of the nation and its mutual allies (every
city supplies land units; ports and bases also ships), and the nation's own supplier units with
at least one ammo. Units that need no supply are always in supply; air units are "in supply"
where they can refuel.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.strategic.rules.models import RefuelPlace, UnitClass
from engine.strategic.world import Unit, World


def dilate(mask: np.ndarray, radius: int) -> np.ndarray:
    """Every square within `radius` (Chebyshev, wrapping) of a True square."""
    if radius <= 0 or not mask.any():
        return mask.copy()
    h, w = mask.shape
    sources = int(np.count_nonzero(mask))
    if 2 * radius + 1 >= min(h, w) or sources * 256 > radius * h * w:
        # many sources (an island, hundreds of cities): shifting the whole grid 4r times
        # costs less than stamping each source (measured: ~1 us a stamp, ~1 ns a square)
        return _dilate_whole(mask, radius)
    # stamp a (2r+1)^2 window around each source on a padded array, then fold the edges back
    r = radius
    padded = np.zeros((h + 2 * r, w + 2 * r), dtype=bool)
    ys, xs = np.nonzero(mask)
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        padded[y : y + 2 * r + 1, x : x + 2 * r + 1] = True
    out = padded[r : r + h, r : r + w].copy()
    out[:, :r] |= padded[r : r + h, w + r :]
    out[:, w - r :] |= padded[r : r + h, :r]
    out[:r, :] |= padded[h + r :, r : r + w]
    out[h - r :, :] |= padded[:r, r : r + w]
    out[:r, :r] |= padded[h + r :, w + r :]
    out[:r, w - r :] |= padded[h + r :, :r]
    out[h - r :, :r] |= padded[:r, w + r :]
    out[h - r :, w - r :] |= padded[:r, :r]
    return out


def _dilate_whole(mask: np.ndarray, radius: int) -> np.ndarray:
    """`dilate` over the whole grid: along each axis, every line ORed with the lines within
    `radius` of it (one gather of each line's neighbours, instead of 2r shifted copies)."""
    out = mask
    for axis in (0, 1):
        n = out.shape[axis]
        if 2 * radius + 1 >= n:  # every line within reach of every other
            out = np.broadcast_to(out.any(axis=axis, keepdims=True), out.shape)
        else:
            out = np.asarray(np.take(out, _near_lines(n, radius), axis=axis).any(axis=axis + 1))
    return np.array(out)


@cache
def _near_lines(n: int, radius: int) -> np.ndarray:
    """For each of `n` lines (wrapping), the lines within `radius` of it."""
    lines = (np.arange(n)[:, None] + np.arange(-radius, radius + 1)) % n
    lines.flags.writeable = False  # (shared by every caller)
    return lines


class SupplyMap:
    """A nation's supply grids, built on demand and cached in the world until something they
    depend on changes (see World.unit_changed / cities_changed / set_relation)."""

    def __init__(self, world: World, nation: str, *, many: bool = False) -> None:
        self.world = world
        self.nation = nation
        # `many`: the caller asks about many squares with nothing moving meanwhile (a view of
        # all the nation's units): `square_supplied` reads whole grids, each worked out once
        self.many = many

    def grid(self, unit_class: UnitClass) -> np.ndarray:
        key = (self.nation, unit_class.value)
        grid = self.world.supply_cache.get(key)
        if grid is None:
            grid = self._cities(unit_class)
            units = self._units(unit_class)
            if units is not None:
                grid = grid | (units.reshape(-1) > 0)
            self.world.supply_cache[key] = grid
        return grid

    def _cities(self, unit_class: UnitClass) -> np.ndarray:
        """Squares supplied by the cities of the nation's team (cached until cities or
        relations change)."""
        key = (self.nation, f"{unit_class.value}-cities")
        grid = self.world.supply_cache.get(key)
        if grid is not None:
            return grid
        world = self.world
        rules = world.rules
        w, h = world.width, world.height
        mask = np.zeros(h * w, dtype=bool)
        team = world.team(self.nation)
        sea = unit_class == UnitClass.SEA
        for city in world.cities.values():
            if city.owner in team:
                ct = rules.city[city.designation]
                if ct.supplies_sea if sea else ct.supplies_land:
                    mask[city.sq] = True
        grid = dilate(mask.reshape(h, w), rules.supply.radius).reshape(-1)
        world.supply_cache[key] = grid
        return grid

    def _units(self, unit_class: UnitClass) -> np.ndarray | None:
        """How many of the nation's own suppliers cover each square (`engine/strategic/world/supplyindex.py`)."""
        return self.world.supply_index.grid(
            self.nation, "sea" if unit_class == UnitClass.SEA else "land"
        )

    def step_costs(self, unit_class: UnitClass, out_of_supply: int) -> bytes:
        """Mobility a step costs from each square: 1 in supply, else `out_of_supply`."""
        key = (self.nation, f"{unit_class.value}-costs")
        costs = self.world.supply_cache.get(key)
        if costs is None:
            grid = self.grid(unit_class)
            # out_of_supply - (out_of_supply - 1) * supplied, in bytes (exact modulo 256): ten
            # times faster over the whole map than np.where or a table
            supplied = grid.astype(np.uint8)
            step = np.uint8((out_of_supply - 1) % 256)
            costs = (np.uint8(out_of_supply % 256) - supplied * step).tobytes()
            self.world.supply_cache[key] = costs
        return costs

    def depth(self, unit_class: UnitClass, sq: int) -> int:
        """Chebyshev distance from a square to the nearest supplied square (0 if supplied;
        a number beyond any path if nothing is supplied)."""
        grid = self.grid(unit_class)
        if grid[sq]:
            return 0
        key = (self.nation, f"{unit_class.value}-supplied")
        where = self.world.supply_cache.get(key)
        if where is None:
            where = np.flatnonzero(grid)
            self.world.supply_cache[key] = where
        if where.size == 0:
            return 1 << 15
        w, h = self.world.width, self.world.height
        dx = np.abs(where % w - sq % w)
        dy = np.abs(where // w - sq // w)
        dx = np.minimum(dx, w - dx)
        dy = np.minimum(dy, h - dy)
        return int(np.maximum(dx, dy).min())

    def in_supply(self, unit: Unit) -> bool:
        return in_supply(self.world, unit, self)

    def square_supplied(self, unit_class: UnitClass, sq: int) -> bool:
        cached = self.world.supply_cache.get((self.nation, unit_class.value))
        if cached is not None:
            return bool(cached[sq])
        if self.many:
            return bool(self.grid(unit_class)[sq])
        if self._cities(unit_class)[sq]:
            return True
        units = self._units(unit_class)
        return units is not None and bool(units.reshape(-1)[sq] > 0)


def can_refuel_at(world: World, unit: Unit, sq: int) -> bool:
    """Whether an air unit may refuel (and rearm) on a square."""
    rules = world.rules
    ut = rules.unit[unit.type]
    team = world.team(unit.owner)
    city = world.cities.get(sq)
    places = ut.refuel_at
    if city is not None and city.owner in team:
        if RefuelPlace.ANY_CITY in places:
            return True
        if city.designation in places:  # "airport", "base"
            return True
    if RefuelPlace.CARRIER in places or RefuelPlace.CAPITAL_SHIP in places:
        units = world.units
        for uid in world.at.get(sq, ()):  # any order: the question is whether one is there
            other = units[uid]
            if other.owner not in team or uid == unit.id:
                continue
            ot = rules.unit[other.type]
            if RefuelPlace.CAPITAL_SHIP in places and ot.capital and ot.unit_class == UnitClass.SEA:
                return True
            if RefuelPlace.CARRIER in places and ot.capacity and "light_air" in ot.carries:
                return True
    return False


def in_supply(world: World, unit: Unit, supply: SupplyMap | None = None) -> bool:
    ut = world.rules.unit[unit.type]
    if not ut.needs_supply or ut.unit_class == UnitClass.TECH:
        return True
    if ut.unit_class == UnitClass.AIR:
        return can_refuel_at(world, unit, unit.sq)
    supply = supply or SupplyMap(world, unit.owner)
    return supply.square_supplied(ut.unit_class, unit.sq)
