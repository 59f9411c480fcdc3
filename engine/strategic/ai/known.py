"""The map as an AI nation knows it: distances on the torus, islands (land a unit could walk
over), the seas its ships may sail and where they are in supply. Worked out from the `View`
only, once per decision (the islands are kept in `Memory` for a few game hours)."""

from __future__ import annotations

import heapq

import numpy as np

from engine.strategic.ai.memory import Memory
from engine.strategic.ai.profile import Profile
from engine.strategic.rules import Ruleset
from engine.strategic.rules.models import UnitClass
from engine.strategic.systems.supply import dilate
from engine.strategic.view import NEVER_SEEN, CityView, UnitView, View
from engine.strategic.world.geometry import Grid

WATER, LAND = 1, 2  # in View.terrain (1 + the world's terrain codes)


class KnownMap:
    """Geometry, islands and seas of one nation's known map, cached for one decision."""

    def __init__(
        self,
        view: View,
        rules: Ruleset,
        profile: Profile,
        memory: Memory,
        my_cities: dict[int, CityView],
        own: list[UnitView],
        units_at: dict[int, list[UnitView]],
    ) -> None:
        self.view = view
        self.rules = rules
        self.profile = profile
        self.my_cities = my_cities
        self.own = own
        self.units_at = units_at
        self.w, self.h = view.width, view.height
        self.table = Grid(self.w, self.h).neighbour_table
        # worked out now (not when first asked): the age of `memory.islands` must not depend
        # on what a decision happened to ask
        self.labels = self.island_labels(memory)
        self.joined = self.merged()
        self._label_grid: np.ndarray | None = None
        # shore masks depend on the islands only: kept from one decision to the next while
        # the known land and the joins through its cities stay the same (packed, a bit a
        # square: a hosted game's AI seats keep them, and memory is per game)
        islands = (memory.islands_land, tuple(sorted(self.joined.items())))
        if memory.shores is None or memory.shores[0] != islands:
            memory.shores = (islands, {})
        self._packed_shores: dict[tuple[int, ...], np.ndarray] = memory.shores[1]
        self._shores: dict[tuple[int, ...], np.ndarray] = {}
        self._islands: dict[int, frozenset[int]] = {}
        self._sea_steps: dict[tuple[int, int], dict[int, int]] = {}
        self._sea_supply: np.ndarray | None = None
        self._sea_supplied: bytearray | None = None
        self._sea_open: bytearray | None = None

    # --- geometry ----------------------------------------------------------------------------

    def xy(self, sq: int) -> tuple[int, int]:
        return sq % self.w, sq // self.w

    def dist(self, a: int, b: int) -> int:
        ax, ay, bx, by = a % self.w, a // self.w, b % self.w, b // self.w
        dx, dy = abs(ax - bx), abs(ay - by)
        return max(min(dx, self.w - dx), min(dy, self.h - dy))

    def dist_many(self, sq: int, squares: np.ndarray) -> np.ndarray:
        """Distances from one square to many (numpy), on the torus."""
        x, y = sq % self.w, sq // self.w
        dx = np.abs(squares % self.w - x)
        dy = np.abs(squares // self.w - y)
        return np.maximum(np.minimum(dx, self.w - dx), np.minimum(dy, self.h - dy))

    def neighbours(self, sq: int) -> tuple[int, ...]:
        return self.table[sq]

    def terrain(self, sq: int) -> int:
        return int(self.view.terrain[sq])

    def at_sea(self, sq: int) -> bool:
        return self.terrain(sq) == WATER and sq not in self.view.cities

    def coastal(self, sq: int) -> bool:
        return any(self.terrain(n) == WATER for n in self.neighbours(sq))

    def approach(self, frm: int, city: int) -> int | None:
        """The land square next to a city nearest to `frm` (none if the city has no land
        around it but cities)."""
        options = [
            n
            for n in self.neighbours(city)
            if self.terrain(n) == LAND and n not in self.view.cities
        ]
        if not options:
            return None
        return min(options, key=lambda n: (self.dist(frm, n), n))

    # --- the seas ----------------------------------------------------------------------------

    def sea_steps(
        self, unit: UnitView, limit: int, wanted: set[int] | None = None
    ) -> dict[int, int]:
        """Mobility a ship needs to sail to squares it can reach within `limit`, as its nation
        knows the map (water or never seen, its own cities; not through known foreign units or
        its own other ships), a step costing more out of supply: the engine's rule. With
        `wanted`, the search stops once those squares are settled (the first call for a unit
        decides; later calls read what it found)."""
        cached = self._sea_steps.get((unit.id, limit))
        if cached is not None:
            return cached
        todo = set(wanted) if wanted is not None else None
        supplied = self._sea_supplied_bytes()
        open_ = self.sea_open()
        table = self.table
        dear = self.rules.supply.out_of_supply_step_cost
        best = {unit.sq: 0}
        heap = [(0, unit.sq)]
        while heap:
            cost, sq = heapq.heappop(heap)
            if cost > best.get(sq, limit + 1):
                continue
            if todo is not None:
                todo.discard(sq)
                if not todo:
                    break
            step = cost + (1 if supplied[sq] else dear)
            if step > limit:
                continue
            for n in table[sq]:
                if open_[n] and step < best.get(n, limit + 1):
                    best[n] = step
                    heapq.heappush(heap, (step, n))
        self._sea_steps[(unit.id, limit)] = best
        return best

    def sea_open(self) -> bytearray:
        """Per square, 1 where a ship may sail as its nation knows the map: water or never
        seen, or its own city; not where a foreign unit or a ship of its own is."""
        if self._sea_open is None:
            view = self.view
            me = view.nation
            terrain = view.terrain
            ok = (terrain == NEVER_SEEN) | (terrain == WATER)
            for sq, city in view.cities.items():
                ok[sq] = city.owner == me
            for sq, units in self.units_at.items():
                if sq not in view.cities and any(
                    u.owner != me or self.rules.unit[u.type].unit_class == UnitClass.SEA
                    for u in units
                ):
                    ok[sq] = False  # a foreign unit, or a ship of its own (one a sea square)
            self._sea_open = bytearray(ok.astype(np.uint8).tobytes())
        return self._sea_open

    def _sea_supplied_bytes(self) -> bytearray:
        if self._sea_supplied is None:
            self._sea_supplied = bytearray(self.sea_supply().astype(np.uint8).tobytes())
        return self._sea_supplied

    def sea_supply(self) -> np.ndarray:
        """Squares where its ships are in supply: near its ports and bases, and its supply
        ships with ammunition (its own map: the view shows all of these)."""
        if self._sea_supply is None:
            mask = np.zeros(self.w * self.h, dtype=bool)
            for sq, city in self.my_cities.items():
                if self.rules.city[city.designation].supplies_sea:
                    mask[sq] = True
            for u in self.own:
                ut = self.rules.unit[u.type]
                if ut.supplies_sea and (u.ammo or 0) >= 1:
                    mask[u.sq] = True
            radius = self.rules.supply.radius
            self._sea_supply = dilate(mask.reshape(self.h, self.w), radius).reshape(-1)
        return self._sea_supply

    # --- islands -----------------------------------------------------------------------------

    def island_labels(self, memory: Memory) -> list[int]:
        """Each land square's island on the known map (-1: water, unknown, or a city). Cities
        are left out because a land unit cannot walk through a city that is not its own; its
        own cities join the islands around them (`merged`). The map changes slowly (land seen
        for the first time, a new city), so this is worked out again every few game hours."""
        cached = memory.islands
        every = self.profile.islands_every_hours * self.rules.ticks_per_hour
        if cached is not None and self.view.tick - cached[0] < every:
            return cached[1]
        land = (self.view.terrain == LAND).reshape(-1).copy()
        land[sorted(self.view.cities)] = False
        packed = np.packbits(land).tobytes()
        if cached is not None and packed == memory.islands_land:
            labels = cached[1]  # the same known land: the same islands
        else:
            labels = self.components(land)
        memory.islands = (self.view.tick, labels)
        memory.islands_land = packed
        return labels

    def components(self, land: np.ndarray) -> list[int]:
        """Connected components (8 neighbours, on the torus) of a flat bool mask, labelled
        0, 1, ... (-1 outside): each square takes the smallest index around it, with pointer
        jumping, until nothing changes."""
        n = self.w * self.h
        big = np.int64(n)
        lab = np.where(land, np.arange(n, dtype=np.int64), big).reshape(self.h, self.w)
        mask = land.reshape(self.h, self.w)
        h, w = self.h, self.w
        while True:
            wrapped = np.pad(lab, 1, mode="wrap")  # the torus: each neighbour is a slice
            low = lab.copy()
            for dy in (0, 1, 2):
                for dx in (0, 1, 2):
                    if dy != 1 or dx != 1:
                        np.minimum(low, wrapped[dy : dy + h, dx : dx + w], out=low)
            low[~mask] = big
            flat = low.reshape(-1)
            inside = flat < big
            flat[inside] = flat[flat[inside]]
            if np.array_equal(low, lab):
                break
            lab = low
        flat = lab.reshape(-1)
        out = np.full(n, -1, dtype=np.int64)
        inside = flat < big
        if inside.any():
            _, order = np.unique(flat[inside], return_inverse=True)
            out[inside] = order
        return out.tolist()

    def merged(self) -> dict[int, int]:
        """Island label -> the label it is joined to through the nation's own cities."""
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        for sq in sorted(self.my_cities):
            around = sorted({self.labels[n] for n in self.neighbours(sq) if self.labels[n] >= 0})
            for other in around[1:]:
                a, b = find(around[0]), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
        return {x: find(x) for x in parent}

    def shore_of(self, sq: int) -> np.ndarray:
        """Flat bool mask: the squares of the islands a square belongs to, and their
        neighbours (cached per decision)."""
        key = tuple(sorted(self.islands_of(sq)))
        mask = self._shores.get(key)
        if mask is None:
            packed = self._packed_shores.get(key)
            if packed is not None:
                mask = np.unpackbits(packed, count=self.w * self.h).astype(bool)
            else:
                if self._label_grid is None:
                    raw = np.asarray(self.labels, dtype=np.int32)
                    for x, root in self.joined.items():
                        raw[raw == x] = root
                    self._label_grid = raw.reshape(self.h, self.w)
                mask = dilate(np.isin(self._label_grid, key), 1).reshape(-1)
                self._packed_shores[key] = np.packbits(mask)
            self._shores[key] = mask
        return mask

    def islands_of(self, sq: int) -> frozenset[int]:
        """The islands a square belongs to or (a city, a ship) lies next to."""
        found = self._islands.get(sq)
        if found is None:
            labels, joined = self.labels, self.joined
            own = labels[sq]
            if own >= 0:
                found = frozenset((joined.get(own, own),))
            else:
                found = frozenset(
                    joined.get(labels[n], labels[n]) for n in self.neighbours(sq) if labels[n] >= 0
                )
            self._islands[sq] = found
        return found

    def same_island(self, a: int, b: int) -> bool:
        """Whether a land unit could walk from one square to (or next to) the other over
        known land."""
        if a == b:
            return True
        return bool(self.islands_of(a) & self.islands_of(b))
