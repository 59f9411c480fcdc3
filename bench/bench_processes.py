"""Commands per second with 2 bot processes against 1, on one store (issue 16).

Setup (untimed, in this process, on a new store of `--backend`): bench_load's games, 200
running 4-nation games on 40x40 maps in 20 servers, and its players. Here all 4 nations of every
game are played by people by default (`--seated 4`, `--players 80`): each player plays one
nation in each of the 10 games of one server.

Then the games are served by OS processes (spawned), each a `GameService` as the bot opens one
with sharding: its own `owner` name (every game it serves is taken with a lease, and every write
is fenced with the lease's token) and `serves=` the games of its servers, split like shards by
the server's id modulo the number of processes (a stand-in for Discord's `(guild_id >> 22) %
shard_count`: the fake server ids are small). A player's games are all on one server, so all
in one process, as Discord routes a server's commands to its shard. Each process runs the real
ticker on its own games (`games(mine=True)`), renews its leases every third of the lease, and
has its players give bench_load's commands through the bot's desk: `/move`, `/build`,
`/designate`, 6:2:1, each acknowledged before the player's next, pausing `--think` seconds
between commands (0 by default here: none, a saturated run that measures what the processes
can do). The games tick at `--speed` (1 s a game hour by default: 800 ticks a second in all
beside the commands).

Each process loads its games (taking their leases), waits for the others, re-clocks its games
(so every clock starts together) and plays for `duration` seconds, then on until its ticker's
pass in progress ends (bench_load's `play`). Run with `--processes 1,2` (the default): one
process serving every game, then two processes each serving half of them, each on a new store
built the same way.

Reported, per process and in total: commands a second (accepted and refused; a refusal is a
clear message to the player, the engine said no), latency from the desk call to its reply
(p50, p99, max), failures (anything but a refusal escaping the desk: must be 0), the process's
CPU share over the timed stretch, ticks advanced and games behind their clock, and whether it
still held every game's first lease at the end (none taken over). PostgreSQL:
also the server's CPU (all its processes, from /proc) from the start to the last result.

Afterwards the processes release their leases and exit, and this process opens the store
again: every game must reload as it was in the memory of the process that served it, and each
command acknowledged to a player must be in the log exactly once, at the sequence number its
commit gave it, with the nation and command given (a subclass of the service records every
`submit` that returned); no command may be in the log that no player was told was accepted.

The exit status is 1 when a command failed, an error was logged, a lease was lost, or the
store disagrees with what players were told.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import multiprocessing
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import replace
from typing import Any

from bench.bench_bot import pct
from bench.bench_load import (
    Failures,
    Options,
    Player,
    afterwards,
    arguments,
    audit,
    checked,
    listing,
    machine,
    play,
    setup,
)
from bench.stores import new_store, server_cpu
from engine.host.service import REAL_TIME, CommandResult, GameService

log = logging.getLogger(__name__)

Acknowledged = tuple[int, int, str, dict[str, Any]]  # game, seq, nation, command
START_WAIT = 300.0  # longest wait for the processes to load their games, seconds


class AcknowledgingService(GameService):
    """The service, recording every command whose commit was acknowledged (`submit` returned):
    (game, seq, nation, command as given)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.acknowledged: list[Acknowledged] = []

    async def submit(
        self, game_id: int, nation: str, command: Any, *, moment: tuple[int, str] | None = None
    ) -> CommandResult:
        result = await super().submit(game_id, nation, command, moment=moment)
        self.acknowledged.append((game_id, result.seq, nation, command.model_dump(mode="json")))
        return result


def serve(url: str, index: int, count: int, opts: Options, seats: list, barrier, out) -> None:
    """One bot process (spawned): serve the games of servers `index` modulo `count`; put
    what it saw on `out`."""
    logging.getLogger().setLevel(logging.ERROR)  # logged errors are counted, not printed
    failures = Failures()
    logging.getLogger().addHandler(failures)
    try:
        result = asyncio.run(serving(url, index, count, opts, seats, barrier))
        result["errors"] = failures.seen
    except BaseException:  # noqa: BLE001 - told to the parent, which says so
        barrier.abort()  # the others do not wait for this one
        result = {"index": index, "crashed": traceback.format_exc()}
    out.put(result)


async def serving(
    url: str, index: int, count: int, opts: Options, seats: list, barrier
) -> dict[str, Any]:
    from engine.loops import every

    owner = f"bench-{index}"
    service = await AcknowledgingService.open(
        url, owner=owner, serves=lambda row: int(row.guild_id) % count == index
    )
    assert isinstance(service, AcknowledgingService)
    try:
        games = [row.id for row in await service.games(status=["running"], mine=True)]
        began = time.perf_counter()
        for game in games:  # takes its lease and loads it
            await service.live_world(game)
        loaded = time.perf_counter() - began
        mine = set(games)
        players = []
        for i, theirs in enumerate(seats):
            served = {game in mine for game, *_ in theirs}
            if served == {True}:
                players.append(Player(i, theirs, opts.think))
            elif len(served) > 1:
                raise RuntimeError(f"player {i} plays games of two processes")
        rules = (await service.live_world(games[0])).rules
        per_second = rules.ticks_per_hour / opts.speed
        slack = 1 + math.ceil(per_second * opts.interval)
        await asyncio.to_thread(barrier.wait, START_WAIT)
        for game in games:  # every clock starts now
            await service.set_speed(game, opts.speed)
        before = {game: (await service.live_world(game)).tick for game in games}
        renewing = asyncio.create_task(
            every(service.lease_seconds / 3, service.renew_leases, name="leases", logger=log)
        )
        cpu = time.process_time()
        try:
            played = await play(service, players, games, opts, slack)
        finally:
            cpu = time.process_time() - cpu
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
        behind, ticks, memory = await afterwards(service, games, before, played.at, slack)
        leases = [await service.store.lease(game) for game in games]
        kept = sum(1 for lease in leases if lease and (lease.owner, lease.token) == (owner, 1))
        await service.release_leases()
    finally:
        await service.close()
    return {
        "index": index,
        "owner": owner,
        "games": len(games),
        "players": len(players),
        "loaded": loaded,
        "kept": kept,  # games whose lease it still held at the end, never taken over
        "elapsed": played.elapsed,
        "cpu": cpu,
        "ok": sum((p.ok for p in players), Counter()),
        "refused": sum((p.refused for p in players), Counter()),
        "failed": sum((p.failed for p in players), Counter()),
        "failures": sum((p.failures for p in players), Counter()),
        "refusals": sum((p.refusals for p in players), Counter()),
        "accepted": sum((p.accepted for p in players), Counter()),
        "latencies": [t for p in players for t in p.latencies],
        "acknowledged": service.acknowledged,
        "memory": memory,
        "behind": behind,
        "slack": slack,
        "ticks": ticks,
        "due": per_second * len(games) * played.elapsed,
        "passes": [(end - start) * 1000 for start, end in played.ticker.passes],
        "worst_loop": played.worst_loop,
        "note": played.note,
    }


async def measure(url: str, opts: Options, count: int) -> int:
    """`count` processes serving the games of a new store at `url`; the exit status."""
    service = await GameService.open(url)
    try:
        start = time.perf_counter()
        seats = await setup(service, replace(opts, speed=REAL_TIME))  # clocks: at real time
        created = time.perf_counter() - start
    finally:
        await service.close()
    print(
        f"\n{count} process{'es' if count > 1 else ''}: {opts.games} games created in "
        f"{created:.0f} s (untimed), {opts.players} players ({opts.seated} in each game)"
    )
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(count + 1)
    out = spawn.Queue()
    workers = [
        spawn.Process(target=serve, args=(url, i, count, opts, seats, barrier, out))
        for i in range(count)
    ]
    for worker in workers:
        worker.start()
    results: list[dict[str, Any]] = []
    try:
        # broken: a process crashed (its result says why)
        with contextlib.suppress(threading.BrokenBarrierError):
            await asyncio.to_thread(barrier.wait, START_WAIT)
        server0, wall0 = server_cpu(url), time.perf_counter()
        for _ in workers:
            results.append(await asyncio.to_thread(out.get, True, opts.duration + START_WAIT))
        server1, wall = server_cpu(url), time.perf_counter() - wall0
    finally:
        for worker in workers:
            worker.join(30)
            if worker.is_alive():
                worker.kill()
    crashed = [r for r in results if "crashed" in r]
    for r in crashed:
        print(f"process {r['index']} crashed:\n{r['crashed']}")
    if crashed or len(results) < count:
        return 1
    return report(sorted(results, key=lambda r: r["index"]), server0, server1, wall) + (
        await check(url, results)
    )


def report(results: list[dict[str, Any]], server0, server1, wall: float) -> int:
    """Print each process's figures and the totals; the number of failures and errors."""
    failed = errors = 0
    for r in results:
        ok, refused, bad = (sum(r[k].values()) for k in ("ok", "refused", "failed"))
        n = ok + refused + bad
        times = r["latencies"] or [0.0]
        passes = r["passes"] or [0.0]
        print(
            f"  {r['owner']}: {r['games']} games (loaded in {r['loaded']:.1f} s), {r['players']} "
            f"players, {r['elapsed']:.1f} s: {n} commands, {n / r['elapsed']:.0f} a second "
            f"({ok / r['elapsed']:.0f} accepted); accepted {ok}, refused {refused}, FAILED {bad}"
            f"\n    latency p50 {pct(times, 0.5):.1f} ms, p99 {pct(times, 0.99):.1f} ms, max "
            f"{max(times):.0f} ms; CPU {100 * r['cpu'] / r['elapsed']:.0f}% of a core; event "
            f"loop held at most {r['worst_loop']:.0f} ms\n    ticker: {r['ticks']} ticks "
            f"({r['due']:.0f} came due), {len(r['passes'])} passes, p50 "
            f"{pct(passes, 0.5):.0f} ms, max {max(passes):.0f} ms; games behind (> {r['slack']} "
            f"ticks) at its last pass{r['note']}: {len(r['behind'])}, the furthest "
            f"{max(r['behind'].values(), default=0)} ticks\n    leases: {r['kept']} of "
            f"{r['games']} games still its own at the end, first token, never taken over "
            f"(target: all)"
        )
        listing("    failed commands, by exception", r["failures"])
        listing("    errors logged (ticker, service, leases)", r["errors"])
        failed += bad
        errors += sum(r["errors"].values()) + r["games"] - r["kept"]
    commands = sum(
        (sum(r[k].values()) for r in results for k in ("ok", "refused", "failed")), start=0
    )
    rate = sum(
        sum(r[k].values()) / r["elapsed"] for r in results for k in ("ok", "refused", "failed")
    )
    accepted = sum(sum(r["ok"].values()) / r["elapsed"] for r in results)
    times = [t for r in results for t in r["latencies"]] or [0.0]
    cpu = sum(r["cpu"] / r["elapsed"] for r in results)
    server = (
        ""
        if server0 is None or server1 is None
        else f"; PostgreSQL server {100 * (server1 - server0) / wall:.0f}% of a core"
    )
    print(
        f"  total: {commands} commands, {rate:.0f} a second ({accepted:.0f} accepted), FAILED "
        f"{failed} (target: 0); latency p50 {pct(times, 0.5):.1f} ms, p99 "
        f"{pct(times, 0.99):.1f} ms, max {max(times):.0f} ms; CPU: the bot processes "
        f"{100 * cpu:.0f}% of a core{server}"
    )
    refusals: Counter[str] = sum((r["refusals"] for r in results), Counter())
    listing("  refusals (a clear message)", refusals, 3)
    return failed + errors


async def check(url: str, results: list[dict[str, Any]]) -> int:
    """Reload every game and compare with the processes' memory and what players were told
    (bench_load's audit); then each acknowledged command exactly once in the log."""
    memory = {game: digest for r in results for game, digest in r["memory"].items()}
    accepted: Counter[int] = sum((r["accepted"] for r in results), Counter())
    lies = await audit(url, memory, accepted)
    acknowledged = [a for r in results for a in r["acknowledged"]]
    service = await GameService.open(url)
    try:
        rows = await service.store.query("SELECT game_id, seq, entry FROM log")
    finally:
        await service.close()
    logged: dict[tuple[int, int], dict[str, Any]] = {}
    for game, seq, entry in rows:
        entry = json.loads(entry) if isinstance(entry, str) else entry
        if entry.get("kind") == "command":
            logged[(game, seq)] = entry
    places = Counter((game, seq) for game, seq, _, _ in acknowledged)
    twice = sum(n - 1 for n in places.values())
    wrong = sum(
        1
        for game, seq, nation, command in acknowledged
        if (entry := logged.get((game, seq))) is None
        or entry.get("nation") != nation
        or entry.get("command") != command
    )
    untold = len(logged.keys() - places.keys())
    told = sum(accepted.values())
    print(
        f"  exactly once: {len(acknowledged)} commits acknowledged ({told} commands players were "
        f"told were accepted); {wrong} not in the log as given at their place, {twice} "
        f"acknowledged twice at one place, {untold} in the log unacknowledged (target: 0, 0, 0; "
        f"{len(logged)} commands in the log)"
    )
    return lies + wrong + twice + untold + abs(told - len(acknowledged))


async def run(opts: Options, counts: list[int]) -> int:
    print(machine())
    status = 0
    for count in counts:
        async with new_store(opts.backend, f"processes{count}") as url:
            status += await measure(url, opts, count)
    return 1 if status else 0


def main() -> None:
    parser = arguments("python -m bench.bench_processes", __doc__)
    parser.set_defaults(backend="postgresql", players=80, seated=4, think=0.0)
    parser.add_argument("--processes", default="1,2", help="e.g. 1,2: one run each")
    args = parser.parse_args(sys.argv[1:])
    counts = [int(c) for c in args.processes.split(",") if c.strip()]
    opts = checked(parser, args)
    logging.getLogger().setLevel(logging.ERROR)
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(asyncio.run(run(opts, counts)))


if __name__ == "__main__":
    main()
