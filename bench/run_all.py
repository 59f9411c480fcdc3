"""Run every benchmark in bench/ and print their figures."""

from __future__ import annotations

import platform
import subprocess
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHES = [
    "bench.bench_moving",
    "bench.bench_tick",
    "bench.bench_move",
    "bench.bench_battle",
    "bench.bench_mapgen",
    "bench.bench_view",
    "bench.bench_render",
    "bench.bench_load",
    "bench.bench_reload",
    "bench.bench_hosting",
    "bench.bench_sitrep",
    "bench.bench_supplylines",
    "bench.bench_supplylines_orders",
    "bench.bench_ai",
    "bench.bench_caldera_ai",
    "bench.bench_discord_traffic",
]


def main() -> int:
    print(
        f"{date.today()} on {platform.machine()} {platform.processor() or ''}, Python {platform.python_version()}"
    )
    status = 0
    for module in BENCHES:
        print(f"\n== {module}")
        status |= subprocess.call([sys.executable, "-m", module], cwd=ROOT)
    return status


if __name__ == "__main__":
    sys.exit(main())
