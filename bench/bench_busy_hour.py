"""The busy hour (issue 30): every game's hour begins at once; do the players notice?

Setup (untimed, in another process): N running 8-nation games as `bench_restart` builds them
(copies of a game played to day 3, 2 AI seats and 6 people each, real time: a tick every
900 s), every one at the last tick of a game hour. Their clocks are then set so that their next
tick, the first of a new game hour, comes due within the same `--spread` seconds (10 by
default), `--lead` seconds after the bot starts: at that moment every game ticks, and every
AI seat (2,000 at N = 1,000) has a new hour to decide in.

Timed: the bot's background work as it runs in production (`bench_restart.Hosting`: ticker,
notifier, AI runner, heap keeper) with players giving `--rate` commands a second through the
desk from the start. The quiet stretch is from the end of the start (every game loaded, the AI's
first pass done) to the hour; the busy stretch is `--busy` seconds from the hour. For each:
the players' commands (p50, p99, max), the event loop's holds (over 50 and 200 ms) and the
garbage collector's pauses. Targets (issue 30): player p99 in the busy stretch within 2x of
the quiet one, no hold over 50 ms."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import platform
import random
import sqlite3
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_bot import pct  # noqa: E402
from bench.bench_hosting import REAL_TIME, SEED  # noqa: E402
from bench.bench_restart import (  # noqa: E402
    Hosting,
    build_in_process,
    holds_line,
    times_line,
)
from bench.stores import new_store  # noqa: E402

TICK = REAL_TIME / 4


def align(url: str, at: float, spread: float) -> None:
    """Each game's next tick (the first of a new game hour) due between `at` and
    `at + spread` (real time)."""
    rng = random.Random(SEED)
    path = url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        ticks = dict(db.execute("SELECT game_id, MAX(tick) FROM snapshots GROUP BY game_id"))
        ticks.update(
            (g, max(t, ticks.get(g, 0)))
            for g, t in db.execute("SELECT game_id, MAX(tick) FROM log GROUP BY game_id")
        )
        for game_id, clock in db.execute("SELECT id, clock FROM games WHERE status = 'running'"):
            stored = json.loads(clock)
            stored["anchor_tick"] = ticks[game_id]
            stored["anchor_real"] = at + rng.uniform(0, spread) - TICK
            db.execute("UPDATE games SET clock = ? WHERE id = ?", (json.dumps(stored), game_id))


async def busy(url: str, n: int, opts: argparse.Namespace) -> None:
    hour = time.time() + opts.lead
    align(url, hour, opts.spread)
    host = await Hosting(opts).start(url)
    service, ids = host.service, [row.id for row in host.rows]
    try:
        while not (all(service.seq_in_memory(g) is not None for g in ids) and host.ai_passes >= 1):
            await asyncio.sleep(0.25)
        started = time.perf_counter()
        wait = hour - time.time()
        if wait < 10:
            print(f"  the start took {started - host.began:.0f} s: the quiet stretch is too short")
        host.holds.take()
        host.watch.pauses.clear()
        await asyncio.sleep(max(0.0, wait))
        top = time.perf_counter()
        quiet = host.holds.take()
        gc_quiet = host.watch.line()
        host.watch.pauses.clear()
        passes = host.ai_passes
        ai_done = None
        while time.perf_counter() - top < opts.busy:
            await asyncio.sleep(0.25)
            if ai_done is None and host.ai_passes >= passes + 2:  # a whole pass after the hour
                ai_done = time.perf_counter() - top
        end = time.perf_counter()
        busy_holds = host.holds.take()
        gc_busy = host.watch.line()
    finally:
        await host.stop()
    q = host.commands(started, top)
    b = host.commands(top, end)
    print(
        f"N = {n}: started in {started - host.began:.1f} s; quiet stretch {top - started:.0f} s, "
        f"busy stretch {end - top:.0f} s from the hour (the AI's pass over every seat's new "
        f"hour done {ai_done if ai_done is not None else float('nan'):.1f} s after it)"
    )
    print("  event loop held, " + holds_line("quiet", quiet))
    print("  event loop held, " + holds_line("busy", busy_holds))
    print(f"  garbage collector, quiet: {gc_quiet}")
    print(f"  garbage collector, busy: {gc_busy}")
    print("  commands " + times_line("quiet", q))
    print("  commands " + times_line("busy", b))
    if q and b:
        print(
            f"  busy p99 / quiet p99 = {pct(b, 0.99) / max(pct(q, 0.99), 1e-9):.2f} "
            f"(target: at most 2)"
        )
    print(host.collector_at_end())
    print(host.outcome())


async def run(opts: argparse.Namespace) -> int:
    print(
        f"{datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} ({os.cpu_count()} CPUs), "
        f"Python {platform.python_version()}: the busy hour of real-time 8-nation games (every "
        f"game's hour within {opts.spread:g} s), {opts.rate:g} commands a second from players"
    )
    spawn = multiprocessing.get_context("spawn")
    for n in opts.games:
        async with contextlib.AsyncExitStack() as stack:
            url = await stack.enter_async_context(new_store("sqlite", "busy"))
            with ProcessPoolExecutor(1, mp_context=spawn) as pool:
                took = await asyncio.get_running_loop().run_in_executor(
                    pool, build_in_process, url, n, 0, True
                )
            print(f"(built {n} games in {took:.0f} s, untimed)")
            await busy(url, n, opts)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000])
    parser.add_argument("--lead", type=float, default=120.0, help="seconds to the hour")
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--busy", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=10.0, help="commands a second in all")
    parser.add_argument("--tick-seconds", type=float, default=5.0)
    parser.add_argument("--notify-seconds", type=float, default=2.0)
    parser.add_argument(
        "--no-freeze", dest="freeze", action="store_false", help="no HeapKeeper (as before)"
    )
    parser.add_argument("--why", action="store_true", help="where the loop is held")
    logging.basicConfig(level=logging.WARNING)
    sys.exit(asyncio.run(run(parser.parse_args())))


if __name__ == "__main__":
    main()
