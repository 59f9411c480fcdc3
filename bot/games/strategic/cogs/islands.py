"""`/game islands`: the free starting islands of the game in this channel, as a picture, to
choose one before joining (`/game join home:`)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_io import caller_of, host_of, into_group, respond
from bot.games.strategic.founding import Founding


@app_commands.command(
    name="islands", description="The free starting islands of this channel's game, numbered"
)
async def islands(interaction: discord.Interaction) -> None:
    desk = host_of(interaction).desk
    await respond(
        interaction, lambda: desk.part(Founding).islands(caller_of(interaction)), slow=True
    )


# the extension's entry points: the command into the shell's `/game`, and out again
setup, teardown = into_group("game", islands)
