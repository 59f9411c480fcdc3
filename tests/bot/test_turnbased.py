"""The bot sides of the games played in turns share their words of time and their reminders
(`bot.turnbased`): a duration in words, a summary fitted into a message, the reminders left out
once their turn resolved or their deadline passed, who a channel's reminder waits for, and the
moderator's command that resolves a turn now or gives more time."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pytest

from bot import turnbased
from bot.context import Caller, UserError
from engine.errors import CommandError
from engine.interface.events import Event
from engine.interface.turnbased.deadlines import MODERATOR, DeadlineMoved, DeadlineNear, SetDeadline


def _near(turn: int, deadline: int = 40, waiting: list[str] | None = None) -> DeadlineNear:
    seats = waiting or ["a"]
    return DeadlineNear(tick=36, to=seats, turn=turn, deadline=deadline, waiting=seats)


def test_a_duration_in_hours_or_minutes() -> None:
    assert turnbased.span(96, 4) == "24 hours"
    assert turnbased.span(4, 4) == "1 hour"
    assert turnbased.span(3, 4) == "45 minutes"
    assert turnbased.span(5, 4) == "75 minutes"  # not a whole hour: in minutes
    assert turnbased.span(-8, 4) == "0 hours"  # a deadline passed
    assert turnbased.span(2, 2) == "1 hour"  # the game's own ticks


def test_a_summary_keeps_the_lines_that_fit_and_counts_the_rest() -> None:
    lines = [f"line {i}: " + "x" * 40 for i in range(10)]
    assert turnbased.fitted(lines[:2], 500, "the board") == "\n".join(lines[:2])
    told = turnbased.fitted(lines, 200, "the star map").split("\n")
    # 200 less 40 for the last line: three lines of 48 characters and their line ends fit
    assert told == [*lines[:3], "... and 7 more (the star map shows them)."]


def test_reminders_of_a_turn_resolved_since_are_left_out() -> None:
    other = Event(kind="TurnMoved", tick=40, to=["a"])
    old, now = _near(2), _near(3)
    assert turnbased.current([old, other, now], resolved=2) == [other, now]
    assert turnbased.current([old, now], resolved=0) == [old, now]


def test_only_a_reminder_expires_at_its_deadline() -> None:
    assert turnbased.expires(_near(2, deadline=44)) == 44
    moved = DeadlineMoved(tick=1, to=["a"], turn=2, phase="orders", deadline=50)
    assert turnbased.expires(moved) is None


def test_a_channels_reminder_pings_those_who_muted_their_dms_and_names_the_others() -> None:
    e = _near(2, waiting=["a", "b", "c"])
    names = {"a": "Ann", "b": "Bob"}
    assert turnbased.waiting(e, names, {"b": "123"}) == "Ann, <@123>, c"


# --- the moderator's deadline ----------------------------------------------------------------------


@dataclass
class Game:
    id: int = 7
    name: str = "Tide"
    kind: str = "supply-lines"
    status: str = "running"


class Service:
    def __init__(self, refusal: Exception | None = None) -> None:
        self.refusal = refusal
        self.submitted: list[tuple[int, str, SetDeadline]] = []

    async def submit(self, game_id: int, nation: str, command: SetDeadline) -> None:
        if self.refusal is not None:
            raise self.refusal
        self.submitted.append((game_id, nation, command))


class Ctx:
    def __init__(self, game: Game, service: Service) -> None:
        self.game, self.service = game, service

    async def moderated(self, caller: Caller) -> Game:
        return self.game


CALLER = Caller(user_id="1", name="mod", guild_id="2", channel_id="3", moderator=True)


async def _set(game: Game, service: Service, now: bool, hours: float, kind: str = "supply-lines"):
    return await turnbased.set_deadline(
        Ctx(game, service),  # type: ignore[arg-type]
        CALLER,
        kind,
        now,
        hours,
        4,
        refused=lambda why: f"refused: {why}",
    )


async def test_a_moderator_resolves_now_or_gives_hours_as_the_engines_command() -> None:
    service = Service()
    assert await _set(Game(), service, True, 0.0) == Game()
    await _set(Game(), service, False, 1.5)
    assert service.submitted == [
        (7, MODERATOR, SetDeadline(now=True, extend_ticks=0)),
        (7, MODERATOR, SetDeadline(now=False, extend_ticks=6)),
    ]


@pytest.mark.parametrize(
    ("game", "now", "hours", "why"),
    [
        (Game(status="ended"), True, 0.0, "is over"),
        (Game(), True, 2.0, "not both"),
        (Game(), False, 0.0, "not both"),
        (Game(), False, 169.0, "a week (168 hours)"),
        (Game(), False, math.nan, "a week (168 hours)"),
        (Game(), False, 0.1, "a quarter of an hour to a week more"),  # less than a tick
    ],
)
async def test_a_moderators_deadline_is_refused_before_the_engine_is_asked(
    game: Game, now: bool, hours: float, why: str
) -> None:
    service = Service()
    with pytest.raises(UserError, match=re.escape(why)):
        await _set(game, service, now, hours)
    assert service.submitted == []


async def test_a_game_of_another_kind_is_refused() -> None:
    with pytest.raises(UserError, match="this command is for Caldera games"):
        await _set(Game(), Service(), True, 0.0, kind="caldera")


async def test_the_engines_refusal_is_said_in_the_games_words() -> None:
    service = Service(CommandError("the game is not running"))
    with pytest.raises(UserError, match="refused: the game is not running"):
        await _set(Game(), service, True, 0.0)


def test_a_digest_is_headed_by_the_clock_or_else_the_games_title() -> None:
    class Teller(turnbased.TurnTeller):
        title = "Tides"

    teller = Teller()
    assert teller.packed(["one", "two"], "Day 3, 12:00", 2000) == ["**Day 3, 12:00**\none\ntwo"]
    assert teller.packed(["one"], None, 2000) == ["**Tides**\none"]
    assert teller.packed(["x" * 30, "y" * 30], None, 45) == ["**Tides**\n" + "x" * 30, "y" * 30]
    assert not teller.sitreps and not teller.joined_self(_near(1), "a")
    assert teller.expires(_near(1, deadline=9)) == 9
