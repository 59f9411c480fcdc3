"""Every number of the rulesets' unit, city, tech and command-point tables equals its seed.

`classic` is checked against seed 000's HTML tables, `standard` against seed 001's Markdown tables;
where seed 001 has no column for a stat, `standard` takes seed 000's value (None for units seed 000
does not have).

The seeds' figures are kept in tests/games/strategic/data/seed_tables.json (see tests/games/strategic/seed_tables.py, which
generates it), so these tests need nothing outside the repository. When the seeds are checked out
beside the project (`../shared/seeds`), test_seed_data_equals_the_seeds checks that the file
still equals what the parsers read from them.

A number that deliberately differs from its seed must be listed in EXCEPTIONS with its reason.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from engine.strategic.rules import Ruleset, load
from tests.games.strategic import seed_tables
from tests.games.strategic.seed_tables import SEED_001_UNIT_SECTIONS, SEEDS_DIR, UNIT_HEADER

# (ruleset, unit or "city:<name>", field) -> why the ruleset deliberately differs from its seed.
# Stat fields: tech, cost_hours, mobility, sight, attack, ammo, flak, cannon, hp, built_in, title.
EXCEPTIONS: dict[tuple[str, str, str], str] = {}

# seed column -> model field
NUMBER_COLUMNS = {
    "Tech": "tech",
    "Cost (hrs)": "cost_hours",
    "Mobility": "mobility",
    "Sight": "sight",
    "Attack": "attack",
    "Ammo": "ammo",
    "Flak": "flak",
    "Cannon": "cannon",
    "HP": "hp",
}
BUILT_IN = {"Tech": "tech", "Fort": "fort", "Port": "port", "Airport": "airport"}
CITY_ROWS = {"Base": "base", "Fort": "fort", "Port": "port", "Airport": "airport"}
NAME_OVERRIDES = {"Aircraft Carrier": "carrier", "Spy Satellite": "satellite"}

CP_ACTIONS = {
    "move": "move",
    "move units": "move",
    "attack": "attack",
    "capture city": "capture",
    "launch satellite": "launch_satellite",
    "switch terrain": "switch_terrain",
    "launch icbm": "launch_icbm",
    "build city": "build_city",
    "build new city": "build_city",
}
SEED_CP_KEYS = sorted(set(CP_ACTIONS.values()))


# ---- the seeds' figures (tests/games/strategic/data/seed_tables.json) -----------------------------------------


@cache
def seed_data() -> dict[str, Any]:
    return seed_tables.load()


def rows_of(table: dict[str, list[Any]]) -> list[dict[str, str]]:
    """A stored table's rows as dicts keyed by its columns."""
    return [dict(zip(table["columns"], row, strict=True)) for row in table["rows"]]


def seed_000_unit_table() -> list[dict[str, str]]:
    return rows_of(seed_data()["seed_000"]["unit_table"])


def seed_000_units() -> dict[str, dict[str, str]]:
    return {r["Unit"]: r for r in seed_000_unit_table() if r["Unit"] not in CITY_ROWS}


def seed_000_cities() -> dict[str, dict[str, str]]:
    return {r["Unit"]: r for r in seed_000_unit_table() if r["Unit"] in CITY_ROWS}


def seed_001_unit_tables() -> dict[str, list[dict[str, str]]]:
    tables = seed_data()["seed_001"]["unit_tables"]
    return {s: rows_of(tables[s]) for s in SEED_001_UNIT_SECTIONS}


def seed_001_units() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for rows in seed_001_unit_tables().values():
        for row in rows:
            assert row["Unit"] not in out, f"seed 001 lists {row['Unit']!r} twice"
            out[row["Unit"]] = row
    return out


def unit_name(title: str) -> str:
    """The ruleset name of a seed's unit title: "Anti Tank" -> anti_tank, "ICBM 1" -> icbm_1."""
    return NAME_OVERRIDES.get(title, "_".join(title.lower().split()))


# ---- comparing --------------------------------------------------------------------------------


def parse_cell(cell: str) -> tuple[int | None, bool]:
    """(number, starred): "" -> (None, False), "*" -> (None, True), "8*" -> (8, True)."""
    cell = cell.strip()
    if not cell:
        return None, False
    starred = cell.endswith("*")
    digits = cell.rstrip("*").strip()
    if not digits:
        return None, starred
    assert re.fullmatch(r"\d+", digits), f"unexpected table cell {cell!r}"
    return int(digits), starred


def compare_unit(
    ruleset: str,
    rules: Ruleset,
    title: str,
    row: dict[str, str],
    fallback: dict[str, str] | None = None,
) -> list[str]:
    """Differences between one seed row and the ruleset's unit, exceptions left out.

    A column the row lacks is taken from `fallback` (the other seed's row), else it must be None.
    """
    name = unit_name(title)
    unit = rules.unit[name]
    problems: list[tuple[str, object, object]] = []

    if unit.title.casefold() != title.casefold():
        problems.append(("title", title, unit.title))
    built_in = BUILT_IN.get(row["Built in"], row["Built in"])
    if unit.built_in != built_in:
        problems.append(("built_in", built_in, unit.built_in))

    for column, field in NUMBER_COLUMNS.items():
        cell = row.get(column)
        if cell is None and fallback is not None:
            cell = fallback.get(column)
        expected, starred = parse_cell(cell or "")
        actual = getattr(unit, field)
        if actual != expected:
            problems.append((field, expected, actual))
        if field == "attack" and starred:
            # "8*": bombs on land, attack value at sea; "*": bombs or blasts instead of attacking
            if expected is not None and unit.bomb_percent is None:
                problems.append(("bomb_percent", "a bomb percentage (attack '8*')", None))
            if expected is None and unit.bomb_percent is None and unit.blast_radius is None:
                problems.append(("bomb_percent", "a bomb percentage or blast (attack '*')", None))
    return [
        f"{ruleset}: {name}.{field}: seed says {exp!r}, ruleset has {act!r}"
        for field, exp, act in problems
        if (ruleset, name, field) not in EXCEPTIONS
    ]


def compare_city(ruleset: str, rules: Ruleset, title: str, row: dict[str, str]) -> list[str]:
    name = CITY_ROWS[title]
    city = rules.city[name]
    out = []
    for column, field in (("Flak", "flak"), ("Cannon", "cannon")):
        expected, _ = parse_cell(row[column])
        actual = getattr(city, field)
        if actual != expected and (ruleset, f"city:{name}", field) not in EXCEPTIONS:
            out.append(
                f"{ruleset}: city {name}.{field}: seed says {expected!r}, ruleset has {actual!r}"
            )
    return out


def report(problems: list[str]) -> str:
    return "ruleset differs from its seed (fix the data or add to EXCEPTIONS):\n  " + "\n  ".join(
        problems
    )


# ---- the seed data and its parsers ------------------------------------------------------------


def test_seed_data_equals_the_seeds() -> None:
    """tests/games/strategic/data/seed_tables.json holds exactly what the parsers read from the seed files."""
    if not SEEDS_DIR.is_dir():
        pytest.skip(
            f"the rule seeds are not beside the project ({SEEDS_DIR} is absent), so the seed "
            "figures in tests/games/strategic/data/seed_tables.json are used without checking them against the seeds"
        )
    stored, fresh = seed_data(), seed_tables.figures_from_seeds(SEEDS_DIR)
    assert stored == fresh, (
        f"tests/games/strategic/data/seed_tables.json differs from the seeds in {SEEDS_DIR} at "
        f"{', '.join(differences(stored, fresh)[:10])}: run `python -m tests.games.strategic.seed_tables` to "
        "regenerate it, then check the rulesets against the new figures"
    )


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as paths like seed_001.unit_tables.Land Units.rows[1][5]."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = list(a) + [k for k in b if k not in a]
        return [d for k in keys for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in differences(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [path.lstrip(".") or "the top level"]


def test_html_table_parser() -> None:
    html = (
        "<p>x</p><table><tr><th>Unit</th><th>HP</th></tr>"
        "<tr><td><img src=a.png></td><td> 8&#42; </td></tr>"
        "<tr><td>Heavy\n  Bomber</td><td></td></tr></table><table><tr><td>Action</td></table>"
    )
    assert seed_tables.html_tables(html) == [
        [["Unit", "HP"], ["", "8*"], ["Heavy Bomber", ""]],
        [["Action"]],
    ]


def test_markdown_table_parser() -> None:
    lines = ["#### Land Units", "", "| Unit | HP |", "|:-----|---:|", "| Tank | 9 |", "", "| x |"]
    assert seed_tables.markdown_table_after(lines, "#### Land Units") == [
        {"Unit": "Tank", "HP": "9"}
    ]
    with pytest.raises(AssertionError, match="has 3 cells, not 2"):
        seed_tables.markdown_table(["| a | b |", "|---|---|", "| 1 | 2 | 3 |"], 0)


def test_seed_000_unit_table_data() -> None:
    assert seed_data()["seed_000"]["unit_table"]["columns"] == list(UNIT_HEADER)
    units, cities = seed_000_units(), seed_000_cities()
    assert set(cities) == set(CITY_ROWS)
    assert len(units) == 21
    assert units["Naval bomber"]["Attack"] == "8*"
    assert units["Aircraft Carrier"]["Sight"] == "*"
    assert units["Zeppelin"]["Ammo"] == ""
    assert cities["Port"]["Cannon"] == "4"


def test_seed_001_unit_tables_data() -> None:
    tables = seed_001_unit_tables()
    assert [len(tables[s]) for s in SEED_001_UNIT_SECTIONS] == [3, 8, 6, 6]
    assert "Flak" in tables["Naval Units"][0] and "Flak" not in tables["Land Units"][0]
    assert "Ammo" not in tables["Tech Units"][0]
    assert seed_001_units()["Naval Bomber"]["Attack"] == "8*"


@pytest.mark.parametrize(
    ("cell", "parsed"),
    [
        ("", (None, False)),
        ("*", (None, True)),
        ("8*", (8, True)),
        ("12", (12, False)),
        ("0", (0, False)),
    ],
)
def test_parse_cell(cell: str, parsed: tuple[int | None, bool]) -> None:
    assert parse_cell(cell) == parsed


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("Anti Tank", "anti_tank"),
        ("Aircraft Carrier", "carrier"),
        ("Spy Satellite", "satellite"),
        ("ICBM 1", "icbm_1"),
        ("Supply ship", "supply_ship"),
        ("Naval Bomber", "naval_bomber"),
        ("Cargo Plane", "cargo_plane"),
    ],
)
def test_unit_name(title: str, name: str) -> None:
    assert unit_name(title) == name


# ---- classic = seed 000 -----------------------------------------------------------------------


def test_classic_has_exactly_the_units_of_seed_000() -> None:
    rules = load("classic")
    seed = [unit_name(t) for t in seed_000_units()]
    assert sorted(set(seed) - set(rules.unit)) == [], "units of seed 000 missing from classic"
    assert sorted(set(rules.unit) - set(seed)) == [], "classic units that seed 000 does not have"
    assert [u.name for u in rules.units] == seed, "classic keeps seed 000's order"


def test_classic_unit_numbers_equal_seed_000() -> None:
    rules = load("classic")
    problems = [
        p for t, row in seed_000_units().items() for p in compare_unit("classic", rules, t, row)
    ]
    assert not problems, report(problems)


def test_classic_city_flak_and_cannon_equal_seed_000() -> None:
    rules = load("classic")
    problems = [
        p for t, row in seed_000_cities().items() for p in compare_city("classic", rules, t, row)
    ]
    assert not problems, report(problems)


def test_standard_city_flak_and_cannon_equal_seed_000() -> None:
    # seed 001 gives the same numbers in prose ("Forts have 2 flak and 2 cannons", ...)
    rules = load("standard")
    problems = [
        p for t, row in seed_000_cities().items() for p in compare_city("standard", rules, t, row)
    ]
    assert not problems, report(problems)


def test_classic_tech_gain_equals_seed_000() -> None:
    table = seed_data()["seed_000"]["tech_gain"]
    rows, header = table["rows"], table["columns"]
    assert len(rows) == 1 and rows[0][0] == "Technology increase", "seed 000 has one such row"
    assert header[1:] == [str(i) for i in range(len(rows[0]) - 1)], "tech centres 0, 1, 2, ..."
    assert load("classic").tech.daily_gain == [float(x) for x in rows[0][1:]]


def test_classic_command_point_costs_equal_seed_000() -> None:
    table = seed_data()["seed_000"]["command_points"]
    assert table["columns"][:1] == ["Action"], "seed 000's command point table"
    seed = {CP_ACTIONS[action.lower()]: int(cost) for action, cost in table["rows"]}
    assert sorted(seed) == SEED_CP_KEYS
    costs = load("classic").command_points.costs.model_dump()
    assert {k: costs[k] for k in seed} == seed


# ---- standard = seed 001 (completed by seed 000) ----------------------------------------------


def test_standard_has_exactly_the_units_of_seed_001() -> None:
    rules = load("standard")
    seed = [unit_name(t) for t in seed_001_units()]
    assert sorted(set(seed) - set(rules.unit)) == [], "units of seed 001 missing from standard"
    assert sorted(set(rules.unit) - set(seed)) == [], "standard units that seed 001 does not have"
    assert [u.name for u in rules.units] == seed, "standard keeps seed 001's order"


def test_standard_unit_numbers_equal_seed_001() -> None:
    rules = load("standard")
    fallback = {unit_name(t): row for t, row in seed_000_units().items()}
    problems = [
        p
        for t, row in seed_001_units().items()
        for p in compare_unit("standard", rules, t, row, fallback.get(unit_name(t)))
    ]
    assert not problems, report(problems)


def test_standard_tech_gain_equals_seed_001() -> None:
    rows = rows_of(seed_data()["seed_001"]["tech_gain"])
    assert len(rows) == 1 and rows[0]["Tech Centres"] == "Daily increase"
    centres = [k for k in rows[0] if k != "Tech Centres"]
    assert centres[:-1] == [str(i) for i in range(len(centres) - 1)] and centres[-1].endswith("+")
    assert load("standard").tech.daily_gain == [float(rows[0][k]) for k in centres]


def test_standard_command_point_costs_equal_seed_001() -> None:
    table = seed_data()["seed_001"]["command_points"]
    assert table["columns"] == ["Action", "Cost"], "seed 001's command point table"
    seed = {CP_ACTIONS[r["Action"].lower()]: int(r["Cost"]) for r in rows_of(table)}
    assert sorted(seed) == SEED_CP_KEYS
    costs = load("standard").command_points.costs.model_dump()
    assert {k: costs[k] for k in seed} == seed


# ---- the exceptions stay honest ---------------------------------------------------------------


def test_exceptions_name_real_differences() -> None:
    """Every listed exception names a real unit/city and a stat that really differs from the seed."""
    for (ruleset, what, field), reason in EXCEPTIONS.items():
        assert reason.strip(), f"exception {(ruleset, what, field)} needs a reason"
        rules = load(ruleset)
        if what.startswith("city:"):
            assert what[5:] in rules.city, f"exception names unknown city {what!r}"
            continue
        assert what in rules.unit, f"exception names unknown unit {what!r}"
        if ruleset == "classic":
            row = next(r for t, r in seed_000_units().items() if unit_name(t) == what)
            title, fallback = row["Unit"], None
        else:
            row = next(r for t, r in seed_001_units().items() if unit_name(t) == what)
            title = row["Unit"]
            fallback = next((r for t, r in seed_000_units().items() if unit_name(t) == what), None)
        saved = EXCEPTIONS.pop((ruleset, what, field))
        try:
            found = compare_unit(ruleset, rules, title, row, fallback)
        finally:
            EXCEPTIONS[(ruleset, what, field)] = saved
        assert any(f"{what}.{field}:" in p for p in found), (
            f"exception {(ruleset, what, field)} is stale: the ruleset now agrees with the seed"
        )
