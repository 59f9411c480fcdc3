"""A whole game between AI nations at full speed, with no Discord and no store."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.interface.colours import PALETTE
from engine.strategic import lobby
from engine.strategic.ai.local import Seat, play_turn
from engine.strategic.clock import advance
from engine.strategic.mapgen import generate
from engine.strategic.world import World

COUNTED = {
    "Attacked": "battles",
    "Bombed": "battles",
    "CityCaptured": "captures",
    "Intercepted": "interceptions",
    "Interdicted": "interdictions",
    "SatelliteLaunched": "launches",
    "IcbmLaunched": "launches",
    "NationEliminated": "eliminations",
}


def new_world(
    nations: int, width: int, height: int, days: int, seed: int, ruleset: str, styles: list[str]
) -> tuple[World, list[Seat]]:
    world = generate(
        ruleset, nations=nations, width=width, height=height, seed=seed, length_days=days
    )
    colours = list(PALETTE.values())
    seats = []
    for i in range(nations):
        nid = f"ai{i + 1}"
        lobby.join(world, nid, f"AI {i + 1}", colours[i % len(colours)], "ai")
        seats.append(Seat(nid, styles[i % len(styles)]))
    lobby.start(world)
    return world, seats


def simulate(
    *,
    nations: int,
    width: int,
    height: int,
    days: int,
    seed: int,
    ruleset: str = "standard",
    styles: list[str] | None = None,
    every_day: Callable[[World], None] | None = None,
) -> dict[str, Any]:
    """Play a whole game between AI nations; `every_day(world)` is called at the end of each
    game day and at the end (e.g. to draw each nation's map: `si simulate --snapshots`)."""
    started = time.perf_counter()
    world, seats = new_world(nations, width, height, days, seed, ruleset, styles or ["normal"])
    counts: Counter[str] = Counter()
    decide_seconds = 0.0
    decisions = 0
    tph = world.ticks_per_hour
    per_day = world.rules.ticks_per_day
    while not world.ended:
        t0 = time.perf_counter()
        events = []
        for seat in seats:
            events.extend(play_turn(world, seat))
            decisions += 1
        decide_seconds += time.perf_counter() - t0
        events.extend(advance(world, tph))
        for e in events:
            if e.kind in COUNTED:
                counts[COUNTED[e.kind]] += 1
        if every_day is not None and (world.tick % per_day == 0 or world.ended):
            every_day(world)
    elapsed = time.perf_counter() - started
    ended = [e for e in events if e.kind == "GameEnded"]
    winners = ended[-1].winners if ended else []
    return {
        "nations": nations,
        "size": f"{width}x{height}",
        "days": days,
        "seed": seed,
        "ruleset": world.rules.name,
        "ticks": world.tick,
        "elapsed_seconds": round(elapsed, 3),
        "ai_seconds": round(decide_seconds, 3),
        "ai_ms_per_nation_hour": round(1000 * decide_seconds / max(1, decisions), 3),
        "per_nation": {
            s.nation: {
                "style": s.style,
                "cities": len(world.cities_of(s.nation)),
                "units": len(world.units_of(s.nation)),
                "tech": round(world.nations[s.nation].tech, 2),
                "out": world.nations[s.nation].out,
                "commands": s.accepted,
                "rejected": s.rejected,
            }
            for s in seats
        },
        "counts": {k: counts.get(k, 0) for k in sorted(set(COUNTED.values()))},
        "winners": winners,
        "hash": world.hash(),
    }
