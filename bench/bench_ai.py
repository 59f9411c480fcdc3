"""AI nations: a 10-day 8-nation 128x128 simulation (target <= 20 s), the AI's decision time
per nation per game hour, and win rates against a passive nation and the naive expand-only AI.

Usage: python -m bench.bench_ai [MAPS]   (default 10 maps; each is played from both seats)"""

from __future__ import annotations

import sys
import time

from engine.strategic.ai.simulate import simulate


def win_rate(
    opponent: str, seeds: range, *, size: int = 64, days: int = 10
) -> tuple[int, int, int]:
    """(AI wins, opponent wins, shared or none) over 2-nation games. Every seed is played
    twice, the AI once in each seat: maps are not perfectly even, so this cancels the luck of
    the better home."""
    ai, other, tie = 0, 0, 0
    for seed in seeds:
        for styles in (["normal", opponent], [opponent, "normal"]):
            result = simulate(
                nations=2, width=size, height=size, days=days, seed=seed, styles=styles
            )
            ours = "ai1" if styles[0] == "normal" else "ai2"
            winners = result["winners"]
            if winners == [ours]:
                ai += 1
            elif winners and ours not in winners:
                other += 1
            else:
                tie += 1
    return ai, other, tie


def main() -> None:
    start = time.perf_counter()
    result = simulate(nations=8, width=128, height=128, days=10, seed=1)
    took = time.perf_counter() - start
    print(
        f"simulation, 8 AI nations, 128x128, 10 days: {took:.1f} s (target <= 20 s); "
        f"AI {result['ai_ms_per_nation_hour']:.1f} ms per nation per game hour; "
        f"{sum(r['commands'] for r in result['per_nation'].values())} commands, "
        f"{result['counts']['battles']} battles, {result['counts']['captures']} captures"
    )
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    for opponent in ("passive", "expand"):
        ai, other, tie = win_rate(opponent, range(100, 100 + games))
        print(
            f"AI against {opponent}: won {ai} of {2 * games} 2-nation 64x64 10-day games "
            f"({games} maps, each seat once), lost {other}, tied {tie}"
        )


if __name__ == "__main__":
    main()
