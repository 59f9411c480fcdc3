"""The counter game's command line (`bot.game_cli`): a verb of its own (`si count`), an option of
its own for `si simulate`, its rules, its scenario files (a file holding a number); it says
what it was asked (`asked`), for the CLI's tests."""

from __future__ import annotations

import argparse
from typing import Any

from bot.game_cli import Options, Verb, Verbs


class CounterCli:
    def __init__(self) -> None:
        self.asked: list[tuple[str, Any]] = []  # (what, with what)

    def add_verbs(self, verbs: Verbs) -> None:
        p = verbs.add_parser("count", help="count to a number")
        p.add_argument("--to", type=int, default=3)
        p.set_defaults(func=self._count)

    def _count(self, args: argparse.Namespace) -> int:
        self.asked.append(("count", args.to))
        print(" ".join(str(n) for n in range(1, args.to + 1)))
        return 0

    def add_options(self, verb: Verb, options: Options) -> None:
        if verb == "simulate":
            options.add_argument("--laps", type=int, default=1, help="laps of the counter")

    def rules(self, name: str, *, as_json: bool) -> int:
        self.asked.append(("rules", (name, as_json)))
        print(f"counter rules {name}")
        return 0

    def claims(self, data: Any) -> bool:
        return isinstance(data, int) and not isinstance(data, bool)  # a file holding a number

    def scenario(self, path: str, args: argparse.Namespace) -> tuple[int, int]:
        self.asked.append(("scenario", path))
        print(f"ok   {path}: counted")
        return 1, 0

    def simulate(self, args: argparse.Namespace) -> int:
        self.asked.append(("simulate", (args.laps, args.seed)))
        print(f"counted {args.laps} laps, seed {args.seed}")
        return 0

    async def render(
        self, service: Any, game: Any, nation: str | None, args: argparse.Namespace
    ) -> bytes:
        return b"counter"

    def sandbox_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {}
