"""The one error a player's action ends with when it cannot be done: a clear message for the
caller, and nothing was changed (`bot.context.explain` words it)."""


class UserError(Exception):
    """A clear message for the caller; nothing was changed."""
