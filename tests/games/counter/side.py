"""The counter game as the bot serves it (`bot.game_side.GameSide`): what the shell's commands
say of it, its creation options, its help, the referee's view. It has no picture: nothing is
posted in its channel, and no timelapse when it ends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.context import Reply, UserError
from bot.game_side import (
    Creation,
    GameSide,
    Post,
    SandboxHelp,
    Words,
    no_founding,
    only_options,
)
from tests.games.counter import NAME
from tests.games.counter.core import LEAST, MOST, SEATS

if TYPE_CHECKING:  # pragma: no cover
    from bot.actions import Actions
    from bot.context import Caller, Context
    from bot.dm.tellers import Teller
    from engine.host.service import GameService
    from engine.host.store import GameRow
    from engine.interface.events import Event
    from engine.interface.summary import GameSummary

RULESET = "counter"  # its one set of rules (the core's `ruleset_of`)

TOPICS = {"start": "First steps", "counting": "How the counter counts"}
PAGES = {
    "start": (
        "**Counter: first steps** ({rules}{note})\n"
        "Everyone adds to one shared counter: `/add amount:` adds {least} to {most}. The "
        "others hear of it by DM. The game starts when its seats are full and lasts one "
        "game day."
    ),
    "counting": (
        "**Counter: how the counter counts** ({rules}{note})\n"
        "It starts at 0. Each `/add` adds {least} to {most}; besides, it goes up by one by "
        "itself every quarter of a game hour."
    ),
}

SANDBOX_HELP = """Type the slash commands without the slash, options as name:value or in order:
  add amount:2 (add 1 to 3 to the counter)    help (the rules)    help topic:counting
Sandbox only: wait HOURS (time passes now), as NAME (act as another local player), help, quit"""


class CounterSide:
    name = NAME
    words = Words(
        title="Counter",
        hint="add to its counter with `/add amount:`",
        caretaker="The counter game has no AI: nobody adds for you while you are away.",
        resigning="You stop adding; what you added stays in the counter.",
    )
    extensions: tuple[str, ...] = (
        "tests.games.counter.cogs.create",
        "tests.games.counter.cogs.counter",
    )
    status_events = frozenset({"Over"})
    ended_events = frozenset({"Over"})
    posts_after: frozenset[str] = frozenset()  # its channel is shown nothing after events
    sandbox = SandboxHelp(SANDBOX_HELP)
    default_ruleset = RULESET

    def __init__(self) -> None:
        from tests.games.counter.cli import CounterCli

        self.cli = CounterCli()  # its `si` verbs and options

    @property
    def teller(self) -> Teller:
        from tests.games.counter.teller import TELLER

        return TELLER

    def desk_parts(self, ctx: Context, actions: Actions) -> list[object]:
        from tests.games.counter.desk import Counting

        return [Counting(ctx, actions)]

    def creation(self, options: dict[str, Any], *, days: int | None) -> Creation:
        only_options(self.words.title, options, ("nations",))
        nations = options.get("nations")
        seats = SEATS[0] if nations is None else nations
        if not SEATS[0] <= seats <= SEATS[1]:
            raise UserError(f"A counter game has {SEATS[0]} to {SEATS[1]} players.")
        if days is not None:
            raise UserError("A counter game lasts one game day: it has no days option.")

        def describe(summary: GameSummary, speed: str) -> str:
            return f"a counter for {summary.seats} players, at {speed} speed"

        return Creation({"max_nations": seats}, describe)

    def joined(self, view: Any, nation: str, name: str, game: GameRow) -> str:
        return f"You lead **{name}** in {game.name}; the counter is at {view['total']}."

    def founding(self, choices: dict[str, Any]) -> dict[str, Any] | None:
        no_founding(self.words.title, choices)
        return None

    async def homes(self, ctx: Context, caller: Caller, current: str) -> list[tuple[str, str]]:
        return []

    def help_topics(self) -> Mapping[str, str]:
        return TOPICS

    def rulesets(self) -> list[str]:
        return [RULESET]

    def help(self, ruleset: str, topic: str, note: str = "") -> str:
        page = PAGES.get(topic)
        if page is None:  # another game's topic
            return f"The counter game has no page on {topic}: its topics are {', '.join(PAGES)}."
        return page.format(rules=f"{ruleset} rules", note=note, least=LEAST, most=MOST)

    async def referee(
        self, ctx: Context, game: GameRow, summary: GameSummary, nation: str | None
    ) -> Reply:
        """The counter as a nation sees it, or as it is (the same: the game has no fog)."""
        if nation:
            view = await ctx.service.view(game.id, nation)
            who = f"{summary.nations[nation].name} sees"
        else:
            view = await ctx.service.full_view(game.id)
            who = "everyone sees"
        return Reply(
            text=f"{game.name} (game {game.id}) at {summary.now()}: {who} the counter at "
            f"{view['total']} (only you see this)."
        )

    async def posts(self, service: GameService, game_id: int, events: list[Event]) -> list[Post]:
        return []  # (`posts_after` is empty: never asked)

    def timelapse(self, first: Any, entries: list[dict[str, Any]], title: str) -> None:
        return None  # the game has no picture of itself

    def measures(self, first: Any, entries: list[dict[str, Any]]) -> None:
        return None  # nor charts

    async def places(self, service: GameService, game_id: int) -> list[list[str]]:
        """Everyone counts together: one place, shared."""
        return [list((await service.summary(game_id)).nations)]


SIDE: GameSide = CounterSide()
