"""The AI runner's pass over every game runs on the event loop: with a thousand games whose
seats all rest (the answers in memory, so no `await` suspends), it still lets the loop turn
every few milliseconds, so a player's command is not held until the pass ends (issue 30: the
busy hour's longest hold was the pass over 2,000 resting seats)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

from engine.host.changes import Watch
from engine.host.runner import AiRunner


class Games:
    """A service with many running games, each with an AI seat, none in memory."""

    def __init__(self, n: int) -> None:
        self.rows = [SimpleNamespace(id=i, kind="k", settings={"ai": {"a": "x"}}) for i in range(n)]

    async def games(self, **_: object) -> list:
        return self.rows

    def watch(self) -> Watch:
        return Watch()

    def next_tick_at(self, game_id: int) -> None:
        return None

    def seq_in_memory(self, game_id: int) -> None:
        return None


async def test_a_pass_over_many_resting_games_lets_the_loop_turn() -> None:
    runner = AiRunner(Games(400))  # type: ignore[arg-type]

    looked: list[int] = []

    async def resting_game(game_id: int, kind: str, seats: dict) -> tuple[int, bool]:
        busy = time.perf_counter() + 0.0005  # a game's look: half a millisecond, no suspension
        while time.perf_counter() < busy:
            pass
        looked.append(game_id)
        return 0, True

    runner._game = resting_game  # type: ignore[method-assign]
    seen: list[int] = []  # how many games the pass had looked at, each time a player ran

    async def player() -> None:
        while True:
            await asyncio.sleep(0)
            seen.append(len(looked))

    watcher = asyncio.create_task(player())
    await asyncio.sleep(0)
    try:
        await runner.run_once()  # 400 games x 0.5 ms: 200 ms of work on the loop
    finally:
        watcher.cancel()
    assert len(looked) == 400
    # the player's task ran between the pass's games, again and again (a turn every 5 ms of
    # work is about every ten games), not only once the pass was over
    during = sorted({n for n in seen if 0 < n < 400})
    assert len(during) >= 10, during
