"""/mod: moderators only (Manage Server, or the configured role): checked on every use."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, respond
from bot.lifecycle import SPEEDS


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class ModCog(
    commands.GroupCog, group_name="mod", group_description="Moderate the game in this channel"
):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="pause", description="Stop the game's clock")
    async def pause(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.moderation.mod_pause(caller_of(interaction))
        )

    @app_commands.command(name="resume", description="Start the game's clock again")
    async def resume(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.moderation.mod_resume(caller_of(interaction))
        )

    @app_commands.command(name="speed", description="How fast game time runs")
    @app_commands.describe(
        speed="a preset", seconds_per_hour="or: real seconds per game hour (3600 = real time)"
    )
    @app_commands.choices(speed=[app_commands.Choice(name=s, value=s) for s in SPEEDS])
    async def speed(
        self,
        interaction: discord.Interaction,
        speed: str | None = None,
        seconds_per_hour: app_commands.Range[float, 0.1, 86400.0] | None = None,
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.moderation.mod_speed(
                caller_of(interaction), speed, seconds_per_hour
            ),
        )

    @app_commands.command(
        name="news", description="Post the game's public news in its channel, or stop it"
    )
    @app_commands.describe(on="True: wars, alliances, captures and launches are posted here")
    async def news(self, interaction: discord.Interaction, on: bool) -> None:
        await respond(
            interaction, lambda: self.bot.desk.moderation.mod_news(caller_of(interaction), on)
        )

    @app_commands.command(name="tick", description="Move the game on now by some 15-minute ticks")
    @app_commands.describe(ticks="how many ticks (4 = one game hour)")
    async def tick(
        self, interaction: discord.Interaction, ticks: app_commands.Range[int, 1, 960]
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.moderation.mod_tick(caller_of(interaction), ticks),
            slow=True,
        )

    @app_commands.command(name="kick", description="Remove a nation's player (it resigns)")
    async def kick(self, interaction: discord.Interaction, nation: str) -> None:
        await respond(
            interaction, lambda: self.bot.desk.moderation.mod_kick(caller_of(interaction), nation)
        )

    @app_commands.command(name="substitute", description="Hand a nation to another player")
    async def substitute(
        self, interaction: discord.Interaction, nation: str, player: discord.User
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.moderation.mod_substitute(
                caller_of(interaction), nation, str(player.id)
            ),
        )

    @app_commands.command(name="end", description="End the game now")
    async def end(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self.bot.desk.moderation.mod_end(caller_of(interaction)))

    @app_commands.command(name="delete", description="Delete the game and its history")
    async def delete(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.moderation.mod_delete(caller_of(interaction))
        )

    @app_commands.command(name="view", description="See the map as a nation sees it, or everything")
    @app_commands.describe(nation="a nation (empty: everything)")
    async def view(self, interaction: discord.Interaction, nation: str | None = None) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.moderation.mod_view(caller_of(interaction), nation),
            slow=True,
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(ModCog(cast(Host, bot)))
