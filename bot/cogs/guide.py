"""/help: the rules of your game, one topic a page."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, respond
from bot.game_side import default
from bot.guide import help_topics


class GuideCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="The rules of your game, one topic a page")
    @app_commands.describe(
        topic="what to read about (first steps when left out)",
        ruleset="another ruleset's numbers (default: your game's, else standard)",
    )
    @app_commands.choices(
        topic=[app_commands.Choice(name=title, value=key) for key, title in help_topics().items()],
        ruleset=[app_commands.Choice(name=r, value=r) for r in default().rulesets()],
    )
    async def help(
        self,
        interaction: discord.Interaction,
        topic: str | None = None,
        ruleset: str | None = None,
    ) -> None:
        await respond(
            interaction, lambda: self.bot.desk.guide.help(caller_of(interaction), topic, ruleset)
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(GuideCog(cast(Host, bot)))
