"""The bot's Discord traffic at scale (issue 26): requests a second by route with 1,000 games
in play, against Discord's global limit of 50 requests a second per bot token.

The real bot (`bot.client.StrategicBot`, with its ticker, notifier, status loop and AI runner)
connects to the project's fake Discord (`tests/fakediscord`) in this process, as in
`bench/bench_bot.py` (one process, one event loop for both: the fake answers in a few ms, so
the figures are what the bot asks for when Discord answers at once, the worst case for a
bot that sends one request after another; `--latency MS` delays every answer of the fake).

Setup (untimed): `--guilds` servers with `--games` / `--guilds` channels each, a game in every
channel. Each game is an 8-nation game on the default map (`bench_hosting.template_worlds`: one
map played by nobody to day 3, copied at each of its ticks), 2 AI seats (`settings.ai`, decided
by the bot's AI runner) and 6 people: distinct fake users, members of the game's server, who
receive the DMs (`--orders R`: the games' people also give R commands per game per real hour
through the bot's desk, `bench_hosting.people`; the desk answers them without Discord, so
what they add here is their consequences: events, DMs). The games are made through the
service in another process, each with its server and channel ids (so the bot posts and pins
the status there), at `--speed`, clocked so that every game's next tick is the top of a game
hour and comes due at a random moment of one tick's length after the measured window opens
(at real time 133 of 1,000 games reach a new game hour in 120 s; at blitz speed every game
does): the window holds as many hour boundaries as ticks. The outbox rows the build left are
marked delivered: the bot starts in the steady state, with every person's DM channel already
opened once on the fake's side (as for players who had the game's start by DM).

Warm-up (untimed): the bot starts, loads every game, posts and pins every status, gives every
AI seat its first decision; then, at the moment the clocks were set for, the window opens.

Scenarios, for each speed:
  (a) the window (`--seconds`): every request the bot made of the fake, by route;
  (b) a restart: the bot is stopped, `--downtime` seconds later a new one starts on the same
      database (its ticker catches up the ticks due meanwhile, its notifier tells their DMs,
      its status loop looks at every pinned status) and `--restart-seconds` are measured from
      the moment it starts; its first minute is reported apart.
`--speed` takes the preset names of `/game create` (`bot.lifecycle.SPEEDS`: real-time, fast,
blitz, test) or seconds per game hour, several separated by commas; the default measures
real time and blitz (the fastest speed players use; "test" is for tests).

Printed per scenario: requests a second by route (top 10; `POST /channels/{channel_id}/messages`
split into DMs and posts in games' channels), the busiest 1-second window (sliding, every
request, and those bound to the global limit: all but the interaction routes), the busiest
calendar second, seconds above 50, 429s, refused (4xx) requests by route and code, and
things that look wasteful: user fetches (`GET /users/{id}`), DM channels opened again for a
user, status edits that leave the text as it was. Request times are taken where the fake
logs each request (its `requests` list, wrapped here: `RequestLog` has no time of its own).

`--quick`: 40 games in 4 servers, short windows: a smoke run of the machinery."""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import logging
import multiprocessing
import os
import platform
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.bench_bot import LoopLag
from bench.bench_hosting import AI_SEATS, NATIONS, SEED, Passes, people, template_worlds, untold
from bench.stores import rss_bytes

LIMIT = 50  # Discord's global limit: requests a second per bot token
MESSAGES = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
INTERACTION_ROUTES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")


@dataclass(frozen=True)
class Options:
    games: int = 1000
    guilds: int = 50
    seconds: float = 120.0
    speeds: tuple[float, ...] = (3600.0, 300.0)
    restart_seconds: float = 90.0
    downtime: float = 30.0
    orders: float = 30.0  # the people's commands per game per real hour (bench_hosting's)
    lead: float | None = None  # seconds from the build to the window (None: by the size)
    latency: float = 0.0  # ms the fake waits before each answer
    restart: bool = True
    dump: str = ""  # a file to write every request to (JSON lines), for a closer look
    known_dm_channels: bool = False  # the bot's store knows every person's DM channel

    def lead_seconds(self) -> float:
        """Time enough to start the bot, load every game, post and pin every status (the
        status loop's first full pass comes a minute after the start) and give every AI
        seat its first decision, on a shared 2-core machine."""
        return self.lead if self.lead is not None else 60.0 + 0.18 * self.games


QUICK = Options(games=40, guilds=4, seconds=20.0, restart_seconds=30.0, downtime=5.0, lead=100.0)


# --- the request log with times ------------------------------------------------------------------


class Stamped(list):
    """The fake's request log (`fake.requests`), with the time each request came in: the
    fake appends a `RequestLog` when a request arrives and fills in its route and status
    when it has answered."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.times: list[float] = [0.0] * len(self)

    def append(self, entry: Any) -> None:
        self.times.append(time.monotonic())
        super().append(entry)


def stamp_requests(fake) -> Stamped:
    """Keep the time of every request the fake logs (its own per-entry time if it has one)."""
    log = Stamped(fake.requests)
    fake.requests = log
    return log


def delay_answers(fake, ms: float) -> None:
    """Every answer of the fake `ms` later (before its server starts: its route is bound
    then)."""
    if ms <= 0:
        return
    real = fake.rest.handle

    async def handle(request):
        response = await real(request)
        await asyncio.sleep(ms / 1000)
        return response

    fake.rest.handle = handle


# --- the figures ---------------------------------------------------------------------------------


def route_of(entry: Any) -> str:
    return f"{entry.method} {entry.template or entry.path}"


def channel_of(path: str) -> str:
    parts = path.split("/")
    return parts[2] if len(parts) > 2 and parts[1] == "channels" else ""


@dataclass
class Traffic:
    """The requests of one stretch of time, and what is known of the messages before it."""

    name: str
    start: float
    end: float
    entries: list[tuple[float, Any]]
    game_channels: set[str]
    contents: dict[str, str]  # message id -> its text as last posted or edited before `start`
    opened_before: set[str]  # users whose DM channel the bot opened before `start`
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def seconds(self) -> float:
        return max(1e-9, self.end - self.start)

    def label(self, entry: Any) -> str:
        route = route_of(entry)
        if entry.method == "POST" and entry.template == MESSAGES:
            where = "game channel" if channel_of(entry.path) in self.game_channels else "DM"
            return f"{route} ({where})"
        return route

    def by_route(self) -> Counter[str]:
        return Counter(self.label(e) for _, e in self.entries)

    def peak(self, times: list[float], window: float = 1.0) -> tuple[int, float]:
        """The most requests in any `window` seconds, and when that window began."""
        best, at = 0, self.start
        for i, t in enumerate(times):
            j = bisect.bisect_left(times, t + window, lo=i)
            if j - i > best:
                best, at = j - i, t
        return best, at

    def calendar(self, times: list[float]) -> list[int]:
        counts = [0] * max(1, int(self.seconds + 0.999))
        for t in times:
            counts[min(len(counts) - 1, int(t - self.start))] += 1
        return counts

    def report(self) -> tuple[str, dict[str, Any]]:
        times = [t for t, _ in self.entries]
        bound = [
            t for t, e in self.entries if not (e.template or "").startswith(INTERACTION_ROUTES)
        ]
        peak, at = self.peak(times)
        peak_bound, _ = self.peak(bound)
        per_second = self.calendar(bound)
        over = sum(1 for c in per_second if c > LIMIT)
        statuses = Counter(e.status for _, e in self.entries)
        refused: Counter[str] = Counter()
        for _, e in self.entries:
            if 400 <= e.status < 500:
                code = e.response.get("code") if isinstance(e.response, dict) else None
                refused[f"{e.status} {route_of(e)}" + (f" (code {code})" if code else "")] += 1
        routes = self.by_route()
        lines = [
            f"### {self.name}",
            "",
            f"{len(times)} requests in {self.seconds:.0f} s: **{len(times) / self.seconds:.1f} a "
            f"second**; busiest 1-s window **{peak}** ({at - self.start:.0f} s in), of them bound "
            f"to the global limit {peak_bound}; busiest calendar second {max(per_second)}; "
            f"seconds above {LIMIT}: {over}; 429s: {statuses.get(429, 0)}; refused (4xx): "
            f"{sum(refused.values())}",
            "",
            "| route | requests | a second | busiest 1-s window |",
            "|---|---|---|---|",
        ]
        for label, count in routes.most_common(10):
            mine = [t for t, e in self.entries if self.label(e) == label]
            lines.append(
                f"| `{label}` | {count} | {count / self.seconds:.2f} | {self.peak(mine)[0]} |"
            )
        if len(routes) > 10:
            rest = sum(c for _, c in routes.most_common()[10:])
            lines.append(
                f"| {len(routes) - 10} other routes | {rest} | {rest / self.seconds:.2f} | |"
            )
        if refused:
            lines.append("")
            lines.append("refused: " + "; ".join(f"{k} x{v}" for k, v in refused.most_common(8)))
        waste = self.waste()
        lines.append("")
        lines.append("looks wasteful: " + waste)
        for key, value in self.notes.items():
            lines.append(f"{key}: {value}")
        figures = {
            "requests": len(times),
            "rate": len(times) / self.seconds,
            "peak": peak,
            "peak_bound": peak_bound,
            "calendar_peak": max(per_second),
            "over": over,
            "429": statuses.get(429, 0),
            "refused": sum(refused.values()),
        }
        return "\n".join(lines), figures

    def waste(self) -> str:
        """Requests that look wasteful. Only requests Discord carried out are counted here
        (a 429 is counted with the 429s, and discord.py sends it again)."""
        done = [e for _, e in self.entries if 200 <= e.status < 300]
        fetches = [e for e in done if e.method == "GET" and e.template == "/users/{user_id}"]
        fetched = Counter(e.path for e in fetches)
        opens = [e for e in done if e.method == "POST" and e.template == "/users/@me/channels"]
        recipients = Counter(str((e.json or {}).get("recipient_id")) for e in opens)
        again = sum(1 for user in recipients if user in self.opened_before)
        again += sum(n - 1 for n in recipients.values())
        dms = sum(
            1
            for e in done
            if e.method == "POST"
            and e.template == MESSAGES
            and channel_of(e.path) not in self.game_channels
        )
        edits = same = 0
        contents = dict(self.contents)
        for e in done:
            if e.template == EDIT and e.method == "PATCH":
                edits += 1
                mid = e.path.rsplit("/", 1)[1]
                text = (e.json or {}).get("content")
                if text is not None and contents.get(mid) == text:
                    same += 1
                if text is not None:
                    contents[mid] = text
            elif e.template == MESSAGES and e.method == "POST" and isinstance(e.response, dict):
                contents[str(e.response.get("id"))] = (e.json or {}).get("content") or ""
        other = Counter(
            route_of(e)
            for e in done
            if (e.method, e.template)
            in {("GET", "/channels/{channel_id}"), ("GET", "/channels/{channel_id}/pins")}
        )
        parts = [
            f"{len(fetches)} user fetches (`GET /users/{{user_id}}`, {len(fetched)} users) for "
            f"{dms} DMs",
            f"{len(opens)} DM channels opened ({again} of them for a user whose DM channel the "
            f"bot had opened before)",
            f"{edits} status edits, {same} of them to the text the message already had",
        ]
        parts += [f"{n} x `{r}`" for r, n in other.items()]
        return "; ".join(parts) + " (requests Discord carried out)"


def known_before(log: Stamped, until: float, game_channels: set[str]) -> tuple[dict, set]:
    """Messages' texts and users with an opened DM channel, from the requests before `until`."""
    contents: dict[str, str] = {}
    opened: set[str] = set()
    for t, e in zip(log.times, log, strict=True):
        if t >= until:
            break
        if not 200 <= e.status < 300:
            continue
        if e.template == MESSAGES and e.method == "POST" and isinstance(e.response, dict):
            contents[str(e.response.get("id"))] = (e.json or {}).get("content") or ""
        elif e.template == EDIT and e.method == "PATCH" and (e.json or {}).get("content"):
            contents[e.path.rsplit("/", 1)[1]] = e.json["content"]
        elif e.template == "/users/@me/channels":
            opened.add(str((e.json or {}).get("recipient_id")))
    return contents, opened


def traffic(name: str, log: Stamped, start: float, end: float, channels: set[str]) -> Traffic:
    entries = [(t, e) for t, e in zip(log.times, log, strict=True) if start <= t < end]
    contents, opened = known_before(log, start, channels)
    return Traffic(name, start, end, entries, channels, contents, opened)


# --- the games ------------------------------------------------------------------------------------


def build_in_process(
    url: str, seats: list, speed: float, at: float, known: bool
) -> tuple[float, int]:
    """`build` in a process of its own (spawned: its memory is not the bot's)."""
    logging.basicConfig(level=logging.WARNING)
    return asyncio.run(build(url, seats, speed, at, known))


async def build(url: str, seats: list, speed: float, at: float, known: bool) -> tuple[float, int]:
    """A running game for each (guild id, channel id, people's user ids, their DM channels'
    ids) of `seats`, at `speed` real seconds a game hour; every game's next tick is the top
    of a game hour, due at `at` plus a random part of a tick; with `known`, the bot's store
    keeps every person's DM channel (as after the bot DMed them once; a bot without such a
    store ignores it). Returns the seconds taken and the outbox rows the build left (marked
    delivered: the bot starts in the steady state)."""
    import sqlite3

    from engine.host.service import GameService

    began = time.perf_counter()
    copies = template_worlds()
    # a copy whose tick is 3 (mod 4): its next tick begins a game hour
    aligned = [w for w in copies if w.tick % w.rules.ticks_per_hour == w.rules.ticks_per_hour - 1]
    ai = {f"n{i}": "normal" for i in range(AI_SEATS)}
    rng = random.Random(SEED)
    service = await GameService.open(url, synchronous="NORMAL")
    try:
        for g, (guild_id, channel_id, users, _) in enumerate(seats):
            world = aligned[g % len(aligned)]
            for i, user in zip(range(AI_SEATS, NATIONS), users, strict=True):
                world.nations[f"n{i}"].player = str(user)
            tick_seconds = speed / world.rules.ticks_per_hour
            game = await service.create_game(
                name=f"Traffic {g}",
                world=world,
                speed=speed,
                # the clock's anchor: the world's tick, one tick before its next is due
                now=at + rng.uniform(0, tick_seconds) - tick_seconds,
                guild_id=str(guild_id),
                channel_id=str(channel_id),
            )
            await service.update_settings(game, ai=ai)
        if known:
            from bot.store import BotStore

            keep = getattr(BotStore.of(service.store), "set_dm_channel", None)
            if keep is not None:
                for _, _, users, dms in seats:
                    for user, dm in zip(users, dms, strict=True):
                        await keep(str(user), str(dm))
    finally:
        await service.close()
    path = url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        left = db.execute(
            "UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", (time.time(),)
        ).rowcount
    return time.perf_counter() - began, left


def people_of(fake, opts: Options) -> tuple[list, set[str]]:
    """The fake's servers, channels and people: [(guild id, channel id, [user ids])] and the
    game channels' ids."""
    per_guild = max(1, -(-opts.games // opts.guilds))
    seats: list = []
    channels: set[str] = set()
    for s in range(opts.guilds):
        count = min(per_guild, opts.games - len(seats))
        if count <= 0:
            break
        guild = fake.add_guild(f"Server {s}", channels=[f"war-{c}" for c in range(count)])
        for channel in list(guild.channels.values())[:count]:
            users, dms = [], []
            for i in range(NATIONS - AI_SEATS):
                user = fake.add_user(f"p{len(seats)}-{i}")
                fake.add_member(guild, user)
                # a person the bot has DMed before (the game's start): their DM channel
                # exists on Discord's side (opening it again is free)
                dms.append(fake.dm_channel(user).id)
                if hasattr(fake, "dm_users"):
                    fake.dm_users.add(user.id)
                users.append(user.id)
            seats.append((guild.id, channel.id, users, dms))
            channels.add(str(channel.id))
    return seats, channels


def new_fake():
    """The fake Discord with every rule it has on (those of its version), errors kept."""
    from tests.fakediscord import FakeDiscord

    kwargs: dict[str, Any] = {"raise_on_errors": False}
    return FakeDiscord(**kwargs)


def settings_for(path: Path):
    from pydantic import SecretStr

    from bot.config import Settings

    # _env_file is BaseSettings' own argument (mypy reads only the fields); the rest default
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token=SecretStr("fake-token"), SI_DATABASE=str(path)
    )


# --- one speed --------------------------------------------------------------------------------


async def run_speed(opts: Options, speed: float, tmp: Path) -> list[tuple[str, dict]]:
    from bot.client import StrategicBot
    from bot.lifecycle import speed_label

    fake = new_fake()
    delay_answers(fake, opts.latency)
    results: list[tuple[str, dict]] = []
    async with fake:
        log = stamp_requests(fake)
        began = time.perf_counter()
        seats, channels = people_of(fake, opts)
        made = time.perf_counter() - began
        db = tmp / f"traffic-{int(speed)}.db"
        at = time.time() + opts.lead_seconds()
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(1, mp_context=spawn) as pool:
            took, left = await asyncio.get_running_loop().run_in_executor(
                pool, build_in_process, f"sqlite:///{db}", seats, speed, at, opts.known_dm_channels
            )
        print(
            f"\n## {speed_label(speed)} ({speed:g} s a game hour): {len(seats)} games in "
            f"{opts.guilds} servers, {len(seats) * (NATIONS - AI_SEATS)} people\n"
            f"(fake's servers and users made in {made:.1f} s; games built in {took:.0f} s in "
            f"another process, {left} outbox rows of the build marked delivered)",
            flush=True,
        )
        settings = settings_for(db)
        bot = StrategicBot(settings, background=False)
        start = time.monotonic()
        await fake.start_client(bot, timeout=600)
        assert bot.ticker is not None and bot.notifier is not None
        ticks, notes, ais = Passes(bot.ticker), Passes(bot.notifier), Passes(bot.ai)
        bot.start_background()
        while (
            not ticks.passes
            or notes.passes < 2
            or not ais.passes
            or len(bot._status_shown) < len(seats)
        ) and time.time() < at + 600:
            await asyncio.sleep(0.5)
        ready = time.monotonic() - start
        slack = at - time.time()
        print(
            f"warm-up: the bot connected, loaded every game, pinned {len(bot._status_shown)} "
            f"statuses and gave every AI seat its first decision in {ready:.0f} s "
            f"({len(log)} requests); "
            + (
                f"the window opens {slack:.0f} s later, when the first ticks come due"
                if slack >= 0
                else f"**{-slack:.0f} s late**: the ticks due meanwhile are caught up in the window"
            ),
            flush=True,
        )
        stop = asyncio.Event()
        players = await people(bot.service, len(seats), opts.orders) if opts.orders else []
        tasks = [asyncio.create_task(p.play(bot.desk, stop)) for p in players]
        await asyncio.sleep(max(0.0, at - time.time()))

        # (a) the window
        lag = LoopLag().start()
        sent0 = fake_dms(fake)
        cpu0, t0 = time.process_time(), time.monotonic()
        tick0 = await total_ticks(bot.service)
        await asyncio.sleep(opts.seconds)
        t1 = time.monotonic()
        cpu = time.process_time() - cpu0
        window = traffic(
            f"{speed_label(speed)}: {opts.seconds:.0f} s of play", log, t0, t1, channels
        )
        window.notes["what happened"] = (
            f"{await total_ticks(bot.service) - tick0} ticks advanced, {fake_dms(fake) - sent0} "
            f"DMs delivered ({await untold(bot.service)} outbox rows not told yet at the end); "
            f"people's commands: "
            f"{sum(sum(p.ok.values()) + sum(p.refused.values()) for p in players)}; the process "
            f"(fake and bot) used {100 * cpu / (t1 - t0):.0f}% of a core, event loop held at "
            f"most {lag.reset():.0f} ms; RSS {rss_bytes() / 2**20:.0f} MiB"
        )
        text, figures = window.report()
        print(text, flush=True)
        results.append((window.name, figures))
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

        # (b) a restart
        if opts.restart:
            await fake.stop_client(bot)
            await asyncio.sleep(opts.downtime)
            again = StrategicBot(settings)  # as in production: background work from the start
            t0 = time.monotonic()
            sent0 = fake_dms(fake)
            cpu0 = time.process_time()
            lag.reset()
            await fake.start_client(again, timeout=600)
            connected = time.monotonic() - t0
            await asyncio.sleep(max(0.0, opts.restart_seconds - (time.monotonic() - t0)))
            t1 = time.monotonic()
            cpu = time.process_time() - cpu0
            name = f"{speed_label(speed)}: restart after {opts.downtime:.0f} s down"
            first = traffic(f"{name}, its first minute", log, t0, min(t1, t0 + 60.0), channels)
            whole = traffic(
                f"{name}, {opts.restart_seconds:.0f} s from the start", log, t0, t1, channels
            )
            whole.notes["what happened"] = (
                f"connected and ready in {connected:.1f} s; {fake_dms(fake) - sent0} DMs "
                f"delivered; the process used {100 * cpu / (t1 - t0):.0f}% of a core, event loop "
                f"held at most {lag.reset():.0f} ms"
            )
            for part in (first, whole):
                text, figures = part.report()
                print(text, flush=True)
                results.append((part.name, figures))
            await fake.stop_client(again)
        else:
            await fake.stop_client(bot)
        await lag.stop()
        if opts.dump:
            write_log(opts.dump, log, speed)
        errors = Counter(getattr(e, "kind", type(e).__name__) for e in getattr(fake, "errors", []))
        if errors:
            print("fake's recorded errors: " + ", ".join(f"{k} x{v}" for k, v in errors.items()))
    return results


def write_log(path: str, log: Stamped, speed: float) -> None:
    """Every request of the run as a JSON line (appended): its time, speed, route, path,
    status and the text it carried."""
    import json

    with open(path, "a") as out:
        for t, e in zip(log.times, log, strict=True):
            body = e.json if isinstance(e.json, dict) else {}
            row = {
                "t": round(t, 4),
                "speed": speed,
                "method": e.method,
                "template": e.template,
                "path": e.path,
                "status": e.status,
                "content": body.get("content"),
                "recipient": body.get("recipient_id"),
            }
            out.write(json.dumps(row) + "\n")


def fake_dms(fake) -> int:
    from tests.fakediscord import ChannelType

    return sum(
        1
        for m in fake.messages.values()
        if getattr(fake.channels.get(m.channel_id), "type", None) == ChannelType.DM
    )


async def total_ticks(service) -> int:
    return sum([(await service.live_world(g.id)).tick for g in await service.games()])


# --- running it -----------------------------------------------------------------------------


async def run(opts: Options) -> int:
    print(
        f"{datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} "
        f"{platform.processor() or ''} ({os.cpu_count()} CPUs), Python "
        f"{platform.python_version()}; {opts.games} games in {opts.guilds} servers, windows of "
        f"{opts.seconds:g} s, restart after {opts.downtime:g} s measured {opts.restart_seconds:g} s"
        f"; people's commands {opts.orders:g} per game per real hour; fake's answers delayed "
        f"{opts.latency:g} ms"
        + ("; the bot's store knows every DM channel" if opts.known_dm_channels else "")
    )
    summary: list[tuple[str, dict]] = []
    from renderers import pool as drawing

    with tempfile.TemporaryDirectory(prefix="si-bench-traffic-") as tmp:
        try:
            for speed in opts.speeds:
                summary += await run_speed(opts, speed, Path(tmp))
        finally:
            await drawing.shutdown()  # the bots' picture processes
    print(f"\n## Against Discord's global limit ({LIMIT} requests a second)\n")
    print("| scenario | requests a second | busiest 1-s window | busiest second | 429s | refused |")
    print("|---|---|---|---|---|---|")
    for name, f in summary:
        print(
            f"| {name} | {f['rate']:.1f} | {f['peak']} | {f['calendar_peak']} | {f['429']} | "
            f"{f['refused']} |"
        )
    worst = max((f["peak"] for _, f in summary), default=0)
    print(
        f"\nlargest 1-s figure: {worst} requests, {100 * worst / LIMIT:.0f}% of the limit: "
        + ("under it" if worst <= LIMIT else "**over it**")
    )
    return 0


def parse_speeds(text: str) -> tuple[float, ...]:
    from bot.lifecycle import SPEEDS

    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        named = [v for k, v in SPEEDS.items() if k.split(" ")[0] == part or k == part]
        out.append(named[0] if named else float(part))
    return tuple(out)


def options(argv: list[str]) -> Options:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_discord_traffic",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    default = Options()
    parser.add_argument("--games", type=int)
    parser.add_argument("--guilds", type=int, help="servers the games are spread over")
    parser.add_argument("--seconds", type=float, help="the measured window of play")
    parser.add_argument(
        "--speed", default="real-time,blitz", help="preset names or seconds a game hour, e.g. blitz"
    )
    parser.add_argument("--restart-seconds", type=float)
    parser.add_argument("--downtime", type=float)
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--orders", type=float, help="people's commands per game per real hour")
    parser.add_argument("--lead", type=float, help="seconds from the build to the window")
    parser.add_argument("--latency", type=float, default=0.0, help="ms before each answer")
    parser.add_argument(
        "--known-dm-channels",
        action="store_true",
        help="the bot's store knows every person's DM channel (a bot that DMed them before)",
    )
    parser.add_argument("--dump", default="", help="write every request to this file")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 40 games, short windows")
    args = parser.parse_args(argv)
    base = QUICK if args.quick else default
    given = {
        "games": args.games,
        "guilds": args.guilds,
        "seconds": args.seconds,
        "restart_seconds": args.restart_seconds,
        "downtime": args.downtime,
        "orders": args.orders,
        "lead": args.lead,
    }
    opts = replace(base, **{k: v for k, v in given.items() if v is not None})
    return replace(
        opts,
        speeds=parse_speeds(args.speed),
        latency=args.latency,
        restart=not args.no_restart,
        dump=args.dump,
        known_dm_channels=args.known_dm_channels,
        guilds=min(opts.guilds, opts.games),
    )


def main() -> None:
    opts = options(sys.argv[1:])
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)  # no voice; reconnect chatter
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(asyncio.run(run(opts)))


if __name__ == "__main__":
    main()
