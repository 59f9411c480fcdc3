"""The figures of seed 003's tables (Caldera), kept in tests/games/caldera/data/seed_003.json, and
their parser.

The rule seeds live outside the repository (`../shared/seeds`, beside the project). What the
Caldera rules tests need from seed 003 (its tables and the numbers of its lists and sentences)
is transcribed into tests/games/caldera/data/seed_003.json by the parser below, so the tests run
on a clone with nothing beside it; tests/games/caldera/engine/test_seed_tables.py checks that
the file still equals what the parser reads whenever the seed is present.

    python -m tests.games.caldera.seed_003           # (re)write the JSON from the seed
    python -m tests.games.caldera.seed_003 --check   # exit 1 if it no longer equals the seed

The seed is an HTML page whose tables are <pre> blocks of whitespace-separated columns and
whose other rules are <li> items and sentences; cells are kept as the seed writes them ("1-1",
"30+layout*3") except numbers, which become ints.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from typing import Any

SEEDS_DIR = Path(__file__).resolve().parents[4] / "shared" / "seeds"
SEED = "003_a8c08a1b963f90a7.txt"
DATA_FILE = Path(__file__).resolve().parent / "data" / "seed_003.json"
ABOUT = "Seed 003's figures, written by `python -m tests.games.caldera.seed_003`: do not edit."


def _plain(text: str) -> str:
    """A fragment of the page as text: tags dropped, entities read, spaces as the seed has them."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def _pre_blocks(page: str) -> list[list[str]]:
    """Each <pre> block's non-empty lines (tags dropped, stripped)."""
    blocks = []
    for block in re.findall(r"<pre>(.*?)</pre>", page, flags=re.S):
        lines = [line.strip() for line in _plain(block).splitlines()]
        blocks.append([line for line in lines if line])
    return blocks


def _block(page: str, header_word: str) -> list[str]:
    """The rows of the <pre> block whose header line starts with `header_word`."""
    for lines in _pre_blocks(page):
        if lines and lines[0].startswith(header_word):
            return lines[1:]
    raise ValueError(f"no table headed {header_word!r} in the seed")


def _cells(line: str) -> list[str]:
    return re.split(r"\s{2,}|\t+", line.strip())


def _num(text: str) -> Any:
    return int(text) if re.fullmatch(r"\d+", text) else text


def _section(page: str, start: str, end: str) -> str:
    i = page.index(start)
    return page[i : page.index(end, i)]


def _items(fragment: str) -> list[str]:
    """The <li> items of a fragment as text, spaces folded."""
    return [" ".join(_plain(li).split()) for li in re.findall(r"<li>(.*?)</li>", fragment, re.S)]


def figures_from_seed(page: str) -> dict[str, Any]:
    """Every figure the Caldera rules tests compare with, read from seed 003's page."""
    text = " ".join(_plain(page).split())
    figures: dict[str, Any] = {"about": ABOUT}

    # ---- setting up
    found = re.search(r"Distribute (\d+) points.*?Cha, Int and Eng have to be at least (\d+)", text)
    assert found
    figures["stat_points"], figures["stat_minimum"] = int(found[1]), int(found[2])
    figures["stats"] = [item.split()[0] for item in _items(_section(page, "<ul>", "</ul>"))]
    found = re.search(r"Each player gets (\d+) starting credits", text)
    assert found
    figures["credits"] = int(found[1])
    figures["bonuses"] = [
        [m[1].strip(), int(m[2])]
        for m in (re.fullmatch(r"(.*?)\s+(\d+)", line) for line in _block(page, "Bonus"))
        if m
    ]
    figures["starting_ships"] = [
        [cls, engine, int(count), part]
        for cls, engine, count, part in re.findall(
            r"All starting (\w+?)s? are geared with (.+?) and (\d)x ?(.+?)s?\.", text
        )
    ]
    figures["starting_techs"] = [
        [_num(c) for c in _cells(line)] for line in _block(page, "Starting Technologies")
    ]
    found = re.search(r"(\d)X Space.*?(\d)X Structure points", text)
    assert found
    figures["shipyard"] = [int(found[1]), int(found[2])]

    # ---- player skills: every number of the section, in order
    skills = " ".join(_plain(_section(page, 'id="Player_skills"', "</section>")).split())
    figures["skill_numbers"] = [int(n) for n in re.findall(r"(\d+)", skills)]

    # ---- the event table
    events = _section(page, "<h4>Event table</h4>", "</section>")
    rows = re.split(r"<li>", events)[1:]
    figures["events"] = []
    for row in rows:
        row_text = " ".join(_plain(row).split())
        title = row_text.split(" Draw ")[0].strip()
        tiles = re.search(r"Draw a (\w) tile", row_text)
        ships = re.search(r"Put (\d)X enemy ships", row_text)
        figures["events"].append([title, tiles[1] if tiles else "", int(ships[1]) if ships else 0])

    # ---- missions, rewards, zone counter, zone missions, trust, fleets
    loyalty = _section(page, 'id="Loyalty_and_Events"', "<h4>Zone counter</h4>")
    lists = loyalty.split("<h4>Possible mission rewards</h4>")
    figures["missions"] = [
        [_num(c) for c in re.split(r"\s+", item, maxsplit=2)] for item in _items(lists[0])
    ]
    figures["rewards"] = [
        [_num(c) for c in re.split(r"\s+", item, maxsplit=2)] for item in _items(lists[1])
    ]
    found = re.search(
        r"set zone counter to (\d+)\+average charisma.*?remove (\d+).*?add (\d+)", text
    )
    assert found
    figures["zone_counter"] = [int(found[1]), int(found[2]), int(found[3])]
    zone = _section(page, "<h4>Zone missions</h4>", "<h4>Event cards</h4>")
    figures["zone_missions"] = [item.split(maxsplit=1) for item in _items(zone)]
    found = re.search(r"Draw (\d) cards for them for tech and (\d) cards for layout", text)
    assert found
    figures["new_zone_cards"] = [int(found[1]), int(found[2])]
    trust = _section(page, "<h4>NPC Trust</h4>", "<h4>Space fleet:</h4>")
    figures["trust"] = [
        [int(m[1]), m[2], "control" if "control" in item else "protect"]
        for item in _items(trust)
        if (m := re.search(r">= (\d+)X, (all|half|\d/\d) of", item))
    ]
    found = re.search(
        r"Maximum fleet size is (\d) ships.*?\((\d) for conquering.*?Only (\d) ships", text
    )
    assert found
    figures["fleet"] = [int(found[1]), int(found[2]), int(found[3])]

    # ---- the star map
    figures["distances"] = [
        [int(n) for n in re.findall(r"\d+", line)] for line in _block(page, "From tile")
    ]
    figures["minerals"] = [
        [int(n) for n in re.findall(r"\d+", line)] for line in _block(page, "Zone")
    ]
    figures["planets"] = [
        [item.split()[0].lower(), item.split(maxsplit=1)[1].lstrip("-")]
        for item in _items(_section(page, "<h4>Planets</h4>", "<h4>Distances"))
    ]

    # ---- NPCs
    npc = _section(page, 'id="NPC_Guide"', "<h4>NPC Trust</h4>")
    ai = _section(npc, "<h4>Enemy A.I.</h4>", "<h4>Designing ships for A.I.</h4>")
    figures["enemy_ai"] = [
        [name.strip(), " ".join(gains.split()), int(group), weapon.strip()]
        for name, gains, group, weapon in re.findall(
            r"<li>([\w-]+)</li><ul>\s*<li>(Gains.*?)</li>.*?group of (\d+).*?Starts with (.+?) if",
            ai,
            re.S,
        )
    ]
    found = re.search(r"Each enemy always leave (half) of it's starting fleet in base", text)
    assert found
    figures["enemy_base_share"] = found[1]
    designs = _section(npc, "<h4>Designing a ship for NPC</h4>", "<pre>")
    figures["npc_designs"] = [
        [int(m[1]), int(m[2] or 0), int(m[3]), int(m[4])]
        for item in _items(designs)
        if (
            m := re.search(
                r"(\d) Class(?: tech)?(?: (\d) engine)?\s*\+ (\d) tech \+ (\d+) layout", item
            )
        )
    ]
    tables = _pre_blocks(npc)[0]
    split = next(i for i, line in enumerate(tables) if line.startswith("NPC enemies"))
    row = re.compile(r"(\d+)\.(.+?)\s+(\d+)\s+([\d-]+)\s+(\d+)$")
    figures["npc_friends"] = [
        [m[2].strip(), int(m[3]), m[4], int(m[5])]
        for m in (row.match(line) for line in tables[1:split])
        if m
    ]
    figures["npc_enemies"] = [
        [m[2].strip(), int(m[3]), m[4], int(m[5])]
        for m in (row.match(line) for line in tables[split + 1 :])
        if m
    ]

    # ---- land army, repairs, designs
    found = re.search(
        r"Maximum land army size = \(Largest ship size \+ compaction bonus\)/(\d).*?limit for each unit = (\d)",
        text,
    )
    assert found
    figures["land_army"] = [int(found[1]), int(found[2])]
    figures["land_units"] = [
        [m[1].strip(), *(int(n) for n in m.groups()[1:])]
        for m in (
            re.match(r"(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", line)
            for line in _block(page, "Land unit")
        )
        if m
    ]
    figures["repair"] = [int(n) for n in re.findall(r"(\d+) credits(?:/sp)?\.", text)]
    found = re.search(r"Designing cost is research cost/(\d)", text)
    assert found
    figures["design_divisor"] = int(found[1])
    return figures


def figures_from_seeds(seeds_dir: Path = SEEDS_DIR) -> dict[str, Any]:
    return figures_from_seed((seeds_dir / SEED).read_text(encoding="utf-8"))


def load(path: Path = DATA_FILE) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with one table row (a list of plain values) per line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list | tuple) and any(isinstance(v, list | tuple | dict) for v in value):
        items = [pad + dumps(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    seeds_dir = Path(args[0]) if args else SEEDS_DIR
    if not (seeds_dir / SEED).is_file():
        print(f"no seed {SEED} in {seeds_dir}", file=sys.stderr)
        return 2
    text = dumps(figures_from_seeds(seeds_dir)) + "\n"
    if check:
        if DATA_FILE.is_file() and DATA_FILE.read_text(encoding="utf-8") == text:
            print(f"{DATA_FILE} equals the seed in {seeds_dir}")
            return 0
        print(f"{DATA_FILE} differs from the seed in {seeds_dir}: regenerate it", file=sys.stderr)
        return 1
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_FILE} from the seed in {seeds_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
