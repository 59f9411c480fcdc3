"""The bot's own posts in games' channels (announcements, the pinned status, turn boards, the
end-of-game map), within what the bot may do there.

Before each post the bot's permissions in the channel are read from discord.py's cache (kept
up to date by the gateway: channel overwrites, roles), so a channel it may not post in costs no
refused request: Discord counts every 403 towards its limit of invalid requests. When something
is lacking, or Discord refuses a post all the same (403), the bot logs it once and tells the
game's creator once, by DM, what to allow; it posts there again as soon as its permissions there
change. What it has told is kept in the game's settings (`channel_problem`), so a restart does
not tell again."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import permissions
from engine.host.rows import GameRow
from engine.host.service import GameService

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # Discord's characters in a message
NEWS_OFF = "news_off"  # a game's setting: its public news is not posted (`/mod news on:False`)
UNREACHABLE_SECONDS = 600.0  # a channel the bot cannot fetch is asked for again after this
# a refusal its cached permissions did not foresee is tried again after this, even if they say
# nothing changed (a gateway event lost)
BLOCK_SECONDS = 3600.0

Tell = Callable[[str, str], Awaitable[None]]
"""(user id, text): a DM to a person (best effort)."""

Pace = Callable[[], Awaitable[None]]
"""Waits for the bot's turn to send a request of its own (the fan-out pacer)."""


async def _no_wait() -> None:
    return None


class GameChannels:
    def __init__(self, client: discord.Client, service: GameService, tell: Tell) -> None:
        self.client = client
        self.service = service
        self.tell = tell
        self.pace: Pace = _no_wait
        # (channel id, permission attribute) -> the bot's permissions there when Discord
        # refused it, and when: no request needing it is made there until they change
        self._blocked: dict[tuple[int, str], tuple[int, float]] = {}
        # channels the bot could not fetch (deleted, or hidden from it): not asked again before
        self._unreachable: dict[int, float] = {}
        # announcements waiting their turn, and the task posting them, per channel
        self._announcements: dict[int, list[tuple[GameRow, str]]] = {}
        self._announcers: dict[int, asyncio.Task[None]] = {}

    async def channel(self, row: GameRow) -> discord.TextChannel | discord.Thread | None:
        if not row.channel_id:
            return None
        cid = int(row.channel_id)
        found = self.client.get_channel(cid)
        if found is None:
            if time.monotonic() < self._unreachable.get(cid, 0.0):
                return None
            try:
                await self.pace()
                found = await self.client.fetch_channel(cid)
            except discord.HTTPException as exc:
                self._unreachable[cid] = time.monotonic() + UNREACHABLE_SECONDS
                if isinstance(exc, discord.Forbidden):
                    await self._refused(row, None, ("view_channel",))
                else:
                    log.warning("game %s: its channel cannot be found: %s", row.id, exc)
                return None
        return found if isinstance(found, discord.TextChannel | discord.Thread) else None

    def permissions_changed(self, guild_id: int, channel_id: int | None = None) -> None:
        """Discord says the bot's permissions may have changed (a role, a channel's
        overwrites): what it was refused there is tried again."""
        for key in list(self._blocked):
            channel = self.client.get_channel(key[0])
            in_guild = getattr(getattr(channel, "guild", None), "id", None) == guild_id
            if key[0] == channel_id or (channel_id is None and (in_guild or channel is None)):
                del self._blocked[key]
        self._unreachable.clear()

    def _perms(self, channel: discord.TextChannel | discord.Thread) -> discord.Permissions:
        me: discord.Member | None = channel.guild.me  # (typed as always there; not so early)
        # (not known yet: assume allowed, and let a refusal say otherwise)
        return channel.permissions_for(me) if me is not None else discord.Permissions.all()

    async def _may(
        self, row: GameRow, channel: discord.TextChannel | discord.Thread, attrs: tuple[str, ...]
    ) -> bool:
        """May the bot do what needs `attrs` there? If not, tell (once) and say no."""
        perms = self._perms(channel)
        lacking = [a for a in attrs if not getattr(perms, a)]
        for attr in attrs:
            refused_at = self._blocked.get((channel.id, attr))
            if refused_at is None:
                continue
            value, since = refused_at
            if value != perms.value or time.monotonic() - since > BLOCK_SECONDS:
                del self._blocked[(channel.id, attr)]  # its permissions changed: try again
            elif attr not in lacking:
                lacking.append(attr)  # Discord refused it although the cache allows it
        if lacking:
            await self._refused(row, channel, tuple(lacking))
            return False
        return True

    async def send(
        self,
        row: GameRow,
        text: str,
        *,
        file: tuple[str, bytes] | None = None,
        pings: tuple[str, ...] = (),
        nonce: str | None = None,
    ) -> discord.Message | None:
        """Post in the game's channel; None when the bot may not (it has told why, once).
        Only the users in `pings` are notified by their mentions (nobody by default). `nonce`:
        the post's idempotency key (Discord shows a post sent again under it within a few
        minutes once: a process that died after posting and before noting it)."""
        channel = await self.channel(row)
        if channel is None:
            return None
        thread = isinstance(channel, discord.Thread)
        needed = permissions.to_post(files=file is not None, thread=thread)
        await self.pace()  # (first: the permissions are looked at just before the request)
        if not await self._may(row, channel, needed):
            return None
        none = discord.AllowedMentions.none()
        if pings:
            none = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(id=int(u)) for u in pings[:100]]
            )
        key: Any = {} if nonce is None else {"nonce": nonce}  # (discord.py: a nonce or none)
        try:
            if file is not None:
                name, data = file
                message = await channel.send(
                    text,
                    file=discord.File(io.BytesIO(data), filename=name),
                    allowed_mentions=none,
                    **key,
                )
            else:
                message = await channel.send(text, allowed_mentions=none, **key)
        except discord.Forbidden as exc:
            await self._refused(row, channel, _refused_for(exc, needed), refused=True)
            return None
        await self._fine(row)
        return message

    def announce(self, row: GameRow, text: str) -> None:
        """Say `text` in the game's channel, soon: announcements wait their turn per channel,
        and those that pile up meanwhile (32 nations joining at once, while Discord lets a
        channel have 5 messages in 5 seconds) go together in one message, in order."""
        if not row.channel_id:
            return
        cid = int(row.channel_id)
        queue = self._announcements.setdefault(cid, [])
        queue.append((row, text))
        worker = self._announcers.get(cid)
        if worker is None or worker.done():
            self._announcers[cid] = asyncio.create_task(
                self._announce_all(cid), name=f"announce-{cid}"
            )

    async def _announce_all(self, cid: int) -> None:
        queue = self._announcements.get(cid, [])
        while queue:
            row = queue[-1][0]  # the latest row of the game (its settings)
            texts, size = [], 0
            while queue and size + len(queue[0][1]) + 1 <= MESSAGE_LIMIT:
                text = queue.pop(0)[1][:MESSAGE_LIMIT]
                texts.append(text)
                size += len(text) + 1
            try:
                await self.send(row, "\n".join(texts))
            except Exception:  # noqa: BLE001 - a post is best effort; the game goes on
                log.exception("announcing in channel %s failed", cid)
        self._announcements.pop(cid, None)

    def workers(self) -> list[asyncio.Task[None]]:
        """The announcement tasks still running (stopped with the bot's other tasks)."""
        return [t for t in self._announcers.values() if not t.done()]

    async def edit(self, row: GameRow, message_id: int, text: str) -> bool | None:
        """Edit one of the bot's messages there: True if done, False if the bot may not (told
        once), None if the message is gone."""
        channel = await self.channel(row)
        if channel is None:
            return False
        await self.pace()
        if not await self._may(row, channel, ("view_channel",)):
            return False
        try:
            await channel.get_partial_message(message_id).edit(
                content=text, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound:
            return None
        except discord.Forbidden:
            await self._refused(row, channel, ("view_channel",), refused=True)
            return False
        return True

    async def pin(self, row: GameRow, message: discord.Message) -> bool:
        """Pin the bot's message (the game's status); it needs *Pin Messages*."""
        channel = message.channel
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return False
        await self.pace()
        if not await self._may(row, channel, ("view_channel", "pin_messages")):
            return False
        try:
            await message.pin(reason="the game's status")
        except discord.Forbidden:
            await self._refused(row, channel, ("pin_messages",), refused=True)
            return False
        except discord.HTTPException as exc:  # e.g. the channel's 250 pins are used up
            log.warning("game %s: its status could not be pinned: %s", row.id, exc)
            return False
        return True

    async def _refused(
        self,
        row: GameRow,
        channel: discord.TextChannel | discord.Thread | None,
        attrs: tuple[str, ...],
        *,
        refused: bool = False,
    ) -> None:
        """The bot lacks `attrs` there (`refused`: Discord said so although the cache did not):
        no more requests needing them until its permissions change; told once."""
        if channel is not None and refused:
            for attr in attrs:
                self._blocked[(channel.id, attr)] = (self._perms(channel).value, time.monotonic())
        lacking = tuple(permissions.label_of(a) for a in attrs)
        problem = "lacks " + ", ".join(lacking)
        if row.settings.get("channel_problem") == problem:
            return  # told already
        where = f"<#{row.channel_id}>"
        log.warning("game %s: the bot %s in its channel %s", row.id, problem, row.channel_id)
        text = (
            f"**{row.name}**: I cannot do everything the game needs in its channel {where}: I "
            f"lack {', '.join(lacking)} there. Until a moderator allows it (Edit Channel > "
            "Permissions, or my role), the game goes on, but what I would post there (joins, "
            "the pinned status, turn boards) is not shown. I will not tell you again."
        )
        try:
            await self.service.update_settings(row.id, channel_problem=problem)
        except Exception:  # noqa: BLE001 - the game may be gone; telling is best effort
            log.exception("game %s: noting its channel's problem failed", row.id)
        if row.created_by:
            try:
                await self.tell(row.created_by, text)
            except Exception as exc:  # noqa: BLE001 - best effort
                log.warning("game %s: its creator could not be told: %s", row.id, exc)

    async def _fine(self, row: GameRow) -> None:
        """A post went through: a problem noted before is over (told again if it comes back)."""
        if row.settings.get("channel_problem"):
            log.info("game %s: the bot posts in its channel again", row.id)
            await self.service.update_settings(row.id, channel_problem=None)


def _refused_for(exc: discord.Forbidden, attrs: tuple[str, ...]) -> tuple[str, ...]:
    """Which of `attrs` Discord's refusal is about: 50001 (Missing Access) is the channel
    itself; 50013 (Missing Permissions) the rest."""
    if exc.code == 50001 or attrs == ("view_channel",):
        return ("view_channel",)
    return tuple(a for a in attrs if a != "view_channel")
