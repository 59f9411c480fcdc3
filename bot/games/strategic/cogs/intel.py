"""/map, /status, /units, /cities, /nations: what your nation knows."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, complete, respond
from bot.games.strategic.choices import Choices
from bot.games.strategic.intel import Intel


class IntelCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(
        name="map",
        description="Your map round your cities and units (only you see it); full: the whole board",
    )
    @app_commands.describe(
        at="centre of a zoomed map, x,y",
        radius="squares around it (1-20)",
        full="the whole board instead of the part round your cities and units",
        colours="nations in their own colours, or by relation to you (kept for your maps and DMs)",
    )
    @app_commands.choices(
        colours=[
            app_commands.Choice(name="each nation's colour", value="nation"),
            app_commands.Choice(name="by relation: you, allies, neutral, war", value="relation"),
        ]
    )
    async def map(
        self,
        interaction: discord.Interaction,
        at: str | None = None,
        radius: app_commands.Range[int, 1, 20] = 6,
        full: bool = False,
        colours: str | None = None,
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Intel).map(
                caller_of(interaction), at, radius, full, colours
            ),
            slow=True,
        )

    @map.autocomplete("at")
    async def _at(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_cities)

    @app_commands.command(name="status", description="Tech, command points, power and the clock")
    async def status(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.part(Intel).status(caller_of(interaction)))

    @app_commands.command(name="units", description="Your units, a page at a time")
    @app_commands.describe(
        page="page number",
        type="only this unit type",
        group="list them square by square",
        ready="true: only units with mobility left; false: only those with none left",
        orders="only units with standing orders, or only those without",
        at="only units on this square, x,y",
    )
    @app_commands.choices(
        group=[app_commands.Choice(name="by square", value="square")],
        orders=[
            app_commands.Choice(name="with standing orders", value="with"),
            app_commands.Choice(name="without standing orders", value="without"),
        ],
    )
    async def units(
        self,
        interaction: discord.Interaction,
        page: app_commands.Range[int, 1, 1000] = 1,
        type: str | None = None,
        group: str | None = None,
        ready: bool | None = None,
        orders: str | None = None,
        at: str | None = None,
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Intel).units(
                caller_of(interaction), page, type, group=group, ready=ready, orders=orders, at=at
            ),
        )

    @units.autocomplete("at")
    async def _unit_squares(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_unit_squares)

    @units.autocomplete("type")
    async def _types(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_unit_types)

    @app_commands.command(name="cities", description="Your cities and what they build")
    @app_commands.describe(page="page number")
    async def cities(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Intel).cities(caller_of(interaction), page)
        )

    @app_commands.command(name="nations", description="The nations and your relations")
    async def nations(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Intel).nations(caller_of(interaction))
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(IntelCog(cast(Host, bot)))
