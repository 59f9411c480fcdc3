"""The bot's own fan-out through the fake Discord goes through one pacer (bot/pacer.py): the
statuses of many games posted, pinned and edited at once (a restart, a blitz hour's turns)
stay at SI_REQUESTS_PER_SECOND (25) as the pacer lets them go, never near Discord's global 50 a
second as Discord receives them, and Discord refuses none of them."""

from __future__ import annotations

import asyncio
import time

from bot.client import StrategicBot
from tests.e2e.test_bot_e2e import settings
from tests.fakediscord import FakeDiscord
from tests.games.strategic.worlds import strip_world


class Timed(list):
    """fake.requests, with the time each request came."""

    def __init__(self, items) -> None:
        super().__init__(items)
        self.times: list[float] = []

    def append(self, item) -> None:
        self.times.append(time.monotonic())
        super().append(item)


def peak(times: list[float], window: float = 1.0) -> int:
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


async def test_many_games_statuses_at_once_stay_within_the_budget(tmp_path) -> None:
    async with FakeDiscord() as fake:
        rooms = [f"war-room-{i}" for i in range(30)]
        guild = fake.add_guild("Wargames", channels=rooms)
        bot = StrategicBot(
            settings(tmp_path, guild.id, SI_REQUESTS_PER_SECOND=25), background=False
        )
        await fake.start_client(bot, wait_for_sync=guild)
        try:
            assert bot.service is not None
            games = [
                await bot.service.create_game(
                    name=f"Game {i}",
                    world=strip_world(),
                    speed=360.0,
                    guild_id=str(guild.id),
                    channel_id=str(channel.id),
                )
                for i, channel in enumerate(guild.channels.values())
            ]
            timed = Timed([])  # the requests from now on, as Discord receives them
            fake.requests = timed
            slots: list[float] = []  # the moments the pacer lets each request go
            reserve = bot.pacer.reserve

            def noted_reserve() -> float:
                wait = reserve()
                slots.append(time.monotonic() + wait)
                return wait

            bot.pacer.reserve = noted_reserve  # type: ignore[method-assign]
            # every game's status posted and pinned at once, then edited (its clock moved)
            await asyncio.gather(*(bot.refresh_status(g) for g in games))
            for g in games:
                await bot.service.advance(g, 1)
            await asyncio.gather(*(bot.refresh_status(g) for g in games))
            mine = [r for r in timed if r.method in ("POST", "PUT", "PATCH")]
            assert len(mine) == 3 * len(games)  # post, pin, edit: each once, none refused
            assert not any(r.status == 429 for r in timed)
            for g in games:
                status = (await bot.service.game(g)).settings["status_message_id"]
                assert fake.messages[int(status)].pinned
            # 90 requests at 25 a second (5 at once after a quiet spell): over 3 s, at most
            # 30 in any second as the pacer lets them go; as Discord receives them (a busy
            # machine's event loop may deliver a few late ones together) over the same span
            # and far under its global limit of 50 a second
            assert len(slots) == len(mine)
            assert peak(slots) <= 30
            assert timed.times[-1] - timed.times[0] >= (len(timed) - 5) / 25 - 0.1
            assert peak(timed.times) < 50
        finally:
            await fake.stop_client(bot)
