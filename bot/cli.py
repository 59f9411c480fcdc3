"""`si`: the one command-line entry of the project.

si rules NAME [--kind K] [--json]   print a ruleset (as JSON with --json)
si scenario FILE... [--out DIR]     run scenario files (each game's: Strategic Initiative
                                    scenarios, Supply Lines adjudication cases); exit 0 when
                                    every expectation holds
si render DB GAME [--nation N] [--timelapse] [-o FILE]
                                    a nation's map (or everything) of a stored game as PNG / GIF
si simulate [--kind K] [--seed S] [--json]
                                    a whole game between AI players at full speed
si bot [--shard-ids 0,1 --shard-count 4 --instance NAME]
                                    run the Discord bot (DISCORD_TOKEN and settings from .env)
si commands [--json|--markdown]     the slash commands the bot registers with Discord
si sandbox [--kind K] [--nations N --players A,B --speed S]
                                    play offline against AI players
si run                              what `make run` starts: the bot with a token, else the
                                    sandbox
si db copy FROM TO                  copy every game and the bot's rows to another store
                                    (SQLite <-> PostgreSQL), verify

This module is the shell: it names no game. `--kind` chooses among the registry's games
(`engine.interface.kind.KINDS`, the first by default), and each game brings, through its side
(`bot.game_side`), its options on these verbs, verbs of its own (`si demo`) and how it runs
them (`bot.game_cli.GameCli`; bot/games/<game>/cli.py). `si <verb> --help` lists each game's
options under its title.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from bot.errors import UserError
from bot.game_cli import VERBS, Verb
from bot.game_side import GameSide, NoBotSide, default, side
from engine.interface.kind import DEFAULT_KIND, KINDS


def games() -> list[GameSide]:
    """The registry's games the bot has a side for, in its order (one without a side is
    refused when asked for by name: `chosen`)."""
    found = []
    for name in KINDS:
        try:
            found.append(side(name))
        except NoBotSide:
            continue
    return found


def chosen(name: str) -> GameSide | None:
    """The game of this name, or None when the bot has no side for it (said on stderr)."""
    try:
        return side(name)
    except LookupError as exc:  # not registered, or no bot side
        print(f"si: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return None


def _cmd_rules(args: argparse.Namespace) -> int:
    game = chosen(args.kind)
    return 2 if game is None else game.cli.rules(args.name, as_json=args.json)


def _cmd_scenario(args: argparse.Namespace) -> int:
    """Each file is run by the first game that claims it (its YAML's form), else by the
    default game (which reports what is wrong with it)."""
    import yaml

    every = games()
    failed = ran = 0
    for path in args.files:
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            ran, failed = ran + 1, failed + 1
            print(f"FAIL {path}: cannot be read as YAML")
            print(f"     - {' '.join(str(exc).split())}")
            continue
        owner = next((game for game in every if game.cli.claims(data)), None) or default()
        count, bad = owner.cli.scenario(path, args)
        ran, failed = ran + count, failed + bad
    if ran > 1:
        print(f"{ran - failed} passed, {failed} failed")
    return 1 if failed else 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    game = chosen(args.kind)
    return 2 if game is None else game.cli.simulate(args)


async def _render(args: argparse.Namespace) -> int:
    """The stored game's kind draws it; the nation is found here (by id or name)."""
    from engine.host.service import GameService

    if not Path(args.db).exists():
        print(f"no database at {args.db}", file=sys.stderr)
        return 2
    service = await GameService.open(args.db)
    try:
        row = await service.find_game(args.game)
        if row is None:
            print(f"there is no game {args.game} in {args.db}", file=sys.stderr)
            return 2
        game = chosen(row.kind)
        if game is None:
            return 2
        summary = await service.summary(args.game)
        nation = None
        if args.nation:
            wanted = args.nation.lower()
            nation = next(
                (
                    n.id
                    for n in summary.nations.values()
                    if wanted in (n.id.lower(), n.name.lower())
                ),
                None,
            )
            if nation is None:
                names = ", ".join(n.name for n in summary.nations.values())
                print(f"no nation {args.nation!r} in game {args.game} ({names})", file=sys.stderr)
                return 2
        try:
            data = await game.cli.render(service, row, nation, args)
        except UserError as exc:
            print(exc, file=sys.stderr)
            return 2
        who = nation or "all"
        named = (
            f"game{args.game}-{who}.gif"
            if args.timelapse
            else f"game{args.game}-{who}-t{summary.tick}.png"
        )
        out = Path(args.out or named)
        out.write_bytes(data)
        print(f"{out} ({len(data) / 1024:.0f} KiB)")
        return 0
    finally:
        await service.close()


def _cmd_render(args: argparse.Namespace) -> int:
    return asyncio.run(_render(args))


def _cmd_run(args: argparse.Namespace) -> int:
    """`make run`: the Discord bot when a token is configured, else the offline sandbox."""
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
    """The chosen game's sandbox, with every game's creation options as given: a game refuses
    another's (`si sandbox --map M` without its game's --kind), as `/game create` does."""
    from bot.sandbox import DEFAULT_PLAYER, run_sandbox

    game = chosen(args.kind)
    if game is None:
        return 2
    players = [p.strip() for p in (args.players or DEFAULT_PLAYER).split(",") if p.strip()]
    options: dict[str, Any] = {}
    for each in games():
        options.update(each.cli.sandbox_options(args))
    return asyncio.run(
        run_sandbox(
            kind=game.name,
            nations=game.sandbox.nations if args.nations is None else args.nations,
            ruleset=args.ruleset or game.default_ruleset,
            speed=args.speed,
            players=players,
            db=args.db,
            out_dir=args.out,
            clock_runs=args.clock_runs,
            **options,
        )
    )


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


def _kind_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kind", default=DEFAULT_KIND, choices=list(KINDS), help=f"which game ({DEFAULT_KIND})"
    )


def _game_options(verb: Verb, parser: argparse.ArgumentParser, every: list[GameSide]) -> None:
    """Each game's options on the verb, in a group of its help under the game's title."""
    for game in every:
        game.cli.add_options(verb, parser.add_argument_group(f"{game.words.title} ({game.name})"))


def build_parser() -> argparse.ArgumentParser:
    from bot.lifecycle import SPEEDS

    every = games()
    rulesets = sorted({name for game in every for name in game.rulesets()})
    usual = " or ".join(sorted({game.default_ruleset for game in every}))
    parser = argparse.ArgumentParser(
        prog="si", description="the games' tools, their Discord bot and the offline sandbox"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    verbs: dict[Verb, argparse.ArgumentParser] = {}

    p = verbs["rules"] = sub.add_parser("rules", help="print a ruleset")
    p.add_argument("name", choices=rulesets)
    _kind_option(p)
    p.add_argument("--json", action="store_true", help="the loaded ruleset as JSON")
    p.set_defaults(func=_cmd_rules)

    p = verbs["scenario"] = sub.add_parser("scenario", help="run scenario files")
    p.add_argument("files", nargs="+")
    p.add_argument("--out", default=None, help="folder for the pictures of render steps")
    p.set_defaults(func=_cmd_scenario)

    p = verbs["simulate"] = sub.add_parser(
        "simulate", help="a whole game between AI players, at full speed"
    )
    _kind_option(p)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
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

    p = verbs["render"] = sub.add_parser("render", help="draw a stored game's map or timelapse")
    p.add_argument("db", help="the game database (sqlite file)")
    p.add_argument("game", type=int, help="game id")
    p.add_argument("--nation", help="nation id or name (default: everything)")
    p.add_argument("--timelapse", action="store_true", help="the whole game as an animated GIF")
    p.add_argument("-o", "--out", help="output file (default: a name from the game and nation)")
    p.set_defaults(func=_cmd_render)

    for game in every:
        game.cli.add_verbs(sub)

    _add_db_parser(sub)

    for name in ("sandbox", "run"):
        p = verbs[name] = sub.add_parser(
            name,
            help="play offline against AI players in the terminal"
            if name == "sandbox"
            else "the Discord bot with a token, else the sandbox",
        )
        p.add_argument(
            "--nations",
            type=int,
            default=None,
            help="nations in all, AI fill the rest (default: the game's)",
        )
        _kind_option(p)
        p.add_argument(
            "--players", default=None, help="local players, comma-separated (default: Player)"
        )
        p.add_argument("--speed", default="test (x360)", choices=list(SPEEDS))
        p.add_argument(
            "--ruleset", default=None, choices=rulesets, help=f"the game's rules (default {usual})"
        )
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

    for verb in VERBS:
        _game_options(verb, verbs[verb], every)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
