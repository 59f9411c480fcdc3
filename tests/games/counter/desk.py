"""The counter game's part of the desk: `/add`, Discord-free (the cog and any typed command
call it), refusing what the core would refuse with words a player understands."""

from __future__ import annotations

from bot.actions import Actions
from bot.context import Caller, Context, Reply, UserError
from engine.errors import CommandError, GameError
from tests.games.counter import NAME
from tests.games.counter.core import LEAST, MOST, Add, Added


class Counting:
    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx  # (no buttons, confirmations or list pages: nothing in `actions`)

    async def add(self, caller: Caller, amount: int) -> Reply:
        """The caller's nation adds `amount` to the counter (the core's `Add`)."""
        seat, nation = await self.ctx.playing(caller, kind=NAME)
        if not LEAST <= amount <= MOST:
            view = await self.ctx.service.view(seat.game.id, nation)
            raise UserError(
                f"Add {LEAST} to {MOST} at a time, not {amount}: the counter stays at "
                f"{view['total']}."
            )
        try:
            result = await self.ctx.service.submit(seat.game.id, nation, Add(amount=amount))
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        added = next(e for e in result.events if isinstance(e, Added))
        return Reply(text=f"You added {amount}: the counter is {added.total}.")
