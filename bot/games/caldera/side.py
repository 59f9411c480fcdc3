"""Caldera as the bot serves it (`bot.game_side.GameSide`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.context import Reply, UserError
from bot.dm.text import DISCORD_LIMIT
from bot.game_side import Creation, Post, SandboxHelp, Words, no_founding, only_options
from bot.games.caldera import NAME
from bot.turnbased import fitted

if TYPE_CHECKING:  # pragma: no cover
    from bot.actions import Actions
    from bot.context import Caller, Context
    from bot.dm.tellers import Teller
    from bot.game_cli import GameCli
    from engine.host.service import GameService
    from engine.host.store import GameRow
    from engine.interface.events import Event
    from engine.interface.summary import GameSummary
    from renderers.chart import Charts

SEATS = (1, 6)  # the fewest and the most captains (the core's)
DEFAULT_SEATS = 3
MOST_DAYS = 365
DEFAULT_DAYS = 60
DEFAULT_TURN_HOURS = 24.0
MOST_TURN_HOURS = 168.0
ROOM = DISCORD_LIMIT - 200  # the turn summary's share of a channel message

SANDBOX_HELP = """Type the slash commands without the slash, options as name:value or in order:
  captain character cha:3 int:3 eng:3 arm:2 com:2 eco:2    captain bonus bonus:earth-interceptor
  captain status    captain choose hand:research card:frigate-2    captain fund amount:100
  captain build class:interceptor parts:nuclear-engine, laser-cannon    captain map
  captain move ships:1 to:0,-1    captain retreat ship:1    captain submit
  mod turn now:true (resolve the turn now)    help topic:captain (the rules)
Sandbox only: wait HOURS (time passes now: a turn resolves at its deadline, or once everyone
  has submitted), as NAME (act as another local player), help, quit"""


class CalderaSide:
    name = NAME
    words = Words(
        title="Caldera",
        hint="command your captain with `/captain` (`/captain status`, `/captain submit`)",
        caretaker=(
            "The AI commands your captain while you are away: it chooses cards, researches, "
            "builds, sends ships scouting and mining, and submits. `/game caretaker on:False` "
            "takes it back."
        ),
        resigning=(
            "You leave the campaign at once: your ships are gone; the other captains play on."
        ),
    )
    extensions = ("bot.games.caldera.cogs.create", "bot.games.caldera.cogs.captain")
    status_events = frozenset(
        {"Joined", "Left", "Started", "TurnResolved", "DeadlineMoved", "GameOver"}
    )
    ended_events = frozenset({"GameOver"})
    posts_after = frozenset({"TurnResolved", "DeadlineNear"})
    sandbox = SandboxHelp(SANDBOX_HELP, nations=None)
    default_ruleset = "standard"

    @property
    def teller(self) -> Teller:
        from bot.games.caldera.notices import TELLER

        return TELLER

    def desk_parts(self, ctx: Context, actions: Actions) -> list[object]:
        from bot.games.caldera.captains import Captains

        return [Captains(ctx, actions)]

    def creation(self, options: dict[str, Any], *, days: int | None) -> Creation:
        from engine.caldera.rules import (
            DeckError,
            RulesError,
            available,
            decks_available,
            load_deck,
        )

        known = ("ruleset", "nations", "turn_hours", "deck")
        if options.get("size") not in (None, "auto"):
            raise UserError("Caldera's star map grows as the captains explore it: it has no size.")
        only_options(self.words.title, {**options, "size": None}, known)
        ruleset = options.get("ruleset") or "standard"
        if ruleset not in available():
            raise UserError(f"Caldera has the rules {', '.join(available())}, not {ruleset!r}.")
        deck = options.get("deck") or "starter"
        if deck not in decks_available():
            raise UserError(
                f"There is no Caldera deck {deck[:40]!r}: the decks are "
                f"{', '.join(decks_available())}."
            )
        try:
            load_deck(deck, ruleset)
        except (DeckError, RulesError) as exc:
            raise UserError(f"The deck {deck} is not valid: {str(exc)[:1500]}") from None
        players = options.get("nations")
        seats = DEFAULT_SEATS if players is None else players
        if not SEATS[0] <= seats <= SEATS[1]:
            raise UserError(f"A Caldera campaign has {SEATS[0]} to {SEATS[1]} captains.")
        if days is not None and not 1 <= days <= MOST_DAYS:
            raise UserError(f"A game lasts 1 to {MOST_DAYS} days.")
        turn_hours = options.get("turn_hours")
        hours = DEFAULT_TURN_HOURS if turn_hours is None else turn_hours
        if hours != 0 and not 0.25 <= hours <= MOST_TURN_HOURS:
            raise UserError(
                f"A turn lasts a quarter of an hour to {MOST_TURN_HOURS:g} game hours "
                "(0: no deadline)."
            )

        def describe(summary: GameSummary, speed: str) -> str:
            pace = (
                f"a turn every {hours:g} hours of game time ({speed}), or as soon as every "
                "captain has submitted"
                if hours
                else "a turn as soon as every captain has submitted (no deadline: a moderator "
                "can resolve a turn with `/mod turn now:True`)"
            )
            return f"Caldera for {seats} captains with the {deck} deck, {pace}"

        return Creation(
            {
                "ruleset": ruleset,
                "deck": deck,
                "max_nations": seats,
                "turn_hours": hours,
                "length_days": days or DEFAULT_DAYS,
            },
            describe,
        )

    def joined(self, view: Any, nation: str, name: str, game: GameRow) -> str:
        seat = view.captains[nation].seat
        return (
            f"You are captain **{name}** (seat {seat}) in {game.name}; your shipyard is at "
            "Earth. Once the campaign starts, set your character with `/captain character`."
        )

    def founding(self, choices: dict[str, Any]) -> dict[str, Any] | None:
        no_founding(self.words.title, choices)
        return None

    async def homes(self, ctx: Context, caller: Caller, current: str) -> list[tuple[str, str]]:
        return []

    def help_topics(self) -> Mapping[str, str]:
        from bot.games.caldera.help import TITLES

        return TITLES

    def rulesets(self) -> list[str]:
        from engine.caldera.rules import available

        return available()

    def help(self, ruleset: str, topic: str, note: str = "") -> str:
        from bot.games.caldera import help as caldera_help
        from engine.caldera.rules import load, load_deck

        return caldera_help.page(load(ruleset), load_deck("starter", ruleset), topic)

    async def referee(
        self, ctx: Context, game: GameRow, summary: GameSummary, nation: str | None
    ) -> Reply:
        """The star map, and a captain's own standing (hand, credits, ships), or every
        captain's: private, for the moderator alone."""
        from bot.games.caldera.captains import status_lines
        from bot.games.caldera.pictures import draw_in_pool, star_map_of

        if nation:
            view = await ctx.service.view(game.id, nation)
            lines = status_lines(view, nation)
        else:
            view = await ctx.service.full_view(game.id)
            lines = [line for cid in view.own for line in status_lines(view, cid)]
        png = await draw_in_pool(star_map_of(view, title=f"{game.name} (moderator view)"))
        return Reply(
            text=f"{game.name} (game {game.id}) at {summary.now()} (only you see this: a "
            "captain's hand, credits and fleet are theirs):\n" + "\n".join(lines),
            files=[(f"mod-{game.id}-{nation or 'all'}.png", png)],
        )

    async def posts(self, service: GameService, game_id: int, events: list[Event]) -> list[Post]:
        """A resolved turn: the star map with its battles, and the turn's shared results in
        words; a deadline's reminder."""
        from bot.games.caldera.pictures import draw_in_pool, star_map_of
        from bot.games.caldera.summary import turn_summary
        from engine.caldera import events as ev

        resolved = [e for e in events if isinstance(e, ev.TurnResolved)]
        last_turn = max((e.turn for e in resolved), default=0)
        near = [e for e in events if isinstance(e, ev.DeadlineNear) and e.turn > last_turn]
        if not (resolved or near):
            return []
        row = await service.game(game_id)
        view = await service.full_view(game_id)
        names = {c.id: c.name for c in view.captains.values()}
        names.update({k: n.name for k, n in view.npcs.items()})
        out: list[Post] = []
        if resolved:
            last = resolved[-1]
            if view.turn > last.turn + 1:
                return []  # turns resolved since (AI captains alone): the latest is posted
            battles = [b["at"] for b in last.battles]
            data = await draw_in_pool(star_map_of(view, title=row.name, battles=battles))
            told = _fitted(turn_summary(last, names))
            out.append(
                Post(
                    f"**{row.name}**: turn {last.turn} has resolved.\n{told}",
                    (f"turn-{last.turn}.png", data),
                )
            )
        for soon in near:
            out.append(await _reminder(service, game_id, row, soon, names))
        return out

    def timelapse(self, first: Any, entries: list[dict[str, Any]], title: str) -> bytes:
        """The star map after each turn and at the end, as an animated GIF."""
        from renderers.caldera.timelapse import timelapse

        return timelapse(first, entries, title=title)

    def measures(self, first: Any, entries: list[dict[str, Any]]) -> Charts | None:
        """Each captain's fleet, credits, trust, missions and enemy ships destroyed after
        each turn, and the zone reached."""
        from renderers.caldera.charts import measures

        return measures(first, entries)

    async def places(self, service: GameService, game_id: int) -> list[list[str]]:
        """The captains by missions completed, then trust earned, then enemy ships
        destroyed (the campaign's standings); all even: one place."""
        view = await service.full_view(game_id)
        places: list[list[str]] = []
        last: tuple[int, int, int] | None = None
        for c in sorted(
            view.captains.values(),
            key=lambda c: (-c.missions_done, -c.trust_earned, -c.destroyed, c.seat),
        ):
            key = (c.missions_done, c.trust_earned, c.destroyed)
            if key != last:
                places.append([])
                last = key
            places[-1].append(c.id)
        return places

    @property
    def cli(self) -> GameCli:
        from bot.games.caldera.cli import CLI

        return CLI


def _fitted(lines: list[str], room: int = ROOM) -> str:
    return fitted(lines, room, "the star map")


async def _reminder(
    service: GameService, game_id: int, row: GameRow, e: Any, names: dict[str, str]
) -> Post:
    """The channel's reminder of a deadline near: the captains who have not submitted, and a
    ping for those who chose the channel over a DM (`/notify mute:reminders`)."""
    from bot.games.caldera.summary import reminder
    from bot.turnbased import reminder_post
    from engine.caldera.state import TICKS_PER_HOUR

    return await reminder_post(service, game_id, row, e, names, reminder, TICKS_PER_HOUR)


SIDE = CalderaSide()
