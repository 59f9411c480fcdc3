"""One tick of a 32-nation 256x256 world with 20,000 units (target: <= 5 ms).

Every tick regenerates command points, accrues tech, progresses builds, and updates the units
whose 4-hourly update is due (mobility, healing, standing orders): units are updated every
4 game hours counted from when each was built, so each tick handles about 1/16 of them."""

from __future__ import annotations

import statistics
import time

from bench.worlds import big_world
from engine.strategic.clock import tick_once


def main() -> None:
    t0 = time.perf_counter()
    world = big_world()
    print(
        f"world: {world.width}x{world.height}, {len(world.nations)} nations, {len(world.units)} units, "
        f"{len(world.cities)} cities (built in {time.perf_counter() - t0:.1f} s)"
    )
    period = world.rules.ticks_per_unit_update
    start = time.perf_counter()
    tick_once(world)
    print(
        f"first tick after loading (builds every nation's supply grids): {(time.perf_counter() - start) * 1000:.2f} ms"
    )
    times: list[float] = []
    for _ in range(period * 6):  # one game day
        start = time.perf_counter()
        tick_once(world)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"tick: mean {statistics.mean(times):.2f} ms, median {statistics.median(times):.2f} ms, "
        f"p99 {p99:.2f} ms, max {times[-1]:.2f} ms over the next {len(times)} ticks (target <= 5 ms)"
    )


if __name__ == "__main__":
    main()
