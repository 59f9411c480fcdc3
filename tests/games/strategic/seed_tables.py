"""The figures of the seed rule tables, kept in tests/games/strategic/data/seed_tables.json, and their parsers.

The rule seeds live outside the repository (`../shared/seeds`, beside the project). What the
ruleset tests need from them, the numbers of the unit, city, tech and command point tables, is
transcribed into tests/games/strategic/data/seed_tables.json, so the tests run on a clone that has nothing beside
it. The file is generated from the seeds by the parsers below:

    python -m tests.games.strategic.seed_tables            # (re)write tests/games/strategic/data/seed_tables.json
    python -m tests.games.strategic.seed_tables --check    # exit 1 if the file no longer equals the seeds
    python -m tests.games.strategic.seed_tables PATH       # read the seeds from PATH instead of ../shared/seeds

Seed 000 (the `classic` ruleset) is an HTML page: its <table>s are read with html.parser. Seed 001
(the `standard` ruleset) is Markdown: its pipe tables are read line by line. Every table is kept
as {"columns": [...], "rows": [[cell, ...], ...]} with the cells exactly as the seed writes them
("8*", "*", "" included); prose columns (Icon, Notes) are left out.

tests/games/strategic/engine/test_rules_seed_tables.py checks that the file equals what these parsers read whenever the
seeds are present, so the figures cannot drift from the seeds.
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

SEEDS_DIR = Path(__file__).resolve().parents[4] / "shared" / "seeds"
DATA_FILE = Path(__file__).resolve().parent / "data" / "seed_tables.json"
SEED_000 = "000_27b49932dcda0f6b.txt"
SEED_001 = "001_49350bc325503f11.txt"

# The columns of the seeds' unit tables that hold figures; the rest (Icon, Notes) is prose.
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
SEED_001_UNIT_SECTIONS = ("Land Units", "Naval Units", "Air Units", "Tech Units")
SEED_000_TECH_ROW = "Technology increase"

ABOUT = (
    "Figures of the rule seeds' unit, city, tech and command point tables, transcribed by the "
    "parsers of tests/games/strategic/seed_tables.py (cells as the seeds write them). Do not edit by hand: "
    "regenerate with `python -m tests.games.strategic.seed_tables`. tests/games/strategic/engine/test_rules_seed_tables.py checks the "
    "rulesets against these figures, and these figures against ../shared/seeds when present."
)

Table = dict[str, list[Any]]  # {"columns": [str, ...], "rows": [[str, ...], ...]}


# ---- parsers ----------------------------------------------------------------------------------


class TableParser(HTMLParser):
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


def html_tables(html: str) -> list[list[list[str]]]:
    parser = TableParser()
    parser.feed(html)
    parser.close()
    return parser.tables


def markdown_table(lines: list[str], start: int) -> list[dict[str, str]]:
    """The Markdown table whose header line is lines[start], as dicts keyed by the header."""

    def cells(line: str) -> list[str]:
        return [c.strip() for c in line.strip().strip("|").split("|")]

    header = cells(lines[start])
    assert re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*\|?", lines[start + 1].strip()), (
        f"line {start + 2} is not a Markdown table separator"
    )
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip().startswith("|"):
            break
        row = cells(line)
        assert len(row) == len(header), f"row {line!r} has {len(row)} cells, not {len(header)}"
        rows.append(dict(zip(header, row, strict=True)))
    return rows


def markdown_table_after(lines: list[str], heading: str) -> list[dict[str, str]]:
    """The first Markdown table below the line `heading`."""
    idx = next((i for i, line in enumerate(lines) if line.strip() == heading), None)
    assert idx is not None, f"no heading {heading!r}"
    start = next(i for i in range(idx + 1, len(lines)) if lines[i].strip().startswith("|"))
    return markdown_table(lines, start)


# ---- the figures of each seed -----------------------------------------------------------------


def _table(columns: list[str], rows: list[list[str]]) -> Table:
    for row in rows:
        assert len(row) == len(columns), f"row {row} has {len(row)} cells, not {len(columns)}"
    return {"columns": list(columns), "rows": [list(row) for row in rows]}


def _unit_table(rows: list[dict[str, str]]) -> Table:
    """Rows keyed by column, the figure columns (UNIT_HEADER) kept in the seed's order."""
    columns = [c for c in rows[0] if c in UNIT_HEADER]
    assert columns[:2] == ["Unit", "Built in"], f"unit table starts with {columns[:2]}"
    return _table(columns, [[row[c] for c in columns] for row in rows])


def seed_000_figures(html: str) -> dict[str, Any]:
    """Seed 000's unit table (cities included), tech gain and command point costs."""
    tables = html_tables(html)

    unit_table = next((t for t in tables if t and all(col in t[0] for col in UNIT_HEADER)), None)
    assert unit_table is not None, f"seed 000: no <table> with the header {UNIT_HEADER}"
    header, body = unit_table[0], [row for row in unit_table[1:] if any(row)]
    for row in body:
        assert len(row) == len(header), f"seed 000: row {row} has {len(row)} cells, not {header}"
    units = _unit_table([dict(zip(header, row, strict=True)) for row in body])

    tech = [(t[0], r) for t in tables for r in t if r and r[0] == SEED_000_TECH_ROW]
    assert len(tech) == 1, f"seed 000 has {len(tech)} {SEED_000_TECH_ROW!r} rows, not 1"
    (tech_header, tech_row) = tech[0]

    cp = next((t for t in tables if t and t[0][:1] == ["Action"]), None)
    assert cp is not None, "seed 000 has no command point table"

    return {
        "source": SEED_000,
        "unit_table": units,
        "tech_gain": _table(tech_header, [tech_row]),
        "command_points": _table(cp[0], cp[1:]),
    }


def seed_001_figures(markdown: str) -> dict[str, Any]:
    """Seed 001's unit tables (one per section), tech gain and command point costs."""
    lines = markdown.splitlines()

    units = {}
    for section in SEED_001_UNIT_SECTIONS:
        units[section] = _unit_table(markdown_table_after(lines, f"#### {section}"))

    start = next(i for i, line in enumerate(lines) if line.strip().startswith("| Tech Centres"))
    tech = markdown_table(lines, start)

    start = next(
        i
        for i, line in enumerate(lines)
        if re.fullmatch(r"\|\s*Action\s*\|\s*Cost\s*\|", line.strip())
    )
    cp = markdown_table(lines, start)

    return {
        "source": SEED_001,
        "unit_tables": units,
        "tech_gain": _table(list(tech[0]), [list(r.values()) for r in tech]),
        "command_points": _table(list(cp[0]), [list(r.values()) for r in cp]),
    }


def figures_from_seeds(seeds_dir: Path = SEEDS_DIR) -> dict[str, Any]:
    """Everything tests/games/strategic/data/seed_tables.json holds, read from the seed files in `seeds_dir`."""
    return {
        "about": ABOUT,
        "seed_000": seed_000_figures((seeds_dir / SEED_000).read_text(encoding="utf-8")),
        "seed_001": seed_001_figures((seeds_dir / SEED_001).read_text(encoding="utf-8")),
    }


# ---- the data file ----------------------------------------------------------------------------


def load(path: Path = DATA_FILE) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with one table row (a list of plain values) per line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(v, list | dict) for v in value):
        items = [pad + dumps(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    seeds_dir = Path(args[0]) if args else SEEDS_DIR
    if not seeds_dir.is_dir():
        print(f"no seeds at {seeds_dir} (pass the folder that holds {SEED_000})", file=sys.stderr)
        return 2
    text = dumps(figures_from_seeds(seeds_dir)) + "\n"
    if check:
        if DATA_FILE.is_file() and DATA_FILE.read_text(encoding="utf-8") == text:
            print(f"{DATA_FILE} equals the seeds in {seeds_dir}")
            return 0
        print(f"{DATA_FILE} differs from the seeds in {seeds_dir}: regenerate it", file=sys.stderr)
        return 1
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_FILE} from the seeds in {seeds_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
