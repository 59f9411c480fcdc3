"""The adjudication suite: every case of tests/supplylines/cases (see scenario.py)."""

from __future__ import annotations

import pytest

from tests.supplylines.scenario import Case, load_cases, run

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}:{c.name}" for c in CASES])
def test_case(case: Case) -> None:
    run(case)


def test_a_case_that_does_not_hold_says_what_differs() -> None:
    """The runner fails a case whose expectations are wrong, naming each difference."""
    from engine.supplylines.cases import run as resolve

    case = Case(
        "wrong on purpose",
        "inline",
        {
            "roads": "H1-C1 C1-H2",
            "owners": {"a": "H1", "b": "H2"},
            "units": ["a 1 infantry @ H1"],
            "orders": {"a": ["H1 > C1"]},
            "expect": {"owners": {"C1": "b"}, "at": {"H1": "a 1 infantry"}, "conflicts": 0},
        },
    )
    outcome = resolve(case)
    assert not outcome.ok
    assert "owner of C1: expected 'b', got 'a'" in outcome.failures
    assert any(f.startswith("units: expected {'H1': 'a 1 infantry'}") for f in outcome.failures)
    assert len(outcome.failures) == 2  # the conflicts (none) were as expected
    broken = Case("bad unit", "inline", {"roads": "H1-C1 C1-H2", "units": ["a one infantry"]})
    assert resolve(broken).failures == [
        "the case cannot be set up: bad unit line 'a one infantry' (e.g. 'a 2 infantry @ C1 "
        "marks 1')"
    ]
