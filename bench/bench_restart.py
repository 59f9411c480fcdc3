"""A restart while players play (issue 30): does anybody notice a deploy?

Setup (untimed, in another process): N running 8-nation games on the default map, as
`bench_hosting` builds them (copies of a game played to day 3, at every hour of the day, 2 AI
seats and 6 people each, clocked at real time: a tick every 900 s). A quarter of them then play
a whole game day (96 ticks, their AI seats deciding every game hour through the `AiRunner`)
with no snapshot taken, so a reload replays a day of log for each of them (ticks and commands).
Then every AI seat decides once (the bot was running before it stopped), so their memories
are stored as the bot stores them.

Then the process "was down" `--down` seconds (120 by default): every game's clock is moved
back by that much, so the games whose next tick fell in the gap are due on restart.

Timed: the restart, in this process, as the bot starts (`bot/client.py`): a new `GameService`
on the store (SQLite `synchronous=FULL`), the real `Ticker` (every 5 s), `Notifier` (every
2 s, rendering pictures, DMs only recorded) and `AiRunner`, and from the first moment players
of random games giving commands through the bot's desk (`/move`, `/build`, `/designate`,
6:2:1; `--rate` a second in all, each a person of a random game). A command's time includes
loading its game when it is not in memory yet (the player's wait). Recovery is over once every
running game is in memory, none is behind its clock, and the AI has had a pass over every
game since. Then `--after` seconds of steady play for comparison.

Figures: the time until every game is loaded, caught up and the AI's pass done; the event
loop's longest hold (how late a 5 ms sleep woke) and the holds over 50 and 200 ms, during
recovery and after; the first command's latency; commands during recovery (p50, p99, max,
over 300 ms) and after. Targets (issue 30): the loop never held over 50 ms, every command
answered within 300 ms while games load, all caught up within 30 s at 1,000 games.

`--built DIR --build-only` builds the games into DIR (untimed; it may run while the machine is
busy); `--built DIR` then restarts copies of them, their clocks moved so they were down
`--down` seconds, so the timed part alone needs the quiet machine."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import platform
import random
import shutil
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_bot import RecordingSender, pct  # noqa: E402
from bench.bench_hosting import AI_SEATS, NATIONS, REAL_TIME, SEED, template_worlds  # noqa: E402
from bench.bench_load import Player, describe  # noqa: E402
from bench.stores import new_store  # noqa: E402

DAY_TICKS = 96
NO_SNAPSHOT = 10**9


@dataclass
class Holds:
    """Every time the event loop was held: how late a 5 ms sleep woke up, in ms."""

    holds: list[float] = field(default_factory=list)
    _task: asyncio.Task | None = None

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            self.holds.append((time.perf_counter() - start - 0.005) * 1000)

    def start(self) -> Holds:
        self._task = asyncio.create_task(self._run())
        return self

    def take(self) -> list[float]:
        out, self.holds = self.holds, []
        return out

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class Why:
    """Where the event loop's thread is while the loop is held (`--why`): a watchdog thread
    looks every 5 ms; once the loop has not turned for 40 ms, the loop thread's stack is noted
    (its innermost project frames), once per hold, with where the other threads are then."""

    def __init__(self) -> None:
        import threading
        from collections import Counter

        self.beat = time.perf_counter()
        self.seen: Counter[str] = Counter()
        self._stop = threading.Event()
        self._main = threading.main_thread().ident
        self._thread = threading.Thread(target=self._watch, daemon=True)

    async def _beat(self) -> None:
        while True:
            self.beat = time.perf_counter()
            await asyncio.sleep(0.002)

    def start(self) -> Why:
        self._task = asyncio.create_task(self._beat())
        self._thread.start()
        return self

    def _watch(self) -> None:
        import threading
        import traceback

        noted = 0.0
        while not self._stop.wait(0.005):
            if time.perf_counter() - self.beat > 0.04 and noted != self.beat:
                noted = self.beat
                frame = sys._current_frames().get(self._main or 0)
                if frame is None:
                    continue
                self.seen["loop: " + self._where(traceback.extract_stack(frame))] += 1
                # a loop thread caught at a plain line was waiting for the interpreter: the
                # other threads say who may have held it (each seen as it lets go)
                names = {t.ident: t.name for t in threading.enumerate()}
                for ident, other in sys._current_frames().items():
                    if ident not in (self._main, threading.get_ident()):
                        where = self._where(traceback.extract_stack(other))
                        if where:
                            self.seen[f"  {names.get(ident, ident)}: {where}"] += 1

    @staticmethod
    def _where(frames: Any) -> str:
        stack = [
            f"{os.path.relpath(f.filename)}:{f.lineno} {f.name}"
            for f in frames
            if "site-packages" not in f.filename and "/lib/python" not in f.filename
        ]
        return " <- ".join(reversed(stack[-4:]))

    async def stop(self) -> None:
        self._stop.set()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class GcWatch:
    """Each collection of the cyclic garbage collector: its generation and how long it held
    the interpreter (`gc.callbacks`)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._began = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append((info["generation"], (time.perf_counter() - self._began) * 1000))

    def start(self) -> GcWatch:
        gc.callbacks.append(self)
        return self

    def stop(self) -> None:
        gc.callbacks.remove(self)

    def line(self) -> str:
        full = [ms for g, ms in self.pauses if g == 2]
        young = [ms for g, ms in self.pauses if g < 2]
        return (
            f"{len(full)} full collections (longest {max(full, default=0):.0f} ms), "
            f"{len(young)} young ones (longest {max(young, default=0):.1f} ms)"
        )


def build_in_process(url: str, n: int, logged: int, hours_end: bool = False) -> float:
    logging.basicConfig(level=logging.WARNING)
    return asyncio.run(build(url, n, logged, hours_end))


async def build(url: str, n: int, logged: int, hours_end: bool = False) -> float:
    """N games; the first `logged` play a game day with their AI seats and no snapshot.
    `hours_end`: every game at the last tick of a game hour (the busy hour's games)."""
    from engine.host.runner import AiRunner
    from engine.host.service import GameService

    began = time.perf_counter()
    worlds = template_worlds()
    if hours_end:
        worlds = [w for w in worlds if (w.tick + 1) % w.ticks_per_hour == 0]
    ai = {f"n{i}": "normal" for i in range(AI_SEATS)}
    rng = random.Random(SEED)
    now = time.time()
    moment = [now]  # the service's clock: the logged day is played hour by hour
    service = await GameService.open(
        url,
        synchronous="NORMAL",
        clock=lambda: moment[0],
        snapshot_every=NO_SNAPSHOT,
        command_snapshot_every=NO_SNAPSHOT,
        snapshot_bytes=NO_SNAPSHOT,
    )
    try:
        day = REAL_TIME / 4 * DAY_TICKS
        for g in range(n):
            world = worlds[g % len(worlds)]
            for i in range(AI_SEATS, NATIONS):
                world.nations[f"n{i}"].player = str(1_000_000 + g * NATIONS + i)
            offset = rng.uniform(0, REAL_TIME / 4)
            game = await service.create_game(
                name=f"Restart {g}",
                world=world,
                speed=REAL_TIME,
                # the logged games started a game day earlier: they play it below
                now=now - offset - (day if g < logged else 0),
                guild_id=str(500 + g % 50),
                channel_id=str(10_000 + g),
            )
            await service.update_settings(game, ai=ai)
            if g + 1 == logged:  # the logged games' day, hour by hour, their AI seats deciding
                runner = AiRunner(service)
                for hour in range(1, 25):
                    at = moment[0] = now - day + hour * REAL_TIME
                    for row in await service.games(status=["running"]):
                        await service.catch_up(row.id, at)
                    await runner.run_once()
                    print(f"  (logged day: hour {hour} of 24)", flush=True)
        # every seat decided in its game's hour before the process stopped (its memory
        # stored), as in a bot that was running
        moment[0] = now
        await AiRunner(service).run_once()
    finally:
        await service.close()
    return time.perf_counter() - began


def down(url: str, seconds: float) -> None:
    """Every game's clock as if the process stopped `seconds` ago and just came back (the
    SQLite file changed directly: the bench's setup, not a service's)."""
    import json
    import sqlite3

    path = url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        for game_id, clock in db.execute("SELECT id, clock FROM games WHERE status = 'running'"):
            stored = json.loads(clock)
            if stored.get("anchor_real") is not None:
                stored["anchor_real"] -= seconds
                db.execute("UPDATE games SET clock = ? WHERE id = ?", (json.dumps(stored), game_id))


class TimedPlayer(Player):
    """A bench_load player whose command's time includes loading its game (what the player
    waits for after a restart); each command's start time is kept."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.timed: list[tuple[float, float]] = []  # (started, ms)

    async def play(self, desk, stop: asyncio.Event) -> None:
        from bot.context import UserError

        turn = self.rng.randrange(len(self.seats))
        kinds = ["move"] * 6 + ["build"] * 2 + ["designate"]
        while not stop.is_set():
            game, nation, caller = self.seats[turn % len(self.seats)]
            turn += 1
            kind = self.rng.choice(kinds)
            start = time.perf_counter()
            try:
                action = await self.order(desk, game, nation, caller, kind)
                if action is not None:
                    await action
                    self.ok[kind] += 1
            except UserError:
                self.refused[kind] += 1
            except Exception as exc:  # noqa: BLE001 - "Something went wrong on our side"
                self.failed[kind] += 1
                self.failures[describe(exc)] += 1
            self.timed.append((start, (time.perf_counter() - start) * 1000))
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))


class Hosting:
    """The bot's background work on a store, as `bot/client.py` starts it (ticker, notifier,
    AI runner, heap keeper), players giving commands through the desk from the first moment,
    and the loop's holds and the collector's pauses watched."""

    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.ai_passes = 0
        self.tasks: list[asyncio.Task] = []
        self.players: list[TimedPlayer] = []

    async def start(self, url: str) -> Hosting:
        from bot.context import Caller
        from bot.desk import Desk
        from bot.dm.notifier import Notifier
        from bot.ticker import Ticker
        from engine.host.runner import AiRunner
        from engine.host.service import GameService

        try:  # (not in commits before issue 30's: the bench runs on them too, for comparison)
            from engine.loops import BACKGROUND
        except ImportError:
            BACKGROUND = None  # type: ignore[assignment]

        opts = self.opts
        gc.collect()
        self.service = service = await GameService.open(url)  # as the bot opens it
        self.keeper = None
        if opts.freeze:
            from engine.host.heap import HeapKeeper

            self.keeper = HeapKeeper(service.games_in_memory)
            # as the bot, before it connects to Discord (no player can ask anything yet):
            # the games it will run counted before they load
            self.keeper.begin(len(await service.games(status=["running"])))
        try:  # the bot's start-up before it connects: its games' modules (not before issue 30)
            from bot.client import prepare
        except ImportError:
            prepare = None  # type: ignore[assignment]
        if prepare is not None:
            assert not prepare()
        self.modules = set(sys.modules)  # (what the run imports later is printed)
        self.watch = GcWatch().start()
        self.holds = Holds().start()
        self.why = Why().start() if opts.why else None
        self.began = time.perf_counter()
        notifier = Notifier(service, RecordingSender())
        service.subscribe(lambda game_id, events: notifier.wake())
        ticker = Ticker(service)
        self.runner = runner = AiRunner(service)

        async def ai_forever() -> None:
            if BACKGROUND is not None:
                BACKGROUND.set(True)  # as `every` marks the bot's background loops
            while True:
                await runner.run_once()
                self.ai_passes += 1
                await asyncio.sleep(opts.tick_seconds)

        self.tasks = [
            asyncio.create_task(ticker.run_forever(opts.tick_seconds), name="ticker"),
            asyncio.create_task(notifier.run_forever(opts.notify_seconds), name="notifier"),
            asyncio.create_task(ai_forever(), name="ai"),
        ]
        if self.keeper is not None:
            self.tasks.append(asyncio.create_task(self.keeper.run_forever(), name="heap"))
        # the people: each of `players` a person of a random game at a time, `rate` commands
        # a second in all; their games are picked from the rows (not loaded: that is the wait)
        self.rows = rows = await service.games(status=["running"])
        rng = random.Random(SEED)
        count = max(1, min(50, round(opts.rate * 0.5)))
        for i in range(count):
            player = TimedPlayer(i, [], count / opts.rate)
            for _ in range(20):
                row = rng.choice(rows)
                human = rng.randrange(AI_SEATS, NATIONS)
                user = str(1_000_000 + (int(row.name.split()[-1])) * NATIONS + human)
                caller = Caller(
                    user, f"person{user}", guild_id=row.guild_id, channel_id=row.channel_id
                )
                player.seats.append((row.id, f"n{human}", caller))
            self.players.append(player)
        self.stop_playing = asyncio.Event()
        desk = Desk(service)
        self.tasks += [
            asyncio.create_task(p.play(desk, self.stop_playing), name="person")
            for p in self.players
        ]
        return self

    async def stop(self) -> None:
        from bot.background import stop_tasks

        self.stop_playing.set()
        await stop_tasks(self.tasks)
        await self.holds.stop()
        if self.why is not None:
            await self.why.stop()
        await self.service.close()
        self.watch.stop()

    def commands(self, start: float, end: float) -> list[float]:
        """The players' commands' times (ms) of those begun between two moments."""
        return [ms for p in self.players for s, ms in p.timed if start <= s < end]

    def first_command(self) -> float | None:
        times = sorted((s, ms) for p in self.players for s, ms in p.timed)
        return times[0][1] if times else None

    def outcome(self) -> str:
        failed = sum(sum(p.failed.values()) for p in self.players)
        ok = sum(sum(p.ok.values()) for p in self.players)
        refused = sum(sum(p.refused.values()) for p in self.players)
        lines = [f"  ({ok} accepted, {refused} refused by the rules, {failed} failed)"]
        for p in self.players:
            lines += [f"    failure: {what} x{k}" for what, k in p.failures.items()]
        late = sorted(m for m in set(sys.modules) - self.modules if not m.startswith("_"))
        if late:
            lines.append(f"  modules first imported while playing: {', '.join(late[:30])}")
        if self.why is not None:
            lines.append("  where the loop's thread was in holds over 40 ms (project frames):")
            lines += [f"    {k:4d}  {where}" for where, k in self.why.seen.most_common(15)]
        return "\n".join(lines)

    def collector_at_end(self) -> str:
        """What the collector would still find: a full collection as it runs now (frozen or
        not), then everything unfrozen: the garbage the freezes kept from it, and its cost."""
        began = time.perf_counter()
        found = gc.collect()
        full_ms = (time.perf_counter() - began) * 1000
        frozen = gc.get_freeze_count()
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what it finds is kept in gc.garbage, to be named
        began = time.perf_counter()
        leaked = gc.collect()
        unfrozen_ms = (time.perf_counter() - began) * 1000
        gc.set_debug(0)
        kinds = Counter(type(o).__qualname__ for o in gc.garbage)
        gc.garbage.clear()
        freezes = self.keeper.freezes if self.keeper else 0
        return (
            f"  a full collection at the end: {full_ms:.0f} ms ({found} objects found); "
            f"{frozen} objects frozen ({freezes} freezes); unfrozen, a full collection takes "
            f"{unfrozen_ms:.0f} ms and finds {leaked} objects the freezes kept"
            + (f" ({', '.join(f'{k} {n}' for k, n in kinds.most_common(8))})" if kinds else "")
        )


def times_line(name: str, times: list[float]) -> str:
    if not times:
        return f"{name}: none"
    slow = sum(1 for t in times if t > 300)
    return (
        f"{name}: {len(times)}, p50 {pct(times, 0.5):.0f} ms, p99 {pct(times, 0.99):.0f} ms, "
        f"max {max(times):.0f} ms, {slow} over 300 ms"
    )


def holds_line(name: str, lags: list[float]) -> str:
    return (
        f"{name}: longest {max(lags, default=0):.0f} ms, "
        f"{sum(1 for x in lags if x > 50)} over 50 ms, {sum(1 for x in lags if x > 200)} over "
        f"200 ms"
    )


async def restart(url: str, n: int, opts: argparse.Namespace) -> dict[str, float]:
    host = await Hosting(opts).start(url)
    service, began = host.service, host.began
    ids = [row.id for row in host.rows]
    loaded_at = caught_at = ai_at = None
    ai_from = None
    try:
        while True:
            await asyncio.sleep(0.25)
            now = time.time()
            elapsed = time.perf_counter() - began
            if loaded_at is None and all(service.seq_in_memory(g) is not None for g in ids):
                loaded_at = elapsed
            if loaded_at is not None and caught_at is None:
                nexts = [service.next_tick_at(g) for g in ids]
                if all(at is not None and at > now for at in nexts):
                    caught_at = elapsed
                    ai_from = host.ai_passes
            if caught_at is not None and ai_from is not None and host.ai_passes >= ai_from + 1:
                ai_at = elapsed
                break
            if elapsed > opts.limit:
                print(f"  (recovery not over after {opts.limit:.0f} s: stopped)")
                break
        recovered = time.perf_counter()
        during = host.holds.take()
        gc_during = host.watch.line()
        host.watch.pauses.clear()
        await asyncio.sleep(opts.after)
        after = host.holds.take()
        gc_after = host.watch.line()
    finally:
        await host.stop()
    rec = host.commands(0, recovered)
    aft = host.commands(recovered, float("inf"))
    first = host.first_command()
    print(
        f"N = {n}: every game loaded after {loaded_at or float('nan'):.1f} s, caught up after "
        f"{caught_at or float('nan'):.1f} s, the AI's pass over all done after "
        f"{ai_at or float('nan'):.1f} s"
    )
    print("  event loop held, " + holds_line("during recovery", during))
    print("  event loop held, " + holds_line(f"the {opts.after:.0f} s after", after))
    print(f"  garbage collector during recovery: {gc_during}")
    print(f"  garbage collector the {opts.after:.0f} s after: {gc_after}")
    print(host.collector_at_end())
    print(f"  first command: {first:.0f} ms" if first is not None else "  no command")
    print("  commands " + times_line("during recovery", rec))
    print("  commands " + times_line(f"the {opts.after:.0f} s after", aft))
    print(host.outcome())
    return {
        "loaded": loaded_at or -1,
        "caught": caught_at or -1,
        "ai": ai_at or -1,
        "hold": max(during, default=0),
        "p99": pct(rec, 0.99) if rec else -1,
    }


async def run(opts: argparse.Namespace) -> int:
    print(
        f"{datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} ({os.cpu_count()} CPUs), "
        f"Python {platform.python_version()}: restart of real-time 8-nation games, "
        f"{opts.down:.0f} s down, a quarter with a game day of log, {opts.rate:g} commands a "
        f"second from players"
    )
    spawn = multiprocessing.get_context("spawn")
    for n in opts.games:
        async with contextlib.AsyncExitStack() as stack:
            url = await stack.enter_async_context(new_store(opts.backend, "restart"))
            kept = os.path.join(opts.built, f"restart-{n}.db") if opts.built else None
            if kept is not None and os.path.exists(kept):
                # games built earlier (untimed): behind their clocks by the time since then,
                # so the clocks are moved by what makes the downtime `--down` again
                shutil.copyfile(kept, url.removeprefix("sqlite:///"))
                behind = time.time() - os.path.getmtime(kept)
                print(f"(the {n} games built {behind:.0f} s ago, {kept})")
                down(url, opts.down - behind)
            else:
                with ProcessPoolExecutor(1, mp_context=spawn) as pool:
                    took = await asyncio.get_running_loop().run_in_executor(
                        pool, build_in_process, url, n, n // 4
                    )
                print(f"(built {n} games, {n // 4} with a day of log, in {took:.0f} s, untimed)")
                if kept is not None:
                    os.makedirs(opts.built, exist_ok=True)
                    shutil.copyfile(url.removeprefix("sqlite:///"), kept)
                    if opts.build_only:
                        continue
                down(url, opts.down)
            await restart(url, n, opts)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--down", type=float, default=120.0)
    parser.add_argument("--rate", type=float, default=10.0, help="commands a second in all")
    parser.add_argument("--after", type=float, default=20.0)
    parser.add_argument("--limit", type=float, default=300.0)
    parser.add_argument("--tick-seconds", type=float, default=5.0)
    parser.add_argument("--notify-seconds", type=float, default=2.0)
    parser.add_argument(
        "--no-freeze", dest="freeze", action="store_false", help="no HeapKeeper (as before)"
    )
    parser.add_argument("--why", action="store_true", help="where the loop is held")
    parser.add_argument(
        "--built",
        default=None,
        help="a folder keeping the built games (SQLite): built there once, reused after",
    )
    parser.add_argument(
        "--build-only", action="store_true", help="with --built: build the games, time nothing"
    )
    parser.add_argument("--backend", default="sqlite", choices=["sqlite"])
    logging.basicConfig(level=logging.WARNING)
    sys.exit(asyncio.run(run(parser.parse_args())))


if __name__ == "__main__":
    main()
