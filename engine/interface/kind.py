"""A game kind is a plugin with a small typed interface, in the spirit of boardgame.io's `Game`:
the host (the service, the store, the lobby, moderation, the ticker, the notifier, the sandbox
and the bot's generic commands) serves every kind through it, once.

A kind's state (its "world") is its own business: the host keeps it in memory, hands it back
to the kind, and stores what `dump` makes of it. Every change goes through `apply`, with one
log entry (`engine.host.entries`): a nation's command (its JSON, which the kind parses and
validates), time moving on, or a lobby or moderator action. The same entries replayed on the
same first state give the same state (`hash`): that is how a game is recovered.

This module is the registry of games, and the one place that names them: `KINDS` maps a
game's name to where its core (`core`, a `GameKind`) and its bot side (`bot`: its commands, the
wording of its DMs and help, its creation options, pictures: `bot.game_side.GameSide`) are, as
"module:attribute" strings imported when first asked for. So the host imports no game, the bot's
shell imports no game, and a game imports nothing of the host but this interface and its
entries. Adding a game is its own packages plus one line here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from .entries import Entry
from .events import Event
from .summary import GameSummary


class Plugin(NamedTuple):
    """Where a game's layers are: "module:attribute" of its core (a `GameKind`) and of its bot
    side (a `bot.game_side.GameSide`; None: a game the bot cannot host, refused at start-up)."""

    core: str
    bot: str | None = None


# name -> where its layers are; the first is the default (`/help` outside a game, `si` tools)
KINDS: dict[str, Plugin] = {
    "strategic-initiative": Plugin("engine.strategic.kind:KIND", "bot.games.strategic.side:SIDE"),
    "supply-lines": Plugin("engine.supplylines.kind:KIND", "bot.games.supplylines.side:SIDE"),
    "caldera": Plugin("engine.caldera.kind:KIND", "bot.games.caldera.side:SIDE"),
}
# the kind of every game stored before games had kinds (the first of `KINDS`): the stores'
# migrations give it to their rows, and a row made without a kind is of it
FIRST_KIND = next(iter(KINDS))
# the kind of a game created without naming one
DEFAULT_KIND = FIRST_KIND


class State(Protocol):
    """What the host reads of any kind's state: where its time stands."""

    tick: int  # ticks since the start (a quarter of a game hour; turns are counted in ticks too)
    started: bool
    ended: bool

    @property
    def end_tick(self) -> int: ...


class Ai(Protocol):
    """A kind's AI players, as the host's AI runner drives them: once a game hour each AI
    seat may decide from its nation's view, like a player, and submits the commands."""

    styles: tuple[str, ...]  # what `settings.ai` may name for a seat
    levels: tuple[str, ...]  # the styles a creator or moderator picks for an AI seat (`level:`)

    def memory(self) -> Any:
        """What one AI nation carries from one decision to the next (kept by the runner)."""
        ...

    def resting(self, memory: Any, style: str, tick: int, ticks_per_hour: int) -> bool:
        """Whether the seat lets this hour pass (asked before its view is built)."""
        ...

    def decide(self, view: Any, memory: Any, style: str) -> list[Any]:
        """The commands, from the nation's view alone."""
        ...

    def failed(self, memory: Any, command: Any, view: Any) -> None:
        """A command was refused: remember it."""
        ...

    def save(self, memory: Any) -> dict[str, Any]:
        """A memory as plain JSON data, for the store: a restart (or another process taking
        the game over) restores it and the seat goes on where it was. What can be worked out
        again from a view (a cache) may be left out."""
        ...

    def restore(self, data: dict[str, Any]) -> Any:
        """A memory from what `save` gave."""
        ...


class GameKind(Protocol):
    name: str  # as stored in the game's row and typed in `/game create kind:`
    title: str  # as players know it
    ai: Ai | None  # its AI players, if it has any

    # --- setup and the state's stored form -----------------------------------------------------

    def setup(self, options: dict[str, Any]) -> State:
        """The first state of a new game from its creation options (raises `GameError` with a
        reason a player may read when they are not valid)."""
        ...

    def settings_of(self, world: Any) -> dict[str, Any]:
        """The game's options as stored with its row (size, seats, seed, length...)."""
        ...

    def ruleset_of(self, world: Any) -> str:
        """The name of the game's rules (stored with its row)."""
        ...

    def dump(self, world: Any) -> str:
        """The state as canonical JSON (snapshots)."""
        ...

    def load(self, text: str) -> State: ...

    def hash(self, world: Any) -> str: ...

    # --- the one way in ------------------------------------------------------------------------

    def parse_command(self, data: dict[str, Any]) -> Any:
        """A command of this kind from its JSON (a pydantic model; raises `ValidationError`
        with what is wrong)."""
        ...

    def parse_event(self, data: dict[str, Any]) -> Event:
        """An event of this kind from its JSON (as stored in the outbox, or relayed)."""
        ...

    def apply(self, world: Any, entry: Entry) -> list[Event]:
        """Apply one log entry; a refusal raises `CommandError`/`GameError` and changes
        nothing. Returns the events, each naming the nations that may learn of it."""
        ...

    def nation_id_for(self, world: Any, name: str) -> str:
        """A new nation's id, made from its name, unique in the game."""
        ...

    def full(self, world: Any) -> bool:
        """Whether every seat is taken (a full lobby starts at once)."""
        ...

    def players(self, world: Any) -> list[tuple[str, str]]:
        """(nation, user) of the nations people play (a state given with its players)."""
        ...

    # --- the one way out -----------------------------------------------------------------------

    def view_for(self, world: Any, nation: str) -> Any:
        """Everything the nation may know now (the fog filter)."""
        ...

    def full_view(self, world: Any) -> Any:
        """Everything, for moderators and the end-of-game timelapse."""
        ...

    def summary(self, world: Any) -> GameSummary: ...

    def lobby_view(self, world: Any) -> Any:
        """What anyone may know of a game in its lobby beyond its summary, to choose where to
        start (Strategic Initiative: its free starting islands); None: nothing."""
        ...

    # --- time ----------------------------------------------------------------------------------

    def ticks_per_hour(self, world: Any) -> int:
        """Real-time kinds move in ticks; a game hour is this many."""
        ...

    def snapshot_due(self, world: Any, ticks_since: int) -> bool:
        """Whether time moved on enough since the last snapshot to take one."""
        ...


_loaded: dict[str, GameKind] = {}


def kind(name: str) -> GameKind:
    """The game kind of this name (`GameError`-free: an unknown name is a bug or a bad row)."""
    found = _loaded.get(name)
    if found is None:
        if name not in KINDS:
            raise KeyError(f"there is no game kind {name!r} (known: {', '.join(sorted(KINDS))})")
        found = _loaded[name] = load(KINDS[name].core)
    return found


def load(where: str) -> Any:
    """The object at "module:attribute"."""
    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)


def register(name: str, where: str, bot: str | None = None) -> Callable[[], GameKind]:
    """Make a game known by where its core is, and its bot side (tests and plugins)."""
    KINDS[name] = Plugin(where, bot)
    _loaded.pop(name, None)
    return lambda: kind(name)
