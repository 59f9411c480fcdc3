"""Game time in the background: every few seconds each running game is advanced to where its
clock says it should be (`GameService.catch_up`), at most `max_ticks_per_pass` ticks per game
per pass, so a game far behind (after downtime) catches up over several short passes and the
event loop is never held for long (the service also yields between committed batches).

A game that fails is logged with its id and tried again later (backing off while it keeps
failing); the other games go on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

MAX_BACKOFF = 300.0


class Ticker:
    def __init__(
        self,
        service,
        *,
        max_ticks_per_pass: int = 96,
        clock: Callable[[], float] = time.time,
        backoff: float = 5.0,
    ) -> None:
        if max_ticks_per_pass < 1:
            raise ValueError("max_ticks_per_pass must be at least 1")
        self.service = service
        self.max_ticks_per_pass = max_ticks_per_pass
        self.clock = clock
        self.backoff = backoff
        self._failures: dict[int, tuple[int, float]] = {}  # game -> (failures in a row, retry at)
        self.behind = False  # the last pass stopped some game at max_ticks_per_pass

    async def run_once(self) -> dict[int, int]:
        """Advance every running game once; returns game id -> ticks advanced."""
        done: dict[int, int] = {}
        behind = False
        for game in await self.service.games(status=["running"]):
            now = self.clock()
            failed = self._failures.get(game.id)
            if failed is not None and now < failed[1]:
                continue
            try:
                ticks = await self.service.catch_up(game.id, now, max_ticks=self.max_ticks_per_pass)
            except asyncio.CancelledError:
                raise
            except Exception:
                count = (failed[0] if failed else 0) + 1
                delay = min(MAX_BACKOFF, self.backoff * 2 ** (count - 1))
                self._failures[game.id] = (count, now + delay)
                log.exception(
                    "advancing game %s failed (%d in a row; next try in %.0fs)",
                    game.id,
                    count,
                    delay,
                )
                continue
            if failed is not None:
                del self._failures[game.id]
                log.info("game %s advances again", game.id)
            done[game.id] = ticks
            if ticks >= self.max_ticks_per_pass:
                behind = True
        self.behind = behind
        return done

    async def run_forever(self, interval: float = 5.0) -> None:
        """Advance the running games every `interval` seconds (at once again while some game is
        still catching up), forever; cancel the task to stop."""
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:  # e.g. the store could not list the games
                log.exception("ticker pass failed")
                self.behind = False
            await asyncio.sleep(min(interval, 0.05) if self.behind else interval)
