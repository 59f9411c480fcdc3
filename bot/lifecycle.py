"""Games: create, join, leave, start, resign, list, info, and the pinned status text."""

from __future__ import annotations

from typing import Any

from bot.actions import Actions
from bot.context import (
    ACTIVE,
    GAME_OVER,
    Caller,
    Context,
    Pending,
    Reply,
    UserError,
    sentence,
)
from bot.founding import APART, check_name, choose_colour, closest
from bot.game_side import side
from bot.paging import NEXT, Listing, more, page_buttons, summarised, window
from engine.errors import GameError
from engine.host.realtime import RealClock
from engine.host.rows import GameRow
from engine.interface import colours
from engine.interface.entries import AI_PLAYER
from engine.interface.kind import DEFAULT_KIND, KINDS
from engine.interface.kind import kind as kind_of
from engine.interface.summary import GameSummary


def ai_levels(kind: str) -> tuple[str, ...]:
    """The AI levels a game of this kind offers (`/game add-ai level:`); none without an AI."""
    ai = kind_of(kind).ai
    return ai.levels if ai is not None else ()


# every game's AI levels: the command's choices (each game refuses the levels it has not)
LEVELS = tuple(dict.fromkeys(level for k in KINDS for level in ai_levels(k)))

# speed presets: real seconds per game hour
SPEEDS: dict[str, float] = {
    "real-time": 3600.0,
    "fast (x4)": 900.0,
    "blitz (x12)": 300.0,
    "test (x360)": 10.0,
}
AUTOCOMPLETE_LIMIT = 25  # Discord's
GAMES_PAGE = 10  # games a page of /game list


CARETAKER = "caretaker"  # the AI style that keeps a player's seat while they are away


# a moderator's share of a creator's power, on a game the moderator plays in (not its creator)
_REFEREE = (
    "You play in game {game}: a moderator who plays has no moderator's power over it, so only "
    "its creator or another moderator of this server can {what}."
)


def _lacking(caller: Caller) -> str:
    """A new game's note of what the bot may not do in its channel (it runs without)."""
    if caller.access is None or not caller.access.other:
        return ""
    return (
        "\nNote: I lack " + "; ".join(caller.access.other) + " here. A moderator can allow it "
        "in the channel's settings (Edit Channel > Permissions)."
    )


def speed_label(seconds_per_hour: float) -> str:
    for name, value in SPEEDS.items():
        if abs(value - seconds_per_hour) < 1e-9:
            return name
    return f"{3600 / seconds_per_hour:g}x real time"


class Lifecycle:
    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx
        actions.confirmation("resign", self.confirmed_resign)
        actions.pages("games", self.game_list)
        actions.pages("info", self.game_info)

    async def game_create(
        self,
        caller: Caller,
        name: str,
        *,
        kind: str = DEFAULT_KIND,
        speed: str = "real-time",
        days: int | None = None,
        **options: Any,
    ) -> Reply:
        """A new game in the caller's channel: its name, speed and length are every game's;
        the other options are its game's own (`GameSide.creation` checks them)."""
        from bot.game_side import side

        if caller.guild_id is None or caller.channel_id is None:
            raise UserError("Create games in a server channel: the channel becomes the game's.")
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise UserError("A game's name is 1 to 40 characters.")
        from bot.parsing import readable

        if not readable(name):
            raise UserError(f"{name!r} has characters that are not text: name the game again.")
        if kind not in KINDS:
            raise UserError(f"There is no game {kind!r}: choose {', '.join(KINDS)}.")
        game_side = side(kind)
        if speed not in SPEEDS:
            raise UserError(f"Speeds are: {', '.join(SPEEDS)}.")
        creation = game_side.creation(options, days=days)
        await self._one_game_here(caller)
        try:
            game_id = await self.ctx.service.create_game(
                name=name,
                kind=kind,
                speed=SPEEDS[speed],
                guild_id=caller.guild_id,
                channel_id=caller.channel_id,
                created_by=caller.user_id,
                **creation.options,
            )
        except GameError as exc:
            raise UserError(sentence(str(exc))) from None
        summary = await self.ctx.service.summary(game_id)
        text = (
            f"**{name}** (game {game_id}) is open in this channel: "
            f"{creation.describe(summary, speed)}. Join with `/game join`; it starts when full "
            "or with `/game start`."
        ) + _lacking(caller)
        return Reply(text=text, ephemeral=False, refresh_game=game_id)

    async def _one_game_here(self, caller: Caller) -> None:
        access = caller.access
        if access is not None and access.blocking:
            raise UserError(
                "I cannot run a game in this channel: I lack "
                + "; ".join(access.blocking)
                + ". A moderator can allow these for me in the channel's settings "
                "(Edit Channel > Permissions), then create the game again."
            )
        here = [
            g
            for g in await self.ctx.games_here(caller)
            if g.channel_id == caller.channel_id and g.status in ACTIVE
        ]
        if here:
            raise UserError(
                f"This channel already hosts game {here[0].id} ({here[0].name}); "
                "one active game per channel."
            )

    async def game_join(
        self,
        caller: Caller,
        name: str,
        colour: str | None = None,
        *,
        leader: str | None = None,
        title: str | None = None,
        home: str | None = None,
    ) -> Reply:
        """The caller founds a nation in the channel's game: its name and colour, and what the
        game lets a founder choose besides (`GameSide.founding`: a leader, a title, a home),
        all checked before the service is asked."""
        name = check_name(name)
        seat = await self.ctx.seat(caller)
        game = seat.game
        if seat.nation is not None:
            raise UserError(f"You already play {seat.nation} in game {game.id}.")
        if game.status != "lobby":
            raise UserError(
                f"Game {game.id} has {'started' if game.status != 'ended' else 'ended'}; "
                "nations join before the start."
            )
        founding = side(game.kind).founding({"leader": leader, "title": title, "home": home})
        before = await self.ctx.service.summary(game.id)
        if any(n.name.lower() == name.lower() for n in before.nations.values()):
            raise UserError(f"The name {name} is taken in this game: choose another.")
        chosen = choose_colour(colour, [n.colour for n in before.nations.values()])
        try:
            nid = await self.ctx.service.join(
                game.id, name=name, colour=chosen, player=caller.user_id, founding=founding
            )
        except GameError as exc:
            raise UserError(sentence(str(exc))) from None
        summary = await self.ctx.service.summary(game.id)
        joined, full = len(summary.nations), summary.seats
        view = await self.ctx.service.view(game.id, nid)
        text = side(game.kind).joined(view, nid, name, game)
        started = (await self.ctx.service.game(game.id)).status == "running"
        if started:
            text += " The game is full and has started: good luck!"
        shown = summary.nations[nid].shown if nid in summary.nations else name
        announce = f"**{shown}** joins {game.name} ({joined}/{full})." + (
            " The game is full: **it has started!**" if started else ""
        )
        return Reply(text=text, announce=(game.channel_id or "", announce), refresh_game=game.id)

    async def choose_colours(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """The palette's colours still free in the caller's game (none too close to a taken
        one), matching what is typed."""
        typed = current.strip().lower()
        taken: list[str] = []
        try:
            seat = await self.ctx.seat(caller)
            summary = await self.ctx.service.summary(seat.game.id)
            taken = [n.colour for n in summary.nations.values()]
        except UserError:
            pass
        return [
            (f"{name} ({hexa})", name)
            for name, hexa in colours.PALETTE.items()
            if typed in name and closest(hexa, taken)[0] >= APART
        ][:AUTOCOMPLETE_LIMIT]

    async def choose_homes(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """Where a new nation may start in the caller's game (its game's suggestions)."""
        try:
            seat = await self.ctx.seat(caller)
        except UserError:
            return []
        return (await side(seat.game.kind).homes(self.ctx, caller, current))[:AUTOCOMPLETE_LIMIT]

    async def game_add_ai(
        self, caller: Caller, name: str, colour: str | None = None, level: str = "normal"
    ) -> Reply:
        """The creator or a moderator fills a seat with an AI nation (before the start)."""
        if level not in LEVELS:
            raise UserError(f"An AI's level is one of: {', '.join(LEVELS)}.")

        seat = await self.ctx.seat(caller)
        game = seat.game
        levels = ai_levels(game.kind)
        if level not in levels:
            title = kind_of(game.kind).title
            raise UserError(
                f"{title} has no AI players."
                if not levels
                else f"{title} has one AI level, {levels[0]}: leave `level` out for it."
                if len(levels) == 1
                else f"The AI levels of {title} are {', '.join(levels)}."
            )
        if caller.user_id != game.created_by and not self.ctx.moderates(caller, game):
            raise UserError(
                "Only the game's creator or a moderator of its server can add AI nations."
            )
        if caller.user_id != game.created_by and await self.ctx.plays_in(caller, game):
            raise UserError(_REFEREE.format(game=game.id, what="add AI nations"))
        if game.status == "ended":
            raise UserError(GAME_OVER.format(game=game.id))
        if game.status != "lobby":
            raise UserError("AI nations join before the start.")
        name = check_name(name)
        taken = [n.colour for n in (await self.ctx.service.summary(game.id)).nations.values()]
        chosen = choose_colour(colour, taken)
        try:
            nid = await self.ctx.service.join(game.id, name=name, colour=chosen, player=AI_PLAYER)
        except GameError as exc:
            raise UserError(str(exc)) from None
        row = await self.ctx.service.game(game.id)
        await self.ctx.service.update_settings(
            game.id, ai={**row.settings.get("ai", {}), nid: level}
        )
        started = (await self.ctx.service.game(game.id)).status == "running"
        who = "AI" if level == "normal" else f"AI, {level}"
        text = f"**{name}** ({who}) joins {game.name}." + (
            " The game is full: **it has started!**" if started else ""
        )
        return Reply(text=text, announce=(game.channel_id or "", text), refresh_game=game.id)

    async def game_caretaker(self, caller: Caller, on: bool) -> Reply:
        """A player hands their nation to the AI while away (defence first), or takes it back."""
        seat, nation = await self.ctx.playing(caller, kind=None)
        if seat.game.status == "ended":
            raise UserError(GAME_OVER.format(game=seat.game.id))
        ai = kind_of(seat.game.kind).ai
        if ai is None or CARETAKER not in ai.styles:
            raise UserError(f"{kind_of(seat.game.kind).title} games have no AI caretaker.")
        row = await self.ctx.service.game(seat.game.id)
        seats = dict(row.settings.get("ai", {}))
        if on:
            seats[nation] = CARETAKER
            text = side(seat.game.kind).words.caretaker
        else:
            if seats.get(nation) != CARETAKER:
                raise UserError("Your nation is not in the AI's care.")
            del seats[nation]
            text = side(seat.game.kind).words.rejoined
        await self.ctx.service.update_settings(seat.game.id, ai=seats)
        return Reply(text=text, refresh_game=seat.game.id)

    async def game_leave(self, caller: Caller) -> Reply:
        seat, nation = await self.ctx.playing(caller, kind=None)
        if seat.game.status == "ended":
            raise UserError(GAME_OVER.format(game=seat.game.id))
        if seat.game.status != "lobby":
            raise UserError("The game has started: use `/game resign` to give up.")
        name = (await self.ctx.service.summary(seat.game.id)).nations[nation].name
        await self.ctx.service.leave(seat.game.id, nation)
        return Reply(
            text=f"You left {seat.game.name}.",
            announce=(seat.game.channel_id or "", f"**{name}** left {seat.game.name}."),
            refresh_game=seat.game.id,
        )

    async def game_start(self, caller: Caller) -> Reply:
        seat = await self.ctx.seat(caller)
        game = seat.game
        if game.status != "lobby":
            raise UserError(f"Game {game.id} is {game.status}, not waiting to start.")
        if caller.user_id != game.created_by and not self.ctx.moderates(caller, game):
            raise UserError("Only the game's creator or a moderator of its server can start it.")
        if caller.user_id != game.created_by and await self.ctx.plays_in(caller, game):
            raise UserError(_REFEREE.format(game=game.id, what="start it"))
        nations = len((await self.ctx.service.summary(game.id)).nations)
        if nations < 2:
            raise UserError("A game needs at least two nations to start.")
        await self.ctx.service.start(game.id)
        return Reply(
            text=f"{game.name} has started.",
            announce=(
                game.channel_id or "",
                f"**{game.name} has started** with {nations} nations. Check your DMs for your map.",
            ),
            refresh_game=game.id,
        )

    async def game_resign(self, caller: Caller) -> Reply:
        seat, nation = await self.ctx.playing(caller, kind=None)
        if seat.game.status == "ended":
            raise UserError(GAME_OVER.format(game=seat.game.id))
        if seat.game.status not in ("running", "paused"):
            raise UserError("Only a running game can be resigned from; leave the lobby instead.")
        name = (await self.ctx.service.summary(seat.game.id)).nations[nation].name
        confirm = await self.ctx.confirmations.ask(
            caller, "Resign", "resign", seat.game.id, nation=nation
        )
        return Reply(
            text=f"Resign {name}? " + side(seat.game.kind).words.resigning,
            confirm=confirm,
        )

    async def confirmed_resign(self, caller: Caller, pending: Pending) -> Reply:
        """The resign button: the presser must still lead the nation (not substituted or
        kicked meanwhile) and the game must still be running."""
        nation: str = pending.args["nation"]
        seat = await self.ctx.owner(caller, pending.game_id, nation)
        if seat.game.status not in ("running", "paused"):
            raise UserError(f"Game {seat.game.id} is {seat.game.status}: nothing was done.")
        name = (await self.ctx.service.summary(seat.game.id)).nations[nation].name
        try:
            await self.ctx.service.resign(seat.game.id, nation)
        except GameError as exc:
            raise UserError(str(exc)) from None
        return Reply(
            text=f"{name} has resigned.",
            announce=(seat.game.channel_id or "", f"**{name}** has resigned."),
            refresh_game=seat.game.id,
        )

    async def game_list(
        self, caller: Caller, *, page: int = 1, game_id: int | None = None
    ) -> Reply:
        """The server's games, newest first, `GAMES_PAGE` a page (only the page's games are
        read); `game_id` is unused (a page button's arguments name no game)."""
        rows = await self.ctx.games_here(caller)
        if not rows:
            return Reply(text="No games on this server yet: `/game create` starts one.")
        rows = rows[::-1]
        page, pages, first = window(len(rows), GAMES_PAGE, page)
        shown = rows[first : first + GAMES_PAGE]
        lines = [
            f"**Games on this server** ({len(rows)}, newest first"
            + (f", page {page}/{pages}" if pages > 1 else "")
            + "):"
        ]
        for g in shown:
            summary = await self.ctx.service.summary(g.id)
            lines.append(
                f"**{g.id}** {g.name}: {g.status}, {len(summary.nations)}/{summary.seats} "
                f"nations, {summary.now()}" + (f" in <#{g.channel_id}>" if g.channel_id else "")
            )
        left = len(rows) - first - len(shown)
        if left:
            lines.append(f"… and {more(left, 'game')} (page {page}/{pages}: {NEXT})")
        return Reply(text="\n".join(lines), buttons=page_buttons("games", page, pages))

    async def game_info(
        self, caller: Caller, *, page: int = 1, game_id: int | None = None
    ) -> Reply:
        """The status of the caller's game with every nation, a page at a time (the pinned
        status names as many as fit in one message)."""
        seat = await self.ctx.seat(caller, game_id)
        head, nations, tail = await self._status_parts(seat.game.id)
        listing = Listing(head, nations, "nation", f"info:{seat.game.id}", tail=tail)
        return listing.reply(page)

    @staticmethod
    def _due(row: GameRow, game: GameSummary) -> str:
        """When a turn's deadline comes in real time, as Discord shows it to each reader in
        their own time zone (nothing for a game in continuous time or whose clock stands
        still: the game clock says it then)."""
        if game.turn is None or game.turn.deadline_tick is None or game.ended:
            return ""
        at = RealClock.of_row(row, game.ticks_per_hour).real_time_of(game.turn.deadline_tick)
        return f"<t:{int(at)}:f> (<t:{int(at)}:R>)" if at is not None else ""

    async def status_board(self, game_id: int) -> str:
        """The pinned status message of a game: public facts only, one message by design (a
        game of 32 nations names as many as fit, then how many more and where to see them)."""
        head, nations, tail = await self._status_parts(game_id)
        return summarised(head, nations, "nation", "`/game info` lists them all", tail=tail)

    async def _status_parts(self, game_id: int) -> tuple[str, list[str], str]:
        """The status of a game: its heading, a line for each nation, what to do next."""
        row: GameRow = await self.ctx.service.game(game_id)
        game = await self.ctx.service.summary(game_id)
        members = await self.ctx.service.members(game_id)
        clock = row.clock
        due = self._due(row, game)
        lines = [
            f"**{row.name}** (game {row.id}) - {game.rules_title} rules, "
            f"{game.board}, {game.length()}",
            f"Status: **{row.status}**"
            + (" (paused)" if clock.get("paused") and row.status == "running" else "")
            + f" - {game.now(due) if due else game.now()} - speed "
            + speed_label(clock.get("speed", 3600.0)),
        ]
        if game.turn is not None and game.turn.waiting:
            late = [game.nations[n].name for n in game.turn.waiting if n in game.nations]
            lines.append(f"Waiting for: {', '.join(late)}")
        lines.append(f"Nations ({len(game.nations)}/{game.seats}):")
        nations = []
        ai = row.settings.get("ai", {})
        for n in game.nations.values():
            who = f"<@{members[n.id]}>" if n.id in members else "no player"
            if ai.get(n.id) == "caretaker":
                who += " (AI caretaker)"
            elif n.id in ai:
                who = "AI"
            nations.append(f"- **{n.shown}** - {who}" + (" - out" if n.out else ""))
        tail = ""
        if row.status == "lobby":
            tail = "Join with `/game join`; the creator or a moderator starts it."
        return "\n".join(lines), nations, tail
