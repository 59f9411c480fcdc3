"""What the bot sides of the games played in turns share (each game's own words aside): how long
until a deadline in words, a turn's summary fitted into a channel message, the channel's
reminder of a deadline near (who has not submitted, and a ping for those who chose the channel
over a DM), a teller's defaults and reminders (stale once their turn resolved, worth nothing
past their deadline), and the moderator's command that resolves a turn now or gives more time. Names no
game: each game's side passes what is its own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.context import GAME_OVER, Caller, Context, Reply, UserError, wrong_kind
from bot.discord_io import caller_of, host_of, respond
from bot.dm.text import clip, pack
from bot.game_side import Post
from engine.errors import CommandError, GameError
from engine.interface.events import Event
from engine.interface.turnbased.deadlines import (
    MODERATOR,
    MOST_EXTEND_TICKS,
    DeadlineNear,
    SetDeadline,
)

if TYPE_CHECKING:  # pragma: no cover
    from bot.desk import Desk
    from engine.host.rows import GameRow
    from engine.host.service import GameService
    from engine.interface.summary import GameSummary

MOST_HOURS = 7 * 24  # the most time a moderator gives at once (a week)

# `/game create`'s option every game played in turns has
TURN_HOURS_DESCRIBED = "game hours a turn lasts at most (default 24; 0: until all submit)"


def span(ticks: int, ticks_per_hour: int) -> str:
    """Ticks as a duration: "24 hours", "45 minutes"."""
    minutes = max(ticks, 0) * 60 // ticks_per_hour
    if minutes % 60:
        return f"{minutes} minutes"
    hours = minutes // 60
    return f"{hours} hour{'s' if hours != 1 else ''}"


def fitted(lines: list[str], room: int, shows: str) -> str:
    """The lines as one message's part: those that fit in `room`, then how many more (`shows`
    them: "the board")."""
    out: list[str] = []
    used = 0
    for n, line in enumerate(lines):
        if used + len(line) + 1 > room - 40:
            out.append(f"... and {len(lines) - n} more ({shows} shows them).")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


# --- reminders ---------------------------------------------------------------------------------


def current(events: list[Event], resolved: int) -> list[Event]:
    """The events but reminders of a turn that has `resolved` since (the bot was down while
    both came due: the turn's report says more)."""
    return [e for e in events if not (isinstance(e, DeadlineNear) and e.turn <= resolved)]


def expires(event: Event) -> int | None:
    """A reminder is worth nothing once its deadline has passed; the rest keeps."""
    return event.deadline if isinstance(event, DeadlineNear) else None


class TurnTeller:
    """What the tellers (`bot.dm.tellers.Teller`) of the games played in turns have alike: no
    daily situation report (every turn's result comes with a picture instead), a joining told
    as a line of the digest, a report headed by the game's name and when, a reminder worth
    nothing past its deadline, and a digest headed by the clock (or the game's `title`)."""

    title: str
    sitreps = False

    def expires(self, event: Event) -> int | None:
        return expires(event)

    def joined_self(self, event: Event, nation: str) -> bool:
        return False

    def header(
        self, game: GameRow, summary: GameSummary, tick: int, when: Callable[[int], str]
    ) -> str:
        return f"{game.name}{when(tick)}"

    def packed(self, lines: list[str], clock: str | None, limit: int) -> list[str]:
        """A digest's lines in messages of `limit`, under its header."""
        return pack([f"**{clock or self.title}**", *(clip(line) for line in lines)], limit)


def waiting(e: DeadlineNear, names: Mapping[str, str], pinged: Mapping[str, str]) -> str:
    """Those a reminder waits for: a mention for those who chose the channel over a DM
    (`pinged`: nation -> Discord user id), the others by name."""
    return ", ".join(f"<@{pinged[p]}>" if p in pinged else names.get(p, p) for p in e.waiting)


Words = Callable[[DeadlineNear, Mapping[str, str], Mapping[str, str], str], str]


async def reminder_post(
    service: GameService,
    game_id: int,
    row: GameRow,
    e: DeadlineNear,
    names: dict[str, str],
    words: Words,
    ticks_per_hour: int,
) -> Post:
    """The channel's reminder of a deadline near (`words(e, names, pinged, due)`): the seats
    that have not submitted, and a ping for the players who muted their reminders by DM
    (`/notify mute:reminders`)."""
    from bot.dm.notifier import PlayerSettings
    from bot.store import BotStore
    from engine.host.realtime import RealClock

    members = await service.members(game_id)
    store = BotStore.of(service.store)
    pinged: dict[str, str] = {}
    for nation in e.waiting:
        user = members.get(nation)
        if user is None or not user.isdigit():  # (an AI plays it)
            continue
        settings = PlayerSettings.model_validate(await store.get_player_settings(user))
        if "reminders" in settings.muted:
            pinged[nation] = user
    at = RealClock.of_row(row, ticks_per_hour).real_time_of(e.deadline)
    minutes = (e.deadline - e.tick) * 60 // ticks_per_hour
    due = f"<t:{int(at)}:R>" if at is not None else f"in {minutes} minutes of game time"
    return Post(words(e, names, pinged, due), pings=tuple(pinged.values()))


# --- the moderator's deadline ----------------------------------------------------------------------


async def set_deadline(
    ctx: Context,
    caller: Caller,
    kind: str,
    now: bool,
    hours: float,
    ticks_per_hour: int,
    refused: Callable[[str], str],
) -> GameRow:
    """A moderator resolves the current turn (or phase) of the caller's game of `kind` now, or
    gives `hours` more; the engine's refusal is said by `refused`. The game, for the reply."""
    game = await ctx.moderated(caller)
    if game.status == "ended":
        raise UserError(GAME_OVER.format(game=game.id))
    if game.kind != kind:
        raise UserError(wrong_kind(game, kind))
    if not 0 <= hours <= MOST_HOURS:  # (also not a number, or infinite)
        raise UserError("Give from a quarter of an hour to a week (168 hours) more.")
    if now == (hours > 0):
        raise UserError("Either resolve now (`now:True`) or give more time (`hours:`), not both.")
    extend = round(hours * ticks_per_hour)
    if not now and not 1 <= extend <= MOST_EXTEND_TICKS:
        raise UserError("Give from a quarter of an hour to a week more.")
    try:
        await ctx.service.submit(
            game.id, MODERATOR, SetDeadline(now=now, extend_ticks=0 if now else extend)
        )
    except (CommandError, GameError) as exc:
        raise UserError(refused(str(exc))) from None
    return game


Moderate = Callable[["Desk", Caller, bool, float], Awaitable[Reply]]


def deadline_command(name: str, description: str, now_means: str, run: Moderate) -> Any:
    """A game's `/mod <name>` command (added to the shell's /mod group): resolve now
    (`now_means` what that resolves), or give this many more hours; `run` answers it."""

    @app_commands.command(name=name, description=description)
    @app_commands.describe(now=now_means, hours="or give this many more hours")
    async def deadline(
        interaction: discord.Interaction,
        now: bool = False,
        hours: app_commands.Range[float, 0.0, 168.0] = 0.0,
    ) -> None:
        desk = host_of(interaction).desk
        await respond(interaction, lambda: run(desk, caller_of(interaction), now, hours), slow=True)

    return deadline
