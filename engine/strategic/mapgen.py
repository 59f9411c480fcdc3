"""Map generation: one home island per nation slot, neutral continents in the seas between.

The map is a square torus (any width x height works; `default_size` proposes a square one).
Everything random comes from a `Rng` seeded from the `seed` argument (its own stream: the
world's dice start at `Rng(seed)` untouched), so the same arguments always give the same world
(same `World.hash()`). The floating-point steps use only correctly rounded IEEE operations
(+ - * / sqrt, no pow/exp) and sum in a fixed order rather than through numpy's SIMD
reductions, so the result should not depend on the machine either.

How a map is made
-----------------
1. **Home centres.** One random point per slot, relaxed by 1/d^2 "electron" repulsion on the
   torus (torus-shortest displacements plus the eight neighbouring images), so the points end up
   close to an even, roughly hexagonal spread. A few candidate layouts are relaxed, rounded to
   squares, and the one whose nearest-neighbour distances (Chebyshev, the game's distance) are
   most even wins (min/max, then the min); a hill-climb then moves single centres by one square
   while that makes those distances more even still (rounding loses a little evenness).
   Slots are numbered in farthest-point order, so the first slots to be claimed are spread over
   the whole map.
2. **Home islands.** The map is cut into the Voronoi cells of the centres. All home islands
   grow together, one square each per round, each inside its own cell and never onto a square
   touching another home island (so they stay separate islands and no island gets a shared
   border first). Growth is best-first: the 3x3 block around the centre first (so the centre is
   inland), then distance to the centre plus smooth noise. Every home island ends up with
   exactly the same number of squares: the target is `HOME_SHARE` of the area per nation,
   clamped to [`HOME_MIN`, `HOME_MAX`], and where space is tight every island is cut back to
   the size the most cramped one reached (a growth order's prefix is always connected).
3. **Home cities.** `len(rules.start.cities)` per slot, at least 2 apart: the first on the
   centre itself, the others inland (all eight neighbours land) next to it whenever the island
   has room. Then `rules.start.neutral_cities_near_home` neutral cities on coastal squares of
   the same island within `NEAR_RADIUS` of the first home city, preferring shores on open water
   (not a lake); all cities at least 2 apart. If an island's shape admits no such layout it is
   regrown with less noise, down to a plain disc; only a 3x3 island (the smallest, on the most
   crowded maps) has its first home city on a corner instead of the centre, the same corner on
   every island. So the first home cities are exactly as evenly spread as the centres.
4. **Neutral continents** are added one by one, seeded in the largest voids (Chebyshev distance
   to the nearest land), until the water share is down to `WATER_TARGET`. Each has up to 3x the
   home island size (at most `CONTINENT_MAX` squares) and at least a fifth of that, grows around
   a few anchor points with smooth-noise coastlines, and keeps `CONTINENT_GAP` water squares from
   any other island (1 when the map is too crowded for 2). 5-7% of a continent's squares (at
   least 1) are neutral cities, the first preferably inland. On crowded maps where the home
   islands alone nearly reach the target, small islets (one per four nations) are still added
   while water stays inside `WATER_BAND` and there is room for them.

Water ends up inside `WATER_BAND` (70-85%, normally 78%) whenever each nation has at least
32 squares of map (32 nations on 32x32: 9-square home islands, 70% water); below that the home
islands alone can take more than 30% of the map.

Sizes: any nation count >= 1 on maps from `MIN_SIDE` to `MAX_SIDE` squares a side, as long as
every nation gets at least `MIN_AREA_PER_NATION` squares of map and the layout admits the
home islands with their cities (every combination of 2-32 nations on 32x32 to 256x256 does;
32 nations fit down to 30x30). Anything the generator cannot fit raises ValueError saying why
and which size would do.

Slots, claiming and release
---------------------------
`world.slots[i]` lists slot i's home city squares (first = first home city) and
`world.slot_owner[i]` who holds it (None: nobody). Home cities are created **neutral**
(designation `rules.capture.new_designation`, no build), exactly like every other neutral city.
`claim_slot` hands a slot's home cities and start units to a nation. `release_unclaimed` is
what happens to the slots nobody claimed when a game starts: nothing beyond keeping their home
cities plain neutral cities, which they already are (it re-asserts that, and is idempotent).
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Callable, Sequence

import numpy as np

from engine.strategic.rules import Ruleset
from engine.strategic.rules import load as load_ruleset
from engine.strategic.systems.economy import default_build
from engine.strategic.words import article
from engine.strategic.world import LAND, City, World
from engine.strategic.world.geometry import Grid
from engine.strategic.world.rng import Rng

# --- tunables ----------------------------------------------------------------------------------

MIN_SIDE = 16
MAX_SIDE = 512
MIN_AREA_PER_NATION = 25  # squares of map per nation below which nothing can fit
HOME_SHARE = 0.10  # home island size as a share of the map area per nation ...
HOME_MIN = 9  # ... but never below (a 3x3 island holds 4 cities 2 apart) ...
HOME_MAX = 60  # ... nor above (the original game's player islands had about 60 squares)
NEAR_RADIUS = 5  # near-home neutral cities lie within this distance of the first home city
WATER_TARGET = 0.78  # neutral continents are added until water is down to this share
WATER_BAND = (0.70, 0.85)  # the documented band of water shares
CONTINENT_GAP = 2  # water squares between a neutral continent and any other island
CONTINENT_MAX = 200
CONTINENT_CITY_SHARE = (0.05, 0.07)
CENTRE_TRIALS = 4  # candidate centre layouts relaxed per attempt (the most even one wins)
RELAX_STEPS = 160
RELAX_DECAY = 0.966  # step shrink per relaxation step: 0.966**160 ~ 0.004 (a literal: no pow())
ATTEMPTS = 5  # whole-map attempts before giving up

# side length by nation count: linear in sqrt(nations) between these anchors
_SIZE_ANCHORS = ((1, 48), (2, 60), (4, 80), (8, 116), (32, 256))


class _NoFit(Exception):
    """One attempt could not place everything (a fresh attempt may)."""


# --- public API ----------------------------------------------------------------------------------


def default_size(nations: int) -> tuple[int, int]:
    """A square map for this many nations.

    The side grows linearly in sqrt(nations) through the anchors 1 -> 48, 2 -> 60, 4 -> 80,
    8 -> 116 and 32 -> 256 (close to the original game's 60/80/115 for 2/4/8 islands, i.e.
    about 1600-2000 squares of map per nation), rounded to an even number and clamped to
    [32, 256]. For example 3 nations -> 70, 6 -> 100, 12 -> 148, 16 -> 174, 24 -> 218.
    """
    if nations < 1:
        raise ValueError("a map needs at least one nation")
    root = math.sqrt(nations)
    side = float(_SIZE_ANCHORS[-1][1])
    for (n0, s0), (n1, s1) in zip(_SIZE_ANCHORS, _SIZE_ANCHORS[1:], strict=False):
        r0, r1 = math.sqrt(n0), math.sqrt(n1)
        if root <= r1:
            side = s0 + (s1 - s0) * (root - r0) / (r1 - r0)
            break
    even = 2 * round(side / 2)
    even = max(32, min(256, even))
    return even, even


def generate(
    ruleset: str | Ruleset,
    *,
    nations: int,
    width: int,
    height: int,
    seed: int,
    length_days: int | None = None,
) -> World:
    """A new world with `nations` home slots (all unclaimed) on a width x height torus."""
    rules = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if nations < 1:
        raise ValueError("a map needs at least one nation slot")
    for name, side in (("width", width), ("height", height)):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise ValueError(f"map {name} must be between {MIN_SIDE} and {MAX_SIDE}, not {side}")
    area = width * height
    default = default_size(nations)[0]
    if area < nations * MIN_AREA_PER_NATION:
        least = math.ceil(math.sqrt(nations * MIN_AREA_PER_NATION))
        raise ValueError(
            f"{nations} nations do not fit on {article(f'{width}x{height}')} map ({area // nations} squares "
            f"each): a nation needs at least {MIN_AREA_PER_NATION} squares of map for its home "
            f"island and the sea around it, so at least about {least}x{least} "
            f"(default_size({nations}) is {default}x{default})"
        )
    grid = Grid(width, height)
    rng = Rng(seed ^ 0x6D617067656E)  # "mapgen": a stream of its own, world.rng stays Rng(seed)
    reason = ""
    for _ in range(ATTEMPTS):
        builder = _Builder(rules, nations, grid, rng)
        try:
            builder.build()
        except _NoFit as exc:
            reason = str(exc)
            continue
        return builder.to_world(rules, seed, length_days)
    roomy = max(max(width, height) + 2, math.ceil(math.sqrt(nations * 40)))
    raise ValueError(
        f"could not fit {nations} home islands with their cities on {article(f'{width}x{height}')} map "
        f"({reason}); try a larger map, for example {roomy}x{roomy} "
        f"(default_size({nations}) is {default}x{default})"
    )


def claim_slot(world: World, slot: int, nation_id: str) -> None:
    """Give slot `slot`'s home cities and start units to a nation already in the world.

    Home city i becomes `rules.start.cities[i]` building its default unit; the units of
    `rules.start.units` appear in the first home city and those of `rules.start.second_units`
    in the second, all with full mobility (cap_multiple times their mobility).
    """
    rules = world.rules
    if not 0 <= slot < len(world.slots):
        raise ValueError(f"there is no slot {slot} (this map has {len(world.slots)})")
    if world.slot_owner[slot] is not None:
        raise ValueError(f"slot {slot} is taken by {world.slot_owner[slot]!r}")
    if nation_id not in world.nations:
        raise ValueError(f"unknown nation {nation_id!r}")
    if nation_id in world.slot_owner:
        raise ValueError(
            f"nation {nation_id!r} already holds slot {world.slot_owner.index(nation_id)}"
        )
    squares = world.slots[slot]
    if len(squares) < len(rules.start.cities):
        raise ValueError(
            f"slot {slot} has {len(squares)} home cities, the ruleset needs {len(rules.start.cities)}"
        )
    for sq in squares:
        city = world.cities.get(sq)
        if city is None or city.owner is not None:
            raise ValueError(
                f"slot {slot}'s home city at {world.grid.label(sq)} is no longer neutral"
            )
    nation = world.nations[nation_id]
    for sq, designation in zip(squares, rules.start.cities, strict=False):
        city = world.cities[sq]
        city.owner = nation_id
        city.designation = designation
        city.build = default_build(world, designation, nation.tech)
        city.progress = 0
        city.next_build = None
    cap = rules.mobility.cap_multiple
    second = squares[1] if len(squares) > 1 else squares[0]
    for where, units in ((squares[0], rules.start.units), (second, rules.start.second_units)):
        for type_name, count in units.items():
            mobility = rules.unit[type_name].mobility * cap
            for _ in range(count):
                world.add_unit(type_name, nation_id, where, mobility=mobility)
    world.slot_owner[slot] = nation_id
    world.cities_changed(nation_id)


def release_unclaimed(world: World) -> None:
    """Slots nobody claimed keep their home cities as plain neutral cities (which they are from
    generation on): any still-neutral home city of an unclaimed slot is reset to the neutral
    designation with nothing building. Cities someone has since captured are left alone."""
    designation = world.rules.capture.new_designation
    for squares, owner in zip(world.slots, world.slot_owner, strict=False):
        if owner is not None:
            continue
        for sq in squares:
            city = world.cities.get(sq)
            if city is not None and city.owner is None:
                city.designation = designation
                city.build = None
                city.next_build = None
                city.progress = 0


# --- centres ---------------------------------------------------------------------------------------


def _fold_columns(a: np.ndarray) -> np.ndarray:
    """Row sums in a fixed order (pairwise halving), independent of numpy's SIMD reductions."""
    while a.shape[1] > 1:
        half = a.shape[1] // 2
        b = a[:, :half] + a[:, half : 2 * half]
        if a.shape[1] % 2:
            b[:, :1] = b[:, :1] + a[:, -1:]
        a = b
    return a[:, 0]


def _relax(rng: Rng, n: int, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """n points spread over the w x h torus by 1/d^2 repulsion."""
    xs = np.array([rng.random() * w for _ in range(n)])
    ys = np.array([rng.random() * h for _ in range(n)])
    if n < 2:
        return xs, ys
    spacing = math.sqrt(w * h / n)
    step = 0.25 * spacing
    decay = RELAX_DECAY
    self_pair = np.eye(n, dtype=bool)
    for _ in range(RELAX_STEPS):
        dx = xs[:, None] - xs[None, :]  # from j to i: i is pushed along it
        dy = ys[:, None] - ys[None, :]
        dx = dx - w * np.round(dx / w)
        dy = dy - h * np.round(dy / h)
        fx = np.zeros((n, n))
        fy = np.zeros((n, n))
        for ox in (-w, 0, w):
            for oy in (-h, 0, h):
                ex = dx + ox
                ey = dy + oy
                r2 = ex * ex + ey * ey
                if ox == 0 and oy == 0:
                    r2[self_pair] = np.inf
                inv = 1.0 / (r2 * np.sqrt(r2))
                fx = fx + ex * inv
                fy = fy + ey * inv
        gx = _fold_columns(fx)
        gy = _fold_columns(fy)
        top = float(np.sqrt(gx * gx + gy * gy).max())
        if top > 0.0:
            xs = np.mod(xs + gx * (step / top), w)
            ys = np.mod(ys + gy * (step / top), h)
        step *= decay
    return xs, ys


def _cheb_matrix(px: np.ndarray, py: np.ndarray, w: int, h: int) -> np.ndarray:
    dx = np.abs(px[:, None] - px[None, :])
    dy = np.abs(py[:, None] - py[None, :])
    dx = np.minimum(dx, w - dx)
    dy = np.minimum(dy, h - dy)
    return np.maximum(dx, dy)


def _evenness(px: np.ndarray, py: np.ndarray, w: int, h: int) -> tuple[float, int, int, int]:
    """How even the nearest-neighbour (Chebyshev) distances are, bigger is better: min/max,
    then the min itself, then fewer points at the min, then fewer at the max."""
    n = len(px)
    if n < 2:
        return (1.0, 0, 0, 0)
    d = _cheb_matrix(px, py, w, h)
    d[np.eye(n, dtype=bool)] = w + h
    near = d.min(axis=1)
    lo, hi = int(near.min()), int(near.max())
    if hi == 0:
        return (0.0, 0, 0, 0)
    return (lo / hi, lo, -int((near == lo).sum()), -int((near == hi).sum()))


def _polish(px: np.ndarray, py: np.ndarray, w: int, h: int, passes: int = 8) -> None:
    """Hill-climb on whole squares: move single points one square while that makes the
    nearest-neighbour distances more even (rounding the relaxed points loses some evenness)."""
    best = _evenness(px, py, w, h)
    for _ in range(passes):
        improved = False
        for i in range(len(px)):
            x0, y0 = int(px[i]), int(py[i])
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                px[i], py[i] = (x0 + dx) % w, (y0 + dy) % h
                score = _evenness(px, py, w, h)
                if score > best:
                    best = score
                    x0, y0 = int(px[i]), int(py[i])
                    improved = True
            px[i], py[i] = x0, y0
        if not improved:
            break


def _spread_centres(rng: Rng, n: int, w: int, h: int) -> list[tuple[int, int]]:
    """Relaxed centres rounded to squares and polished, in farthest-point order."""
    best: tuple[tuple[float, int, int, int], np.ndarray, np.ndarray] | None = None
    for _ in range(CENTRE_TRIALS if n > 1 else 1):
        xs, ys = _relax(rng, n, w, h)
        px = np.floor(xs + 0.5).astype(np.int64) % w
        py = np.floor(ys + 0.5).astype(np.int64) % h
        score = _evenness(px, py, w, h)
        if best is None or score > best[0]:
            best = (score, px, py)
    assert best is not None
    _, bx, by = best
    _polish(bx, by, w, h)
    points = [(int(x), int(y)) for x, y in zip(bx, by, strict=True)]
    # farthest-point order: early slots are spread over the whole map
    px = np.array([p[0] for p in points])
    py = np.array([p[1] for p in points])
    d = _cheb_matrix(px, py, w, h)
    order = [0]
    closest = d[0].copy()
    for _ in range(1, n):
        closest[order] = -1
        nxt = int(np.argmax(closest))
        order.append(nxt)
        closest = np.minimum(closest, d[nxt])
    return [points[i] for i in order]


# --- the builder -------------------------------------------------------------------------------


class _Builder:
    def __init__(self, rules: Ruleset, nations: int, grid: Grid, rng: Rng) -> None:
        self.rules = rules
        self.n = nations
        self.grid = grid
        self.w = grid.width
        self.h = grid.height
        self.size = grid.size
        self.rng = rng
        self.nb = grid.neighbours
        self.terrain = bytearray(self.size)
        self.land = np.frombuffer(self.terrain, dtype=np.uint8)
        self.k_home = len(rules.start.cities)
        self.n_near = rules.start.neutral_cities_near_home
        self.slots: list[list[int]] = []
        self.city_squares: list[int] = []
        self.home_size = 0
        self.land_count = 0
        self.noise: list[float] = []
        self.cell: list[int] = []  # home phase: the Voronoi cell of every square
        self.owner: list[int] = []  # home phase: which home island holds a square (-1: none)

    # --- helpers ---

    def _edist(self, s: int, cx: int, cy: int) -> float:
        dx = abs(s % self.w - cx)
        dy = abs(s // self.w - cy)
        dx = min(dx, self.w - dx)
        dy = min(dy, self.h - dy)
        return math.sqrt(dx * dx + dy * dy)

    def _grow(
        self, start: int, target: int, allowed: Callable[[int], object], key: Callable[[int], float]
    ) -> list[int]:
        """Best-first flood from `start` over allowed squares: the growth order (every prefix
        of it is 8-connected)."""
        nb = self.nb
        order: list[int] = []
        seen = {start}
        heap = [(key(start), 0, start)]
        count = 1
        while heap and len(order) < target:
            s = heapq.heappop(heap)[2]
            order.append(s)
            for t in nb(s):
                if t not in seen and allowed(t):
                    seen.add(t)
                    heapq.heappush(heap, (key(t), count, t))
                    count += 1
        return order

    def _set_land(self, squares: Sequence[int]) -> None:
        for s in squares:
            self.terrain[s] = LAND
        self.land_count += len(squares)

    def _inland(self, s: int) -> bool:
        t = self.terrain
        return all(t[x] for x in self.nb(s))

    def _smooth_noise(self, cell: int) -> list[float]:
        """A smooth periodic noise field in [0, 1): random values on a coarse lattice of about
        `cell` squares, interpolated bilinearly (with a smoothstep) and wrapped on the torus."""
        gx = max(2, round(self.w / cell))
        gy = max(2, round(self.h / cell))
        lattice = np.array([self.rng.random() for _ in range(gx * gy)]).reshape(gy, gx)
        idx = np.arange(self.size)
        fx = (idx % self.w) * (gx / self.w)
        fy = (idx // self.w) * (gy / self.h)
        x0 = np.floor(fx).astype(np.int64)
        y0 = np.floor(fy).astype(np.int64)
        tx = fx - x0
        ty = fy - y0
        tx = tx * tx * (3.0 - 2.0 * tx)
        ty = ty * ty * (3.0 - 2.0 * ty)
        x1 = (x0 + 1) % gx
        y1 = (y0 + 1) % gy
        top = lattice[y0, x0] * (1.0 - tx) + lattice[y0, x1] * tx
        bottom = lattice[y1, x0] * (1.0 - tx) + lattice[y1, x1] * tx
        return (top * (1.0 - ty) + bottom * ty).tolist()

    def _land_distance(self, cap: int) -> np.ndarray:
        """Chebyshev distance of every square to the nearest land, capped at `cap`."""
        cur = self.land.reshape(self.h, self.w).astype(bool)
        dist = np.full((self.h, self.w), cap, dtype=np.int16)
        dist[cur] = 0
        for d in range(1, cap):
            nxt = cur | np.roll(cur, 1, 0) | np.roll(cur, -1, 0)
            nxt = nxt | np.roll(nxt, 1, 1) | np.roll(nxt, -1, 1)
            dist[nxt & ~cur] = d
            cur = nxt
        return dist.reshape(-1)

    def _open_water(self, s: int, radius: int, cx: int, cy: int) -> bool:
        """Does a water neighbour of s lead out of the island's disc (not a closed lake)?"""
        terrain = self.terrain
        grid = self.grid
        centre = grid.index(cx, cy)
        stack = [t for t in self.nb(s) if not terrain[t]]
        seen = set(stack)
        while stack:
            u = stack.pop()
            if grid.distance(u, centre) > radius:
                return True
            for t in self.nb(u):
                if t not in seen and not terrain[t]:
                    seen.add(t)
                    stack.append(t)
        return False

    # --- the phases ---

    def build(self) -> None:
        centres = _spread_centres(self.rng, self.n, self.w, self.h)
        self.noise = self._smooth_noise(6)
        self._home_islands(centres)
        self._continents()

    def _voronoi(self, centres: list[tuple[int, int]]) -> list[int]:
        """Index of the nearest centre (squared Euclidean on the torus, ties to the lower
        index) for every square."""
        idx = np.arange(self.size)
        xs, ys = idx % self.w, idx // self.w
        best = np.full(self.size, np.iinfo(np.int64).max, dtype=np.int64)
        cell = np.zeros(self.size, dtype=np.int64)
        for k, (cx, cy) in enumerate(centres):
            dx = np.abs(xs - cx)
            dy = np.abs(ys - cy)
            dx = np.minimum(dx, self.w - dx)
            dy = np.minimum(dy, self.h - dy)
            d2 = dx * dx + dy * dy
            closer = d2 < best
            best[closer] = d2[closer]
            cell[closer] = k
        return cell.tolist()

    def _free_for(self, s: int, k: int) -> bool:
        """May home island k take square s: in k's cell, not land, touching no other island?"""
        owner = self.owner
        if self.cell[s] != k or owner[s] != -1:
            return False
        return all(owner[t] == -1 or owner[t] == k for t in self.nb(s))

    def _home_key(self, start: int, amp: float) -> Callable[[int], float]:
        """Growth priority of a home island: its 3x3 core first (so the centre is inland),
        then distance to the centre plus `amp` of smooth noise and a little jitter."""
        core = {start, *self.nb(start)}
        cx, cy = start % self.w, start // self.w
        noise = self.noise
        rng = self.rng

        def key(s: int) -> float:
            if s in core:
                return -1.0
            if not amp:
                return self._edist(s, cx, cy)
            return self._edist(s, cx, cy) + amp * noise[s] + 0.15 * amp * rng.random()

        return key

    def _grow_homes(
        self, starts: list[int], target: int, keys: list[Callable[[int], float]]
    ) -> list[list[int]]:
        """Grow all home islands together, one square each per round, so that where two
        cells meet neither island gets the border first. Returns each island's growth order."""
        nb = self.nb
        cell = self.cell
        owner = self.owner
        n = len(starts)
        heaps = [[(keys[k](s), 0, s)] for k, s in enumerate(starts)]
        seen = [{s} for s in starts]
        count = 1
        islands: list[list[int]] = [[] for _ in range(n)]
        growing = True
        while growing:
            growing = False
            for k in range(n):
                if len(islands[k]) >= target:
                    continue
                heap = heaps[k]
                while heap:
                    s = heapq.heappop(heap)[2]
                    if self._free_for(s, k):
                        break
                else:
                    continue
                growing = True
                islands[k].append(s)
                owner[s] = k
                for t in nb(s):
                    if t not in seen[k] and cell[t] == k:
                        seen[k].add(t)
                        heapq.heappush(heap, (keys[k](t), count, t))
                        count += 1
        return islands

    def _home_islands(self, centres: list[tuple[int, int]]) -> None:
        per_nation = self.size / self.n
        target = max(HOME_MIN, min(HOME_MAX, round(HOME_SHARE * per_nation)))
        self.cell = self._voronoi(centres)
        self.owner = [-1] * self.size
        starts = [self.grid.index(cx, cy) for cx, cy in centres]
        needed = self.k_home + self.n_near + 1
        if len(set(starts)) < self.n:
            raise _NoFit("two home centres fell on the same square")
        # all islands grow together to the target; all are then cut back to the smallest size
        # any of them reached (a growth order's prefix is always connected)
        radius = math.sqrt(target / math.pi)
        islands = self._grow_homes(starts, target, [self._home_key(s, radius) for s in starts])
        size = min(len(island) for island in islands)
        if size < max(needed, 5):
            raise _NoFit(f"home islands would have only {size} squares")
        for k, island in enumerate(islands):
            for s in island[size:]:
                self.owner[s] = -1
            islands[k] = island[:size]
            for s in islands[k]:
                self.terrain[s] = LAND
        self.land_count += size * self.n
        self.home_size = size
        radius = math.sqrt(size / math.pi)
        # shapes to try: the noisy island grown above, less noise, then a plain disc; the first
        # home city must be the centre (so home cities are exactly as evenly spread as the
        # centres) except on the last try (a 3x3 island only has room on its corners)
        shapes = ((None, True), (0.6, True), (0.3, True), (0.0, True), (0.0, False))
        for k, start in enumerate(starts):
            island = islands[k]
            for shape, strict in shapes:
                if shape is not None:  # regrow island k alone, the others stay as they are
                    for s in island:
                        self.owner[s] = -1
                        self.terrain[s] = 0
                    island = self._grow(
                        start,
                        size,
                        functools.partial(self._free_for, k=k),
                        self._home_key(start, shape * radius),
                    )
                    if len(island) != size:  # cannot happen: the old island still fits
                        raise _NoFit("a home island could not regrow")
                    for s in island:
                        self.owner[s] = k
                        self.terrain[s] = LAND
                placed = self._place_home_cities(island, *centres[k], start if strict else None)
                if placed is not None:
                    break
            else:
                raise _NoFit(f"no room for {needed - 1} cities 2 apart on a {size}-square island")
            home, near = placed
            self.slots.append(home)
            self.city_squares.extend(home)
            self.city_squares.extend(near)

    def _place_home_cities(
        self, island: list[int], cx: int, cy: int, fixed: int | None
    ) -> tuple[list[int], list[int]] | None:
        """Home cities then near-home neutral cities on an island (None: no layout fits).
        `fixed`, if given, is where the first home city must be."""
        grid = self.grid
        members = set(island)
        rank = {s: i for i, s in enumerate(island)}
        inland = {s for s in island if self._inland(s)}
        dc = {s: self._edist(s, cx, cy) for s in island}
        radius = max(grid.distance(s, grid.index(cx, cy)) for s in island) + 1
        jitter = {s: self.rng.random() for s in island}
        open_shore: dict[int, bool] = {}

        def is_open(s: int) -> bool:
            if s not in open_shore:
                open_shore[s] = self._open_water(s, radius, cx, cy)
            return open_shore[s]

        def apart(s: int, chosen: list[int]) -> bool:
            return all(grid.distance(s, c) >= 2 for c in chosen)

        def home_stage(chosen: list[int]) -> list[int]:
            if not chosen and fixed is not None:
                return [fixed] if fixed in inland else []
            cands = [s for s in island if apart(s, chosen)]
            if not chosen:
                return sorted(cands, key=lambda s: (s not in inland, dc[s], rank[s]))
            first = chosen[0]
            return sorted(
                cands,
                key=lambda s: (
                    s not in inland,
                    max(0, grid.distance(s, first) - 2),
                    dc[s],
                    rank[s],
                ),
            )

        def near_stage(chosen: list[int]) -> list[int]:
            first = chosen[0]
            cands = [
                s
                for s in island
                if s not in inland and grid.distance(s, first) <= NEAR_RADIUS and apart(s, chosen)
            ]
            return sorted(
                cands,
                key=lambda s: (not is_open(s), abs(grid.distance(s, first) - 3), jitter[s]),
            )

        stages = [home_stage] * self.k_home + [near_stage] * self.n_near
        budget = [4000]

        def search(chosen: list[int]) -> list[int] | None:
            if len(chosen) == len(stages):
                return chosen
            for s in stages[len(chosen)](chosen):
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                found = search([*chosen, s])
                if found is not None:
                    return found
            return None

        found = search([])
        if found is None:
            return None
        assert all(s in members for s in found)
        return found[: self.k_home], found[self.k_home :]

    def _continents(self) -> None:
        """Neutral continents until water is down to WATER_TARGET; on crowded maps, where the
        home islands alone nearly reach that, still a few islets (one per four nations) as long
        as water stays inside WATER_BAND."""
        rng = self.rng
        noise = self.noise
        target_land = math.ceil((1.0 - WATER_TARGET) * self.size)
        max_land = math.floor((1.0 - WATER_BAND[0]) * self.size)
        min_count = math.ceil(self.n / 4)
        hi = max(6, min(CONTINENT_MAX, 3 * self.home_size))
        lo = max(3, hi // 5)
        cap = 12
        fails = placed = 0
        while fails < 7:
            if self.land_count >= target_land and placed >= min_count:
                break
            room = max_land - self.land_count
            if room < 2:
                break
            dist = self._land_distance(cap)
            # keep CONTINENT_GAP water squares from other land; after a few misses (a crowded
            # map) settle for one
            gap = CONTINENT_GAP if fails < 3 else 1
            if not (dist > gap).any():
                gap = 1
                if not (dist > gap).any():
                    return
            top = int(dist.max())
            seeds = np.flatnonzero(dist >= max(gap + 1, (3 * top) // 4))
            seed = int(seeds[rng.randint(0, len(seeds) - 1)])
            want = rng.randint(lo, hi)
            want = min(want, max(lo, target_land - self.land_count), room)
            if self.land_count >= target_land:
                want = min(want, 3)  # only the minimum count of islets is missing: keep them small
            reach = math.sqrt(want)
            sx, sy = seed % self.w, seed // self.w
            anchors = [(sx, sy)]
            for _ in range(want // 40):
                anchors.append(
                    (
                        (sx + rng.randint(-int(reach), int(reach))) % self.w,
                        (sy + rng.randint(-int(reach), int(reach))) % self.h,
                    )
                )
            spiky = (0.4 + 0.4 * rng.random()) * reach
            rough = 0.1 * reach

            def key(
                s: int,
                anchors: list[tuple[int, int]] = anchors,
                spiky: float = spiky,
                rough: float = rough,
            ) -> float:
                near = min(self._edist(s, ax, ay) for ax, ay in anchors)
                return near + spiky * noise[s] + rough * rng.random()

            island = self._grow(seed, want, (dist > gap).tobytes().__getitem__, key)
            if len(island) < min(want, 3):
                fails += 1
                continue
            fails = 0
            placed += 1
            self._set_land(island)
            self._continent_cities(island)

    def _continent_cities(self, island: list[int]) -> None:
        rng = self.rng
        grid = self.grid
        lo, hi = CONTINENT_CITY_SHARE
        count = max(1, round(len(island) * (lo + (hi - lo) * rng.random())))
        order = list(island)
        rng.shuffle(order)
        inland = [s for s in order if self._inland(s)]
        chosen: list[int] = [inland[0] if inland else order[0]]
        for s in order:
            if len(chosen) >= count:
                break
            if all(grid.distance(s, c) >= 2 for c in chosen):
                chosen.append(s)
        self.city_squares.extend(chosen)

    def to_world(self, rules: Ruleset, seed: int, length_days: int | None) -> World:
        world = World(
            rules,
            self.w,
            self.h,
            seed=seed,
            terrain=bytearray(self.terrain),
            length_days=length_days,
        )
        designation = rules.capture.new_designation
        for sq in sorted(self.city_squares):
            world.cities[sq] = City(sq, owner=None, designation=designation, build=None)
        world.slots = [list(s) for s in self.slots]
        world.slot_owner = [None] * self.n
        return world
