"""Loading rulesets: both shipped rulesets load, broken files fail with a clear RulesetError,
the JSON export carries every field, and the attack multipliers read as the seeds say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.strategic.rules import RulesetError, available, load, load_file
from engine.strategic.rules.export import ruleset_json
from engine.strategic.rules.loader import RULESET_DIR
from engine.strategic.rules.models import CityType, Ruleset, UnitType

RULESETS = ("classic", "standard")
UNIT_KEYS = {
    "name",
    "title",
    "built_in",
    "tech",
    "cost_hours",
    "mobility",
    "sight",
    "attack",
    "ammo",
    "flak",
    "cannon",
    "hp",
}
CITY_KEYS = {"name", "title", "flak", "cannon", "sight"}
SECTIONS = {
    "time",
    "command_points",
    "power",
    "tech",
    "supply",
    "healing",
    "mobility",
    "sighting",
    "engineer",
    "capture",
    "transport",
    "combat",
    "diplomacy",
    "start",
}

INFANTRY = 'name = "infantry"'
INFANTRY_HP = "ammo = 1\nhp = 5\n"


def broken_copy(tmp_path: Path, old: str, new: str, name: str = "classic") -> Path:
    """A copy of a shipped ruleset with the first `old` replaced by `new`."""
    text = (RULESET_DIR / f"{name}.toml").read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}.toml: the test needs updating"
    path = tmp_path / f"broken_{name}.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(RulesetError) as info:
        load_file(path)
    message = str(info.value)
    assert path.name in message, f"the message should name the file: {message}"
    return message


# ---- loading ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_loads(name: str) -> None:
    rules = load(name)
    assert isinstance(rules, Ruleset)
    assert rules.name == name
    assert rules.units and rules.cities
    assert load(name) is rules, "load() caches"


def test_available_lists_both_rulesets() -> None:
    assert set(RULESETS) <= set(available())


def test_default_ruleset_is_standard() -> None:
    assert load().name == "standard"


def test_shipped_files_load_with_load_file() -> None:
    for name in RULESETS:
        assert load_file(RULESET_DIR / f"{name}.toml") == load(name)


def test_units_come_first_in_infantry_order() -> None:
    # the malformed-copy tests below rely on infantry being units[0] in classic
    assert load("classic").units[0].name == "infantry"
    assert load("standard").units[0].name == "infantry"


# ---- malformed copies -------------------------------------------------------------------------


def test_negative_hp_names_file_and_field(tmp_path: Path) -> None:
    message = load_error(broken_copy(tmp_path, INFANTRY_HP, "ammo = 1\nhp = -1\n"))
    assert "units[0] (infantry).hp" in message
    assert "greater than 0" in message


def test_missing_required_field_names_file_and_field(tmp_path: Path) -> None:
    message = load_error(broken_copy(tmp_path, INFANTRY_HP, "ammo = 1\n"))
    assert "units[0] (infantry).hp" in message
    assert "Field required" in message


def test_missing_section_names_it(tmp_path: Path) -> None:
    path = broken_copy(
        tmp_path,
        "[healing]\nin_city_percent = 40\nin_supply_percent = 20\nin_supply_cap_percent = 100\n",
        "",
    )
    assert "healing" in load_error(path)


def test_wrong_type_in_section_names_field(tmp_path: Path) -> None:
    message = load_error(
        broken_copy(tmp_path, "[supply]\nradius = 5\n", '[supply]\nradius = "five"\n')
    )
    assert "supply.radius" in message


def test_unknown_field_is_refused(tmp_path: Path) -> None:
    message = load_error(broken_copy(tmp_path, INFANTRY, INFANTRY + "\nspeed = 3"))
    assert "units[0] (infantry).speed" in message


def test_unknown_built_in_names_file_unit_and_field(tmp_path: Path) -> None:
    path = broken_copy(
        tmp_path,
        INFANTRY + '\ntitle = "Infantry"\nunit_class = "land"\n'
        'moves_on = "land"\nbuilt_in = "fort"',
        INFANTRY + '\ntitle = "Infantry"\nunit_class = "land"\n'
        'moves_on = "land"\nbuilt_in = "castle"',
    )
    message = load_error(path)
    assert "infantry" in message
    assert "built_in" in message
    assert "castle" in message


def test_unknown_unit_class_names_field(tmp_path: Path) -> None:
    path = broken_copy(
        tmp_path,
        INFANTRY + '\ntitle = "Infantry"\nunit_class = "land"',
        INFANTRY + '\ntitle = "Infantry"\nunit_class = "space"',
    )
    assert "units[0] (infantry).unit_class" in load_error(path)


def test_bad_city_field_names_city(tmp_path: Path) -> None:
    path = broken_copy(
        tmp_path,
        'name = "fort"\ntitle = "Fort"\nflak = 2',
        'name = "fort"\ntitle = "Fort"\nflak = -2',
    )
    assert "cities[0] (fort).flak" in load_error(path)


def test_invalid_toml_syntax_names_file(tmp_path: Path) -> None:
    message = load_error(broken_copy(tmp_path, "[time]", "[time"))
    assert "not valid TOML" in message
    assert "line" in message


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(RulesetError, match="absent.toml"):
        load_file(path)


def test_unknown_ruleset_names_the_available_ones() -> None:
    with pytest.raises(RulesetError) as info:
        load("nope")
    message = str(info.value)
    assert "nope" in message
    for name in RULESETS:
        assert name in message


def test_ruleset_error_is_a_value_error() -> None:
    assert issubclass(RulesetError, ValueError)


# ---- JSON export ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_json_shape(name: str) -> None:
    rules = load(name)
    rules.unit, rules.city  # noqa: B018 - fill the cached lookups: they must not leak into the export
    data = ruleset_json(rules)
    assert list(data)[:5] == ["name", "title", "description", "units", "cities"]
    optional = {"icbm", "wastelands"}  # seed 002's sections: total-war's only
    assert set(data) - optional == {"name", "title", "description", "units", "cities"} | SECTIONS
    assert (set(data) & optional == optional) == (name == "total-war")
    assert data["name"] == name and data["title"] == rules.title
    for section in SECTIONS:
        assert isinstance(data[section], dict), section
    assert [u["name"] for u in data["units"]] == [u.name for u in rules.units]
    assert [c["name"] for c in data["cities"]] == [c.name for c in rules.cities]
    for unit in data["units"]:
        assert set(unit) >= UNIT_KEYS, unit["name"]
        assert set(unit) == set(UnitType.model_fields), unit["name"]
    for city in data["cities"]:
        assert set(city) >= CITY_KEYS, city["name"]
        assert set(city) == set(CityType.model_fields), city["name"]
    assert json.loads(json.dumps(data)) == data


def test_ruleset_json_keeps_none_as_null() -> None:
    data = ruleset_json(load("classic"))
    units = {u["name"]: u for u in data["units"]}
    assert units["carrier"]["sight"] is None
    assert units["heavy_bomber"]["attack"] is None
    assert units["zeppelin"]["ammo"] is None
    assert units["naval_bomber"]["attack"] == 8 and units["naval_bomber"]["bomb_percent"] == 25
    cities = {c["name"]: c for c in data["cities"]}
    assert cities["port"]["flak"] is None and cities["port"]["cannon"] == 4
    assert '"sight": null' in json.dumps(units["carrier"])


def test_ruleset_json_round_trips() -> None:
    for name in RULESETS:
        rules = load(name)
        assert Ruleset.model_validate(ruleset_json(rules)) == rules


# ---- multipliers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "attacker", "defender", "factor"),
    [
        ("standard", "fighter", "zeppelin", 2),
        ("standard", "fighter", "fighter", 1),
        ("standard", "fighter", "heavy_bomber", 2),
        ("standard", "fighter", "infantry", 1),
        ("standard", "submarine", "battleship", 4),
        ("standard", "submarine", "destroyer", 3),
        ("standard", "helicopter", "submarine", 2),
        ("standard", "infantry", "tank", 1),
        ("classic", "fighter", "zeppelin", 1),
        ("classic", "fighter", "heavy_bomber", 2),
        ("classic", "fighter", "helicopter", 2),
        ("classic", "submarine", "battleship", 4),
        ("classic", "submarine", "carrier", 4),
        ("classic", "submarine", "destroyer", 3),
        ("classic", "destroyer", "submarine", 3),
        ("classic", "infantry", "anti_tank", 2),
        ("classic", "anti_tank", "tank", 2),
        ("classic", "tank", "anti_tank", 1),
    ],
)
def test_multiplier(ruleset: str, attacker: str, defender: str, factor: int) -> None:
    rules = load(ruleset)
    assert rules.multiplier(rules.unit[attacker], rules.unit[defender]) == factor
