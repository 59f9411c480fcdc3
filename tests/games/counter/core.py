"""The counter game's core (its `GameKind`): nations add 1 to 3 to a shared counter, and each
tick adds one. Small as it is, it goes through every door a kind has; its bot side is
`tests.games.counter.side`."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.events import Event
from engine.interface.summary import GameSummary, NationSummary
from tests.games.counter import NAME

LEAST, MOST = 1, 3  # what one `Add` may add
SEATS = (2, 4)  # the fewest and the most nations of a game


class Add(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["add"] = "add"
    amount: int


class Added(Event):
    kind: Literal["Added"] = "Added"
    nation: str
    amount: int
    total: int


class Over(Event):
    """The game is over (its time ran out, or a moderator ended it)."""

    kind: Literal["Over"] = "Over"
    total: int


EVENTS: dict[str, type[Event]] = {"Added": Added, "Over": Over}


@dataclass
class Counter:
    seats: int
    length_days: int = 1
    tick: int = 0
    started: bool = False
    ended: bool = False
    total: int = 0
    nations: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def end_tick(self) -> int:
        return self.length_days * 96


class CounterGame:
    name = NAME
    title = "Counter"
    ai = None

    def setup(self, options: dict[str, Any]) -> Counter:
        seats = int(options.get("max_nations", SEATS[0]))
        if not SEATS[0] <= seats <= SEATS[1]:
            raise GameError(f"a counter game has {SEATS[0]} to {SEATS[1]} nations")
        return Counter(seats=seats)

    def settings_of(self, world: Counter) -> dict[str, Any]:
        return {"max_nations": world.seats}

    def ruleset_of(self, world: Counter) -> str:
        return "counter"

    def dump(self, world: Counter) -> str:
        return json.dumps(world.__dict__, sort_keys=True)

    def load(self, text: str) -> Counter:
        return Counter(**json.loads(text))

    def hash(self, world: Counter) -> str:
        return hashlib.sha256(self.dump(world).encode()).hexdigest()

    def parse_command(self, data: dict[str, Any]) -> Add:
        return Add.model_validate(data)

    def parse_event(self, data: dict[str, Any]) -> Event:
        return EVENTS.get(str(data.get("kind")), Event).model_validate(data)

    def apply(self, world: Counter, entry: en.Entry) -> list[Event]:
        everyone = sorted(world.nations)
        match entry:
            case en.CommandEntry():
                add = self.parse_command(entry.command)
                if not world.started:
                    raise CommandError("the game has not started yet")
                if world.ended:
                    raise CommandError("the game is over")
                if world.nations.get(entry.nation, {"out": True})["out"]:
                    raise CommandError(f"{entry.nation} is not in the game")
                if not LEAST <= add.amount <= MOST:
                    raise CommandError(f"add {LEAST} to {MOST}")
                world.total += add.amount
                return [
                    Added(
                        tick=world.tick,
                        to=everyone,
                        nation=entry.nation,
                        amount=add.amount,
                        total=world.total,
                    )
                ]
            case en.Advance():
                world.tick += entry.ticks
                world.total += entry.ticks
                if world.ended or world.tick < world.end_tick:
                    return []
                world.ended = True
                return [Over(tick=world.tick, to=everyone, total=world.total)]
            case en.Join():
                if len(world.nations) >= world.seats:
                    raise GameError("the game is full")
                world.nations[entry.nation] = {
                    "name": entry.name,
                    "colour": entry.colour,
                    "player": entry.player,
                    "out": False,
                }
                return []
            case en.Leave():
                world.nations.pop(entry.nation, None)
                return []
            case en.Resign():  # what it added stays in the counter
                world.nations[entry.nation]["out"] = True
                return []
            case en.Substitute():
                world.nations[entry.nation]["player"] = entry.player
                return []
            case en.Start():
                world.started = True
                return []
            case en.End():
                world.ended = True
                return [Over(tick=world.tick, to=everyone, total=world.total)]
        raise GameError(f"a counter game cannot {entry!r}")

    def nation_id_for(self, world: Counter, name: str) -> str:
        return name.lower()

    def full(self, world: Counter) -> bool:
        return len(world.nations) >= world.seats

    def players(self, world: Counter) -> list[tuple[str, str]]:
        return []

    def view_for(self, world: Counter, nation: str) -> dict[str, Any]:
        if nation not in world.nations:
            raise KeyError(nation)
        return {"nation": nation, "total": world.total, "tick": world.tick}

    def full_view(self, world: Counter) -> dict[str, Any]:
        return {"total": world.total, "tick": world.tick}

    def lobby_view(self, world: Counter) -> None:
        """Nothing to choose before joining: seats are taken in order."""
        return None

    def summary(self, world: Counter) -> GameSummary:
        return GameSummary(
            kind=self.name,
            rules_title="Counter",
            board="one counter",
            length_days=world.length_days,
            tick=world.tick,
            started=world.started,
            ended=world.ended,
            seats=world.seats,
            nations=MappingProxyType(
                {
                    n: NationSummary(n, d["name"], d["colour"], d["player"], d["out"])
                    for n, d in world.nations.items()
                }
            ),
            ticks_per_hour=4,
            ticks_per_day=96,
            minutes_per_tick=15,
        )

    def ticks_per_hour(self, world: Counter) -> int:
        return 4

    def snapshot_due(self, world: Counter, ticks_since: int) -> bool:
        return ticks_since >= 96


KIND = CounterGame()
