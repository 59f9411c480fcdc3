"""/game: create, join, leave, start, resign, list, info."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, complete, respond
from bot.lifecycle import GAME_KINDS, LEVELS, SIZES, SPEEDS, map_choices
from engine.strategic.kind import MAX_NATIONS, MIN_NATIONS
from engine.strategic.rules import available


class GameCog(
    commands.GroupCog, group_name="game", group_description="Create, join and follow games"
):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description="Open a new game in this channel")
    @app_commands.describe(
        name="the game's name",
        ruleset="standard (default) or classic rules",
        nations=f"how many nations ({MIN_NATIONS}-{MAX_NATIONS}; default 8, Supply Lines: the map's)",
        size="map size (auto fits the number of nations)",
        speed="how fast game time runs",
        days="how many game days it lasts",
        kind="which game: Strategic Initiative (default) or Supply Lines",
        turn_hours="Supply Lines: game hours a turn lasts at most (default 24; 0: until all submit)",
        map="Supply Lines: a hand-made map, or a fair random one (default: four)",
    )
    @app_commands.choices(
        kind=[app_commands.Choice(name=k, value=k) for k in GAME_KINDS],
        ruleset=[app_commands.Choice(name=r, value=r) for r in available()],
        size=[app_commands.Choice(name=s, value=s) for s in SIZES],
        speed=[app_commands.Choice(name=s, value=s) for s in SPEEDS],
        map=[app_commands.Choice(name=label, value=value) for label, value in map_choices()],
    )
    @app_commands.guild_only()
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 40],
        ruleset: str = "standard",
        nations: app_commands.Range[int, MIN_NATIONS, MAX_NATIONS] | None = None,
        size: str = "auto",
        speed: str = "real-time",
        days: app_commands.Range[int, 1, 60] | None = None,
        kind: str = "strategic-initiative",
        turn_hours: app_commands.Range[float, 0.0, 168.0] | None = None,
        map: str | None = None,  # noqa: A002 - the option's name in Discord
    ) -> None:
        desk = self.bot.desk
        await respond(
            interaction,
            lambda: desk.game_create(
                caller_of(interaction),
                name,
                ruleset=ruleset,
                nations=nations,
                size=size,
                speed=speed,
                days=days,
                kind=kind,
                turn_hours=turn_hours,
                map_name=map,
            ),
        )

    @app_commands.command(name="join", description="Join the game in this channel with a nation")
    @app_commands.describe(name="your nation's name", colour="your colour on the map")
    async def join(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 32],
        colour: str | None = None,
    ) -> None:
        await respond(
            interaction, lambda: self.bot.desk.game_join(caller_of(interaction), name, colour)
        )

    @join.autocomplete("colour")
    async def _colours(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.choose_colours)

    @app_commands.command(
        name="add-ai", description="Fill a seat with an AI nation (creator or moderator)"
    )
    @app_commands.describe(
        name="the AI nation's name",
        colour="its colour on the map",
        level="normal (the default) or easy (slower to act, founds no cities)",
    )
    @app_commands.choices(level=[app_commands.Choice(name=lv, value=lv) for lv in LEVELS])
    async def add_ai(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 32],
        colour: str | None = None,
        level: str = "normal",
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.game_add_ai(caller_of(interaction), name, colour, level),
        )

    add_ai.autocomplete("colour")(_colours)

    @app_commands.command(
        name="caretaker", description="Let the AI defend your nation while you are away"
    )
    @app_commands.describe(on="True: the AI takes over; False: you take it back")
    async def caretaker(self, interaction: discord.Interaction, on: bool) -> None:
        await respond(interaction, lambda: self.bot.desk.game_caretaker(caller_of(interaction), on))

    @app_commands.command(name="leave", description="Leave the game before it starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.game_leave(caller_of(interaction)))

    @app_commands.command(name="start", description="Start the game now (creator or moderator)")
    async def start(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.game_start(caller_of(interaction)))

    @app_commands.command(name="resign", description="Give up: your nation leaves the game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.game_resign(caller_of(interaction)))

    @app_commands.command(name="list", description="Games on this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.game_list(caller_of(interaction)))

    @app_commands.command(name="info", description="The game in this channel: status and nations")
    async def info(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.game_info(caller_of(interaction)))


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(GameCog(cast(Host, bot)))
