"""/help: the rules explained to a player, one topic a page, by the caller's game's side (each
game's pages read every number from the game's ruleset, so the help never drifts from the
game), else by the default game's. No Discord types: the cog and the sandbox call
`Guide.help`."""

from __future__ import annotations

from bot.context import Caller, Context, Reply, UserError

DEFAULT_TOPIC = "start"


class Guide:
    """The desk's /help: the page of a topic for the rules of the caller's game (its side's
    pages), else of the default game's rules."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def help(
        self, caller: Caller, topic: str | None = None, ruleset: str | None = None
    ) -> Reply:
        from bot.game_side import default, side

        topic = topic or DEFAULT_TOPIC
        game_side, note = default(), ", the default"
        name = None
        if ruleset is None:
            try:
                seat = await self.ctx.seat(caller)
            except UserError:  # not in a game (or in several): the default rules
                pass
            else:
                game_side, name = side(seat.game.kind), seat.game.ruleset
                note = f", game {seat.game.id}"
        else:
            if ruleset not in game_side.rulesets():
                raise UserError(
                    f"There is no ruleset {ruleset!r}: choose {', '.join(game_side.rulesets())}."
                )
            name, note = ruleset, ""
        if topic not in help_topics():
            raise UserError(f"There is no help topic {topic!r}: choose {', '.join(help_topics())}.")
        return Reply(text=game_side.help(name or game_side.default_ruleset, topic, note=note))


def help_topics() -> dict[str, str]:
    """/help's topics: every game's, the default game's first (Discord keeps one list)."""
    from bot.game_side import sides

    topics: dict[str, str] = {}
    for game_side in sides():
        for key, title in game_side.help_topics().items():
            topics.setdefault(key, title)
    return topics
