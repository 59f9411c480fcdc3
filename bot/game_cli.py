"""What a game brings to `si`, the command line (bot/cli.py): its side's `cli` (`GameCli`).

The shell's verbs that serve every game ask the game they are about, found by `--kind` (the
registry's names), by a stored game's kind, or by asking each game in turn:

    si rules NAME [--kind K]       the game prints its rules (`rules`)
    si scenario FILE...            the game whose file it is (`claims`) runs it (`scenario`)
    si simulate [--kind K]         the game plays itself at full speed (`simulate`)
    si render DB GAME              the stored game's kind draws it (`render`)
    si sandbox / si run [--kind K] the game's creation options (`sandbox_options`)

On those verbs each game adds its own options (`add_options`, in a group of the verb's help
under the game's title), and a game may add verbs of its own (`add_verbs`: `si demo`). All the
options of a verb share its namespace: a game reads its own, and its option strings are not
another game's (argparse refuses the clash when the parser is built).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from engine.host.service import GameService
    from engine.host.store import GameRow

# the shell's verbs a game adds options to
Verb = Literal["rules", "scenario", "simulate", "render", "sandbox", "run"]
VERBS: tuple[Verb, ...] = ("rules", "scenario", "simulate", "render", "sandbox", "run")


class Options(Protocol):
    """Where a game adds its options to a verb (its group of the verb's parser)."""

    def add_argument(self, *names: str, **how: Any) -> argparse.Action: ...


class Verbs(Protocol):
    """Where a game adds verbs of its own (`si`'s subcommands); each sets its `func`, which
    takes the parsed arguments and returns the exit status."""

    def add_parser(self, name: str, **how: Any) -> argparse.ArgumentParser: ...


class GameCli(Protocol):
    def add_verbs(self, verbs: Verbs) -> None:
        """The game's own verbs (none: it adds nothing)."""
        ...

    def add_options(self, verb: Verb, options: Options) -> None:
        """The game's options on one of the shell's verbs (`VERBS`)."""
        ...

    def rules(self, name: str, *, as_json: bool) -> int:
        """`si rules NAME`: print the ruleset (as JSON with `as_json`); the exit status."""
        ...

    def claims(self, data: Any) -> bool:
        """Whether a scenario file (its YAML, loaded) is one of the game's."""
        ...

    def scenario(self, path: str, args: argparse.Namespace) -> tuple[int, int]:
        """`si scenario`: run the game's file at `path`, printing a line for each scenario or
        case in it; (those run, those failed)."""
        ...

    def simulate(self, args: argparse.Namespace) -> int:
        """`si simulate --kind K`: a whole game at full speed, and its report; the exit
        status."""
        ...

    async def render(
        self, service: GameService, game: GameRow, nation: str | None, args: argparse.Namespace
    ) -> bytes:
        """`si render`: a stored game as the nation sees it (None: everything), as PNG, or
        the whole game as a GIF (`args.timelapse`). Raises `UserError` with what is wrong
        in the command line."""
        ...

    def sandbox_options(self, args: argparse.Namespace) -> dict[str, Any]:
        """`si sandbox`, `si run`: the game's creation options from its options (None: not
        given), by `run_sandbox`'s names. The shell passes every game's: a game's own given
        to another is refused by that game's creation, as on Discord."""
        ...
