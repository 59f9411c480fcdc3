"""Supply Lines: what its pieces cost in real play. On each hand-made map, games between the
AI and random-orders players are played through (`engine.supplylines.simulate`), and over
them: the AI's decisions (ms each), a turn's resolution (stages 1-8), and the board's picture
of a player after each turn with that turn's moves and conflicts (`renderers.supplylines`,
the picture every turn's DM carries). Medians and maxima over every turn of the games."""

from __future__ import annotations

import statistics
import time

from engine.supplylines import adjudicator, turns
from engine.supplylines.ai import AI
from engine.supplylines.board import available
from engine.supplylines.kind import KIND
from engine.supplylines.simulate import play
from engine.supplylines.view import view_for
from renderers.supplylines import draw_board

GAMES = 5


def turn_costs(map_name: str, seed: int) -> tuple[list[float], list[float]]:
    """Resolving each turn and drawing its picture, in a game of AIs only (capped)."""
    world = KIND.setup({"map": map_name, "seed": seed})
    for seat in range(1, world.board.seats + 1):
        turns.join(world, f"p{seat}", f"P{seat}", "#c0392b", "ai")
    turns.start(world)
    resolve, draw = [], []
    for _ in range(30):
        if world.ended:
            break
        for p in world.active():
            memory = AI.memory()
            for command in AI.decide(view_for(world, p), memory, "normal"):
                if command.kind == "order":
                    turns.add_order(world, p, command.text)
        t0 = time.perf_counter()
        adjudicator.resolve(world, world.orders)
        resolve.append(time.perf_counter() - t0)
        world.orders = {}
        view = view_for(world, world.active()[0]) if world.active() else None
        if view is not None:
            t0 = time.perf_counter()
            draw_board(view, title=map_name)
            draw.append(time.perf_counter() - t0)
    return resolve, draw


def main() -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M')}: Supply Lines, {GAMES} games a map")
    for name in available():
        seats = KIND.setup({"map": name}).board.seats
        decided, seconds, lengths = 0, 0.0, []
        for seed in range(GAMES):
            players = {s: ("ai" if s == 1 else "random") for s in range(1, seats + 1)}
            result = play(name, players, seed=seed, max_turns=60, clock=time.perf_counter)
            decided += result.decisions[1]
            seconds += result.seconds[1]
            lengths.append(result.turns)
        resolve, draw = turn_costs(name, 1)
        print(
            f"  {name:<9} {seats} players: AI {1000 * seconds / max(decided, 1):.2f} ms a decision,"
            f" games of {statistics.median(lengths):g} turns; a turn resolved in "
            f"{1000 * statistics.median(resolve):.2f} ms (max {1000 * max(resolve):.2f}), its "
            f"picture drawn in {1000 * statistics.median(draw):.1f} ms (max {1000 * max(draw):.1f})"
        )


if __name__ == "__main__":
    main()
