"""Strategic Initiative on the command line (`bot.game_cli.GameCli`): its rules as a table,
its scenario files, a whole game between AI nations (`si simulate`), a stored game's map or
timelapse (`si render`), the map's size of a sandbox game, and `si demo`.

    si rules NAME [--json]
    si scenario FILE... [--dump]
    si simulate [--nations N --size WxH --days D --ruleset R --styles S --snapshots DIR]
    si render DB GAME [--at X,Y --radius R] [--timelapse --every HOURS]
    si sandbox [--size S]
    si demo [--days N --db FILE --ruleset R --seed S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.errors import UserError
from bot.game_cli import Options, Verb, Verbs

if TYPE_CHECKING:  # pragma: no cover
    from engine.host.service import GameService
    from engine.host.store import GameRow
    from engine.strategic.world import World


def _rulesets() -> list[str]:
    from engine.strategic.rules import available

    return available()


class StrategicCli:
    def add_verbs(self, verbs: Verbs) -> None:
        p = verbs.add_parser(
            "demo", help="create a 4-nation Strategic Initiative game, advance it, print a summary"
        )
        p.add_argument("--days", type=int, default=1)
        p.add_argument("--db", default=None, help="database file (default: a temporary one)")
        p.add_argument("--ruleset", default="standard", choices=_rulesets())
        p.add_argument("--seed", type=int, default=1)
        p.set_defaults(func=_cmd_demo)

    def add_options(self, verb: Verb, options: Options) -> None:
        if verb == "scenario":
            options.add_argument(
                "--dump", action="store_true", help="print the final world as JSON"
            )
        elif verb == "simulate":
            options.add_argument("--nations", type=int, default=4)
            options.add_argument("--size", default="80x80", help="WIDTHxHEIGHT")
            options.add_argument("--days", type=int, default=10)
            options.add_argument("--ruleset", default="standard", choices=_rulesets())
            options.add_argument(
                "--styles", default="normal", help="AI styles in turn, e.g. normal,passive"
            )
            options.add_argument(
                "--snapshots", default=None, help="write each nation's map every game day here"
            )
        elif verb == "render":
            options.add_argument("--at", help="centre of a zoomed picture, x,y")
            options.add_argument(
                "--radius", type=int, default=6, help="squares around --at (default 6)"
            )
            options.add_argument(
                "--every", type=float, default=None, help="game hours between frames (6)"
            )
        elif verb in ("sandbox", "run"):
            options.add_argument(
                "--size", default=None, help="the map's size (default auto: by the nations)"
            )

    def rules(self, name: str, *, as_json: bool) -> int:
        from engine.strategic.rules import RulesetError, load
        from engine.strategic.rules.export import ruleset_json

        try:
            rules = load(name)
        except RulesetError as exc:
            print(exc, file=sys.stderr)
            return 2
        if as_json:
            print(json.dumps(ruleset_json(rules), indent=2))
            return 0
        print(f"{rules.title} ({rules.name}): {rules.description}")
        print()
        w = max(14, 2 + max(len(u.name) for u in rules.units))  # the names' column
        header = (
            f"{'unit':<{w}}{'in':<9}{'tech':>5}{'hrs':>5}{'mob':>5}{'sight':>6}{'att':>5}"
            f"{'ammo':>5}{'flak':>5}{'hp':>5}"
        )
        print(header)
        print("-" * len(header))
        for u in rules.units:
            print(
                f"{u.name:<{w}}{u.built_in:<9}{u.tech:>5}{u.cost_hours:>5}{u.mobility:>5}"
                f"{_cell(u.sight):>6}{_cell(u.attack):>5}{_cell(u.ammo):>5}{_cell(u.flak):>5}"
                f"{u.hp:>5}"
            )
        print()
        for c in rules.cities:
            print(
                f"{c.title:<12} flak {_cell(c.flak):>2}  cannon {_cell(c.cannon):>2}  "
                f"sight {c.sight}"
            )
        return 0

    def claims(self, data: Any) -> bool:
        return isinstance(data, dict)  # a scenario is a mapping (docs/SCENARIOS.md)

    def scenario(self, path: str, args: argparse.Namespace) -> tuple[int, int]:
        from engine.strategic.scenario import run_file
        from renderers.strategic.painter import paint

        report = run_file(path, out_dir=args.out, painter=paint)
        print(f"{'ok  ' if report.ok else 'FAIL'} {path}: {report.name}")
        for failure in report.failures:
            print(f"     - {failure}")
        for picture in report.pictures:
            print(f"     picture: {picture}")
        if args.dump and report.world is not None:
            print(json.dumps(report.world.to_dict(), indent=1, sort_keys=True))
        return 1, int(not report.ok)

    def simulate(self, args: argparse.Namespace) -> int:
        from engine.strategic.ai import STYLES
        from engine.strategic.ai.simulate import simulate

        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            print(
                f"--size is WIDTHxHEIGHT, for example 128x128, not {args.size!r}", file=sys.stderr
            )
            return 2
        styles = [s.strip() for s in args.styles.split(",") if s.strip()]
        bad = [s for s in styles if s not in STYLES]
        if bad:
            print(f"unknown AI styles {bad}; choose from {', '.join(STYLES)}", file=sys.stderr)
            return 2
        try:
            summary = simulate(
                nations=args.nations,
                width=w,
                height=h,
                days=args.days,
                seed=args.seed,
                ruleset=args.ruleset,
                styles=styles,
                every_day=_snapshots(Path(args.snapshots)) if args.snapshots else None,
            )
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(summary, indent=2, sort_keys=True))
            return 0
        print(
            f"{summary['nations']} AI nations, {summary['size']}, {summary['days']} days "
            f"({summary['ticks']} ticks) in {summary['elapsed_seconds']} s; "
            f"AI {summary['ai_ms_per_nation_hour']} ms per nation per game hour"
        )
        for nid, row in summary["per_nation"].items():
            print(
                f"  {nid:<5} {row['style']:<9} cities {row['cities']:>3}  units {row['units']:>4}"
                f"  tech {row['tech']:>5}  commands {row['commands']}"
                + ("  (out)" if row["out"] else "")
            )
        print("  " + ", ".join(f"{k} {v}" for k, v in summary["counts"].items()))
        print(
            f"  winners: {', '.join(summary['winners']) or 'none'}; "
            f"world hash {summary['hash'][:16]}"
        )
        return 0

    async def render(
        self, service: GameService, game: GameRow, nation: str | None, args: argparse.Namespace
    ) -> bytes:
        """The map as the nation sees it (fogged), or a crop of it around `--at`; the
        timelapse every `--every` game hours."""
        from engine.strategic.view import full_view, view_for
        from engine.strategic.world.geometry import parse_coord
        from renderers.encoding import png_bytes
        from renderers.strategic.mapimage import render_crop, render_map
        from renderers.strategic.timelapse import timelapse

        world = await service.live_world(game.id)
        title = f"{game.name} (game {game.id})"
        if args.timelapse:
            every = int(args.every * world.ticks_per_hour) if args.every else None
            first, entries = await service.history(game.id)
            return timelapse(first, entries, nation=nation, every_ticks=every, title=title)
        view = view_for(world, nation) if nation else full_view(world)
        if args.at:
            x, y = parse_coord(args.at)
            if not (0 <= x < world.width and 0 <= y < world.height):
                raise UserError(f"{args.at} is off the {world.width}x{world.height} map")
            image = render_crop(view, world.grid.index(x, y), args.radius, title=title)
        else:
            image = render_map(view, title=title)
        return png_bytes(image)

    def sandbox_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {"size": args.size}


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def _snapshots(out_dir: Path) -> Callable[[World], None]:
    """`si simulate --snapshots DIR`: each nation's map at the end of each game day."""
    from engine.strategic.view import view_for
    from renderers.encoding import png_bytes
    from renderers.strategic.mapimage import render_map

    out_dir.mkdir(parents=True, exist_ok=True)

    def draw(world: World) -> None:
        day = world.tick // world.rules.ticks_per_day
        for nid, nation in world.nations.items():
            if not nation.out:
                # the header says midnight as "end of day N", as the title does
                image = render_map(view_for(world, nid), title=f"simulation, end of day {day}")
                (out_dir / f"day{day:02d}-{nid}.png").write_bytes(png_bytes(image))

    return draw


async def _demo(days: int, db: str | None, ruleset: str, seed: int) -> None:
    from engine.host.service import GameService
    from engine.strategic.systems.economy import power, power_limit

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
        world = await service.live_world(game)
        print(
            f"game {game}: {world.width}x{world.height} {world.rules.title} map, seed {seed}, "
            f"database {path}"
        )
        ticks = days * world.rules.ticks_per_day
        events = await service.advance(game, ticks)
        world = await service.live_world(game)
        print(f"advanced {ticks} ticks to {world.clock()}; {len(events)} events")
        for nation in world.nations.values():
            print(
                f"  {nation.name:<6} cities {len(world.cities_of(nation.id)):>2}  "
                f"units {len(world.units_of(nation.id)):>3}  tech {nation.tech:5.2f}  "
                f"cp {nation.cp:>4}  "
                f"power {power(world, nation.id)}/{power_limit(world, nation.id)}"
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


CLI = StrategicCli()
