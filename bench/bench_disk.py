"""How much does the store grow per game day of a busy game, on each backend (issue 16)?

One 8-nation game on the default map (116x116), every nation played by the AI ("normal"),
created through `GameService.create_game(world=...)` in a new store (`--backend`). Then the
game is played as the bot plays it at real-time speed, only faster: each game hour the real
`AiRunner` lets every AI seat decide (its commands submitted through the service, one commit
each), and the game advances one tick at a time (`GameService.advance(game, 1)`, one commit a
tick, as the ticker does for a real-time game whose ticks come one by one), with the service's
own snapshots. The outbox fills with the game's events (nobody delivers or prunes them here:
an all-AI game has nobody to DM, so those rows stay small).

Measured: the store's size at the start (after creating the game) and after each game day,
SQLite as the file after a WAL checkpoint (TRUNCATE), PostgreSQL as `pg_database_size` (its
tables and indexes; WAL and autovacuum's timing are not in it). Printed: bytes per day, with
the log rows, snapshots and commands of each day."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import platform
import sys
import time
from datetime import datetime

from bench.stores import BACKENDS, new_store, store_bytes

NATIONS = 8
SEED = 16
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")


def ai_world():
    from engine.strategic import lobby
    from engine.strategic.lobby import AI_PLAYER
    from engine.strategic.mapgen import default_size, generate
    from engine.strategic.rules import DEFAULT_RULESET

    width, height = default_size(NATIONS)
    world = generate(DEFAULT_RULESET, nations=NATIONS, width=width, height=height, seed=SEED)
    for i in range(NATIONS):
        lobby.join(world, f"n{i}", f"Nation {i}", COLOURS[i], AI_PLAYER)
    lobby.start(world)
    return world


async def counts(service, game: int) -> tuple[int, int, int]:
    rows = await service.store.query(
        f"SELECT (SELECT COUNT(*) FROM log WHERE game_id = {int(game)}), "
        f"(SELECT COUNT(*) FROM snapshots WHERE game_id = {int(game)}), "
        f"(SELECT COUNT(*) FROM outbox WHERE game_id = {int(game)})"
    )
    return int(rows[0][0]), int(rows[0][1]), int(rows[0][2])


async def measure(backend: str, days: int) -> None:
    from engine.host.runner import AiRunner
    from engine.host.service import GameService

    async with new_store(backend, "disk") as url:
        service = await GameService.open(url)  # FULL on SQLite, as the bot
        try:
            world = ai_world()
            per_day = world.rules.ticks_per_day
            per_hour = world.rules.ticks_per_hour
            game = await service.create_game(
                name="Disk", world=world, speed=3600.0, guild_id="500", channel_id="10000"
            )
            await service.update_settings(game, ai={f"n{i}": "normal" for i in range(NATIONS)})
            runner = AiRunner(service)
            size0 = await store_bytes(url, service.store)
            rows0 = await counts(service, game)
            print(
                f"{backend}: after creating the game {size0 / 1024:.0f} KiB "
                f"(log {rows0[0]}, snapshots {rows0[1]}, outbox {rows0[2]})"
            )
            sizes = [size0]
            began = time.perf_counter()
            commands = 0
            for day in range(days):
                day_commands = 0
                for t in range(per_day):
                    if t % per_hour == 0:
                        day_commands += await runner.run_once()
                    await service.advance(game, 1)
                commands += day_commands
                size = await store_bytes(url, service.store)
                rows = await counts(service, game)
                print(
                    f"  day {day + 1}: {size / 1024:.0f} KiB (+{(size - sizes[-1]) / 1024:.0f} "
                    f"KiB); {day_commands} AI commands; log {rows[0]}, snapshots {rows[1]}, "
                    f"outbox {rows[2]} rows so far ({time.perf_counter() - began:.0f} s)"
                )
                sizes.append(size)
            growth = (sizes[-1] - sizes[1]) / max(1, days - 1)
            print(
                f"{backend}: {(sizes[-1] - sizes[0]) / days / 1024:.0f} KiB a game day over "
                f"{days} days ({growth / 1024:.0f} KiB a day after the first); "
                f"{commands} AI commands in all"
            )
        finally:
            await service.close()


async def run(backends: list[str], days: int) -> int:
    print(
        f"{datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} ({os.cpu_count()} CPUs), "
        f"Python {platform.python_version()}; {NATIONS} AI nations, default map, {days} days"
    )
    for backend in backends:
        await measure(backend, days)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_disk",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
    parser.add_argument("--days", type=int, default=4)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    backends = list(BACKENDS) if args.backend == "both" else [args.backend]
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(asyncio.run(run(backends, args.days)))


if __name__ == "__main__":
    main()
