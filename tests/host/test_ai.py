"""AI nations: they beat a passive nation, play the same game from the same seed, decide only
from what their nation sees, and play stored games through the service."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.host.runner import AiRunner
from engine.host.service import GameService
from engine.strategic import lobby
from engine.strategic.ai import Memory, decide
from engine.strategic.ai.simulate import new_world, simulate
from engine.strategic.clock import advance
from engine.strategic.view import view_for


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_ai_beats_a_passive_nation(seed: int) -> None:
    styles = ["normal", "passive"] if seed % 2 else ["passive", "normal"]
    result = simulate(nations=2, width=48, height=48, days=3, seed=seed, styles=styles)
    ai = "ai1" if styles[0] == "normal" else "ai2"
    passive = "ai2" if ai == "ai1" else "ai1"
    rows = result["per_nation"]
    assert rows[ai]["cities"] > rows[passive]["cities"]
    assert rows[ai]["commands"] > 0 and rows[passive]["commands"] == 0
    assert result["winners"] == [ai]


@pytest.mark.slow  # four 10-day games on 64x64 (the win rate over more maps: bench/bench_ai.py)
@pytest.mark.parametrize("seed", [100, 103])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_ai_beats_the_naive_expander_from_either_seat(seed: int, seat: int) -> None:
    styles = ["normal", "expand"] if seat == 0 else ["expand", "normal"]
    result = simulate(nations=2, width=64, height=64, days=10, seed=seed, styles=styles)
    ai = f"ai{seat + 1}"
    assert result["winners"] == [ai]


def test_the_same_seed_plays_the_same_game() -> None:
    a = simulate(nations=3, width=48, height=48, days=2, seed=9)
    b = simulate(nations=3, width=48, height=48, days=2, seed=9)
    assert a["hash"] == b["hash"] and a["per_nation"] == b["per_nation"]
    c = simulate(nations=3, width=48, height=48, days=2, seed=10)
    assert c["hash"] != a["hash"]


def test_the_ai_decides_only_from_what_its_nation_sees() -> None:
    world, seats = new_world(3, 60, 60, 10, 7, "standard", ["normal"])
    advance(world, 24 * world.ticks_per_hour)
    me = seats[0].nation
    before = decide(view_for(world, me), Memory(), "normal").commands
    # move every unit of the other nations that ai1 cannot see somewhere else it cannot see
    view = view_for(world, me)
    hidden = [sq for sq in range(world.grid.size) if not view.visible[sq]]
    shown = {u.id for u in view.units}
    for unit in [u for u in world.units.values() if u.owner != me and u.id not in shown]:
        world.move_unit(unit, hidden[(unit.id * 7919) % len(hidden)])
    world.sight_index.settle()
    assert view_for(world, me).to_dict() == view.to_dict()
    assert decide(view_for(world, me), Memory(), "normal").commands == before


async def red_and_robot(service: GameService) -> tuple[int, str, str]:
    """A running 2-nation game on 48x48: Red (a player) and Robot (an AI nation)."""
    game = await service.create_game(name="AI", max_nations=2, width=48, height=48, seed=2)
    red = await service.join(game, name="Red", colour="#e6194b", player="100")
    bot = await service.join(game, name="Robot", colour="#4363d8", player=lobby.AI_PLAYER)
    return game, red, bot


async def test_ai_seats_play_stored_games_through_the_service(tmp_path) -> None:
    service = await GameService.open(str(tmp_path / "ai.db"), synchronous="NORMAL")
    try:
        game, red, bot = await red_and_robot(service)
        await service.update_settings(game, ai={bot: "normal", red: "caretaker"})
        assert (await service.game(game)).status == "running"
        runner = AiRunner(service)
        first = await runner.run_once()
        assert first > 0
        assert await runner.run_once() == 0  # once per game hour
        await service.advance(game, 4)
        await runner.run_once()
        log = await service.store.log_after(game, 0)
        by = {e["nation"] for _, e in log if e["kind"] == "command"}
        assert by == {bot, red}
        # the caretaker starts no war
        wars = [
            e
            for _, e in log
            if e["kind"] == "command" and e["nation"] == red and e["command"]["kind"] == "relation"
        ]
        assert all(w["command"]["level"] != "war" for w in wars)
    finally:
        await service.close()


async def test_a_game_whose_tick_and_row_did_not_change_is_passed_over(tmp_path) -> None:
    """The runner looks at a game again only when its tick (or its row) moved on: a pass over
    a game as it was when its seats last had their turn asks nothing of it; a tick, or a new
    AI seat in its settings, and it is looked at (and its seats decide) as before."""
    service = await GameService.open(str(tmp_path / "ai.db"), synchronous="NORMAL")
    try:
        game, red, bot = await red_and_robot(service)
        await service.update_settings(game, ai={bot: "normal"})
        runner = AiRunner(service)
        looked: list[int] = []
        summary = service.summary

        async def counted(game_id: int):
            looked.append(game_id)
            return await summary(game_id)

        service.summary = counted  # type: ignore[method-assign]
        assert await runner.run_once() > 0
        assert looked
        looked.clear()
        assert await runner.run_once() == 0
        assert looked == []  # nothing moved on: not looked at
        await service.update_settings(game, ai={bot: "normal", red: "caretaker"})
        assert await runner.run_once() > 0  # the new seat decides at once, in the same hour
        looked.clear()
        assert await runner.run_once() == 0
        assert looked == []
        await service.advance(game, 1)
        await runner.run_once()
        assert looked  # a tick: looked at again
        looked.clear()
        await runner.run_once()
        assert looked == []
    finally:
        await service.close()


async def test_a_player_is_answered_while_an_ai_seat_is_deciding(tmp_path, monkeypatch) -> None:
    """An AI's decision runs beside the event loop, not on it: while a seat is still
    thinking, a player's command is carried out and answered. (The decision here waits until
    the player's answer came: on the loop it would wait in vain, and the AI would be told.)"""
    import asyncio
    import threading

    from engine.strategic import commands as cmd
    from engine.strategic.kind import KIND

    service = await GameService.open(str(tmp_path / "ai.db"), synchronous="NORMAL")
    try:
        game, red, bot = await red_and_robot(service)
        await service.update_settings(game, ai={bot: "normal"})
        thinking, answered = threading.Event(), threading.Event()
        waited: list[bool] = []
        decide = KIND.ai.decide

        def slow_decide(view, memory, style):
            thinking.set()
            waited.append(answered.wait(timeout=30))
            return decide(view, memory, style)

        monkeypatch.setattr(KIND.ai, "decide", slow_decide)
        runner = AiRunner(service)
        ai_pass = asyncio.create_task(runner.run_once())
        while not thinking.is_set():
            await asyncio.sleep(0.01)
        await service.submit(game, red, cmd.SetRelation(other=bot, level="war"))
        answered.set()
        assert await ai_pass > 0
        assert waited == [True]  # the player was answered while the AI was still deciding
    finally:
        await service.close()


async def test_after_a_restart_an_ai_seat_goes_on_where_it_was(tmp_path) -> None:
    """AI seats' memories are stored: a restarted process neither has every seat decide again
    at once (the seat that decided this game hour rests until its next) nor forgets what it
    was doing (its war target, the units it sent)."""
    path = str(tmp_path / "ai.db")
    service = await GameService.open(path, synchronous="NORMAL")
    try:
        game, red, bot = await red_and_robot(service)
        await service.update_settings(game, ai={bot: "normal"})
        await service.pause(game)  # the game's hour stays the same across the restart
        first = AiRunner(service)
        assert await first.run_once() > 0
        before = first.memories[(game, bot)]
    finally:
        await service.close()
    service = await GameService.open(path, synchronous="NORMAL")
    try:
        again = AiRunner(service)
        assert await again.run_once() == 0  # it decided this hour already
        after = again.memories[(game, bot)]
        assert after.decided is not None and after.sent  # it had decided and sent units
        # all of it, but the islands' labels (worked out again from the next view)
        assert replace(after, islands=None) == replace(before, islands=None)
        from engine.strategic.ai.brain import EVERY_HOURS

        await service.resume(game)
        await service.advance(game, 4 * EVERY_HOURS["normal"])  # its next hour: it decides
        assert await again.run_once() > 0
    finally:
        await service.close()
