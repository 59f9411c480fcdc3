"""What a button under a reply, a confirmation button or a list's page button runs: each part
of the desk registers its own callables here, by the name the button carries in its custom id
(`bot.context.Button.action`, `Pending.kind`, a `bot.paging` list's name), so a button sent
before a restart still finds its action, and no part reaches another by a method's name."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from bot.context import UNKNOWN_CONFIRMATION, Caller, Pending, Reply, UserError

Pressed = Callable[[Caller, str], Awaitable[Reply]]
Confirmed = Callable[[Caller, Pending], Awaitable[Reply]]
Paged = Callable[..., Awaitable[Reply]]  # (caller, *, page, game_id)

NO_LONGER_VALID = "This button is no longer valid: run the command again."
_NAME = re.compile(r"[a-z_]{1,16}")


class Actions:
    def __init__(self) -> None:
        self._pressed: dict[str, Pressed] = {"page": self._page}
        self._confirmed: dict[str, Confirmed] = {}
        self._paged: dict[str, Paged] = {}

    # --- registering -------------------------------------------------------------------------------

    def button(self, action: str, run: Pressed) -> None:
        """A button under a reply (`Button(label, action, args)`): `run(caller, args)`."""
        self._add(self._pressed, action, run)

    def confirmation(self, kind: str, run: Confirmed) -> None:
        """The action behind a confirmation of this kind (`confirmations.ask(..., kind, ...)`):
        `run(caller, pending)` checks the presser's rights again and acts."""
        self._add(self._confirmed, kind, run)

    def pages(self, listing: str, run: Paged) -> None:
        """A list shown a page at a time (`bot.paging`): `run(caller, page=, game_id=)`."""
        self._add(self._paged, listing, run)

    @staticmethod
    def _add(table: dict, name: str, run: Callable) -> None:
        if not _NAME.fullmatch(name):
            raise ValueError(f"{name!r}: an action's name is 1 to 16 of a-z and _")
        if name in table:
            raise ValueError(f"{name!r} is registered twice")
        table[name] = run

    # --- running -----------------------------------------------------------------------------------

    async def press(self, caller: Caller, action: str, args: str) -> Reply:
        run = self._pressed.get(action)
        if run is None:
            raise UserError(NO_LONGER_VALID)
        return await run(caller, args)

    async def confirm(self, caller: Caller, pending: Pending) -> Reply:
        run = self._confirmed.get(pending.kind)
        if run is None:
            raise UserError(UNKNOWN_CONFIRMATION)
        return await run(caller, pending)

    async def _page(self, caller: Caller, args: str) -> Reply:
        """A list's Prev or Next (`bot.paging`): the command runs again for the presser, checked
        like a typed one, and shows the page asked for (the nearest there is, if the list has
        shrunk meanwhile). `args` is `<list>[:<game>]:<page>`."""
        found = re.fullmatch(r"([a-z]{1,12})(?::(\d{1,12}))?:(\d{1,5})", args)
        run = self._paged.get(found[1]) if found else None
        if found is None or run is None:
            raise UserError(NO_LONGER_VALID)
        game_id = int(found[2]) if found[2] else None
        return await run(caller, page=int(found[3]), game_id=game_id)

    def names(self) -> dict[str, list[str]]:
        """What is registered (tests, docs)."""
        return {
            "buttons": sorted(self._pressed),
            "confirmations": sorted(self._confirmed),
            "pages": sorted(self._paged),
        }
