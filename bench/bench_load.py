"""One process serving many games at once, as a busy server uses it (issue 11).

Setup (untimed): 200 running 4-nation games on 40x40 maps in a temporary SQLite file with the
real durability (`synchronous=FULL`), created through `GameService.create_game` and `join` (the
fourth join starts a game), each hosted in its own channel (20 servers). Then every game is set
to 1 real second per game hour (`set_speed`, so all clocks start together): 4 ticks due every
real second in every game, 800 in all.

Timed (20 s, or the first argument): the real ticker (`bot.ticker.Ticker.run_forever`, every
0.5 s) moves every game on to its clock while 40 players give orders at once through the bot's
Discord-free `Desk`, as their slash commands would: `/move` of one of their units to a
neighbouring square it may stand on, `/build` (a city's build changed to another unit its
designation makes) and `/designate`, 6:2:1. Each player plays one nation in 5 games and takes
them in turn, pausing 0.5 S to 1.5 S between commands (`--think S`, 0.25 by default: four
orders a second from each of 40 players, far busier than any real hour; `--think 0` gives no
pause at all, a saturated stress run); the other seats are held by players who do nothing
(`--seated K`: K of the 4 seats of every game are played, by K different players).

A command is *refused* when the desk raises `UserError` (the engine's `CommandError` and
`GameError` become those: a port inland, a city in the way, ...): the player gets a clear
message and nothing changed. It *failed* when anything else escapes the desk: the player would
read "Something went wrong on our side". Failures must be 0; their exceptions are printed with
counts, as are the errors the ticker logged. Latency runs from the desk call to its reply,
refusals included.

At the end the players go on until the ticker's pass in progress (or the next one) ends. A
game is *behind* when, at the end of that pass, it is more than 1 tick plus the ticks of one
ticker interval (3 ticks) short of its clock (`GameService.due_ticks`): a ticker whose passes
take less than its interval never leaves a game further behind. The same count is sampled
every second during the run. Games behind must be 0.

Then the service is closed and the file opened again: every game must reload as it was in
memory, and the log must hold exactly the commands the players were told were accepted.

`--backend postgresql` runs the same on PostgreSQL (`bench/stores.py`: an embedded server
started for the run, fsync on, stopped at the end; the service's connection pool of 10).

The exit status is 1 when a command failed or the file disagrees with what players were told."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import platform
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from bench.bench_bot import COLOURS, LoopLag, pct
from bench.stores import BACKENDS, new_store
from bot.games.strategic.playing import Playing
from bot.ticker import Ticker

SMALL = 40  # side of the maps
GUILDS = 20  # servers hosting the games
SEED = 11
WEIGHTS = {"move": 6, "build": 2, "designate": 1}
PASS_WAIT = 30.0  # longest wait for the ticker's last pass after the run's time is up


@dataclass(frozen=True)
class Options:
    duration: float = 20.0
    games: int = 200
    players: int = 40
    speed: float = 1.0  # real seconds per game hour
    interval: float = 0.5  # the ticker's interval (SI_TICK_SECONDS)
    think: float = 0.25  # a player's mean pause between commands, seconds (0: none)
    backend: str = "sqlite"
    seated: int = 1  # players giving orders in each game (the other seats do nothing)


class Failures(logging.Handler):
    """Exceptions logged by the ticker and the service (e.g. a game's advance that failed)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.seen: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            self.seen[f"{record.name}: {describe(record.exc_info[1])}"] += 1
        else:
            self.seen[f"{record.name}: {record.getMessage()}"] += 1


def describe(exc: BaseException) -> str:
    return f"{type(exc).__module__}.{type(exc).__qualname__}: {exc}"


class TimedTicker(Ticker):
    """The real ticker, its passes timed; `finish()` waits for the pass in progress (or the
    next one) to end and returns when it began and ended."""

    def __init__(self, service) -> None:
        super().__init__(service)
        self.passes: list[tuple[float, float]] = []  # (began, ended), time.time()
        self._waiting: asyncio.Future | None = None

    async def run_once(self) -> dict[int, int]:
        began = time.time()
        done = await super().run_once()
        ended = time.time()
        self.passes.append((began, ended))
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result((began, ended))
        return done

    async def finish(self) -> tuple[float, float]:
        self._waiting = asyncio.get_running_loop().create_future()
        return await self._waiting


class Lag:
    """Every second: how many games are more than `slack` ticks behind their clock now."""

    def __init__(self, service, games: list[int], slack: int) -> None:
        self.service, self.games, self.slack = service, games, slack
        self.worst_count = 0
        self.worst_ticks = 0
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            now = time.time()
            dues = [await self.service.due_ticks(g, now) for g in self.games]
            self.worst_count = max(self.worst_count, sum(d > self.slack for d in dues))
            self.worst_ticks = max(self.worst_ticks, max(dues))

    def start(self) -> Lag:
        self._task = asyncio.create_task(self._run())
        return self

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class Player:
    def __init__(self, index: int, seats: list[tuple[int, str, str, str]], think: float) -> None:
        from bot.context import Caller

        self.user = str(100_000 + index)
        self.rng = random.Random(SEED * 1000 + index)
        self.think = think
        # (game, nation, caller in the game's channel) for each game the player plays in
        self.seats = [
            (game, nation, Caller(self.user, f"player{index}", guild_id=guild, channel_id=channel))
            for game, nation, guild, channel in seats
        ]
        self.latencies: list[float] = []
        self.ok: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.accepted: Counter[int] = Counter()  # game -> commands acknowledged

    async def play(self, desk, stop: asyncio.Event) -> None:
        from bot.context import UserError

        turn = self.rng.randrange(len(self.seats))
        while not stop.is_set():
            game, nation, caller = self.seats[turn % len(self.seats)]
            turn += 1
            kind = self.rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
            try:
                action = await self.order(desk, game, nation, caller, kind)
            except Exception as exc:  # noqa: BLE001 - reading the game failed
                self.failed["choosing"] += 1
                self.failures[describe(exc)] += 1
                await asyncio.sleep(0.01)
                continue
            if action is None:  # nothing to order of that kind there now
                await asyncio.sleep(0)
                continue
            start = time.perf_counter()
            try:
                await action
            except UserError as exc:
                self.refused[kind] += 1
                self.refusals[_shape(str(exc))] += 1
            except Exception as exc:  # noqa: BLE001 - "Something went wrong on our side"
                self.failed[kind] += 1
                self.failures[describe(exc)] += 1
            else:
                self.ok[kind] += 1
                self.accepted[game] += 1
            self.latencies.append((time.perf_counter() - start) * 1000)
            if self.think:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def order(self, desk, game: int, nation: str, caller, kind: str):
        """The desk call for an order of `kind` in `game`, chosen from the nation's own units
        and cities (None when it has nothing for it)."""
        world = await desk.service.live_world(game)
        rules = world.rules
        rng = self.rng
        if kind == "move":
            units = [u for u in world.units_of(nation) if rules.unit[u.type].mobility > 0]
            rng.shuffle(units)
            for unit in units[:4]:
                ut = rules.unit[unit.type]
                places = []
                for sq in world.grid.neighbours(unit.sq):
                    if ut.moves_on == "land" and not world.is_land(sq):
                        continue
                    if ut.moves_on == "sea" and not world.is_water(sq):
                        continue
                    if any(o.owner != nation for o in world.units_at(sq)):
                        continue
                    places.append(sq)
                if places:
                    x, y = world.grid.xy(rng.choice(places))
                    return desk.part(Playing).move(caller, str(unit.id), f"{x},{y}")
            return None
        cities = world.cities_of(nation)
        if not cities:
            return None
        city = rng.choice(cities)
        x, y = world.grid.xy(city.sq)
        if kind == "build":
            tech = world.nations[nation].tech
            makes = [
                u.name
                for u in rules.units
                if u.built_in == city.designation and u.tech <= tech and u.name != city.build
            ]
            if not makes:
                return None
            return desk.part(Playing).build(caller, f"{x},{y}", rng.choice(makes))
        choices = [c.name for c in rules.cities if c.designatable and c.name != city.designation]
        return desk.part(Playing).designate(caller, f"{x},{y}", rng.choice(choices))


def _shape(message: str) -> str:
    """A refusal's message with its numbers taken out, to count refusals by kind."""
    return "".join("#" if ch.isdigit() else ch for ch in message)[:90]


async def setup(service, opts: Options) -> list[list[tuple[int, str, str, str]]]:
    """The games, started and re-clocked together; each player's seats. The first
    `opts.seated` seats of game g are played by players g % group, group + g % group, ...
    (`group` = players / seated): a player's games are all on one server when `group` is a
    multiple of the servers (and the other way round)."""
    seats: list[list[tuple[int, str, str, str]]] = [[] for _ in range(opts.players)]
    group = opts.players // opts.seated
    for g in range(opts.games):
        guild = str(500 + g % GUILDS)
        channel = str(10_000 + g)
        player = g % group
        game = await service.create_game(
            name=f"Load {g}",
            max_nations=4,
            width=SMALL,
            height=SMALL,
            seed=SEED * 10_000 + g,
            guild_id=guild,
            channel_id=channel,
            created_by=str(100_000 + player),
        )
        for i in range(4):
            seated = i * group + player
            user = str(100_000 + seated) if i < opts.seated else str(900_000 + g * 4 + i)
            nation = await service.join(game, name=f"Nation {i}", colour=COLOURS[i], player=user)
            if i < opts.seated:
                seats[seated].append((game, nation, guild, channel))
    for row in await service.games(status=["running"]):
        await service.set_speed(row.id, opts.speed)
    return seats


def machine() -> str:
    """When and on what: the first line of a benchmark's output."""
    return (
        f"{datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} "
        f"{platform.processor() or ''} ({os.cpu_count()} CPUs), Python "
        f"{platform.python_version()}, {sys.platform}"
    )


async def run(opts: Options) -> int:
    print(machine())
    failures = Failures()
    logging.getLogger().addHandler(failures)
    try:
        async with new_store(opts.backend, "load") as url:
            return await measure(url, opts, failures)
    finally:
        logging.getLogger().removeHandler(failures)


async def measure(path: str, opts: Options, failures: Failures) -> int:
    from engine.host.service import GameService

    service = await GameService.open(path)  # SQLite: synchronous=FULL, the default
    try:
        start = time.perf_counter()
        seats = await setup(service, opts)
        rows = await service.games(status=["running"])
        assert len(rows) == opts.games, f"{len(rows)} games running"
        games = [r.id for r in rows]
        per_second = (await service.live_world(games[0])).rules.ticks_per_hour / opts.speed
        slack = 1 + math.ceil(per_second * opts.interval)
        print(
            f"{opts.games} running games of 4 nations on {SMALL}x{SMALL} maps in {GUILDS} "
            f"servers, {'SQLite synchronous=FULL' if path.startswith('sqlite') else 'PostgreSQL'} "
            f"(created in {time.perf_counter() - start:.1f} s, "
            f"untimed); {opts.speed:g} s a game hour ({per_second:g} ticks a second a game), "
            f"ticker every {opts.interval:g} s; {opts.players} players"
            + (f" ({opts.seated} in each game), " if opts.seated > 1 else ", ")
            + (f"{opts.think:g} s between commands" if opts.think else "no pause between commands")
        )
        before = {g: (await service.live_world(g)).tick for g in games}
        setup_failures = sum(failures.seen.values())
        failures.seen.clear()

        players = [Player(i, seats[i], opts.think) for i in range(opts.players)]
        played = await play(service, players, games, opts, slack)
        ticker, elapsed, at, note = played.ticker, played.elapsed, played.at, played.note
        clock_lag, worst_loop = played.clock_lag, played.worst_loop
        behind, world_ticks, memory = await afterwards(service, games, before, at, slack)

        ok = sum((p.ok for p in players), Counter())
        refused = sum((p.refused for p in players), Counter())
        failed = sum((p.failed for p in players), Counter())
        times = [t for p in players for t in p.latencies]
        total = sum(ok.values()) + sum(refused.values()) + sum(failed.values())
        kinds = ", ".join(f"{k} {ok[k]}/{refused[k]}/{failed[k]}" for k in WEIGHTS)
        if failed["choosing"]:
            kinds += f"; reading the game failed {failed['choosing']} times"
        print(
            f"{opts.players} players for {elapsed:.1f} s: {total} commands, "
            f"{total / elapsed:.0f} a second ({sum(ok.values()) / elapsed:.0f} accepted a "
            f"second)\n  accepted {sum(ok.values())}, refused {sum(refused.values())}, "
            f"FAILED {sum(failed.values())} (target: 0)  [accepted/refused/failed: {kinds}]"
        )
        if times:
            print(
                f"  latency: p50 {pct(times, 0.50):.1f} ms, p99 {pct(times, 0.99):.1f} ms, "
                f"max {max(times):.1f} ms (no project target; Discord: first response within "
                f"3000 ms); event loop held at most {worst_loop:.0f} ms"
            )
        passes = [(end - begin) * 1000 for begin, end in ticker.passes] or [0.0]
        print(
            f"ticker: {world_ticks} ticks advanced in total "
            f"({per_second * opts.games * elapsed:.0f} came due), {len(ticker.passes)} passes "
            f"ended: p50 {pct(passes, 0.5):.0f} ms, max {max(passes):.0f} ms "
            f"(interval {opts.interval * 1000:.0f} ms)"
        )
        print(
            f"games behind their clock (> {slack} ticks) after the ticker's last pass{note}: "
            f"{len(behind)} of {opts.games}, the furthest {max(behind.values(), default=0)} "
            f"ticks (target: 0); sampled every second during the run: at worst "
            f"{clock_lag.worst_count} games, the furthest {clock_lag.worst_ticks} ticks "
            f"({clock_lag.worst_ticks / per_second:.0f} s)"
        )
        listing("failed commands, by exception", sum((p.failures for p in players), Counter()))
        listing("errors logged (ticker, service)", failures.seen)
        if setup_failures:
            print(f"  ({setup_failures} errors were logged during the setup)")
        listing("refusals (a clear message)", sum((p.refusals for p in players), Counter()), 5)
    finally:
        await service.close()
    accepted = sum((p.accepted for p in players), Counter())
    lies = await audit(path, memory, accepted)
    return 1 if sum(failed.values()) or lies else 0


@dataclass
class Played:
    """A timed stretch of play: its length, when the ticker's last pass ended (`time.time()`,
    `note` when it had not), the ticker, the event loop's longest hold and the clock lag."""

    elapsed: float
    at: float
    note: str
    ticker: TimedTicker
    worst_loop: float
    clock_lag: Lag


async def play(
    service, players: list[Player], games: list[int], opts: Options, slack: int
) -> Played:
    """The real ticker and the players for `opts.duration` seconds, then on until the ticker's
    pass in progress (or the next one) ends."""
    from bot.desk import Desk

    desk = Desk(service)
    ticker = TimedTicker(service)
    stop = asyncio.Event()
    loop_lag = LoopLag().start()
    clock_lag = Lag(service, games, slack).start()
    began = time.perf_counter()
    ticking = asyncio.create_task(ticker.run_forever(opts.interval))
    playing = [asyncio.create_task(p.play(desk, stop)) for p in players]
    note = ""
    try:
        await asyncio.sleep(opts.duration)
        try:  # the players go on until the ticker's pass in progress (or the next) ends
            _, at = await asyncio.wait_for(ticker.finish(), PASS_WAIT)
        except TimeoutError:
            at = time.time()
            note = f" (its last pass had not ended {PASS_WAIT:.0f} s after the run: now)"
        stop.set()
        await asyncio.gather(*playing)
        elapsed = time.perf_counter() - began
    finally:
        stop.set()
        ticking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticking
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        await clock_lag.stop()
        worst_loop = loop_lag.reset()
        await loop_lag.stop()
    return Played(elapsed, at, note, ticker, worst_loop, clock_lag)


async def afterwards(
    service, games: list[int], before: dict[int, int], at: float, slack: int
) -> tuple[dict[int, int], int, dict[int, str]]:
    """After play: the games more than `slack` ticks behind their clock at `at` (game -> ticks
    due), the ticks advanced since `before` (game -> tick) in all, and each game's hash."""
    behind: dict[int, int] = {}
    world_ticks = 0
    memory: dict[int, str] = {}
    for g in games:
        due = await service.due_ticks(g, at)
        if due > slack:
            behind[g] = due
        world = await service.live_world(g)
        world_ticks += world.tick - before[g]
        memory[g] = world.hash()
    return behind, world_ticks, memory


def listing(title: str, counts: Counter[str], top: int = 12) -> None:
    if counts:
        print(f"{title}:")
        for text, count in counts.most_common(top):
            print(f"  {count:6d}  {text[:200]}")


async def audit(path: str, memory: dict[int, str], accepted: Counter[int]) -> int:
    """After closing the service: does each game reload from the file as it was in memory,
    and does its log hold exactly the commands the players were told were accepted?"""
    from engine.host.service import GameService

    service = await GameService.open(path)
    lost = phantom = 0
    try:
        differ = 0
        for game, digest in memory.items():
            try:
                differ += (await service.live_world(game)).hash() != digest
            except Exception:  # noqa: BLE001 - a game that cannot be loaded differs too
                differ += 1
        try:
            logged: Counter[int] = Counter()
            for game, entry in await service.store.query("SELECT game_id, entry FROM log"):
                if isinstance(entry, str):
                    entry = json.loads(entry)
                if entry.get("kind") == "command":
                    logged[game] += 1
        finally:
            await service.close()
        for game in memory:
            lost += max(0, accepted[game] - logged[game])
            phantom += max(0, logged[game] - accepted[game])
        log_check = (
            f"{lost} accepted commands missing from the log, {phantom} commands in the log "
            "that their player was told failed (target: 0, 0)"
        )
    except Exception as exc:  # noqa: BLE001 - either backend's errors: say so and go on
        log_check = f"the log could not be read to compare ({describe(exc)})"
    print(
        f"after a restart: {differ} of {len(memory)} games differ from what was in memory "
        f"(target: 0); {log_check}"
    )
    return differ + lost + phantom


def arguments(prog: str, description: str | None) -> argparse.ArgumentParser:
    """The command line of the load: bench_load's, and of the benchmarks built on it."""
    default = Options()
    parser = argparse.ArgumentParser(
        prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("duration", nargs="?", type=float, default=default.duration)
    parser.add_argument("--games", type=int, default=default.games)
    parser.add_argument("--players", type=int, default=default.players)
    parser.add_argument("--speed", type=float, default=default.speed, help="s per game hour")
    parser.add_argument("--interval", type=float, default=default.interval)
    parser.add_argument("--think", type=float, default=default.think)
    parser.add_argument("--backend", choices=BACKENDS, default=default.backend)
    parser.add_argument(
        "--seated", type=int, choices=range(1, 5), default=default.seated, help="players a game"
    )
    return parser


def checked(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Options:
    """The load's options from parsed `args` (only the fields of `Options` are taken)."""
    if args.players % args.seated:
        parser.error("--players must be a multiple of --seated")
    if args.players // args.seated > args.games:
        parser.error("every player needs a game: --players <= --games × --seated")
    fields = Options.__dataclass_fields__
    return Options(**{key: value for key, value in vars(args).items() if key in fields})


def options(argv: list[str]) -> Options:
    parser = arguments("python -m bench.bench_load", __doc__)
    return checked(parser, parser.parse_args(argv))


def main() -> None:
    opts = options(sys.argv[1:])
    logging.getLogger().setLevel(logging.ERROR)  # logged errors are counted, not printed
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(asyncio.run(run(opts)))


if __name__ == "__main__":
    main()
