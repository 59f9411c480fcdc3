"""A small seeded PRNG whose whole state is one integer stored in the world.

Replays and crash recovery need the dice to be part of the game state (like boardgame.io's
random plugin): the same world and the same commands always roll the same numbers.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64: tiny state, good enough statistics for dice, trivially serialisable."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi]."""
        if hi < lo:
            raise ValueError("empty range")
        span = hi - lo + 1
        return lo + self.next64() % span

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, seq):
        return seq[self.randint(0, len(seq) - 1)]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]


class DiceError(ValueError):
    """A pinned die that the roll cannot give."""


class PinnedDice(Rng):
    """Dice a scenario pins (`dice: [5, 3]`, as boardgame.io's MockRandom does): the next rolls
    give these numbers in turn, then the seeded dice go on from where they were. A pinned number
    outside the roll's range is refused, so a scenario cannot claim an impossible roll."""

    __slots__ = ("pinned", "rolled")

    def __init__(self, state: int, pinned: list[int] | None = None) -> None:
        super().__init__(0)
        self.state = state
        self.pinned: list[int] = list(pinned or [])
        self.rolled: list[tuple[int, int, int]] = []  # (value, lo, hi) of each pinned roll

    def pin(self, values: list[int]) -> None:
        self.pinned.extend(values)

    def randint(self, lo: int, hi: int) -> int:
        if not self.pinned:
            return super().randint(lo, hi)
        value = self.pinned.pop(0)
        if not lo <= value <= hi:
            raise DiceError(f"a pinned die of {value} cannot come from a roll of {lo} to {hi}")
        self.rolled.append((value, lo, hi))
        return value
