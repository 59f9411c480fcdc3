"""A bot process for the multi-process tests (tests/e2e/test_processes.py): the bot as
`si bot` runs it, from the environment (SI_DATABASE_URL, SI_INSTANCE, SI_SHARD_IDS, ...), but
talking to the fake Discord whose port is FAKE_DISCORD_PORT, run by the test's own process.

Only what tells discord.py where Discord is, and two waits of its own that a local fake does not
need (5 s between IDENTIFYs, 2 s for GUILD_CREATEs after READY), differ from production."""

from __future__ import annotations

import os
import sys


def main() -> int:
    import discord

    from bot.client import StrategicBot, run
    from tests.fakediscord.server import point_discord_py_at

    port = int(os.environ["FAKE_DISCORD_PORT"])
    point_discord_py_at(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/gateway")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None

    StrategicBot.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
    init = StrategicBot.__init__

    def quick_init(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        self._connection.guild_ready_timeout = 0.05

    StrategicBot.__init__ = quick_init  # type: ignore[method-assign]
    assert discord.version_info.major == 2
    return run()


if __name__ == "__main__":
    sys.exit(main())
