"""Reloading a game (a restart, an eviction) parses its snapshot and replays its log in the
ticks' worker thread, never on the event loop, and the log a reload replays is bounded by its
size, not only by its count (issue 27, finding 1). Figures: bench/bench_reload.py."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from engine.host.service import GameService
from engine.interface import entries as en
from engine.supplylines.kind import KIND, ClearOrders, GiveOrder


async def duel(service: GameService) -> tuple[int, str]:
    game = await service.create_game(name="Duel", kind="supply-lines", max_nations=2)
    ann = await service.join(game, name="Ann", colour="#c0392b", player="100")
    await service.join(game, name="Bob", colour="#2980b9", player="200")
    return game, ann


async def snapshot_seq(service: GameService, game: int) -> int:
    snap = await service.store.latest_snapshot(game)
    assert snap is not None
    return snap[0]


async def test_the_loop_goes_on_while_a_game_is_replayed(tmp_path, monkeypatch) -> None:
    """While the replay applies a logged command, a coroutine gets its turn: the replay waits
    for it (were the replay on the event loop, the coroutine could not run until it ended)."""
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    try:
        game, ann = await duel(service)
        for i in range(5):
            await service.submit(game, ann, ClearOrders() if i % 2 else GiveOrder(text="Hold@H1"))
        before = KIND.hash(await service.live_world(game))
        service.evict(game)

        replaying, loop_ran = threading.Event(), threading.Event()
        seen: list[bool] = []
        apply = KIND.apply

        def waiting_apply(world, entry):
            if isinstance(entry, en.CommandEntry) and not seen:
                replaying.set()
                seen.append(loop_ran.wait(timeout=10))  # (a safety net, not a measure)
            return apply(world, entry)

        monkeypatch.setattr(KIND, "apply", waiting_apply)

        async def meanwhile() -> None:
            while not replaying.is_set():
                await asyncio.sleep(0.001)
            loop_ran.set()

        other = asyncio.create_task(meanwhile())
        world = await service.live_world(game)
        await other
        assert seen == [True]  # the event loop ran during the replay
        assert KIND.hash(world) == before
    finally:
        await service.close()


async def test_a_snapshot_is_taken_once_the_log_since_the_last_passes_a_size(tmp_path) -> None:
    limit = 4000
    service = await GameService.open(
        str(tmp_path / "g.db"), synchronous="NORMAL", snapshot_bytes=limit
    )
    try:
        game, ann = await duel(service)
        first = await service.store.latest_snapshot(game)
        assert first is not None
        for i in range(120):  # small commands, far fewer than `command_snapshot_every`
            await service.submit(game, ann, ClearOrders() if i % 2 else GiveOrder(text="Hold@H1"))
        snap = await service.store.latest_snapshot(game)
        assert snap is not None and snap[0] > first[0]
        tail = await service.store.log_after(game, snap[0])
        sizes = [len(json.dumps(e, separators=(",", ":"), sort_keys=True)) for _, e in tail]
        assert sum(sizes) < limit
        # the game reloads to the same state
        before = KIND.hash(await service.live_world(game))
        service.evict(game)
        assert KIND.hash(await service.live_world(game)) == before
    finally:
        await service.close()


@pytest.mark.parametrize("evicted", [False, True])
async def test_the_logs_size_since_the_snapshot_survives_a_reload(tmp_path, evicted) -> None:
    """A reload measures the log it replayed, so the size bound holds across restarts."""
    limit = 2000
    service = await GameService.open(
        str(tmp_path / "g.db"), synchronous="NORMAL", snapshot_bytes=limit
    )
    try:
        game, ann = await duel(service)
        seq = await snapshot_seq(service, game)
        n = 0
        while True:
            await service.submit(game, ann, ClearOrders() if n % 2 else GiveOrder(text="Hold@H1"))
            n += 1
            if n == 10 and evicted:
                service.evict(game)
            if await snapshot_seq(service, game) != seq:
                break
        tail = await service.store.log_after(game, seq)
        sizes = [len(json.dumps(e, separators=(",", ":"), sort_keys=True)) for _, e in tail]
        assert sum(sizes[:-1]) < limit <= sum(sizes)
    finally:
        await service.close()


async def test_a_command_larger_than_the_bound_is_snapshot_with_at_once(tmp_path) -> None:
    service = await GameService.open(
        str(tmp_path / "g.db"), synchronous="NORMAL", snapshot_bytes=40
    )
    try:
        game, ann = await duel(service)
        await service.submit(game, ann, GiveOrder(text="Hold@H1"))  # (its entry: ~70 bytes)
        snap = await service.store.latest_snapshot(game)
        assert snap is not None and snap[0] == await service.store.last_seq(game)
    finally:
        await service.close()


async def test_a_log_written_under_older_rules_still_loads(tmp_path, monkeypatch) -> None:
    """A game whose log holds commands today's rules refuse (a turn's orders past the cap of
    issue 27, given before it existed) loads all the same after the upgrade: those commands
    are left out, the rest replayed; the game is never stuck unloadable."""
    from engine.supplylines import orders

    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    try:
        game, ann = await duel(service)
        real = orders.limit
        monkeypatch.setattr(orders, "limit", lambda state, player, position=None: (50, "old"))
        for _ in range(10):  # the old rules: no cap
            await service.submit(game, ann, GiveOrder(text="Hold@H1"))
        monkeypatch.setattr(orders, "limit", real)  # the upgrade
        service.evict(game)
        kept = (await service.view(game, ann)).orders.get(ann, [])
        assert 0 < len(kept) < 10  # the cap's worth kept, the rest left out
        await service.submit(game, ann, ClearOrders())  # and it plays on
        assert not (await service.view(game, ann)).orders.get(ann)
    finally:
        await service.close()
