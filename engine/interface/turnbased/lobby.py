"""The lobby of a game played in turns, as Supply Lines and Caldera keep it: seats taken in
order (the first free one), left before the start, and a seat's player changed (a caretaker, a
substitute) until the end. `word` is what the kind calls a seat in its refusals ("player",
"captain"); the seats are the kind's own."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any, Protocol

from engine.errors import GameError


class Seated(Protocol):
    @property
    def seat(self) -> int: ...


def free_seat(started: bool, seats: Mapping[str, Seated], nation: str, room: int, word: str) -> int:
    """The seat a nation joining now takes: the first of the `room` seats not taken."""
    if started:
        raise GameError("the game has started: nobody joins now")
    if nation in seats:
        raise GameError(f"there is already a {word} {nation!r}")
    taken = {s.seat for s in seats.values()}
    free = [s for s in range(1, room + 1) if s not in taken]
    if not free:
        raise GameError("the game is full")
    return free[0]


def leave(started: bool, seats: MutableMapping[str, Any], nation: str, word: str) -> None:
    """A nation leaves before the start (after it, it resigns)."""
    if started:
        raise GameError("the game has started: resign instead")
    if seats.pop(nation, None) is None:
        raise GameError(f"there is no {word} {nation!r}")


def substitute(
    ended: bool, seats: MutableMapping[str, Any], nation: str, user: str | None, word: str
) -> None:
    """Another player (or nobody) plays the seat from now; an ended game's players are final."""
    if ended:
        raise GameError("the game is over")
    if nation not in seats:
        raise GameError(f"there is no {word} {nation!r}")
    seats[nation].user = user
