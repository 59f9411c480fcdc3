"""`si`: the one command-line entry of the project.

si rules NAME [--json]        print a ruleset (as JSON with --json)
si scenario FILE... [--dump]  run scenario files; exit 0 when every expectation holds
si demo [--days N]            create a game, let it run a day, print a summary
si run                        what `make run` starts (the demo until the bot exists)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

from .rules import RulesetError, available, load
from .rules.export import ruleset_json


def _cmd_rules(args: argparse.Namespace) -> int:
    try:
        rules = load(args.name)
    except RulesetError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(ruleset_json(rules), indent=2))
        return 0
    print(f"{rules.title} ({rules.name}): {rules.description}")
    print()
    header = f"{'unit':<14}{'in':<9}{'tech':>5}{'hrs':>5}{'mob':>5}{'sight':>6}{'att':>5}{'ammo':>5}{'flak':>5}{'hp':>5}"
    print(header)
    print("-" * len(header))

    def cell(v: object) -> str:
        return "-" if v is None else str(v)

    for u in rules.units:
        print(
            f"{u.name:<14}{u.built_in:<9}{u.tech:>5}{u.cost_hours:>5}{u.mobility:>5}{cell(u.sight):>6}"
            f"{cell(u.attack):>5}{cell(u.ammo):>5}{cell(u.flak):>5}{u.hp:>5}"
        )
    print()
    for c in rules.cities:
        print(f"{c.title:<12} flak {cell(c.flak):>2}  cannon {cell(c.cannon):>2}  sight {c.sight}")
    return 0


def _cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import run_file

    failed = 0
    for path in args.files:
        report = run_file(path)
        status = "ok  " if report.ok else "FAIL"
        print(f"{status} {path}: {report.name}")
        for failure in report.failures:
            print(f"     - {failure}")
        if args.dump and report.world is not None:
            print(json.dumps(report.world.to_dict(), indent=1, sort_keys=True))
        failed += not report.ok
    if len(args.files) > 1:
        print(f"{len(args.files) - failed} passed, {failed} failed")
    return 1 if failed else 0


async def _demo(days: int, db: str | None, ruleset: str, seed: int) -> None:
    from .economy import power, power_limit
    from .service import GameService

    path = db or str(Path(tempfile.mkdtemp()) / "demo.db")
    service = await GameService.open(path, synchronous="NORMAL")
    try:
        game = await service.create_game(name="Demo", ruleset=ruleset, max_nations=4, seed=seed)
        for name, colour in [
            ("Red", "#c0392b"),
            ("Blue", "#2e86c1"),
            ("Green", "#27ae60"),
            ("Gold", "#d4ac0d"),
        ]:
            await service.join(game, name=name, colour=colour, player=None)
        world = await service.world(game)
        print(
            f"game {game}: {world.width}x{world.height} {world.rules.title} map, seed {seed}, database {path}"
        )
        ticks = days * world.rules.ticks_per_day
        events = await service.advance(game, ticks)
        world = await service.world(game)
        print(f"advanced {ticks} ticks to {world.clock()}; {len(events)} events")
        for nation in world.nations.values():
            print(
                f"  {nation.name:<6} cities {len(world.cities_of(nation.id)):>2}  units {len(world.units_of(nation.id)):>3}"
                f"  tech {nation.tech:5.2f}  cp {nation.cp:>4}  power {power(world, nation.id)}/{power_limit(world, nation.id)}"
            )
        kinds: dict[str, int] = {}
        for e in events:
            kinds[e.kind] = kinds.get(e.kind, 0) + 1
        print("  events: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    finally:
        await service.close()


def _cmd_demo(args: argparse.Namespace) -> int:
    asyncio.run(_demo(args.days, args.db, args.ruleset, args.seed))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="si", description="Strategic Initiative: engine tools, bot and sandbox"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("rules", help="print a ruleset")
    p.add_argument("name", choices=available())
    p.add_argument("--json", action="store_true", help="the loaded ruleset as JSON")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("scenario", help="run scenario files")
    p.add_argument("files", nargs="+")
    p.add_argument("--dump", action="store_true", help="print the final world as JSON")
    p.set_defaults(func=_cmd_scenario)

    for name in ("demo", "run"):
        p = sub.add_parser(name, help="create a 4-nation game, advance it and print a summary")
        p.add_argument("--days", type=int, default=1)
        p.add_argument("--db", default=None, help="database file (default: a temporary one)")
        p.add_argument("--ruleset", default="standard", choices=available())
        p.add_argument("--seed", type=int, default=1)
        p.set_defaults(func=_cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
