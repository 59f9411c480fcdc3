"""`/game create strategic-initiative`: a new Strategic Initiative game, with its own options."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_io import game_creation, into_group, respond
from bot.games.strategic.side import MOST_DAYS, NAME, SIZES
from bot.lifecycle import SPEEDS
from engine.strategic.kind import MAX_NATIONS, MIN_NATIONS
from engine.strategic.rules import available


@app_commands.command(name=NAME, description="Open a Strategic Initiative game in this channel")
@app_commands.describe(
    name="the game's name",
    ruleset="standard (default), classic, or total-war (battles in rounds, seed 002)",
    nations=f"how many nations ({MIN_NATIONS}-{MAX_NATIONS}; default 8)",
    size="map size (auto fits the number of nations)",
    speed="how fast game time runs",
    days="how many game days it lasts",
)
@app_commands.choices(
    ruleset=[app_commands.Choice(name=r, value=r) for r in available()],
    size=[app_commands.Choice(name=s, value=s) for s in SIZES],
    speed=[app_commands.Choice(name=s, value=s) for s in SPEEDS],
)
async def create(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, 40],
    ruleset: str = "standard",
    nations: app_commands.Range[int, MIN_NATIONS, MAX_NATIONS] | None = None,
    size: str = "auto",
    speed: str = "real-time",
    days: app_commands.Range[int, 1, MOST_DAYS] | None = None,
) -> None:
    await respond(
        interaction,
        game_creation(
            interaction,
            name,
            NAME,
            speed=speed,
            days=days,
            ruleset=ruleset,
            nations=nations,
            size=size,
        ),
    )


# the extension's entry points: the subcommand into the shell's `/game create`, and out again
setup, teardown = into_group("game create", create)
