"""Supply Lines' supply question menu under its DM: the units chosen answer it."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import paging
from bot.context import UserError, explain
from bot.discord_io import caller_of, host_of, send_rest
from bot.games.supplylines.orders import Orders

log = logging.getLogger(__name__)


class SupplySelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"sl:supply:(?P<game>[0-9]{1,12}):(?P<turn>[0-9]{1,6})(?::(?P<part>[0-4]))?",
):
    """A Supply Lines supply question's menu, under its DM (`bot.games.supplylines.notices`):
    the units chosen answer it. The game and turn are in its custom id, so a menu sent before
    a restart is still answered (or told it is over); so is the part, when the units fill
    several menus (the desk adds what was chosen in the others)."""

    def __init__(self, game: int, turn: int, part: int | None = None) -> None:
        suffix = "" if part is None else f":{part}"
        super().__init__(discord.ui.Select(custom_id=f"sl:supply:{game}:{turn}{suffix}"))
        self.game = game
        self.turn = turn
        self.part = part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> SupplySelect:
        part = match["part"]
        return cls(int(match["game"]), int(match["turn"]), None if part is None else int(part))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host_of(interaction)
        data: dict[str, Any] = dict(interaction.data or {})
        try:
            values = [str(v) for v in data.get("values") or []]
            if not all(re.fullmatch(r"[0-9]{1,9}", v) for v in values):  # (the menu's are ids)
                raise UserError("That choice is not one of the menu's: use `/orders supply`.")
            units = [int(v) for v in values]
            reply = await bot.desk.part(Orders).orders_supply_chosen(
                caller_of(interaction), self.game, self.turn, units, part=self.part
            )
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear message
            if not isinstance(exc, UserError):
                log.exception("supply answer failed")
            await interaction.response.send_message(explain(exc), ephemeral=True)
            return
        first, *rest = paging.split_text(reply.text)
        await interaction.response.send_message(first or "Done.", ephemeral=True)
        await send_rest(interaction, rest, ephemeral=True)
