"""Who sees what, kept up to date as units move: per nation, how many of its sight sources
cover each square (one count grid for ordinary sight, one for sub-sight).

Units update the grids as they appear, move and vanish (World calls `unit_placed`,
`unit_moved`, `unit_removed`); cities, carriers' radar and satellites are checked against
what is stamped whenever the index is read, since they change rarely. The index is derived
state: it is rebuilt from the world on load and never serialised.

It also keeps the nations' memories honest: before a unit leaves a square, every nation that
sees it there remembers it there; before a sight source moves away, its nation remembers the
foreign units it was looking at (`World.sightings`).
"""

from __future__ import annotations

import weakref
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from engine.strategic.world.windows import count_windows, window

if TYPE_CHECKING:  # pragma: no cover
    from engine.strategic.world import Unit, World


class SightIndex:
    def __init__(self, world: World) -> None:
        # the world owns the index: a weak reference back, so a world dropped is freed at
        # once by reference counting, never left to the cyclic garbage collector
        self.world: World = weakref.proxy(world)
        h, w = world.height, world.width
        self.shape = (h, w)
        # each nation's grid is a layer of one array per table (`_layers`: the nations in
        # layer order, the array), so every nation's count at a square is one read
        self.counts: dict[str, np.ndarray] = {}
        self.sub_counts: dict[str, np.ndarray] = {}
        # the nations known now get their layers in one array at once (growing it a layer
        # at a time would copy it once a nation: memory a hosted world does not give back)
        known = list(world.nations)
        stack = np.zeros((len(known), h, w), dtype=np.int32)
        self._layers: dict[bool, tuple[list[str], np.ndarray]] = {
            False: (known, stack),
            True: ([], np.zeros((0, h, w), dtype=np.int32)),
        }
        for i, nation in enumerate(known):
            self.counts[nation] = stack[i]
        # per table (sub-sight or not), a nation's grid as a flat memoryview, for reading a
        # square at a time (a tenth of a numpy scalar's read); views of the layers, so dropped
        # when a new nation's layer makes a new array (`_grid`)
        self._cells: dict[bool, dict[str, memoryview]] = {False: {}, True: {}}
        self.stamped: dict[tuple, tuple[str, int, int, int]] = {}  # key -> (nation, sq, r, sub_r)
        self.synced_version = -1
        self.static_keys: dict[tuple, None] = {}  # the cities' and satellites' keys in `stamped`
        self._windows: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        # `_shift`'s, per step: the kernel, its height and width, its cells when few
        self._kernels: dict[
            tuple[int, int, int], tuple[np.ndarray, int, int, tuple[tuple[int, int], ...] | None]
        ] = {}
        self._flat_windows: dict[tuple[int, int], np.ndarray] = {}  # `settle`'s, at the edges
        self._offsets: dict[int, np.ndarray] = {}  # `settle`'s window shape per radius
        # per team: `owner_at`'s codes to 1 where a square may hold a foreign unit
        self._foreign_tables: dict[frozenset[str], bytes] = {}
        # sight windows left since the last settle: (team, square, radius)
        self.left: list[tuple[frozenset[str], int, int]] = []
        # all units at once, and the cities, satellites and radar as they are now (a world
        # loaded: as its last settle stamped them): the sources per (nation, radius), each
        # group's windows counted at once
        groups: dict[tuple[str, int, bool], list[int]] = {}
        for unit in world.units.values():
            source = self._unit_source(unit)
            self.stamped[("u", unit.id)] = source
            nation, sq, r, sub_r = source
            groups.setdefault((nation, r, False), []).append(sq)
            if sub_r > 0:
                groups.setdefault((nation, sub_r, True), []).append(sq)
        for key, (nation, sq, r, _) in self._static_sources().items():
            self.stamped[key] = (nation, sq, r, 0)
            self.static_keys[key] = None
            groups.setdefault((nation, r, False), []).append(sq)
        self.synced_version = world.static_sight_version
        for (nation, r, sub), squares in sorted(groups.items()):
            grid = self._grid(self.sub_counts if sub else self.counts, nation)
            grid += count_windows(self.shape, squares, r)

    # --- stamping ----------------------------------------------------------------------------

    def _grid(self, table: dict[str, np.ndarray], nation: str) -> np.ndarray:
        """The nation's count grid in a table (a layer of the table's array; a new nation's
        grows the array by a layer, and every grid of the table is a layer of the new one)."""
        grid = table.get(nation)
        if grid is None:
            sub = table is self.sub_counts
            names, stack = self._layers[sub]
            grown = np.zeros((len(names) + 1, *self.shape), dtype=np.int32)
            grown[: len(names)] = stack
            names = [*names, nation]
            self._layers[sub] = (names, grown)
            self._cells[sub].clear()
            for i, name in enumerate(names):
                table[name] = grown[i]
            grid = table[nation]
        return grid

    def _cell_view(self, nation: str, sub: bool) -> memoryview | None:
        """The nation's grid in a table as a flat memoryview (None: it has none)."""
        views = self._cells[sub]
        view = views.get(nation)
        if view is None:
            grid = (self.sub_counts if sub else self.counts).get(nation)
            if grid is None:
                return None
            view = views[nation] = memoryview(grid.reshape(-1))  # type: ignore[arg-type]
        return view

    def _seeing_at(self, sq: int, sub: bool) -> list[str]:
        """The nations whose own sources (in the table) cover the square, in layer order."""
        names, stack = self._layers[sub]
        y, x = divmod(sq, self.shape[1])
        return [names[i] for i in stack[:, y, x].nonzero()[0].tolist()]

    def _window(self, sq: int, r: int) -> tuple[np.ndarray, np.ndarray]:
        """The rows and columns of the (2r+1)^2 window around a square, wrapping; a window as
        wide as an axis takes each line of that axis once."""
        key = (sq, r)
        cached = self._windows.get(key)
        if cached is not None:
            return cached
        h, w = self.shape
        x, y = sq % w, sq // w
        rows = (np.arange(y - r, y + r + 1) % h) if 2 * r + 1 < h else np.arange(h)
        cols = (np.arange(x - r, x + r + 1) % w) if 2 * r + 1 < w else np.arange(w)
        if len(self._windows) > 65536:
            self._windows.clear()
        self._windows[key] = (rows, cols)
        return rows, cols

    def _add(self, nation: str, sq: int, r: int, sub_r: int, sign: int) -> None:
        if r >= 0:
            self._add_window(self._grid(self.counts, nation), sq, r, sign)
        if sub_r > 0:
            self._add_window(self._grid(self.sub_counts, nation), sq, sub_r, sign)

    def _add_window(self, grid: np.ndarray, sq: int, r: int, sign: int) -> None:
        h, w = self.shape
        y, x = divmod(sq, w)
        if r <= y < h - r and r <= x < w - r:  # away from the edges: a plain slice
            grid[y - r : y + r + 1, x - r : x + r + 1] += sign
        else:  # (a window holds each square once, and the grid is
            # contiguous, a layer of its table: one fancy-indexed addition to its flat view)
            grid.reshape(-1)[window(self.shape, sq, r)] += sign

    def _stamp(self, key: tuple, nation: str, sq: int, r: int, sub_r: int) -> None:
        self.stamped[key] = (nation, sq, r, sub_r)
        if key[0] != "u":
            self.static_keys[key] = None
        self._add(nation, sq, r, sub_r, +1)

    def _unstamp(self, key: tuple) -> None:
        old = self.stamped.pop(key, None)
        self.static_keys.pop(key, None)
        if old is not None:
            nation, sq, r, _ = old
            if r >= 0 and self.world.started and nation in self.world.nations:
                # sight leaves these squares: the team will remember them (at the next settle)
                self.left.append((self.world.team(nation), sq, r))
            self._add(*old, -1)

    def _unit_source(self, unit: Unit) -> tuple[str, int, int, int]:
        ut = self.world.rules.unit[unit.type]
        r = ut.sight if ut.sight is not None else self.world.radar_radius(unit.owner)
        return unit.owner, unit.sq, r, ut.sees_subs

    def settle_static(self) -> None:
        """Bring cities, satellites and radar up to date before reading the grids directly."""
        self._sync_static()

    def _sync_static(self) -> None:
        """Cities, satellites and radar units: restamp whatever differs from the world."""
        world = self.world
        if self.synced_version == world.static_sight_version:
            return
        self.synced_version = world.static_sight_version
        want = self._static_sources()
        for key in [k for k in self.static_keys if self.stamped[k] != want.get(k)]:
            self._unstamp(key)
        for key, source in want.items():
            if key not in self.stamped:
                self._stamp(key, *source)
        for uid in world.radar_units:
            key = ("u", uid)
            source = self._unit_source(world.units[uid])
            if self.stamped.get(key) != source:
                self._unstamp(key)
                self._stamp(key, *source)

    def _static_sources(self) -> dict[tuple, tuple[str, int, int, int]]:
        """What the cities and satellites stamp: key -> (nation, square, radius, 0)."""
        world = self.world
        want: dict[tuple, tuple[str, int, int, int]] = {}
        for city in world.cities.values():
            if city.owner is not None:
                ct = world.rules.city[city.designation]
                want[("c", city.sq)] = (
                    city.owner,
                    city.sq,
                    ct.sight_at(world.nations[city.owner].tech),
                    0,
                )
        if world.satellites:
            satellite_sight = max((u.satellite_sight or 0 for u in world.rules.units), default=0)
            for i, (owner, sq) in enumerate(world.satellites):
                want[("s", i)] = (owner, sq, satellite_sight, 0)
        return want

    def settle(self) -> None:
        """Bring cities, satellites and radar up to date, and let teams remember the squares
        their sight left (terrain and cities as they are now). The engine settles at the end of
        every command and tick, so reading the index later (a view, a picture) changes nothing
        a replay would not change in the same way."""
        self._sync_static()
        if not self.left:
            return
        left, self.left = self.left, []
        h, w = self.shape
        by_team: dict[frozenset[str], list[np.ndarray]] = {}
        flat = self._flat_windows
        offsets = self._offsets
        for entry in dict.fromkeys(left):  # a window left twice is remembered once
            team, sq, r = entry
            squares: np.ndarray | None
            y, x = divmod(sq, w)
            if r <= y < h - r and r <= x < w - r:
                # away from the edges: the window's top-left square plus the window's shape
                # (one addition; a cache of every square's window missed most of the time)
                shape = offsets.get(r)
                if shape is None:
                    side = np.arange(2 * r + 1)
                    shape = offsets[r] = (side[:, None] * w + side[None, :]).reshape(-1)
                squares = shape + ((y - r) * w + x - r)
            else:
                squares = flat.get((sq, r))
                if squares is None:
                    if len(flat) > 16384:
                        flat.clear()
                    rows, cols = self._window(sq, r)
                    squares = flat[(sq, r)] = (rows[:, None] * w + cols[None, :]).reshape(-1)
            by_team.setdefault(team, []).append(squares)
        for team, parts in by_team.items():
            self.world.note_seen(team, np.unique(np.concatenate(parts)))

    # --- world hooks ---------------------------------------------------------------------------

    def unit_placed(self, unit: Unit) -> None:
        self._stamp(("u", unit.id), *self._unit_source(unit))

    def unit_leaving(self, unit: Unit, *, vanishing: bool = False) -> None:
        """Before a unit leaves its square or vanishes: remember what must be remembered."""
        world = self.world
        if not world.started:
            return
        self._sync_static()
        if not vanishing:
            for nation in self.nations_seeing(unit):
                world.remember(nation, unit)
        stamp = self.stamped.get(("u", unit.id))
        nation, sq, r, sub_r = stamp or (unit.owner, unit.sq, 0, 0)
        reach = max(r, sub_r)
        foreign = self._foreign_in_window(nation, sq, reach)
        if not foreign:
            return
        # its own stamp covers the whole window when its radius is the window's: no need to
        # ask the grids (`sees_unit` would find that stamp)
        plain = stamp is not None and r >= 0 and r == reach
        subs = stamp is not None and sub_r > 0 and sub_r == reach
        stealthy = world.rules.stealthy
        sharers = world.sight_sharers(nation)
        for other in foreign:
            if other.carried_by is None and (subs if other.type in stealthy else plain):
                seen = True
            else:
                seen = self.sees_unit(nation, other)
            if seen:
                for sharer in sharers:
                    world.remember(sharer, other)

    def unit_moved(self, unit: Unit) -> None:
        key = ("u", unit.id)
        old = self.stamped.get(key)
        new = self._unit_source(unit)
        if old is None or old[0] != new[0] or old[2:] != new[2:]:
            self._unstamp(key)
            self._stamp(key, *new)
            return
        # the same sight somewhere else: `_unstamp` then `_stamp`, each grid shifted at once
        world = self.world
        nation, sq, r, sub_r = old
        if r >= 0:
            if world.started and nation in world.nations:
                self.left.append((world.team(nation), sq, r))
            self._shift(nation, False, sq, new[1], r)
        if sub_r > 0:
            self._shift(nation, True, sq, new[1], sub_r)
        self.stamped[key] = new

    def _shift(self, nation: str, sub: bool, old: int, new: int, r: int) -> None:
        """One window of the nation's grid (`sub`: its sub-sight's) taken from `old` and put on
        `new`: a step away from the map's edges is one slice of the two windows' span, added a
        kernel of -1s and +1s (kept per step direction and radius with the span's height and
        width, and its cells when they are few: a sight of 1, or a straight step of 2, changes
        6 to 10 squares, added one at a time through the grid's memoryview in less time than
        numpy takes to add a slice)."""
        grid = self._grid(self.sub_counts if sub else self.counts, nation)
        h, w = self.shape
        y0, x0 = divmod(old, w)
        y1, x1 = divmod(new, w)
        dy, dx = y1 - y0, x1 - x0
        step = self._kernels.get((dy, dx, r))
        if step is None and -1 <= dy <= 1 and -1 <= dx <= 1:
            top, left = min(y0, y1), min(x0, x1)
            side = 2 * r + 1
            kernel = np.zeros((side + abs(dy), side + abs(dx)), dtype=np.int32)
            kernel[y0 - top : y0 - top + side, x0 - left : x0 - left + side] -= 1
            kernel[y1 - top : y1 - top + side, x1 - left : x1 - left + side] += 1
            ys, xs = np.nonzero(kernel)
            cells = [
                (y * w + x, int(kernel[y, x]))
                for y, x in zip(ys.tolist(), xs.tolist(), strict=True)
            ]
            step = self._kernels[(dy, dx, r)] = (
                kernel,
                *kernel.shape,
                tuple(cells) if len(cells) <= _FEW_CELLS else None,
            )
        if step is not None:
            kernel, span_h, span_w, few = step
            top = (y0 if y0 < y1 else y1) - r  # the span's first row and column
            left = (x0 if x0 < x1 else x1) - r
            if top >= 0 and top + span_h <= h and left >= 0 and left + span_w <= w:
                if few is None:
                    grid[top : top + span_h, left : left + span_w] += kernel
                    return
                view = self._cell_view(nation, sub)
                assert view is not None  # (its grid was made above)
                base = top * w + left
                for offset, change in few:
                    view[base + offset] += change
                return
        self._add_window(grid, old, r, -1)
        self._add_window(grid, new, r, +1)

    def unit_removed(self, unit: Unit) -> None:
        self._unstamp(("u", unit.id))

    def _foreign_in_window(self, nation: str, sq: int, r: int) -> list[Unit]:
        """Units outside the nation's team within `r` of the square, in `Grid.within`'s
        order (row by row, then by id on a square)."""
        world = self.world
        team = world.team(nation)
        occupied, at, units = world.occupied, world.at, world.units
        out: list[Unit] = []
        h, w = self.shape
        y, x = divmod(sq, w)
        if r <= y < h - r and r <= x < w - r:  # away from the edges: each row a span
            # the squares whose units are not all of one team member's (mixed, or all of a
            # foreign owner): a row of `owner_at` translated to 1 there, 0 elsewhere
            table = self._foreign_tables.get(team)
            if table is None:
                cells = bytearray(b"\x01" * 256)
                cells[0] = 0  # no units
                for member in team:
                    cells[world.owner_code(member)] = 0
                cells[255] = 1  # mixed (a code past 254 owners too): their units are read
                table = self._foreign_tables[team] = bytes(cells)
            owner_at = world.owner_at
            occupied_in: list[int] = []
            side = 2 * r + 1
            for base in range((y - r) * w + x - r, (y + r) * w + x - r + 1, w):
                row = owner_at[base : base + side].translate(table)
                col = row.find(1)
                while col >= 0:
                    occupied_in.append(base + col)
                    col = row.find(1, col + 1)
        else:
            occupied_in = [near for near in world.grid.within(sq, r) if occupied[near]]
        for near in occupied_in:
            ids = at[near]
            if len(ids) == 1:  # most squares: one unit, read without a generator
                unit = units[ids[0]]
                if unit.owner not in team:
                    out.append(unit)
                continue
            for i in sorted(ids):
                unit = units[i]
                if unit.owner not in team:
                    out.append(unit)
        return out

    # --- queries --------------------------------------------------------------------------------

    def covers(self, nation: str, sq: int, *, sub: bool = False) -> bool:
        """Whether the nation's team has a source covering the square."""
        self._sync_static()
        for member in self.world.team(nation):
            view = self._cell_view(member, sub)
            if view is not None and view[sq] > 0:
                return True
        return False

    def covers_all(self, nation: str, squares: list[int]) -> list[bool]:
        """`covers` at each of these squares, the team's grids looked up once for them."""
        self._sync_static()
        views = [
            v for v in map(self._cell_view, self.world.team(nation), repeat(False)) if v is not None
        ]
        if len(views) == 1:  # most nations
            view = views[0]
            return [view[sq] > 0 for sq in squares]
        return [any(view[sq] > 0 for view in views) for sq in squares]

    def sees_unit(self, nation: str, unit: Unit) -> bool:
        world = self.world
        if unit.owner in world.team(nation):
            return True
        if world.reveals.get((nation, unit.id), -1) >= world.tick:
            return True
        if unit.carried_by is not None:
            return False  # inside a foreign carrier: only its owner's team knows
        stealth = world.rules.unit[unit.type].stealth
        return self.covers(nation, unit.sq, sub=stealth)

    def seers(self, unit: Unit) -> set[str]:
        """The nations for which `sees_unit` holds, all at once: the square is read once from
        each count grid instead of once per nation and team member."""
        world = self.world
        self._sync_static()
        direct: set[str] = set()
        if unit.carried_by is None:
            direct = set(self._seeing_at(unit.sq, world.rules.unit[unit.type].stealth))
        owner, uid = unit.owner, unit.id
        reveals, tick, team = world.reveals, world.tick, world.team
        out: set[str] = set()
        for nation in world.nations:
            members = team(nation)
            if (
                owner in members
                or (reveals and reveals.get((nation, uid), -1) >= tick)
                or not members.isdisjoint(direct)
            ):
                out.add(nation)
        return out

    def nations_seeing(self, unit: Unit) -> list[str]:
        """Nations (other than the owner's team) that see this unit now, directly or through a
        nation that passes its sightings on to them (`sees_unit` for every nation at once)."""
        world = self.world
        self._sync_static()
        direct: set[str] = set()
        owner = unit.owner
        if unit.carried_by is None:
            for nation in self._seeing_at(unit.sq, world.rules.unit[unit.type].stealth):
                # the owner's own team is taken off below: its sight (nearly always there,
                # the unit's own) adds nothing
                if nation != owner and nation in world.nations:
                    direct |= world.team(nation)
        reveals = world.reveals
        if reveals:
            tick, uid, nations = world.tick, unit.id, world.nations
            if len(reveals) < len(nations):  # (the same nations, by the shorter loop)
                for (nation, shown), until in reveals.items():
                    if shown == uid and until >= tick and nation in nations:
                        direct.add(nation)
            else:
                for nation in nations:
                    if reveals.get((nation, uid), -1) >= tick:
                        direct.add(nation)
        if not direct:
            return []  # (most steps) nobody else sees it
        own = world.team(owner)
        direct -= own
        out = set(direct)
        for n in direct:
            out.update(world.sight_sharers(n))
        out -= own
        return sorted(out)

    def mask(self, nation: str, *, sub: bool = False) -> np.ndarray:
        """Flat bool array of the squares the nation's team covers now."""
        self._sync_static()
        table = self.sub_counts if sub else self.counts
        team = self.world.team(nation)
        if len(team) == 1:  # most nations: one grid read at once
            grid = table.get(nation)
            if grid is None:
                return np.zeros(self.shape[0] * self.shape[1], dtype=bool)
            return (grid > 0).reshape(-1)
        out = np.zeros(self.shape, dtype=bool)
        for member in team:
            grid = table.get(member)
            if grid is not None:
                out |= grid > 0
        return out.reshape(-1)


_FEW_CELLS = 10  # `_shift` adds a kernel of at most this many cells one cell at a time
