"""Strategic Initiative as the bot serves it (`bot.game_side.GameSide`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.context import Reply, UserError
from bot.game_side import Creation, Post, SandboxHelp, Words, only_options

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

from bot.games.strategic import NAME

SIZES = ("auto", "small", "medium", "large")
_SIZE_FACTOR = {"small": 0.8, "medium": 1.0, "large": 1.25}
DEFAULT_NATIONS = 8
MOST_DAYS = 60  # a game's longest length, in game days

SANDBOX_HELP = """Type the slash commands without the slash, options as name:value or in order:
  status | map | map at:12,7 radius:5 | units | cities | nations
  move units:12 13 to:5,6      (or: move 12 13 5,6)   attack units:12 target:6,6
  build city:3,4 unit:tank     designate city:3,4 designation:port   diplomacy "Robot 1" war
  launch unit:40 target:30,9   engineer unit:7 action:build_city       cancel units:12
  attack units:12 target:6,6 queue:true (attack once in range)   waypoint city:3,4 to:9,9
  help units (the rules: start units cp power supply combat diplomacy commands)    news
Sandbox only: wait HOURS (time passes now), speed SECONDS (real seconds per game hour),
  pause, resume (the clock runs by itself), press N (a button: a map's zoom, a list's page),
  as NAME (act as another local player), help, quit"""


class StrategicSide:
    name = NAME
    words = Words(
        title="Strategic Initiative",
        hint="its commands are `/move`, `/build`, `/map` and the rest",
        caretaker=(
            "The AI looks after your nation while you are away: it builds, garrisons and "
            "defends, but starts no wars and sends nobody abroad. `/game caretaker on:False` "
            "takes it back."
        ),
        resigning="Your units disband and your cities become neutral.",
    )
    extensions = (
        "bot.games.strategic.cogs.create",
        "bot.games.strategic.cogs.playing",
        "bot.games.strategic.cogs.intel",
        "bot.games.strategic.cogs.islands",
    )
    status_events = frozenset({"NationJoined", "NationLeft", "GameStarted", "GameEnded"})
    ended_events = frozenset({"GameEnded"})
    # events after which its channel is shown something (`posts`: its public news)
    posts_after = frozenset(
        {
            "RelationChanged",
            "CityCaptured",
            "SatelliteLaunched",
            "IcbmLaunched",
            "NationEliminated",
        }
    )
    sandbox = SandboxHelp(SANDBOX_HELP, nations=4)
    default_ruleset = "standard"

    @property
    def teller(self) -> Teller:
        from bot.games.strategic.teller import TELLER

        return TELLER

    def desk_parts(self, ctx: Context, actions: Actions) -> list[object]:
        from bot.games.strategic.choices import Choices
        from bot.games.strategic.founding import Founding
        from bot.games.strategic.intel import Intel
        from bot.games.strategic.playing import Playing

        return [Playing(ctx, actions), Intel(ctx, actions), Choices(ctx), Founding(ctx)]

    def creation(self, options: dict[str, Any], *, days: int | None) -> Creation:
        from engine.strategic.kind import MAX_NATIONS, MIN_NATIONS
        from engine.strategic.mapgen import default_size
        from engine.strategic.rules import available
        from engine.strategic.rules import load as load_rules
        from engine.strategic.words import article

        only_options(self.words.title, options, ("ruleset", "nations", "size"))
        ruleset = options.get("ruleset") or "standard"
        nations = options.get("nations")
        nations = DEFAULT_NATIONS if nations is None else nations
        size = options.get("size") or "auto"
        if ruleset not in available():
            raise UserError(f"There is no ruleset {ruleset!r}: choose {', '.join(available())}.")
        if not MIN_NATIONS <= nations <= MAX_NATIONS:
            raise UserError(f"A game has {MIN_NATIONS} to {MAX_NATIONS} nations.")
        if size not in SIZES:
            raise UserError(f"Sizes are: {', '.join(SIZES)}.")
        if days is not None and not 1 <= days <= MOST_DAYS:
            raise UserError(f"A game lasts 1 to {MOST_DAYS} days.")
        rules = load_rules(ruleset)
        side = default_size(nations)[0]
        if size != "auto":
            side = max(32, min(256, int(side * _SIZE_FACTOR[size]) // 2 * 2))
        length = days or rules.time.default_length_days

        def describe(summary: GameSummary, speed: str) -> str:
            return (
                f"{rules.title} rules, {nations} nations, {article(f'{side}x{side}')} map, "
                f"{length} days at {speed} speed"
            )

        return Creation(
            {
                "ruleset": ruleset,
                "max_nations": nations,
                "width": side,
                "height": side,
                "length_days": length,
            },
            describe,
        )

    def joined(self, view: Any, nation: str, name: str, game: GameRow) -> str:
        homes = [view.label(c.sq) for c in view.own_cities()]
        return f"You lead **{name}** in {game.name}; your cities are at {', '.join(homes)}."

    def founding(self, choices: dict[str, Any]) -> dict[str, Any] | None:
        from bot.games.strategic.founding import founding

        return founding(choices)

    async def homes(self, ctx: Context, caller: Caller, current: str) -> list[tuple[str, str]]:
        from bot.games.strategic.founding import Founding

        return await Founding(ctx).choose_islands(caller, current)

    def help_topics(self) -> Mapping[str, str]:
        from bot.games.strategic.help import TOPICS

        return TOPICS

    def rulesets(self) -> list[str]:
        from engine.strategic.rules import available

        return available()

    def help(self, ruleset: str, topic: str, note: str = "") -> str:
        from bot.games.strategic.help import page
        from engine.strategic.rules import load as load_rules

        return page(load_rules(ruleset), topic, note=note)

    async def referee(
        self, ctx: Context, game: GameRow, summary: GameSummary, nation: str | None
    ) -> Reply:
        """The whole board, each nation in its own colour (a moderator is nobody's "you"), or
        the board as one nation sees it."""
        from renderers.strategic import drawing

        if nation:
            view = await ctx.service.view(game.id, nation)
            label = summary.nations[nation].name
        else:
            view = await ctx.service.full_view(game.id)
            label = "everything"
        title = f"{game.name} (game {game.id}), moderator view"
        data = await drawing.draw_map(view, title=title, colours="nation")  # in a worker process
        return Reply(
            text=f"{label} at {view.clock} (only you see this).",
            files=[(f"mod-{game.id}-{nation or 'all'}.png", data)],
        )

    async def posts(self, service: GameService, game_id: int, events: list[Event]) -> list[Post]:
        """Its public news (bot/games/strategic/feed.py): what every player may know of these
        events; the rest goes to each nation by DM, as its fog allows."""
        from bot.games.strategic.feed import feed_lines

        summary = await service.summary(game_id)
        names = {n.id: n.shown for n in summary.nations.values()}  # with its leader
        return [Post(line, news=True) for line in feed_lines(events, names)]

    def timelapse(self, first: Any, entries: list[dict[str, Any]], title: str) -> bytes:
        from renderers.strategic.timelapse import timelapse

        return timelapse(first, entries, title=title)

    def measures(self, first: Any, entries: list[dict[str, Any]]) -> Charts | None:
        from renderers.strategic.charts import measures

        return measures(first, entries)

    async def places(self, service: GameService, game_id: int) -> list[list[str]]:
        """Its teams of mutual allies by their cities, as the game's end ranks them: a team
        shares its place, and so do teams with as many cities."""
        from engine.strategic.systems.endgame import standings
        from engine.strategic.systems.wasteland import collapsed

        world = await service.live_world(game_id)  # (an ended game: its standings are public)
        if collapsed(world):  # society collapsed: no winner, every nation shares the last place
            return [[], sorted(world.nations)]
        places: list[list[str]] = []
        last: int | None = None
        for row in standings(world):
            if row["cities"] != last:
                places.append([])
                last = row["cities"]
            places[-1].extend(row["nations"])
        return places

    @property
    def cli(self) -> GameCli:
        from bot.games.strategic.cli import CLI

        return CLI


SIDE = StrategicSide()
