"""Caldera's one source of chance: every random draw of a game comes from here, so the same
state replays the same draws.

    rng = draw(state, "scout")      # a random.Random seeded from (state.seed, state.draws)
    rng.randint(1, 6)

Each call counts one draw in `state.draws`, so two calls never share a stream and a replay
from a stored state draws exactly as the first time. `purpose` names what the draw is for
(it is mixed into the seed: a draw for another purpose at the same count differs)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Seeded(Protocol):
    """What chance needs of a state: its seed and how many draws it has made."""

    seed: int
    draws: int


def draw(state: Seeded, purpose: str) -> random.Random:
    """A random stream for one `purpose`, from (state.seed, state.draws); counts the draw."""
    rng = random.Random(f"caldera/{state.seed}/{state.draws}/{purpose}")
    state.draws += 1
    return rng


def roll(state: Seeded, purpose: str, sides: int = 6) -> int:
    """One die of `sides` (1..sides)."""
    return draw(state, purpose).randint(1, sides)


def pick(state: Seeded, purpose: str, choices: Sequence[T]) -> T:
    """One of `choices` (not empty), each as likely."""
    if not choices:
        raise ValueError(f"{purpose}: nothing to pick from")
    return draw(state, purpose).choice(choices)


def shuffled(state: Seeded, purpose: str, items: Sequence[T]) -> list[T]:
    """`items` in a random order (a new list)."""
    out = list(items)
    draw(state, purpose).shuffle(out)
    return out
