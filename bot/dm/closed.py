"""A player whose DMs are closed to the bot is told so once, privately, at their next command
(after its answer): the notifier recorded the refusal (`dm_status`, 50007), and every report
waits for them in /news. Told once per closing: when the DMs open and close again, they are
told again.

Every command asks; most players' DMs are open, so the answer "nothing to tell" is kept in
memory for `QUIET_SECONDS` (this process's notifier forgets it at once when it finds a user's
DMs closed: `changed`), and a command costs no store read more often than that per user."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from typing import Any

from bot.store import BotStore

log = logging.getLogger(__name__)

QUIET_SECONDS = 60.0
MEMORY = 10_000  # users remembered as having nothing to be told

TEXT = (
    "**I cannot DM you**: Discord refuses my direct messages to you (your privacy settings, "
    "or you blocked me), so your game reports, maps and supply questions do not reach you. "
    "To get them, allow direct messages from this server's members (the server's menu > "
    "Privacy Settings), then use `/notify`: what waited is sent at once. Meanwhile `/news` "
    "has every report. (I tell you this once.)"
)

# user id -> monotonic time until which they have nothing to be told
_nothing: OrderedDict[str, float] = OrderedDict()


def changed(user_id: str) -> None:
    """The user's DM status changed (this process's notifier found it): ask again."""
    _nothing.pop(str(user_id), None)


async def closed_notice(store: BotStore, user_id: str, *, now: float | None = None) -> str | None:
    """The notice to give the user now (and noted as given), or None."""
    user = str(user_id)
    mono = time.monotonic()
    if _nothing.get(user, 0.0) > mono:
        return None
    if await store.closed_untold(user) is None or not await store.told_closed(user, now=now):
        _nothing[user] = mono + QUIET_SECONDS
        _nothing.move_to_end(user)
        while len(_nothing) > MEMORY:
            _nothing.popitem(last=False)
        return None
    return TEXT


async def tell_if_closed(interaction: Any) -> None:
    """After a command's answer: tell its user, privately, if their DMs are closed and they
    were not told yet. Never raises (the command is done)."""
    try:
        bot = interaction.client
        service = getattr(bot, "service", None)
        if service is None:
            return
        text = await closed_notice(BotStore.of(service.store), str(interaction.user.id))
        if text is not None:
            await interaction.followup.send(text, ephemeral=True)
    except Exception as exc:  # noqa: BLE001 - best effort, after the answer
        log.warning("telling user %s their DMs are closed failed: %s", interaction.user.id, exc)
