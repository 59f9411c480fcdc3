"""What the kinds played in turns share (`engine.interface.turnbased`), on a small state of its
own: a phase resolves early once every seat still playing is done, a reminder comes once at
its tick to those waiting, a moderator resolves now or moves the deadline, the log's lifecycle
entries reach the kind's own functions, and the door's small parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.events import Event
from engine.interface.turnbased import deadlines, door, lobby
from engine.interface.turnbased.ai import TurnAi


@dataclass
class Clock:
    tick: int = 10
    turn: int = 2
    phase: str = "orders"
    started: bool = True
    ended: bool = False
    deadline: int | None = 20
    turn_ticks: int = 8


# --- resolving early ---------------------------------------------------------------------------


def test_a_phase_resolves_early_once_every_seat_playing_is_done() -> None:
    done = {"a", "b"}
    assert deadlines.resolves_early(True, ["a", "b"], done.__contains__)
    assert not deadlines.resolves_early(True, ["a", "b", "c"], done.__contains__)
    assert not deadlines.resolves_early(False, ["a", "b"], done.__contains__)  # not `early`
    assert not deadlines.resolves_early(True, [], done.__contains__)  # nobody left to wait for


# --- the reminder -----------------------------------------------------------------------------


def test_the_reminder_comes_at_its_tick_to_the_seats_waiting() -> None:
    state = Clock(tick=16, deadline=20)
    (near,) = deadlines.reminder(state, 4, lambda: ["b", "c"])
    assert isinstance(near, deadlines.DeadlineNear)
    assert (near.tick, near.turn, near.deadline) == (16, 3, 20)
    assert near.to == near.waiting == ["b", "c"]
    for tick in (15, 17, 20):  # another tick: none (each tick passes once: it comes once)
        assert deadlines.reminder(Clock(tick=tick, deadline=20), 4, lambda: ["b"]) == []


def test_no_reminder_without_a_lead_a_deadline_or_anyone_waiting() -> None:
    asked: list[int] = []

    def waiting() -> list[str]:
        asked.append(1)
        return ["b"]

    assert deadlines.reminder(Clock(tick=20, deadline=20), 0, waiting) == []
    assert deadlines.reminder(Clock(tick=16, deadline=None), 4, waiting) == []
    assert asked == []  # who waits is asked only at the reminder's tick
    assert deadlines.reminder(Clock(tick=16, deadline=20), 4, lambda: []) == []


# --- the moderator's deadline -------------------------------------------------------------------


def test_a_moderator_resolves_the_phase_now() -> None:
    resolved: list[Event] = [Event(kind="Resolved", tick=10, to=["a"])]
    state = Clock()
    out = deadlines.set_deadline(state, now=True, extend=0, resolve=lambda: resolved, everyone=[])
    assert out is resolved and state.deadline == 20


def test_a_moderator_moves_the_deadline_later_and_everyone_hears() -> None:
    state = Clock(phase="supply")
    (moved,) = deadlines.set_deadline(
        state, now=False, extend=8, resolve=lambda: pytest.fail("resolved"), everyone=["a", "b"]
    )
    assert state.deadline == 28
    assert isinstance(moved, deadlines.DeadlineMoved)
    assert (moved.to, moved.turn, moved.phase, moved.deadline) == (["a", "b"], 3, "supply", 28)


@pytest.mark.parametrize(
    ("state", "extend", "why"),
    [
        (Clock(started=False), 4, "not running"),
        (Clock(ended=True), 4, "not running"),
        (Clock(), 0, "a quarter of an hour at least"),
        (Clock(deadline=None), 4, "no deadline"),
    ],
)
def test_a_moderator_is_refused_and_nothing_changes(state: Clock, extend: int, why: str) -> None:
    before = Clock(**vars(state))
    with pytest.raises(CommandError, match=why):
        deadlines.set_deadline(
            state, now=False, extend=extend, resolve=lambda: pytest.fail("resolved"), everyone=[]
        )
    assert state == before


def test_only_a_moderator_sets_a_deadline() -> None:
    deadlines.check_moderator(deadlines.MODERATOR)
    with pytest.raises(CommandError, match="only a moderator"):
        deadlines.check_moderator("red")


def test_the_command_and_events_keep_their_stored_form() -> None:
    stored = {"kind": "deadline", "now": False, "extend_ticks": 8}
    assert deadlines.SetDeadline.model_validate(stored).model_dump(mode="json") == stored
    near = {
        "kind": "DeadlineNear",
        "tick": 1,
        "to": ["a"],
        "turn": 2,
        "deadline": 5,
        "waiting": ["a"],
    }
    assert deadlines.DeadlineNear.model_validate(near).model_dump(mode="json") == near


# --- a turn's length ---------------------------------------------------------------------------


def test_a_turn_lasts_a_quarter_of_an_hour_to_a_week_or_waits_for_everyone() -> None:
    for hours in (0, 0.25, 24, 168):
        deadlines.check_turn_hours(hours)
    for hours in (0.1, 168.5, -1):
        with pytest.raises(GameError, match="a quarter of an hour to a week"):
            deadlines.check_turn_hours(hours)
    assert deadlines.turn_ticks(24, 4) == 96
    assert deadlines.turn_ticks(0.1, 4) == 1  # one tick at least
    assert deadlines.turn_ticks(0, 4) == 0  # no deadline
    assert deadlines.early_of(False, 24) is False
    assert deadlines.early_of(False, 0) is True  # without a deadline a turn would never end


# --- the door ------------------------------------------------------------------------------------


class Turns:
    """A kind's `turns`, recording what it was asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def _call(self, *args: Any) -> list[Event]:
        self.calls.append(args)
        return []

    def advance(self, state: Any, ticks: int) -> list[Event]:
        return self._call("advance", ticks)

    def join(
        self, state: Any, nation: str, name: str, colour: str, user: str | None
    ) -> list[Event]:
        return self._call("join", nation, name, colour, user)

    def leave(self, state: Any, nation: str) -> list[Event]:
        return self._call("leave", nation)

    def start(self, state: Any) -> list[Event]:
        return self._call("start")

    def resign(self, state: Any, nation: str) -> list[Event]:
        return self._call("resign", nation)

    def substitute(self, state: Any, nation: str, user: str | None) -> list[Event]:
        return self._call("substitute", nation, user)

    def end_game(self, state: Any, reason: str) -> list[Event]:
        return self._call("end", reason)


def _apply(
    state: Clock, turns: Turns, entry: en.Entry, commands: list[tuple[str, dict[str, Any]]]
) -> list[Event]:
    def command(nation: str, data: dict[str, Any]) -> list[Event]:
        commands.append((nation, data))
        return []

    return door.apply_entry(
        state,
        entry,
        title="Test",
        turns=turns,
        command=command,
        founding="no founding here",
    )


def test_the_logs_entries_reach_the_kinds_own_functions() -> None:
    turns = Turns()
    commands: list[tuple[str, dict[str, Any]]] = []
    state = Clock()
    for entry in (
        en.CommandEntry(nation="red", command={"kind": "submit"}),
        en.Advance(ticks=3),
        en.Join(nation="red", name="Red", colour="#123456", player="1"),
        en.Leave(nation="red"),
        en.Start(),
        en.Resign(nation="red"),
        en.Substitute(nation="red", player=None),
        en.End(),
    ):
        _apply(state, turns, entry, commands)
    assert commands == [("red", {"kind": "submit"})]
    assert turns.calls == [
        ("advance", 3),
        ("join", "red", "Red", "#123456", "1"),
        ("leave", "red"),
        ("start",),
        ("resign", "red"),
        ("substitute", "red", None),
        ("end", "moderator"),
    ]


def test_an_ended_games_result_stays() -> None:
    turns = Turns()
    state = Clock(ended=True)
    # an older log's resignation after the end changes nothing
    assert _apply(state, turns, en.Resign(nation="red"), []) == []
    assert _apply(state, turns, en.Substitute(nation="red", player="2"), []) == []
    with pytest.raises(GameError, match="already over"):
        _apply(state, turns, en.End(), [])
    assert turns.calls == []


def test_a_join_with_founding_choices_is_refused() -> None:
    turns = Turns()
    join = en.Join(nation="red", name="Red", colour="#123456", founding={"home": "x"})
    with pytest.raises(GameError, match="no founding here"):
        _apply(Clock(), turns, join, [])
    assert turns.calls == []


@dataclass
class Player:
    out: bool = False


@pytest.mark.parametrize(
    ("state", "nation", "why"),
    [
        (Clock(started=False), "a", "has not started yet"),
        (Clock(ended=True), "a", "the game is over"),
        (Clock(), "z", "you do not play in this game"),
        (Clock(), "b", "you are out of the game"),
    ],
)
def test_only_a_seat_still_playing_a_running_game_gives_commands(
    state: Clock, nation: str, why: str
) -> None:
    seats = {"a": Player(), "b": Player(out=True)}
    with pytest.raises(CommandError, match=why):
        door.playing(state, seats, nation)


def test_the_seat_giving_a_command_is_found() -> None:
    seats = {"a": Player(), "b": Player(out=True)}
    assert door.playing(Clock(), seats, "a") is seats["a"]


# --- the lobby ----------------------------------------------------------------------------------


@dataclass
class Sitting:
    seat: int
    user: str | None = None


def test_a_nation_joining_takes_the_first_free_seat() -> None:
    seats = {"a": Sitting(1), "c": Sitting(3)}
    assert lobby.free_seat(False, seats, "b", 4, "player") == 2
    seats["b"] = Sitting(2)
    assert lobby.free_seat(False, seats, "d", 4, "player") == 4
    seats["d"] = Sitting(4)
    with pytest.raises(GameError, match="the game is full"):
        lobby.free_seat(False, seats, "e", 4, "player")
    with pytest.raises(GameError, match="there is already a captain 'a'"):
        lobby.free_seat(False, seats, "a", 5, "captain")
    with pytest.raises(GameError, match="nobody joins now"):
        lobby.free_seat(True, {}, "a", 4, "player")


def test_a_nation_leaves_only_before_the_start() -> None:
    seats: dict[str, Sitting] = {"a": Sitting(1)}
    with pytest.raises(GameError, match="resign instead"):
        lobby.leave(True, seats, "a", "player")
    lobby.leave(False, seats, "a", "player")
    assert seats == {}
    with pytest.raises(GameError, match="there is no player 'a'"):
        lobby.leave(False, seats, "a", "player")


def test_a_seats_player_changes_until_the_end() -> None:
    seats = {"a": Sitting(1, "1")}
    lobby.substitute(False, seats, "a", "2", "captain")
    assert seats["a"].user == "2"
    with pytest.raises(GameError, match="there is no captain 'b'"):
        lobby.substitute(False, seats, "b", "2", "captain")
    with pytest.raises(GameError, match="the game is over"):
        lobby.substitute(True, seats, "a", None, "captain")
    assert seats["a"].user == "2"


def test_a_new_seats_id_is_made_of_its_name_and_unique() -> None:
    assert door.nation_id("Red Fleet!", {}, "seat") == "red-fleet"
    assert door.nation_id("Red Fleet", {"red-fleet", "red-fleet-2"}, "seat") == "red-fleet-3"
    assert door.nation_id("!!!", {}, "seat") == "seat"
    assert door.nation_id("A very long name indeed", {}, "seat") == "a-very-long-name"


@dataclass
class Seat:
    id: str
    user: str | None


def test_the_people_playing_are_neither_the_ai_nor_empty_seats() -> None:
    seats = [Seat("a", "1"), Seat("b", en.AI_PLAYER), Seat("c", None), Seat("d", "4")]
    assert door.people(seats) == [("a", "1"), ("d", "4")]


def test_a_turn_of_orders_counts_who_has_submitted() -> None:
    turn = door.orders_turn(Clock(turn_ticks=0), "orders", ["a", "b", "c"], {"b"}.__contains__)
    assert (turn.number, turn.phase, turn.deadline_tick) == (3, "orders", 20)
    assert (turn.done, turn.playing, turn.waiting) == (1, 3, ("a", "c"))
    assert turn.turn_ticks is None  # turns wait for everyone


# --- the AI seats --------------------------------------------------------------------------------


@dataclass
class Memory:
    turn: int | None = None
    refused: list[str] = field(default_factory=list)


def test_an_ai_seat_rests_only_for_a_style_it_has_not_and_its_memory_keeps() -> None:
    failed: list[Any] = []
    ai = TurnAi(
        styles=("normal", "caretaker"),
        levels=("normal",),
        memory=Memory,
        decide=lambda view, memory, style: [view, style],
        failed=lambda memory, command, view: failed.append(command),
    )
    memory = ai.memory()
    assert memory == Memory()
    assert not ai.resting(memory, "caretaker", 5, 4) and ai.resting(memory, "other", 5, 4)
    assert ai.decide("view", memory, "normal") == ["view", "normal"]
    ai.failed(memory, "submit", "view")
    assert failed == ["submit"]
    memory.turn, memory.refused = 3, ["x"]
    assert ai.restore(ai.save(memory)) == Memory(turn=3, refused=["x"])
