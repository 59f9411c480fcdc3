"""What anyone may know of a game, without a nation's fog: its nations' public facts, its size,
its rules and where its time stands. Lobby lists, status boards, moderators' replies and the
headers of reports read this (a nation's own picture of the game is its `View`), so nothing
outside the engine needs the live world."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine.strategic.rules import Ruleset

if TYPE_CHECKING:
    from collections.abc import Mapping

    from engine.strategic.world import World


@dataclass(frozen=True)
class NationSummary:
    id: str
    name: str
    colour: str
    player: str | None  # who plays it (a Discord user id, "ai", or nobody)
    out: bool


@dataclass(frozen=True)
class GameSummary:
    rules: Ruleset
    width: int
    height: int
    length_days: int
    tick: int
    started: bool
    ended: bool
    seats: int  # nations the map has homes for
    nations: Mapping[str, NationSummary]  # read-only, in the order they joined

    @property
    def ruleset(self) -> str:
        return self.rules.name

    @property
    def ticks_per_hour(self) -> int:
        return self.rules.ticks_per_hour

    @property
    def end_tick(self) -> int:
        return self.length_days * self.rules.ticks_per_day

    @property
    def day(self) -> int:
        """Days gone by since the start (0 on the first day)."""
        return self.tick // self.rules.ticks_per_day

    def clock(self, tick: int | None = None) -> str:
        """Game time as 'day D hh:mm', now or at `tick`."""
        return self.rules.clock(self.tick if tick is None else tick)

    def nation_named(self, text: str) -> str | None:
        """The id of the nation whose id or name this is (any case), if any."""
        wanted = text.strip().lower()
        for n in self.nations.values():
            if wanted in (n.id.lower(), n.name.lower()):
                return n.id
        return None


def summarise(world: World) -> GameSummary:
    return GameSummary(
        rules=world.rules,
        width=world.width,
        height=world.height,
        length_days=world.length_days,
        tick=world.tick,
        started=world.started,
        ended=world.ended,
        seats=len(world.slots),
        nations=MappingProxyType(
            {
                n.id: NationSummary(n.id, n.name, n.colour, n.player, n.out)
                for n in world.nations.values()
            }
        ),
    )
