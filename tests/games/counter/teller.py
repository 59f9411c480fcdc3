"""The counter game's events as a player reads them by DM ("Blue added 3: the counter is 7"):
its `bot.dm.tellers.Teller`. No pictures, no menus, no daily report."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from bot.dm.delivery import Menu
from bot.dm.tellers import Teller
from bot.dm.text import DISCORD_LIMIT, clip, pack
from engine.host.store import GameRow
from engine.interface.events import Event
from engine.interface.summary import GameSummary
from tests.games.counter import NAME
from tests.games.counter.core import KIND, Added, Over


def describe(event: Event, nation: str, names: dict[str, str]) -> list[str]:
    """The lines telling `nation` of one event (none: nothing for it)."""
    if nation not in event.to:
        return []
    match event:
        case Added():
            who = "You" if event.nation == nation else names.get(event.nation, event.nation)
            return [f"{who} added {event.amount}: the counter is {event.total}."]
        case Over():
            return [f"The game is over: the counter stopped at {event.total}."]
    return []


class CounterTeller:
    kind = NAME
    sitreps = False
    urgent = frozenset({"Over"})  # sent even in a player's quiet hours

    def parse(self, data: dict[str, Any]) -> Event:
        return KIND.parse_event(data)

    def category(self, event: Event, nation: str | None = None) -> str:
        return "game"

    def is_big(self, event: Event, nation: str) -> bool:
        return False  # the game has no picture

    def expires(self, event: Event) -> int | None:
        return None  # no reminders

    def outdated(self, event: Event, view: Any) -> bool:
        return False

    def joined_self(self, event: Event, nation: str) -> bool:
        return False  # its core tells no joining

    def digest(
        self,
        events: list[Event],
        nation: str,
        names: dict[str, str],
        *,
        clock: str | None,
        limit: int = DISCORD_LIMIT,
        answered: Collection[int] = (),
    ) -> list[str]:
        """A header, then a line an event; the nation's own additions are left out (the reply
        to its `/add` told them)."""
        lines = [
            line for e in events if id(e) not in answered for line in describe(e, nation, names)
        ]
        if not lines:
            return []
        return pack([f"**{clock or 'Counter'}**", *(clip(line) for line in lines)], limit)

    def header(
        self, game: GameRow, summary: GameSummary, tick: int, when: Callable[[int], str]
    ) -> str:
        return f"{game.name}{when(tick)}"

    async def picture(
        self, view: Any, title: str, events: list[Event], *, colours: str = "nation"
    ) -> bytes | None:
        return None

    def menus(
        self, events: list[Event], nation: str, game_id: int, *, game: GameRow | None = None
    ) -> list[Menu]:
        return []

    async def welcome(
        self, service: Any, game: GameRow, summary: GameSummary, nation: str, joined: Event
    ) -> str:
        raise AssertionError("the counter game tells no joining (`joined_self` is never true)")

    def sitrep(self, game_name: str, view: Any) -> str:
        raise AssertionError("the counter game has no daily report (`sitreps` is false)")


TELLER: Teller = CounterTeller()
