"""Caldera's hexagonal map: axial coordinates (q, r) of flat-top hexes, so a tile has a
neighbour straight north. A place's key in the state is the string "q,r"; Earth is "0,0".

A tile's layer is its hex distance to Earth. "North, then clockwise" is the seed's order for
battles, scouting and the NPCs' turns: closest to Earth first, then, within a layer, starting
from the place straight north of Earth and going clockwise round the ring.

On screen (y down) a flat-top hex at (q, r) has its centre at x = 3/2 q, y = sqrt(3) (r + q/2)
(in hex radii): north is (0, -1), north-east (1, -1), south-east (1, 0), south (0, 1),
south-west (-1, 1), north-west (-1, 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Hex = tuple[int, int]

EARTH: Hex = (0, 0)

# the six neighbours, north first, then clockwise
NORTH, NORTH_EAST, SOUTH_EAST, SOUTH, SOUTH_WEST, NORTH_WEST = (
    (0, -1),
    (1, -1),
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
)
DIRECTIONS: tuple[Hex, ...] = (NORTH, NORTH_EAST, SOUTH_EAST, SOUTH, SOUTH_WEST, NORTH_WEST)
DIRECTION_NAMES = ("north", "north-east", "south-east", "south", "south-west", "north-west")


def key(h: Hex) -> str:
    """(2, -1) -> "2,-1"."""
    return f"{h[0]},{h[1]}"


def parse(text: str) -> Hex:
    """ "2,-1" -> (2, -1); a ValueError names what is wrong."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        raise ValueError(f"a place is 'q,r' (two whole numbers), not {text!r}")
    try:
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        raise ValueError(f"a place is 'q,r' (two whole numbers), not {text!r}") from None


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours, north first, then clockwise."""
    return [add(h, d) for d in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def layer(h: Hex) -> int:
    """Hex distance to Earth."""
    return distance(h, EARTH)


def ring(n: int) -> list[Hex]:
    """The places of layer n, starting straight north of Earth and going clockwise."""
    if n <= 0:
        return [EARTH]
    h = (0, -n)
    out = []
    # from the north corner the ring runs south-east, south, south-west, north-west, north,
    # north-east: n steps each
    for d in (SOUTH_EAST, SOUTH, SOUTH_WEST, NORTH_WEST, NORTH, NORTH_EAST):
        for _ in range(n):
            out.append(h)
            h = add(h, d)
    return out


def ring_index(h: Hex) -> int:
    """Where h is in its layer's ring (0: straight north of Earth, then clockwise)."""
    q, r = h
    n = layer(h)
    if n == 0:
        return 0
    if r == -n and 0 <= q < n:  # north corner to north-east corner
        return q
    if q == n and r < 0:  # north-east corner to south-east corner
        return n + (r + n)
    if q + r == n and q > 0:  # south-east corner to south corner
        return 2 * n + (n - q)
    if r == n and q <= 0 and q > -n:  # south corner to south-west corner
        return 3 * n - q
    if q == -n and r > 0:  # south-west corner to north-west corner
        return 4 * n + (n - r)
    return 5 * n + (q + n)  # north-west corner to north corner (q + r == -n, q < 0)


def order(h: Hex) -> tuple[int, int]:
    """The sort key of the seed's order: closest to Earth first, then north, then clockwise."""
    return (layer(h), ring_index(h))


def key_order(place: str) -> tuple[int, int]:
    """`order` of a place given as its key "q,r"."""
    return order(parse(place))


def sorted_places(places: Iterable[str]) -> list[str]:
    """Place keys in the seed's order (closest to Earth, then north, then clockwise)."""
    return sorted(places, key=key_order)


def spiral(layers: int) -> Iterator[Hex]:
    """Every place up to `layers` from Earth, in the seed's order."""
    for n in range(layers + 1):
        yield from ring(n)
