"""The adjudication suite's cases (tests/games/supplylines/engine/cases/*.yaml) and the helpers other tests
use to set up a board; the case format and runner are the engine's
(`engine/supplylines/cases.py`, also behind `si scenario`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.interface import entries as en
from engine.supplylines.cases import Case, board_of, build_state, orders_of, placement
from engine.supplylines.cases import load_folder as _load_folder
from engine.supplylines.cases import run as _run
from engine.supplylines.kind import KIND
from engine.supplylines.state import State

__all__ = [
    "CASES",
    "Case",
    "board_of",
    "build_state",
    "load_cases",
    "played_duel",
    "orders_of",
    "placement",
    "run",
]

CASES = Path(__file__).parent / "cases"


def load_cases() -> list[Case]:
    return _load_folder(CASES)


def run(case: Case) -> None:
    """The case resolved; every difference from what it expects fails the test."""
    outcome = _run(case)
    assert outcome.ok, f"{case.file}: {case.name}: " + "; ".join(outcome.failures)


def short_of_a_road() -> State:
    """A started duel whose turn ends in a supply question for a (user "100"): its two units
    at C1 and C2 beyond its one line; b (user "200") holds H2. Deadline at tick 96."""
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1 C2", "b": "H2"},
            "units": ["a 1 infantry @ C1", "a 1 infantry @ C2", "b 1 infantry @ H2"],
        }
    )
    state.started, state.deadline, state.turn_ticks = True, 96, 96
    for p, user in (("a", "100"), ("b", "200")):
        state.players[p].user = user
    return state


def played_duel() -> tuple[State, list[dict[str, Any]]]:
    """A two-turn game of Ann and Bob on the duel map: its first state and its log (Ann takes
    C1 in turn 1, Bob C4 in turn 2)."""
    first = KIND.setup({"map": "duel", "seed": 1, "turn_hours": 1})
    log = [
        en.Join(nation="ann", name="Ann", colour="#c0392b").to_json(),
        en.Join(nation="bob", name="Bob", colour="#2980b9").to_json(),
        en.Start().to_json(),
        en.CommandEntry(nation="ann", command={"kind": "order", "text": "H1 > C1"}).to_json(),
        en.Advance(ticks=4).to_json(),
        en.CommandEntry(nation="bob", command={"kind": "order", "text": "H2 > C4"}).to_json(),
        en.Advance(ticks=4).to_json(),
    ]
    return first, log
