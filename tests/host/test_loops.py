"""`engine.loops.every`: the one shape of every background loop (a pass, survive its failure,
wait, again; a cancel ends it; an event wakes it early)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from engine.loops import every, guarded


async def until(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.005)


async def stop(task: asyncio.Task) -> None:
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=2.0)
    assert task in done and task.cancelled()


async def test_a_failing_pass_is_logged_and_the_loop_goes_on(caplog):
    calls: list[int] = []

    async def pass_() -> None:
        calls.append(len(calls))
        if len(calls) in (1, 3):
            raise OSError("database is locked")

    logger = logging.getLogger("tests.loops")
    with caplog.at_level(logging.ERROR, logger="tests.loops"):
        task = asyncio.create_task(every(0.001, pass_, name="test pass", logger=logger))
        await until(lambda: len(calls) >= 5)
        await stop(task)
    failures = [r for r in caplog.records if r.name == "tests.loops"]
    assert [r.getMessage() for r in failures] == ["test pass failed"] * 2
    assert all(r.exc_info and r.exc_info[0] is OSError for r in failures)


@pytest.mark.parametrize("where", ["pass", "wait"])
async def test_a_cancel_stops_the_loop_in_a_pass_or_in_its_wait(where):
    in_pass = asyncio.Event()
    passes = 0

    async def pass_() -> None:
        nonlocal passes
        passes += 1
        if where == "pass":
            in_pass.set()
            await asyncio.sleep(3600)
        else:
            in_pass.set()

    task = asyncio.create_task(every(3600, pass_))
    await in_pass.wait()
    await asyncio.sleep(0)
    await stop(task)
    assert passes == 1


async def test_a_cancellation_raised_by_a_pass_is_not_swallowed():
    async def pass_() -> None:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await every(0.001, pass_)
    with pytest.raises(asyncio.CancelledError):
        await guarded(pass_, "pass")


async def test_guarded_says_whether_the_pass_ended_well(caplog):
    async def good() -> None:
        return None

    async def bad() -> None:
        raise ValueError("boom")

    assert await guarded(good, "good pass") is True
    with caplog.at_level(logging.ERROR):
        assert await guarded(bad, "bad pass") is False
    assert "bad pass failed" in caplog.text


async def test_wake_ends_the_wait_early_and_is_cleared():
    wake = asyncio.Event()
    times: list[float] = []

    async def pass_() -> None:
        times.append(time.monotonic())

    task = asyncio.create_task(every(3600, pass_, wake=wake, settle=0.05))
    await until(lambda: len(times) == 1)
    woken = time.monotonic()
    wake.set()
    wake.set()  # a burst of wake-ups: one pass
    await until(lambda: len(times) == 2)
    assert times[1] - woken >= 0.05  # settled first
    assert not wake.is_set()
    await asyncio.sleep(0.15)
    assert len(times) == 2  # no further pass without a wake-up or the interval
    wake.set()
    await until(lambda: len(times) == 3)
    await stop(task)


async def test_the_interval_may_be_a_function_asked_after_each_pass():
    passes = 0
    asked: list[int] = []

    async def pass_() -> None:
        nonlocal passes
        passes += 1

    def interval() -> float:
        asked.append(passes)
        return 0.001 if passes < 3 else 3600  # quick while work is left over

    task = asyncio.create_task(every(interval, pass_))
    await until(lambda: passes == 3)
    await asyncio.sleep(0.05)
    assert passes == 3 and asked == [1, 2, 3]
    await stop(task)


async def test_wait_first_waits_an_interval_before_the_first_pass():
    passes: list[float] = []

    async def pass_() -> None:
        passes.append(time.monotonic())

    started = time.monotonic()
    task = asyncio.create_task(every(0.1, pass_, wait_first=True))
    await asyncio.sleep(0.05)
    assert passes == []
    await until(lambda: len(passes) >= 2)
    await stop(task)
    assert passes[0] - started >= 0.1 and passes[1] - passes[0] >= 0.1
