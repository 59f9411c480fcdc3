"""How each game kind's events are told by DM: a `Teller` per kind, found by the game's kind.
The notifier (`notifier.py`) groups the outbox rows and sends the messages; what the rows say,
whether they come with a picture, and the report's header are the kind's own."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Collection
from typing import Any, Protocol

from bot.dm.delivery import Menu
from engine.host.rows import GameRow
from engine.interface.events import Event
from engine.interface.summary import GameSummary

log = logging.getLogger(__name__)

# kind -> "module:attribute" of its teller, imported when first asked for
TELLERS: dict[str, str] = {
    "strategic-initiative": "bot.dm.tellers:STRATEGIC",
    "supply-lines": "bot.dm.supplylines_notices:TELLER",
}


class Teller(Protocol):
    kind: str
    sitreps: bool  # whether its players get a daily situation report (with a picture)

    def parse(self, data: dict[str, Any]) -> Event: ...

    def category(self, event: Event) -> str:
        """The category a player may mute it by (`bot.dm.notices.CATEGORIES`)."""
        ...

    def is_big(self, event: Event, nation: str) -> bool:
        """Worth a picture at once."""
        ...

    def joined_self(self, event: Event, nation: str) -> bool:
        """The nation's own joining, told by a welcome message instead."""
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

    async def picture(self, view: Any, title: str, events: list[Event]) -> bytes | None: ...

    def menus(self, events: list[Event], nation: str, game_id: int) -> list[Menu]:
        """Select menus to send under the report (a question the player answers by choosing)."""
        ...


_loaded: dict[str, Teller] = {}


def teller(kind: str) -> Teller:
    """The teller of a game kind (a kind the bot has no words for: `Silent`)."""
    found = _loaded.get(kind)
    if found is None:
        if kind in TELLERS:
            module, _, attribute = TELLERS[kind].partition(":")
            found = getattr(importlib.import_module(module), attribute)
        else:
            log.warning("no DM wording for game kind %r: its events are not told", kind)
            found = Silent(kind)
        _loaded[kind] = found
    return found


class Silent:
    """A kind the bot has no words for (e.g. a test's kind): its events are read with the
    kind's own parser and told to nobody (marked delivered)."""

    sitreps = False

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def parse(self, data: dict[str, Any]) -> Event:
        from engine.interface.kind import kind

        return kind(self.kind).parse_event(data)

    def category(self, event: Event) -> str:
        return "game"

    def is_big(self, event: Event, nation: str) -> bool:
        return False

    def joined_self(self, event: Event, nation: str) -> bool:
        return False

    def digest(
        self,
        events: list[Event],
        nation: str,
        names: dict[str, str],
        *,
        clock: str | None,
        limit: int,
        answered: Collection[int] = (),
    ) -> list[str]:
        return []

    def header(
        self, game: GameRow, summary: GameSummary, tick: int, when: Callable[[int], str]
    ) -> str:
        return game.name

    async def picture(self, view: Any, title: str, events: list[Event]) -> bytes | None:
        return None

    def menus(self, events: list[Event], nation: str, game_id: int) -> list[Menu]:
        return []


class StrategicTeller:
    """Strategic Initiative's events (`bot.dm.notices`), with a map picture round them."""

    kind = "strategic-initiative"
    sitreps = True

    def parse(self, data: dict[str, Any]) -> Event:
        from engine.strategic import events as ev

        return ev.event_from_dict(data)

    def category(self, event: Event) -> str:
        from bot.dm import notices

        return notices.category(event)

    def is_big(self, event: Event, nation: str) -> bool:
        from bot.dm import notices

        return notices.is_big(event, nation)

    def joined_self(self, event: Event, nation: str) -> bool:
        from engine.strategic import events as ev

        return (
            isinstance(event, ev.NationJoined) and event.nation == nation and event.home is not None
        )

    def digest(
        self,
        events: list[Event],
        nation: str,
        names: dict[str, str],
        *,
        clock: str | None,
        limit: int,
        answered: Collection[int] = (),
    ) -> list[str]:
        from bot.dm import notices

        return notices.digest(events, nation, names, clock=clock, limit=limit, answered=answered)

    def header(
        self, game: GameRow, summary: GameSummary, tick: int, when: Callable[[int], str]
    ) -> str:
        return f"{game.name}, {summary.clock(tick)}{when(tick)}"

    async def picture(self, view: Any, title: str, events: list[Event]) -> bytes | None:
        """The map round these events' markers and the nation's things near them (no events:
        round its cities and units), drawn in a worker process."""
        from renderers import pool as drawing
        from renderers.markers import markers_from

        markers = markers_from(events, view.nation, view.width, view.height)
        try:
            return await drawing.draw_focus(view, title=title, markers=markers)
        except Exception:
            log.exception("rendering the map for %s failed", view.nation)
            return None

    def menus(self, events: list[Event], nation: str, game_id: int) -> list[Menu]:
        return []


STRATEGIC = StrategicTeller()
