"""Caldera's AI captains over whole campaigns: for each seed, 3 AI captains (every seat) to the
end or the turn cap, and per seed the outcome, the turns, the zone reached, the missions
completed, the captains' ships and shipyards lost and the turn of the first loss; then the
totals.

Usage: python -m bench.bench_caldera_ai [SEEDS] [TURN_CAP] [CAPTAINS]
(default 24 seeds, 1 to 24, 40 turns, 3 captains)"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from engine.caldera.simulate import play
from engine.caldera.state import State


@dataclass
class Losses:
    ships: int = 0  # captains' ships gone (the AI scraps none: destroyed)
    shipyards: int = 0
    first: int | None = None  # the turn of the first ship or shipyard lost
    seen: frozenset[int] = frozenset()

    def watch(self, state: State) -> None:
        mine = frozenset(s.id for s in state.ships.values() if s.owner in state.captains)
        gone = len(self.seen - mine)
        yards = sum(1 for c in state.captains.values() if c.shipyard.destroyed)
        if (gone or yards > self.shipyards) and self.first is None:
            self.first = state.turn
        self.ships += gone
        self.shipyards = yards
        self.seen = mine


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    cap = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    captains = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    start = time.perf_counter()
    print(
        f"{'seed':>4} {'outcome':>8} {'turns':>5} {'zone':>4} {'missions':>8} "
        f"{'ships lost':>10} {'yards lost':>10} {'first loss':>10}"
    )
    outcomes: dict[str, int] = {}
    zones = missions = ships = yards = early = 0
    for seed in range(1, seeds + 1):
        losses = Losses()
        result = play(captains=captains, seed=seed, max_turns=cap, watch=losses.watch)
        outcome = {"turn cap": "cap"}.get(result.result, result.result)
        done = sum(result.missions.values())
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        zones += result.zone
        missions += done
        ships += losses.ships
        yards += losses.shipyards
        early += outcome == "lost" and result.turns <= 10
        first = "-" if losses.first is None else str(losses.first)
        print(
            f"{seed:>4} {outcome:>8} {result.turns:>5} {result.zone:>4} {done:>8} "
            f"{losses.ships:>10} {losses.shipyards:>10} {first:>10}"
        )
    took = time.perf_counter() - start
    print(
        f"{seeds} campaigns of {captains} AI captains, cap {cap} turns, in {took:.0f} s: "
        + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
        + f"; lost within 10 turns {early}; zone {zones / seeds:.2f} on average; "
        f"missions {missions} ({missions / seeds:.2f} a campaign); ships lost {ships}; "
        f"shipyards lost {yards}"
    )


if __name__ == "__main__":
    main()
