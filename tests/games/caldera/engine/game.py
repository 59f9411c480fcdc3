"""Small Caldera games for the core's scenarios: two captains played by people and one AI
seat, set up and started through the kind's own door (`KIND.apply`), and helpers to give
commands and resolve a turn as the host would."""

from __future__ import annotations

from typing import Any

from engine.caldera.kind import KIND
from engine.caldera.state import State
from engine.interface import entries as en
from engine.interface.events import Event

CAPTAINS = (("ann", "101"), ("bob", "102"), ("cal", en.AI_PLAYER))
STATS = {"cha": 3, "int": 3, "eng": 3, "arm": 2, "com": 2, "eco": 2}


def new_game(seed: int = 3, **options: Any) -> State:
    """A started game of three captains, in its setup window."""
    state = KIND.setup({"max_nations": 3, "seed": seed, "turn_hours": 24, **options})
    for nation, user in CAPTAINS:
        KIND.apply(
            state, en.Join(nation=nation, name=nation.title(), colour="#336699", player=user)
        )
    KIND.apply(state, en.Start())
    return state


def command(state: State, nation: str, **data: Any) -> list[Event]:
    return KIND.apply(state, en.CommandEntry(nation=nation, command=data))


def resolve(state: State) -> list[Event]:
    """The window resolved now (a moderator's "deadline now")."""
    return command(state, "@moderator", kind="deadline", now=True)


def past_setup(seed: int = 3, **options: Any) -> State:
    """A game whose setup window has resolved (every captain with the same stats): the
    first window of orders is open."""
    state = new_game(seed, **options)
    for nation, _user in CAPTAINS:
        command(state, nation, kind="stats", stats=STATS)
    resolve(state)
    return state


def of_kind(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]
