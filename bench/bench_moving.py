"""Ticks of the big world while units move (issue 13): a share of the 20,000 units carry
standing orders of about 12 squares, walked at their 4-hourly updates, and get a new one when
they arrive, so the share stays steady. Neighbouring nations are at war, and each nation has
enemy fighters, and enemy warships in battle formation, stationed in its home waters: the
moving units are intercepted and interdicted as in a real war.

Targets: with 5% moving, mean <= 5 ms and p99 <= 20 ms a tick.

With `--service` the world is a game of a `GameService` (a store in a temporary folder), each
tick is `service.advance(game, 1)` as the ticker does it (in the ticks' worker thread, with the
commit and the day's snapshot), and a heartbeat on the event loop measures how late the loop
answers meanwhile: what every other game's players feel while a big world ticks.

`--on-loop` does the same with the ticks on the event loop (as before the worker thread).

Usage: python -m bench.bench_moving [SHARES] [TICKS] [--service | --on-loop]
(default "1,5,20" percent, 48 ticks)"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.worlds import big_world
from engine.strategic import events as ev
from engine.strategic.clock import tick_once
from engine.strategic.rules.models import MovesOn
from engine.strategic.systems.movement import MoveContext, plan_move
from engine.strategic.world import World
from engine.strategic.world.rng import Rng

LEG = 12  # squares of a standing order


def at_war(world: World) -> None:
    """Nations n00-n01, n02-n03, ... are at war; each side stations 12 fighters, a battleship
    and 4 destroyers of its own around its enemy's home."""
    ids = sorted(world.nations)
    war = world.rules.diplomacy.war
    for a, b in zip(ids[0::2], ids[1::2], strict=False):
        world.set_relation(a, b, war)
        world.set_relation(b, a, war)
        for guest, host in ((a, b), (b, a)):
            station(world, guest, host)
    world.sight_index.settle()


def station(world: World, guest: str, host: str) -> None:
    home = world.slots[world.slot_owner.index(host)][0]
    area = world.grid.within(home, 10)
    land = [s for s in area if world.is_land(s) and s not in world.cities]
    sea = [s for s in area if world.is_water(s) and s not in world.at]
    for sq in land[:: max(1, len(land) // 12)][:12]:
        world.add_unit("fighter", guest, sq)
    for type_name, sq in zip(["battleship"] + ["destroyer"] * 4, sea[::7], strict=False):
        world.add_unit(type_name, guest, sq)


def give_order(world: World, ctx: MoveContext, unit, rng: Rng) -> bool:
    """A standing order about LEG squares away that the unit can plan now."""
    grid = world.grid
    x, y = grid.xy(unit.sq)
    for _ in range(6):
        dx, dy = rng.randint(-LEG, LEG), rng.randint(-LEG, LEG)
        goal = grid.index((x + dx) % world.width, (y + dy) % world.height)
        if goal == unit.sq:
            continue
        path = plan_move(world, ctx, unit, goal)
        if path:
            unit.set_order(goal, path)
            return True
    return False


def movers(world: World) -> list[int]:
    rules = world.rules
    return [
        u.id
        for u in world.units.values()
        if rules.unit[u.type].moves_on != MovesOn.NONE and u.carried_by is None
    ]


def run(share: float, ticks: int, seed: int = 1) -> None:
    world = big_world(seed=seed)
    at_war(world)
    _measure(world, share, ticks, seed, lambda: (tick_once(world), None))


def _measure(world: World, share: float, ticks: int, seed: int, step) -> None:
    """Keep `share` of the units on standing orders and time `ticks` ticks made by `step()`
    (which returns the tick's events and how late the event loop was meanwhile, if known)."""
    rng = Rng(seed)
    candidates = movers(world)
    rng.shuffle(candidates)
    want = int(len(world.units) * share)
    contexts: dict[str, MoveContext] = {}

    def top_up() -> int:
        moving = sum(1 for u in world.units.values() if u.order is not None)
        given = 0
        while moving + given < want and candidates:
            unit = world.units.get(candidates.pop())
            if unit is None or unit.order is not None:
                continue
            ctx = contexts.setdefault(unit.owner, MoveContext(world, unit.owner))
            if give_order(world, ctx, unit, rng):
                given += 1
            candidates.insert(0, unit.id)  # back in the queue for a later order
        for ctx in contexts.values():
            ctx.invalidate_sight()
        return moving + given

    top_up()
    step()  # builds the supply grids
    times: list[float] = []
    lags: list[float] = []
    counts = {"steps": 0, "interceptions": 0, "interdictions": 0, "blocked": 0, "arrived": 0}
    for _ in range(ticks):
        before = {u.id: u.sq for u in world.units.values() if u.order is not None}
        start = time.perf_counter()
        events, lag = step()
        times.append((time.perf_counter() - start) * 1000)
        if lag is not None:
            lags.append(lag)
        for uid, sq in before.items():
            unit = world.units.get(uid)
            if unit is not None and unit.sq != sq:
                counts["steps"] += world.grid.distance(sq, unit.sq)
        for e in events:
            if isinstance(e, ev.Intercepted):
                counts["interceptions"] += 1
            elif isinstance(e, ev.Interdicted):
                counts["interdictions"] += 1
            elif isinstance(e, ev.MoveBlocked):
                counts["blocked"] += 1
            elif isinstance(e, ev.OrderCompleted):
                counts["arrived"] += 1
        top_up()
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{share:.0%} of {len(world.units)} units on standing orders: tick mean "
        f"{statistics.mean(times):.1f} ms, median {statistics.median(times):.1f} ms, p99 "
        f"{p99:.1f} ms, max {times[-1]:.1f} ms over {len(times)} ticks; "
        + ", ".join(f"{v} {k}" for k, v in counts.items())
    )
    if lags:
        lags.sort()
        print(
            f"  event loop late while ticking: max {lags[-1]:.1f} ms, p99 "
            f"{lags[min(len(lags) - 1, int(len(lags) * 0.99))]:.1f} ms, median "
            f"{statistics.median(lags):.1f} ms (heartbeat every 1 ms, worst per tick)"
        )


def run_service(share: float, ticks: int, seed: int = 1, *, in_thread: bool = True) -> None:
    """The same through the service: ticks in its worker thread (`in_thread`; else on the
    event loop, as before), each committed."""
    from engine.host.service import GameService

    async def main() -> None:
        world = big_world(seed=seed)
        at_war(world)
        with tempfile.TemporaryDirectory() as tmp:
            service = await GameService.open(
                str(Path(tmp) / "bench.db"), synchronous="NORMAL", ticks_in_thread=in_thread
            )
            game = await service.create_game(name="big", world=world)
            live = await service.live_world(game)  # a bench's tool: orders are given directly
            loop = asyncio.get_running_loop()
            worst = [0.0]
            ticking = [False]

            async def heartbeat() -> None:
                while True:
                    t = time.perf_counter()
                    await asyncio.sleep(0.001)
                    if ticking[0]:
                        worst[0] = max(worst[0], (time.perf_counter() - t - 0.001) * 1000)

            beat = asyncio.create_task(heartbeat())

            def step():
                async def one():
                    worst[0], ticking[0] = 0.0, True
                    result = await service.advance(game, 1)
                    ticking[0] = False
                    return result, worst[0]

                return asyncio.run_coroutine_threadsafe(one(), loop).result()

            try:
                await asyncio.to_thread(_measure, live, share, ticks, seed, step)
            finally:
                beat.cancel()
                await service.close()

    asyncio.run(main())


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    shares = [float(s) / 100 for s in (args[0] if args else "1,5,20").split(",")]
    ticks = int(args[1]) if len(args) > 1 else 48
    for share in shares:
        if "--service" in sys.argv or "--on-loop" in sys.argv:
            run_service(share, ticks, in_thread="--on-loop" not in sys.argv)
        else:
            run(share, ticks)


if __name__ == "__main__":
    main()
