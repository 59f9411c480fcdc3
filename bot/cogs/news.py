"""/news: your recent DM reports again (also those your closed DMs never received)."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, respond
from bot.news import KEPT


class NewsCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="news", description="Your recent DM reports again, newest first")
    @app_commands.describe(
        count=f"how many of your latest reports (1-{KEPT})", page="page number (older reports)"
    )
    async def news(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, KEPT] = 10,
        page: app_commands.Range[int, 1, 50] = 1,
    ) -> None:
        await respond(
            interaction, lambda: self.bot.desk.news.read(caller_of(interaction), count, page)
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(NewsCog(cast(Host, bot)))
