"""Orders: /move, /attack, /build, /designate, /waypoint, /cancel, /board, /launch, /engineer, /diplomacy,
/disband, /cede."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import Host, caller_of, complete, complete_ids, respond
from bot.games.strategic.choices import Choices
from bot.games.strategic.playing import Playing

SQUARE = "a square as the map shows it: x,y (for example 12,7)"
UNITS = "ids (12 13) or yours by range, square, kind: 12-15, all at 12,7, tanks at 12,7, idle tanks"


class PlayingCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def _units(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_units)

    async def _unit(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_unit)

    async def _cities(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_cities)

    @app_commands.command(
        name="move", description="Move units to a square (they keep going until there)"
    )
    @app_commands.describe(units=UNITS, to=SQUARE)
    async def move(self, interaction: discord.Interaction, units: str, to: str) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Playing).move(caller_of(interaction), units, to)
        )

    move.autocomplete("units")(_units)

    @app_commands.command(
        name="attack", description="Attack a square (land units take empty cities)"
    )
    @app_commands.describe(
        units=UNITS,
        target=SQUARE,
        queue="units not in range yet go on and attack once they are (a standing order)",
    )
    async def attack(
        self, interaction: discord.Interaction, units: str, target: str, queue: bool = False
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).attack(
                caller_of(interaction), units, target, queue=queue
            ),
        )

    attack.autocomplete("units")(_units)

    @app_commands.command(name="build", description="What a city builds now, or next")
    @app_commands.describe(
        city="your city, x,y", unit="the unit type", next="build it after the current one"
    )
    async def build(
        self, interaction: discord.Interaction, city: str, unit: str, next: bool = False
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).build(
                caller_of(interaction), city, unit, next_build=next
            ),
        )

    build.autocomplete("city")(_cities)

    @build.autocomplete("unit")
    async def _types(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_unit_types)

    @app_commands.command(
        name="designate", description="Make a city a fort, port, airport, tech centre..."
    )
    @app_commands.describe(city="your city, x,y", designation="what it becomes")
    async def designate(
        self, interaction: discord.Interaction, city: str, designation: str
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).designate(
                caller_of(interaction), city, designation
            ),
        )

    designate.autocomplete("city")(_cities)

    @designate.autocomplete("designation")
    async def _designations(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_designations)

    @app_commands.command(
        name="waypoint", description="Send each unit a city builds to a square (or stop)"
    )
    @app_commands.describe(
        city="your city, x,y", to="the square its new units go to; leave out to clear"
    )
    async def waypoint(
        self, interaction: discord.Interaction, city: str, to: str | None = None
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).waypoint(caller_of(interaction), city, to),
        )

    waypoint.autocomplete("city")(_cities)

    @app_commands.command(name="cancel", description="Cancel units' standing move orders")
    @app_commands.describe(units=UNITS)
    async def cancel(self, interaction: discord.Interaction, units: str) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Playing).cancel(caller_of(interaction), units)
        )

    cancel.autocomplete("units")(_units)

    @app_commands.command(
        name="board", description="Units on a ship's or plane's square go aboard it"
    )
    @app_commands.describe(units=UNITS, carrier="the id of the ship or aircraft")
    async def board(self, interaction: discord.Interaction, units: str, carrier: int) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).board(caller_of(interaction), units, carrier),
        )

    board.autocomplete("units")(_units)

    @board.autocomplete("carrier")
    async def _carriers(self, interaction: discord.Interaction, current: str):
        return await complete_ids(interaction, current, self.bot.desk.part(Choices).choose_carriers)

    @app_commands.command(
        name="invest", description="Spend command points restoring a city back from a wasteland"
    )
    @app_commands.describe(city="your city, x,y", points="command points to spend")
    async def invest(self, interaction: discord.Interaction, city: str, points: int) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).invest(caller_of(interaction), city, points),
        )

    invest.autocomplete("city")(_cities)

    @app_commands.command(name="launch", description="Launch a satellite or an ICBM at a square")
    @app_commands.describe(unit="the satellite or ICBM's id", target=SQUARE)
    async def launch(self, interaction: discord.Interaction, unit: int, target: str) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).launch(caller_of(interaction), unit, target),
        )

    @launch.autocomplete("unit")
    async def _launchable(self, interaction: discord.Interaction, current: str):
        return await complete_ids(
            interaction, current, self.bot.desk.part(Choices).choose_launchable
        )

    @app_commands.command(
        name="engineer", description="An engineer builds a city or switches terrain"
    )
    @app_commands.describe(unit="the engineer's id", action="what it does where it stands")
    @app_commands.choices(
        action=[
            app_commands.Choice(name="build a city", value="build_city"),
            app_commands.Choice(name="switch land and water", value="switch_terrain"),
        ]
    )
    async def engineer(self, interaction: discord.Interaction, unit: int, action: str) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).engineer(caller_of(interaction), unit, action),
        )

    @engineer.autocomplete("unit")
    async def _engineers(self, interaction: discord.Interaction, current: str):
        return await complete_ids(
            interaction, current, self.bot.desk.part(Choices).choose_engineers
        )

    @app_commands.command(name="diplomacy", description="Set your relation towards another nation")
    @app_commands.describe(nation="the other nation", level="war, neutral, ... allied")
    async def diplomacy(self, interaction: discord.Interaction, nation: str, level: str) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).diplomacy(caller_of(interaction), nation, level),
        )

    @diplomacy.autocomplete("nation")
    async def _nations(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_nations)

    @diplomacy.autocomplete("level")
    async def _levels(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Choices).choose_levels)

    @app_commands.command(
        name="disband", description="Disband your own units for good (asks first)"
    )
    @app_commands.describe(units=UNITS)
    async def disband(self, interaction: discord.Interaction, units: str) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Playing).disband(caller_of(interaction), units)
        )

    disband.autocomplete("units")(_units)

    @app_commands.command(
        name="cede", description="Hand units or a city to a mutual ally (give units or city)"
    )
    @app_commands.describe(
        to="the mutual ally who receives them", units=UNITS, city="your city, x,y"
    )
    async def cede(
        self,
        interaction: discord.Interaction,
        to: str,
        units: str | None = None,
        city: str | None = None,
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Playing).cede(
                caller_of(interaction), to, units=units, city=city
            ),
        )

    cede.autocomplete("to")(_nations)
    cede.autocomplete("units")(_units)
    cede.autocomplete("city")(_cities)


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`)."""
    await bot.add_cog(PlayingCog(cast(Host, bot)))
