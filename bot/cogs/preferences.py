"""/notify: what a player is told by DM, and when."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, respond
from bot.dm.text import CATEGORIES


class PreferencesCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="Your DM reports: quiet hours, topics, sitrep")
    @app_commands.describe(
        quiet_from="quiet hours start (0-23, your time)",
        quiet_to="quiet hours end (0-23, your time)",
        utc_offset="your time zone, minutes east of UTC (e.g. 60, -300)",
        mute=f"topics to stop: {' '.join(CATEGORIES)}",
        unmute="topics to hear about again (others: fights between other nations, muted at first)",
        sitrep="a daily report with your map",
        pictures="map pictures with big events",
        no_quiet_hours="remove quiet hours",
    )
    async def notify(
        self,
        interaction: discord.Interaction,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_to: app_commands.Range[int, 0, 23] | None = None,
        utc_offset: app_commands.Range[int, -840, 840] | None = None,
        mute: str | None = None,
        unmute: str | None = None,
        sitrep: bool | None = None,
        pictures: bool | None = None,
        no_quiet_hours: bool = False,
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.preferences.notify(
                caller_of(interaction),
                quiet_from=quiet_from,
                quiet_to=quiet_to,
                utc_offset=utc_offset,
                mute=mute,
                unmute=unmute,
                sitrep=sitrep,
                pictures=pictures,
                no_quiet_hours=no_quiet_hours,
            ),
        )


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(PreferencesCog(cast(Host, bot)))
