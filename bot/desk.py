"""The desk: every player and moderator action, Discord-free, made of parts named for what they
do, each with what it needs given to it: the shell's (`lifecycle`: /game; `moderation`: /mod;
`preferences`: /notify; `guide`: /help; `news`: /news; `standings`: /stats) and each game's own (its side's
`desk_parts`, found with `part(cls)`). The cogs (and the offline sandbox) translate their input
into these calls and the `Reply` back into messages. Buttons, confirmations and list pages run
what the parts registered in `actions`."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from bot.actions import Actions
from bot.context import Caller, Context, Reply
from bot.game_side import sides
from bot.guide import Guide
from bot.lifecycle import Lifecycle
from bot.moderation import Moderation
from bot.news import News
from bot.preferences import Preferences
from bot.standings import Standings
from engine.host.service import GameService

if TYPE_CHECKING:  # pragma: no cover
    from bot.dm.notifier import Notifier

Part = TypeVar("Part")


class Desk:
    def __init__(self, service: GameService, *, notifier: Notifier | None = None) -> None:
        self.service = service
        self.ctx = Context(service)
        self.actions = Actions()
        self.lifecycle = Lifecycle(self.ctx, self.actions)
        self.moderation = Moderation(self.ctx, self.actions)
        # settings changes release the reports held by the old quiet hours (the notifier's)
        self.preferences = Preferences(self.ctx, notifier)
        self.guide = Guide(self.ctx)
        self.news = News(self.ctx)
        self.standings = Standings(self.ctx)
        self._parts: dict[type, object] = {}
        for game in sides():
            for made in game.desk_parts(self.ctx, self.actions):
                if type(made) in self._parts:
                    raise ValueError(f"two desk parts of type {type(made).__name__}")
                self._parts[type(made)] = made

    @property
    def notifier(self) -> Notifier | None:
        return self.preferences.notifier

    @notifier.setter
    def notifier(self, notifier: Notifier | None) -> None:
        self.preferences.notifier = notifier

    def part(self, cls: type[Part]) -> Part:
        """A game's part of the desk, by its class (`desk.part(Orders).orders_add(...)`)."""
        found = self._parts.get(cls)
        if found is None:
            raise LookupError(f"no desk part {cls.__name__}: is its game registered?")
        assert isinstance(found, cls)
        return found

    async def confirm(self, caller: Caller, token: str) -> Reply:
        """The caller pressed a confirmation button: the action waiting behind it (kept in the
        database, so it survives a restart) runs only if the presser is the one who asked and
        still has the right to do it now (leads the nation; moderates the game's server)."""
        pending = await self.ctx.confirmations.claim(caller, token)
        return await self.actions.confirm(caller, pending)

    async def press(self, caller: Caller, action: str, args: str) -> Reply:
        """The caller pressed a button under a reply (`bot.context.Button`): the action its
        part registered runs with the arguments the button carries, checked like typed ones."""
        return await self.actions.press(caller, action, args)
