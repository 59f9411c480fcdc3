"""Discord in and out: an interaction becomes a `Caller`, a `Reply` becomes a response (with
files, a confirmation button, an announcement in the game's channel). No game logic."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import paging, permissions
from bot.config import Settings
from bot.context import Button, Caller, ChannelAccess, Embed, Reply, UserError, explain
from bot.dm import closed as closed_dms

if TYPE_CHECKING:  # pragma: no cover
    from bot.desk import Desk

log = logging.getLogger(__name__)


class Host(Protocol):
    """What the cogs and the helpers here need of the bot (`bot.client.StrategicBot` is one):
    its settings, the desk that answers every command, and what follows a reply."""

    settings: Settings
    desk: Desk

    async def after_reply(self, reply: Reply) -> None: ...


def host_of(interaction: discord.Interaction) -> Host:
    return cast(Host, interaction.client)


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


@dataclass
class Typed:
    """A slash command typed outside Discord (the offline sandbox, tests): the bot whose cogs
    run it (`client`, as a Discord interaction has), who typed it, and the desk's reply. The
    cogs' `respond` and `caller_of` take it in place of an interaction (`bot.typed`)."""

    client: Any
    caller: Caller
    reply: Reply | None = None


def caller_of(interaction: discord.Interaction | Typed) -> Caller:
    if isinstance(interaction, Typed):
        return interaction.caller
    bot = host_of(interaction)
    return Caller(
        user_id=str(interaction.user.id),
        name=interaction.user.display_name,
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        channel_id=str(interaction.channel_id) if interaction.channel_id else None,
        moderator=is_moderator(interaction, bot.settings.moderator_role),
        access=access_of(interaction),
    )


def access_of(interaction: discord.Interaction) -> ChannelAccess | None:
    """What the bot lacks in the interaction's channel, from the permissions Discord sends
    with every interaction (`app_permissions`, channel overwrites included)."""
    if interaction.guild_id is None:
        return None
    thread = isinstance(interaction.channel, discord.Thread)
    lacks = permissions.missing(interaction.app_permissions, thread=thread)
    return ChannelAccess(
        blocking=tuple(f"{n.label} ({n.why})" for n in lacks if n.essential),
        other=tuple(f"{n.label} ({n.why})" for n in lacks if not n.essential),
    )


def _files(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for name, data in reply.files]


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"si:confirm:(?P<token>[0-9a-f]{1,64})"
):
    """A confirmation button. Its custom id carries the token of the action the desk keeps in
    the database; the bot registers this class at start-up (`add_dynamic_items`), so a button
    sent before a restart is still answered: the action runs, or a clear message says why not."""

    def __init__(self, token: str, label: str = "Confirm", danger: bool = True) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger if danger else discord.ButtonStyle.primary,
                custom_id=f"si:confirm:{token}",
            )
        )
        self.token = token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> ConfirmButton:
        label = getattr(item, "label", None) or "Confirm"
        danger = getattr(item, "style", None) == discord.ButtonStyle.danger
        return cls(match["token"], label, danger)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host_of(interaction)
        task = asyncio.ensure_future(bot.desk.confirm(caller_of(interaction), self.token))
        deferred = False
        try:
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:  # (a launch or the end of a game may take a moment: Discord waits 3 s)
                await interaction.response.defer()
                deferred = True
            reply = await task
        except asyncio.CancelledError:
            task.cancel()
            raise
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear message
            if not isinstance(exc, UserError):
                log.exception("confirmation failed")
            with contextlib.suppress(discord.HTTPException):
                if deferred:
                    await interaction.followup.send(explain(exc), ephemeral=True)
                else:
                    await interaction.response.send_message(explain(exc), ephemeral=True)
            return
        first, *rest = paging.split_text(reply.text)
        try:
            if deferred:
                await interaction.edit_original_response(content=first or "Done.", view=None)
            else:
                await interaction.response.edit_message(content=first or "Done.", view=None)
            await send_rest(interaction, rest, ephemeral=True)
        except discord.HTTPException as exc:  # what was confirmed is done all the same
            log.warning("the answer to a confirmation was not delivered: %s", exc)
        await bot.after_reply(reply)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"si:do:(?P<action>[a-z_]{1,16}):(?P<args>[^\s]{0,80})",
):
    """A button that runs a desk action again with other arguments (`bot.context.Button`): the
    map's zoom, a list's next page (`bot.paging`). What it does is in its custom id, so it works
    after a restart; the desk checks the presser against the game as it is now. The answer
    replaces the message when the message was for the presser (`_for_presser`); a page of a
    list keeps the message's picture (`/orders board`'s). Anyone else pressing it gets their
    own answer privately, and the message stays as it was."""

    def __init__(self, action: str, args: str, label: str = "Go") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"si:do:{action}:{args}",
            )
        )
        self.action = action
        self.args = args

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> ActionButton:
        return cls(match["action"], match["args"], getattr(item, "label", None) or "Go")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = host_of(interaction)
        mine = _for_presser(interaction)
        # a picture may take a moment; someone else's message: a private answer of their own
        await interaction.response.defer(**({} if mine else {"ephemeral": True, "thinking": True}))
        try:
            reply = await bot.desk.press(caller_of(interaction), self.action, self.args)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear message
            if not isinstance(exc, UserError):
                log.exception("button %s failed", self.action)
            await interaction.followup.send(explain(exc), ephemeral=True)
            return
        first, *rest = paging.split_text(reply.text)
        kwargs: dict[str, Any] = {}
        if reply.files or self.action != paging.PAGE_ACTION or not mine:
            kwargs["attachments"] = _files(reply)
        await interaction.edit_original_response(
            content=first or None,
            embed=_embed(reply.embed) if reply.embed else None,
            view=buttons_view(reply.buttons),
            **kwargs,
        )
        await send_rest(interaction, rest, ephemeral=True)


def _for_presser(interaction: discord.Interaction) -> bool:
    """Whether the message whose button was pressed was made for the presser: by an interaction
    of theirs (its `interaction_metadata`), or, made by none, in a DM (only its recipient sees
    it). A message in a server's channel the bot posted by itself is nobody's to rewrite."""
    message = interaction.message
    made = message.interaction_metadata if message is not None else None
    if made is None:
        return interaction.guild_id is None
    return made.user.id == interaction.user.id


async def send_rest(interaction: discord.Interaction, pages: list[str], *, ephemeral: bool) -> None:
    """The pages of a long text after its first (`paging.split_text`), as follow-up messages:
    text that is not a list (which the desk pages itself) is never cut."""
    for page in pages:
        await interaction.followup.send(page, ephemeral=ephemeral)


def buttons_view(buttons: list[Button]) -> discord.ui.View | None:
    if not buttons:
        return None
    if len(buttons) > 25:  # Discord's limit; no reply has as many
        log.warning("%d buttons under a reply: the first 25 are shown", len(buttons))
    view = discord.ui.View(timeout=None)
    for b in buttons[:25]:
        view.add_item(ActionButton(b.action, b.args, b.label[:80]))
    return view


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


OMITTED = 40  # room in an embed for the note of the fields it left out


def _embed(card: Embed) -> discord.Embed:
    """A card as Discord's embed, within its limits (25 fields, 6000 characters in all). The
    desk pages its cards (`/nations`); should a card still pass a limit, the fields left out
    are counted in its footer, never dropped without a word."""
    embed = discord.Embed(
        title=_clip(card.title, 256),
        description=_clip(card.description, 4096) or None,
        colour=card.colour,
    )
    footer = _clip(card.footer, 2048 - OMITTED)
    left = 6000 - len(embed.title or "") - len(embed.description or "") - len(footer) - OMITTED
    shown = 0
    for name, value in card.fields[:25]:
        name, value = _clip(name, 256), _clip(value or "-", 1024)
        if len(name) + len(value) > left:
            break
        left -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=True)
        shown += 1
    if shown < len(card.fields):
        hidden = len(card.fields) - shown
        note = f"{hidden} more not shown"
        log.warning("a card %r left %d of its fields out", card.title, hidden)
        footer = f"{footer} - {note}" if footer else note
    if footer:
        embed.set_footer(text=footer)
    return embed


def confirm_view(token: str, label: str, danger: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(token, label, danger))
    return view


DEFER_AFTER = 1.5
"""Seconds a command may take before its answer is deferred: Discord gives 3 to acknowledge an
interaction, and a busy bot (pictures queued, a store under load) may need more for any
command."""


async def respond(
    interaction: discord.Interaction | Typed,
    action: Callable[[], Awaitable[Reply]],
    *,
    slow: bool = False,
) -> None:
    """Run a desk action and answer. A command known to be slow (`slow`) defers at once; any
    other defers once it has taken `DEFER_AFTER`. A defer is private: the first message after
    it keeps its privacy, so an error is never shown to the channel; a public answer (a new
    game) follows as a message of its own. A DM to a bot of several processes may be for a game
    another process runs, whose answer comes through the store (`GameService.submit`): deferred
    at once too.

    What the action did is done: if the answer cannot be delivered (the interaction expired),
    it is logged, and the game's channel still hears of it (`after_reply`). A command typed
    outside Discord (`Typed`) keeps the reply, and its errors are raised to the typist."""
    if isinstance(interaction, Typed):
        interaction.reply = await action()
        return
    bot = host_of(interaction)
    service = getattr(bot, "service", None)
    if interaction.guild_id is None and getattr(service, "owner", None) is not None:
        slow = True
    deferred = await _defer(interaction) if slow else False
    task = asyncio.ensure_future(action())
    try:
        if not deferred and not slow:
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:
                deferred = await _defer(interaction)
        reply = await task
    except asyncio.CancelledError:
        task.cancel()
        raise
    except Exception as exc:  # noqa: BLE001 - every failure becomes a clear message
        if not isinstance(exc, UserError):
            log.exception("command %s failed", interaction.command and interaction.command.name)
        await _answer(interaction, Reply(text=explain(exc)), deferred=deferred)
        return
    await _answer(interaction, reply, deferred=deferred)
    await closed_dms.tell_if_closed(interaction)  # (once, if the caller's DMs are closed)
    await bot.after_reply(reply)


async def _defer(interaction: discord.Interaction) -> bool:
    """Acknowledge now, privately ("thinking"); False if the interaction is already gone."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as exc:
        log.warning("could not defer /%s: %s", _name(interaction), exc)
        return False
    return True


async def _answer(interaction: discord.Interaction, reply: Reply, *, deferred: bool) -> None:
    """Send the answer; a failure (an expired interaction: 10062, or a token past its 15
    minutes) is logged, never retried on the dead token."""
    try:
        if deferred and not reply.ephemeral:
            # the deferred message is private: say where the answer went, then post it
            await interaction.edit_original_response(content="Done: see the channel.")
        await send(interaction, reply, deferred=deferred)
    except discord.HTTPException as exc:
        log.warning("the answer to /%s was not delivered: %s", _name(interaction), exc)


def _name(interaction: discord.Interaction) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else "?"


async def send(interaction: discord.Interaction, reply: Reply, *, deferred: bool) -> None:
    """A reply as a message. Its text fits one by design (the desk pages its lists,
    `bot.paging`); any longer text goes on in follow-up messages, split at line boundaries."""
    kwargs: dict = {}
    first, *rest = paging.split_text(reply.text)
    if reply.text or reply.embed is None:
        kwargs["content"] = first or "Done."
    if reply.embed is not None:
        kwargs["embed"] = _embed(reply.embed)
    if reply.files:
        kwargs["files"] = _files(reply)
    if reply.confirm is not None:
        kwargs["view"] = confirm_view(
            reply.confirm.token, reply.confirm.label, reply.confirm.danger
        )
    elif reply.buttons:
        kwargs["view"] = buttons_view(reply.buttons)
    if deferred or interaction.response.is_done():
        await interaction.followup.send(**kwargs, ephemeral=reply.ephemeral)
    else:
        await interaction.response.send_message(**kwargs, ephemeral=reply.ephemeral)
    await send_rest(interaction, rest, ephemeral=reply.ephemeral)


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


async def complete_ids(
    interaction: discord.Interaction,
    current: str | int,
    fetch: Callable[[Caller, str], Awaitable[list[tuple[str, str]]]],
) -> list[app_commands.Choice[int]]:
    """Autocomplete for an integer option (a unit id): the same suggestions, as numbers."""
    try:
        pairs = await fetch(caller_of(interaction), str(current or ""))
        return [
            app_commands.Choice(name=name[:100], value=int(value)) for name, value in pairs[:25]
        ]
    except Exception:  # autocomplete never fails loudly
        log.exception("autocomplete failed")
        return []


def add_to_group(bot: commands.Bot | commands.AutoShardedBot, path: str, command: Any) -> None:
    """A game's command into one of the shell's groups (`/game create <game>`,
    `/mod deadline`): the shell's extensions are loaded first."""
    node: Any = None
    for name in path.split():
        node = bot.tree.get_command(name) if node is None else node.get_command(name)
        if not isinstance(node, app_commands.Group):
            raise RuntimeError(f"/{path} is not a group of the shell's: load the shell first")
    node.add_command(command)


def remove_from_group(bot: commands.Bot | commands.AutoShardedBot, path: str, name: str) -> None:
    node: Any = None
    for part in path.split():
        node = bot.tree.get_command(part) if node is None else node.get_command(part)
        if not isinstance(node, app_commands.Group):
            return
    node.remove_command(name)


Hook = Callable[[commands.Bot | commands.AutoShardedBot], Awaitable[None]]


def game_creation(
    interaction: discord.Interaction, name: str, kind: str, **options: Any
) -> Callable[[], Awaitable[Reply]]:
    """What a game's `/game create <game>` subcommand asks of the desk (given to `respond`):
    the shell's creation of a game of `kind` in the caller's channel, with the options of every
    game (`speed`, `days`) and the game's own (its side checks them)."""
    desk = host_of(interaction).desk
    return lambda: desk.lifecycle.game_create(caller_of(interaction), name, kind=kind, **options)


def into_group(path: str, command: Any) -> tuple[Hook, Hook]:
    """An extension's `setup` and `teardown` that add a game's command to one of the shell's
    groups and take it out again: `setup, teardown = into_group("game create", create)`."""

    async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
        add_to_group(bot, path, command)

    async def teardown(bot: commands.Bot | commands.AutoShardedBot) -> None:
        remove_from_group(bot, path, command.name)

    return setup, teardown
