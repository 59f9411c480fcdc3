"""`/game create caldera`: a new Caldera campaign, with its own options."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_io import game_creation, into_group, respond
from bot.games.caldera import NAME
from bot.games.caldera.side import MOST_DAYS, MOST_TURN_HOURS, SEATS
from bot.lifecycle import SPEEDS
from bot.turnbased import TURN_HOURS_DESCRIBED
from engine.caldera.rules import available, decks_available


@app_commands.command(name=NAME, description="Open a Caldera campaign in this channel")
@app_commands.describe(
    name="the game's name",
    captains="how many captains (1-6; default 3; empty seats may be AI captains)",
    turn_hours=TURN_HOURS_DESCRIBED,
    speed="how fast game time runs",
    days="how many game days it lasts at most (default 60)",
    deck="the cards: the techs, missions and events (default starter)",
    ruleset="the rules (standard)",
)
@app_commands.choices(
    speed=[app_commands.Choice(name=s, value=s) for s in SPEEDS],
    deck=[app_commands.Choice(name=d, value=d) for d in decks_available()],
    ruleset=[app_commands.Choice(name=r, value=r) for r in available()],
)
async def create(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, 40],
    captains: app_commands.Range[int, SEATS[0], SEATS[1]] | None = None,
    turn_hours: app_commands.Range[float, 0.0, MOST_TURN_HOURS] | None = None,
    speed: str = "real-time",
    days: app_commands.Range[int, 1, MOST_DAYS] | None = None,
    deck: str | None = None,
    ruleset: str = "standard",
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
            nations=captains,
            turn_hours=turn_hours,
            deck=deck,
        ),
    )


# the extension's entry points: the subcommand into the shell's `/game create`, and out again
setup, teardown = into_group("game create", create)
