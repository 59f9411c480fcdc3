"""/stats: the server's standings (`/stats server`), a player's games, wins and rating
(`/stats player`) and a finished game's result and charts (`/stats game`)."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, respond


@app_commands.guild_only()
class StatsCog(
    commands.GroupCog, group_name="stats", group_description="Standings, ratings and past games"
):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="server", description="This server's standings: players by rating")
    async def server(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.standings.server(caller_of(interaction)))

    @app_commands.command(name="player", description="A player's games, wins and rating here")
    @app_commands.describe(player="whom (empty: you)")
    async def player(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        who = str(player.id) if player is not None else None
        await respond(
            interaction,
            lambda: self.bot.desk.standings.player(caller_of(interaction), who),
        )

    @app_commands.command(name="game", description="A finished game's result and its charts")
    @app_commands.describe(game="the game's number")
    async def game(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**53 - 1]
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.standings.game(caller_of(interaction), game),
            slow=True,
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(StatsCog(cast(Host, bot)))
