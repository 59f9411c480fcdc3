"""What every player action starts from: who is asking (`Caller`), what they get back (`Reply`),
and finding their game and nation. No Discord types here: the cogs translate Discord into
these and back, and the sandbox uses them the same way."""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from engine.errors import CommandError, GameError
from engine.service import GameService
from engine.store import GameRow
from engine.view import View, view_for

ACTIVE = ("lobby", "running", "paused")


class UserError(Exception):
    """A clear message for the caller; nothing was changed."""


@dataclass(frozen=True)
class Caller:
    user_id: str
    name: str
    guild_id: str | None = None
    channel_id: str | None = None
    moderator: bool = False  # Manage Server or the configured moderator role (checked by the cog)


@dataclass(frozen=True)
class Confirm:
    """A button the caller must press to go on (a launch, a resignation, deleting a game)."""

    token: str
    label: str
    danger: bool = True


@dataclass
class Reply:
    text: str = ""
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = True
    confirm: Confirm | None = None
    # also say this in the game's channel (joins, starts, ...): (channel id, text)
    announce: tuple[str, str] | None = None
    # the game whose pinned status message should be refreshed
    refresh_game: int | None = None


@dataclass
class Pending:
    user_id: str
    expires: float
    action: Callable[[], Awaitable[Reply]]


class Confirmations:
    """Actions waiting for their button, by token (kept in memory: after a restart the caller
    runs the command again)."""

    def __init__(self, ttl: float = 300.0) -> None:
        self.ttl = ttl
        self._pending: dict[str, Pending] = {}

    def ask(self, user_id: str, label: str, action: Callable[[], Awaitable[Reply]]) -> Confirm:
        now = time.monotonic()
        for token in [t for t, p in self._pending.items() if p.expires < now]:
            del self._pending[token]
        token = secrets.token_hex(8)
        self._pending[token] = Pending(user_id, now + self.ttl, action)
        return Confirm(token=token, label=label)

    async def run(self, user_id: str, token: str) -> Reply:
        pending = self._pending.get(token)
        if pending is None or pending.expires < time.monotonic():
            self._pending.pop(token, None)
            raise UserError("This confirmation has expired: run the command again.")
        if pending.user_id != user_id:
            raise UserError("Only the player who asked can confirm this.")
        del self._pending[token]
        return await pending.action()


@dataclass(frozen=True)
class Seat:
    """The caller's place in a game: the game, and their nation in it (None: not playing)."""

    game: GameRow
    nation: str | None


class Context:
    """Shared by every part of the desk: the service and how to find games and nations."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.confirmations = Confirmations()

    async def game(self, game_id: int) -> GameRow:
        try:
            return await self.service.game(game_id)
        except GameError:
            raise UserError(f"There is no game {game_id}.") from None

    async def games_here(self, caller: Caller) -> list[GameRow]:
        if caller.guild_id is None:
            return []
        return await self.service.games(guild_id=caller.guild_id)

    async def seat(self, caller: Caller, game_id: int | None = None) -> Seat:
        """The game the caller means: the one given, else the one hosted in this channel,
        else the only active game they play in."""
        store = self.service.store
        if game_id is not None:
            row = await self.game(game_id)
            if caller.guild_id is not None and row.guild_id not in (None, caller.guild_id):
                raise UserError(f"Game {game_id} is not on this server.")
        else:
            row = await self._channel_game(caller)
            if row is None:
                mine = []
                for gid, _nation in await store.memberships(caller.user_id):
                    candidate = await store.game(gid)
                    if candidate is not None and candidate.status in ACTIVE:
                        mine.append(candidate)
                if not mine:
                    raise UserError(
                        "You are not in a game. Use `/game join` in a game's channel, or "
                        "`/game create` to start one."
                    )
                if len(mine) > 1:
                    names = ", ".join(f"{g.id} ({g.name})" for g in mine)
                    raise UserError(
                        f"You play in several games ({names}): use the command in the game's "
                        "channel."
                    )
                row = mine[0]
        members = await store.members(row.id)
        nation = next((n for n, user in members.items() if user == caller.user_id), None)
        return Seat(row, nation)

    async def _channel_game(self, caller: Caller) -> GameRow | None:
        if caller.channel_id is None or caller.guild_id is None:
            return None
        rows = [
            g
            for g in await self.service.games(guild_id=caller.guild_id)
            if g.channel_id == caller.channel_id
        ]
        active = [g for g in rows if g.status in ACTIVE]
        return (active or rows or [None])[-1]

    async def playing(self, caller: Caller, game_id: int | None = None) -> tuple[Seat, str]:
        """The caller's seat where they must have a nation that is still in the game."""
        seat = await self.seat(caller, game_id)
        if seat.nation is None:
            raise UserError(
                f"You do not play in game {seat.game.id} ({seat.game.name}). "
                "Use `/game join` to take a nation."
            )
        world = await self.service.world(seat.game.id)
        nation = world.nations.get(seat.nation)
        if nation is None:
            raise UserError("Your nation is no longer in this game.")
        if nation.out:
            raise UserError(f"{nation.name} is out of the game.")
        return seat, seat.nation

    async def view(self, game_id: int, nation: str) -> View:
        return view_for(await self.service.world(game_id), nation)


def explain(exc: Exception) -> str:
    """The text a player sees for a rejected action."""
    if isinstance(exc, UserError | CommandError | GameError):
        return str(exc)
    return "Something went wrong on our side and it has been logged. Check with /status before trying again."
