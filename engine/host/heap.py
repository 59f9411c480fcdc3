"""The garbage collector and a heap of many games: no full collection ever stalls play.

A process hosting 1,000 games holds about 1.5 GiB of long-lived objects (the worlds). CPython's
cyclic collector scans every object of the oldest generation in a full collection, holding the
interpreter (every thread, the event loop too) for half a second at that size, again each time
a quarter more objects have survived into it.

Worlds hold no reference cycles (their indexes point back to them weakly), and ticks and
commands leave none behind (measured: `bench/bench_restart.py` prints what a full collection
still finds), so reference counting frees whatever a game drops, evicted worlds included,
without the cyclic collector. `HeapKeeper` therefore moves the objects alive at the time into
the collector's permanent generation (`gc.freeze`): once at the start, after one full
collection, before any game is loaded (the modules' and libraries' objects); then after every
`growth` games loaded (a restart loads hundreds in seconds: unfrozen, their objects would
trigger full collections of 100 ms and more while players wait), and every ten minutes. A full
collection then scans only what was made since. A process of fewer than `min_games` games is
left alone: its full collections take milliseconds. The cost: a cycle that is already garbage
when it is frozen is never collected; a collection of the young generations first (a few
milliseconds) frees those of the last moments, and the bench measures what is left (`leaked`).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Awaitable, Callable

from engine.loops import every

log = logging.getLogger(__name__)


class HeapKeeper:
    def __init__(
        self,
        loaded: Callable[[], int],
        *,
        refreeze_seconds: float = 600.0,
        min_games: int = 50,
        growth: int = 10,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`loaded`: how many games the process has in memory (a freeze follows new ones).
        `min_games`: below that many games a full collection is short (milliseconds): the
        collector is left as it is."""
        self.loaded = loaded
        self.min_games = min_games
        # while games load (after a restart: hundreds in seconds) a freeze follows every
        # `growth` more, so a full collection never has the new games' bulk to scan either
        self.growth = growth
        self.refreeze_seconds = refreeze_seconds
        self.clock = clock
        self.frozen_games = 0
        self.frozen_at: float | None = None
        self.freezes = 0

    def due(self) -> bool:
        if self.loaded() < self.min_games:
            return False
        if self.loaded() >= self.frozen_games + self.growth:
            return True
        return self.frozen_at is None or self.clock() - self.frozen_at >= self.refreeze_seconds

    def freeze(self, generation: int = 1) -> None:
        """Collect up to `generation` (the young ones: a few milliseconds), then keep
        everything alive now out of every later collection."""
        gc.collect(generation)
        gc.freeze()
        self.frozen_games = self.loaded()
        self.frozen_at = self.clock()
        self.freezes += 1

    async def run_once(self) -> bool:
        """Freeze if games were loaded since the last freeze, or it is time to; returns whether
        it froze."""
        if not self.due():
            return False
        self.freeze()
        return True

    def begin(self, expected_games: int) -> bool:
        """At a process's start, before games load: with `min_games` or more to run, one full
        collection (the imports' garbage; nobody waits yet) and a freeze of what is alive, so
        the modules' and libraries' objects are never scanned again. Returns whether it did."""
        if expected_games < self.min_games:
            return False
        self.freeze(2)
        return True

    async def run_forever(
        self, interval: float = 1.0, expected: Callable[[], Awaitable[int]] | None = None
    ) -> None:
        """`begin` with the games `expected()` says the process will run, then a look every
        `interval` seconds (a look is a count of the games in memory)."""
        if expected is not None:
            self.begin(await expected())
        await every(interval, self.run_once, name="heap keeper", logger=log)
