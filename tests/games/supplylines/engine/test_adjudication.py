"""The adjudication suite: every case of tests/games/supplylines/engine/cases (see scenario.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.supplylines.engine.scenario import Case, load_cases, run

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
        "malformed case: units: bad unit line 'a one infantry' (e.g. 'a 2 infantry @ C1 marks 1')"
    ]


# --- issue 27, finding 16: the case format can say what the seed says --------------------------

DUEL = {"roads": "H1-C1 C1-C2 C2-H2", "owners": {"a": "H1", "b": "H2"}}


def resolve_inline(data: dict) -> list[str]:
    from engine.supplylines.cases import run as resolve

    return resolve(Case("inline", "inline", data)).failures


def test_a_refused_order_is_expected_with_its_words_and_the_rest_of_the_turn_goes_on() -> None:
    """The seed's "not fulfilled": a build over the PopCap is refused, with its reason, and the
    player's other orders still count."""
    case = {
        **DUEL,
        "units": ["a 1 infantry @ H1"],
        "orders": {"a": ["Build 1 Infantry@H1", "H1 > C1"]},
        "expect": {
            "refused": {"a": {"Build 1 Infantry@H1": "not enough PopCap"}},
            "at": {"C1": "a 1 infantry"},
        },
    }
    assert resolve_inline(case) == []
    wrong_words = {**case, "expect": {"refused": {"a": {"Build 1 Infantry@H1": "no base"}}}}
    (failure,) = resolve_inline(wrong_words)
    assert failure.startswith("a's order 'Build 1 Infantry@H1' was refused with 'not enough PopCap")
    assert failure.endswith("expected it to say 'no base'")
    unexpected = {**case, "expect": {"at": {"C1": "a 1 infantry"}}}
    (failure,) = resolve_inline(unexpected)
    assert failure.startswith("a's order 'Build 1 Infantry@H1' was refused: not enough PopCap")
    not_refused = {**case, "expect": {"refused": {"a": {"H1 > C1": "cannot move"}}}}
    failures = resolve_inline(not_refused)
    assert "a's order 'H1 > C1' was not refused (expected it to say 'cannot move')" in failures


def test_several_turns_each_with_orders_and_expectations() -> None:
    """A unit built in a turn stays in it and moves the next (ids: 1 the old unit, 2 the new)."""
    case: dict[str, Any] = {
        "roads": "H1-C1 C1-C2 C2-H2",
        "owners": {"a": "H1 C1", "b": "H2"},
        "units": ["a 1 infantry @ H1"],
        "turns": [
            {
                "orders": {"a": ["Build 1 Infantry@H1", "H1 > C1"]},
                "expect": {"units": {1: "C1", 2: "H1"}, "built": "a 1 infantry @ H1"},
            },
            {"orders": {"a": ["H1 > C1"]}, "expect": {"units": {1: "C1", 2: "C1"}}},
        ],
    }
    assert resolve_inline(case) == []
    wrong = {**case, "turns": [case["turns"][0], {"expect": {"units": {2: "C1"}}}]}
    assert resolve_inline(wrong) == ["turn 2: unit 2 at: expected 'C1', got 'H1'"]


def test_units_are_named_by_id_in_setups_and_expectations() -> None:
    """Which of two units moved, which defended and where it retreated, which was destroyed or
    disbanded: by id (`id N` in a unit line gives its id)."""
    case = {
        "roads": "H1-C1 C1-C2 C2-H2 C1-C3 C3-H2",
        "owners": {"a": "H1 C1 C2", "b": "H2 C3"},
        "units": ["a 1 infantry @ C1 marks 1 id 7", "a 1 infantry @ C1 id 9", "b 1 tank @ C3"],
        "orders": {"a": ["1 Infantry @ C1 > C2"], "b": ["C3 > C1"]},
        "expect": {
            # the holder retreats to where its own unit went (C2), both now cut off
            "units": {9: "C2", 7: {"at": "C2", "marks": 2}, 10: {"at": "C1", "owner": "b"}},
            "defended": [7],
            "bumped": {7: "C2"},
            "destroyed": [],
        },
    }
    assert resolve_inline(case) == []
    wrong = {**case, "expect": {"bumped": {9: "H1"}, "defended": [9]}}
    assert resolve_inline(wrong) == [
        "bumped: expected {9: 'H1'}, got {7: 'C2'}",
        "defended: expected [9], got [7]",
    ]


def test_a_supply_answer_after_its_deadline_is_refused_and_the_default_stands() -> None:
    """Time passes within a turn: a supply question's deadline (`supply_deadline`, 1h here)."""
    base: dict[str, Any] = {
        "roads": "H1-C1 C1-C2 C2-H2",
        "owners": {"a": "H1 C1 C2", "b": "H2"},
        "units": ["a 1 infantry @ C1", "a 1 infantry @ C2"],
        "supply_deadline": "1h",
    }
    in_time: dict[str, Any] = {
        **base,
        "turns": [{"wait": "30m", "answers": {"a": [2]}, "expect": {}}],
    }
    in_time["turns"][0]["expect"] = {"questions": {"a": [1, 2]}, "supplied": [2], "tick": 2}
    assert resolve_inline(in_time) == []
    late: dict[str, Any] = {**base, "turns": [{"wait": "2h", "answers": {"a": [2]}, "expect": {}}]}
    late["turns"][0]["expect"] = {
        "refused": {"a": {"answer": "no supply question"}},
        "supplied": [1],
        "tick": 8,
    }
    assert resolve_inline(late) == []
    late["turns"][0]["expect"] = {"supplied": [2]}  # the answer came too late to count
    assert resolve_inline(late) == [
        "turn 1: a's supply answer was refused: you have no supply question to answer now",
        "turn 1: supplied: expected [2], got [1]",
    ]


MALFORMED = """\
- name: first
  roads: H1-C1 C1-H2
  owners: {a: H1, b: H2}
  units: [a 1 infantry @ H1]
  orders: {a: [H1 > C1]}
  expect: {at: {C1: a infantry}}
- name: second
  roads: H1-C1 C1-H2
  owners: {a: H1, b: H2}
  expect: {owners: {C1: none}}
- just a line
- name: fourth
  roads: H1-C1 C1-H2
  expect: {owners: {C9: a}, refsued: {}}
"""


def test_a_malformed_case_is_reported_naming_its_field_and_the_others_still_run(
    tmp_path, capsys
) -> None:
    from bot.cli import main
    from engine.supplylines.cases import load_file
    from engine.supplylines.cases import run as resolve

    path = tmp_path / "mixed.yaml"
    path.write_text(MALFORMED)
    cases = load_file(path)
    assert [c.name for c in cases] == ["first", "second", "case 3", "fourth"]
    failures = [resolve(c).failures for c in cases]
    assert failures[0] == [
        "malformed case: expect.at.C1: 'a infantry' is not units like 'a 2 infantry, b 1 tank'"
    ]
    assert failures[1] == []
    assert failures[2] == [
        "malformed case: a case is a mapping of its fields (name, roads, ...), not 'just a line'"
    ]
    assert failures[3] == [
        "malformed case: expect: unknown field 'refsued' (fields: at, built, bumped, conflicts, "
        "defended, destroyed, disbanded, immobilised, marks, out, owners, questions, refused, "
        "restored, skipped, supplied, tick, units, winner)"
    ]
    assert main(["scenario", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {path}: first" in out and f"ok   {path}: second" in out
    assert f"FAIL {path}: case 3" in out and f"FAIL {path}: fourth" in out
    assert "1 passed, 3 failed" in out


def test_malformed_values_name_their_field() -> None:
    bad = {
        "expect": {"owners": {"C9": "a"}},
        "units": ["a 1 infantry @ C7"],
        "turns": [{"orders": {"z": ["H1 > C1"]}}],
        "supply_deadline": "soon",
    }
    wanted = {
        "expect": "malformed case: expect.owners: there is no structure C9 (structures: C1, "
        "C2, H1, H2)",
        "units": "malformed case: units: 'a 1 infantry @ C7': there is no structure C7",
        "turns": "malformed case: turns.1.orders: there is no player 'z' (players: a, b)",
        "supply_deadline": "malformed case: supply_deadline: 'soon' is not a duration (use "
        "30m, 4h, 2d or 3t)",
    }
    for key, value in bad.items():
        assert resolve_inline({**DUEL, key: value}) == [wanted[key]], key


def test_si_scenario_reports_a_file_it_cannot_read_or_a_case_it_cannot_run_and_goes_on(
    tmp_path, capsys, monkeypatch
) -> None:
    from bot.cli import main
    from engine.supplylines import cases

    broken = tmp_path / "broken.yaml"
    broken.write_text("- name: [unclosed\n")
    good = tmp_path / "good.yaml"
    good.write_text(
        "- name: one\n  roads: H1-C1 C1-H2\n  expect: {owners: {C1: none}}\n"
        "- name: two\n  roads: H1-C1 C1-H2\n  expect: {owners: {C1: none}}\n"
    )
    real = cases.run

    def crashing(case: Case) -> cases.Outcome:
        if case.name == "one":
            raise RuntimeError("the runner broke")
        return real(case)

    monkeypatch.setattr(cases, "run", crashing)
    assert main(["scenario", str(broken), str(good)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {broken}: cannot be read as YAML" in out
    assert f"FAIL {good}: one" in out
    assert "the case could not run: RuntimeError('the runner broke')" in out
    assert f"ok   {good}: two" in out and "1 passed, 2 failed" in out
