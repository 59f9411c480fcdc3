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
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import discord


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
    """Discord asked us to slow down (429) and the client did not retry it itself."""

    def __init__(self, message: str = "rate limited", retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DeliveryFailed(DeliveryError):
    """Anything else that may work next time (Discord 5xx, network errors, timeouts)."""


def _retry_after(exc: object) -> float:
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


def discord_sender(client: discord.Client) -> DmSender:
    """A DmSender that DMs through a logged-in discord.py client."""
    import aiohttp
    import discord

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
        try:
            user = client.get_user(uid) or await client.fetch_user(uid)
            channel = user.dm_channel or await user.create_dm()
            attachments = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
            key = discord.utils.MISSING if nonce is None else nonce  # (discord.py's "not given")
            view = discord.utils.MISSING
            if menus:  # answered by the dynamic item of its custom id (bot/discord_io.py)
                view = discord.ui.View(timeout=None)
                for menu in menus[:5]:
                    view.add_item(
                        discord.ui.Select(
                            custom_id=menu.custom_id,
                            placeholder=menu.placeholder[:150],
                            min_values=menu.min_values,
                            max_values=min(menu.max_values, len(menu.options[:25])),
                            options=[
                                discord.SelectOption(label=label[:100], value=value, default=on)
                                for label, value, on in menu.options[:25]
                            ],
                        )
                    )
            if attachments:
                await channel.send(content or None, files=attachments, nonce=key, view=view)
            else:
                await channel.send(content, nonce=key, view=view)
        except discord.Forbidden as exc:
            raise DmClosed(f"{exc.status}/{exc.code}: {exc.text or 'forbidden'}") from exc
        except discord.NotFound as exc:
            raise DmClosed(f"unknown user ({exc.status}/{exc.code})") from exc
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise RateLimited(str(exc), _retry_after(exc)) from exc
            raise DeliveryFailed(f"{exc.status}/{exc.code}: {exc.text}") from exc
        except (aiohttp.ClientError, OSError) as exc:  # TimeoutError is an OSError
            raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from exc

    return send
