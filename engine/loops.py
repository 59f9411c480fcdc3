"""Background loops: one pass every few seconds, for ever, until the task is cancelled.

Every background task of the host (the ticker, the notifier, the AI runner, the pinned status
board) has the same shape: run a pass, survive its failure, wait, again. `every` is that shape
written once: an exception of a pass is logged and the next pass goes on, a cancellation is
re-raised at once (so a task stops on its first cancel), and a loop that must react sooner
than its interval is woken by an `asyncio.Event`.

It lives in the engine (not in `bot/`) because the AI runner (`engine.host.runner`) uses it too,
and the engine never imports the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from contextvars import ContextVar
from typing import Any, NoReturn, TypeVar

log = logging.getLogger(__name__)

Pass = Callable[[], Awaitable[object]]
T = TypeVar("T")

# Whether the running task works in the background (a pass of `every`: the ticker, the AI, the
# DMs, the status boards) rather than for a player waiting on an answer. The host lets a
# player's work go first where both queue for the same thread (loading a game after a
# restart). A task's context is its own copy: setting it in one loop's task marks that loop
# and the tasks it starts, nothing else.
BACKGROUND: ContextVar[bool] = ContextVar("background", default=False)


class Turns:
    """A long pass over many games on the event loop gives the loop a turn every `every`
    seconds of its own work (`await turns.give()` between games): an `await` that does not
    suspend (a game's answer already in memory) lets nothing else run, so a pass over a
    thousand games would hold every player's command until its end."""

    def __init__(self, every: float = 0.005) -> None:
        self.every = every
        self._due = time.perf_counter() + every

    async def give(self) -> None:
        if time.perf_counter() >= self._due:
            await asyncio.sleep(0)
            self._due = time.perf_counter() + self.every


async def in_thread(pool: Executor, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` in `pool`'s thread, the event loop free meanwhile. A thread cannot be
    stopped: a cancellation waits for `fn` to end (however often it is cancelled) and is then
    re-raised, so nothing `fn` touches is used by the next caller while it still runs."""
    job = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
    try:
        return await asyncio.shield(job)
    except asyncio.CancelledError as first:
        cancelled = first
        while not job.done():
            try:
                await asyncio.wait({job})
            except asyncio.CancelledError as again:
                cancelled = again
        if not job.cancelled():
            job.exception()  # marked retrieved: the caller hears of its cancellation
        raise cancelled from None


async def guarded(pass_: Pass, what: str, logger: logging.Logger | None = None) -> bool:
    """Run one pass; an exception is logged ("<what> failed", with its traceback) and
    swallowed, a cancellation re-raised. Returns whether the pass ended without an error."""
    try:
        await pass_()
    except asyncio.CancelledError:
        raise
    except Exception:
        (logger or log).exception("%s failed", what)
        return False
    return True


async def every(
    interval: float | Callable[[], float],
    pass_: Pass,
    *,
    name: str = "background pass",
    wake: asyncio.Event | None = None,
    settle: float = 0.0,
    wait_first: bool = False,
    logger: logging.Logger | None = None,
) -> NoReturn:
    """Run `pass_` every `interval` seconds, for ever; cancel the task to stop.

    - `interval`: seconds between the end of a pass and the start of the next, or a function
      asked after each pass (e.g. shorter while some work is left over; 0: the next pass at
      once, with no `settle` either).
    - A pass that raises is logged as "<name> failed" on `logger` and the loop goes on; a
      `CancelledError` (during a pass or a wait) ends the loop.
    - `wake`: setting this event ends the wait early; it is cleared, then `settle` seconds
      pass before the next pass (so a burst of wake-ups lands in one pass).
    - `wait_first`: wait once before the first pass (else the first pass runs at once).
    """
    BACKGROUND.set(True)
    if wait_first:
        await _wait(interval, wake, settle)
    while True:
        await guarded(pass_, name, logger)
        await _wait(interval, wake, settle)


async def _wait(
    interval: float | Callable[[], float], wake: asyncio.Event | None, settle: float
) -> None:
    seconds = interval() if callable(interval) else interval
    if seconds <= 0:  # at once (work is left over), wake-ups or not
        await asyncio.sleep(0)
        return
    if wake is None:
        await asyncio.sleep(seconds)
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wake.wait(), seconds)
    if wake.is_set():
        wake.clear()
        await asyncio.sleep(settle)
