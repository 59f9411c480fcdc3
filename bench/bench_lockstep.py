"""The moving big world of `bench_moving` in two checkouts at once, tick by tick in turn
(issue 30): one process runs this checkout, one another (a `git worktree` of an older
commit), each tick run by one then the other (the first alternating), so that both see the
same load on a shared machine. Prints each side's thread CPU per tick, the ratio, and each
side's world hash (the same when the change kept the world's behaviour).

Usage: python -m bench.bench_lockstep OTHER_CHECKOUT [SHARE] [TICKS]
(default 5 percent moving, 24 ticks)

`--simulate` instead runs `si simulate`'s game in both (8 AI nations, 128x128, 10 days, seed
1: `python -m bench.bench_lockstep OTHER_CHECKOUT --simulate [NATIONS SIZE DAYS SEED]`), a
game hour at a time in turn (every seat's decision, then the hour's ticks), and prints each
side's thread CPU for the whole game."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def worker(share: float, ticks: int) -> None:
    """One side: builds the world, then runs a tick each time a line arrives on stdin and
    answers its thread CPU in ms; the world's hash at the end."""
    from bench.bench_moving import _measure, at_war
    from bench.worlds import big_world
    from engine.strategic.clock import tick_once

    out = sys.stdout
    sys.stdout = sys.stderr  # the bench's own report goes aside
    world = big_world(seed=1)
    at_war(world)
    print("ready", file=out, flush=True)

    def step():
        sys.stdin.readline()
        start = time.thread_time()
        events = tick_once(world)
        print(f"{(time.thread_time() - start) * 1000:.3f}", file=out, flush=True)
        return events, None

    _measure(world, share, ticks, 1, step)
    print(f"hash {world.hash()}", file=out, flush=True)


def simulate_worker(nations: int, size: int, days: int, seed: int) -> None:
    """One side of `--simulate`: `si simulate`'s loop (engine.strategic.ai.simulate), a game
    hour each time a line arrives; "0" once the game has ended."""
    from engine.strategic.ai.local import play_turn
    from engine.strategic.ai.simulate import new_world
    from engine.strategic.clock import advance

    out = sys.stdout
    sys.stdout = sys.stderr
    world, seats = new_world(nations, size, size, days, seed, "standard", ["normal"])
    print("ready", file=out, flush=True)
    for _ in sys.stdin:  # until the other end closes it
        start = time.thread_time()
        if not world.ended:
            for seat in seats:
                play_turn(world, seat)
            advance(world, world.ticks_per_hour)
        print(f"{(time.thread_time() - start) * 1000:.3f}", file=out, flush=True)
    print(f"hash {world.hash()}", file=out, flush=True)


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        worker(float(sys.argv[2]) / 100, int(sys.argv[3]))
        return
    if sys.argv[1:2] == ["--simulate-worker"]:
        simulate_worker(*(int(a) for a in sys.argv[2:6]))
        return
    other = Path(sys.argv[1]).resolve()
    simulate = sys.argv[2:3] == ["--simulate"]
    if simulate:
        game = sys.argv[3:7] if len(sys.argv) > 3 else ["8", "128", "10", "1"]
        args = ["--simulate-worker", *game]
        ticks = 24 * int(game[2])  # game hours (an hour after the end costs nothing)
    else:
        share = sys.argv[2] if len(sys.argv) > 2 else "5"
        ticks = int(sys.argv[3]) if len(sys.argv) > 3 else 24
        args = ["--worker", share, str(ticks)]
    sides = {"this": Path.cwd(), "other": other}
    procs = {
        name: subprocess.Popen(
            # this file runs both sides, each importing its own checkout's engine and bench
            [sys.executable, str(Path(__file__).resolve()), *args],
            cwd=path,
            env={**os.environ, "PYTHONPATH": str(path)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for name, path in sides.items()
    }
    for proc in procs.values():
        assert proc.stdin is not None and proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit("a side did not start (is OTHER_CHECKOUT a checkout?)")
    cpu: dict[str, list[float]] = {name: [] for name in procs}
    for tick in range(ticks + 1):  # the first builds the supply grids: not counted
        order = ["this", "other"] if tick % 2 == 0 else ["other", "this"]
        for name in order:
            proc = procs[name]
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
            cpu[name].append(float(proc.stdout.readline()))
    hashes = {}
    for name, proc in procs.items():
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.close()
        hashes[name] = proc.stdout.readline().split()[-1][:16]
        proc.wait()
    if simulate:
        for name in procs:
            print(
                f"{name:<5} thread CPU for the whole game: {sum(cpu[name]) / 1000:.2f} s; "
                f"world hash {hashes[name]}"
            )
        print(
            f"this/other: {sum(cpu['this']) / sum(cpu['other']):.2f} of the CPU"
            + ("" if hashes["this"] == hashes["other"] else "; THE WORLDS DIFFER")
        )
        return
    for name in procs:
        times = cpu[name][1:]
        print(
            f"{name:<5} thread CPU per tick: median {statistics.median(times):.1f} ms, mean "
            f"{statistics.mean(times):.1f} ms, worst {max(times):.1f} ms; world hash "
            f"{hashes[name]}"
        )
    this, that = cpu["this"][1:], cpu["other"][1:]
    ratios = [a / b for a, b in zip(this, that, strict=True)]
    print(
        f"this/other: {sum(this) / sum(that):.2f} of the CPU, per tick median ratio "
        f"{statistics.median(ratios):.2f}"
        + ("" if hashes["this"] == hashes["other"] else "; THE WORLDS DIFFER")
    )


if __name__ == "__main__":
    main()
