"""The desk: every player and moderator action, Discord-free. The cogs (and the offline
sandbox) translate their input into these calls and the `Reply` back into messages."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.context import UNKNOWN_CONFIRMATION, Caller, Context, Reply, UserError
from bot.games.strategic.choices import Choices
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from bot.games.supplylines.orders import Orders
from bot.guide import Guide
from bot.lifecycle import Lifecycle
from bot.moderation import Moderation
from bot.news import News
from bot.preferences import Preferences
from engine.host.service import GameService

if TYPE_CHECKING:  # pragma: no cover
    from bot.dm.notifier import Notifier


class Desk(Lifecycle, Playing, Intel, Moderation, Preferences, Guide, News, Choices, Orders):
    def __init__(self, service: GameService) -> None:
        self.ctx = Context(service)
        self.service = service
        self.notifier: Notifier | None = (
            None  # set by the bot: settings changes release held reports
        )

    async def confirm(self, caller: Caller, token: str) -> Reply:
        """The caller pressed a confirmation button: the action waiting behind it (kept in the
        database, so it survives a restart) runs only if the presser is the one who asked and
        still has the right to do it now (leads the nation; moderates the game's server)."""
        pending = await self.ctx.confirmations.claim(caller, token)
        handler = CONFIRMED.get(pending.kind)
        if handler is None:
            raise UserError(UNKNOWN_CONFIRMATION)
        return await getattr(self, handler)(caller, pending)

    async def press(self, caller: Caller, action: str, args: str) -> Reply:
        """The caller pressed a button under a reply (`bot.context.Button`): the desk method
        for its action runs with the arguments the button carries, checked like typed ones."""
        handler = PRESSED.get(action)
        if handler is None:
            raise UserError("This button is no longer valid: run the command again.")
        return await getattr(self, handler)(caller, args)

    async def pressed_page(self, caller: Caller, args: str) -> Reply:
        """A list's Prev or Next (`bot.paging`): the command runs again for the presser, checked
        like a typed one, and shows the page asked for (the nearest there is, if the list has
        shrunk meanwhile). `args` is `<list>[:<game>]:<page>`."""
        found = re.fullmatch(r"([a-z]{1,12})(?::(\d{1,12}))?:(\d{1,5})", args)
        handler = PAGED.get(found[1]) if found else None
        if found is None or handler is None:
            raise UserError("This button is no longer valid: run the command again.")
        game_id = int(found[2]) if found[2] else None
        return await getattr(self, handler)(caller, page=int(found[3]), game_id=game_id)


# the actions a button under a reply may run -> the desk method that runs it
PRESSED: dict[str, str] = {
    "map": "pressed_map",
    "page": "pressed_page",
}

# the lists a page button may show -> the desk method that shows a page of it (keyword
# arguments `page` and `game_id`)
PAGED: dict[str, str] = {
    "orders": "orders_list",
    "board": "orders_board_page",
    "games": "game_list",
    "info": "game_info",
    "nations": "nations",
}

# the kinds of action a confirmation may hold -> the desk method that rechecks and runs it
CONFIRMED: dict[str, str] = {
    "resign": "confirmed_resign",
    "launch": "confirmed_launch",
    "disband": "confirmed_disband",
    "mod_end": "confirmed_mod_end",
    "mod_delete": "confirmed_mod_delete",
}
