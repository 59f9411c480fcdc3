"""The adjudication suite: every case of tests/supplylines/cases (see scenario.py)."""

from __future__ import annotations

import pytest

from tests.supplylines.scenario import Case, load_cases, run

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}:{c.name}" for c in CASES])
def test_case(case: Case) -> None:
    run(case)
