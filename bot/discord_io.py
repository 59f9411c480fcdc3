"""Discord in and out: an interaction becomes a `Caller`, a `Reply` becomes a response (with
files, a confirmation button, an announcement in the game's channel). No game logic."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from .context import Caller, Reply, UserError, explain

if TYPE_CHECKING:  # pragma: no cover
    from .client import StrategicBot

log = logging.getLogger(__name__)


def is_moderator(interaction: discord.Interaction, role: str | None) -> bool:
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    if role:
        wanted = role.strip().lower()
        return any(wanted in (r.name.lower(), str(r.id)) for r in member.roles)
    return False


def caller_of(interaction: discord.Interaction) -> Caller:
    bot: StrategicBot = interaction.client  # type: ignore[assignment]
    return Caller(
        user_id=str(interaction.user.id),
        name=interaction.user.display_name,
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        channel_id=str(interaction.channel_id) if interaction.channel_id else None,
        moderator=is_moderator(interaction, bot.settings.moderator_role),
    )


def _files(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for name, data in reply.files]


class ConfirmView(discord.ui.View):
    """One button; pressing it runs the action the desk is holding for that token."""

    def __init__(self, bot: StrategicBot, token: str, label: str, danger: bool) -> None:
        super().__init__(timeout=300)
        self.bot = bot
        self.token = token
        button: discord.ui.Button = discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.danger if danger else discord.ButtonStyle.primary,
            custom_id=f"si:confirm:{token}",
        )
        button.callback = self._pressed
        self.add_item(button)

    async def _pressed(self, interaction: discord.Interaction) -> None:
        try:
            reply = await self.bot.desk.confirm(caller_of(interaction), self.token)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear message
            if not isinstance(exc, UserError):
                log.exception("confirmation failed")
            await interaction.response.send_message(explain(exc), ephemeral=True)
            return
        self.stop()
        await interaction.response.edit_message(content=reply.text, view=None)
        await self.bot.after_reply(reply)


async def respond(
    interaction: discord.Interaction,
    action: Callable[[], Awaitable[Reply]],
    *,
    slow: bool = False,
    public: bool = False,
) -> None:
    """Run a desk action and answer: defer first when it may take a while (3-second limit)."""
    bot: StrategicBot = interaction.client  # type: ignore[assignment]
    if slow:
        await interaction.response.defer(ephemeral=not public, thinking=True)
    try:
        reply = await action()
    except Exception as exc:  # noqa: BLE001 - every failure becomes a clear message
        if not isinstance(exc, UserError):
            log.exception("command %s failed", interaction.command and interaction.command.name)
        await send(interaction, Reply(text=explain(exc)), deferred=slow)
        return
    await send(interaction, reply, deferred=slow)
    await bot.after_reply(reply)


async def send(interaction: discord.Interaction, reply: Reply, *, deferred: bool) -> None:
    bot: StrategicBot = interaction.client  # type: ignore[assignment]
    kwargs: dict = {"content": reply.text[:2000] or "Done."}
    if reply.files:
        kwargs["files"] = _files(reply)
    if reply.confirm is not None:
        kwargs["view"] = ConfirmView(
            bot, reply.confirm.token, reply.confirm.label, reply.confirm.danger
        )
    if deferred or interaction.response.is_done():
        await interaction.followup.send(**kwargs, ephemeral=reply.ephemeral)
    else:
        await interaction.response.send_message(**kwargs, ephemeral=reply.ephemeral)


def choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name[:100], value=value[:100]) for name, value in pairs[:25]]


async def complete(
    interaction: discord.Interaction,
    current: str,
    fetch: Callable[[Caller, str], Awaitable[list[tuple[str, str]]]],
) -> list[app_commands.Choice[str]]:
    try:
        return choices(await fetch(caller_of(interaction), current or ""))
    except Exception:  # autocomplete never fails loudly
        log.exception("autocomplete failed")
        return []
