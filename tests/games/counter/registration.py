"""The counter game made known for a test: its one registry line, and everything undone after
(the registry's entry, its loaded core and its loaded side), so the tests after it see only
the real games (the command payload compared with docs/COMMANDS.md, for one)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot import game_side
from engine.interface import kind as kinds
from tests.games.counter import NAME

BOT_SIDE = "tests.games.counter.side:SIDE"


@contextmanager
def registered(bot: str | None = BOT_SIDE) -> Iterator[None]:
    """The counter game in the registry for the `with` block (`bot=None`: its core alone, a
    game the bot cannot host)."""
    if NAME in kinds.KINDS:
        raise RuntimeError(f"the game {NAME!r} is registered already")
    kinds.register(NAME, "tests.games.counter.core:KIND", bot)
    try:
        yield
    finally:
        kinds.KINDS.pop(NAME, None)
        kinds._loaded.pop(NAME, None)  # the core, as `kind(name)` keeps it
        game_side.forget(NAME)
