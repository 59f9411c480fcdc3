"""Moderators' actions on the game hosted in the channel: pause, resume, speed, force ticks,
kick, substitute, end, delete, and looking at any nation's view. The cog checks the caller is a
moderator (Manage Server or the configured role) before any of these run; they check again, and
act only on the game hosted in the channel where the command is typed, which must be on the
server where the caller holds the right (`Context.moderated`), and never on a game the caller
plays in (a referee who plays is a player: another moderator must do it). A game that has ended
is final: only `/mod view` and `/mod delete` act on it. Ending and deleting wait for a button;
pressing it checks the presser's rights again, as they are then."""

from __future__ import annotations

from bot.actions import Actions
from bot.context import GAME_OVER, Caller, Context, Pending, Reply, UserError
from bot.game_channels import NEWS_OFF
from bot.game_side import side
from bot.lifecycle import SPEEDS, speed_label
from engine.errors import GameError

MAX_FORCED_TICKS = 96 * 10


class Moderation:
    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx
        actions.confirmation("mod_end", self.confirmed_mod_end)
        actions.confirmation("mod_delete", self.confirmed_mod_delete)

    async def _game(self, caller: Caller, *, ended: bool = False):
        """The game the moderator acts on; one that has ended only for reading or deleting
        (`ended`): its result is final."""
        game = await self.ctx.moderated(caller)
        if game.status == "ended" and not ended:
            raise UserError(GAME_OVER.format(game=game.id))
        return game

    async def mod_pause(self, caller: Caller) -> Reply:
        game = await self._game(caller)
        if game.status != "running":
            raise UserError(f"Game {game.id} is {game.status}, not running.")
        if game.clock.get("paused"):
            raise UserError("The game is already paused.")
        await self.ctx.service.pause(game.id)
        return announce(game, f"**{game.name} is paused** by a moderator.")

    async def mod_resume(self, caller: Caller) -> Reply:
        game = await self._game(caller)
        if not game.clock.get("paused"):
            raise UserError("The game is not paused.")
        await self.ctx.service.resume(game.id)
        return announce(game, f"**{game.name} goes on.**")

    async def mod_speed(
        self, caller: Caller, speed: str | None = None, seconds_per_hour: float | None = None
    ) -> Reply:
        game = await self._game(caller)
        if (speed is None) == (seconds_per_hour is None):
            raise UserError(f"Give a speed ({', '.join(SPEEDS)}) or seconds_per_hour, not both.")
        if speed is not None and speed not in SPEEDS:
            raise UserError(f"Speeds are: {', '.join(SPEEDS)}.")
        value = SPEEDS[speed] if speed is not None else float(seconds_per_hour or 0)
        if not 0.1 <= value <= 86400:
            raise UserError("A game hour lasts 0.1 to 86,400 real seconds.")
        try:
            await self.ctx.service.set_speed(game.id, value)
        except GameError as exc:
            raise UserError(str(exc)) from None
        return announce(game, f"{game.name} now runs at **{speed or speed_label(value)}** speed.")

    async def mod_news(self, caller: Caller, on: bool) -> Reply:
        """The game's public news in its channel (wars, alliances, captures, launches), on or
        off; it is on unless a moderator turns it off."""
        game = await self._game(caller)
        if (game.settings.get(NEWS_OFF) is not True) == on:
            raise UserError(f"The news of {game.name} is already {'on' if on else 'off'}.")
        await self.ctx.service.update_settings(game.id, **{NEWS_OFF: None if on else True})
        if on:
            return announce(game, f"The news of **{game.name}** is posted here again.")
        return announce(game, f"The news of **{game.name}** is no longer posted here.")

    async def mod_tick(self, caller: Caller, ticks: int) -> Reply:
        game = await self._game(caller)
        if game.status != "running":
            raise UserError(f"Game {game.id} is {game.status}, not running.")
        if not 1 <= ticks <= MAX_FORCED_TICKS:
            raise UserError(f"Force 1 to {MAX_FORCED_TICKS} ticks (15 game minutes each).")
        before = (await self.ctx.service.summary(game.id)).tick
        await self.ctx.service.advance(game.id, ticks)
        # keep the clock's anchor: the forced ticks are ahead of the schedule, not lost (a
        # game the ticks ended has no clock to keep)
        if (await self.ctx.service.game(game.id)).status != "ended":
            await self.ctx.service.set_speed(game.id, game.clock.get("speed", 3600.0))
        after = await self.ctx.service.summary(game.id)
        return announce(
            game,
            f"A moderator moved {game.name} on {after.tick - before} ticks to {after.now()}.",
        )

    async def _nation(self, game_id: int, text: str) -> str:
        found = (await self.ctx.service.summary(game_id)).nation_named(text)
        if found is None:
            raise UserError(f"There is no nation {text!r} in this game.")
        return found

    async def mod_kick(self, caller: Caller, nation: str) -> Reply:
        game = await self._game(caller)
        nid = await self._nation(game.id, nation)
        name = (await self.ctx.service.summary(game.id)).nations[nid].name
        try:
            if game.status == "lobby":
                await self.ctx.service.leave(game.id, nid)
            else:
                await self.ctx.service.resign(game.id, nid)
        except GameError as exc:
            raise UserError(str(exc)) from None
        return announce(game, f"A moderator removed **{name}** from {game.name}.")

    async def mod_substitute(self, caller: Caller, nation: str, user_id: str) -> Reply:
        game = await self._game(caller)
        nid = await self._nation(game.id, nation)
        name = (await self.ctx.service.summary(game.id)).nations[nid].name
        try:
            await self.ctx.service.substitute(game.id, nid, user_id)
        except GameError as exc:
            raise UserError(str(exc)) from None
        return announce(game, f"<@{user_id}> now leads **{name}**.")

    async def mod_end(self, caller: Caller) -> Reply:
        game = await self._game(caller)
        if game.status not in ("running", "paused"):
            raise UserError(f"Game {game.id} is {game.status}.")
        return Reply(
            text=f"End {game.name} now? The standings as they are decide the winner.",
            confirm=await self.ctx.confirmations.ask(caller, "End the game", "mod_end", game.id),
        )

    async def confirmed_mod_end(self, caller: Caller, pending: Pending) -> Reply:
        game = await self.ctx.moderated(caller, pending.game_id)
        if game.status not in ("running", "paused"):
            raise UserError(f"Game {game.id} is {game.status}: nothing was done.")
        try:
            await self.ctx.service.end(game.id)
        except GameError as exc:
            raise UserError(str(exc)) from None
        return announce(game, f"**{game.name} has been ended by a moderator.**")

    async def mod_delete(self, caller: Caller) -> Reply:
        game = await self._game(caller, ended=True)
        return Reply(
            text=f"Delete {game.name} (game {game.id}) and its whole history? This cannot be undone.",
            confirm=await self.ctx.confirmations.ask(caller, "Delete", "mod_delete", game.id),
        )

    async def confirmed_mod_delete(self, caller: Caller, pending: Pending) -> Reply:
        game = await self.ctx.moderated(caller, pending.game_id)
        await self.ctx.service.delete_game(game.id)
        return Reply(text=f"Game {game.id} ({game.name}) and its history are deleted.")

    async def mod_view(self, caller: Caller, nation: str | None = None) -> Reply:
        """The board as a nation sees it, or everything (the game's side draws it)."""
        game = await self._game(caller, ended=True)
        summary = await self.ctx.service.summary(game.id)
        nid = await self._nation(game.id, nation) if nation else None
        return await side(game.kind).referee(self.ctx, game, summary, nid)


def announce(game, text: str) -> Reply:
    return Reply(text=text, announce=(game.channel_id or "", text), refresh_game=game.id)
