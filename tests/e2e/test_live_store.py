"""Bot processes as the operating system runs them, against a store they write to (issue 27):

- finding 5: `si db copy` from the store of a live bot, one process without SI_INSTANCE (so no
  leases), is refused, naming the process, its host and pid; once the bot stopped, the copy
  goes through and verifies;
- finding 7: a second process under an SI_INSTANCE already held refuses to start (before it
  logs in to Discord), saying who holds the name; once the holder was killed (SIGKILL), the
  name is taken over at once on the same machine.

Each bot is `tests/bot_child.py` (the bot as `si bot` runs it) talking to a fake Discord run
by the test. Each start of a process takes seconds: `slow`."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from engine.host.storage import open_store
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


class Bot:
    """One bot process on `url`, its output in a file."""

    def __init__(self, label: str, url: str, port: int, folder: Path, **env: str) -> None:
        self.log_path = folder / f"{label}.log"
        environment = {
            **os.environ,
            "DISCORD_TOKEN": "fake-token",
            "FAKE_DISCORD_PORT": str(port),
            "SI_DATABASE_URL": url,
            "SI_TICK_SECONDS": "0.2",
            "SI_NOTIFY_SECONDS": "0.2",
            "SI_STATUS_SECONDS": "3600",
            "SI_DRAW_WORKERS": "0",
            "SI_LOG_LEVEL": "INFO",
            **env,
        }
        if "SI_INSTANCE" not in env:
            environment.pop("SI_INSTANCE", None)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.bot_child"],
                cwd=ROOT,
                env=environment,
                stdout=log,
                stderr=log,
            )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def exited(self, timeout: float) -> int:
        try:
            return await asyncio.to_thread(self.proc.wait, timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running:\n{self.output()[-3000:]}") from None

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


async def cli(argv: list[str]) -> int:
    return await asyncio.to_thread(main, argv)


@pytest.fixture
async def fake():
    async with FakeDiscord(raise_on_errors=False) as discord:
        discord.add_guild("Wargames", channels=["war-room"])
        yield discord


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_the_copy_refuses_the_store_of_a_live_single_process_bot(
    fake, store_url, make_store_url, tmp_path, capsys
) -> None:
    bot = Bot("alone", store_url, fake.port, tmp_path)
    try:
        await fake.wait_for_shards([0], 1, timeout=60)
        target = await make_store_url()
        assert await cli(["db", "copy", store_url, target]) == 2
        err = capsys.readouterr().err
        assert (
            "error: the source store is in use by a bot process without SI_INSTANCE"
            f" (pid {bot.proc.pid} on host {socket.gethostname()}, running since "
        ) in err
        assert "stop every bot process on it" in err and "nothing copied" in err
        store = await open_store(target)
        try:
            assert await store.games() == [] and await store.processes() == []
        finally:
            await store.close()
        # a clean stop: its row goes with it (waited for in a thread: the fake Discord runs on
        # this loop, and a bot stopping may still be answered by it, a request in flight)
        await asyncio.to_thread(bot.stop, signal.SIGINT)
        assert bot.proc.returncode == 0, bot.output()[-3000:]
        assert await cli(["db", "copy", store_url, target]) == 0
        assert "verified in " in capsys.readouterr().out
    finally:
        bot.stop()
    assert "Traceback" not in bot.output()


async def test_a_second_process_of_a_name_already_held_refuses_to_start(
    fake, store_url, tmp_path
) -> None:
    first = Bot("first", store_url, fake.port, tmp_path, SI_INSTANCE="shard-0")
    second: Bot | None = None
    try:
        await fake.wait_for_shards([0], 1, timeout=60)
        second = Bot("second", store_url, fake.port, tmp_path, SI_INSTANCE="shard-0")
        assert await second.exited(timeout=60) == 2
        out = second.output()
        assert (
            "this store is in use by the bot process 'shard-0'"
            f" (pid {first.proc.pid} on host {socket.gethostname()}, running since "
        ) in out, out
        assert "give this process a name of its own (SI_INSTANCE" in out
        assert "Traceback" not in out and "cannot reach Discord" not in out
        assert len(fake.gateway.shards()) == 1  # it never logged in
        assert first.proc.poll() is None  # the holder goes on
        # the holder dies; a restart under its name takes over at once (its pid is gone)
        first.stop(signal.SIGKILL)
        second = Bot("second", store_url, fake.port, tmp_path, SI_INSTANCE="shard-0")
        store = await open_store(store_url)
        try:
            deadline = asyncio.get_running_loop().time() + 60
            while [(p.name, p.pid) for p in await store.processes()] != [
                ("shard-0", second.proc.pid)
            ]:
                assert second.proc.poll() is None, second.output()[-3000:]
                assert asyncio.get_running_loop().time() < deadline, second.output()[-3000:]
                await asyncio.sleep(0.2)
        finally:
            await store.close()
        while "has connected to Gateway" not in second.output():
            assert second.proc.poll() is None, second.output()[-3000:]
            assert asyncio.get_running_loop().time() < deadline, second.output()[-3000:]
            await asyncio.sleep(0.2)
    finally:
        first.stop()
        if second is not None:
            second.stop()
