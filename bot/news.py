"""/news: a player's latest DM reports of their game, again. The notifier records each report
when it composes it for the player (`BotStore.add_news`), whether or not the DM then reached
them, so a player whose DMs are closed can still read everything here. Only the caller's own
reports are read: nobody, moderator or not, reads another player's."""

from __future__ import annotations

from bot.context import Caller, Context, Reply
from bot.store import BotStore, NewsRow

KEPT = 50  # reports kept per game and player
LIMIT = 2000  # Discord's message limit
PART = 1800  # a report is recorded in messages of at most this many characters


def entry(row: NewsRow) -> str:
    """One report as /news lists it: when it was composed (in the reader's own time), then it."""
    return f"<t:{int(row.at)}:f>\n{row.text}"


def pages(rows: list[NewsRow], title: str, limit: int = LIMIT) -> list[str]:
    """The reports (newest first) packed into pages of at most `limit` characters with their
    header and footer; a page holds at least one report (clipped if it could not fit)."""
    reserve = len(title) + 80  # the header's page numbers and the footer's hint
    budget = limit - reserve
    packed: list[list[str]] = []
    size = 0
    for row in rows:
        text = entry(row)
        if len(text) > budget:
            text = text[: budget - 1] + "…"
        if packed and size + 2 + len(text) <= budget:
            packed[-1].append(text)
            size += 2 + len(text)
        else:
            packed.append([text])
            size = len(text)
    total = len(packed)
    out = []
    for i, texts in enumerate(packed, 1):
        head = f"**{title}** (newest first, page {i}/{total})"
        foot = [f"`/news page:{i + 1}` for older ones."] if i < total else []
        out.append("\n\n".join([head, *texts, *foot]))
    return out


class News:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def read(self, caller: Caller, count: int = 10, page: int = 1) -> Reply:
        seat = await self.ctx.seat(caller)
        game = seat.game
        count = max(1, min(KEPT, count))
        rows = await BotStore.of(self.ctx.service.store).news(game.id, caller.user_id, count)
        if not rows:
            return Reply(
                text=f"You have no reports from {game.name} yet: what your nation is told by DM "
                "is kept here too."
            )
        found = pages(rows, f"Your reports from {game.name}")
        if not 1 <= page <= len(found):
            return Reply(
                text=f"There {'is' if len(found) == 1 else 'are'} {len(found)} "
                f"page{'' if len(found) == 1 else 's'} of reports (`/news page:1` is the newest)."
            )
        return Reply(text=found[page - 1])
