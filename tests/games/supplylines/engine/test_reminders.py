"""Reminders of a turn's deadline (docs/RULES-SUPPLY-LINES.md, "Reminders"): the players who
have not submitted are reminded an hour before it (in a short turn, when a quarter of it is
left), once a turn, however the game is stored and loaded meanwhile; a deadline moved later
brings its own."""

from __future__ import annotations

from engine.supplylines import events as ev
from engine.supplylines import turns
from engine.supplylines.kind import KIND
from engine.supplylines.state import State


def _game(turn_hours: float, players: int = 3) -> State:
    state = KIND.setup({"map": "triangle", "seed": 1, "turn_hours": turn_hours})
    for n, name in enumerate(["ann", "bob", "cy"][:players], 1):
        turns.join(state, name, name.title(), "#ff0000", str(n))
    turns.start(state)
    return state


def _reminders(events: list[ev.Event]) -> list[ev.DeadlineNear]:
    return [e for e in events if isinstance(e, ev.DeadlineNear)]


def test_those_who_have_not_submitted_are_reminded_an_hour_before_the_deadline() -> None:
    state = _game(24)  # 96 ticks
    turns.submit(state, "ann")
    assert _reminders(turns.advance(state, 91)) == []
    (near,) = _reminders(turns.advance(state, 1))
    assert state.tick == 92 and near.deadline == 96 and near.turn == 1
    assert near.waiting == ["bob", "cy"] and near.to == ["bob", "cy"]
    assert _reminders(turns.advance(state, 3)) == [] and state.turn == 0


def test_a_short_turn_reminds_when_a_quarter_of_it_is_left_and_a_15_minute_turn_never() -> None:
    state = _game(2)  # 8 ticks: reminded 2 ticks (30 minutes) before
    reminded = [(e.tick, e.deadline) for e in _reminders(turns.advance(state, 8))]
    assert reminded == [(6, 8)]
    quick = _game(0.25)
    assert _reminders(turns.advance(quick, 8)) == []


def test_a_game_stored_and_loaded_reminds_once_a_turn() -> None:
    state = _game(24)
    told = []
    for _ in range(2 * 96):  # two turns, the state stored and loaded after every tick
        told += _reminders(turns.advance(state, 1))
        state = KIND.load(KIND.dump(state))
    assert [(e.turn, e.tick) for e in told] == [(1, 92), (2, 188)]


def test_a_deadline_moved_later_brings_its_own_reminder() -> None:
    state = _game(24)
    assert len(_reminders(turns.advance(state, 93))) == 1
    turns.set_deadline(state, now=False, extend=8)  # two hours more: due at tick 104
    (again,) = _reminders(turns.advance(state, 8))
    assert again.tick == 100 and again.deadline == 104
