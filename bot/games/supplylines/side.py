"""Supply Lines as the bot serves it (`bot.game_side.GameSide`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.context import Reply, UserError
from bot.game_side import Creation, Post, SandboxHelp, Words, no_founding, only_options

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

from bot.games.supplylines import NAME

MOST_DAYS = 365  # a game's longest length, in game days
DEFAULT_DAYS = 30
DEFAULT_TURN_HOURS = 24.0
MOST_TURN_HOURS = 168.0
RANDOM_SEATS = (2, 6)  # the players a generated map is made for
DEFAULT_SEATS = 4

SANDBOX_HELP = """Type the slash commands without the slash, options as name:value or in order:
  orders board (the board, and a picture)     game info (the turn and its deadline)
  orders add C2 > C3    orders add Build 1 Tank@M1    orders add 2 Infantry @ H1 > C1
  orders add Hold@R2    orders add Concede    orders list    orders clear    orders submit
  orders add A C2 - C3 (Diplomacy notation: A/F ignored; A C2 H holds)
  orders supply 4 7     (the units to supply, when a DM asks you to choose)
  mod deadline now:true (resolve the turn now)    help commands (how orders are written)
Sandbox only: wait HOURS (time passes now: a turn resolves at its deadline, or once everyone
  has submitted), press N (a button: a long board's or list's page), as NAME (act as another
  local player), help, quit"""


def map_choices() -> list[tuple[str, str]]:
    """`map:`'s choices: the hand-made maps (with their players) and the generated ones."""
    from engine.supplylines.board import available, load_map
    from engine.supplylines.rules import load as load_rules

    rules = load_rules()
    made = [(m, load_map(m, rules).seats) for m in available()]
    return [
        *((f"{m} ({n} players)", m) for m, n in sorted(made, key=lambda x: (x[1], x[0]))),
        ("random (a fair generated map for nations: players)", "random"),
        ("random-small", "random-small"),
        ("random-large", "random-large"),
    ]


def _seats(map_name: str, players: int | None) -> int:
    """The players of a game on `map_name`: a hand-made map's seats, else the number asked
    for (a generated map is made for it)."""
    from engine.supplylines.board import available, load_map
    from engine.supplylines.kind import RANDOM_MAP
    from engine.supplylines.rules import load as load_rules

    low, high = RANDOM_SEATS
    if RANDOM_MAP.match(map_name):
        if players is not None and not low <= players <= high:
            raise UserError(f"Random maps are for {low} to {high} players.")
        return DEFAULT_SEATS if players is None else players
    if map_name not in available():
        raise UserError(
            f"There is no Supply Lines map {map_name!r}: choose {', '.join(available())} or "
            "random (random-small, random-large)."
        )
    seats = load_map(map_name, load_rules()).seats
    if players is not None and players != seats:
        raise UserError(f"The map {map_name} is for {seats} players, not {players}.")
    return seats


class SupplyLinesSide:
    name = NAME
    words = Words(
        title="Supply Lines",
        hint="give its orders with `/orders add` and see the board with `/orders board`",
        caretaker=(
            "The AI gives your orders while you are away: it builds, defends, answers supply "
            "questions and takes empty neutral structures, but attacks no other player. "
            "`/game caretaker on:False` takes it back (your orders for the turn, if it gave "
            "them already, stay until you change them)."
        ),
        resigning=(
            "You concede at once: your structures and units become neutral, and you are out "
            "of the game."
        ),
    )
    extensions = ("bot.games.supplylines.cogs.create", "bot.games.supplylines.cogs.orders")
    status_events = frozenset(
        {"Joined", "Left", "Started", "TurnMoved", "SupplyAsked", "TurnEnded", "GameOver"}
    )
    ended_events = frozenset({"GameOver"})
    # events after which its channel is shown something (`posts`): a turn's board and
    # results, the supply results of a turn that waited for answers, a deadline's reminder
    posts_after = frozenset({"TurnMoved", "TurnEnded", "DeadlineNear"})
    sandbox = SandboxHelp(SANDBOX_HELP, nations=None)
    default_ruleset = "standard"

    @property
    def teller(self) -> Teller:
        from bot.games.supplylines.notices import TELLER

        return TELLER

    def desk_parts(self, ctx: Context, actions: Actions) -> list[object]:
        from bot.games.supplylines.orders import Orders

        return [Orders(ctx, actions)]

    def creation(self, options: dict[str, Any], *, days: int | None) -> Creation:
        from engine.supplylines.kind import DEFAULT_MAPS
        from engine.supplylines.rules import available

        known = ("ruleset", "nations", "map_name", "turn_hours")
        if options.get("size") not in (None, "auto"):
            raise UserError(
                "Supply Lines' maps are chosen with map: (random-small or random-large for "
                "a generated map of that size)."
            )
        only_options(self.words.title, {**options, "size": None}, known)
        ruleset = options.get("ruleset") or "standard"
        if ruleset not in available():
            raise UserError(
                f"Supply Lines has the rules {', '.join(available())}, not {ruleset!r}."
            )
        if days is not None and not 1 <= days <= MOST_DAYS:
            raise UserError(f"A game lasts 1 to {MOST_DAYS} days.")
        players = options.get("nations")
        low, high = RANDOM_SEATS
        if players is not None and not low <= players <= high:
            raise UserError(f"Supply Lines is for {low} to {high} players.")
        chosen = (options.get("map_name") or "").strip().lower() or None
        if chosen is None:
            chosen = DEFAULT_MAPS[players if players is not None else DEFAULT_SEATS]
        seats = _seats(chosen, players)
        turn_hours = options.get("turn_hours")
        hours = DEFAULT_TURN_HOURS if turn_hours is None else turn_hours
        if not 0 <= hours <= MOST_TURN_HOURS:
            raise UserError(
                f"A turn lasts at most {MOST_TURN_HOURS:g} game hours (0: no deadline)."
            )

        def describe(summary: GameSummary, speed: str) -> str:
            pace = (
                f"a turn every {hours:g} hours of game time ({speed}), or as soon as everyone has "
                "submitted"
                if hours
                else "a turn as soon as everyone has submitted (no deadline: a moderator can "
                "resolve a turn with `/mod deadline now:True`)"
            )
            return f"Supply Lines on {summary.board}, {pace}"

        return Creation(
            {
                "ruleset": ruleset,
                "map": chosen,
                "max_nations": seats,
                "turn_hours": hours,
                "length_days": days or DEFAULT_DAYS,
            },
            describe,
        )

    def joined(self, view: Any, nation: str, name: str, game: GameRow) -> str:
        home = view.board.home_of(view.players[nation].seat)
        return f"You lead **{name}** in {game.name}; your home city is {home}."

    def founding(self, choices: dict[str, Any]) -> dict[str, Any] | None:
        no_founding(self.words.title, choices)
        return None

    async def homes(self, ctx: Context, caller: Caller, current: str) -> list[tuple[str, str]]:
        return []

    def help_topics(self) -> Mapping[str, str]:
        from bot.games.supplylines.help import TITLES

        return {key: title for key, title in TITLES.items() if title is not None}

    def rulesets(self) -> list[str]:
        from engine.supplylines.rules import available

        return available()

    def help(self, ruleset: str, topic: str, note: str = "") -> str:
        from bot.games.supplylines import help as supplylines_help
        from engine.supplylines.rules import load as load_rules

        return supplylines_help.page(load_rules(ruleset), topic)

    async def referee(
        self, ctx: Context, game: GameRow, summary: GameSummary, nation: str | None
    ) -> Reply:
        """Supply Lines has no fog: the whole board, with every player's orders of this turn
        (a referee's view), or with one player's (as that player sees it)."""
        from renderers.supplylines import draw_board_in_pool

        if nation:
            view = await ctx.service.view(game.id, nation)
            label = f"{summary.nations[nation].name}'s board and orders"
        else:
            view = await ctx.service.full_view(game.id)
            label = "The board and every player's orders"
        title = f"{game.name} (game {game.id}), moderator view"
        data = await draw_board_in_pool(view, title=title)
        return Reply(
            text=f"{label} at {summary.now()} (only you see this: players' orders are secret "
            "until their turn resolves).",
            files=[(f"mod-{game.id}-{nation or 'all'}.png", data)],
        )

    async def posts(self, service: GameService, game_id: int, events: list[Event]) -> list[Post]:
        """A resolved turn: the whole board (the game has no fog) with its moves, conflicts
        and captures, and its results in words (`summary`), for the game's channel; the
        supply results of a turn that waited for supply answers; a deadline's reminder."""
        from bot.games.supplylines.summary import fitted, turn_summary
        from engine.supplylines import events as ev
        from engine.supplylines.view import public
        from renderers.supplylines import draw_board_in_pool

        out: list[Post] = []
        moved = [e for e in events if isinstance(e, ev.TurnMoved)]
        ended = [e for e in events if isinstance(e, ev.TurnEnded) and _told(e)]
        near = [e for e in events if isinstance(e, ev.DeadlineNear)]
        resolved = max((e.turn for e in moved), default=0)
        near = [e for e in near if e.turn > resolved]  # (a turn resolved since: no reminder)
        if not (moved or ended or near):
            return []
        row = await service.game(game_id)
        view = await service.full_view(game_id)
        names = {p.id: p.name for p in view.players.values()}
        if moved:
            last = moved[-1]
            if view.turn > last.turn + 1:
                return []  # turns resolved since (AI players alone): the latest one is posted
            with_it = next((e for e in ended if e.turn == last.turn), None)
            # the board as everyone sees it: the next turn's orders given meanwhile (an AI
            # gives them at once) stay secret
            data = await draw_board_in_pool(public(view), title=row.name, turn_report=last)
            told = fitted(turn_summary(last, with_it, names))
            out.append(
                Post(
                    f"**{row.name}**: turn {last.turn} has resolved."
                    + (f"\n{told}" if told else ""),
                    (f"turn-{last.turn}.png", data),
                )
            )
        for e in ended:
            if moved and e.turn == moved[-1].turn:
                continue  # told with its board
            told = fitted(turn_summary(None, e, names))
            if told:
                out.append(Post(f"**{row.name}**, turn {e.turn}'s supply:\n{told}"))
        for soon in near:
            out.append(await _reminder(service, game_id, row, soon, names))
        return out

    def timelapse(self, first: Any, entries: list[dict[str, Any]], title: str) -> bytes:
        from renderers.supplylines.timelapse import timelapse

        return timelapse(first, entries, title=title)

    def measures(self, first: Any, entries: list[dict[str, Any]]) -> Charts | None:
        from renderers.supplylines.charts import measures

        return measures(first, entries)

    async def places(self, service: GameService, game_id: int) -> list[list[str]]:
        """The winner first (if any), then the others by the structures they held at the
        end; as many structures, the same place."""
        state = await service.live_world(game_id)  # (the game has no fog)
        held = {p: len(state.structures_of(p)) for p in state.players}
        places: list[list[str]] = []
        last: tuple[bool, int] | None = None
        for player in sorted(held, key=lambda p: (p != state.winner, -held[p])):
            key = (player == state.winner, held[player])
            if key != last:
                places.append([])
                last = key
            places[-1].append(player)
        return places

    @property
    def cli(self) -> GameCli:
        from bot.games.supplylines.cli import CLI

        return CLI


def _told(e: Any) -> bool:
    """A turn's end the channel hears of in words: its supply results, players out, a
    winner (a resignation's is the shell's own announcement)."""
    return bool(e.owners or e.defeated or e.winner)


async def _reminder(
    service: GameService, game_id: int, row: GameRow, e: Any, names: dict[str, str]
) -> Post:
    """The channel's reminder of a deadline near: the players who have not submitted, and a
    ping for those who chose the channel over a DM (`/notify mute:reminders`)."""
    from bot.games.supplylines.summary import reminder
    from bot.turnbased import reminder_post
    from engine.supplylines.state import TICKS_PER_HOUR

    return await reminder_post(service, game_id, row, e, names, reminder, TICKS_PER_HOUR)


SIDE = SupplyLinesSide()
