"""The desk: every player and moderator action, Discord-free. The cogs (and the offline
sandbox) translate their input into these calls and the `Reply` back into messages."""

from __future__ import annotations

from engine.service import GameService

from .choices import Choices
from .context import Caller, Context, Reply
from .intel import Intel
from .lifecycle import Lifecycle
from .moderation import Moderation
from .playing import Playing
from .preferences import Preferences


class Desk(Lifecycle, Playing, Intel, Moderation, Preferences, Choices):
    def __init__(self, service: GameService) -> None:
        self.ctx = Context(service)
        self.service = service
        self.notifier = None  # set by the bot: settings changes release held reports

    async def confirm(self, caller: Caller, token: str) -> Reply:
        """The caller pressed a confirmation button."""
        return await self.ctx.confirmations.run(caller.user_id, token)
