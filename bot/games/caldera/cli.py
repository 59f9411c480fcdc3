"""Caldera on the command line (`bot.game_cli.GameCli`): its rules' tables, whole campaigns of
AI captains (`si simulate`), a stored game's star map or timelapse (`si render`). A sandbox
game takes the shell's options (`si sandbox --kind caldera [--nations N --turn-hours H]`).

    si rules --kind caldera standard [--json]
    si simulate --kind caldera [--captains 3 --turn-cap 40 --seed 1 --json]
    si render DB GAME [--nation N] [--timelapse]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from bot.errors import UserError
from bot.game_cli import Options, Verb, Verbs

if TYPE_CHECKING:  # pragma: no cover
    from engine.host.service import GameService
    from engine.host.store import GameRow


class CalderaCli:
    def add_verbs(self, verbs: Verbs) -> None:
        pass  # none of its own

    def add_options(self, verb: Verb, options: Options) -> None:
        if verb == "simulate":
            options.add_argument(
                "--captains", type=int, default=3, help="AI captains, one a seat (1-6)"
            )
            options.add_argument(
                "--turn-cap", type=int, default=40, help="stop after this many turns"
            )

    def rules(self, name: str, *, as_json: bool) -> int:
        from engine.caldera.rules import RulesError, load

        try:
            rules = load(name)
        except RulesError as exc:
            print(exc, file=sys.stderr)
            return 2
        if as_json:
            print(json.dumps(rules.model_dump(mode="json", by_alias=True), indent=2))
            return 0
        from bot.games.caldera.help import TITLES, page
        from engine.caldera.rules import load_deck

        deck = load_deck("starter", name)
        for topic in TITLES:
            if topic in ("start", "commands"):
                continue
            print(page(rules, deck, topic).replace("**", ""))
            print()
        return 0

    def claims(self, data: Any) -> bool:
        return False  # Caldera has no scenario files of its own (its tests are scenarios)

    def scenario(self, path: str, args: argparse.Namespace) -> tuple[int, int]:
        raise AssertionError("Caldera claims no scenario file")

    def simulate(self, args: argparse.Namespace) -> int:
        """A whole campaign of AI captains, to its end or the turn cap."""
        from engine.caldera.simulate import play

        if not 1 <= args.captains <= 6:
            print("--captains is 1 to 6", file=sys.stderr)
            return 2
        if args.turn_cap < 1:
            print("--turn-cap is 1 or more", file=sys.stderr)
            return 2
        began = time.perf_counter()
        result = play(captains=args.captains, seed=args.seed, max_turns=args.turn_cap)
        elapsed = time.perf_counter() - began
        if args.json:
            print(json.dumps(dataclasses.asdict(result), indent=2, sort_keys=True))
            return 0
        print(
            f"Caldera, {result.captains} AI captains, seed {result.seed}: {result.result} after "
            f"{result.turns} turns, in {elapsed:.2f} s; zone {result.zone}, trust "
            f"{result.trust}, {result.tiles} tiles, NPCs {', '.join(result.npcs) or 'none'}"
        )
        for captain in sorted(result.missions):
            print(
                f"  {captain:<6} missions {result.missions[captain]:>2}  ships "
                f"{result.ships[captain]:>2}  refused {result.refused[captain]:>3}"
            )
        print(f"  hash {result.hash}")
        return 0

    async def render(
        self, service: GameService, game: GameRow, nation: str | None, args: argparse.Namespace
    ) -> bytes:
        """The star map (shared: a captain's is everyone's); the timelapse: the star map after
        each turn, as the channel is shown it at the campaign's end."""
        from bot.games.caldera.pictures import star_map_of
        from renderers.caldera import draw_star_map
        from renderers.caldera.timelapse import timelapse

        title = f"{game.name} (game {game.id})"
        if args.timelapse:
            if nation is not None:
                raise UserError(
                    "a Caldera timelapse is the shared star map (every captain's is the same): "
                    "leave out --nation"
                )
            first, entries = await service.history(game.id)
            return timelapse(first, entries, title=title)
        view = await (service.view(game.id, nation) if nation else service.full_view(game.id))
        return draw_star_map(star_map_of(view, title=title))

    def sandbox_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {}  # the shell's own (--nations) and Supply Lines' --turn-hours serve it


CLI = CalderaCli()
