"""Founding a nation at `/game join` (issue 31): what Strategic Initiative adds to the shell's
join (a leader, the leader's title, a starting island: `founding`), the islands suggested as
the player types (`Founding.choose_islands`) and `/game islands`, the picture of the free ones.
A lobby's free islands are public (`engine.strategic.islands`); nothing else of its map is."""

from __future__ import annotations

import re
from typing import Any

from bot.context import GAME_OVER, Caller, Context, Reply, UserError
from bot.founding import check_name
from bot.games.strategic import NAME as KIND
from engine.host.rows import GameRow
from engine.strategic.founding import LEADER_MOST, TITLE_MOST
from engine.strategic.islands import StartingIslands

LIMIT = 25  # Discord's suggestions
_ISLAND = re.compile(r"^\s*(?:island\s*)?#?\s*(\d{1,3})\s*(?:\(.*)?$", re.IGNORECASE)


def founding(choices: dict[str, Any]) -> dict[str, Any] | None:
    """The join's `leader`, `title` and `home` (a starting island's number), checked, as the
    join entry's founding (None: nothing chosen, a join as before)."""
    leader, title, home = choices.get("leader"), choices.get("title"), choices.get("home")
    out: dict[str, Any] = {}
    for key, text, what, most in (
        ("leader", leader, "leader's name", LEADER_MOST),
        ("title", title, "title", TITLE_MOST),
    ):
        if text is None:
            continue
        text = check_name(text, what)
        if not 1 <= len(text) <= most:
            raise UserError(f"A {what} is 1 to {most} characters.")
        out[key] = text
    if "title" in out and "leader" not in out:
        raise UserError("A title goes with a leader: give `leader:` too (or leave `title:` out).")
    if home is not None:
        found = _ISLAND.match(str(home))
        if found is None:
            raise UserError(
                f"{str(home)[:40]!r} is not a starting island: give its number, as "
                "`/game islands` shows them."
            )
        out["island"] = int(found.group(1))
    return out or None


class Founding:
    """`/game islands` and the join's island suggestions."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def _lobby(self, caller: Caller) -> tuple[GameRow, StartingIslands]:
        seat = await self.ctx.seat(caller)
        game = seat.game
        if game.kind != KIND:
            raise UserError("Only Strategic Initiative games have starting islands to choose.")
        if game.status == "ended":
            raise UserError(GAME_OVER.format(game=game.id))
        if game.status != "lobby":
            raise UserError(
                f"Game {game.id} has started: starting islands are chosen when joining, "
                "before the start."
            )
        # the lobby's free islands are public (none of the rest of the map is read)
        return game, await self.ctx.service.lobby_view(game.id)

    async def islands(self, caller: Caller) -> Reply:
        """The free starting islands as a picture, numbered as `/game join home:` takes them."""
        from renderers.strategic import drawing
        from renderers.strategic.islands import render_islands

        game, islands = await self._lobby(caller)
        if not islands.free:
            raise UserError(f"Game {game.id} is full: no starting island is free.")
        data = await drawing.run(render_islands, islands, f"Free starting islands: {game.name}")
        numbers = ", ".join(str(i.number) for i in islands.free)
        return Reply(
            text=(
                f"{len(islands.free)} of {islands.seats} starting islands are free in "
                f"{game.name}: {numbers}. Join on one with `/game join name:... home:<number>`; "
                "without `home:` you get the lowest free number."
            ),
            files=[("islands.png", data)],
        )

    async def choose_islands(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """The free islands as the player types (none outside a lobby)."""
        try:
            _game, islands = await self._lobby(caller)
        except UserError:
            return []
        typed = str(current or "").strip().lower().removeprefix("island").strip()
        return [
            (
                f"island {i.number} (home city at {islands.label(i.home)}, {len(i.land)} squares)",
                str(i.number),
            )
            for i in islands.free
            if str(i.number).startswith(typed)
        ][:LIMIT]
