"""Map generation timings: `python bench/bench_mapgen.py [repeats]`.

Prints the best and mean wall time of `engine.strategic.mapgen.generate` for a few nation counts and map
sizes (the brief: 32 nations on 256x256 well under 2 seconds).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.strategic import mapgen  # noqa: E402
from engine.strategic.rules import load  # noqa: E402

CASES = ((2, 60), (8, 128), (32, 256))


def main(repeats: int = 3) -> None:
    rules = load("standard")
    mapgen.generate(rules, nations=2, width=32, height=32, seed=0)  # warm up imports and caches
    for nations, side in CASES:
        times = []
        for seed in range(repeats):
            start = time.perf_counter()
            world = mapgen.generate(rules, nations=nations, width=side, height=side, seed=seed)
            times.append(time.perf_counter() - start)
        water = 1 - sum(world.terrain) / world.grid.size
        print(
            f"{nations:>2} nations {side}x{side}: best {min(times) * 1000:7.1f} ms, "
            f"mean {sum(times) / len(times) * 1000:7.1f} ms "
            f"({len(world.cities)} cities, water {water:.1%})"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
