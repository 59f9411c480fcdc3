"""Sending a DM, as the notifier sees it: `DmSender(user_id, content, files, nonce=...)`,
which either returns after Discord accepted the message or raises one of the three outcomes
the notifier tells apart. `discord_sender(client)` is the real one; tests pass a fake.

`nonce` is the message's idempotency key: Discord does not create a second message with the
same nonce from the same author in the same channel within a few minutes (`enforce_nonce`,
which discord.py sends with every nonce), and returns the first. The notifier derives it from
the outbox rows a message tells, so a DM sent again after its sender died before recording it
(another process takes the rows over) is not shown twice."""

from __future__ import annotations

import io
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.pacer import Pacer

if TYPE_CHECKING:
    import discord

    from bot.store import BotStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Menu:
    """A select menu under a DM, Discord-free: its custom id says what a choice does (the bot
    answers it after a restart too), its options are (label, value, chosen by default)."""

    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str, bool], ...]
    min_values: int = 0
    max_values: int = 1


class DmSender(Protocol):
    """(user_id, content, [(filename, data), ...], nonce=key[, menus=...]) -> None; `menus`
    is only passed when a message has some."""

    def __call__(
        self,
        user_id: str,
        content: str,
        files: list[tuple[str, bytes]],
        /,
        *,
        nonce: str | None = None,
        menus: Sequence[Menu] = (),
    ) -> Awaitable[None]: ...


class DeliveryError(Exception):
    """A DM could not be delivered."""


class DmClosed(DeliveryError):
    """The user does not accept DMs from the bot (Discord 403 / code 50007), or is unknown."""


class RateLimited(DeliveryError):
    """Discord asked us to slow down: a 429 the client did not retry itself (`retry_after`:
    Discord's), or 40003 (opening DMs too fast). Not the user's doing: tried again later."""

    def __init__(self, message: str = "rate limited", retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DeliveryFailed(DeliveryError):
    """Anything else that may work next time (Discord 5xx, network errors, timeouts)."""


def _retry_after(exc: object) -> float:
    """Seconds Discord asked to wait, from a 429's headers (`Retry-After`, whole seconds, or
    `X-RateLimit-Reset-After`); 1 s when it said nothing."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    for key in ("Retry-After", "retry-after", "X-RateLimit-Reset-After"):
        value = headers.get(key) if hasattr(headers, "get") else None
        if value is not None:
            try:
                return max(0.0, float(value))
            except (TypeError, ValueError):
                pass
    return 1.0


# Discord's JSON error codes a DM meets (docs: topics/opcodes-and-status-codes)
CANNOT_DM = 50007  # the user's privacy settings refuse DMs from the bot, or the user blocked it
OPENING_TOO_FAST = 40003  # "You are opening direct messages too fast"
UNKNOWN_CHANNEL = 10003
UNKNOWN_USER = 10013

# Discord warns that opening many DM channels quickly gets a bot limited (40003) or blocked,
# and publishes no numbers: new DM channels are opened at most OPEN_RATE a second, OPEN_BURST
# at once after a quiet spell (a DM whose channel must wait is tried again later: the notifier
# goes on with the others); after a 40003 none is opened for OPEN_PAUSE. Users whose channel
# is known are DMed meanwhile.
OPEN_RATE = 0.5
OPEN_BURST = 5
OPEN_PAUSE = 60.0

Pace = Callable[[], Awaitable[None]]
"""Waits for the bot's turn to send a request of its own (`bot.pacer.Pacer.wait`)."""


async def _no_wait() -> None:
    return None


class DmChannels:
    """Each user's DM channel with the bot, so that a DM is one request (the message) and no
    channel is opened twice: in memory (the `size` most recently used, least recently used
    forgotten first) and, with a `store` (`bot.store.BotStore`), in the database, so a restart
    opens none again. A failure of the store is logged and costs only a channel opened again."""

    def __init__(self, store: BotStore | None = None, *, size: int = 20_000) -> None:
        self.store = store
        self.size = size
        self._known: OrderedDict[str, int] = OrderedDict()

    async def get(self, user_id: str) -> int | None:
        found = self._known.get(user_id)
        if found is not None:
            self._known.move_to_end(user_id)
            return found
        if self.store is None:
            return None
        try:
            stored = await self.store.dm_channel(user_id)
        except Exception:  # noqa: BLE001 - the cache is an economy, not a need
            log.exception("reading the DM channel of user %s failed", user_id)
            return None
        if stored is None:
            return None
        self._remember(user_id, int(stored))
        return int(stored)

    async def put(self, user_id: str, channel_id: int) -> None:
        self._remember(user_id, channel_id)
        if self.store is not None:
            try:
                await self.store.set_dm_channel(user_id, str(channel_id))
            except Exception:  # noqa: BLE001
                log.exception("keeping the DM channel of user %s failed", user_id)

    async def forget(self, user_id: str) -> None:
        self._known.pop(user_id, None)
        if self.store is not None:
            try:
                await self.store.set_dm_channel(user_id, None)
            except Exception:  # noqa: BLE001
                log.exception("forgetting the DM channel of user %s failed", user_id)

    def _remember(self, user_id: str, channel_id: int) -> None:
        self._known[user_id] = channel_id
        self._known.move_to_end(user_id)
        while len(self._known) > self.size:
            self._known.popitem(last=False)


def discord_sender(
    client: discord.Client,
    *,
    channels: DmChannels | None = None,
    pace: Pace | None = None,
    opens: Pacer | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> DmSender:
    """A DmSender that DMs through a logged-in discord.py client.

    A DM is one request: the message, to the user's DM channel as known (`channels`); only a
    user DMed for the first time costs one more, opening the channel (no user is fetched: the
    bot has no members intent, so discord.py knows no users). Each request waits for the
    bot's pacer (`pace`). Discord's refusals are told apart:
    - 50007 (the user's settings refuse the bot's DMs, or they blocked it), an unknown user,
      a recipient Discord refuses: `DmClosed`;
    - 40003 (opening DMs too fast): `RateLimited`, and no new channel is opened for
      `OPEN_PAUSE` (no more refused requests meanwhile); a 429: `RateLimited` with Discord's
      `retry_after`; a new channel that must wait for its turn (`opens`, `OPEN_RATE`):
      `RateLimited` with the wait, before any request;
    - an unknown channel (the kept one is gone): the channel is opened again, once;
    - 5xx, network errors and anything else: `DeliveryFailed`."""
    import aiohttp
    import discord

    known = channels if channels is not None else DmChannels()
    wait = pace or _no_wait
    opener = opens if opens is not None else Pacer(OPEN_RATE, burst=OPEN_BURST, clock=clock)
    paused_until = [0.0]  # no DM channel is opened before this (after a 40003)

    async def open_channel(uid: int) -> int:
        left = paused_until[0] - clock()
        if left > 0:
            raise RateLimited(f"{OPENING_TOO_FAST}: opening DMs paused", retry_after=left)
        left = opener.ready_in()
        if left > 0:
            raise RateLimited("new DM channels are opened a few at a time", retry_after=left)
        opener.reserve()
        await wait()
        data = await client.http.start_private_message(uid)
        channel_id = int(data["id"])
        await known.put(str(uid), channel_id)
        return channel_id

    async def post(channel_id: int, content: str, files, key, menus: Sequence[Menu]) -> None:
        channel = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        attachments = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
        view = discord.utils.MISSING  # (discord.py's "not given")
        if menus:  # answered by the dynamic item of its custom id (bot/discord_io.py)
            view = discord.ui.View(timeout=None)
            for menu in menus[:5]:  # one action row each, Discord's 5 a message
                view.add_item(
                    discord.ui.Select(
                        custom_id=menu.custom_id,
                        placeholder=menu.placeholder[:150],
                        min_values=menu.min_values,
                        max_values=max(1, min(menu.max_values, len(menu.options[:25]))),
                        options=[
                            discord.SelectOption(label=label[:100], value=value, default=on)
                            for label, value, on in menu.options[:25]
                        ],
                    )
                )
        await wait()
        if attachments:
            await channel.send(content or None, files=attachments, nonce=key, view=view)
        else:
            await channel.send(content, nonce=key, view=view)

    async def send(
        user_id: str,
        content: str,
        files: list[tuple[str, bytes]],
        *,
        nonce: str | None = None,
        menus: Sequence[Menu] = (),
    ) -> None:
        try:
            uid = int(user_id)
        except (TypeError, ValueError) as exc:
            raise DmClosed(f"not a Discord user id: {user_id!r}") from exc
        key = nonce  # (None: none; discord.py's MISSING would go as the nonce "...")
        opening = False
        try:
            channel_id = await known.get(str(uid))
            if channel_id is None:
                opening = True
                channel_id = await open_channel(uid)
                opening = False
            try:
                await post(channel_id, content, files, key, menus)
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_CHANNEL:
                    raise
                # the channel kept is gone (Discord made a new one): open it again, once
                await known.forget(str(uid))
                opening = True
                channel_id = await open_channel(uid)
                opening = False
                await post(channel_id, content, files, key, menus)
        except DeliveryError:
            raise
        except discord.Forbidden as exc:
            if exc.code == OPENING_TOO_FAST:
                paused_until[0] = clock() + OPEN_PAUSE
                raise RateLimited(f"403/{exc.code}: {exc.text}", retry_after=OPEN_PAUSE) from exc
            if exc.code == CANNOT_DM or opening:
                raise DmClosed(f"{exc.status}/{exc.code}: {exc.text or 'forbidden'}") from exc
            # a refusal that is not about the user (e.g. the bot's own standing): not "closed"
            raise DeliveryFailed(f"{exc.status}/{exc.code}: {exc.text}") from exc
        except discord.NotFound as exc:
            raise DmClosed(f"unknown user ({exc.status}/{exc.code})") from exc
        except discord.RateLimited as exc:  # (a client with `max_ratelimit_timeout`)
            raise RateLimited(str(exc), exc.retry_after) from exc
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise RateLimited(str(exc), _retry_after(exc)) from exc
            if opening and 400 <= exc.status < 500:  # Discord refuses the recipient itself
                raise DmClosed(f"cannot open a DM: {exc.status}/{exc.code}: {exc.text}") from exc
            raise DeliveryFailed(f"{exc.status}/{exc.code}: {exc.text}") from exc
        except (aiohttp.ClientError, OSError) as exc:  # TimeoutError is an OSError
            raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from exc

    return send
