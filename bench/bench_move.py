"""Move commands through the service, including the commit, on the 32-nation 256x256 world
with 20,000 units: a destroyer that really sails 8 squares (target: p99 <= 5 ms); planning a
100-square path without walking it; and the store's raw commit rate."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections import deque
from pathlib import Path

from bench.worlds import big_world
from engine.host.rows import LogWrite
from engine.host.service import GameService
from engine.host.sqlite import SqliteStore
from engine.interface.kind import FIRST_KIND
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.systems.movement import MoveContext, can_enter
from engine.strategic.world import World


def far_square(world: World, unit_id: int, steps: int, *, straight: bool = False) -> int:
    """A square exactly `steps` moves away for this unit (breadth-first over where it may go);
    with `straight`, one whose straight-line distance is also `steps` (open water all the way),
    otherwise the first found, which usually needs a detour round islands."""
    unit = world.units[unit_id]
    ut = world.rules.unit[unit.type]
    ctx = MoveContext(world, unit.owner)
    seen = {unit.sq: 0}
    queue = deque([unit.sq])
    while queue:
        sq = queue.popleft()
        if seen[sq] == steps and (not straight or world.grid.distance(unit.sq, sq) == steps):
            return sq
        for nb in world.grid.neighbours(sq):
            if nb not in seen and not world.at.get(nb) and can_enter(world, ctx, unit, ut, nb):
                seen[nb] = seen[sq] + 1
                queue.append(nb)
    raise SystemExit(f"no square {steps} moves away")


def pick_ship(world: World) -> int:
    for unit in world.units.values():
        if unit.type == "destroyer" and unit.owner == "n00":
            return unit.id
    raise SystemExit("no destroyer")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


async def bench_move(path: str, runs: int, synchronous: str, straight: bool) -> None:
    world = big_world()
    ship = pick_ship(world)
    target = far_square(world, ship, 100, straight=straight)
    crow = world.grid.distance(world.units[ship].sq, target)
    svc = await GameService.open(path, synchronous=synchronous)
    game = await svc.create_game(name="bench", world=world)
    live = await svc.live_world(game)
    grid = live.grid
    times = []
    for _ in range(runs):
        unit = live.units[ship]
        unit.mobility = 0  # bench only: every run plans the full 100-square path, walks nothing
        unit.order = None
        goal = target
        t0 = time.perf_counter()
        result = await svc.submit(game, "n00", cmd.Move(units=[ship], to=grid.xy(goal)))
        times.append((time.perf_counter() - t0) * 1000)
        moved = result.events[0]
        assert isinstance(moved, ev.UnitsMoved) and moved.ordered == [ship]
    print(
        f"move, 100-square path ({crow} as the crow flies), synchronous={synchronous}: median {statistics.median(times):.2f} ms, "
        f"p99 {pct(times, 0.99):.2f} ms, max {max(times):.2f} ms over {runs} commands (target p99 <= 5 ms)"
    )
    await svc.close()


async def bench_sail(path: str, runs: int, synchronous: str) -> None:
    """A destroyer that really sails 8 squares each command, there and back again: planning,
    walking (sight, memories, interception and interdiction checks at every step), commit."""
    world = big_world()
    ship = pick_ship(world)
    home = world.units[ship].sq
    there = far_square(world, ship, 8, straight=True)
    svc = await GameService.open(path, synchronous=synchronous)
    game = await svc.create_game(name="bench", world=world)
    live = await svc.live_world(game)
    grid = live.grid
    times = []
    for i in range(runs):
        unit = live.units[ship]
        unit.mobility = 8
        goal = there if i % 2 == 0 else home
        t0 = time.perf_counter()
        result = await svc.submit(game, "n00", cmd.Move(units=[ship], to=grid.xy(goal)))
        times.append((time.perf_counter() - t0) * 1000)
        moved = result.events[0]
        assert isinstance(moved, ev.UnitsMoved) and moved.arrived == [ship], result.events
    print(
        f"move, a destroyer sailing 8 squares, synchronous={synchronous}: median "
        f"{statistics.median(times):.2f} ms, p99 {pct(times, 0.99):.2f} ms, max {max(times):.2f} ms "
        f"over {runs} commands (target p99 <= 5 ms)"
    )
    await svc.close()


async def bench_commits(path: str, n: int, synchronous: str) -> None:
    store = await SqliteStore.open(path, synchronous=synchronous)
    game = await store.create_game(
        name="c",
        ruleset="standard",
        settings={},
        clock={},
        world_json="{}",
        world_hash="",
        kind=FIRST_KIND,
    )
    entry = {
        "kind": "command",
        "nation": "red",
        "command": {"kind": "move", "units": [1], "to": [3, 4]},
    }
    t0 = time.perf_counter()
    for seq in range(1, n + 1):
        await store.append_many(game, [LogWrite(seq, 0, entry, [("red", {"kind": "UnitsMoved"})])])
    took = time.perf_counter() - t0
    print(
        f"store commits, synchronous={synchronous}: {n / took:,.0f} per second ({took / n * 1000:.2f} ms each)"
    )
    await store.close()


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for sync in ("FULL", "NORMAL"):
            await bench_sail(str(Path(tmp) / f"sail-{sync}.db"), 400, sync)
        for sync in ("FULL", "NORMAL"):
            for straight in (True, False):
                await bench_move(str(Path(tmp) / f"move-{sync}-{straight}.db"), 400, sync, straight)
        for sync in ("FULL", "NORMAL"):
            await bench_commits(str(Path(tmp) / f"commits-{sync}.db"), 2000, sync)


if __name__ == "__main__":
    asyncio.run(main())
