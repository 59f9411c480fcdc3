"""Caldera's ruleset file loads once and is checked: a broken copy is refused naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.caldera.rules import RULES_DIR, RulesError, available, load, load_file

STANDARD = (RULES_DIR / "standard.toml").read_text(encoding="utf-8")


def broken(tmp_path: Path, old: str, new: str) -> Path:
    assert old in STANDARD, old
    path = tmp_path / "broken.toml"
    path.write_text(STANDARD.replace(old, new, 1), encoding="utf-8")
    return path


def test_the_standard_rules_load_once() -> None:
    assert available() == ["standard"]
    assert load("standard") is load()
    assert load().final_zone == 5 and load().deck == "starter"


def test_an_unknown_ruleset_is_refused_with_the_list() -> None:
    with pytest.raises(RulesError, match="unknown rules 'classic'; available: standard"):
        load("classic")


def test_an_event_table_without_a_number_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, 'number = 6\ntitle = "Empty', 'number = 5\ntitle = "Empty')
    with pytest.raises(RulesError, match="events: needs exactly one row for each number 1-6"):
        load_file(path)


def test_a_wrong_value_names_its_field(tmp_path: Path) -> None:
    path = broken(tmp_path, 'tiles = "B"', 'tiles = "D"')
    with pytest.raises(
        RulesError, match=r"broken.toml: events.0.tiles: Input should be 'A', 'B' or 'C'"
    ):
        load_file(path)


def test_an_unknown_key_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "[fleet]\n", "[fleet]\nspeed = 3\n")
    with pytest.raises(RulesError, match="fleet.speed: Extra inputs are not permitted"):
        load_file(path)


def test_a_bonus_for_a_ship_without_a_design_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, 'ship = "earth-frigate"', 'ship = "earth-cruiser"')
    with pytest.raises(RulesError, match="bonus earth-frigate: no starting ship 'earth-cruiser'"):
        load_file(path)


def test_the_battle_sections_are_left_to_the_battle_rules() -> None:
    """[battle] and [land] are the battle engineer's: the rules file holds them when given."""
    assert isinstance(load().battle, dict) and isinstance(load().land, dict)
