"""One process hosting many idle real-time games: what does it cost to keep them (issue 13)?

Setup (untimed): N running 8-nation games on the default 116x116 map, each with 2 AI seats
(`settings.ai`) and 6 human seats with members (distinct Discord users) who give no orders.
One map is generated and started once and played on (nobody giving orders) to day 3; the
games are copies of it at each tick of day 3 in turn (so they are at every hour of the day,
and their cities finish builds and reach tech levels: about 45 events a game day, most of them
DMs), made through `GameService.create_game(world=...)`, clocked at real time (3600 s a game
hour: a tick every 900 s) with the clock anchored at a different moment of the last 900 s, so
the games' ticks come due evenly spread in time, as on a server whose games were started at
different times. A game day is a real day: at N = 1,000 a game starts a new day (sitreps with
pictures for its 6 players) every 86 s on average.

Then the file is opened as the bot opens it (`synchronous=FULL`) and the background work runs
as in production (`bot/client.py`): the garbage collector's `HeapKeeper` (begun before the
games are loaded), the real `Ticker` every SI_TICK_SECONDS (5 s) and the real
`Notifier` every SI_NOTIFY_SECONDS (2 s), woken by the service's commits, rendering pictures,
with a DM sender that only records. `--ai` adds the `AiRunner` (AI seats decide once a game
hour). A warm-up lets the first passes load every game and look at every nation's sitrep day,
and tell the outbox rows the build left (tens of thousands: the measure is of the steady
state, not of that drain; their count and the time it took are printed).

Timed (`--seconds`, 40 by default): the process's CPU time (`time.process_time()`, every
thread: the event loop, the SQLite thread, the picture threads) over wall time, i.e. its share
of one core, and per game the CPU milliseconds it costs per real hour; the same split by thread
(from /proc on Linux); the store's round trips (jobs handed to the database thread) a second;
ticks advanced, notifier passes, DMs. Target (issue 13): 1,000 games under 5% of a core.

`--backend postgresql` hosts the games on PostgreSQL instead (`bench/stores.py`: an
embedded server started for the run with fsync on, stopped at the end); `--url` names a store
to build them in (it should be empty). The games are built in a separate process (spawned), so
the hosting process's memory holds only what hosting them takes: its RSS is printed before the
store is opened, after every game is loaded (cold: `GameService.live_world` of each game in
turn, snapshot and log, before any loop runs; its time per game is the cold load time) and at
the end, with the growth per game.

Real play rather than idle games: `--ai` runs the AI seats, and `--orders R` has the games'
people give R commands per game per real hour in all (the bench_load players' `/move`,
`/build` and `/designate` through the bot's desk, 6:2:1, spread over random people of random
games), with their latency.

`--tasks` splits the event loop's CPU by task (the people's commands, the ticker, the notifier, the
AI runner; `bench/taskcpu.py`: each step of a task timed with the thread's CPU clock), with
what the loop did outside any task.

`--profile` runs cProfile over the event loop's thread (and the SQLite thread) during the timed
stretch of the largest N and prints where their CPU time went (`time.thread_time`: waiting for
the disk or the GIL is not counted; the profiler itself slows the run down).

`--kind supply-lines` hosts Supply Lines games instead (issue 17), with the same machinery and
figures: N 4-player games on the map "four", each with 2 AI seats and 2 human seats whose
members are distinct users, turns of 1 game hour (a real hour; a turn resolves early once
every player still in has submitted). Templates are played some turns forward (0 to 11) with
the simulator's players (`engine.supplylines.simulate`: the AI for the AI seats, `RandomPlayer`
for the people), so boards have armies, supply questions and conflicts, then moved 0 to 3
ticks into their turn; each game is a copy of one, its clock anchored at a different moment of
the last 900 s, so ticks and turn deadlines come due spread out. `--people` has each human
seat give its turn's orders through the desk as a person would, once a turn at a random moment
of the time left before the deadline: `RandomPlayer`'s orders on the seat's view, each with
`orders_add` (a few seconds apart), then `orders_submit`; a supply question is answered the
same way with `orders_supply`. The turn pictures the notifier's DMs carry are drawn in the
drawing pool's processes: their CPU is printed beside the bot process's, and the turns resolved
during the timed stretch."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import logging
import multiprocessing
import os
import platform
import pstats
import random
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime

from bench.bench_bot import LoopLag, RecordingSender
from bench.bench_load import Player, TimedTicker
from bench.stores import BACKENDS, new_store, proc_stats, rss_bytes, server_cpu
from bench.taskcpu import TaskCpu
from bot.games.supplylines.orders import Orders

NATIONS = 8
AI_SEATS = 2
REAL_TIME = 3600.0  # real seconds per game hour
SEED = 13
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")


@dataclass(frozen=True)
class Options:
    games: tuple[int, ...] = (100, 300, 1000)
    seconds: float = 40.0
    warmup: float = 6.0
    tick_seconds: float = 5.0  # SI_TICK_SECONDS' default
    notify_seconds: float = 2.0  # SI_NOTIFY_SECONDS' default
    ai: bool = False
    profile: bool = False
    lag: bool = False
    tasks: bool = False
    backend: str = "sqlite"
    url: str = ""
    orders: float = 0.0  # people's commands per game per real hour (0: idle people)
    kind: str = "strategic-initiative"
    people: bool = False  # supply-lines: the human seats give their turn's orders


def template_worlds(days: int = 2) -> list:
    """An 8-nation game on the default map, started (2 AI nations, 6 played by people) and
    advanced `days` game days with nobody giving orders; then a copy at each tick of the next
    day."""
    from engine.strategic import lobby
    from engine.strategic.lobby import AI_PLAYER
    from engine.strategic.mapgen import default_size, generate
    from engine.strategic.replay import apply_entry
    from engine.strategic.rules import DEFAULT_RULESET
    from engine.strategic.world import World

    width, height = default_size(NATIONS)
    world = generate(DEFAULT_RULESET, nations=NATIONS, width=width, height=height, seed=SEED)
    for i in range(NATIONS):
        player = AI_PLAYER if i < AI_SEATS else f"user-{i}"
        lobby.join(world, f"n{i}", f"Nation {i}", COLOURS[i], player)
    lobby.start(world)
    per_day = world.rules.ticks_per_day
    apply_entry(world, {"kind": "advance", "ticks": days * per_day})
    copies = []
    for _ in range(per_day):
        copies.append(World.from_dict(world.to_dict()))
        apply_entry(world, {"kind": "advance", "ticks": 1})
    return copies


def build_in_process(url: str, n: int, kind: str = "strategic-initiative") -> float:
    """`build` in a process of its own (its memory is not the hosting process's)."""
    logging.basicConfig(level=logging.WARNING)
    if kind == SUPPLY_LINES:
        return asyncio.run(build_supplylines(url, n))
    return asyncio.run(build(url, n))


async def build(url: str, n: int) -> float:
    """N games in a new store (SQLite: synchronous=NORMAL while building); returns the seconds
    taken."""
    from engine.host.service import GameService

    began = time.perf_counter()
    worlds = template_worlds()
    ai = {f"n{i}": "normal" for i in range(AI_SEATS)}
    rng = random.Random(SEED)
    now = time.time()
    service = await GameService.open(url, synchronous="NORMAL")
    try:
        for g in range(n):
            world = worlds[g % len(worlds)]
            for i in range(AI_SEATS, NATIONS):
                world.nations[f"n{i}"].player = str(1_000_000 + g * NATIONS + i)
            game = await service.create_game(
                name=f"Idle {g}",
                world=world,
                speed=REAL_TIME,
                now=now - rng.uniform(0, REAL_TIME / world.rules.ticks_per_hour),
                guild_id=str(500 + g % 50),
                channel_id=str(10_000 + g),
            )
            await service.update_settings(game, ai=ai)
    finally:
        await service.close()
    return time.perf_counter() - began


# --- Supply Lines (issue 17) ---------------------------------------------------------------------

SUPPLY_LINES = "supply-lines"
SL_MAP = "four"
SL_SEATS = 4  # the map's players: seats 1-2 the AI's, 3-4 people's
SL_TURNS = 12  # templates played 0 to 11 turns forward
SL_COLOURS = ("#c0392b", "#2980b9", "#27ae60", "#8e44ad")
SL_MARGIN = 180.0  # a person is done this many seconds before the deadline at the latest
SL_PAUSE = (1.0, 5.0)  # seconds between a person's commands


def sl_turn(state, pid: str, strategy) -> None:
    """A seat's commands from its view, applied as the kind applies them (refusals skipped)."""
    from engine.errors import CommandError
    from engine.supplylines.simulate import apply_command
    from engine.supplylines.view import view_for

    for command in strategy.commands(view_for(state, pid)):
        with contextlib.suppress(CommandError):
            apply_command(state, pid, command)


def sl_templates() -> list:
    """4-player games on the map "four" (turns of 1 game hour), each played a number of turns
    forward (0 to SL_TURNS - 1) by the simulator's players (the AI at seats 1-2, random valid
    orders at 3-4), only those with every player still in; each then at 0 to 3 ticks into its
    turn (of 4), so the copies' deadlines are spread over the hour."""
    from engine.supplylines import turns
    from engine.supplylines.kind import KIND
    from engine.supplylines.simulate import AiPlayer, RandomPlayer
    from engine.supplylines.state import State

    out: list[State] = []
    seed = 0
    for played in range(SL_TURNS):
        while True:
            seed += 1
            state = KIND.setup({"map": SL_MAP, "turn_hours": 1, "seed": SEED * 100 + seed})
            strategies: dict[str, AiPlayer | RandomPlayer] = {}
            for seat in range(1, SL_SEATS + 1):
                pid = f"p{seat}"
                ai = seat <= AI_SEATS
                strategies[pid] = AiPlayer() if ai else RandomPlayer(seed * 10 + seat)
                name = f"AI {seat}" if ai else f"Person {seat}"
                turns.join(state, pid, name, SL_COLOURS[seat - 1], "ai" if ai else f"u{seat}")
            turns.start(state)

            while not state.ended and state.turn < played:
                turn = state.turn
                for pid in state.active():
                    if state.turn == turn and state.phase == "orders":
                        sl_turn(state, pid, strategies[pid])
                if state.turn == turn and state.phase == "orders":
                    turns.resolve_orders_phase(state)
                if state.turn == turn and state.phase == "supply":
                    for pid in list(state.asked):
                        if state.turn == turn and state.phase == "supply":
                            sl_turn(state, pid, strategies[pid])
                    if state.turn == turn and state.phase == "supply":
                        turns.finish_turn(state)
            if not state.ended and not any(p.out for p in state.players.values()):
                break
        for ticks in range(4):
            copy = KIND.load(KIND.dump(state))
            turns.advance(copy, ticks)
            out.append(copy)
    return out


async def build_supplylines(url: str, n: int) -> float:
    """N Supply Lines games (copies of `sl_templates`) in a new store, each with its own
    people and channel; returns the seconds taken."""
    from engine.host.service import GameService

    began = time.perf_counter()
    worlds = sl_templates()
    ai = {f"p{seat}": "normal" for seat in range(1, AI_SEATS + 1)}
    rng = random.Random(SEED)
    now = time.time()
    service = await GameService.open(url, synchronous="NORMAL")
    try:
        for g in range(n):
            world = worlds[g % len(worlds)]
            for seat in range(AI_SEATS + 1, SL_SEATS + 1):
                world.players[f"p{seat}"].user = str(1_000_000 + g * SL_SEATS + seat)
            game = await service.create_game(
                name=f"Lines {g}",
                kind=SUPPLY_LINES,
                world=world,
                speed=REAL_TIME,
                now=now - rng.uniform(0, REAL_TIME / 4),
                guild_id=str(500 + g % 50),
                channel_id=str(10_000 + g),
            )
            await service.update_settings(game, ai=ai)
    finally:
        await service.close()
    return time.perf_counter() - began


class Person:
    """A person at one human seat of a Supply Lines game, through the desk: once a turn, at a
    random moment of the time left before its deadline, their orders (`RandomPlayer` on their
    view: `orders_add` for each, a few seconds apart, then `orders_submit`); a supply question
    asked of them answered the same way (`orders_supply`). Woken by the game's events (a new
    turn, a question)."""

    def __init__(self, index: int, game: int, nation: str, caller) -> None:
        from engine.supplylines.simulate import RandomPlayer

        self.game, self.nation, self.caller = game, nation, caller
        self.rng = random.Random(SEED * 1000 + index)
        self.player = RandomPlayer(SEED * 1000 + index)
        self.wake = asyncio.Event()
        self.done: tuple[int, str] | None = None  # the (turn, phase) last acted in
        self.at: tuple[tuple[int, str], float] | None = None  # when to act in which
        self.latencies: list[float] = []
        self.ok: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()

    def due(self, service, world) -> tuple[tuple[int, str], float] | None:
        """The (turn, phase) this person has to act in now and the seconds left before its
        deadline (None: nothing to do)."""
        me = world.players.get(self.nation)
        if not world.started or world.ended or me is None or me.out:
            return None
        key = (world.turn, world.phase)
        if key == self.done:
            return None
        if world.phase == "orders" and self.nation in world.submitted:
            return None
        if world.phase == "supply" and (
            self.nation not in world.asked or self.nation in world.answers
        ):
            return None
        left = REAL_TIME
        at = service.next_tick_at(self.game)
        if world.deadline is not None and at is not None and at != float("inf"):
            left = at - time.time() + (world.deadline - world.tick - 1) * REAL_TIME / 4
        return key, left

    async def play(self, desk, stop: asyncio.Event) -> None:
        service = desk.service
        while not stop.is_set():
            self.wake.clear()
            world = await service.live_world(self.game)
            due = self.due(service, world)
            if due is None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), REAL_TIME / 4)
                continue
            key, left = due
            if self.at is None or self.at[0] != key:
                self.at = (key, time.time() + self.rng.uniform(0, max(0.0, left - SL_MARGIN)))
            wait = self.at[1] - time.time()
            if wait > 0:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), wait)
                continue
            await self.act(desk, key)
            self.done = key

    async def act(self, desk, key: tuple[int, str]) -> None:
        from engine.supplylines.kind import ChooseSupply, GiveOrder, SubmitOrders

        view = await desk.service.view(self.game, self.nation)
        for i, command in enumerate(self.player.commands(view)):
            if i:
                await asyncio.sleep(self.rng.uniform(*SL_PAUSE))
            if isinstance(command, GiveOrder):
                await self.timed("order", desk.part(Orders).orders_add(self.caller, command.text))
            elif isinstance(command, SubmitOrders):
                await self.timed("submit", desk.part(Orders).orders_submit(self.caller))
            elif isinstance(command, ChooseSupply):
                if command.units:
                    units = ", ".join(map(str, command.units))
                    await self.timed("supply", desk.part(Orders).orders_supply(self.caller, units))
                else:  # none chosen: the menu in the question's DM
                    chosen = desk.part(Orders).orders_supply_chosen(
                        self.caller, self.game, view.turn, []
                    )
                    await self.timed("supply", chosen)

    async def timed(self, kind: str, action) -> None:
        from bench.bench_load import describe
        from bot.context import UserError

        start = time.perf_counter()
        try:
            await action
        except UserError:
            self.refused[kind] += 1
        except Exception as exc:  # noqa: BLE001 - "Something went wrong on our side"
            self.failed[kind] += 1
            self.failures[describe(exc)] += 1
        else:
            self.ok[kind] += 1
        self.latencies.append((time.perf_counter() - start) * 1000)


async def sl_people(service) -> list[Person]:
    """A person at each human seat of every running game, woken by their game's events."""
    from bot.context import Caller

    persons: list[Person] = []
    by_game: dict[int, list[Person]] = {}
    for row in await service.games(status=["running"]):
        world = await service.live_world(row.id)
        for seat in range(AI_SEATS + 1, SL_SEATS + 1):
            user = world.players[f"p{seat}"].user
            caller = Caller(user, f"person{user}", guild_id=row.guild_id, channel_id=row.channel_id)
            person = Person(len(persons), row.id, f"p{seat}", caller)
            persons.append(person)
            by_game.setdefault(row.id, []).append(person)

    def wake(game_id: int, events) -> None:
        for person in by_game.get(game_id, ()):
            person.wake.set()

    service.subscribe(wake)
    return persons


async def total_turns(service) -> int:
    return sum([(await service.live_world(g.id)).turn for g in await service.games()])


def children_cpu() -> float:
    """CPU seconds used so far by this process's child processes (the drawing pool's workers),
    from /proc (Linux; 0 elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    me = os.getpid()
    return sum(
        (int(fields[11]) + int(fields[12])) / tick
        for _, fields in proc_stats()
        if int(fields[1]) == me
    )


class Passes:
    """Counts the passes of a background loop's `run_once` (to know when the warm-up's first
    passes are done) and keeps the process's CPU seconds during the first one."""

    def __init__(self, loop) -> None:
        self.passes = 0
        self.first_cpu = 0.0
        real = loop.run_once

        async def run_once(**kwargs):
            cpu = time.process_time()
            try:
                return await real(**kwargs)
            finally:
                if not self.passes:
                    self.first_cpu = time.process_time() - cpu
                self.passes += 1

        loop.run_once = run_once


class StoreJobs:
    """Counts the jobs handed to the database thread (the store's round trips)."""

    def __init__(self, db) -> None:
        self.count = 0
        real = db._submit

        def submit(job):
            self.count += 1
            return real(job)

        db._submit = submit


def thread_cpu(groups: dict[str, set[int]]) -> dict[str, float]:
    """CPU seconds used so far by each group of threads (native ids), from /proc (Linux);
    threads in no group count as "other" (picture and to_thread workers). Empty elsewhere."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    out: dict[str, float] = {}
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        name = next((g for g, ids in groups.items() if int(tid) in ids), "other")
        out[name] = out.get(name, 0.0) + seconds
    return out


async def total_ticks(service) -> int:
    return sum([(await service.live_world(g.id)).tick for g in await service.games()])


async def people(service, n: int, rate_per_game_hour: float) -> list[Player]:
    """Players giving the games' people's orders (the bench_load players, each seat a person
    of a random game), `rate_per_game_hour` commands per game per real hour in all."""
    from bot.context import Caller

    rows = await service.games(status=["running"])
    total = rate_per_game_hour * len(rows) / REAL_TIME  # commands a second
    count = max(1, min(50, round(total * 0.05)))  # ~50 ms of latency among 20 s of thought
    think = count / total
    rng = random.Random(SEED)
    players = []
    for i in range(count):
        player = Player(i, [], think)
        seats = []
        for _ in range(20):
            row = rng.choice(rows)
            human = rng.randrange(AI_SEATS, NATIONS)
            user = (await service.live_world(row.id)).nations[f"n{human}"].player
            caller = Caller(user, f"person{user}", guild_id=row.guild_id, channel_id=row.channel_id)
            seats.append((row.id, f"n{human}", caller))
        player.seats = seats
        players.append(player)
    return players


STEADY_UNTOLD = 100  # rows untold at a time in the steady state (real play writes ~14 a second)


async def _expected(n: int) -> int:
    return n


async def untold(service) -> int:
    """Outbox rows not delivered yet (none is held back in the bench: no quiet hours)."""
    rows = await service.store.query("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
    return int(rows[0][0])


async def host(url: str, n: int, opts: Options, profile: bool) -> dict[str, float]:
    from bot.background import stop_tasks
    from bot.desk import Desk
    from bot.dm.notifier import Notifier
    from engine.host.heap import HeapKeeper
    from engine.host.runner import AiRunner
    from engine.host.service import GameService
    from engine.host.sqlite import SqliteStore

    meter = TaskCpu() if opts.tasks else None
    if meter is not None:
        meter.install(asyncio.get_running_loop())
    rss0 = rss_bytes()
    service = await GameService.open(url)  # SQLite: synchronous=FULL, as the bot
    store = service.store
    # the games' bulk out of the garbage collector's full collections, as the bot does
    # (`bot/client.py`, `engine/host/heap.py`): begun before any game is loaded
    keeper = HeapKeeper(service.games_in_memory)
    keeping = asyncio.create_task(keeper.run_forever(expected=lambda: _expected(n)), name="heap")
    sqlite = isinstance(store, SqliteStore)  # a SQLite file: its thread's jobs and CPU are measured
    began = time.perf_counter()
    for row in await service.games(status=["running"]):
        await service.live_world(row.id)
    cold = (time.perf_counter() - began) / n
    rss_loaded = rss_bytes()
    sender = RecordingSender()
    notifier = Notifier(service, sender)
    service.subscribe(lambda game_id, events: notifier.wake())  # as StrategicBot._on_events
    ticker = TimedTicker(service)
    passes = Passes(notifier)
    jobs = StoreJobs(store.db) if isinstance(store, SqliteStore) else None
    lag = LoopLag().start() if opts.lag else None
    tasks = [
        asyncio.create_task(ticker.run_forever(opts.tick_seconds), name="ticker"),
        asyncio.create_task(notifier.run_forever(opts.notify_seconds), name="notifier"),
    ]
    ai = None
    if opts.ai:
        runner = AiRunner(service)
        ai = Passes(runner)
        tasks.append(asyncio.create_task(runner.run_forever(opts.tick_seconds), name="ai"))
    sl = opts.kind == SUPPLY_LINES
    players: list = []
    if sl and opts.people:
        players = await sl_people(service)
    elif not sl and opts.orders:
        players = await people(service, n, opts.orders)
    stop = asyncio.Event()
    desk = Desk(service)
    tasks += [asyncio.create_task(p.play(desk, stop), name="person") for p in players]
    try:
        began = time.perf_counter()
        # every game loaded, every sitrep day looked at, every AI seat's first decision taken
        while not ticker.passes or passes.passes < 2 or (ai is not None and ai.passes < 1):
            await asyncio.sleep(0.1)
        loaded = time.perf_counter() - began
        # the rows the build left in the outbox (games' creation, the days played to copy
        # them) are told before the timed stretch: it measures the steady state, not the drain
        backlog = await untold(service)
        began = time.perf_counter()
        while await untold(service) > STEADY_UNTOLD and time.perf_counter() - began < 600:
            await asyncio.sleep(0.5)
        drained = time.perf_counter() - began
        await asyncio.sleep(opts.warmup)
        rows0 = (await service.store.query("SELECT COUNT(*) FROM outbox"))[0][0]
        groups = {"event loop": {threading.main_thread().native_id or 0}}
        if isinstance(store, SqliteStore):
            groups["sqlite"] = {store.db._thread.native_id or 0}
        if lag is not None:
            lag.reset()
        ticks0 = await total_ticks(service)
        turns0 = await total_turns(service) if sl else 0
        pictures0 = sender.pictures
        jobs0 = jobs.count if jobs is not None else 0
        passes0, dms0, tpasses0 = passes.passes, sender.dms, len(ticker.passes)
        for p in players:
            p.latencies.clear()
            p.ok.clear()
            p.refused.clear()
            p.failed.clear()
        # the threads' own CPU time (not wall time: waiting for the disk or the GIL is not
        # counted), on the event loop and, with SQLite, on the database thread too
        profiler = cProfile.Profile(time.thread_time) if profile else None
        db = store.db if isinstance(store, SqliteStore) else None
        db_profiler = cProfile.Profile(time.thread_time) if profile and db is not None else None
        threads0 = thread_cpu(groups)
        server0 = server_cpu(url)
        drawing0 = children_cpu() if sl else 0.0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        if meter is not None:
            meter.reset()
        if profiler is not None:
            profiler.enable()
        if db_profiler is not None and db is not None:
            enable = db_profiler.enable
            await db.read(lambda _: enable())
        await asyncio.sleep(opts.seconds)
        if db_profiler is not None and db is not None:
            disable = db_profiler.disable
            await db.read(lambda _: disable())
        if profiler is not None:
            profiler.disable()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        by_task = dict(meter.cpu) if meter is not None else {}
        threads = thread_cpu(groups)
        server1 = server_cpu(url)
        drawing = children_cpu() - drawing0 if sl else 0.0
        worst = lag.reset() if lag is not None else None
        ticks = await total_ticks(service) - ticks0
        turns = await total_turns(service) - turns0 if sl else 0
        rss_end = rss_bytes()
        outbox = await service.store.query("SELECT COUNT(*), COUNT(delivered_at) FROM outbox")
    finally:
        stop.set()
        await stop_tasks([*tasks, keeping])
        if lag is not None:
            await lag.stop()
        await service.close()

    share = cpu / wall
    split = ", ".join(
        f"{name} {100 * (threads.get(name, 0.0) - threads0.get(name, 0.0)) / wall:.2f}%"
        for name in ("event loop", "sqlite", "other")
        if sqlite or name != "sqlite"
    )
    trips = (
        f"store round trips {(jobs.count - jobs0) / wall:.1f} a second; "
        if jobs is not None
        else ""
    )
    print(
        f"N = {n}: CPU {100 * share:.2f}% of a core over {wall:.0f} s "
        f"({1000 * share * 3600 / n:.0f} ms of CPU per game per real hour; target for "
        f"N = 1000: < 5%)\n"
        f"  by thread: {split}\n"
        f"  {trips}"
        f"{passes.passes - passes0} notifier passes, {len(ticker.passes) - tpasses0} ticker "
        f"passes, {ticks} ticks advanced ({n * wall * 4 / REAL_TIME:.0f} due on average), "
        f"{sender.dms - dms0} DMs"
        + ("" if worst is None else f"; event loop held at most {worst:.0f} ms")
        + "\n"
        f"  (warm-up: every game loaded and first notifier passes in {loaded:.1f} s; the build's "
        f"{backlog} outbox rows still untold then were told in {drained:.1f} s more; during the "
        f"timed stretch {outbox[0][0] - rows0} rows were written; at the end {outbox[0][0]} rows, "
        f"{outbox[0][1]} delivered)"
    )
    if by_task:
        loop_cpu = threads.get("event loop", 0.0) - threads0.get("event loop", 0.0)
        named = sorted(by_task.items(), key=lambda kv: -kv[1])
        print(
            "  event loop by task: "
            + ", ".join(f"{name} {100 * t / wall:.2f}%" for name, t in named if t >= 0.0005 * wall)
            + f", outside tasks {100 * (loop_cpu - sum(by_task.values())) / wall:.2f}%"
        )
    if sl:
        print(
            f"  Supply Lines: {turns} turns resolved ({60 * turns / wall:.1f} a minute), "
            f"{sender.pictures - pictures0} pictures in the DMs; the drawing pool's processes "
            f"{100 * drawing / wall:.2f}% of a core (with the bot's process "
            f"{100 * (cpu + drawing) / wall:.2f}%)"
        )
    if server0 is not None and server1 is not None:
        both = (cpu + server1 - server0) / wall
        print(
            f"  PostgreSQL server's processes: {100 * (server1 - server0) / wall:.2f}% of a core; "
            f"with the bot's process {100 * both:.2f}% ({1000 * both * 3600 / n:.0f} ms per game "
            f"per real hour)"
        )
    mib = 1024 * 1024
    print(
        f"  memory (RSS): {rss0 / mib:.0f} MiB before opening the store, {rss_loaded / mib:.0f} "
        f"MiB with every game loaded, {rss_end / mib:.0f} MiB at the end: "
        f"{(rss_end - rss0) / n / 1024:.0f} KiB a game ({(rss_end - rss0) * 100 / n / mib:.0f} "
        f"MiB per 100 games above the empty process; goal: 100 games in 300 MB); cold load "
        f"{1000 * cold:.1f} ms a game"
    )
    if players:
        lat = sorted(x for p in players for x in p.latencies)
        ok = sum(sum(p.ok.values()) for p in players)
        refused = sum(sum(p.refused.values()) for p in players)
        failed = sum(sum(p.failed.values()) for p in players)

        def pct(q: float) -> float:
            return lat[min(len(lat) - 1, int(q * len(lat)))] if lat else 0.0

        print(
            f"  people: {len(players)} players, {ok} commands accepted, {refused} refused, "
            f"{failed} failed ({(ok + refused) / wall:.2f} a second); latency p50 "
            f"{pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, max {max(lat, default=0):.0f} ms"
        )
        if sl:
            kinds: Counter[str] = Counter()
            failures: Counter[str] = Counter()
            for p in players:
                kinds.update(p.ok)
                kinds.update(p.refused)
                failures.update(p.failures)
            print(
                "  people's commands by kind: "
                + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
                + "".join(f"\n  failure: {v} x {k}" for k, v in failures.most_common(5))
            )
    if ai is not None and sl:
        seat = ai.first_cpu / (n * AI_SEATS)
        print(
            f"  AI: its first pass gave the orders of all {n * AI_SEATS} AI seats with "
            f"{ai.first_cpu:.1f} s of CPU (the process's, loading and commits included): "
            f"{1000 * seat:.0f} ms a seat-turn"
        )
    elif ai is not None:
        seat = ai.first_cpu / (n * AI_SEATS)
        print(
            f"  AI: its first pass decided for all {n * AI_SEATS} AI seats with "
            f"{ai.first_cpu:.1f} s of CPU (the process's, loading included): {1000 * seat:.0f} ms "
            f"a seat-hour, {100 * seat * AI_SEATS / REAL_TIME * 1000:.2f}% of a core for 1,000 "
            f"games of {AI_SEATS} AI seats"
        )
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        if os.environ.get("SI_BENCH_PROFILE_OUT"):  # the whole profile, for pstats
            stats.dump_stats(os.environ["SI_BENCH_PROFILE_OUT"])
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(30)
        print(f"  cProfile of the event loop's thread (its CPU time), N = {n}:")
        print(out.getvalue())
    if db_profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(db_profiler, stream=out)
        stats.sort_stats("tottime").print_stats(15)
        stats.sort_stats("cumulative").print_stats(25)
        print(f"  cProfile of the SQLite thread (its CPU time), N = {n}:")
        print(out.getvalue())
    return {
        "share": share,
        "per_game_ms_hour": 1000 * share * 3600 / n,
        "rss_per_game": (rss_end - rss0) / n,
        "cold": cold,
    }


async def run(opts: Options) -> int:
    print(
        f"{datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} "
        f"{platform.processor() or ''} ({os.cpu_count()} CPUs), Python "
        f"{platform.python_version()}, {sys.platform}"
    )
    store = opts.url or opts.backend
    if opts.kind == SUPPLY_LINES:
        print(
            f"real-time Supply Lines games on the map {SL_MAP} ({AI_SEATS} AI seats"
            f"{', AI runner on' if opts.ai else ', AI runner off'}; {SL_SEATS - AI_SEATS} people "
            + ("giving their turn's orders through the desk" if opts.people else "idle")
            + f"), turns of 1 game hour (a real hour; early once all have submitted), ticker "
            f"every {opts.tick_seconds:g} s, notifier every {opts.notify_seconds:g} s, store: "
            f"{store}" + (" (synchronous=FULL)" if store.startswith("sqlite") else "")
        )
    else:
        print(
            f"real-time games of {NATIONS} nations ({AI_SEATS} AI seats"
            f"{', AI runner on' if opts.ai else ', AI runner off'}; {NATIONS - AI_SEATS} people "
            + (f"giving {opts.orders:g} commands per game per real hour" if opts.orders else "idle")
            + f"), ticker every {opts.tick_seconds:g} s, notifier every "
            f"{opts.notify_seconds:g} s, store: {opts.url or opts.backend}"
            + (" (synchronous=FULL)" if (opts.url or opts.backend).startswith("sqlite") else "")
        )
    results = {}
    spawn = multiprocessing.get_context("spawn")
    for n in opts.games:
        async with contextlib.AsyncExitStack() as stack:
            url = opts.url or await stack.enter_async_context(new_store(opts.backend, "hosting"))
            with ProcessPoolExecutor(1, mp_context=spawn) as pool:
                took = await asyncio.get_running_loop().run_in_executor(
                    pool, build_in_process, url, n, opts.kind
                )
            print(f"(built {n} games in {took:.1f} s in another process, untimed)")
            results[n] = await host(url, n, opts, opts.profile and n == max(opts.games))
    return 0 if results else 1


def options(argv: list[str]) -> Options:
    default = Options()
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_hosting",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--games", default=",".join(map(str, default.games)), help="e.g. 100,300,1000"
    )
    parser.add_argument("--seconds", type=float, default=default.seconds)
    parser.add_argument("--warmup", type=float, default=default.warmup)
    parser.add_argument("--tick-seconds", type=float, default=default.tick_seconds)
    parser.add_argument("--notify-seconds", type=float, default=default.notify_seconds)
    parser.add_argument("--ai", action="store_true", help="run the AI seats too")
    parser.add_argument("--profile", action="store_true", help="cProfile the largest N")
    parser.add_argument(
        "--lag", action="store_true", help="the longest event-loop hold (a 5 ms probe: costs CPU)"
    )
    parser.add_argument(
        "--tasks", action="store_true", help="the event loop's CPU by task (`bench/taskcpu.py`)"
    )
    parser.add_argument("--backend", choices=BACKENDS, default=default.backend)
    parser.add_argument("--url", default="", help="an empty store to use (one N only)")
    parser.add_argument(
        "--orders", type=float, default=0.0, help="people's commands per game per real hour"
    )
    parser.add_argument(
        "--kind",
        choices=("strategic-initiative", SUPPLY_LINES),
        default=default.kind,
        help="the games' kind (supply-lines: issue 17's 4-player games)",
    )
    parser.add_argument(
        "--people",
        action="store_true",
        help="supply-lines: the human seats give their turn's orders through the desk",
    )
    args = parser.parse_args(argv)
    if args.url and "," in args.games:
        parser.error("--url takes one --games N (the store must start empty)")
    if args.kind == SUPPLY_LINES and args.orders:
        parser.error("--orders is Strategic Initiative's: Supply Lines' people give --people")
    if args.kind != SUPPLY_LINES and args.people:
        parser.error("--people is for --kind supply-lines (Strategic Initiative: --orders R)")
    return Options(
        backend=args.backend,
        url=args.url,
        orders=args.orders,
        games=tuple(int(g) for g in args.games.split(",") if g.strip()),
        seconds=args.seconds,
        warmup=args.warmup,
        tick_seconds=args.tick_seconds,
        notify_seconds=args.notify_seconds,
        ai=args.ai,
        profile=args.profile,
        lag=args.lag,
        tasks=args.tasks,
        kind=args.kind,
        people=args.people,
    )


def main() -> None:
    opts = options(sys.argv[1:])
    logging.basicConfig(level=logging.WARNING)
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(asyncio.run(run(opts)))


if __name__ == "__main__":
    main()
