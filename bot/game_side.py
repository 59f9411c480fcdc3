"""What a game brings to the bot: its side (`GameSide`), found by the game's name in the
registry of games (`engine.interface.kind.KINDS`), as the host finds the game's core there.

The shell (the client, lifecycle, moderation, preferences, news, DMs, the sandbox, the CLI)
serves every game through this object and names none: a game's own commands are its
extensions (cogs), its DM wording is its teller, and what differs in the shell's own commands
(`/game create`, joining, resigning, the caretaker, `/help`, `/mod view`, the pictures posted
in a game's channel) is asked of the side. A game registered without a bot side is refused at
start-up (`check_sides`), so no command or DM of it is ever lost to a missing side.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from bot.errors import UserError
from engine.interface.kind import DEFAULT_KIND, KINDS, load

if TYPE_CHECKING:  # pragma: no cover
    from bot.actions import Actions
    from bot.context import Caller, Context, Reply
    from bot.dm.tellers import Teller
    from bot.game_cli import GameCli
    from engine.host.service import GameService
    from engine.host.store import GameRow
    from engine.interface.events import Event
    from engine.interface.summary import GameSummary
    from renderers.chart import Charts


@dataclass(frozen=True)
class Words:
    """What the shell's commands say that differs by game."""

    title: str  # the game as players know it
    hint: str  # what its players use instead of another game's commands
    caretaker: str  # what the AI caretaker does for an absent player
    resigning: str  # what resigning does
    rejoined: str = "Welcome back: your nation is yours again."


@dataclass(frozen=True)
class Creation:
    """A new game's options for the service (`GameService.create_game`), checked by its side,
    and how the channel's announcement describes it once created (from its summary, and the
    speed's name)."""

    options: dict[str, Any]
    describe: Callable[[GameSummary, str], str]


@dataclass(frozen=True)
class Post:
    """A message for a game's channel (a turn's board, the game's timelapse, a reminder).
    `pings`: the Discord users its mentions notify (at most 100; the others are not pinged).
    `news`: a line of the game's public news (a war declared, a city taken): posted with the
    channel's announcements (those that pile up go together in one message), and not at all
    while a moderator has turned the game's news off (`/mod news`)."""

    text: str
    file: tuple[str, bytes] | None = None
    pings: tuple[str, ...] = ()
    news: bool = False


@dataclass(frozen=True)
class SandboxHelp:
    """The game in the offline sandbox (which runs the game's own commands, `bot.typed`): its
    help text there, and the nations of a sandbox game when not asked for (None: the game's
    own default)."""

    help: str
    nations: int | None = None


class GameSide(Protocol):
    name: str  # the game's name in the registry (`engine.interface.kind.KINDS`)
    words: Words
    # its own commands: extensions loaded after the shell's (its cogs, its `/game create <game>`
    # subcommand and any it adds to the shell's groups, such as `/mod deadline`)
    extensions: tuple[str, ...]
    status_events: frozenset[str]  # events after which a game's pinned status changes
    ended_events: frozenset[str]  # events that end a game (its timelapse is posted)
    posts_after: frozenset[str]  # events after which its channel is shown something (`posts`)
    sandbox: SandboxHelp
    default_ruleset: str  # its rules when none is named

    @property
    def teller(self) -> Teller:
        """How its events are told by DM."""
        ...

    # --- /game create <game> -------------------------------------------------------------------

    def creation(self, options: dict[str, Any], *, days: int | None) -> Creation:
        """A new game's options, checked (raises `UserError` naming what is wrong)."""
        ...

    # --- its part of the desk -----------------------------------------------------------------

    def desk_parts(self, ctx: Context, actions: Actions) -> list[object]:
        """Its commands' actions, Discord-free (`bot.desk.Desk.part`), each registering its
        buttons, confirmations and list pages in `actions`."""
        ...

    # --- what the shell's commands show -------------------------------------------------------

    def joined(self, view: Any, nation: str, name: str, game: GameRow) -> str:
        """The new player's line on joining (their home, from their view)."""
        ...

    def founding(self, choices: dict[str, Any]) -> dict[str, Any] | None:
        """`/game join`'s choices besides the name and colour (`leader`, `title`, `home`; None
        when not given), checked (raises `UserError`), as the join entry's founding (None:
        nothing chosen: the join is stored as before). A game without them refuses them
        (`no_founding`)."""
        ...

    async def homes(self, ctx: Context, caller: Caller, current: str) -> list[tuple[str, str]]:
        """`/game join home:`'s suggestions: where a new nation may start (none: no choice)."""
        ...

    def help_topics(self) -> Mapping[str, str]:
        """/help's topics: key -> title (the shell offers the default game's)."""
        ...

    def rulesets(self) -> list[str]: ...

    def help(self, ruleset: str, topic: str, note: str = "") -> str:
        """One /help page for the game's rules."""
        ...

    async def referee(
        self, ctx: Context, game: GameRow, summary: GameSummary, nation: str | None
    ) -> Reply:
        """`/mod view`: the board as a nation sees it, or everything (private)."""
        ...

    # --- the game's channel --------------------------------------------------------------------

    async def posts(self, service: GameService, game_id: int, events: list[Event]) -> list[Post]:
        """What the game's channel is shown after these events (a resolved turn's board)."""
        ...

    def timelapse(self, first: Any, entries: list[dict[str, Any]], title: str) -> bytes | None:
        """The whole game as an animated picture (run in a thread); None: a game with no
        picture (its channel is shown none)."""
        ...

    def measures(self, first: Any, entries: list[dict[str, Any]]) -> Charts | None:
        """The game's measures per nation over its time (its cities and power, its units...),
        replayed from its history once at its end (run in a thread, like the timelapse): the
        bot keeps them (`BotStore.add_charts`) and draws them (`renderers.chart.draw`) for the
        channel and `/stats game`; None: a game with no charts."""
        ...

    # --- standings ------------------------------------------------------------------------------

    async def places(self, service: GameService, game_id: int) -> list[list[str]]:
        """How an ended game's nations finished: groups of nations sharing a place, best
        first (every nation of the game in one group). The server's standings
        (`bot/standings.py`) rate its players by it."""
        ...

    # --- the command line ----------------------------------------------------------------------

    @property
    def cli(self) -> GameCli:
        """What the game brings to `si`: its options and verbs, and how it runs the shell's
        verbs (`si rules`, `si scenario`, `si simulate`, `si render`; bot/game_cli.py)."""
        ...


def only_options(title: str, options: dict[str, Any], known: tuple[str, ...]) -> None:
    """Refuse creation options (given, not None) that are not this game's."""
    other = sorted(k for k, v in options.items() if v is not None and k not in known)
    if other:
        raise UserError(
            f"{title} games have no {' or '.join(other)} option: theirs are {', '.join(known)}."
        )


def no_founding(title: str, choices: dict[str, Any]) -> None:
    """Refuse `/game join`'s founding choices in a game that has none."""
    given = sorted(k for k, v in choices.items() if v is not None)
    if given:
        raise UserError(
            f"In {title} a nation is a name and a colour: leave out {' and '.join(given)}."
        )


_loaded: dict[str, GameSide] = {}


class NoBotSide(LookupError):
    """A registered game with no bot side: the bot cannot host it."""


def side(name: str) -> GameSide:
    """The bot side of the game of this name."""
    found = _loaded.get(name)
    if found is None:
        if name not in KINDS:
            raise KeyError(f"there is no game {name!r} (known: {', '.join(sorted(KINDS))})")
        where = KINDS[name].bot
        if where is None:
            raise NoBotSide(f"the game {name!r} has no bot side: the bot cannot host it")
        found = _loaded[name] = load(where)
    return found


def sides() -> list[GameSide]:
    """Every registered game's side, in the registry's order."""
    return [side(name) for name in KINDS]


def default() -> GameSide:
    """The first registered game's side (`/help` outside a game)."""
    return side(DEFAULT_KIND)


def check_sides() -> list[str]:
    """What stops the bot from hosting every registered game (one line each; empty: all
    well): a game with no bot side, one whose side does not import, or names another game."""
    problems = []
    for name in KINDS:
        try:
            found = side(name)
        except Exception as exc:  # noqa: BLE001 - reported, and the bot refuses to start
            problems.append(f"game {name!r}: {exc}")
            continue
        if found.name != name:
            problems.append(f"game {name!r}: its bot side is {found.name!r}'s")
    return problems


def forget(name: str) -> None:
    """Drop a loaded side (tests that register and remove a game)."""
    _loaded.pop(name, None)


# modules that libraries import at their first use, which a game's first command or picture
# makes: numpy's masked arrays (at its first `np.unique`: the sight of every command), Pillow's
# palettes (at its first palette picture; its formats: `renderers.encoding`), and what the
# drawing pool's "spawn" processes need when the first picture starts them (POSIX: its
# modules of another system would not import)
FIRST_USE = ("numpy.ma", "PIL.ImagePalette") + (
    (
        "multiprocessing.popen_fork",
        "multiprocessing.popen_spawn_posix",
        "multiprocessing.resource_tracker",
        "multiprocessing.spawn",
        "multiprocessing.synchronize",
        "runpy",
    )
    if os.name == "posix"
    else ()
)


def game_packages() -> list[str]:
    """The packages of every registered game: its core's and its bot side's (where the registry
    says they are) and its pictures' (the project's layout: `renderers.<its core's package>`)."""
    found = []
    for plugin in KINDS.values():
        core = _package(plugin.core)
        found.append(core)
        if plugin.bot is not None:
            found.append(_package(plugin.bot))
        pictures = "renderers." + core.rpartition(".")[2]
        if importlib.util.find_spec(pictures) is not None:
            found.append(pictures)
    return list(dict.fromkeys(found))


def _package(where: str) -> str:
    return where.partition(":")[0].rpartition(".")[0]


def load_games() -> list[str]:
    """Import now, at start-up, every module of every registered game (`game_packages`), the
    renderers' kit and what libraries import at their first use (`FIRST_USE`). Otherwise a
    game's first command, DM or picture imports (and after an upgrade compiles) them on the
    event loop, while every player waits. Returns the modules that would not import, one line
    each (the bot refuses to start)."""
    problems = import_all(FIRST_USE, packages=False)
    problems += import_all(["renderers"], packages=False)  # the kit (its subpackages are games')
    return problems + import_all(game_packages())


def import_all(names: Sequence[str], *, packages: bool = True) -> list[str]:
    """Import these modules and every module of those that are packages (only their modules,
    not their subpackages, when not `packages`); what would not import, one line each."""
    problems: list[str] = []

    def imported(name: str) -> ModuleType | None:
        try:
            return importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - reported, and the bot refuses to start
            problems.append(f"module {name}: {exc!r}")
            return None

    for name in names:
        found = imported(name)
        path = getattr(found, "__path__", None)
        if path is None:
            continue
        if not packages:
            for info in pkgutil.iter_modules(path, name + "."):
                if not info.ispkg:
                    imported(info.name)
            continue
        for info in pkgutil.walk_packages(path, name + ".", onerror=imported):
            if not info.name.endswith(".__main__"):
                imported(info.name)
    return problems
