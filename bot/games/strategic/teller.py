"""How Strategic Initiative's events are told by DM (`bot.dm.tellers.Teller`): the digest of
`notices`, a map picture round them, the welcome with first orders, and the daily situation
report."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from bot.dm.delivery import Menu
from engine.host.realtime import RealClock
from engine.host.store import GameRow
from engine.interface.events import Event
from engine.interface.summary import GameSummary
from engine.strategic import events as ev

if TYPE_CHECKING:  # pragma: no cover
    from engine.host.service import GameService
    from engine.strategic.view import View

log = logging.getLogger(__name__)


class StrategicTeller:
    """Strategic Initiative's events (`bot.games.strategic.notices`), with a map picture round them."""

    kind = "strategic-initiative"
    sitreps = True
    # sent even in quiet hours: the game's start and end
    urgent = frozenset({"GameStarted", "GameEnded"})

    def parse(self, data: dict[str, Any]) -> Event:
        return ev.event_from_dict(data)

    def category(self, event: Event, nation: str | None = None) -> str:
        from bot.games.strategic import notices

        return notices.category(event, nation)

    def is_big(self, event: Event, nation: str) -> bool:
        from bot.games.strategic import notices

        return notices.is_big(event, nation)

    def expires(self, event: Event) -> int | None:
        return None  # no reminders: everything keeps

    def outdated(self, event: Event, view: Any) -> bool:
        return False

    def joined_self(self, event: Event, nation: str) -> bool:
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
        from bot.games.strategic import notices

        return notices.digest(events, nation, names, clock=clock, limit=limit, answered=answered)

    def header(
        self, game: GameRow, summary: GameSummary, tick: int, when: Callable[[int], str]
    ) -> str:
        return f"{game.name}, {summary.clock(tick)}{when(tick)}"

    async def picture(
        self, view: Any, title: str, events: list[Event], *, colours: str = "nation"
    ) -> bytes | None:
        """The map round these events' markers and the nation's things near them (no events:
        round its cities and units; the game's end: the whole final board, as an overview),
        drawn in a worker process, the nations in their colours or by relation (`colours`)."""
        from renderers.strategic import drawing
        from renderers.strategic.markers import markers_from

        markers = markers_from(events, view.nation, view.width, view.height)
        try:
            if any(isinstance(e, ev.GameEnded) for e in events):  # the final board, whole
                options = {"title": title, "colours": colours}
                return await drawing.run(drawing.draw_overview_bytes, view, options)
            return await drawing.draw_focus(view, title=title, markers=markers, colours=colours)
        except Exception:
            log.exception("rendering the map for %s failed", view.nation)
            return None

    def menus(
        self, events: list[Event], nation: str, game_id: int, *, game: GameRow | None = None
    ) -> list[Menu]:
        return []

    async def welcome(
        self,
        service: GameService,
        game: GameRow,
        summary: GameSummary,
        nation: str,
        joined: Event,
    ) -> str:
        """The welcome of a nation that joined, from its view as it is now (the game may
        have started since): its start and first orders."""
        from bot.games.strategic.welcome import welcome
        from engine.strategic.rules import load as load_rules

        assert isinstance(joined, ev.NationJoined)
        view = await service.view(game.id, nation)
        clock = RealClock.of_row(game, summary.ticks_per_hour)
        return welcome(
            view,
            load_rules(game.ruleset),
            game_name=game.name,
            capital=joined.home,
            started=summary.started,
            joined=len(summary.nations),
            seats=summary.seats,
            length_days=summary.length_days,
            seconds_per_hour=float(game.clock.get("speed", 3600.0)),
            end_at=clock.real_time_of(summary.end_tick) if summary.started else None,
        )

    def sitrep(self, game_name: str, view: View) -> str:
        """The daily situation report's text (its picture: `picture` with no events)."""
        return sitrep_text(game_name, view)


def sitrep_text(game_name: str, view: View) -> str:
    from engine.strategic.rules import load as load_rules

    s = view.status
    me = view.nations.get(view.nation)
    name = me.name if me else view.nation
    cap = load_rules(view.ruleset).command_points.max
    wasted = (
        f"\nCommand points are at the most ({cap}): what comes is wasted; spend some."
        if s.cp >= cap
        else ""
    )
    return (
        f"**Situation report - {game_name}, {name}** ({view.clock})\n"
        f"Tech {s.tech:.1f} | Command points {s.cp} (+{s.cp_regen}/h) | "
        f"Cities {s.cities} | Units {s.units} | Power {s.power}/{s.power_limit}{wasted}"
    )


TELLER = StrategicTeller()
