"""The pacer of the bot's own requests (bot/pacer.py), on a fake clock: a restart's or a blitz
hour's fan-out stays within the budget, in order, with a small burst after a quiet spell; and
each shard process takes its part of the bot's budget."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.pacer import Pacer, process_share


class FakeTime:
    """A clock that moves only when someone sleeps on it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


async def test_a_thousand_requests_at_once_are_spread_at_the_rate():
    """1,000 status edits after a restart, at 25 a second: 40 s, never more than 25 (plus the
    burst) in any second, well under Discord's 50."""
    t = FakeTime()
    pacer = Pacer(25.0, clock=t, sleep=t.sleep)
    sent = []
    for _ in range(1000):
        await pacer.wait()
        sent.append(t.now)
    assert 39.5 <= sent[-1] - sent[0] <= 40.0  # 1,000 at 25 a second (the first 5 at once)
    for start in sent:
        in_a_second = sum(1 for s in sent if start <= s < start + 1.0)
        assert in_a_second <= 25 + pacer.burst
    assert max(sum(1 for s in sent if k <= s - sent[0] < k + 1) for k in range(40)) <= 30


async def test_a_quiet_bot_sends_at_once_and_a_burst_is_small():
    t = FakeTime()
    pacer = Pacer(25.0, clock=t, sleep=t.sleep)
    assert pacer.burst == 5
    for _ in range(5):  # after a quiet spell: five at once
        await pacer.wait()
    assert t.now == 1000.0
    await pacer.wait()  # the sixth waits its turn
    assert t.now == pytest.approx(1000.04)
    t.now += 60  # a minute of nothing: the burst again, no more
    before = t.now
    for _ in range(5):
        await pacer.wait()
    assert t.now == before
    await pacer.wait()
    assert t.now > before


async def test_concurrent_callers_are_served_in_order_within_the_rate():
    """The notifier, the status loop and two channel posts wait at once: in the order they
    asked, each 1/rate after the one before (once the burst is spent)."""
    loop_time = asyncio.get_running_loop().time
    pacer = Pacer(50.0, burst=1, clock=loop_time)
    order: list[tuple[int, float]] = []

    async def caller(i: int) -> None:
        await pacer.wait()
        order.append((i, loop_time()))

    await asyncio.gather(*(caller(i) for i in range(10)))
    assert [i for i, _ in order] == list(range(10))
    span = order[-1][1] - order[0][1]
    assert span >= 9 / 50 - 0.01  # 10 requests at 50/s: at least 0.18 s apart end to end


def test_each_shard_process_takes_its_part_of_the_budget():
    assert process_share(25.0, None, None) == 25.0
    assert process_share(25.0, [0, 1], 4) == 12.5
    assert process_share(25.0, [3], 4) == 6.25
    whole = Settings(_env_file=None)  # type: ignore[call-arg]
    assert whole.requests_per_second == 25.0 and whole.pace_rate == 25.0
    two = Settings.model_validate(  # as the environment gives them: text
        {"SI_REQUESTS_PER_SECOND": "40", "SI_SHARD_IDS": "0", "SI_SHARD_COUNT": "2"}
    )
    assert two.pace_rate == 20.0  # two processes of one shard each: 40 together
    with pytest.raises(ValueError):
        Settings.model_validate({"SI_REQUESTS_PER_SECOND": "0"})


def test_ready_in_says_how_long_a_request_would_wait_without_taking_a_slot():
    t = FakeTime()
    opens = Pacer(0.5, burst=5, clock=t)  # new DM channels: 5 at once, then one every 2 s
    for _ in range(5):
        assert opens.ready_in() == 0
        assert opens.reserve() == 0
    assert opens.ready_in() == pytest.approx(2.0)
    assert opens.ready_in() == pytest.approx(2.0)  # asking takes nothing
    t.now += 2.0
    assert opens.ready_in() == 0 and opens.reserve() == 0
    assert opens.ready_in() == pytest.approx(2.0)
