"""The end of a game day: 400 sitrep pictures at 128x128, drawn while the event loop must stay
responsive. Targets (issue 13): all 400 within one minute; the event loop never held over 10 ms.

The views are real: a generated 8-nation 128x128 game played by the AI for three days, then 50
game hours more, the view of every nation taken after each hour (8 x 50 = 400 views, as 50
games of 8 players would give at the end of a day). They are taken before the clock starts
(the notifier takes them on the event loop too, one game at a time, between awaits).

Drawing as the notifier does it: batches of pictures gathered side by side, each picture's
bytes "sent" (handed to a no-op coroutine) before the next batch. Modes:
- `thread`: `asyncio.to_thread(png_bytes(render_map(...)))` in batches of `max(2, 2 * cores)`,
  the notifier until issue 13;
- `pool`: `renderers.pool.DrawPool` (worker processes), the same batches;
- `pool-game`: the pool, one game's 8 sitreps a batch.

A watchdog coroutine sleeps 1 ms in a loop and records how late it wakes: how long the event
loop was held (see `Watchdog` for the split between this process and the machine's other
work). Run: `python -m bench.bench_sitrep [modes...]` (default: all three)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import resource
import statistics
import sys
import time

from engine.strategic.view import View, view_for

SIZE = 128
NATIONS = 8
HOURS = 50


def played_game(nations: int, size: int, days: int, seed: int = 1):
    """A generated game the AI has played for `days` game days: (world, seats)."""
    from engine.strategic.ai.local import play_turn
    from engine.strategic.ai.simulate import new_world
    from engine.strategic.clock import advance

    world, seats = new_world(nations, size, size, 10, seed, "standard", ["normal"])
    tph = world.ticks_per_hour
    while world.tick < days * world.rules.ticks_per_day:
        for seat in seats:
            play_turn(world, seat)
        advance(world, tph)
    return world, seats


def sitrep_views(
    count: int = NATIONS * HOURS, nations: int = NATIONS, size: int = SIZE
) -> list[View]:
    """`count` views of a game in play (every nation's view after each further game hour)."""
    from engine.strategic.ai.local import play_turn
    from engine.strategic.clock import advance

    world, seats = played_game(nations, size, 3)
    views: list[View] = []
    while len(views) < count:
        for seat in seats:
            play_turn(world, seat)
        advance(world, world.ticks_per_hour)
        for nid in sorted(world.nations):
            if not world.nations[nid].out and len(views) < count:
                views.append(view_for(world, nid))
    return views


def _schedstat() -> tuple[float, float] | None:
    """This thread's CPU time and time spent waiting for a CPU (ms), from Linux's schedstat."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            cpu, waited, _ = f.read().split()
    except (OSError, ValueError):
        return None
    return int(cpu) / 1e6, int(waited) / 1e6


class Watchdog:
    """Sleeps `period` in a loop and records how late it wakes (ms): how long the event loop
    was held. On Linux each lateness is split with the loop thread's schedstat: the part spent
    waiting for a CPU (`os_ms`: other processes, here the other engineers' jobs and our own
    workers, had the cores) and the rest (`held_ms`: this process held the loop, by running
    on it or by holding the GIL it waited for). Also records garbage-collection pauses."""

    def __init__(self, period: float = 0.001) -> None:
        self.period = period
        self.worst = 0.0  # the longest lateness
        self.worst_held = 0.0  # the longest lateness not spent waiting for a CPU
        self.worst_held_cpu = 0.0  # of which the loop's thread ran (the rest: waiting for the GIL)
        self.lates: list[float] = []
        self.helds: list[float] = []
        self.gc_pauses: list[float] = []
        self._gc_start = 0.0
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        before = _schedstat()
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.period)
            late = max(0.0, (time.perf_counter() - start - self.period) * 1000)
            after = _schedstat()
            held, cpu = late, 0.0
            if before is not None and after is not None:
                held = max(0.0, late - (after[1] - before[1]))
                cpu = after[0] - before[0]
            before = after
            self.lates.append(late)
            self.helds.append(held)
            self.worst = max(self.worst, late)
            if held > self.worst_held:
                self.worst_held, self.worst_held_cpu = held, cpu

    def _gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gc_pauses.append((time.perf_counter() - self._gc_start) * 1000)

    async def __aenter__(self) -> Watchdog:
        gc.callbacks.append(self._gc)
        self._task = asyncio.create_task(self._run())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc) -> None:
        gc.callbacks.remove(self._gc)
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


def _thread_draw(view: View, title: str) -> bytes:
    from renderers.encoding import png_bytes
    from renderers.strategic.mapimage import render_map

    return png_bytes(render_map(view, title=title, markers=[]))


async def run(mode: str, views: list[View], workers: int | None = None) -> dict:
    """Draw and "send" every view's sitrep picture; the figures of the pass."""
    batch = max(2, 2 * (os.cpu_count() or 1))  # the notifier's batch (`workers`)
    if mode == "pool-game":
        batch = len({v.nation for v in views})  # one game's sitreps at a time
    sent: list[int] = []

    async def send(data: bytes) -> None:  # the DM: the notifier awaits the HTTP call
        sent.append(len(data))
        await asyncio.sleep(0)

    pool = None
    if mode.startswith("pool"):
        from renderers.pool import DrawPool
        from renderers.strategic.drawing import draw_map

        pool = DrawPool(workers)
        await pool.start()  # the bot starts it at start-up: not part of a pass

        async def draw(view: View, title: str) -> bytes:
            return await draw_map(view, title=title, pool=pool)

    else:

        async def draw(view: View, title: str) -> bytes:
            return await asyncio.to_thread(_thread_draw, view, title)

    kind = pool.kind if pool is not None else "threads"
    size = pool.workers if pool is not None else batch
    titles = [f"Bench - {v.nation} - {v.clock}" for v in views]
    gc.collect()  # the garbage of making the views is not the notifier's
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        async with Watchdog() as dog:
            start = time.perf_counter()
            cpu, loop_cpu = time.process_time(), time.thread_time()
            for i in range(0, len(views), batch):
                chunk = zip(views[i : i + batch], titles[i : i + batch], strict=True)
                pictures = await asyncio.gather(*(draw(v, t) for v, t in chunk))
                for data in pictures:
                    await send(data)
            seconds = time.perf_counter() - start
            cpu, loop_cpu = time.process_time() - cpu, time.thread_time() - loop_cpu
    finally:
        if pool is not None:
            await pool.aclose()  # joins the workers: their CPU time is counted below
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers_cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    return {
        "mode": mode,
        "pictures": len(sent),
        "seconds": seconds,
        "batch": batch,
        "worst_ms": dog.worst,
        "worst_held_ms": dog.worst_held,
        "worst_held_cpu_ms": dog.worst_held_cpu,
        "p99_ms": _pct(dog.lates, 0.99),
        "over_10": sum(1 for x in dog.lates if x > 10),
        "held_over_10": sum(1 for x in dog.helds if x > 10),
        "samples": len(dog.lates),
        "gc_ms": max(dog.gc_pauses, default=0.0),
        "mean_kib": statistics.mean(sent) / 1024,
        "cpu_s": cpu,
        "loop_cpu_s": loop_cpu,
        "workers_cpu_s": workers_cpu,
        "workers": size,
        "kind": kind,
    }


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else 0.0


def main(argv: list[str]) -> None:
    """`[modes...] [--workers=N] [--size=S --nations=N]` (default: 8 nations on 128x128)."""
    options = {"workers": None, "size": SIZE, "nations": NATIONS}
    modes = []
    for arg in argv:
        if arg.startswith("--") and "=" in arg:
            name, value = arg[2:].split("=", 1)
            options[name] = int(value)
        else:
            modes.append(arg)
    size, nations = options["size"], options["nations"]
    assert size is not None and nations is not None  # set above; only "workers" may be None
    start = time.perf_counter()
    views = sitrep_views(NATIONS * HOURS, nations, size)
    units = statistics.mean(len(v.units) for v in views)
    cities = statistics.mean(len(v.cities) for v in views)
    print(
        f"{len(views)} views of a {nations}-nation {size}x{size} game from day 3 on ({units:.0f} "
        f"units and {cities:.0f} cities in a view on average), made in "
        f"{time.perf_counter() - start:.1f} s; {os.cpu_count()} cores; load average "
        f"{os.getloadavg()[0]:.1f} before"
    )
    workers = options["workers"]
    for mode in modes or ["thread", "pool", "pool-game"]:
        r = asyncio.run(run(mode, views, workers))
        print(
            f"{r['mode']:>9}: {r['pictures']} pictures in {r['seconds']:.1f} s "
            f"({1000 * r['seconds'] / r['pictures']:.0f} ms each; {r['workers']} {r['kind']}, "
            f"batches of {r['batch']}), {r['mean_kib']:.0f} KiB each (target <= 60 s)\n"
            f"           event loop late at most {r['worst_ms']:.1f} ms, p99 {r['p99_ms']:.2f} ms, "
            f"{r['over_10']} of {r['samples']} wake-ups over 10 ms; not counting waits for a CPU: "
            f"at most {r['worst_held_ms']:.1f} ms (the loop's thread ran {r['worst_held_cpu_ms']:.1f} ms"
            f" of it), {r['held_over_10']} over 10 ms (target <= 10 ms);"
            f" longest GC pause {r['gc_ms']:.1f} ms\n"
            f"           CPU: the bot's process {r['cpu_s']:.1f} s (its event loop's thread "
            f"{r['loop_cpu_s']:.2f} s, the watchdog included), drawing workers "
            f"{r['workers_cpu_s']:.1f} s ({1000 * r['workers_cpu_s'] / r['pictures']:.0f} ms a "
            f"picture; startup not counted)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
