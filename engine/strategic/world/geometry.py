"""Square grid on a torus: both edges wrap, 8 neighbours, distances are Chebyshev.

Squares are addressed by a flat index `i = y * width + x`; players type and see `x,y`.
"""

from __future__ import annotations

from functools import cache

_OFFSETS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


class Grid:
    __slots__ = ("width", "height", "size", "_neighbours")

    @property
    def neighbour_table(self) -> tuple[tuple[int, ...], ...]:
        """neighbour_table[i]: the 8 neighbours of square i (for hot loops)."""
        return self._neighbours

    def __init__(self, width: int, height: int) -> None:
        if width < 3 or height < 3:
            raise ValueError("a map is at least 3x3")
        self.width = width
        self.height = height
        self.size = width * height
        self._neighbours = _neighbour_table(width, height)

    def index(self, x: int, y: int) -> int:
        return (y % self.height) * self.width + (x % self.width)

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.width, i // self.width

    def label(self, i: int) -> str:
        x, y = self.xy(i)
        return f"{x},{y}"

    def neighbours(self, i: int) -> tuple[int, ...]:
        return self._neighbours[i]

    def distance(self, a: int, b: int) -> int:
        w, h = self.width, self.height
        dx = abs(a % w - b % w)
        dy = abs(a // w - b // w)
        return max(min(dx, w - dx), min(dy, h - dy))

    def within(self, centre: int, radius: int) -> list[int]:
        """Every square within `radius` of `centre` (Chebyshev, wrapping, each square once)."""
        w, h = self.width, self.height
        cx, cy = centre % w, centre // w
        xs = sorted({(cx + d) % w for d in range(-radius, radius + 1)})
        ys = sorted({(cy + d) % h for d in range(-radius, radius + 1)})
        return [y * w + x for y in ys for x in xs]


@cache
def _neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    table = []
    for y in range(height):
        for x in range(width):
            table.append(
                tuple(((y + dy) % height) * width + (x + dx) % width for dx, dy in _OFFSETS)
            )
    return tuple(table)


def parse_coord(text: str) -> tuple[int, int]:
    """'12,7' or '12 7' -> (12, 7)."""
    parts = text.replace(",", " ").split()
    if len(parts) != 2:
        raise ValueError(f"coordinates look like x,y (for example 12,7), not {text!r}")
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise ValueError(f"coordinates look like x,y (for example 12,7), not {text!r}") from None
