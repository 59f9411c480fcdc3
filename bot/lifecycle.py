"""Games: create, join, leave, start, resign, list, info, and the pinned status text."""

from __future__ import annotations

from bot.context import (
    ACTIVE,
    DEFAULT_KIND,
    GAME_OVER,
    Caller,
    Context,
    Pending,
    Reply,
    UserError,
)
from bot.paging import NEXT, Listing, more, page_buttons, summarised, window
from engine.errors import GameError
from engine.host.realtime import RealClock
from engine.host.rows import GameRow
from engine.interface.kind import kind as kind_of
from engine.interface.summary import GameSummary
from engine.strategic import colours
from engine.strategic.rules import available
from engine.strategic.rules import load as load_rules
from engine.strategic.words import article

# the games a server can host (`/game create kind:`)
GAME_KINDS = ("strategic-initiative", "supply-lines")


def ai_levels(kind: str) -> tuple[str, ...]:
    """The AI levels a game of this kind offers (`/game add-ai level:`); none without an AI."""
    ai = kind_of(kind).ai
    return ai.levels if ai is not None else ()


# every kind's AI levels: the command's choices (each game refuses the levels its kind has not)
LEVELS = tuple(dict.fromkeys(level for k in GAME_KINDS for level in ai_levels(k)))

# speed presets: real seconds per game hour
SPEEDS: dict[str, float] = {
    "real-time": 3600.0,
    "fast (x4)": 900.0,
    "blitz (x12)": 300.0,
    "test (x360)": 10.0,
}
SIZES = ("auto", "small", "medium", "large")
_SIZE_FACTOR = {"small": 0.8, "medium": 1.0, "large": 1.25}
GAMES_PAGE = 10  # games a page of /game list


CARETAKER = "caretaker"  # the AI style that keeps a player's seat while they are away
CARETAKER_DOES = {
    "strategic-initiative": (
        "The AI looks after your nation while you are away: it builds, garrisons and "
        "defends, but starts no wars and sends nobody abroad. `/game caretaker on:False` "
        "takes it back."
    ),
    "supply-lines": (
        "The AI gives your orders while you are away: it builds, defends, answers supply "
        "questions and takes empty neutral structures, but attacks no other player. "
        "`/game caretaker on:False` takes it back (your orders for the turn, if it gave "
        "them already, stay until you change them)."
    ),
}


RESIGNING = {  # what resigning does, by game kind
    "strategic-initiative": "Your units disband and your cities become neutral.",
    "supply-lines": (
        "You concede at once: your structures and units become neutral, and you are out "
        "of the game."
    ),
}


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


def map_choices() -> list[tuple[str, str]]:
    """`/game create map:`: Supply Lines' hand-made maps (with their players) and the
    generated ones."""
    from engine.supplylines.board import available, load_map
    from engine.supplylines.rules import load as load_sl_rules

    rules = load_sl_rules()
    made = [(m, load_map(m, rules).seats) for m in available()]
    return [
        *((f"{m} ({n} players)", m) for m, n in sorted(made, key=lambda x: (x[1], x[0]))),
        ("random (a fair generated map for nations: players)", "random"),
        ("random-small", "random-small"),
        ("random-large", "random-large"),
    ]


def _sl_seats(map_name: str, players: int | None) -> int:
    """The players of a Supply Lines game on `map_name`: a hand-made map's seats, else the
    number asked for (a generated map is made for it)."""
    from engine.supplylines.board import available, load_map
    from engine.supplylines.kind import RANDOM_MAP
    from engine.supplylines.rules import load as load_sl_rules

    if RANDOM_MAP.match(map_name):
        if players is not None and not 2 <= players <= 6:
            raise UserError("Random maps are for 2 to 6 players.")
        return 4 if players is None else players
    if map_name not in available():
        raise UserError(
            f"There is no Supply Lines map {map_name!r}: choose {', '.join(available())} or "
            "random (random-small, random-large)."
        )
    seats = load_map(map_name, load_sl_rules()).seats
    if players is not None and players != seats:
        raise UserError(f"The map {map_name} is for {seats} players, not {players}.")
    return seats


class Lifecycle:
    ctx: Context

    async def game_create(
        self,
        caller: Caller,
        name: str,
        *,
        ruleset: str = "standard",
        nations: int | None = None,
        size: str = "auto",
        speed: str = "real-time",
        days: int | None = None,
        kind: str = "strategic-initiative",
        turn_hours: float | None = None,
        map_name: str | None = None,
    ) -> Reply:
        from engine.strategic.kind import MAX_NATIONS, MIN_NATIONS
        from engine.strategic.mapgen import default_size

        if caller.guild_id is None or caller.channel_id is None:
            raise UserError("Create games in a server channel: the channel becomes the game's.")
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise UserError("A game's name is 1 to 40 characters.")
        from bot.parsing import readable

        if not readable(name):
            raise UserError(f"{name!r} has characters that are not text: name the game again.")
        if kind == "supply-lines":
            from engine.supplylines.rules import available as sl_rulesets

            if ruleset not in sl_rulesets():
                raise UserError(
                    f"Supply Lines has the rules {', '.join(sl_rulesets())}, not {ruleset!r}."
                )
            if size != "auto":
                raise UserError(
                    "Supply Lines' maps are chosen with map: (random-small or random-large for "
                    "a generated map of that size)."
                )
            return await self._create_supply_lines(
                caller, name, nations, speed, turn_hours, days, map_name
            )
        if kind != "strategic-initiative":
            raise UserError(f"There is no game {kind!r}: choose {', '.join(GAME_KINDS)}.")
        if map_name is not None or turn_hours is not None:
            raise UserError(
                "A map and turn hours are Supply Lines' options (kind:supply-lines): "
                "Strategic Initiative draws its map by size."
            )
        nations = 8 if nations is None else nations
        if ruleset not in available():
            raise UserError(f"There is no ruleset {ruleset!r}: choose {', '.join(available())}.")
        if not MIN_NATIONS <= nations <= MAX_NATIONS:
            raise UserError(f"A game has {MIN_NATIONS} to {MAX_NATIONS} nations.")
        if speed not in SPEEDS:
            raise UserError(f"Speeds are: {', '.join(SPEEDS)}.")
        if size not in SIZES:
            raise UserError(f"Sizes are: {', '.join(SIZES)}.")
        rules = load_rules(ruleset)
        if days is not None and not 1 <= days <= 60:
            raise UserError("A game lasts 1 to 60 days.")
        await self._one_game_here(caller)
        side = default_size(nations)[0]
        if size != "auto":
            side = max(32, min(256, int(side * _SIZE_FACTOR[size]) // 2 * 2))
        try:
            game_id = await self.ctx.service.create_game(
                name=name,
                ruleset=ruleset,
                max_nations=nations,
                width=side,
                height=side,
                length_days=days or rules.time.default_length_days,
                speed=SPEEDS[speed],
                guild_id=caller.guild_id,
                channel_id=caller.channel_id,
                created_by=caller.user_id,
            )
        except GameError as exc:
            raise UserError(str(exc)) from None
        text = (
            f"**{name}** (game {game_id}) is open in this channel: {rules.title} rules, "
            f"{nations} nations, {article(f'{side}x{side}')} map, {days or rules.time.default_length_days} "
            f"days at {speed} speed. Join with `/game join`; it starts when full or with "
            "`/game start`."
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

    async def _create_supply_lines(
        self,
        caller: Caller,
        name: str,
        players: int | None,
        speed: str,
        turn_hours: float | None,
        days: int | None,
        map_name: str | None,
    ) -> Reply:
        from engine.supplylines.kind import DEFAULT_MAPS

        if speed not in SPEEDS:
            raise UserError(f"Speeds are: {', '.join(SPEEDS)}.")
        if days is not None and not 1 <= days <= 365:
            raise UserError("A game lasts 1 to 365 days.")
        chosen = (map_name or "").strip().lower() or None
        if chosen is None and players is not None and players not in DEFAULT_MAPS:
            known = ", ".join(str(n) for n in sorted(DEFAULT_MAPS))
            raise UserError(f"Supply Lines is for {known} players.")
        if chosen is None:
            chosen = DEFAULT_MAPS[players if players is not None else 4]
        seats = _sl_seats(chosen, players)
        hours = 24.0 if turn_hours is None else turn_hours
        await self._one_game_here(caller)
        try:
            game_id = await self.ctx.service.create_game(
                name=name,
                kind="supply-lines",
                map=chosen,
                max_nations=seats,
                turn_hours=hours,
                length_days=days or 30,
                speed=SPEEDS[speed],
                guild_id=caller.guild_id,
                channel_id=caller.channel_id,
                created_by=caller.user_id,
            )
        except GameError as exc:
            raise UserError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
        summary = await self.ctx.service.summary(game_id)
        pace = (
            f"a turn every {hours:g} hours of game time ({speed}), or as soon as everyone has "
            "submitted"
            if hours
            else "a turn as soon as everyone has submitted (no deadline: a moderator can "
            "resolve a turn with `/mod deadline now:True`)"
        )
        text = (
            f"**{name}** (game {game_id}) is open in this channel: Supply Lines on "
            f"{summary.board}, {pace}. Join with `/game join`; it starts when full or with "
            "`/game start`."
        ) + _lacking(caller)
        return Reply(text=text, ephemeral=False, refresh_game=game_id)

    async def game_join(self, caller: Caller, name: str, colour: str | None = None) -> Reply:
        from bot.parsing import readable

        if not readable(name):
            raise UserError(f"{name!r} has characters that are not text: choose another name.")
        seat = await self.ctx.seat(caller)
        game = seat.game
        if seat.nation is not None:
            raise UserError(f"You already play {seat.nation} in game {game.id}.")
        if game.status != "lobby":
            raise UserError(
                f"Game {game.id} has {'started' if game.status != 'ended' else 'ended'}; "
                "nations join before the start."
            )
        taken = [n.colour for n in (await self.ctx.service.summary(game.id)).nations.values()]
        try:
            chosen = colours.resolve(colour) if colour else colours.default_colour(taken)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        if chosen in taken:
            raise UserError("That colour is taken in this game: choose another.")
        try:
            nid = await self.ctx.service.join(
                game.id, name=name, colour=chosen, player=caller.user_id
            )
        except GameError as exc:
            raise UserError(str(exc)) from None
        summary = await self.ctx.service.summary(game.id)
        joined, full = len(summary.nations), summary.seats
        view = await self.ctx.service.view(game.id, nid)
        if game.kind == "supply-lines":
            home = view.board.home_of(view.players[nid].seat)
            text = f"You lead **{name}** in {game.name}; your home city is {home}."
        else:
            homes = [view.label(c.sq) for c in view.own_cities()]
            text = f"You lead **{name}** in {game.name}; your cities are at {', '.join(homes)}."
        started = (await self.ctx.service.game(game.id)).status == "running"
        if started:
            text += " The game is full and has started: good luck!"
        announce = f"**{name}** joins {game.name} ({joined}/{full})." + (
            " The game is full: **it has started!**" if started else ""
        )
        return Reply(text=text, announce=(game.channel_id or "", announce), refresh_game=game.id)

    async def game_add_ai(
        self, caller: Caller, name: str, colour: str | None = None, level: str = "normal"
    ) -> Reply:
        """The creator or a moderator fills a seat with an AI nation (before the start)."""
        from engine.strategic.lobby import AI_PLAYER

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
        taken = [n.colour for n in (await self.ctx.service.summary(game.id)).nations.values()]
        try:
            chosen = colours.resolve(colour) if colour else colours.default_colour(taken)
            nid = await self.ctx.service.join(game.id, name=name, colour=chosen, player=AI_PLAYER)
        except (ValueError, GameError) as exc:
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
        from engine.interface.kind import kind as kind_of

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
            text = CARETAKER_DOES.get(seat.game.kind, CARETAKER_DOES["strategic-initiative"])
        else:
            if seats.get(nation) != CARETAKER:
                raise UserError("Your nation is not in the AI's care.")
            del seats[nation]
            text = "Welcome back: your nation is yours again."
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
            text=f"Resign {name}? " + RESIGNING.get(seat.game.kind, RESIGNING[DEFAULT_KIND]),
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
        """When a turn's deadline comes in real time, as Discord shows it (nothing for a game
        in continuous time or whose clock stands still)."""
        if game.turn is None or game.turn.deadline_tick is None or game.ended:
            return ""
        at = RealClock.of_row(row, game.ticks_per_hour).real_time_of(game.turn.deadline_tick)
        return f" (<t:{int(at)}:R>)" if at is not None else ""

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
        lines = [
            f"**{row.name}** (game {row.id}) - {game.rules_title} rules, "
            f"{game.board}, {game.length_days} days",
            f"Status: **{row.status}**"
            + (" (paused)" if clock.get("paused") and row.status == "running" else "")
            + f" - {game.now()}{self._due(row, game)} - speed "
            + speed_label(clock.get("speed", 3600.0)),
            f"Nations ({len(game.nations)}/{game.seats}):",
        ]
        nations = []
        ai = row.settings.get("ai", {})
        for n in game.nations.values():
            who = f"<@{members[n.id]}>" if n.id in members else "no player"
            if ai.get(n.id) == "caretaker":
                who += " (AI caretaker)"
            elif n.id in ai:
                who = "AI"
            nations.append(f"- **{n.name}** - {who}" + (" - out" if n.out else ""))
        tail = ""
        if row.status == "lobby":
            tail = "Join with `/game join`; the creator or a moderator starts it."
        return "\n".join(lines), nations, tail
