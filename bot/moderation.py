"""Moderators' actions on the game hosted in the channel: pause, resume, speed, force ticks,
kick, substitute, end, delete, and looking at any nation's view. The cog checks the caller is a
moderator (Manage Server or the configured role) before any of these run; they check again, and
act only on the game hosted in the channel where the command is typed, which must be on the
server where the caller holds the right (`Context.moderated`), and never on a game the caller
plays in (a referee who plays is a player: another moderator must do it). A game that has ended
is final: only `/mod view` and `/mod delete` act on it. Ending and deleting wait for a button;
pressing it checks the presser's rights again, as they are then."""

from __future__ import annotations

from bot.context import GAME_OVER, Caller, Context, Pending, Reply, UserError
from bot.lifecycle import SPEEDS, speed_label
from engine.errors import GameError
from engine.host.realtime import RealClock
from renderers.strategic import drawing

MAX_FORCED_TICKS = 96 * 10


class Moderation:
    ctx: Context

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
        return _announce(game, f"**{game.name} is paused** by a moderator.")

    async def mod_resume(self, caller: Caller) -> Reply:
        game = await self._game(caller)
        if not game.clock.get("paused"):
            raise UserError("The game is not paused.")
        await self.ctx.service.resume(game.id)
        return _announce(game, f"**{game.name} goes on.**")

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
        return _announce(game, f"{game.name} now runs at **{speed or speed_label(value)}** speed.")

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
        return _announce(
            game,
            f"A moderator moved {game.name} on {after.tick - before} ticks to {after.now()}.",
        )

    async def mod_deadline(self, caller: Caller, now: bool = False, hours: float = 0.0) -> Reply:
        """Supply Lines: resolve the turn (or the supply question) now, or give more time."""
        from bot.context import wrong_kind
        from engine.errors import CommandError, GameError
        from engine.supplylines.kind import MODERATOR, SetDeadline
        from engine.supplylines.state import TICKS_PER_HOUR

        game = await self._game(caller)
        if game.kind != "supply-lines":
            raise UserError(wrong_kind(game, "supply-lines"))
        if not 0 <= hours <= 7 * 24:  # (also not a number, or infinite)
            raise UserError("Give from a quarter of an hour to a week (168 hours) more.")
        if now == (hours > 0):
            raise UserError(
                "Either resolve now (`now:True`) or give more time (`hours:`), not both."
            )
        extend = round(hours * TICKS_PER_HOUR)
        if not now and not 1 <= extend <= 7 * 96:
            raise UserError("Give from a quarter of an hour to a week more.")
        try:
            await self.ctx.service.submit(
                game.id, MODERATOR, SetDeadline(now=now, extend_ticks=0 if now else extend)
            )
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        if now:
            return _announce(game, f"A moderator resolved the current phase of {game.name} now.")
        after = await self.ctx.service.summary(game.id)
        due = ""
        if after.turn is not None and after.turn.deadline_tick is not None:
            row = await self.ctx.service.game(game.id)
            at = RealClock.of_row(row, after.ticks_per_hour).real_time_of(after.turn.deadline_tick)
            due = f": the deadline is now {after.clock(after.turn.deadline_tick)}" + (
                f" (<t:{int(at)}:R>)" if at is not None else ""
            )
        return _announce(game, f"A moderator gave {game.name} {hours:g} more hours{due}.")

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
        return _announce(game, f"A moderator removed **{name}** from {game.name}.")

    async def mod_substitute(self, caller: Caller, nation: str, user_id: str) -> Reply:
        game = await self._game(caller)
        nid = await self._nation(game.id, nation)
        name = (await self.ctx.service.summary(game.id)).nations[nid].name
        try:
            await self.ctx.service.substitute(game.id, nid, user_id)
        except GameError as exc:
            raise UserError(str(exc)) from None
        return _announce(game, f"<@{user_id}> now leads **{name}**.")

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
        return _announce(game, f"**{game.name} has been ended by a moderator.**")

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
        game = await self._game(caller, ended=True)
        summary = await self.ctx.service.summary(game.id)
        if game.kind == "supply-lines":
            return await self._supply_lines_view(game, summary, nation)
        if nation:
            nid = await self._nation(game.id, nation)
            view = await self.ctx.service.view(game.id, nid)
            label = summary.nations[nid].name
        else:
            view = await self.ctx.service.full_view(game.id)
            label = "everything"
        title = f"{game.name} (game {game.id}), moderator view"
        # the whole board, each nation in its own colour (a moderator is nobody's "you")
        data = await drawing.draw_map(view, title=title, colours="nation")  # in a worker process
        return Reply(
            text=f"{label} at {view.clock} (only you see this).",
            files=[(f"mod-{game.id}-{nation or 'all'}.png", data)],
        )

    async def _supply_lines_view(self, game, summary, nation: str | None) -> Reply:
        """Supply Lines has no fog: the whole board, with every player's orders of this turn
        (a referee's view), or with one player's (as that player sees it)."""
        from renderers.supplylines import draw_board_in_pool

        if nation:
            nid = await self._nation(game.id, nation)
            view = await self.ctx.service.view(game.id, nid)
            label = f"{summary.nations[nid].name}'s board and orders"
        else:
            view = await self.ctx.service.full_view(game.id)
            label = "The board and every player's orders"
        title = f"{game.name} (game {game.id}), moderator view"
        data = await draw_board_in_pool(view, title=title)
        return Reply(
            text=f"{label} at {summary.now()} (only you see this: players' orders are secret "
            "until their turn resolves).",
            files=[(f"mod-{game.id}-{nation or 'all'}.png", data)],
        )


def _announce(game, text: str) -> Reply:
    return Reply(text=text, announce=(game.channel_id or "", text), refresh_game=game.id)
