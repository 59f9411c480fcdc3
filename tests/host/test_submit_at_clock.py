"""A command is judged at the game's clock (issue 27, finding 8): when the ticker is behind
(after downtime, or between its passes), the ticks due come first, so an order given after a
turn's deadline counts for the next turn, never for the one whose deadline passed."""

from __future__ import annotations

import asyncio
import threading
import time

from engine.host.service import GameService
from engine.supplylines.kind import GiveOrder, SubmitOrders
from engine.supplylines.state import State


class Clock:
    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


async def duel(service: GameService) -> tuple[int, str, str]:
    game = await service.create_game(name="Duel", kind="supply-lines", max_nations=2, turn_hours=1)
    ann = await service.join(game, name="Ann", colour="#c0392b", player="100")
    bob = await service.join(game, name="Bob", colour="#2980b9", player="200")
    return game, ann, bob


async def test_an_order_after_the_deadline_counts_for_the_next_turn(tmp_path) -> None:
    clock = Clock()
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL", clock=clock)
    try:
        game, ann, bob = await duel(service)
        world: State = await service.live_world(game)
        assert (world.turn, world.deadline) == (0, world.tick + 4)
        clock.t += 3600 + 60  # the bot was down past the deadline: no ticker has run
        await service.submit(game, ann, GiveOrder(text="H1 > C1"))
        world = await service.live_world(game)
        assert world.turn == 1 and world.tick >= 4  # the first turn resolved first
        assert [u.at for u in world.units_of(ann)] == ["H1"]  # without the late order
        assert [o.text() for o in world.orders[ann]] == ["H1 > C1"]
        # a submission just before the next deadline still counts for that turn
        clock.t += 3600 - 120
        await service.submit(game, bob, SubmitOrders())
        await service.submit(game, ann, SubmitOrders())
        world = await service.live_world(game)
        assert world.turn == 2 and [u.at for u in world.units_of(ann)] == ["C1"]
    finally:
        await service.close()


async def test_catching_up_for_a_command_runs_off_the_event_loop(tmp_path, monkeypatch) -> None:
    """The ticks a command waits for run in the ticks' thread, like the ticker's: the event
    loop goes on meanwhile."""
    import engine.supplylines.kind as kind_module

    clock = Clock()
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL", clock=clock)
    try:
        game, ann, _ = await duel(service)
        clock.t += 3 * 3600 + 60
        ticking, loop_ran = threading.Event(), threading.Event()
        seen: list[bool] = []
        apply = kind_module.KIND.apply

        def waiting_apply(world, entry):
            if entry.kind == "advance" and not seen:
                ticking.set()
                seen.append(loop_ran.wait(timeout=10))  # (a safety net, not a measure)
            return apply(world, entry)

        monkeypatch.setattr(kind_module.KIND, "apply", waiting_apply)

        async def meanwhile() -> None:
            while not ticking.is_set():
                await asyncio.sleep(0.001)
            loop_ran.set()

        other = asyncio.create_task(meanwhile())
        await service.submit(game, ann, GiveOrder(text="H1 > C1"))
        other.cancel()
        assert seen == [True]
        assert (await service.live_world(game)).turn == 3
    finally:
        await service.close()
