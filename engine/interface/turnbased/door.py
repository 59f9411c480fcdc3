"""The parts of a kind's door (`engine.interface.kind.GameKind`) that the kinds played in turns
share: the length a game is created with, the log's lifecycle entries routed to the kind's own
`turns` functions, the seat giving a command, a new seat's id, the people playing, the stored form and its hash, and
where a turn of orders stands. (The seed stays each kind's: tests fix it there.)"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.entries import AI_PLAYER
from engine.interface.events import Event
from engine.interface.summary import TurnSummary

LONGEST_DAYS = 365


class Lifecycle(Protocol):
    """A kind's game around its turns (its `turns` module): the lobby, time, the end."""

    def advance(self, state: Any, ticks: int) -> list[Event]: ...

    def join(
        self, state: Any, nation: str, name: str, colour: str, user: str | None
    ) -> list[Event]: ...

    def leave(self, state: Any, nation: str) -> list[Event]: ...

    def start(self, state: Any) -> list[Event]: ...

    def resign(self, state: Any, nation: str) -> list[Event]: ...

    def substitute(self, state: Any, nation: str, user: str | None) -> list[Event]: ...

    def end_game(self, state: Any, reason: str) -> list[Event]: ...


class Seat(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def user(self) -> str | None: ...


class Playing(Protocol):
    @property
    def out(self) -> bool: ...  # resigned, conceded or defeated


class Running(Protocol):
    @property
    def started(self) -> bool: ...

    @property
    def ended(self) -> bool: ...


P = TypeVar("P", bound=Playing)


def playing(state: Running, seats: Mapping[str, P], nation: str) -> P:
    """The seat giving a command now: the game running, the seat in it and not out."""
    if not state.started:
        raise CommandError("the game has not started yet")
    if state.ended:
        raise CommandError("the game is over")
    seat = seats.get(nation)
    if seat is None:
        raise CommandError("you do not play in this game")
    if seat.out:
        raise CommandError("you are out of the game")
    return seat


def check_days(length_days: int) -> None:
    if not 1 <= length_days <= LONGEST_DAYS:
        raise GameError(f"a game lasts 1 to {LONGEST_DAYS} days")


def apply_entry(
    world: Any,
    entry: en.Entry,
    *,
    title: str,
    turns: Lifecycle,
    command: Callable[[str, dict[str, Any]], list[Event]],
    founding: str,
) -> list[Event]:
    """One log entry: a nation's `command` (its JSON), or the lobby's, time's and moderators'
    entries by the kind's `turns`; a join with founding choices is refused (`founding` says
    what a player chooses instead). A refusal raises and changes nothing."""
    match entry:
        case en.CommandEntry():
            return command(entry.nation, entry.command)
        case en.Advance():
            return list(turns.advance(world, entry.ticks))
        case en.Join():
            if entry.founding:
                raise GameError(founding)
            return list(turns.join(world, entry.nation, entry.name, entry.colour, entry.player))
        case en.Leave():
            return list(turns.leave(world, entry.nation))
        case en.Start():
            return list(turns.start(world))
        case en.Resign() | en.Substitute() if world.ended:
            # only an older log holds one (refused since issue 27: the service and `turns`
            # say "the game is over"); replayed, it changes nothing: the result is final
            return []
        case en.Resign():
            return list(turns.resign(world, entry.nation))
        case en.Substitute():
            return list(turns.substitute(world, entry.nation, entry.player))
        case en.End():
            if world.ended:
                raise GameError("the game is already over")
            return list(turns.end_game(world, "moderator"))
    raise GameError(f"{title} has no {entry.kind} entries")


def nation_id(name: str, taken: Collection[str], fallback: str) -> str:
    """A new seat's id, made from its name (`fallback` for a name of no letters or digits),
    unique among those `taken`."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:16] or fallback
    nid, n = base, 2
    while nid in taken:
        nid, n = f"{base}-{n}", n + 1
    return nid


def people(seats: Iterable[Seat]) -> list[tuple[str, str]]:
    """(seat, user) of the seats people play (not the AI, not empty)."""
    out: list[tuple[str, str]] = []
    for seat in seats:
        user = seat.user
        if user is not None and user != AI_PLAYER:
            out.append((seat.id, user))
    return out


def dump(world: BaseModel, *, by_alias: bool = False) -> str:
    """A state as canonical JSON (keys sorted, no spaces): its stored form, and what its hash
    is of."""
    return json.dumps(
        world.model_dump(mode="json", by_alias=by_alias), sort_keys=True, separators=(",", ":")
    )


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def orders_turn(
    world: Any, phase: str, playing: list[str], done: Callable[[str], bool]
) -> TurnSummary:
    """Where a turn of orders stands: `playing` seats, those `done` (submitted), the others
    waited for (public: who has submitted is no secret)."""
    return TurnSummary(
        world.turn + 1,
        phase,
        world.deadline,
        sum(1 for s in playing if done(s)),
        len(playing),
        tuple(s for s in playing if not done(s)),
        world.turn_ticks or None,
    )
