"""Every number of the rulesets' unit, city, tech and command-point tables equals its seed.

`classic` is checked against seed 000's HTML tables (parsed with html.parser straight from the
original page), `standard` against seed 001's Markdown tables; where seed 001 has no column for a
stat, `standard` takes seed 000's value (None for units seed 000 does not have).

A number that deliberately differs from its seed must be listed in EXCEPTIONS with its reason.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

from engine.rules import Ruleset, load

# (ruleset, unit or "city:<name>", field) -> why the ruleset deliberately differs from its seed.
# Stat fields: tech, cost_hours, mobility, sight, attack, ammo, flak, cannon, hp, built_in, title.
EXCEPTIONS: dict[tuple[str, str, str], str] = {}

SEEDS_DIR = Path(__file__).resolve().parents[2] / "shared" / "seeds"
SEED_000 = "000_27b49932dcda0f6b.txt"
SEED_001 = "001_49350bc325503f11.txt"

UNIT_HEADER = (
    "Unit",
    "Built in",
    "Tech",
    "Cost (hrs)",
    "Mobility",
    "Sight",
    "Attack",
    "Ammo",
    "Flak",
    "Cannon",
    "HP",
)
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
SEED_001_UNIT_SECTIONS = ("Land Units", "Naval Units", "Air Units", "Tech Units")

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


# ---- reading the seeds ------------------------------------------------------------------------


def seed_text(name: str) -> str:
    path = SEEDS_DIR / name
    if not path.is_file():
        pytest.fail(
            f"seed file {path} not found: the seeds must be checked out in shared/seeds beside "
            f"the project ({SEEDS_DIR.parent.parent} should hold both the project and shared/)",
            pytrace=False,
        )
    return path.read_text(encoding="utf-8")


class _TableParser(HTMLParser):
    """Every <table> of a page as a list of rows, each a list of cell texts (td and th)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self._stack: list[list[list[str]]] = []  # open tables (nesting safe)
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def _close_cell(self) -> None:
        if self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
        self._cell = None

    def _close_row(self) -> None:
        self._close_cell()
        if self._row is not None and self._stack:
            self._stack[-1].append(self._row)
        self._row = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self._stack.append([])
        elif tag == "tr":
            self._close_row()
            self._row = []
        elif tag in ("td", "th"):
            self._close_cell()
            if self._row is None:
                self._row = []
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._close_cell()
        elif tag == "tr":
            self._close_row()
        elif tag == "table" and self._stack:
            self._close_row()
            self.tables.append(self._stack.pop())

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@cache
def html_tables() -> list[list[list[str]]]:
    parser = _TableParser()
    parser.feed(seed_text(SEED_000))
    parser.close()
    return parser.tables


def _markdown_table(lines: list[str], start: int) -> list[dict[str, str]]:
    """The Markdown table whose header line is lines[start], as dicts keyed by the header."""

    def cells(line: str) -> list[str]:
        return [c.strip() for c in line.strip().strip("|").split("|")]

    header = cells(lines[start])
    assert re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*\|?", lines[start + 1].strip()), (
        f"seed 001 line {start + 2} is not a Markdown table separator"
    )
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip().startswith("|"):
            break
        row = cells(line)
        assert len(row) == len(header), (
            f"seed 001: row {line!r} has {len(row)} cells, not {len(header)}"
        )
        rows.append(dict(zip(header, row, strict=True)))
    return rows


def _table_after(lines: list[str], heading: str) -> list[dict[str, str]]:
    idx = next((i for i, line in enumerate(lines) if line.strip() == heading), None)
    assert idx is not None, f"seed 001 has no heading {heading!r}"
    start = next(i for i in range(idx + 1, len(lines)) if lines[i].strip().startswith("|"))
    return _markdown_table(lines, start)


@cache
def seed_000_unit_table() -> list[dict[str, str]]:
    for table in html_tables():
        if table and all(col in table[0] for col in UNIT_HEADER):
            header, rows = table[0], [row for row in table[1:] if any(row)]
            for row in rows:
                assert len(row) == len(header), (
                    f"seed 000: row {row} has {len(row)} cells, not {len(header)}"
                )
            return [dict(zip(header, row, strict=True)) for row in rows]
    pytest.fail(f"seed 000: no <table> with the header {UNIT_HEADER}", pytrace=False)


def seed_000_units() -> dict[str, dict[str, str]]:
    return {r["Unit"]: r for r in seed_000_unit_table() if r["Unit"] not in CITY_ROWS}


def seed_000_cities() -> dict[str, dict[str, str]]:
    return {r["Unit"]: r for r in seed_000_unit_table() if r["Unit"] in CITY_ROWS}


@cache
def seed_001_unit_tables() -> dict[str, list[dict[str, str]]]:
    lines = seed_text(SEED_001).splitlines()
    return {s: _table_after(lines, f"#### {s}") for s in SEED_001_UNIT_SECTIONS}


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


# ---- the parsers themselves -------------------------------------------------------------------


def test_seed_000_unit_table_parsed() -> None:
    units, cities = seed_000_units(), seed_000_cities()
    assert set(cities) == set(CITY_ROWS)
    assert len(units) == 21
    assert units["Naval bomber"]["Attack"] == "8*"
    assert units["Aircraft Carrier"]["Sight"] == "*"
    assert units["Zeppelin"]["Ammo"] == ""
    assert cities["Port"]["Cannon"] == "4"


def test_seed_001_unit_tables_parsed() -> None:
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
    rows = [r for t in html_tables() for r in t if r and r[0] == "Technology increase"]
    assert len(rows) == 1, "seed 000 has one 'Technology increase' row"
    header = next(t[0] for t in html_tables() if any(r[0] == "Technology increase" for r in t if r))
    assert header[1:] == [str(i) for i in range(len(rows[0]) - 1)], "tech centres 0, 1, 2, ..."
    assert load("classic").tech.daily_gain == [float(x) for x in rows[0][1:]]


def test_classic_command_point_costs_equal_seed_000() -> None:
    table = next((t for t in html_tables() if t and t[0][:1] == ["Action"]), None)
    assert table is not None, "seed 000 has no command point table"
    seed = {CP_ACTIONS[action.lower()]: int(cost) for action, cost in table[1:]}
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
    lines = seed_text(SEED_001).splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("| Tech Centres"))
    rows = _markdown_table(lines, start)
    assert len(rows) == 1 and rows[0]["Tech Centres"] == "Daily increase"
    centres = [k for k in rows[0] if k != "Tech Centres"]
    assert centres[:-1] == [str(i) for i in range(len(centres) - 1)] and centres[-1].endswith("+")
    assert load("standard").tech.daily_gain == [float(rows[0][k]) for k in centres]


def test_standard_command_point_costs_equal_seed_001() -> None:
    lines = seed_text(SEED_001).splitlines()
    start = next(
        i
        for i, line in enumerate(lines)
        if re.fullmatch(r"\|\s*Action\s*\|\s*Cost\s*\|", line.strip())
    )
    seed = {CP_ACTIONS[r["Action"].lower()]: int(r["Cost"]) for r in _markdown_table(lines, start)}
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
