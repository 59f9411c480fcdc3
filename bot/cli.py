"""`si`: the one command-line entry of the project.

si rules NAME [--json]        print a ruleset (as JSON with --json)
si scenario FILE... [--dump]  run scenario files (Strategic Initiative scenarios, Supply Lines
                              adjudication cases); exit 0 when every expectation holds
si render DB GAME [--nation N] [--at X,Y --radius R] [--timelapse] [-o FILE]
                              a nation's map (or everything) of a stored game as PNG / GIF
si simulate [--nations N --size WxH --days D --seed S --json --snapshots DIR]
                              a whole game between AI nations at full speed
si bot [--shard-ids 0,1 --shard-count 4 --instance NAME]
                              run the Discord bot (DISCORD_TOKEN and settings from .env)
si commands [--json|--markdown]  the slash commands the bot registers with Discord
si demo [--days N]            create a game, let it run a day, print a summary
si sandbox [--nations N --players A,B --speed S]  play offline against AI nations
si sandbox --kind supply-lines [--map M]       Supply Lines offline (AI fill the seats)
si run                        what `make run` starts: the bot with a token, else the sandbox
si db copy FROM TO            copy every game and the bot's rows to another store
                              (SQLite <-> PostgreSQL), verify
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.strategic.rules import RulesetError, available, load
from engine.strategic.rules.export import ruleset_json
from engine.strategic.world import World


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


def _supply_lines_cases(path: str, out_dir: str | None) -> tuple[int, int]:
    """A file of Supply Lines adjudication cases: one line per case; (cases, failures)."""
    from engine.supplylines.cases import Outcome, load_file, run
    from engine.supplylines.view import full_view
    from renderers.supplylines import draw_board

    failed = 0
    cases = load_file(path)
    for n, case in enumerate(cases, 1):
        try:
            outcome = run(case)
        except Exception as exc:  # a runner's fault: reported, and the file's other cases run
            outcome = Outcome(case, failures=[f"the case could not run: {exc!r}"])
        print(f"{'ok  ' if outcome.ok else 'FAIL'} {path}: {case.name}")
        for failure in outcome.failures:
            print(f"     - {failure}")
        if out_dir and outcome.state is not None:
            picture = Path(out_dir) / f"{case.file}-{n:02d}.png"
            picture.parent.mkdir(parents=True, exist_ok=True)
            picture.write_bytes(draw_board(full_view(outcome.state), title=case.name))
            print(f"     picture: {picture}")
        failed += not outcome.ok
    return len(cases), failed


def _cmd_scenario(args: argparse.Namespace) -> int:
    import yaml

    from engine.strategic.scenario import run_file
    from engine.supplylines.cases import is_cases
    from renderers.strategic.painter import paint

    failed = ran = 0
    for path in args.files:
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            ran, failed = ran + 1, failed + 1
            print(f"FAIL {path}: cannot be read as YAML")
            print(f"     - {' '.join(str(exc).split())}")
            continue
        if is_cases(data):
            count, bad = _supply_lines_cases(path, args.out)
            ran, failed = ran + count, failed + bad
            continue
        ran += 1
        report = run_file(path, out_dir=args.out, painter=paint)
        status = "ok  " if report.ok else "FAIL"
        print(f"{status} {path}: {report.name}")
        for failure in report.failures:
            print(f"     - {failure}")
        for picture in report.pictures:
            print(f"     picture: {picture}")
        if args.dump and report.world is not None:
            print(json.dumps(report.world.to_dict(), indent=1, sort_keys=True))
        failed += not report.ok
    if ran > 1:
        print(f"{ran - failed} passed, {failed} failed")
    return 1 if failed else 0


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
            f"game {game}: {world.width}x{world.height} {world.rules.title} map, seed {seed}, database {path}"
        )
        ticks = days * world.rules.ticks_per_day
        events = await service.advance(game, ticks)
        world = await service.live_world(game)
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


def _cmd_run(args: argparse.Namespace) -> int:
    """`make run`: the Discord bot when a token is configured, else the offline demo."""
    from pydantic import ValidationError

    from bot.config import Settings, settings_problem

    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"si run: {settings_problem(exc)}", file=sys.stderr)
        return 2
    if settings.discord_token is not None:
        print("DISCORD_TOKEN is set: starting the Discord bot (Ctrl-C stops it).")
        from bot.client import run

        return run(settings)
    print(
        "No DISCORD_TOKEN (in .env or the environment): starting the offline sandbox.\n"
        "To run the bot on Discord, see README.md, 'Run the bot on Discord'."
    )
    return _cmd_sandbox(args)


def _cmd_sandbox(args: argparse.Namespace) -> int:
    from bot.sandbox import run_sandbox

    players = [p.strip() for p in (getattr(args, "players", None) or "You").split(",") if p.strip()]
    kind = getattr(args, "kind", "strategic-initiative")
    nations = getattr(args, "nations", None)
    if nations is None and kind != "supply-lines":
        nations = 4
    return asyncio.run(
        run_sandbox(
            kind=kind,
            map_name=getattr(args, "map", None),
            turn_hours=getattr(args, "turn_hours", None),
            nations=nations,
            ruleset=args.ruleset,
            size=getattr(args, "size", "auto"),
            speed=getattr(args, "speed", "test (x360)"),
            players=players,
            db=args.db,
            out_dir=getattr(args, "out", None),
            clock_runs=getattr(args, "clock_runs", False),
        )
    )


async def _render(args: argparse.Namespace) -> int:
    from engine.host.service import GameService
    from engine.strategic.view import full_view, view_for
    from engine.strategic.world.geometry import parse_coord
    from renderers.encoding import png_bytes
    from renderers.strategic.mapimage import render_crop, render_map
    from renderers.strategic.timelapse import timelapse

    if not Path(args.db).exists():
        print(f"no database at {args.db}", file=sys.stderr)
        return 2
    service = await GameService.open(args.db)
    try:
        row = await service.find_game(args.game)
        if row is None:
            print(f"there is no game {args.game} in {args.db}", file=sys.stderr)
            return 2
        world = await service.live_world(args.game)
        nation = None
        if args.nation:
            wanted = args.nation.lower()
            nation = next(
                (n.id for n in world.nations.values() if wanted in (n.id.lower(), n.name.lower())),
                None,
            )
            if nation is None:
                names = ", ".join(n.name for n in world.nations.values())
                print(f"no nation {args.nation!r} in game {args.game} ({names})", file=sys.stderr)
                return 2
        title = f"{row.name} (game {args.game})"
        if args.timelapse:
            every = int(args.every * world.ticks_per_hour) if args.every else None
            first, entries = await service.history(args.game)
            data = timelapse(first, entries, nation=nation, every_ticks=every, title=title)
            out = Path(args.out or f"game{args.game}-{nation or 'all'}.gif")
        else:
            view = view_for(world, nation) if nation else full_view(world)
            if args.at:
                x, y = parse_coord(args.at)
                if not (0 <= x < world.width and 0 <= y < world.height):
                    print(f"{args.at} is off the {world.width}x{world.height} map", file=sys.stderr)
                    return 2
                image = render_crop(view, world.grid.index(x, y), args.radius, title=title)
            else:
                image = render_map(view, title=title)
            data = png_bytes(image)
            out = Path(args.out or f"game{args.game}-{nation or 'all'}-t{world.tick}.png")
        out.write_bytes(data)
        print(f"{out} ({len(data) / 1024:.0f} KiB)")
        return 0
    finally:
        await service.close()


def _cmd_render(args: argparse.Namespace) -> int:
    return asyncio.run(_render(args))


def _cmd_bot(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from bot.client import run
    from bot.config import Settings, settings_problem

    given = {
        "SI_SHARD_IDS": getattr(args, "shard_ids", None),
        "SI_SHARD_COUNT": getattr(args, "shard_count", None),
        "SI_INSTANCE": getattr(args, "instance", None),
    }
    try:  # the command line wins over the environment and .env
        settings = Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        print(f"si bot: {settings_problem(exc)}", file=sys.stderr)
        return 2
    return run(settings)


def _cmd_commands(args: argparse.Namespace) -> int:
    from bot.client import command_payload

    payload = command_payload()
    if args.markdown:
        from bot.commands_doc import markdown

        print(markdown(payload))
        return 0
    if args.json:
        print(json.dumps(payload, indent=2, sort_keys=True))
        return 0
    for command in payload:
        subs = [o for o in command.get("options", []) if o.get("type") == 1]
        if subs:
            for sub in subs:
                print(f"/{command['name']} {sub['name']:<12} {sub['description']}")
        else:
            print(f"/{command['name']:<17} {command['description']}")
    return 0


def _simulate_supply_lines(args: argparse.Namespace) -> int:
    """`si simulate --kind supply-lines`: one game between AI and random-orders players."""
    from engine.supplylines.kind import DEFAULT_MAPS
    from engine.supplylines.simulate import play

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if any(p not in ("ai", "random") for p in players) or len(players) < 2:
        print("--players lists ai or random for each seat, e.g. ai,random", file=sys.stderr)
        return 2
    name = args.map or DEFAULT_MAPS.get(len(players))
    if name is None:
        print(f"no map for {len(players)} players: give --map", file=sys.stderr)
        return 2
    began = time.perf_counter()
    try:
        result = play(
            name,
            dict(enumerate(players, 1)),
            seed=args.seed,
            max_turns=args.turns,
            clock=time.perf_counter,
        )
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - began
    if args.json:
        print(json.dumps(dataclasses.asdict(result), indent=2, sort_keys=True))
        return 0
    won = "nobody" if result.winner is None else f"seat {result.winner}"
    print(
        f"Supply Lines on {result.map}, seed {result.seed}: {won} won ({result.reason}) after "
        f"{result.turns} turns, in {elapsed:.2f} s"
    )
    for seat in sorted(result.strategies):
        print(
            f"  seat {seat} {result.strategies[seat]:<7} structures {result.structures[seat]:>3}"
            f"  cities {result.cities[seat]:>3}  units {result.units[seat]:>3}"
            + ("  (out)" if seat in result.out else "")
        )
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from engine.strategic.ai import STYLES
    from engine.strategic.ai.simulate import simulate

    if args.kind == "supply-lines":
        return _simulate_supply_lines(args)
    if args.kind != "strategic-initiative":
        print(f"unknown game kind {args.kind!r}", file=sys.stderr)
        return 2

    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"--size is WIDTHxHEIGHT, for example 128x128, not {args.size!r}", file=sys.stderr)
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
        f"  winners: {', '.join(summary['winners']) or 'none'}; world hash {summary['hash'][:16]}"
    )
    return 0


# --- si db copy: every game from one store to another (issue 16) ----------------------------------


def _shown(url: str) -> str:
    """A database URL as printed: without its password."""
    import re

    return re.sub(r"://([^:/@]*):[^@/]*@", r"://\1:***@", url)


async def _db_copy(args: argparse.Namespace) -> int:
    """Every game (engine/host/copy.py), then the bot's own rows of those games and of their
    players (bot/store.py: settings, DM status, sitrep days, confirmations, /news), then both
    verified. A clash of the bot's rows with the target's is found before any game is written."""
    from bot.store import BotImport, BotRowsConflict, BotStore, differences
    from engine.host.copy import CopyRefused, copy_stores, hold_stores, release_stores, verify
    from engine.host.database import StoreUnusable
    from engine.host.storage import backend_of, open_store, sqlite_path

    try:
        kinds = [backend_of(args.source), backend_of(args.target)]
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    if kinds[0] == "sqlite" and not Path(sqlite_path(args.source)).exists():
        print(f"no database at {sqlite_path(args.source)}", file=sys.stderr)
        return 2
    if args.source == args.target:
        print("the source and the target are the same store", file=sys.stderr)
        return 2
    print(f"copying every game from {_shown(args.source)} to {_shown(args.target)}")
    try:
        source = await open_store(args.source)
    except StoreUnusable as exc:
        print(f"error: the source: {exc}", file=sys.stderr)
        return 2
    bot_rows: BotImport | None = None
    try:
        try:
            target = await open_store(args.target)
        except StoreUnusable as exc:
            print(f"error: the target: {exc}", file=sys.stderr)
            return 2
        held = []
        try:
            mine, theirs = BotStore.of(source), BotStore.of(target)
            try:
                # no bot writes to either store meanwhile (engine/host/writers.py)
                held = await hold_stores(source, target)
                ids = [row.id for row in await source.games()]
                await theirs.plan_import(await mine.export_rows(ids))  # refuses before writing
                report = await copy_stores(source, target, live_leases=args.live_leases)
            except (CopyRefused, BotRowsConflict) as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            print(
                f"copied {report.games} games: {report.log_entries} log entries,"
                f" {report.snapshots} snapshots, {report.outbox_rows} outbox rows"
                f" ({report.outbox_pending} not delivered yet), {report.members} members"
                f" in {report.copy_seconds:.2f} s"
            )
            began = time.perf_counter()
            problems = []
            try:
                bot_rows = await theirs.import_rows(await mine.export_rows(report.game_ids))
            except BotRowsConflict as exc:
                problems.append(f"the bot's rows were not copied: {exc}")
            else:
                print(f"copied the bot's rows: {bot_rows.summary()}")
            problems += await verify(source, target, report.game_ids)
            if bot_rows is not None:
                problems += differences(
                    await mine.export_rows(report.game_ids),
                    await theirs.export_rows(report.game_ids),
                )
            seconds = time.perf_counter() - began
        finally:
            await release_stores(held)
            await target.close()
    finally:
        await source.close()
    if problems:
        print(
            f"ERROR: {len(problems)} differences between the copy and its source:", file=sys.stderr
        )
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        print("do not use the target store", file=sys.stderr)
        return 1
    print(
        f"verified in {seconds:.2f} s: every game's rows and the bot's rows are the same in both"
        " stores, and each game replays to the same world hash (newest snapshot + log, first"
        " world + whole log)"
    )
    return 0


def _cmd_db_copy(args: argparse.Namespace) -> int:
    return asyncio.run(_db_copy(args))


def _add_db_parser(sub: Any) -> None:
    p = sub.add_parser("db", help="tools for the games store")
    db = p.add_subparsers(dest="db_command", required=True)
    p = db.add_parser(
        "copy",
        help="copy every game and the bot's own rows to another store (SQLite to PostgreSQL"
        " and back), then verify",
    )
    p.add_argument("source", help="the store to copy: sqlite:///path, a path, or postgresql://...")
    p.add_argument("target", help="the store to copy into (new or without those games)")
    p.add_argument(
        "--live-leases",
        action="store_true",
        help="copy even while a process holds a lease on a game (it may still be writing)",
    )
    p.set_defaults(func=_cmd_db_copy)


# --- end of si db copy ------------------------------------------------------------------------------


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
    p.add_argument("--out", default=None, help="folder for the pictures of render steps")
    p.set_defaults(func=_cmd_scenario)

    p = sub.add_parser("simulate", help="a whole game between AI nations, at full speed")
    p.add_argument(
        "--kind",
        default="strategic-initiative",
        choices=("strategic-initiative", "supply-lines"),
        help="which game (supply-lines: --map, --players, --turns)",
    )
    p.add_argument("--map", default=None, help="supply-lines: a map's name (default by players)")
    p.add_argument(
        "--players",
        default="ai,random",
        help="supply-lines: each seat's player in turn, ai or random (e.g. ai,random,random)",
    )
    p.add_argument("--turns", type=int, default=100, help="supply-lines: the turn cap")
    p.add_argument("--nations", type=int, default=4)
    p.add_argument("--size", default="80x80", help="WIDTHxHEIGHT")
    p.add_argument("--days", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", default="standard", choices=available())
    p.add_argument("--styles", default="normal", help="AI styles in turn, e.g. normal,passive")
    p.add_argument("--json", action="store_true")
    p.add_argument("--snapshots", default=None, help="write each nation's map every game day here")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("bot", help="run the Discord bot")
    p.add_argument(
        "--shard-ids", default=None, help="the shards this process runs, e.g. 0,1 (SI_SHARD_IDS)"
    )
    p.add_argument("--shard-count", type=int, default=None, help="shards in all (SI_SHARD_COUNT)")
    p.add_argument(
        "--instance", default=None, help="this process's name on a shared store (SI_INSTANCE)"
    )
    p.set_defaults(func=_cmd_bot)

    p = sub.add_parser("commands", help="the slash commands the bot registers")
    p.add_argument("--json", action="store_true", help="the exact payload sent to Discord")
    p.add_argument("--markdown", action="store_true", help="the table in docs/COMMANDS.md")
    p.set_defaults(func=_cmd_commands)

    p = sub.add_parser("render", help="draw a stored game's map or timelapse")
    p.add_argument("db", help="the game database (sqlite file)")
    p.add_argument("game", type=int, help="game id")
    p.add_argument("--nation", help="nation id or name (default: everything)")
    p.add_argument("--at", help="centre of a zoomed picture, x,y")
    p.add_argument("--radius", type=int, default=6, help="squares around --at (default 6)")
    p.add_argument("--timelapse", action="store_true", help="the whole game as an animated GIF")
    p.add_argument("--every", type=float, default=None, help="game hours between frames (6)")
    p.add_argument("-o", "--out", help="output file (default: a name from the game and nation)")
    p.set_defaults(func=_cmd_render)

    p = sub.add_parser("demo", help="create a 4-nation game, advance it and print a summary")
    p.add_argument("--days", type=int, default=1)
    p.add_argument("--db", default=None, help="database file (default: a temporary one)")
    p.add_argument("--ruleset", default="standard", choices=available())
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=_cmd_demo)

    _add_db_parser(sub)

    from bot.lifecycle import SIZES, SPEEDS

    for name in ("sandbox", "run"):
        p = sub.add_parser(
            name,
            help="play offline against AI nations in the terminal"
            if name == "sandbox"
            else "the Discord bot with a token, else the sandbox",
        )
        p.add_argument(
            "--nations",
            type=int,
            default=None,
            help="nations in all, AI fill the rest (default 4; supply-lines: the map's)",
        )
        p.add_argument(
            "--kind",
            default="strategic-initiative",
            choices=("strategic-initiative", "supply-lines"),
            help="which game",
        )
        p.add_argument(
            "--map",
            default=None,
            help="supply-lines: a map's name, or random, random-small, random-large",
        )
        p.add_argument(
            "--turn-hours",
            type=float,
            default=None,
            help="supply-lines: game hours a turn lasts at most (default 24)",
        )
        p.add_argument("--players", default="You", help="local players, comma-separated")
        p.add_argument("--size", default="auto", choices=SIZES)
        p.add_argument("--speed", default="test (x360)", choices=list(SPEEDS))
        p.add_argument("--ruleset", default="standard", choices=available())
        p.add_argument("--db", default=None, help="database file (default: a temporary one)")
        p.add_argument(
            "--out",
            default=None,
            help="where pictures go (default: a 'pictures' folder beside the database)",
        )
        p.add_argument(
            "--clock-runs",
            action="store_true",
            help="game time runs while you type (by default it stands still: use wait)",
        )
        p.set_defaults(func=_cmd_sandbox if name == "sandbox" else _cmd_run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
