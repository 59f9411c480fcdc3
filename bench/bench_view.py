"""One nation's fog-of-war view of a 32-nation 256x256 world with 20,000 units
(target: <= 5 ms per nation)."""

from __future__ import annotations

import statistics
import time

from bench.worlds import big_world
from engine.strategic.clock import advance
from engine.strategic.view import view_for


def main() -> None:
    world = big_world()
    advance(world, world.rules.ticks_per_unit_update)  # a few hours of play first
    nations = sorted(world.nations)
    for n in nations:  # warm caches (each nation's sight grids)
        view_for(world, n)
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(5):
        for n in nations:
            start = time.perf_counter()
            view = view_for(world, n)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(view.units))
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"view: mean {statistics.mean(times):.2f} ms, median {statistics.median(times):.2f} ms, "
        f"p99 {p99:.2f} ms per nation over {len(times)} views "
        f"({statistics.mean(sizes):.0f} units in a view on average; target <= 5 ms)"
    )


if __name__ == "__main__":
    main()
