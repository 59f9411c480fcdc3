"""Bot processes as the operating system runs them (issue 16): two `si bot` processes
(tests/bot_child.py), each running one of two Discord shards, on one PostgreSQL store (the
kill test on SQLite too: two processes sharing one file) and one fake Discord run by the test.
Players give orders while time runs, and then:

- one process is killed (SIGKILL) in the middle of it: the other takes its game over once the
  lease has run out (ticks, DMs), hands it back when the killed one is restarted, and the game
  goes on. No acknowledged order is lost, no tick is applied twice, no DM is shown twice.
- one process is paused (SIGSTOP) past its lease, and resumed: it writes nothing more to the
  game the other took over meanwhile, and gets its game back only through the hand-back.

The store is read by the test itself (a service without a lease: it never writes). The test
waits for what it needs (a lease taken, a tick written, a DM delivered), never for a time: a
deadline only bounds each wait. Each start of a process and each takeover (a lease's length
after the lease ran out) takes seconds: `slow`."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.dm.notifier import idempotency_key
from engine.host.realtime import RealClock
from engine.host.service import GameService
from engine.interface import entries as en
from engine.interface.kind import kind as game_kind
from tests import stores
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
LEASE = 2.0  # seconds a process holds a game without renewing
SHARDS = 2

pytestmark = pytest.mark.slow


async def until(check: Callable[[], Awaitable[bool]], timeout: float, failure: str) -> None:
    """Wait until `check()` holds; fail with `failure` if it still does not after `timeout`
    seconds."""
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, failure
        await asyncio.sleep(0.1)


class BotProcess:
    """One `si bot` process serving one shard, its output in a file."""

    def __init__(self, shard: int, url: str, port: int, folder: Path) -> None:
        self.shard = shard
        self.instance = f"shard-{shard}"
        self.url = url
        self.port = port
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        env = {
            **os.environ,
            "DISCORD_TOKEN": "fake-token",
            "FAKE_DISCORD_PORT": str(self.port),
            "SI_DATABASE_URL": self.url,
            "SI_INSTANCE": self.instance,
            "SI_SHARD_IDS": str(self.shard),
            "SI_SHARD_COUNT": str(SHARDS),
            "SI_LEASE_SECONDS": str(LEASE),
            "SI_TICK_SECONDS": "0.1",
            "SI_NOTIFY_SECONDS": "0.2",
            "SI_STATUS_SECONDS": "3600",
            "SI_DRAW_WORKERS": "0",
            "SI_LOG_LEVEL": "INFO",
        }
        log = open(self.log_path, "ab")  # noqa: SIM115 - the child writes it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.bot_child"], cwd=ROOT, env=env, stdout=log, stderr=log
        )
        log.close()

    @property
    def log_path(self) -> Path:
        return self.folder / f"{self.instance}.log"

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None and self.proc.poll() is None, self.output()[-3000:]
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.kill(self.proc.pid, signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


class Table:
    """Two servers on two shards, two players each, and the processes."""

    def __init__(self, fake: FakeDiscord, url: str, folder: Path) -> None:
        self.fake = fake
        self.url = url
        self.guilds = [
            fake.add_guild(f"Server {k}", channels=["war-room"], shard=(k, SHARDS))
            for k in range(SHARDS)
        ]
        self.users = [fake.add_user(f"player{n}") for n in range(2 * SHARDS)]
        for n, user in enumerate(self.users):
            fake.add_member(self.guilds[n // 2], user)
        self.bots = [BotProcess(k, url, fake.port, folder) for k in range(SHARDS)]
        self.games: list[int] = []
        # acknowledged orders per game, in the order given: (player, command kind, its key)
        self.acked: list[list[tuple[int, str, str]]] = [[] for _ in range(SHARDS)]
        self.cities: list[dict[int, str]] = []  # game -> {player index: "x,y" of its capital}
        self._reader: GameService | None = None  # the test's own look at the store

    async def reader(self) -> GameService:
        if self._reader is None:
            self._reader = await GameService.open(self.url)
        return self._reader

    async def close(self) -> None:
        if self._reader is not None:
            await self._reader.close()

    def channel(self, k: int) -> Any:
        return next(iter(self.guilds[k].channels.values()))

    async def start(self, *shards: int) -> None:
        """Start the processes of these shards (at once), and wait until each is connected."""
        for k in shards:
            self.bots[k].start()
        await self.fake.wait_for_shards(shards, SHARDS, timeout=60)

    async def create_games(self) -> None:
        await self.fake.wait_for_commands(timeout=30)
        for k in range(SHARDS):
            first, second = self.users[2 * k], self.users[2 * k + 1]
            made = await self.fake.invoke(
                first,
                self.channel(k),
                "game create strategic-initiative",
                {"name": f"War {k}", "nations": 2, "speed": "test (x360)"},
                timeout=20,
            )
            if made.deferred:  # (a slow machine: the answer comes in a follow-up)
                await made.wait_for_followups(1)
            self.games.append(int(made.text.split("(game ")[1].split(")")[0]))
            await self.fake.invoke(first, self.channel(k), "game join", {"name": f"Red {k}"})
            joined = await self.fake.invoke(
                second, self.channel(k), "game join", {"name": f"Blue {k}"}
            )
            if joined.deferred:
                await joined.wait_for_followups(1)
            assert "has started" in joined.text, joined.text
        reader = await GameService.open(self.url)
        try:
            for game in self.games:
                world = await reader.live_world(game)
                members = await reader.members(game)
                capitals = {}
                for nation, user in members.items():
                    city = next(c for c in world.cities.values() if c.owner == nation)
                    x, y = world.grid.xy(city.sq)
                    index = next(i for i, u in enumerate(self.users) if str(u.id) == user)
                    capitals[index] = f"{x},{y}"
                self.cities.append(capitals)
        finally:
            await reader.close()

    async def dm_order(self, k: int) -> str:
        """A player of game k gives an order in their DMs with the bot, which Discord sends to
        shard 0's process: it answers (game 1's orders are carried out by shard 1's process)."""
        player = 2 * k
        channel = self.fake.dm_channel(self.users[player])
        for unit in ("engineer", "infantry"):  # (the first may be what it builds already)
            reply = await self.fake.invoke(
                self.users[player],
                channel,
                "build",
                {"city": self.cities[k][player], "unit": unit},
                timeout=8,
            )
            if "now builds" in (reply.text or ""):
                self.acked[k].append((player, "build", unit))
                break
        return reply.text or ""

    async def order(self, k: int, rng: random.Random) -> None:
        """One player of game k sets a build, or their relation to the other player (which
        the other hears of by DM): free orders, they never run out. Kept as acknowledged if
        the bot answered that it was done."""
        player = 2 * k + rng.randrange(2)
        if rng.random() < 0.6:
            command, done, key = "build", "now builds", rng.choice(["infantry", "engineer"])
            options = {"city": self.cities[k][player], "unit": key}
        else:
            command, done, key = "relation", "Your relation to", rng.choice(["war", "neutral"])
            other = ("Blue" if player % 2 == 0 else "Red") + f" {k}"
            options = {"nation": other, "level": key}
        try:
            reply = await self.fake.invoke(
                self.users[player],
                self.channel(k),
                "diplomacy" if command == "relation" else command,
                options,
                timeout=3,
            )
        except Exception:  # noqa: BLE001 - not answered (its process is down): not acknowledged
            return
        if done in (reply.text or ""):
            self.acked[k].append((player, command, key))

    async def play(self, seconds: float, games: list[int], rng: random.Random) -> None:
        """Orders in these games, a round every 0 to 0.2 s, for `seconds`."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await self.round(games, rng)

    async def round(self, games: list[int], rng: random.Random) -> None:
        """An order in each of these games at once, then a pause of 0 to 0.2 s."""
        await asyncio.gather(*(self.order(k, rng) for k in games))
        await asyncio.sleep(rng.uniform(0.0, 0.2))

    async def play_until(
        self, games: list[int], rng: random.Random, done: Callable[[], bool], what: str
    ) -> None:
        """Orders in these games, as `play` gives them, until `done()` holds."""
        deadline = time.monotonic() + 60
        while not done():
            assert time.monotonic() < deadline, f"{what}: not in 60 s of orders"
            await self.round(games, rng)

    def everyone_acked(self) -> bool:
        """Every player has had an order acknowledged."""
        return all({p for p, _, _ in self.acked[k]} >= {2 * k, 2 * k + 1} for k in range(SHARDS))

    async def one_more_order(self, games: list[int], rng: random.Random, what: str) -> None:
        """Orders until each of these games has one more acknowledged."""
        before = [len(self.acked[k]) for k in games]
        await self.play_until(
            games,
            rng,
            lambda: all(len(self.acked[k]) > n for k, n in zip(games, before, strict=True)),
            what,
        )

    async def lease_owner(self, game: int) -> str | None:
        lease = await (await self.reader()).store.lease(game)
        return None if lease is None or lease.expires < time.time() else lease.owner

    async def until_owner(self, game: int, owner: str, timeout: float) -> None:
        async def owned() -> bool:
            return await self.lease_owner(game) == owner

        await until(owned, timeout, f"{owner} never got game {game}")

    async def stored_tick(self, game: int) -> int:
        """The game's tick as the store has it (whoever runs it)."""
        reader = await self.reader()
        reader.evict(game)  # (read again from the store)
        return (await reader.summary(game)).tick

    async def until_tick_past(self, game: int, tick: int, timeout: float) -> None:
        """Wait until the game's stored tick is past `tick` (its time went on)."""

        async def past() -> bool:
            return await self.stored_tick(game) > tick

        await until(past, timeout, f"game {game}'s time never went past tick {tick}")

    async def check(self) -> None:
        """The store as the processes left it: each game's whole log replays to its stored
        world; no entry's time ran ahead of its real-time clock when it was written (a tick
        applied twice would put it ahead); each player's acknowledged orders are in the log,
        in the order given (orders logged but never acknowledged may come between); and the
        DMs (`check_dms`)."""
        reader = await GameService.open(self.url)
        try:
            for k, game in enumerate(self.games):
                # the processes still run (a tick every 2.5 s): the live copy is read first,
                # the log after it, which may hold entries written since; the replay stops at
                # the live copy's seq (the log's seqs run 1, 2, ... after the first world)
                live = await reader.live_world(game)
                live_seq = reader.seq_in_memory(game)
                assert live_seq is not None
                first, entries = await reader.history(game)
                assert len(entries) >= live_seq
                plugin = game_kind("strategic-initiative")
                logged: dict[str, list[tuple[str, str]]] = {}
                for seq, raw in enumerate(entries, 1):
                    entry = en.entry_from_json(raw)
                    if seq <= live_seq:
                        plugin.apply(first, entry)
                    if isinstance(entry, en.CommandEntry):
                        c = entry.command
                        key = c.get("unit") if c["kind"] == "build" else c.get("level")
                        logged.setdefault(entry.nation, []).append((c["kind"], str(key)))
                assert plugin.hash(first) == plugin.hash(live)
                row = await reader.game(game)
                clock = RealClock.of_row(row, plugin.ticks_per_hour(live))
                written = await stores.query(
                    reader.store,
                    "SELECT seq, tick, created_at FROM log WHERE game_id = ? ORDER BY seq",
                    (game,),
                )
                for seq, tick, at in written:
                    due = max(clock.tick_at(at) or 0, 0)  # (before the start: tick 0)
                    assert tick <= due, f"game {game} seq {seq} ran ahead"
                assert live.tick > 0
                members = await reader.members(game)
                for player in (2 * k, 2 * k + 1):
                    user = str(self.users[player].id)
                    nation = next(n for n, u in members.items() if u == user)
                    given = [(c, key) for p, c, key in self.acked[k] if p == player]
                    assert given, f"player {player} had no order acknowledged"
                    found = iter(logged.get(nation, []))
                    lost = [order for order in given if order not in found]  # (a subsequence)
                    assert not lost, f"acknowledged but not in the log: {lost}"
                await self.check_dms(reader, game)
        finally:
            await reader.close()
        for bot in self.bots:  # nothing went wrong that the processes did not expect
            assert "Traceback" not in bot.output(), bot.output()[-3000:]

    async def check_dms(self, reader: GameService, game: int) -> None:
        """Every outbox row of a player's nation is delivered (told, never lost: the test waits
        until the rows written so far are, the notifier's pass comes every 0.2 s), and every DM
        they were shown went out under the idempotency key of a claim of their rows (which is
        what keeps a DM sent again by another process, or a restart, from being shown again:
        Discord shows one message per key)."""
        members = await reader.members(game)
        shown = {  # (first: every DM shown so far has its row among those read below)
            str(u.id): [m.history[0].get("nonce") for m in self.fake.dms(u)] for u in self.users
        }
        rows: list[tuple[Any, ...]] = []

        async def delivered() -> bool:
            nonlocal rows
            rows = await stores.query(
                reader.store,
                "SELECT nation, claim_group, delivered_at FROM outbox WHERE game_id = ?",
                (game,),
            )
            return all(delivered is not None for _, _, delivered in rows)

        await until(delivered, 30, f"game {game}: outbox rows left unsent")
        for nation, user in members.items():
            keys = {
                idempotency_key("dm", game, nation, group) for n, group, _ in rows if n == nation
            }
            dms = shown[user]
            assert dms and all(key and key[:-2] in keys for key in dms), (dms, keys)


@pytest.fixture
async def table(store_url, tmp_path):
    """On both stores (the pause test: PostgreSQL only; a process frozen inside a SQLite write
    transaction holds the file's one write lock: docs/DEPLOY.md says to use PostgreSQL)."""
    url = store_url
    async with FakeDiscord(raise_on_errors=False) as fake:
        t = Table(fake, url, tmp_path)
        try:
            yield t
        finally:
            await t.close()
            for bot in t.bots:
                bot.stop()
            for bot in t.bots:
                if "Traceback" in bot.output():
                    print(f"--- {bot.instance} ---\n{bot.output()[-4000:]}")


async def test_a_killed_process_s_game_goes_on_elsewhere_and_comes_back(table) -> None:
    rng = random.Random(16)
    await table.start(0, 1)
    await table.create_games()
    await table.play_until([0, 1], rng, table.everyone_acked, "an order of every player")
    assert await table.lease_owner(table.games[0]) == "shard-0"
    # a DM order for game 1 reaches shard 0, and is carried out by shard 1 (which runs it)
    assert "now builds" in await table.dm_order(1)
    assert await table.lease_owner(table.games[1]) == "shard-1"
    status = await table.fake.invoke(
        table.users[2], table.fake.dm_channel(table.users[2]), "status", {}, timeout=5
    )
    assert status.embeds and status.embeds[0]["title"].startswith("Red 1 in War 1"), status.text
    # killed in the middle of orders and ticks
    orders = asyncio.create_task(table.play(1.5, [0, 1], rng))
    await asyncio.sleep(rng.uniform(0.2, 1.2))
    table.bots[0].kill()
    await orders
    tick = await table.stored_tick(table.games[0])
    # the survivor takes game 0 over once its lease ran out (and a lease's length more)
    await table.until_owner(table.games[0], "shard-1", timeout=6 * LEASE + 10)
    await table.one_more_order([1], rng, "shard-1's own game, meanwhile")
    # and time goes on for game 0 (its next tick may not be due yet: waited for)
    await table.until_tick_past(table.games[0], tick, timeout=30)
    # the killed process comes back: it asks for its game, and gets it
    await table.start(0)
    await table.until_owner(table.games[0], "shard-0", timeout=4 * LEASE + 15)
    await table.one_more_order([0, 1], rng, "orders on the restarted process")
    await table.check()  # (once the last DMs are out)
    assert "took over games" in table.bots[1].output()
    assert "handed games" in table.bots[1].output()


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_a_process_paused_past_its_lease_writes_nothing_when_it_wakes(table) -> None:
    rng = random.Random(17)
    await table.start(0, 1)
    await table.create_games()
    await table.play_until([0, 1], rng, table.everyone_acked, "an order of every player")
    game = table.games[0]
    table.bots[0].signal(signal.SIGSTOP)  # frozen with game 0 in memory, its lease held
    tick = await table.stored_tick(game)  # (what it last wrote)
    await table.until_owner(game, "shard-1", timeout=6 * LEASE + 10)
    await table.until_tick_past(game, tick, timeout=30)  # shard-1 moves game 0 on
    # it wakes with its old copy of game 0 in memory, and an order for game 0 waiting for it
    # (sent while it sleeps: the first thing it does, well before shard-1's next pass, a third
    # of a lease after the one that took the game, could hand the game back on its asking):
    # refused (its write fenced off, or the game found taken), never carried out
    sent = len(table.fake.interactions)
    order = asyncio.create_task(
        table.fake.invoke(
            table.users[0],
            table.channel(0),
            "build",
            {"city": table.cities[0][0], "unit": "engineer"},
            timeout=10,
        )
    )

    async def on_its_way() -> bool:
        connections = table.fake.gateway.identified()
        return len(table.fake.interactions) > sent and all(c.queue.empty() for c in connections)

    await until(on_its_way, 5, "the order was never sent")
    table.bots[0].signal(signal.SIGCONT)
    woke = await order
    assert "moving between the bot's servers" in (woke.text or ""), woke.text
    # it wakes with its old copy of game 0 and a ticker that finds ticks due: its writes are
    # refused; it asks for its game back, and gets it through the hand-back
    await table.until_owner(game, "shard-0", timeout=4 * LEASE + 15)
    await table.one_more_order([0, 1], rng, "orders on the woken process")
    await table.check()  # (once the last DMs are out)
    assert "handed games" in table.bots[1].output()
