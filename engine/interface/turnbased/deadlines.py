"""A turn's time, as every kind played in turns keeps it, in ticks of the host's clock.

A turn (or one phase of it) resolves at its deadline, or, with `early`, as soon as every seat
still in has submitted. A turn may have no deadline (`turn_hours` 0): it waits for everyone,
or for a moderator. A reminder goes to the seats that have not submitted some ticks before the
deadline (each kind says how long before). A moderator resolves the phase now, or moves its
deadline later (`SetDeadline`, given as the nation `MODERATOR`).

The command and the two events are stored in the games' logs and outboxes: their names and
fields stay as they are."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from engine.errors import CommandError, GameError
from engine.interface.events import Event

MODERATOR = "@moderator"  # the "nation" a moderator's command is logged for
SHORTEST_TURN_HOURS = 0.25  # a quarter of an hour: one tick
LONGEST_TURN_HOURS = 24 * 7  # a week
MOST_EXTEND_TICKS = 7 * 96  # a moderator gives a week more at most


class SetDeadline(BaseModel):
    """A moderator's (given as the nation `MODERATOR`): resolve the current phase now, or
    move its deadline later."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["deadline"] = "deadline"
    now: bool = False
    extend_ticks: int = Field(default=0, ge=0, le=MOST_EXTEND_TICKS)


class DeadlineNear(Event):
    """A turn's deadline comes soon and these seats have not submitted (told to them; who has
    submitted is public, the game's status counts it)."""

    kind: Literal["DeadlineNear"] = "DeadlineNear"
    turn: int
    deadline: int
    waiting: list[str]


class DeadlineMoved(Event):
    """A moderator moved the current phase's deadline later."""

    kind: Literal["DeadlineMoved"] = "DeadlineMoved"
    turn: int
    phase: str
    deadline: int


class Clocked(Protocol):
    """What this reads and moves of a kind's state."""

    tick: int
    turn: int  # turns resolved
    phase: str
    started: bool
    ended: bool
    deadline: int | None  # the tick the current phase resolves at (None: no deadline)


def check_moderator(nation: str) -> None:
    """Only a moderator's `SetDeadline` is taken."""
    if nation != MODERATOR:
        raise CommandError("only a moderator moves a turn's deadline")


def check_turn_hours(turn_hours: float) -> None:
    """A turn's longest length as a game is created with it: a quarter of an hour to a week,
    or 0 (no deadline)."""
    if turn_hours != 0 and not SHORTEST_TURN_HOURS <= turn_hours <= LONGEST_TURN_HOURS:
        raise GameError(
            "a turn lasts from a quarter of an hour to a week (0: until everyone has submitted)"
        )


def turn_ticks(turn_hours: float, ticks_per_hour: int) -> int:
    """A turn's longest length in ticks (one at least); 0: no deadline."""
    return max(1, round(turn_hours * ticks_per_hour)) if turn_hours else 0


def early_of(early: object, turn_hours: float) -> bool:
    """Whether turns resolve once everyone has submitted: as asked, and always without a
    deadline (a turn would wait for ever)."""
    return bool(early) or not turn_hours


def resolves_early(early: bool, playing: Iterable[str], done: Callable[[str], bool]) -> bool:
    """Whether the phase resolves now, before its deadline: with `early`, once every seat
    still playing (one at least) is done."""
    seats = list(playing)
    return early and bool(seats) and all(done(s) for s in seats)


def reminder(state: Clocked, lead: int, waiting: Callable[[], list[str]]) -> list[Event]:
    """The reminder of the current phase's deadline, at its tick: `lead` ticks before it
    (below 1: never), to the seats `waiting` then (none: no reminder). Each tick passes once,
    so it comes once; a deadline moved later comes with its own."""
    if state.deadline is None or lead < 1 or state.tick != state.deadline - lead:
        return []
    seats = waiting()
    if not seats:
        return []
    return [
        DeadlineNear(
            tick=state.tick, to=seats, turn=state.turn + 1, deadline=state.deadline, waiting=seats
        )
    ]


def set_deadline(
    state: Clocked,
    *,
    now: bool,
    extend: int,
    resolve: Callable[[], list[Event]],
    everyone: list[str],
) -> list[Event]:
    """A moderator resolves the current phase now (`resolve`), or moves its deadline `extend`
    ticks later (told to `everyone`)."""
    if not state.started or state.ended:
        raise CommandError("the game is not running")
    if now:
        return resolve()
    if extend <= 0:
        raise CommandError("move the deadline later by a quarter of an hour at least")
    if state.deadline is None:
        raise CommandError(
            "this game's turns have no deadline (they resolve once everyone has submitted): "
            "resolve this one now instead"
        )
    state.deadline += extend
    return [
        DeadlineMoved(
            tick=state.tick,
            to=everyone,
            turn=state.turn + 1,
            phase=state.phase,
            deadline=state.deadline,
        )
    ]
