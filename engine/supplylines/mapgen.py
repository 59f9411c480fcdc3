"""Fair random maps for Supply Lines.

`generate(players, seed)` draws one *sector* (a home city, a base beside it, a city of the
centre and a few random cities, refineries and bases) in a wedge of the disc, then turns it
around the middle once per player. Roads are chosen by whole *orbits* (a road and its turned
copies), so turning the map by one sector maps it onto itself: every home city sees the same
map (the same cities, refineries and bases at the same number of roads), and every home is as
far from the home before it as from the home after it.

A sector is built in four steps:

1. Points. The home city sits on its sector's axis; its base just behind it (farther from the
   middle); the sector's city of the centre on a small ring around the middle, halfway to the
   next sector (the centre cities of all sectors form a ring of roads: the contested centre);
   the other structures at random in the wedge, never too close to another structure or to a
   turned copy of one.
2. Candidate roads. Every orbit of short roads (within `MAX_ROAD`) between the sector and
   itself, the next sectors or the centre, shortest first, kept when no copy crosses a road
   already kept or passes too close to a structure: a planar, triangulation-like web. Homes are
   never joined to each other nor to the centre directly.
3. Roads. The home-base road and the ring of the centre, then orbits of the web in a random
   order that join parts not yet joined (so the map is connected), then a random share of the
   rest (degrees capped, so pictures stay readable), then, for a structure at a dead end
   (but the home's base), the shortest road that fits. A road that would bring two
   neighbouring homes within two roads is left out.
4. Checks. Connected; the sector reaches its neighbours and the centre; neighbouring homes at
   least three roads apart; a refinery within three roads of each home. A drawing that fails
   is drawn again from the same random stream, so a seed always gives the same map.

Labels: H1..Hn (seat n is sector n, clockwise from the top), then per sector in turn its cities
C.., refineries R.. and bases M... x and y are on a disc around (0.5, 0.5).

Pure: no clock, no files; `random.Random(seed)` only.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import networkx as nx

from engine.supplylines.board import Board, MapError, Structure

MIN_PLAYERS = 2
MAX_PLAYERS = 6

OUTER = 0.47  # the farthest a structure is from the middle
MAX_ROAD = 0.36  # the longest road, in the picture's units
CLEARANCE = 0.035  # the least room between a road and a structure it does not end at
EXTRA_ROADS = 0.4  # the share of the web's other roads kept (loops, choices of route)
# the most roads at a structure and at a home city, for the optional roads only (the roads that
# connect the map and the ring of the centre can go beyond: 7 is the most seen)
MAX_DEGREE = 4
MAX_HOME_DEGREE = 5
ATTEMPTS = 200

Point = tuple[float, float]
Node = tuple[int, int]  # (sector, index in the sector)
Orbit = tuple[tuple[Node, Node], ...]  # a road and its turned copies

HOME, BASE, CENTRE = 0, 1, 2  # the first three indices of a sector


@dataclass(frozen=True)
class Size:
    """How many structures a sector has besides its home, its base and its centre city: each
    a range, drawn per map."""

    cities: tuple[int, int]
    refineries: tuple[int, int]
    bases: tuple[int, int]


SIZES: dict[str, Size] = {
    "small": Size(cities=(1, 2), refineries=(1, 1), bases=(0, 0)),
    "normal": Size(cities=(2, 3), refineries=(1, 2), bases=(0, 1)),
    "large": Size(cities=(3, 5), refineries=(2, 3), bases=(1, 1)),
}


def generate(players: int, seed: int, *, size: str = "normal") -> Board:
    """A fair random map for `players` (2-6) seats, the same for the same seed and size."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MapError(f"random maps are for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if size not in SIZES:
        raise MapError(f"unknown map size {size!r} (sizes: {', '.join(SIZES)})")
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        sector = _Sector.draw(players, SIZES[size], rng)
        roads = sector.roads(rng)
        if roads is not None:
            return _board(players, seed, size, sector, roads)
    # every drawing is fair by construction; the attempts are for the checks of step 4, which
    # took at most 23 drawings over 15,750 maps (seeds -50..999, every size and count)
    raise MapError(f"no fair map found for {players} players with seed {seed}")


@dataclass
class _Sector:
    players: int
    kinds: list[str]  # a letter per index: H, M, C (the centre), then the others
    polar: list[tuple[float, float]]  # (distance from the middle, angle from the sector's axis)

    @property
    def wedge(self) -> float:
        return 2 * math.pi / self.players

    def point(self, node: Node) -> Point:
        sector, index = node
        r, phi = self.polar[index]
        angle = -math.pi / 2 + sector * self.wedge + phi
        return (0.5 + r * math.cos(angle), 0.5 + r * math.sin(angle))

    def nodes(self) -> list[Node]:
        return [(s, i) for s in range(self.players) for i in range(len(self.kinds))]

    # --- step 1: the points ---------------------------------------------------------------

    @classmethod
    def draw(cls, players: int, size: Size, rng: random.Random) -> _Sector:
        wedge = 2 * math.pi / players
        centre_r = max(0.08, 0.065 / math.sin(math.pi / players))
        home_r = rng.uniform(0.33, 0.39)
        home_phi = rng.uniform(-0.08, 0.08) * wedge
        base_r = min(OUTER, home_r + rng.uniform(0.06, 0.09))
        base_phi = home_phi + rng.uniform(-1.0, 1.0) * min(0.3, wedge / 8)
        sector = cls(
            players=players,
            kinds=["H", "M", "C"],
            polar=[(home_r, home_phi), (base_r, base_phi), (centre_r, wedge / 2)],
        )
        extras = (
            ["C"] * rng.randint(*size.cities)
            + ["R"] * rng.randint(*size.refineries)
            + ["M"] * rng.randint(*size.bases)
        )
        rng.shuffle(extras)
        area = math.pi * (OUTER**2 - centre_r**2) / players
        spacing = min(0.09, 0.8 * math.sqrt(area / (len(extras) + 3)))
        inner = centre_r + 0.07
        for kind in extras:
            for _ in range(200):
                r = math.sqrt(rng.uniform(inner**2, OUTER**2))
                phi = rng.uniform(-wedge / 2, wedge / 2)
                if sector._room_for(r, phi, spacing):
                    sector.kinds.append(kind)
                    sector.polar.append((r, phi))
                    break
        return sector

    def _room_for(self, r: float, phi: float, spacing: float) -> bool:
        angle = -math.pi / 2 + phi
        new = (0.5 + r * math.cos(angle), 0.5 + r * math.sin(angle))
        for s in range(self.players):
            turned = -math.pi / 2 + s * self.wedge + phi
            if s and math.dist(new, (0.5 + r * math.cos(turned), 0.5 + r * math.sin(turned))) < (
                spacing
            ):
                return False
            for i in range(len(self.kinds)):
                if math.dist(new, self.point((s, i))) < spacing:
                    return False
        return True

    # --- steps 2-4: the roads -----------------------------------------------------------

    def orbit(self, a: Node, b: Node) -> Orbit:
        n = self.players
        copies = {_road(((a[0] + k) % n, a[1]), ((b[0] + k) % n, b[1])) for k in range(n)}
        return tuple(sorted(copies))

    def web(self) -> list[Orbit]:
        """Step 2: the orbits of short roads that cross nothing, shortest first."""
        m, n = len(self.kinds), self.players
        candidates: dict[Orbit, float] = {}
        for j in range(m):
            for k in range(m):
                for s in range(n):
                    a, b = (0, j), (s, k)
                    if a == b or (j == HOME and k in (HOME, CENTRE)) or (k == HOME and j == CENTRE):
                        continue
                    length = math.dist(self.point(a), self.point(b))
                    if length > MAX_ROAD:
                        continue
                    candidates.setdefault(self.orbit(a, b), length)
        points = {node: self.point(node) for node in self.nodes()}
        kept: list[Orbit] = []
        segments: list[tuple[Point, Point]] = []
        # the home-base road and the ring of the centre come first: they are always there
        forced = [self.orbit((0, HOME), (0, BASE)), self.orbit((0, CENTRE), (1 % n, CENTRE))]
        for orbit in forced + sorted(candidates, key=lambda o: (candidates[o], o)):
            if orbit in kept:
                continue
            new = [(points[a], points[b]) for a, b in orbit]
            if any(_crosses(p, q, r, s) for p, q in new for r, s in segments + new):
                if orbit in forced:
                    return []
                continue
            if any(
                _distance_to_segment(points[node], points[a], points[b]) < CLEARANCE
                for a, b in orbit
                for node in points
                if node not in (a, b)
            ):
                if orbit in forced:
                    return []
                continue
            kept.append(orbit)
            segments += new
        return kept

    def roads(self, rng: random.Random) -> list[tuple[Node, Node]] | None:
        """Steps 3 and 4: the roads of a fair map, or None when this drawing will not do."""
        n = self.players
        web = self.web()
        if not web:
            return None
        forced, rest = web[:2], web[2:]
        home, next_home = (0, HOME), (1 % n, HOME)
        g: nx.Graph[Node] = nx.Graph()
        g.add_nodes_from(self.nodes())
        for orbit in forced:
            g.add_edges_from(orbit)

        def fits(orbit: Orbit, cap: bool) -> bool:
            if cap:
                for node in {x for road in orbit for x in road}:
                    limit = MAX_HOME_DEGREE if node[1] == HOME else MAX_DEGREE
                    if g.degree(node) + sum(node in road for road in orbit) > limit:
                        return False
            g.add_edges_from(orbit)
            near = nx.single_source_shortest_path_length(g, home, cutoff=2)
            if next_home in near:
                g.remove_edges_from(orbit)
                return False
            return True

        order = sorted(rest, key=lambda o: rng.random())
        unused = []
        for orbit in order:  # join what is not joined yet
            if any(not nx.has_path(g, a, b) for a, b in orbit) and fits(orbit, cap=False):
                continue
            unused.append(orbit)
        left = []
        for orbit in unused:  # then loops and choices of route
            if not (rng.random() < EXTRA_ROADS and fits(orbit, cap=True)):
                left.append(orbit)
        for index in range(len(self.kinds)):  # and a second road for a dead end, if one fits
            if index != BASE and g.degree((0, index)) == 1:
                for orbit in sorted(left, key=lambda o: _length(self, o)):
                    if any((0, index) in road for road in orbit) and fits(orbit, cap=True):
                        left.remove(orbit)
                        break
        if not self._good(g):
            return None
        return sorted(_road(a, b) for a, b in g.edges)

    def _good(self, g: nx.Graph[Node]) -> bool:
        if not nx.is_connected(g):
            return False
        sector0 = [node for node in g if node[0] == 0]
        links_out = any(
            b[0] != 0 and b[1] != CENTRE for a in sector0 if a[1] != CENTRE for b in g.neighbors(a)
        )
        links_centre = any(
            b[1] == CENTRE for a in sector0 if a[1] != CENTRE for b in g.neighbors(a)
        )
        if not (links_out and links_centre):
            return False
        home = (0, HOME)
        lengths = nx.single_source_shortest_path_length(g, home)
        if lengths[(1 % self.players, HOME)] < 3:
            return False
        return any(self.kinds[node[1]] == "R" and d <= 3 for node, d in lengths.items())


def _board(
    players: int, seed: int, size: str, sector: _Sector, roads: list[tuple[Node, Node]]
) -> Board:
    labels: dict[Node, str] = {(s, HOME): f"H{s + 1}" for s in range(players)}
    counts = {"C": 0, "R": 0, "M": 0}
    for s in range(players):
        # a sector's structures from the outside in, then clockwise
        own = sorted(
            (i for i in range(len(sector.kinds)) if i != HOME),
            key=lambda i: (-round(sector.polar[i][0], 6), sector.polar[i][1], i),
        )
        for letter in ("C", "R", "M"):
            for i in own:
                if sector.kinds[i] == letter:
                    counts[letter] += 1
                    labels[(s, i)] = f"{letter}{counts[letter]}"
    structures = {}
    for node, label in labels.items():
        x, y = sector.point(node)
        structures[label] = Structure(
            x=min(1.0, max(0.0, round(x, 3))),
            y=min(1.0, max(0.0, round(y, 3))),
            seat=node[0] + 1 if node[1] == HOME else None,
        )
    suffix = "" if size == "normal" else f"-{size}"
    size_words = "" if size == "normal" else f", {size}"
    return Board(
        name=f"random-{players}-{seed}{suffix}",
        title=f"Random map ({players} players{size_words}, seed {seed})",
        seats=players,
        structures=structures,
        roads=[(labels[a], labels[b]) for a, b in roads],
    )


def _road(a: Node, b: Node) -> tuple[Node, Node]:
    return (a, b) if a <= b else (b, a)


def _length(sector: _Sector, orbit: Orbit) -> float:
    a, b = orbit[0]
    return math.dist(sector.point(a), sector.point(b))


def _crosses(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Whether two roads cross (roads sharing an end do not; a road does not cross itself)."""
    if {p, q} & {r, s}:
        return False

    def side(a: Point, b: Point, c: Point) -> int:
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return 0 if abs(v) < 1e-12 else (1 if v > 0 else -1)

    d1, d2, d3, d4 = side(p, q, r), side(p, q, s), side(r, s, p), side(r, s, q)
    if d1 == d2 == d3 == d4 == 0:  # on one line: crossing when they overlap
        return _distance_to_segment(r, p, q) < 1e-9 or _distance_to_segment(s, p, q) < 1e-9
    return d1 * d2 <= 0 and d3 * d4 <= 0


def _distance_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))
