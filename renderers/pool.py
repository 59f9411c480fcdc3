"""Pictures drawn in worker processes, so drawing never holds the event loop's thread or the
GIL of the bot's process.

    from renderers import pool
    data = await pool.run(draw_png, view, options)   # draw_png(view, options), in a worker

The function (a module-level one) and its arguments are pickled to a worker, which calls it:
a game's function draws a picture and encodes it, and only what it returns (the PNG's bytes)
comes back. The output is byte-for-byte what drawing in-process gives. Each game's package
holds those functions and the calls that draw with them (`renderers/<game>/drawing.py`); a game
may register how a type of argument travels faster to a worker (`send_as`) and what a worker
loads before its first picture (`warm_up`).

`DrawPool` wraps a `concurrent.futures.ProcessPoolExecutor` with the "spawn" start method (safe
with threads in the parent: the bot has the database thread and the event loop). It starts on
first use, or at `await start()` (the bot can warm it up at start-up), in a helper thread: starting
processes never blocks the event loop. Workers run at a lower priority (`nice`), so on a small
machine the bot's own process (commands, the ticker) wins the CPU when both want it.

If no process pool can start (no /dev/shm, a sandbox that forbids processes) the pool draws in
threads instead, and says so once in the log. If a worker dies, the pool is started again and the
picture tried once more. A picture that fails to draw raises its exception in the caller; one
still waiting when the pool is shut down raises `PoolClosed`.

The module keeps one default pool (`default_pool()`; `run`, `start` and `shutdown` use it). Its
size comes from `SI_DRAW_WORKERS` (default: one less than the number of cores, 1 to 4, so the
event loop keeps a core; 0 draws in threads) unless `configure()` sets it. `shutdown()` stops
its processes; a later draw starts it again.

As with any "spawn" pool, a worker imports the parent's main module: a script that draws
through the pool must keep its work under `if __name__ == "__main__":` (the bot's entry points,
`si` and `python -m bot`, do).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

START_TIMEOUT = 60.0  # seconds for the workers to start before drawing falls back to threads


class PoolClosed(RuntimeError):
    """The pool was shut down before this picture was drawn."""


# --- what a game registers ---------------------------------------------------------------------

T = TypeVar("T")

_packers: dict[type, Callable[[Any], Any]] = {}
_warm_ups: list[Callable[[], object]] = []


def send_as(kind: type[T], pack: Callable[[T], object]) -> None:
    """Arguments of type `kind` (or a subclass) travel to a worker process as `pack(argument)`:
    a faster pickling, which must unpickle as an equal `kind`. Drawing in threads, they are
    given as they are."""
    _packers[kind] = pack


def warm_up(load: Callable[[], object]) -> None:
    """`load()` runs in each worker process as it starts (a module-level function, found by
    its module's name in the worker): what a game's pictures need loaded before the first one
    (rules, fonts). Pools started afterwards run it."""
    if load not in _warm_ups:
        _warm_ups.append(load)


def _packed(args: tuple[Any, ...]) -> tuple[Any, ...]:
    if not _packers:
        return args
    return tuple(_pack(a) for a in args)


def _pack(arg: Any) -> Any:
    for kind, pack in _packers.items():
        if isinstance(arg, kind):
            return pack(arg)
    return arg


# --- what runs in a worker ----------------------------------------------------------------------


def _init_worker(nice: int, warm_ups: tuple[Callable[[], object], ...]) -> None:
    import signal

    # Ctrl-C goes to the whole process group: the bot shuts the pool down, workers just wait
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(nice)
    _warm(warm_ups)


def _warm(warm_ups: tuple[Callable[[], object], ...]) -> int:
    """Load what the games' pictures need (`warm_up`), once per worker."""
    for load in warm_ups:
        load()
    return os.getpid()


# --- the pool -------------------------------------------------------------------------------------


def default_workers() -> int:
    """`SI_DRAW_WORKERS` if set (0: draw in threads), else one less than the number of cores
    (the event loop keeps a core to itself), at least 1 and at most 4."""
    text = os.environ.get("SI_DRAW_WORKERS", "").strip()
    if text:
        try:
            return max(0, int(text))
        except ValueError:
            log.warning("SI_DRAW_WORKERS=%r is not a number: using the default", text)
    return max(1, min(4, (os.cpu_count() or 1) - 1))


class DrawPool:
    """Worker processes that draw pictures (threads when processes are not possible).

    `workers`: how many processes (None: `default_workers()`; 0: threads only). `nice`: how much
    lower the workers' priority is than the bot's (0: the same). `kind` is "idle" until started,
    then "processes" or "threads"."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        nice: int = 5,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        self.workers = default_workers() if workers is None else max(0, workers)
        self.nice = nice
        self.start_timeout = start_timeout
        self.kind = "idle"
        self._executor: Executor | None = None
        self._lock = threading.Lock()  # not asyncio's: the pool may outlive an event loop

    # --- drawing ----------------------------------------------------------------------------

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker (`fn` must be a module-level function; it and the arguments
        must pickle; an argument of a type given to `send_as` travels as its game packs it).
        Exceptions raised by `fn` are raised here. A worker that died is replaced and `fn`
        tried once more. A picture still waiting when the pool is shut down raises
        `PoolClosed` (not CancelledError: the caller was not cancelled)."""
        for attempt in (1, 2):
            executor = self._executor
            if executor is None:
                executor = await asyncio.to_thread(self._ensure)
            sent = args
            if not isinstance(executor, ThreadPoolExecutor):  # to another process
                sent = _packed(args)
            try:
                return await asyncio.get_running_loop().run_in_executor(executor, fn, *sent)
            except BrokenProcessPool:
                self._discard(executor, kill=True)
                if attempt == 2:
                    raise
                log.warning("a drawing worker died: starting the pool again")
            except RuntimeError:  # "cannot schedule new futures after shutdown"
                if self._executor is executor or attempt == 2:
                    raise
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the caller was cancelled
                raise PoolClosed("the drawing pool was shut down before the picture") from None
        raise AssertionError("unreachable")

    # --- starting and stopping --------------------------------------------------------------

    async def start(self) -> None:
        """Start the workers now (in a helper thread) rather than at the first picture."""
        if self._executor is None:
            await asyncio.to_thread(self._ensure)

    def _ensure(self) -> Executor:
        with self._lock:
            if self._executor is not None:
                return self._executor
            if self.workers > 0:
                executor = self._start_processes()
                if executor is not None:
                    self._executor, self.kind = executor, "processes"
                    return executor
            self._executor = ThreadPoolExecutor(
                max(1, self.workers or default_workers()), thread_name_prefix="draw"
            )
            self.kind = "threads"
            return self._executor

    def _start_processes(self) -> ProcessPoolExecutor | None:
        executor = None
        warm_ups = tuple(_warm_ups)
        try:
            executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(self.nice, warm_ups),
            )
            # one task a worker: every process is started now, not while the bot waits for a
            # picture (the executor starts a process at a submit when none is idle)
            futures = [executor.submit(_warm, warm_ups) for _ in range(self.workers)]
            for future in futures:
                future.result(timeout=self.start_timeout)
            return executor
        except Exception as exc:
            log.warning("drawing pictures in threads: no process pool (%r)", exc)
            if executor is not None:
                _stop(executor, wait=False, kill=True)
            return None

    def _discard(self, executor: Executor, *, kill: bool = False) -> None:
        with self._lock:
            if self._executor is executor:
                self._executor, self.kind = None, "idle"
        _stop(executor, wait=False, kill=kill)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers: pictures being drawn are finished (waited for when `wait`),
        those not started yet raise `PoolClosed`. The pool starts again when next used."""
        with self._lock:
            executor, self._executor, self.kind = self._executor, None, "idle"
        if executor is not None:
            _stop(executor, wait=wait)

    async def aclose(self) -> None:
        """`shutdown()` without blocking the event loop."""
        await asyncio.to_thread(self.shutdown)

    def pids(self) -> list[int]:
        """The worker processes' ids (none when idle or drawing in threads)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(p.pid for p in processes.values() if p.pid is not None)


def _stop(executor: Executor, *, wait: bool, kill: bool = False) -> None:
    """Shut the executor down; `kill`: also end its processes now (a broken pool, or one that
    never finished starting)."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    try:
        executor.shutdown(wait=wait, cancel_futures=True)
    except Exception:  # a broken pool may fail to shut down tidily
        log.exception("stopping the drawing pool")
    if kill:
        for p in processes:
            with contextlib.suppress(Exception):
                if p.is_alive():
                    p.terminate()


# --- the default pool -----------------------------------------------------------------------------

_default: DrawPool | None = None
_default_lock = threading.Lock()


def default_pool() -> DrawPool:
    global _default
    with _default_lock:
        if _default is None:
            _default = DrawPool()
        return _default


def configure(workers: int | None = None, *, nice: int = 5) -> DrawPool:
    """Replace the default pool (the old one is shut down)."""
    global _default
    with _default_lock:
        old, _default = _default, DrawPool(workers, nice=nice)
    if old is not None:
        old.shutdown(wait=False)
    return _default


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` in the default pool (see `DrawPool.run`)."""
    return await default_pool().run(fn, *args)


async def start() -> None:
    """Start the default pool's workers now (e.g. when the bot starts)."""
    await default_pool().start()


async def shutdown() -> None:
    """Stop the default pool's workers (e.g. when the bot closes)."""
    if _default is not None:
        await _default.aclose()


@atexit.register
def _at_exit() -> None:
    if _default is not None:
        _default.shutdown(wait=False)
