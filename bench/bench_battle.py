"""A large battle turn through the service: 500 units fighting at once (250 attacks, each
with its counter-attack, first fire and events), on the big 32-nation world."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.worlds import big_world
from engine.host.service import GameService
from engine.strategic import commands as cmd


def front(world, attackers: str, defenders: str, pairs: int):
    """Pairs of (attacker, defender square): land units of two nations made neighbours."""
    grid = world.grid
    free = [
        sq
        for sq in range(grid.size)
        if world.is_land(sq) and sq not in world.cities and not world.at.get(sq)
    ]
    is_free = set(free)
    out: list[tuple[int, tuple[int, int]]] = []
    for sq in free:
        if len(out) >= pairs:
            break
        east = grid.index(grid.xy(sq)[0] + 1, grid.xy(sq)[1])
        if east in is_free and not world.at.get(east) and not world.at.get(sq):
            a = world.add_unit("infantry", attackers, sq, mobility=6)
            world.add_unit("infantry", defenders, east)
            out.append((a.id, grid.xy(east)))
    return out


async def main() -> None:
    world = big_world()
    world.set_relation("n00", "n01", "war")
    world.set_relation("n01", "n00", "war")
    pairs = front(world, "n00", "n01", 250)
    with tempfile.TemporaryDirectory() as tmp:
        svc = await GameService.open(str(Path(tmp) / "battle.db"))
        game = await svc.create_game(name="battle", world=world)
        t0 = time.perf_counter()
        await svc.live_world(game)  # the service loads the game once (snapshot + log)
        print(f"loading the game into the service: {(time.perf_counter() - t0) * 1000:.0f} ms")
        times = []
        start = time.perf_counter()
        for uid, target in pairs:
            t0 = time.perf_counter()
            await svc.submit(game, "n00", cmd.Attack(units=[uid], target=target))
            times.append((time.perf_counter() - t0) * 1000)
        total = time.perf_counter() - start
        await svc.close()
    times.sort()
    print(
        f"battle: {len(pairs)} attacks between {2 * len(pairs)} units in {total * 1000:.0f} ms "
        f"({total / len(pairs) * 1000:.2f} ms each, median {statistics.median(times):.2f}, "
        f"p99 {times[int(len(times) * 0.99) - 1]:.2f} ms), through the service with commits"
    )


if __name__ == "__main__":
    asyncio.run(main())
