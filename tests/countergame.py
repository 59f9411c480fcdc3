"""A second, tiny game kind for the host's tests: nations take turns adding to a shared counter
and each tick adds one. Small as it is, it goes through every door a kind has."""

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


class Add(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["add"] = "add"
    amount: int


class Added(Event):
    kind: Literal["Added"] = "Added"
    nation: str
    total: int


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
    name = "counter"
    title = "Counter"
    ai = None

    def setup(self, options: dict[str, Any]) -> Counter:
        seats = int(options.get("max_nations", 2))
        if not 2 <= seats <= 4:
            raise GameError("a counter game has 2 to 4 nations")
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
        return (
            Added.model_validate(data)
            if data.get("kind") == "Added"
            else Event.model_validate(data)
        )

    def apply(self, world: Counter, entry: en.Entry) -> list[Event]:
        everyone = sorted(world.nations)
        match entry:
            case en.CommandEntry():
                add = self.parse_command(entry.command)
                if not world.started:
                    raise CommandError("the game has not started yet")
                if not 1 <= add.amount <= 3:
                    raise CommandError("add 1 to 3")
                world.total += add.amount
                return [Added(tick=world.tick, to=everyone, nation=entry.nation, total=world.total)]
            case en.Advance():
                world.tick += entry.ticks
                world.total += entry.ticks
                world.ended = world.tick >= world.end_tick
                return []
            case en.Join():
                if len(world.nations) >= world.seats:
                    raise GameError("the game is full")
                world.nations[entry.nation] = {
                    "name": entry.name,
                    "colour": entry.colour,
                    "player": entry.player,
                }
                return []
            case en.Start():
                world.started = True
                return []
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
                    n: NationSummary(n, d["name"], d["colour"], d["player"], False)
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
