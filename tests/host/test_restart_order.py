"""After a restart, players come first (issue 30): the background loops' loads (the ticker's,
the AI's, the DMs') go one at a time, so a player's command for a game not in memory yet waits
for at most one of them, not for every game before it; an AI seat reads its view in the AI's
thread, not on the event loop. Figures: bench/bench_restart.py."""

from __future__ import annotations

import asyncio
import threading

from engine.host.runner import AiRunner
from engine.host.service import GameService
from engine.loops import BACKGROUND
from engine.strategic import commands as cmd
from engine.strategic.kind import KIND

GAMES = 6


async def games(service: GameService, count: int) -> list[tuple[int, str]]:
    """`count` small running 2-nation games: (game, the first nation)."""
    made = []
    for i in range(count):
        game = await service.create_game(name=f"G{i}", width=40, height=40, max_nations=2)
        red = await service.join(game, name="Red", colour="#d62728", player=f"{i}1")
        await service.join(game, name="Blue", colour="#1f77b4", player=f"{i}2")
        made.append((game, red))
    return made


async def test_a_players_game_loads_before_the_background_loops_queued_ones(tmp_path) -> None:
    path = str(tmp_path / "g.db")
    service = await GameService.open(path, synchronous="NORMAL")
    try:
        made = await games(service, GAMES + 1)
    finally:
        await service.close()
    service = await GameService.open(path, synchronous="NORMAL")  # the restart: none in memory
    try:
        built: list[int] = []  # the games in the order their loading began
        build = service._build

        async def noted_build(game_id: int, token):
            built.append(game_id)
            return await build(game_id, token)

        service._build = noted_build  # type: ignore[method-assign]

        async def background(game: int) -> None:
            BACKGROUND.set(True)  # as every background loop's pass (engine.loops.every)
            await service.summary(game)

        queued = [asyncio.create_task(background(g)) for g, _ in made[:GAMES]]
        await asyncio.sleep(0)  # the background loads are queued first
        game, red = made[GAMES]
        await asyncio.gather(
            service.submit(game, red, cmd.SetRelation(other="blue", level="war")), *queued
        )
        # the player's game began loading after at most the background load under way and
        # the one begun while the player's command read its game's row, not after all six
        assert built.index(game) <= 2, built
    finally:
        await service.close()


async def test_an_ai_seat_reads_its_view_beside_the_event_loop(tmp_path, monkeypatch) -> None:
    service = await GameService.open(str(tmp_path / "ai.db"), synchronous="NORMAL")
    try:
        game = await service.create_game(name="AI", width=40, height=40, max_nations=2)
        await service.join(game, name="Red", colour="#d62728", player="1")
        bot = await service.join(game, name="Robot", colour="#1f77b4", player="2")
        await service.update_settings(game, ai={bot: "normal"})
        threads: list[str] = []
        view_for = KIND.view_for

        def noted_view_for(world, nation):
            threads.append(threading.current_thread().name)
            return view_for(world, nation)

        monkeypatch.setattr(KIND, "view_for", noted_view_for)
        assert await AiRunner(service).run_once() > 0
        assert threads and all(name.startswith("ai") for name in threads), threads
    finally:
        await service.close()
