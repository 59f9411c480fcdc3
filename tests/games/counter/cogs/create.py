"""`/game create counter`: a new counter game, with its one option."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_io import game_creation, into_group, respond
from tests.games.counter import NAME
from tests.games.counter.core import SEATS


@app_commands.command(name=NAME, description="Open a counter game in this channel")
@app_commands.describe(
    name="the game's name", nations=f"how many players ({SEATS[0]}-{SEATS[1]}; default 2)"
)
async def create(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, 40],
    nations: app_commands.Range[int, SEATS[0], SEATS[1]] | None = None,
) -> None:
    await respond(interaction, game_creation(interaction, name, NAME, nations=nations))


# the extension's entry points: the subcommand into the shell's `/game create`, and out again
setup, teardown = into_group("game create", create)
