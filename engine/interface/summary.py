"""What anyone may know of a game, whatever its kind, without a nation's fog: its nations'
public facts, its board and where its time stands. Lobby lists, status boards, moderators'
replies and the headers of reports read this (a nation's own picture of the game is its view),
so nothing outside the engine needs the live world. Each game kind makes it
(`GameKind.summary`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class NationSummary:
    id: str
    name: str
    colour: str
    player: str | None  # who plays it (a Discord user id, "ai", or nobody)
    out: bool
    # the public count that decides the game, as every player may see it (the kind's own:
    # e.g. the cities the nation holds)
    score: int = 0
    # how others name it when that says more than its name (the kind's words, e.g. "Avalon
    # (President Ada)"); "" when its name says it all
    known_as: str = ""

    @property
    def shown(self) -> str:
        """Its name as lists show it to everyone."""
        return self.known_as or self.name


@dataclass(frozen=True)
class TurnSummary:
    """Where a game played in turns stands (None for a game in continuous time)."""

    number: int  # the turn being played (1: the first)
    phase: str  # what the players are doing: the kind's names, e.g. "orders"
    deadline_tick: int | None  # the tick at which the phase resolves (None: no deadline)
    done: int  # players who have finished the phase (submitted orders, answered)
    playing: int  # players the phase waits for
    waiting: tuple[str, ...] = ()  # the nations not done yet, where that is public (their ids)
    turn_ticks: int | None = None  # a turn's longest length (None: turns wait for everyone)


@dataclass(frozen=True)
class GameSummary:
    kind: str  # the game kind's name
    rules_title: str  # its rules as players know them ("Standard", "Classic", ...)
    board: str  # the board in a few words ("116x116 map")
    length_days: int
    tick: int
    started: bool
    ended: bool
    seats: int  # nations the game has room for
    nations: Mapping[str, NationSummary]  # read-only, in the order they joined
    ticks_per_hour: int
    ticks_per_day: int
    minutes_per_tick: int
    turn: TurnSummary | None = None

    @property
    def end_tick(self) -> int:
        return self.length_days * self.ticks_per_day

    @property
    def day(self) -> int:
        """Days gone by since the start (0 on the first day)."""
        return self.tick // self.ticks_per_day

    def clock(self, tick: int | None = None) -> str:
        """Game time as 'day D hh:mm', now or at `tick` (day 1 starts at tick 0)."""
        minutes = (self.tick if tick is None else tick) * self.minutes_per_tick
        return f"day {minutes // 1440 + 1} {minutes % 1440 // 60:02d}:{minutes % 60:02d}"

    def length(self) -> str:
        """The game's length in words: its days, and for a game played in turns of a
        deadline how many turns that makes at least ("30 days: at least 30 turns of 24
        hours")."""
        days = f"{self.length_days} day{'s' if self.length_days != 1 else ''}"
        turn = self.turn
        if turn is None or not turn.turn_ticks:
            return days
        hours = turn.turn_ticks / self.ticks_per_hour
        return (
            f"{days}: at least {self.end_tick // turn.turn_ticks} turns of {hours:g} hours "
            "(more when everyone submits early)"
        )

    def now(self, due: str | None = None) -> str:
        """Where the game stands in a few words: the game clock, or for a game played in
        turns its turn and phase ("turn 3, orders (2/4 submitted) until day 4 06:00"); `due`:
        the deadline in other words (a real time) instead of the game clock's."""
        turn = self.turn
        if turn is None or not self.started or self.ended:
            return self.clock()
        what = (
            f"orders ({turn.done}/{turn.playing} submitted)"
            if turn.phase == "orders"
            else f"{turn.phase} choices ({turn.done}/{turn.playing} answered)"
        )
        if turn.deadline_tick is None:
            return f"turn {turn.number}, {what}, until everyone has submitted"
        return f"turn {turn.number}, {what} until {due or self.clock(turn.deadline_tick)}"

    def nation_named(self, text: str) -> str | None:
        """The id of the nation whose id or name this is (any case), if any."""
        wanted = text.strip().lower()
        for n in self.nations.values():
            if wanted in (n.id.lower(), n.name.lower()):
                return n.id
        return None
