"""`/game create supply-lines`: a new Supply Lines game, with its own options."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_io import game_creation, into_group, respond
from bot.games.supplylines.side import MOST_DAYS, MOST_TURN_HOURS, NAME, RANDOM_SEATS, map_choices
from bot.lifecycle import SPEEDS
from bot.turnbased import TURN_HOURS_DESCRIBED
from engine.supplylines.rules import available


@app_commands.command(name=NAME, description="Open a Supply Lines game in this channel")
@app_commands.describe(
    name="the game's name",
    map="a hand-made map, or a fair random one (default: four)",
    nations="how many players (default: the map's)",
    turn_hours=TURN_HOURS_DESCRIBED,
    speed="how fast game time runs",
    days="how many game days it lasts at most",
    ruleset="the rules (standard)",
)
@app_commands.choices(
    map=[app_commands.Choice(name=label, value=value) for label, value in map_choices()],
    speed=[app_commands.Choice(name=s, value=s) for s in SPEEDS],
    ruleset=[app_commands.Choice(name=r, value=r) for r in available()],
)
async def create(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, 40],
    map: str | None = None,  # noqa: A002 - the option's name in Discord
    nations: app_commands.Range[int, RANDOM_SEATS[0], RANDOM_SEATS[1]] | None = None,
    turn_hours: app_commands.Range[float, 0.0, MOST_TURN_HOURS] | None = None,
    speed: str = "real-time",
    days: app_commands.Range[int, 1, MOST_DAYS] | None = None,
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
            nations=nations,
            map_name=map,
            turn_hours=turn_hours,
        ),
    )


# the extension's entry points: the subcommand into the shell's `/game create`, and out again
setup, teardown = into_group("game create", create)
