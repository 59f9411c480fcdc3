"""The adjudication suite's cases (tests/games/supplylines/engine/cases/*.yaml) and the helpers other tests
use to set up a board; the case format and runner are the engine's
(`engine/supplylines/cases.py`, also behind `si scenario`)."""

from __future__ import annotations

from pathlib import Path

from engine.supplylines.cases import Case, board_of, build_state, orders_of, placement
from engine.supplylines.cases import load_folder as _load_folder
from engine.supplylines.cases import run as _run

__all__ = [
    "CASES",
    "Case",
    "board_of",
    "build_state",
    "load_cases",
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
