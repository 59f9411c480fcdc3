"""Caldera's hands of cards as select menus under a DM: the card chosen answers the hand (a
research, a design or none, a loyalty mission, a reward, a half-price tech, the zone mission).
The game and the hand are in the menu's custom id, so a menu sent before a restart is still
answered (a hand chosen from since, or drawn again, is refused with the reason)."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import paging
from bot.context import UserError, explain
from bot.discord_io import caller_of, host_of, send_rest

log = logging.getLogger(__name__)

HANDS = "research|design|mission|reward|tech|zone"


class CardSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"cal:card:(?P<game>[0-9]{{1,12}}):(?P<hand>{HANDS})",
):
    def __init__(self, game: int, hand: str) -> None:
        super().__init__(discord.ui.Select(custom_id=f"cal:card:{game}:{hand}"))
        self.game = game
        self.hand = hand

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> CardSelect:
        return cls(int(match["game"]), match["hand"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.games.caldera.captains import Captains

        bot = host_of(interaction)
        data: dict[str, Any] = dict(interaction.data or {})
        try:
            values = [str(v) for v in data.get("values") or []]
            if len(values) != 1 or not re.fullmatch(r"[a-z0-9-]{1,40}", values[0]):
                raise UserError("Choose one card of the menu (or use `/captain choose`).")
            reply = await bot.desk.part(Captains).chosen(
                caller_of(interaction), self.game, self.hand, values[0]
            )
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear message
            if not isinstance(exc, UserError):
                log.exception("a card choice failed")
            await interaction.response.send_message(explain(exc), ephemeral=True)
            return
        first, *rest = paging.split_text(reply.text)
        await interaction.response.send_message(first or "Done.", ephemeral=True)
        await send_rest(interaction, rest, ephemeral=True)
