"""Pictures drawn in worker processes, so drawing never holds the event loop's thread or the
GIL of the bot's process.

    from renderers import pool
    data = await pool.draw_focus(view, title=..., markers=...)    # PNG bytes: what matters
    data = await pool.draw_map(view, title=..., markers=...)      # the whole board
    data = await pool.draw_crop(view, centre, radius, title=...)

The View (frozen dataclasses and numpy arrays) is pickled to a worker, which draws it
(`mapimage.render_focus` / `render_map` / `render_crop`) and encodes it (`png_bytes`); only the PNG's bytes come
back. The output is byte-for-byte what drawing in-process gives.

`DrawPool` wraps a `concurrent.futures.ProcessPoolExecutor` with the "spawn" start method (safe
with threads in the parent: the bot has the database thread and the event loop). It starts on
first use, or at `await start()` (the bot can warm it up at start-up), in a helper thread: starting
processes never blocks the event loop. Workers run at a lower priority (`nice`), so on a small
machine the bot's own process (commands, the ticker) wins the CPU when both want it.

If no process pool can start (no /dev/shm, a sandbox that forbids processes) the pool draws in
threads instead, and says so once in the log. If a worker dies, the pool is started again and the
picture tried once more. A picture that fails to draw raises its exception in the caller; one
still waiting when the pool is shut down raises `PoolClosed`.

The module keeps one default pool (`default_pool()`; `draw_map`, `draw_crop`, `run`, `start` and
`shutdown` use it). Its size comes from `SI_DRAW_WORKERS` (default: one less than the number of
cores, 1 to 4, so the event loop keeps a core; 0 draws in threads) unless `configure()` sets it.
`shutdown()` stops its processes; a later draw starts it again.

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
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import fields
from operator import attrgetter
from typing import Any

from engine.strategic.view import CityView, UnitView, View
from renderers.strategic.markers import Marker

log = logging.getLogger(__name__)

START_TIMEOUT = 60.0  # seconds for the workers to start before drawing falls back to threads


class PoolClosed(RuntimeError):
    """The pool was shut down before this picture was drawn."""


# --- sending a view ------------------------------------------------------------------------------

_VIEW_FIELDS = tuple(f.name for f in fields(View))
_UNIT = attrgetter(*(f.name for f in fields(UnitView)))
_CITY = attrgetter(*(f.name for f in fields(CityView)))


class Parcel:
    """A View on its way to a worker. Pickling a View object by object costs about 1.3 ms at
    128x128 (a Python call per unit), in the bot's process, holding its GIL; a Parcel pickles
    the units and cities as plain tuples (0.2 ms) and is a View again in the worker."""

    __slots__ = ("view",)

    def __init__(self, view: View) -> None:
        self.view = view

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        v = self.view
        values = {name: getattr(v, name) for name in _VIEW_FIELDS}
        values["units"] = [_UNIT(u) for u in v.units]
        values["cities"] = [(sq, _CITY(c)) for sq, c in v.cities.items()]
        return (_unpack, (values,))


def _unpack(values: dict[str, Any]) -> View:
    values["units"] = [UnitView(*u) for u in values["units"]]
    values["cities"] = {sq: CityView(*c) for sq, c in values["cities"]}
    return View(**values)


# --- what runs in a worker ----------------------------------------------------------------------


def _init_worker(nice: int) -> None:
    import signal

    # Ctrl-C goes to the whole process group: the bot shuts the pool down, workers just wait
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(nice)
    _warm()


def _warm() -> int:
    """Import and load what every picture needs (rules, fonts), once per worker."""
    from engine.strategic.rules import load as load_rules
    from renderers.strategic import (
        mapimage,  # noqa: F401 (imported to load it)
        style,
    )

    for name in ("standard", "classic"):
        with contextlib.suppress(Exception):
            load_rules(name)
    for size in (8, 10, 12, 13, 14, 16):
        style.font(size)
    return os.getpid()


def draw_map_bytes(view: View, options: dict[str, Any]) -> bytes:
    """`render_map(view, **options)` encoded as PNG (in a worker, or anywhere)."""
    from renderers.encoding import png_bytes
    from renderers.strategic.mapimage import render_map

    return png_bytes(render_map(view, **options))


def draw_focus_bytes(view: View, options: dict[str, Any]) -> bytes:
    """`render_focus(view, **options)` encoded as PNG."""
    from renderers.encoding import png_bytes
    from renderers.strategic.mapimage import render_focus

    return png_bytes(render_focus(view, **options))


def draw_crop_bytes(view: View, centre: int, radius: int, options: dict[str, Any]) -> bytes:
    """`render_crop(view, centre, radius, **options)` encoded as PNG."""
    from renderers.encoding import png_bytes
    from renderers.strategic.mapimage import render_crop

    return png_bytes(render_crop(view, centre, radius, **options))


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

    async def draw_map(
        self,
        view: View,
        *,
        title: str = "",
        markers: Sequence[Marker] = (),
        cell: int | None = None,
        legend: bool = True,
        colours: str = "relation",
    ) -> bytes:
        """The nation's whole board as PNG bytes (`mapimage.render_map`)."""
        options = {
            "title": title,
            "markers": list(markers),
            "cell": cell,
            "legend": legend,
            "colours": colours,
        }
        return await self.run(draw_map_bytes, view, options)

    async def draw_focus(
        self,
        view: View,
        *,
        title: str = "",
        markers: Sequence[Marker] = (),
        colours: str = "relation",
    ) -> bytes:
        """What matters to the nation, or round the markers, as PNG bytes
        (`mapimage.render_focus`)."""
        options = {"title": title, "markers": list(markers), "colours": colours}
        return await self.run(draw_focus_bytes, view, options)

    async def draw_crop(
        self,
        view: View,
        centre: int,
        radius: int,
        *,
        title: str = "",
        markers: Sequence[Marker] = (),
        cell: int = 60,
        colours: str = "relation",
    ) -> bytes:
        """A zoomed window round `centre` as PNG bytes (`mapimage.render_crop`)."""
        options = {"title": title, "markers": list(markers), "cell": cell, "colours": colours}
        return await self.run(draw_crop_bytes, view, centre, radius, options)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker (`fn` must be a module-level function; it and the arguments
        must pickle; Views travel as `Parcel`s and arrive as Views). Exceptions raised by `fn`
        are raised here. A worker that died is replaced and `fn` tried once more. A picture
        still waiting when the pool is shut down raises `PoolClosed` (not CancelledError: the
        caller was not cancelled)."""
        for attempt in (1, 2):
            executor = self._executor
            if executor is None:
                executor = await asyncio.to_thread(self._ensure)
            sent = args
            if not isinstance(executor, ThreadPoolExecutor):  # to another process
                sent = tuple(Parcel(a) if isinstance(a, View) else a for a in args)
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
        try:
            executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(self.nice,),
            )
            # one task a worker: every process is started now, not while the bot waits for a
            # picture (the executor starts a process at a submit when none is idle)
            futures = [executor.submit(_warm) for _ in range(self.workers)]
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


async def draw_map(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int | None = None,
    legend: bool = True,
    colours: str = "relation",
) -> bytes:
    """The whole board as PNG bytes, drawn in the default pool."""
    return await default_pool().draw_map(
        view, title=title, markers=markers, cell=cell, legend=legend, colours=colours
    )


async def draw_focus(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    colours: str = "relation",
) -> bytes:
    """The focused picture (`mapimage.render_focus`) as PNG bytes, drawn in the default pool."""
    return await default_pool().draw_focus(view, title=title, markers=markers, colours=colours)


async def draw_crop(
    view: View,
    centre: int,
    radius: int,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int = 60,
    colours: str = "relation",
) -> bytes:
    """A zoomed window as PNG bytes, drawn in the default pool."""
    return await default_pool().draw_crop(
        view, centre, radius, title=title, markers=markers, cell=cell, colours=colours
    )


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
