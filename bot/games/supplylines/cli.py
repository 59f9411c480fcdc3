"""Supply Lines on the command line (`bot.game_cli.GameCli`): its rules, its files of
adjudication cases, a whole game between AI and random-orders players (`si simulate`), a stored
game's board or timelapse (`si render`), and the map and turn length of a sandbox game.

    si rules --kind supply-lines standard [--json]
    si scenario tests/games/supplylines/engine/cases/*.yaml [--out DIR]
    si simulate --kind supply-lines [--players ai,random,... --map NAME --turns N]
    si render DB GAME [--nation N] [--timelapse]
    si sandbox --kind supply-lines [--map M --turn-hours H]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.errors import UserError
from bot.game_cli import Options, Verb, Verbs

if TYPE_CHECKING:  # pragma: no cover
    from engine.host.service import GameService
    from engine.host.store import GameRow


class SupplyLinesCli:
    def add_verbs(self, verbs: Verbs) -> None:
        pass  # none of its own

    def add_options(self, verb: Verb, options: Options) -> None:
        if verb == "simulate":
            options.add_argument("--map", default=None, help="a map's name (default by players)")
            options.add_argument(
                "--players",
                default="ai,random",
                help="each seat's player in turn, ai or random (e.g. ai,random,random)",
            )
            options.add_argument("--turns", type=int, default=100, help="the turn cap")
        elif verb in ("sandbox", "run"):
            options.add_argument(
                "--map", default=None, help="a map's name, or random, random-small, random-large"
            )
            options.add_argument(
                "--turn-hours",
                type=float,
                default=None,
                help="game hours a turn lasts at most (default 24)",
            )

    def rules(self, name: str, *, as_json: bool) -> int:
        from engine.supplylines.rules import RulesError, load

        try:
            rules = load(name)
        except RulesError as exc:
            print(exc, file=sys.stderr)
            return 2
        if as_json:
            print(json.dumps(rules.model_dump(mode="json"), indent=2))
            return 0
        print(f"{rules.title} ({rules.name}): {rules.description}")
        print()
        header = f"{'unit':<12}{'strength':>9}{'popcap':>7}{'supply':>7}"
        print(header)
        print("-" * len(header))
        for name_, unit in rules.units.items():
            print(f"{name_:<12}{unit.strength:>9}{unit.popcap:>7}{unit.supply:>7}")
        print()
        header = f"{'structure':<12}{'letter':>7}{'popcap':>7}{'supply':>7}  {'builds':<7}victory"
        print(header)
        print("-" * len(header))
        for name_, kind in rules.structures.items():
            print(
                f"{name_:<12}{kind.letter:>7}{kind.popcap:>7}{kind.supply:>7}  "
                f"{_yes(kind.builds):<7}{_yes(kind.victory)}"
            )
        print()
        marks = rules.marks
        print(
            f"a unit is immobile at {marks.immobile_at} marks (at most {marks.most}); "
            f"unsupplied +{marks.penalty} a turn, supplied -{marks.restoration}"
        )
        print(f"at the start, at each home city: {', '.join(rules.start_units) or 'nothing'}")
        return 0

    def claims(self, data: Any) -> bool:
        from engine.supplylines.cases import is_cases

        return is_cases(data)

    def scenario(self, path: str, args: argparse.Namespace) -> tuple[int, int]:
        """A file of adjudication cases: one line per case (a case that cannot run is
        reported, and the file's other cases run); its board after the turn with `--out`."""
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
            if args.out and outcome.state is not None:
                picture = Path(args.out) / f"{case.file}-{n:02d}.png"
                picture.parent.mkdir(parents=True, exist_ok=True)
                picture.write_bytes(draw_board(full_view(outcome.state), title=case.name))
                print(f"     picture: {picture}")
            failed += not outcome.ok
        return len(cases), failed

    def simulate(self, args: argparse.Namespace) -> int:
        """One game between AI and random-orders players, a seat each."""
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
            f"Supply Lines on {result.map}, seed {result.seed}: {won} won ({result.reason}) "
            f"after {result.turns} turns, in {elapsed:.2f} s"
        )
        for seat in sorted(result.strategies):
            print(
                f"  seat {seat} {result.strategies[seat]:<7} "
                f"structures {result.structures[seat]:>3}"
                f"  cities {result.cities[seat]:>3}  units {result.units[seat]:>3}"
                + ("  (out)" if seat in result.out else "")
            )
        return 0

    async def render(
        self, service: GameService, game: GameRow, nation: str | None, args: argparse.Namespace
    ) -> bytes:
        """The board with every player's orders of the turn (a referee's view), or with the
        nation's (as that player sees it); the timelapse: the board after each turn."""
        from renderers.supplylines import draw_board
        from renderers.supplylines.timelapse import timelapse

        title = f"{game.name} (game {game.id})"
        if args.timelapse:
            if nation is not None:
                raise UserError(
                    "a Supply Lines timelapse is the whole board (the game has no fog): "
                    "leave out --nation"
                )
            first, entries = await service.history(game.id)
            return timelapse(first, entries, title=title)
        view = await (service.view(game.id, nation) if nation else service.full_view(game.id))
        return draw_board(view, title=title)

    def sandbox_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {"map_name": args.map, "turn_hours": args.turn_hours}


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


CLI = SupplyLinesCli()
