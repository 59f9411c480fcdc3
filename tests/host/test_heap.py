"""The heap keeper (engine.host.heap): a process with many games keeps their bulk out of the
garbage collector's full collections, once games were loaded and every few minutes; a small
process (a test, a sandbox, a server of a few games) is left as it is."""

from __future__ import annotations

import gc

import pytest

from engine.host.heap import HeapKeeper


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # nothing of this test process stays out of its collections


async def test_games_loaded_are_frozen_and_again_only_when_more_come_or_time_passes(
    unfrozen,
) -> None:
    loaded, now = [60], [0.0]
    keeper = HeapKeeper(lambda: loaded[0], refreeze_seconds=600, clock=lambda: now[0])
    kept = [object() for _ in range(1000)]
    assert await keeper.run_once()
    assert gc.get_freeze_count() >= len(kept)  # what was alive is out of the collections
    assert not await keeper.run_once()  # nothing new: no freeze
    loaded[0] = 69
    assert not await keeper.run_once()  # fewer than `growth` (10) more
    loaded[0] = 70
    assert await keeper.run_once()  # ten more games were loaded
    now[0] = 599.0
    assert not await keeper.run_once()
    now[0] = 600.0
    assert await keeper.run_once()  # and every ten minutes
    assert keeper.freezes == 3


async def test_a_process_of_few_games_is_left_to_the_collector(unfrozen) -> None:
    keeper = HeapKeeper(lambda: 10, min_games=50)
    assert not await keeper.run_once()
    assert gc.get_freeze_count() == 0


async def test_a_process_that_will_run_many_games_freezes_before_they_load(unfrozen) -> None:
    keeper = HeapKeeper(lambda: 0, min_games=50)
    assert not keeper.begin(49)
    assert gc.get_freeze_count() == 0
    assert keeper.begin(1000)
    assert gc.get_freeze_count() > 0  # the modules' objects are out of later collections
