"""/game: create (a subcommand per game), join, leave, start, resign, list, info."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, complete, respond
from bot.lifecycle import LEVELS


class GameCog(
    commands.GroupCog, group_name="game", group_description="Create, join and follow games"
):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    # /game create <game>: one subcommand per game, each with its own options (added by each
    # game's extension)
    create = app_commands.Group(name="create", description="Open a new game in this channel")

    @app_commands.command(name="join", description="Join the game in this channel with a nation")
    @app_commands.describe(
        name="your nation's name",
        colour="your colour on the map: a name (suggested as you type) or #rrggbb",
        leader="your leader's name, shown to the others with your nation's",
        title="your leader's title (President, Queen, ...)",
        home="where you start: a free starting place (suggested as you type)",
    )
    async def join(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 32],
        colour: str | None = None,
        leader: app_commands.Range[str, 1, 32] | None = None,
        title: app_commands.Range[str, 1, 24] | None = None,
        home: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.lifecycle.game_join(
                caller_of(interaction), name, colour, leader=leader, title=title, home=home
            ),
        )

    @join.autocomplete("colour")
    async def _colours(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.lifecycle.choose_colours)

    @join.autocomplete("home")
    async def _homes(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.lifecycle.choose_homes)

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
            lambda: self.bot.desk.lifecycle.game_add_ai(
                caller_of(interaction), name, colour, level
            ),
        )

    add_ai.autocomplete("colour")(_colours)

    @app_commands.command(
        name="caretaker", description="Let the AI defend your nation while you are away"
    )
    @app_commands.describe(on="True: the AI takes over; False: you take it back")
    async def caretaker(self, interaction: discord.Interaction, on: bool) -> None:
        await respond(
            interaction, lambda: self.bot.desk.lifecycle.game_caretaker(caller_of(interaction), on)
        )

    @app_commands.command(name="leave", description="Leave the game before it starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.lifecycle.game_leave(caller_of(interaction))
        )

    @app_commands.command(name="start", description="Start the game now (creator or moderator)")
    async def start(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.lifecycle.game_start(caller_of(interaction))
        )

    @app_commands.command(name="resign", description="Give up: your nation leaves the game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.lifecycle.game_resign(caller_of(interaction))
        )

    @app_commands.command(name="list", description="Games on this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.lifecycle.game_list(caller_of(interaction))
        )

    @app_commands.command(name="info", description="The game in this channel: status and nations")
    async def info(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.lifecycle.game_info(caller_of(interaction))
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`): /game (each game's extension adds
    its `/game create <game>`: `add_to_group`)."""
    await bot.add_cog(GameCog(cast(Host, bot)))
