"""How a game's events are told by DM: each game's side brings a `Teller`
(`bot.game_side.GameSide.teller`). The notifier (`notifier.py`) groups the outbox rows and sends
the messages; what the rows say, whether they come with a picture, the report's header, the
welcome and the daily report are the game's own."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, Protocol

from bot.dm.delivery import Menu
from engine.host.rows import GameRow
from engine.interface.events import Event
from engine.interface.summary import GameSummary

if TYPE_CHECKING:  # pragma: no cover
    from engine.host.service import GameService


class Teller(Protocol):
    kind: str
    sitreps: bool  # whether its players get a daily situation report (with a picture)
    urgent: frozenset[str]  # the events sent even in a player's quiet hours

    def parse(self, data: dict[str, Any]) -> Event: ...

    def category(self, event: Event, nation: str | None = None) -> str:
        """The category a player may mute it by (`bot.dm.text.CATEGORIES`); with the
        recipient `nation`, as that nation sees it (another nations' fight: `others`)."""
        ...

    def is_big(self, event: Event, nation: str) -> bool:
        """Worth a picture at once."""
        ...

    def expires(self, event: Event) -> int | None:
        """The game tick after which the event is worth nothing (a reminder: its deadline), so
        quiet hours never hold it past then; None: it keeps."""
        ...

    def outdated(self, event: Event, view: Any) -> bool:
        """Whether an event that `expires` no longer holds by the nation's view now (a reminder
        of orders the player has given since): it is not told."""
        ...

    def joined_self(self, event: Event, nation: str) -> bool:
        """The nation's own joining, told by a welcome message (`welcome`) instead."""
        ...

    def digest(
        self,
        events: list[Event],
        nation: str,
        names: dict[str, str],
        *,
        clock: str | None,
        limit: int,
        answered: Collection[int] = (),
    ) -> list[str]: ...

    def header(
        self, game: GameRow, summary: GameSummary, tick: int, when: Callable[[int], str]
    ) -> str:
        """What the report is about: the game and when (`when(tick)`: the real time)."""
        ...

    async def picture(
        self, view: Any, title: str, events: list[Event], *, colours: str = "nation"
    ) -> bytes | None:
        """The picture of a report (or of the daily report: no events); `colours`: the
        player's choice of how a map colours the nations (`PlayerSettings.map_colours`), for
        a game whose pictures can do both."""
        ...

    def menus(
        self, events: list[Event], nation: str, game_id: int, *, game: GameRow | None = None
    ) -> list[Menu]:
        """Select menus to send under the report (a question the player answers by choosing);
        `game` (the game's row, when known) for menus that read its settings."""
        ...

    async def welcome(
        self, service: GameService, game: GameRow, summary: GameSummary, nation: str, joined: Event
    ) -> str:
        """The message of a nation's own joining (`joined_self`)."""
        ...

    def sitrep(self, game_name: str, view: Any) -> str:
        """The daily situation report's text (when `sitreps`)."""
        ...


def teller(kind: str) -> Teller:
    """The teller of a game (its side's; a game the bot has no side for raises, and its rows
    stay in the outbox: `bot.game_side.check_sides` refuses to start without one)."""
    from bot.game_side import side

    return side(kind).teller
