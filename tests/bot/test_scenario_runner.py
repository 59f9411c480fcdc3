"""The scenario runner reports what differs, and `si` exits accordingly."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from engine.strategic.scenario import ScenarioError, run

BASE = {
    "ruleset": "standard",
    "map": "~~~~~~\n~.A..~\n~....~\n~~~~~~",
    "nations": {"red": {}},
    "cities": {"A": {"owner": "red", "designation": "fort", "build": "infantry"}},
    "units": [{"id": 1, "owner": "red", "type": "infantry", "at": "1,1", "mobility": 2}],
}


def test_a_wrong_expectation_is_reported_with_both_values():
    report = run({**BASE, "steps": [{"expect": {"units": {1: {"at": "4,2", "hp": 5}}}}]})
    assert report.failures == ["step 1 (expect): unit 1 at: expected '4,2', got '1,1'"]


def test_ranges_events_and_gone():
    steps = [
        {"advance": "8h"},
        {
            "expect": {
                "nations": {"red": {"cp": [500, 600], "units": 2}},
                "events": [{"kind": "UnitBuilt", "unit": "infantry", "count": 1}],
                "units": {1: "gone"},
            }
        },
    ]
    report = run({**BASE, "steps": steps})
    assert report.failures == ["step 2 (expect): unit 1: expected gone, still at 1,1 with 5 hp"]


def test_an_accepted_command_that_should_fail_is_reported():
    steps = [
        {"reject": {"nation": "red", "kind": "move", "units": [1], "to": "2,2", "error": "no way"}}
    ]
    report = run({**BASE, "steps": steps})
    assert report.failures == [
        "step 1 (reject): expected the command to be rejected, but it was accepted"
    ]


def test_wrong_error_text_is_reported():
    steps = [
        {"reject": {"nation": "red", "kind": "move", "units": [1], "to": "0,0", "error": "dragons"}}
    ]
    report = run({**BASE, "steps": steps})
    assert (
        len(report.failures) == 1
        and "expected a message containing 'dragons'" in report.failures[0]
    )


def test_pinned_dice_that_no_roll_used_or_no_roll_can_give_are_reported():
    unused = run({**BASE, "dice": [3], "steps": [{"advance": "1h"}]})
    assert unused.failures == [
        "1 pinned dice were never rolled ([3]): pin only the rolls the scenario makes"
    ]
    with pytest.raises(ScenarioError, match="dice are a list of whole numbers"):
        run({**BASE, "steps": [{"dice": ["six"]}]})


def test_si_scenario_exit_codes(tmp_path, capsys):
    good = tmp_path / "good.yaml"
    good.write_text("map: |\n  ~~~\n  ~.~\n  ~~~\nsteps:\n  - advance: 1t\n  - expect: {tick: 1}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("map: |\n  ~~~\n  ~#~\n  ~~~\n")
    assert main(["scenario", str(good)]) == 0
    assert main(["scenario", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "unknown map character '#'" in out and "1 passed, 1 failed" in out


def test_si_scenario_runs_supply_lines_cases_too(tmp_path, capsys):
    """`si scenario` tells a file of Supply Lines adjudication cases by its form (a list of
    cases with roads): each case on a line, its differences, a picture with --out."""
    cases = tmp_path / "duel.yaml"
    cases.write_text(
        "- name: a walk into a neutral city takes it\n"
        "  roads: H1-C1 C1-H2\n"
        "  owners: {a: H1, b: H2}\n"
        "  units: [a 1 infantry @ H1]\n"
        "  orders: {a: [H1 > C1]}\n"
        "  expect: {owners: {C1: a}}\n"
        "- name: wrong on purpose\n"
        "  roads: H1-C1 C1-H2\n"
        "  expect: {owners: {C1: b}}\n"
    )
    assert main(["scenario", str(cases), "--out", str(tmp_path / "pictures")]) == 1
    out = capsys.readouterr().out
    assert f"ok   {cases}: a walk into a neutral city takes it" in out
    assert f"FAIL {cases}: wrong on purpose" in out
    assert "owner of C1: expected 'b', got None" in out and "1 passed, 1 failed" in out
    assert (tmp_path / "pictures" / "duel-01.png").read_bytes().startswith(b"\x89PNG")


def test_si_rules_json(capsys):
    assert main(["rules", "classic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    tank = next(u for u in data["units"] if u["name"] == "tank")
    assert (tank["cost_hours"], tank["hp"], tank["cannon"]) == (12, 8, None)
    assert {c["name"]: (c["flak"], c["cannon"]) for c in data["cities"]}["fort"] == (2, 2)
