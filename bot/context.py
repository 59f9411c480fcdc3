"""What every player action starts from: who is asking (`Caller`), what they get back (`Reply`),
and finding their game and nation. No Discord types here: the cogs translate Discord into
these and back, and the sandbox uses them the same way."""

from __future__ import annotations

import contextlib
import re
import secrets
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from bot.errors import UserError
from bot.game_side import side
from bot.store import BotStore
from engine.errors import CommandError, GameError
from engine.host.rows import GameRow
from engine.host.service import GameService

ACTIVE = ("lobby", "running", "paused")
# a lobby or moderator action on a game that has ended: its result is final
GAME_OVER = "Game {game} is over: its result is final; it can only be read, or deleted."
# a moderator's command on a game they play in (a referee who plays is a player)
PLAYING_REFEREE = (
    "You play in game {game}: a moderator who plays has no moderator's view or power over "
    "that game, so another moderator of this server must do it."
)


# the seats one command has looked up (`Context.one_command`)
_SEATS: ContextVar[dict[tuple[Any, ...], Seat] | None] = ContextVar("seats", default=None)


@dataclass(frozen=True)
class ChannelAccess:
    """What the bot may not do in the caller's channel (Discord's names of the permissions,
    with why it needs each): `blocking` a game cannot run without, `other` it runs without,
    missing what they give (`bot.permissions`)."""

    blocking: tuple[str, ...] = ()
    other: tuple[str, ...] = ()


@dataclass(frozen=True)
class Caller:
    user_id: str
    name: str
    guild_id: str | None = None
    channel_id: str | None = None
    moderator: bool = False  # Manage Server or the configured moderator role (checked by the cog)
    access: ChannelAccess | None = None  # the bot's permissions here (None: not known)


@dataclass(frozen=True)
class Confirm:
    """A button the caller must press to go on (a launch, a resignation, deleting a game)."""

    token: str
    label: str
    danger: bool = True


@dataclass(frozen=True)
class Embed:
    """A card (a Discord embed): a title, text, and short named values side by side. The
    sandbox prints it as text; Discord's limits (title 256, description 4096, 25 fields of
    256/1024 characters, 6000 in all) are kept by the cog's translation."""

    title: str
    description: str = ""
    fields: tuple[tuple[str, str], ...] = ()  # (name, value), shown side by side
    colour: int | None = None  # 0xRRGGBB: the nation's colour
    footer: str = ""

    def as_text(self) -> str:
        """The same card as plain lines (the sandbox, logs)."""
        lines = [f"**{self.title}**"]
        if self.description:
            lines.append(self.description)
        lines.extend(f"{name}: {value.replace(chr(10), '; ')}" for name, value in self.fields)
        if self.footer:
            lines.append(self.footer)
        return "\n".join(lines)


@dataclass(frozen=True)
class Button:
    """A button under a reply that runs a desk action again with other arguments (the map's
    zoom, for one): `action` names it, `args` are what the desk needs, kept in the button's
    custom id (at most 100 characters) so it works after a restart."""

    label: str
    action: str
    args: str


@dataclass
class Reply:
    text: str = ""
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = True
    confirm: Confirm | None = None
    embed: Embed | None = None
    buttons: list[Button] = field(default_factory=list)

    @property
    def full_text(self) -> str:
        """The text and the card, as plain lines (the sandbox, tests, logs)."""
        card = self.embed.as_text() if self.embed is not None else ""
        return "\n".join(part for part in (self.text, card) if part)

    # also say this in the game's channel (joins, starts, ...): (channel id, text)
    announce: tuple[str, str] | None = None
    # the game whose pinned status message should be refreshed
    refresh_game: int | None = None


# what a pressed button says when its action cannot run
UNKNOWN_CONFIRMATION = (
    "This button is no longer valid (it was used already, or its game is gone): "
    "run the command again."
)
EXPIRED_CONFIRMATION = "This confirmation has expired: run the command again."


@dataclass(frozen=True)
class Pending:
    """An action waiting for its button, as a description (never a closure): the kind of
    action and its arguments, so it can be re-created after a restart."""

    token: str
    user_id: str
    game_id: int | None
    kind: str
    args: dict[str, Any]


class Confirmations:
    """Actions waiting for their button, kept in the database by token (so a button still
    works after a restart). Pressing it hands back the description; the desk then checks the
    presser's rights against the game as it is now and only then acts."""

    def __init__(
        self, store: BotStore, ttl: float = 300.0, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.ttl = ttl
        self.clock = clock

    async def ask(
        self,
        caller: Caller,
        label: str,
        kind: str,
        game_id: int | None,
        *,
        danger: bool = True,
        **args: Any,
    ) -> Confirm:
        now = self.clock()
        token = secrets.token_hex(8)
        await self.store.add_confirmation(
            token,
            user_id=caller.user_id,
            game_id=game_id,
            kind=kind,
            args=args,
            expires_at=now + self.ttl,
            now=now,
        )
        return Confirm(token=token, label=label, danger=danger)

    async def claim(self, caller: Caller, token: str) -> Pending:
        """The action behind a pressed button, taken out of the store (it runs at most once).
        Only the caller who asked may press it; an unknown or expired one is a clear error."""
        if not re.fullmatch(r"[0-9a-f]{1,64}", token):  # `ask` makes hex: not one of ours
            raise UserError(UNKNOWN_CONFIRMATION)
        row = await self.store.confirmation(token)
        if row is None:
            raise UserError(UNKNOWN_CONFIRMATION)
        if row.expires_at < self.clock():
            await self.store.take_confirmation(token)
            raise UserError(EXPIRED_CONFIRMATION)
        if row.user_id != caller.user_id:
            raise UserError("Only the player who asked can confirm this.")
        if not await self.store.take_confirmation(token):
            raise UserError(UNKNOWN_CONFIRMATION)
        return Pending(row.token, row.user_id, row.game_id, row.kind, row.args)


@dataclass(frozen=True)
class Seat:
    """The caller's place in a game: the game, and their nation in it (None: not playing)."""

    game: GameRow
    nation: str | None


class Context:
    """Shared by every part of the desk: the service and how to find games and nations."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.confirmations = Confirmations(BotStore.of(service.store))

    async def game(self, game_id: int) -> GameRow:
        if not 0 < game_id < 2**63:  # (a game's id is a positive SQL integer)
            raise UserError("There is no game of that number.")
        try:
            return await self.service.game(game_id)
        except GameError:
            raise UserError(f"There is no game {game_id}.") from None

    async def games_here(self, caller: Caller) -> list[GameRow]:
        if caller.guild_id is None:
            return []
        return await self.service.games(guild_id=caller.guild_id)

    @contextlib.contextmanager
    def one_command(self) -> Iterator[None]:
        """Within it, one command: the caller's seat is looked up once, however often the
        command's parts ask (an order asks for its view, its submission and its reply)."""
        token = _SEATS.set({})
        try:
            yield
        finally:
            _SEATS.reset(token)

    async def seat(self, caller: Caller, game_id: int | None = None) -> Seat:
        """The game the caller means: the one given, else the one hosted in this channel,
        else the only active game they play in (on any server: a player's own orders follow
        them). It grants no right: moderators' rights come from `moderated`/`moderates`."""
        looked = _SEATS.get()
        key = (caller.user_id, caller.guild_id, caller.channel_id, game_id)
        if looked is not None and key in looked:
            return looked[key]
        found = await self._seat(caller, game_id)
        if looked is not None:
            looked[key] = found
        return found

    async def _seat(self, caller: Caller, game_id: int | None) -> Seat:
        service = self.service
        row: GameRow | None
        if game_id is not None:
            row = await self.game(game_id)
            if caller.guild_id is not None and row.guild_id not in (None, caller.guild_id):
                raise UserError(f"Game {game_id} is not on this server.")
        else:
            row = await self._channel_game(caller)
            if row is None:
                mine = []
                for gid, _nation in await service.memberships(caller.user_id):
                    candidate = await service.find_game(gid)
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
        members = await service.members(row.id)
        nation = next((n for n, user in members.items() if user == caller.user_id), None)
        return Seat(row, nation)

    async def _channel_game(self, caller: Caller) -> GameRow | None:
        if caller.channel_id is None or caller.guild_id is None:
            return None
        rows = await self.service.games(guild_id=caller.guild_id, channel_id=caller.channel_id)
        active = [g for g in rows if g.status in ACTIVE]
        found = active or rows
        return found[-1] if found else None

    # --- authority ------------------------------------------------------------------------------

    @staticmethod
    def moderates(caller: Caller, game: GameRow) -> bool:
        """Whether the caller holds moderator rights over this game: rights are held on a
        server (Manage Server or the moderator role there), so they reach only the games that
        server hosts. A game with no server (made with the service directly, e.g. by the CLI or
        a test) is moderated by no one through the desk."""
        return (
            caller.moderator
            and caller.guild_id is not None
            and game.guild_id is not None
            and game.guild_id == caller.guild_id
        )

    async def moderated(self, caller: Caller, game_id: int | None = None) -> GameRow:
        """The game a moderator command acts on: the one hosted in the channel where it is
        typed (never the caller's "one active game", which may be on another server), or the
        one given (a pending confirmation), checked against the caller's rights as they are."""
        if not caller.moderator:
            raise UserError("Only moderators (Manage Server, or the moderator role) can do that.")
        if game_id is None:
            row = await self._channel_game(caller)
            if row is None:
                raise UserError(
                    "There is no game in this channel: moderator commands act on the game "
                    "hosted in the channel where you type them."
                )
        else:
            found = await self.service.find_game(game_id)
            if found is None:
                raise UserError(f"Game {game_id} no longer exists: nothing was done.")
            row = found
        if not self.moderates(caller, row):
            raise UserError(
                f"Game {row.id} is not hosted on this server: moderators act only on their own "
                "server's games."
            )
        if await self.plays_in(caller, row):
            raise UserError(PLAYING_REFEREE.format(game=row.id))
        return row

    async def plays_in(self, caller: Caller, game: GameRow) -> bool:
        """Whether the caller leads a nation in the game (in it or out) beside another person:
        a moderator who does is a player there, with no moderator's view or power over it
        (docs/ARCHITECTURE.md, "Authority"). Alone with AI nations (the sandbox) there is
        nobody to gain over."""
        players = set((await self.service.members(game.id)).values())
        return caller.user_id in players and len(players) > 1

    async def owner(self, caller: Caller, game_id: int | None, nation: str) -> Seat:
        """For a pending confirmation: the caller still leads this nation in this game (not
        handed to someone else meanwhile), and the nation is still in the game."""
        row = await self.service.find_game(game_id) if game_id is not None else None
        if row is None:
            raise UserError(f"Game {game_id} no longer exists: nothing was done.")
        members = await self.service.members(row.id)
        found = (await self.service.summary(row.id)).nations.get(nation)
        name = found.name if found is not None else nation
        if members.get(nation) != caller.user_id:
            raise UserError(f"You no longer lead {name} in game {row.id}: nothing was done.")
        if found is None or found.out:
            raise UserError(f"{name} is out of the game: nothing was done.")
        return Seat(row, nation)

    async def playing(
        self, caller: Caller, game_id: int | None = None, *, kind: str | None
    ) -> tuple[Seat, str]:
        """The caller's seat where they must have a nation that is still in the game, in a
        game of this kind (each game's commands are its own; None: a command every game
        has, such as resigning)."""
        seat = await self.seat(caller, game_id)
        if kind is not None and seat.game.kind != kind:
            raise UserError(wrong_kind(seat.game, kind))
        if seat.nation is None:
            raise UserError(
                f"You do not play in game {seat.game.id} ({seat.game.name}). "
                "Use `/game join` to take a nation."
            )
        nation = (await self.service.summary(seat.game.id)).nations.get(seat.nation)
        if nation is None:
            raise UserError("Your nation is no longer in this game.")
        if nation.out:
            raise UserError(f"{nation.name} is out of the game.")
        return seat, seat.nation

    async def view(self, game_id: int, nation: str) -> Any:
        return await self.service.view(game_id, nation)


def wrong_kind(game: GameRow, wanted: str) -> str:
    """Why a command of one game does not act on a game of another (and what that game's
    players use instead)."""
    from engine.interface.kind import kind as kind_of

    title, other = kind_of(game.kind).title, kind_of(wanted).title
    hint = side(game.kind).words.hint
    return (
        f"{game.name} (game {game.id}) is a {title} game, and this command is for {other} "
        f"games" + (f": {hint}." if hint else ".")
    )


def explain(exc: Exception) -> str:
    """The text a player sees for a rejected action: a sentence (docs/MESSAGES.md)."""
    if isinstance(exc, UserError | CommandError | GameError):
        return sentence(str(exc))
    return "Something went wrong on our side and it has been logged. Check with /status before trying again."


def sentence(text: str) -> str:
    """A message as docs/MESSAGES.md wants it: a capital first and a full stop (or ! or ?) at
    the end, the engine's lower-case clauses included ("there is already a city at 3,4")."""
    text = text.strip()
    if not text:
        return text
    if text[0].islower():
        text = text[0].upper() + text[1:]
    if text[-1] not in ".!?":
        text += "."
    return text
