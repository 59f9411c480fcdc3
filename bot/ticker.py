"""Game time in the background: every few seconds each running game is advanced to where its
clock says it should be (`GameService.catch_up`), at most `max_ticks_per_pass` ticks per game
per pass, so a game far behind (after downtime) catches up over several short passes and the
event loop is never held for long (the service also yields between committed batches).

Games are advanced a few at a time side by side (`concurrency`): each game's advance is its own
transaction under its own lock, and the store runs transactions one after another, so this only
keeps a pass from waiting behind every player's command one game at a time.

A game that fails is logged with its id and tried again later (backing off while it keeps
failing); the other games go on. Games in memory whose next tick is not due yet are passed
over without a task (`GameService.next_tick_at`), so idle games cost a clock check a pass;
the time of each one's next tick is kept between passes until the game changes in memory
(`GameService.watch`: a commit, a row change, a load or an eviction), so a pass over a thousand
games that did not change is a dictionary read each.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable

from engine.host.rows import LeaseHeld, LeaseLost
from engine.loops import every

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
        concurrency: int = 8,
    ) -> None:
        if max_ticks_per_pass < 1 or concurrency < 1:
            raise ValueError("max_ticks_per_pass and concurrency must be at least 1")
        self.concurrency = concurrency
        self.service = service
        self.max_ticks_per_pass = max_ticks_per_pass
        self.clock = clock
        self.backoff = backoff
        self._failures: dict[int, tuple[int, float]] = {}  # game -> (failures in a row, retry at)
        self.behind = False  # the last pass stopped some game at max_ticks_per_pass
        # when each game in memory has its next tick due, as of its last change
        self._watch = service.watch()
        self._next: dict[int, float] = {}

    async def run_once(self) -> dict[int, int]:
        """Advance every running game once; returns game id -> ticks advanced. Up to
        `concurrency` games are advanced side by side, so a pass is not queued behind the
        players' commands one game at a time."""
        done: dict[int, int] = {}
        limit = asyncio.Semaphore(self.concurrency)

        async def one(game_id: int) -> None:
            async with limit:
                ticks = await self._advance(game_id)
            if ticks is not None:
                done[game_id] = ticks

        now = self.clock()
        games = await self.service.games(status=["running"], mine=True)
        changed = self._watch.take()
        if changed is None:
            self._next.clear()
        else:
            for game_id in changed:
                self._next.pop(game_id, None)
        # a game in memory whose next tick is not due yet costs nothing more this pass (a
        # millisecond's slack: `catch_up` decides exactly, and answers 0 if it was early)
        due: list[int] = []
        for g in games:
            if self._next_at(g.id) > now + 0.001 and g.id not in self._failures:
                done[g.id] = 0
            else:
                due.append(g.id)
        if len(self._next) > len(games):  # games that stopped running: forget them
            running = {g.id for g in games}
            self._next = {g: at for g, at in self._next.items() if g in running}
        await asyncio.gather(*(one(game_id) for game_id in due))
        self.behind = any(t >= self.max_ticks_per_pass for t in done.values())
        return dict(sorted(done.items()))

    def _next_at(self, game_id: int) -> float:
        """When the game's next tick is due (-inf: not in memory, to be loaded)."""
        at = self._next.get(game_id)
        if at is None:
            at = self.service.next_tick_at(game_id)
            if at is None:
                return -math.inf
            self._next[game_id] = at
        return at

    async def _advance(self, game_id: int) -> int | None:
        """Catch one game up (None: skipped while backing off, or failed)."""
        now = self.clock()
        failed = self._failures.get(game_id)
        if failed is not None and now < failed[1]:
            return None
        try:
            ticks = await self.service.catch_up(game_id, now, max_ticks=self.max_ticks_per_pass)
        except asyncio.CancelledError:
            raise
        except LeaseHeld as held:  # another process runs it: not this one's to move on
            self._failures[game_id] = (0, max(now + self.backoff, held.expires))
            return None
        except LeaseLost:  # taken over while this process was paused or cut off: nothing
            # was written, and the stale copy is gone; the next pass finds who runs it now
            log.warning(
                "game %s was taken over by another process; its ticks are left to it", game_id
            )
            return None
        except Exception:
            count = (failed[0] if failed else 0) + 1
            delay = min(MAX_BACKOFF, self.backoff * 2 ** (count - 1))
            self._failures[game_id] = (count, now + delay)
            log.exception(
                "advancing game %s failed (%d in a row; next try in %.0fs)", game_id, count, delay
            )
            return None
        if failed is not None:
            del self._failures[game_id]
            if failed[0]:  # it had failed (not merely been another process's)
                log.info("game %s advances again", game_id)
        return ticks

    async def run_forever(self, interval: float = 5.0) -> None:
        """Advance the running games every `interval` seconds (at once again while some game is
        still catching up), forever; cancel the task to stop."""
        await every(
            lambda: min(interval, 0.05) if self.behind else interval,
            self._pass,
            name="ticker pass",
            logger=log,
        )

    async def _pass(self) -> None:
        try:
            await self.run_once()
        except Exception:  # e.g. the store could not list the games (logged by `every`)
            self.behind = False
            raise
