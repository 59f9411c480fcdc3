"""Errors the engine reports to whoever issued a command."""


class CommandError(Exception):
    """A command was rejected; nothing changed. The message is safe to show the nation:
    it never reveals what the nation cannot see."""


class GameError(Exception):
    """A game-level request (join, start, ...) was refused."""
