"""/captain: a Caldera captain's commands for the turn (the character, bonuses, cards, research,
designs, ships, the shipyard, moves, submitting, their standing and the star map), and the
moderator's `/mod turn`. Every one calls the desk (`bot.games.caldera.captains`)."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import (
    Host,
    add_to_group,
    caller_of,
    complete,
    complete_ids,
    remove_from_group,
    respond,
)
from bot.games.caldera.captains import HAND_CHOICES, Captains
from bot.games.caldera.card_select import CardSelect
from bot.turnbased import deadline_command
from engine.caldera.rules import load

_RULES = load()
BONUSES = [app_commands.Choice(name=f"{b.name} ({b.cost})", value=b.id) for b in _RULES.bonuses]
STAT_CHOICES = [
    app_commands.Choice(name=_RULES.stats.names[s], value=s) for s in _RULES.stats.order
]
HANDS = [app_commands.Choice(name=h, value=h) for h in HAND_CHOICES]
POINTS = app_commands.Range[int, 0, 15]


class CaptainCog(
    commands.GroupCog, group_name="captain", group_description="Your captain in a Caldera game"
):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    def _desk(self) -> Captains:
        return self.bot.desk.part(Captains)

    @app_commands.command(name="character", description="Your stats (first turn): 15 points")
    @app_commands.describe(
        cha="Charisma: mission and zone mission cards, the zone counter (at least 2)",
        int="Intelligence: research cards, cheaper research (at least 2)",
        eng="Engineering: design cards, cheaper building (at least 2)",
        arm="Rearmament: more damage and defence in battle",
        com="Compaction: more space in ships, a larger land army",
        eco="Economy: more income and rewards",
    )
    async def character(
        self,
        interaction: discord.Interaction,
        cha: POINTS,
        int: POINTS,  # noqa: A002 - the stat's name in the rules
        eng: POINTS,
        arm: POINTS,
        com: POINTS,
        eco: POINTS,
    ) -> None:
        points = {"cha": cha, "int": int, "eng": eng, "arm": arm, "com": com, "eco": eco}
        await respond(interaction, lambda: self._desk().character(caller_of(interaction), points))

    @app_commands.command(name="bonus", description="Buy a starting bonus (first turn)")
    @app_commands.describe(
        bonus="what to buy", tech="the tech of a first/second level technology", stat="the stat"
    )
    @app_commands.choices(bonus=BONUSES, stat=STAT_CHOICES)
    async def bonus(
        self,
        interaction: discord.Interaction,
        bonus: str,
        tech: str | None = None,
        stat: str | None = None,
    ) -> None:
        await respond(
            interaction, lambda: self._desk().bonus(caller_of(interaction), bonus, tech, stat)
        )

    @app_commands.command(name="choose", description="Choose a card of your hand")
    @app_commands.describe(hand="which hand", card="the card (none: take none, where allowed)")
    @app_commands.choices(hand=HANDS)
    async def choose(self, interaction: discord.Interaction, hand: str, card: str) -> None:
        await respond(interaction, lambda: self._desk().choose(caller_of(interaction), hand, card))

    @choose.autocomplete("card")
    async def _cards(self, interaction: discord.Interaction, current: str):
        # the hand chosen so far in the command (none yet: every hand's cards)
        hand = str(getattr(getattr(interaction, "namespace", None), "hand", "") or "")
        return await complete(
            interaction, current, lambda caller, typed: self._desk().cards(caller, hand, typed)
        )

    @app_commands.command(name="fund", description="Put credits into your research")
    @app_commands.describe(amount="credits (no more than it still needs are taken)")
    async def fund(
        self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 10**9]
    ) -> None:
        await respond(interaction, lambda: self._desk().fund(caller_of(interaction), amount))

    @app_commands.command(name="build", description="Build a ship at your shipyard (one a turn)")
    @app_commands.describe(
        klass="its ship class", parts="its parts: `nuclear-engine, 2 laser-cannon, plating`"
    )
    @app_commands.rename(klass="class")
    async def build(self, interaction: discord.Interaction, klass: str, parts: str) -> None:
        await respond(interaction, lambda: self._desk().build(caller_of(interaction), klass, parts))

    @build.autocomplete("klass")
    @build.autocomplete("parts")
    async def _techs(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self._desk().techs)

    @app_commands.command(name="shipyard", description="Upgrade your shipyard: a class or parts")
    @app_commands.describe(
        klass="a larger ship class you have", parts="weapons and defences to fit in it"
    )
    @app_commands.rename(klass="class")
    async def shipyard(
        self,
        interaction: discord.Interaction,
        klass: str | None = None,
        parts: str | None = None,
    ) -> None:
        await respond(
            interaction, lambda: self._desk().shipyard(caller_of(interaction), klass, parts)
        )

    @shipyard.autocomplete("klass")
    @shipyard.autocomplete("parts")
    async def _yard_techs(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self._desk().techs)

    @app_commands.command(name="repair", description="Repair a ship at Earth, or your shipyard")
    @app_commands.describe(
        ship="the ship (empty: the shipyard)", points="structure points (empty: all you can)"
    )
    async def repair(
        self,
        interaction: discord.Interaction,
        ship: int | None = None,
        points: app_commands.Range[int, 1, 10**9] | None = None,
    ) -> None:
        await respond(
            interaction, lambda: self._desk().repair(caller_of(interaction), ship, points)
        )

    @app_commands.command(name="refit", description="Refit a ship at Earth with other parts")
    @app_commands.describe(ship="the ship", parts="all its parts after the refit")
    async def refit(self, interaction: discord.Interaction, ship: int, parts: str) -> None:
        await respond(interaction, lambda: self._desk().refit(caller_of(interaction), ship, parts))

    @app_commands.command(name="scrap", description="Scrap one of your ships")
    @app_commands.describe(ship="the ship")
    async def scrap(self, interaction: discord.Interaction, ship: int) -> None:
        await respond(interaction, lambda: self._desk().scrap(caller_of(interaction), ship))

    @repair.autocomplete("ship")
    @refit.autocomplete("ship")
    @scrap.autocomplete("ship")
    async def _ship(self, interaction: discord.Interaction, current: str):
        return await complete_ids(interaction, current, self._desk().ships)

    @app_commands.command(name="recruit", description="Recruit land units at your shipyard")
    @app_commands.describe(units="how many of which: `7 space-cadet, 1 humvee`")
    async def recruit(self, interaction: discord.Interaction, units: str) -> None:
        await respond(interaction, lambda: self._desk().recruit(caller_of(interaction), units))

    @app_commands.command(
        name="move", description="Order ships to a place (when the turn resolves)"
    )
    @app_commands.describe(
        ships="your ships' numbers: `3 4`", to="a place `q,r` within range (`stay`: no move)"
    )
    async def move(self, interaction: discord.Interaction, ships: str, to: str) -> None:
        await respond(interaction, lambda: self._desk().move(caller_of(interaction), ships, to))

    @move.autocomplete("to")
    async def _places(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self._desk().places)

    @app_commands.command(name="retreat", description="A ship leaves its next battle after a round")
    @app_commands.describe(ship="the ship", on="False: it stays and fights")
    async def retreat(self, interaction: discord.Interaction, ship: int, on: bool = True) -> None:
        await respond(interaction, lambda: self._desk().retreat(caller_of(interaction), ship, on))

    @app_commands.command(name="submit", description="You are done with this turn")
    async def submit(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self._desk().submit(caller_of(interaction)))

    @app_commands.command(name="status", description="Your credits, research, hand and ships")
    async def status(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self._desk().status(caller_of(interaction)))

    @app_commands.command(name="map", description="The star map: a picture and its places")
    async def map(self, interaction: discord.Interaction) -> None:
        await respond(interaction, lambda: self._desk().starmap(caller_of(interaction)))


# `/mod turn`: Caldera's own moderator command, in the shell's /mod group
turn = deadline_command(
    "turn",
    "Caldera: resolve the turn now or give time",
    "resolve the turn now",
    lambda desk, caller, now, hours: desk.part(Captains).mod_turn(caller, now, hours),
)


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point: /captain, the card menus, and /mod turn."""
    await bot.add_cog(CaptainCog(cast(Host, bot)))
    bot.add_dynamic_items(CardSelect)
    add_to_group(bot, "mod", turn)


async def teardown(bot: commands.Bot | commands.AutoShardedBot) -> None:
    remove_from_group(bot, "mod", "turn")
    bot.remove_dynamic_items(CardSelect)
