"""One pacer for the bot's own fan-out: every request the bot makes of its own accord (a DM,
opening a DM channel, a status edit or pin, a post in a game's channel: announcements, turn
boards, the end-of-game GIF) waits here for its turn, so that a restart (every status edited
again) or a blitz hour (1,000 games' turns, DMs and boards) stays well under Discord's global
limit of 50 requests a second per bot token. Answers to interactions are not paced: they have
3 seconds, and Discord does not count them towards the global limit.

A token bucket kept as a schedule (the "generic cell rate" form): each request is given the
next free moment, `1 / rate` after the one before, but never earlier than now less the `burst`
it may borrow after a quiet spell; it sleeps until then. Callers are served in the order they
asked, however many wait (one notifier, one status loop and a few posts at a time). Several
processes of one bot (shards) share the budget: each is given its part (`share`).

Discord-free and clock-free: `clock` and `sleep` are passed in (tests pass a fake clock)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

# Discord's global limit is 50 requests a second per bot; the bot keeps to half of it, leaving
# room for interaction follow-ups, discord.py's own calls and other processes' mistakes
DEFAULT_RATE = 25.0


class Pacer:
    """`await pacer.wait()` before each request of the bot's own fan-out: at most `rate`
    requests a second on average, at most `burst` at once after a quiet spell."""

    def __init__(
        self,
        rate: float = DEFAULT_RATE,
        *,
        burst: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("a pacer's rate must be more than 0 requests a second")
        self.rate = float(rate)
        self.interval = 1.0 / self.rate
        # after a quiet spell a few requests go at once (a fifth of a second's worth, at least 1)
        self.burst = max(1.0, float(burst) if burst is not None else self.rate / 5)
        self.clock = clock
        self.sleep = sleep
        self._next = -float("inf")  # the theoretical time of the next request
        self.waited = 0.0  # seconds callers were held, in all (for logs and benchmarks)
        self.granted = 0  # requests let through

    def reserve(self) -> float:
        """Take the next slot; how long to wait for it (0: go now)."""
        now = self.clock()
        # a quiet spell lends at most `burst` requests: the schedule never lags further behind
        earliest = now - (self.burst - 1) * self.interval
        slot = max(self._next, earliest)
        self._next = slot + self.interval
        self.granted += 1
        return max(0.0, slot - now)

    def ready_in(self) -> float:
        """How long a request asking now would wait (0: it would go at once); takes nothing."""
        return max(0.0, self._next - self.clock())

    async def wait(self) -> None:
        """Wait for this request's turn."""
        delay = self.reserve()
        if delay > 0:
            self.waited += delay
            await self.sleep(delay)

    __call__ = wait


def process_share(rate: float, shard_ids: list[int] | None, shard_count: int | None) -> float:
    """This process's part of the bot's budget: the whole of it, or, when it runs some of the
    bot's shards (`SI_SHARD_IDS` of `SI_SHARD_COUNT`), the same part of it as of the shards
    (every process of the bot takes its part, and together they stay within the whole)."""
    if shard_ids is None or not shard_count:
        return rate
    return rate * min(1.0, len(set(shard_ids)) / shard_count)
