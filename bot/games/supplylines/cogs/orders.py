"""/orders: a Supply Lines player's orders for the turn (add, list, clear, submit), the answer
to a supply question, and the board."""

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
    remove_from_group,
    respond,
)
from bot.games.supplylines.orders import MOST_ORDERS, Orders
from bot.games.supplylines.supply_select import SupplySelect
from bot.turnbased import deadline_command


class OrdersCog(
    commands.GroupCog, group_name="orders", group_description="Your orders in a Supply Lines game"
):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Add an order: C2 > C3, Build 1 Tank@M1...")
    @app_commands.describe(order="as the rules write it: `C2 > C3`, `1 Tank @ C2 > C3`, `Hold@R2`")
    async def add(self, interaction: discord.Interaction, order: str) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Orders).orders_add(caller_of(interaction), order),
        )

    @add.autocomplete("order")
    async def _orders(self, interaction: discord.Interaction, current: str):
        return await complete(interaction, current, self.bot.desk.part(Orders).choose_orders)

    @app_commands.command(name="list", description="Your orders for this turn")
    async def list_(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Orders).orders_list(caller_of(interaction))
        )

    @app_commands.command(name="clear", description="Take back your orders for this turn")
    @app_commands.describe(number="only this one (its number in /orders list); all when left out")
    async def clear(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, MOST_ORDERS] | None = None,
    ) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Orders).orders_clear(caller_of(interaction), number),
        )

    @app_commands.command(name="submit", description="You are done with this turn's orders")
    async def submit(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Orders).orders_submit(caller_of(interaction))
        )

    @app_commands.command(name="supply", description="Answer a supply question: units to supply")
    @app_commands.describe(units="the numbers of the units to supply, e.g. `2, 5`")
    async def supply(self, interaction: discord.Interaction, units: str) -> None:
        await respond(
            interaction,
            lambda: self.bot.desk.part(Orders).orders_supply(caller_of(interaction), units),
        )

    @app_commands.command(name="board", description="The board: every structure and its units")
    async def board(self, interaction: discord.Interaction) -> None:
        await respond(
            interaction, lambda: self.bot.desk.part(Orders).orders_board(caller_of(interaction))
        )


# `/mod deadline`: Supply Lines' own moderator command, in the shell's /mod group
deadline = deadline_command(
    "deadline",
    "Supply Lines: resolve now or give time",
    "resolve the turn (or the supply question) now",
    lambda desk, caller, now, hours: desk.part(Orders).mod_deadline(caller, now, hours),
)


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (`bot.load_extension`): /orders, and /mod deadline (the
    shell's /mod group is loaded first)."""
    await bot.add_cog(OrdersCog(cast(Host, bot)))
    # supply menus are answered by their custom id, also those sent before a restart
    bot.add_dynamic_items(SupplySelect)
    add_to_group(bot, "mod", deadline)


async def teardown(bot: commands.Bot | commands.AutoShardedBot) -> None:
    remove_from_group(bot, "mod", "deadline")
    bot.remove_dynamic_items(SupplySelect)
