"""/add: a counter game's one command."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, respond
from tests.games.counter.core import LEAST, MOST
from tests.games.counter.desk import Counting


class CounterCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    # `amount` is any whole number: a wrong one is refused by the desk, with the counter as is
    @app_commands.command(name="add", description="Counter: add to the shared counter")
    @app_commands.describe(amount=f"how much to add ({LEAST} to {MOST})")
    async def add(self, interaction: discord.Interaction, amount: int) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Counting).add(caller_of(interaction), amount),
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(CounterCog(cast(Host, bot)))
