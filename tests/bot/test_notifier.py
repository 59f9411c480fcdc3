"""The notifier: outbox rows become DMs for the right player only, with settings, quiet hours,
closed DMs, rate limits, pictures and daily sitreps; and the discord.py sender."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.dm.delivery import DeliveryFailed, DmClosed, Menu, RateLimited
from bot.dm.notifier import DeliveryReport, Notifier, PlayerSettings, save_settings
from bot.store import BotStore, DmStatus
from engine.host.service import GameService
from engine.strategic import commands as cmd
from engine.strategic.scenario import build_world

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
T0 = 1_700_000_000.0 - 1_700_000_000.0 % 86400 + 12 * 3600  # noon UTC

# red sits at its power limit (classic: 5 per city, 6 infantry), blue builds freely, green is
# played by nobody (the AI), and red's tank stands next to an empty neutral city N (and M)
WORLD = {
    "ruleset": "classic",
    "seed": 3,
    "map": """
        ~~~~~~~~~~~~~~~~
        ~.A..........B.~
        ~..............~
        ~.......N.M....~
        ~..............~
        ~.G............~
        ~~~~~~~~~~~~~~~~
    """,
    "nations": {"red": {"player": "100"}, "blue": {"player": "200"}, "green": {"player": "ai"}},
    "cities": {
        "A": {"owner": "red", "designation": "fort", "build": "infantry"},
        "B": {"owner": "blue", "designation": "fort", "build": "infantry"},
        "G": {"owner": "green", "designation": "fort", "build": "infantry"},
    },
    "units": [
        *({"id": i, "owner": "red", "type": "infantry", "at": "A"} for i in range(1, 7)),
        {"id": 7, "owner": "red", "type": "tank", "at": "6,3", "mobility": 9},
    ],
}
USERS = {"red": "100", "blue": "200"}


class Clock:
    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class FakeSender:
    """Records DMs; `errors[user]` is a queue of exceptions to raise first, `closed` users
    always raise DmClosed."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, list[tuple[str, bytes]]]] = []
        self.errors: dict[str, list[Exception]] = {}
        self.closed: set[str] = set()
        self.attempts = 0
        self.nonces: set[tuple[str, str]] = set()
        self.menus: list[tuple[str, Menu]] = []  # (user, Menu) under the DMs sent
        self.deduplicated = 0

    async def __call__(
        self,
        user: str,
        content: str,
        files: list[tuple[str, bytes]],
        *,
        nonce: str | None = None,
        menus: Sequence[Menu] = (),
    ) -> None:
        self.attempts += 1
        assert len(content) <= 2000
        assert nonce is not None and len(nonce) <= 25  # Discord's limit
        if user in self.closed:
            raise DmClosed("50007: Cannot send messages to this user")
        queue = self.errors.get(user)
        if queue:
            raise queue.pop(0)
        if (user, nonce) in self.nonces:  # as Discord does with enforce_nonce: not again
            self.deduplicated += 1
            return
        self.nonces.add((user, nonce))
        self.sent.append((user, content, list(files)))
        self.menus.extend((user, m) for m in menus)

    def to(self, user: str) -> list[str]:
        return [content for u, content, _ in self.sent if u == user]

    def files(self, user: str) -> list[tuple[str, bytes]]:
        return [f for u, _, files in self.sent if u == user for f in files]


async def dm(service, user: str) -> DmStatus:
    """Whether the bot can DM this user, as recorded (a record must exist)."""
    status = await BotStore.of(service.store).get_dm_status(user)
    assert status is not None
    return status


@pytest.fixture
async def env(tmp_path):
    # the game runs from T0, and so does the service's clock (commands catch a game up to it)
    service = await GameService.open(str(tmp_path / "n.db"), synchronous="NORMAL", clock=lambda: T0)
    world, _ = build_world(WORLD)
    for nation, user in USERS.items():
        world.nations[nation].player = user
    game = await service.create_game(name="Notify", world=world, now=T0)
    assert await service.store.members(game) == USERS  # a world's players become members
    clock = Clock()
    sender = FakeSender()
    notifier = Notifier(service, sender, clock=clock)
    yield service, game, notifier, sender, clock
    await service.close()


async def pending(service, now: float = T0) -> list:
    return await service.store.pending_events(now=now)


async def test_each_nation_hears_only_its_own_events(env):
    service, game, notifier, sender, _ = env
    await service.advance(game, 32)  # 8 hours: red's build is skipped, blue and green build
    rows = await pending(service)
    assert {r.nation for r in rows} == {"red", "blue", "green"}
    report = await notifier.run_once()
    red, blue = sender.to("100"), sender.to("200")
    assert len(red) == 1 and len(blue) == 1  # one digest per nation per pass
    assert "Build skipped" in red[0] and "Notify" in red[0]
    assert "built" not in red[0]
    # the header says when in the player's own time: tick 32 at real time, 8 hours after T0
    assert f"Notify, day 1 08:00 (<t:{int(T0) + 8 * 3600}:R>)" in red[0]
    assert "built" in blue[0] and "skipped" not in blue[0].lower()
    assert {u for u, _, _ in sender.sent} == {"100", "200"}  # nothing for the AI's user
    green_rows = [r for r in rows if r.nation == "green"]
    assert report.no_player == len(green_rows) > 0
    assert report.delivered == len(rows) - len(green_rows)
    assert report.dms_sent == 2 and report.pictures == 0
    assert await pending(service) == []
    assert (await dm(service, "100")).status == "ok"
    assert await notifier.run_once() == DeliveryReport()  # nothing twice


async def test_muted_categories_are_marked_delivered_without_a_dm(env):
    service, game, notifier, sender, _ = env
    await save_settings(BotStore.of(service.store), "100", PlayerSettings(muted=["builds"]))
    await service.advance(game, 32)
    report = await notifier.run_once()
    assert sender.to("100") == [] and len(sender.to("200")) == 1
    assert report.skipped_muted == 1
    assert await pending(service) == []


def test_settings_are_validated():
    with pytest.raises(ValueError, match="unknown categories"):
        PlayerSettings(muted=["gossip"])
    with pytest.raises(ValueError, match="both"):
        PlayerSettings(quiet_from=22)
    with pytest.raises(ValueError):
        PlayerSettings(quiet_from=24, quiet_to=3)
    # 22:00 to 07:00 local time, two hours east of UTC
    s = PlayerSettings(quiet_from=22, quiet_to=7, utc_offset=120)
    midnight = T0 - 12 * 3600
    assert s.quiet_until(midnight + 19 * 3600) is None  # 21:00 local
    assert s.quiet_until(midnight + 20 * 3600) == midnight + 29 * 3600  # 22:00 local -> 07:00
    assert s.quiet_until(midnight + 3 * 3600) == midnight + 5 * 3600  # 05:00 local -> 07:00
    assert s.quiet_until(midnight + 5 * 3600) is None  # 07:00 local


async def test_quiet_hours_hold_events_until_the_window_ends(env):
    service, game, notifier, sender, clock = env
    await save_settings(
        BotStore.of(service.store), "100", PlayerSettings(quiet_from=11, quiet_to=14)
    )
    await service.advance(game, 32)
    report = await notifier.run_once()
    assert sender.to("100") == [] and len(sender.to("200")) == 1
    assert report.held_quiet == 1
    assert await pending(service, T0) == []  # held, not failed
    clock.t = T0 + 3600  # 13:00: still quiet
    assert (await notifier.run_once()).dms_sent == 0
    clock.t = T0 + 2 * 3600  # 14:00: the window is over
    report = await notifier.run_once()
    assert report.delivered == 1 and "Build skipped" in sender.to("100")[0]


async def test_closed_dms_are_recorded_and_retried_once_an_hour(env):
    service, game, notifier, sender, clock = env
    sender.closed.add("100")
    await service.advance(game, 32)
    report = await notifier.run_once()
    assert report.closed == 1 and len(sender.to("200")) == 1
    status = await dm(service, "100")
    assert status.status == "closed" and "50007" in (status.detail or "") and status.since == T0
    [(attempts, error)] = await service.store.query(
        "SELECT attempts, last_error FROM outbox WHERE nation = 'red'"
    )
    assert attempts == 1 and error.startswith("closed")
    # more events for red in the hour (a new skip once red changed its build; the changes
    # themselves were told in red's replies): not even tried
    await service.submit(game, "red", cmd.SetBuild(city=(2, 1), unit="engineer"))
    await service.submit(game, "red", cmd.SetBuild(city=(2, 1), unit="infantry"))
    await service.advance(game, 32)
    tries = sender.attempts
    clock.t = T0 + 1800
    report = await notifier.run_once()
    # the new rows held (the skip, and red's two build changes its replies told); blue told
    assert report.closed == 3 and sender.attempts == tries + 1
    # an hour later it is tried again; the user opened the DMs meanwhile
    sender.closed.clear()
    clock.t = T0 + 3601
    report = await notifier.run_once()
    assert report.delivered == 4 and report.answered == 2 and len(sender.to("100")) == 1
    assert "engineer" not in sender.to("100")[0].lower()  # only the skips: one DM
    assert (await dm(service, "100")).status == "ok"


async def test_rate_limits_and_failures_wait_before_the_next_attempt(env):
    """A 429 is tried again no sooner than Discord's retry_after; a 5xx after a back-off of
    2 s; meanwhile no pass tries them (no request Discord would refuse again)."""
    service, game, notifier, sender, clock = env
    sender.errors["100"] = [RateLimited(retry_after=30.0)]
    sender.errors["200"] = [DeliveryFailed("503")]
    await service.advance(game, 32)
    report = await notifier.run_once()
    assert report.failed == 2 and sender.sent == [] and sender.attempts == 2
    assert (await dm(service, "200")).status == "failing"
    report = await notifier.run_once()  # at once: nothing is tried
    assert sender.attempts == 2 and report.delivered == 0
    clock.t = T0 + 2.5  # the 5xx's back-off is over, not the 429's retry_after
    report = await notifier.run_once()
    assert report.delivered == 1 and sender.to("200") and not sender.to("100")
    assert (await dm(service, "200")).status == "ok"
    clock.t = T0 + 29
    assert (await notifier.run_once()).delivered == 0 and sender.attempts == 3
    clock.t = T0 + 30.5
    report = await notifier.run_once()
    assert report.delivered == 1 and len(sender.to("100")) == 1
    assert await pending(service, now=T0 + 31) == []


async def test_a_dm_is_not_lost_in_a_discord_outage(env):
    """Discord fails every DM for 30 s, then for 2 hours: the reports wait (a back-off of
    2 s doubling to 5 minutes), each goes out once Discord is back, and the same DM is tried
    under the same idempotency key (not shown twice if a failed attempt got through)."""
    service, game, notifier, sender, clock = env
    nonces: list[str | None] = []
    real = sender.__call__
    outage_until = [T0 + 30]

    async def flaky(user, content, files, *, nonce=None, menus=()):
        nonces.append(nonce)
        if clock.t < outage_until[0]:
            sender.attempts += 1
            raise DeliveryFailed("503: Service Unavailable")
        await real(user, content, files, nonce=nonce, menus=menus)

    notifier.send = flaky
    await service.advance(game, 32)
    tries = []
    while clock.t < T0 + 120 and not sender.to("100"):
        report = await notifier.run_once()
        tries.append(report.failed)
        clock.t += 2  # a pass every 2 s, as the bot runs it
    assert len(sender.to("100")) == 1 and len(sender.to("200")) == 1
    # 2 + 4 + 8 + 16 s of back-off: 5 attempts each over the 30 s, not one a pass
    assert sender.attempts <= 2 * 6
    assert len(set(n for n in nonces if n)) == 2  # each DM under one key, however often tried

    # a long outage: two hours (blue's next build); nothing given up (SI_DM_RETRY_HOURS: 6)
    await service.advance(game, 32)
    start = clock.t
    outage_until[0] = start + 2 * 3600
    tried = sender.attempts
    while clock.t < start + 2 * 3600 + 400:
        await notifier.run_once(sitreps=False)
        clock.t += 10
    assert len(sender.to("200")) == 2
    # at most one attempt every 5 minutes after the first few (not one a pass: 700)
    assert sender.attempts - tried < 8 + 2 * 3600 / 300 + 2


async def test_a_dm_is_given_up_only_after_the_retry_horizon(tmp_path):
    service = await GameService.open(str(tmp_path / "h.db"), synchronous="NORMAL")
    try:
        world, _ = build_world(WORLD)
        for nation, user in USERS.items():
            world.nations[nation].player = user
        game = await service.create_game(name="Horizon", world=world, now=T0)
        clock = Clock()
        sender = FakeSender()
        notifier = Notifier(service, sender, clock=clock, retry_horizon=3600.0)
        await service.advance(game, 32)
        sender.errors["100"] = [DeliveryFailed("502")] * 1000
        first = None
        while clock.t < T0 + 2 * 3600:
            await notifier.run_once(sitreps=False)
            left = await service.store.query(
                "SELECT COUNT(*) FROM outbox WHERE nation = 'red' AND delivered_at IS NULL"
                " AND attempts < ?",
                (notifier.max_attempts,),
            )
            if left[0][0] == 0 and first is None:
                first = clock.t  # given up
            clock.t += 10
        assert first is not None and T0 + 3600 <= first < T0 + 3600 + 600
    finally:
        await service.close()


async def test_a_captured_city_comes_with_a_map_picture(env):
    """A capture the AI caretaker made while the player was away is the player's news, with
    a map picture (one the player ordered was told by its reply: the next test)."""
    service, game, notifier, sender, _ = env
    await service.update_settings(game, ai={"red": "caretaker"})
    await service.submit(game, "red", cmd.Move(units=[7], to=(7, 3)))  # now it sees the city
    await service.store.mark_delivered([r.id for r in await pending(service)])
    result = await service.submit(game, "red", cmd.Attack(units=[7], target=(8, 3)))
    assert any(e.kind == "CityCaptured" for e in result.events)
    report = await notifier.run_once()
    assert report.pictures == 1
    (dm,) = sender.to("100")
    assert "You captured 8,3" in dm
    ((name, data),) = sender.files("100")
    assert name == "map.png" and data.startswith(PNG_MAGIC)
    assert sender.files("200") == []
    # a player who wants no pictures gets the text only
    await save_settings(BotStore.of(service.store), "100", PlayerSettings(pictures=False))
    await service.submit(game, "red", cmd.Move(units=[7], to=(9, 3)))
    await service.store.mark_delivered([r.id for r in await pending(service)])
    result = await service.submit(game, "red", cmd.Attack(units=[7], target=(10, 3)))
    assert any(e.kind == "CityCaptured" for e in result.events)
    report = await notifier.run_once()
    assert report.pictures == 0 and "You captured 10,3" in sender.to("100")[1]
    assert len(sender.files("100")) == 1


async def test_a_capture_the_player_ordered_is_told_once_by_its_reply(env):
    """Issue 29: the reply to /attack says the capture (and what it cost the unit); no DM
    repeats it."""
    service, game, notifier, sender, _ = env
    await service.submit(game, "red", cmd.Move(units=[7], to=(7, 3)))
    await service.store.mark_delivered([r.id for r in await pending(service)])
    result = await service.submit(game, "red", cmd.Attack(units=[7], target=(8, 3)))
    assert any(e.kind == "CityCaptured" for e in result.events)
    report = await notifier.run_once()
    assert sender.to("100") == [] and report.answered >= 1 and report.pictures == 0


async def test_what_a_players_own_command_did_is_not_told_again_by_dm(env):
    service, game, notifier, sender, _ = env
    # red's own orders: their replies said it all (a new build, war declared)
    await service.submit(game, "red", cmd.SetBuild(city=(2, 1), unit="engineer"))
    await service.submit(game, "red", cmd.SetRelation(other="blue", level="war"))
    report = await notifier.run_once()
    assert sender.to("100") == [] and report.answered >= 2
    assert await pending(service) == []
    # blue did nothing itself: it is told of red's change towards it
    (told,) = sender.to("200")
    assert "Red" in told
    # what happens later to red's orders is news again (a skipped build on its own)
    await service.submit(game, "red", cmd.SetBuild(city=(2, 1), unit="infantry"))
    await service.advance(game, 32)
    await notifier.run_once()
    (later,) = sender.to("100")
    assert "Build skipped" in later and "engineer" not in later.lower()


async def test_a_sitrep_once_per_game_day(env):
    service, game, notifier, sender, clock = env
    await save_settings(BotStore.of(service.store), "200", PlayerSettings(sitrep=False))
    await notifier.run_once()  # day 1: the count starts
    assert sender.sent == []
    await service.advance(game, 96)  # day 2
    await service.store.mark_delivered([r.id for r in await pending(service)])
    report = await notifier.run_once()
    assert report.sitreps == 1 and sender.to("200") == []
    (text,) = sender.to("100")
    assert "Situation report" in text and "Cities 1" in text and "Units 7" in text
    ((name, data),) = sender.files("100")
    assert name == "sitrep.png" and data.startswith(PNG_MAGIC)
    assert (await notifier.run_once()).sitreps == 0  # once a day
    await service.advance(game, 40)
    await service.store.mark_delivered([r.id for r in await pending(service)])
    assert (await notifier.run_once()).sitreps == 0  # still day 2
    await service.advance(game, 56)
    await service.store.mark_delivered([r.id for r in await pending(service)])
    # day 3 in quiet hours: skipped, not held
    await save_settings(
        BotStore.of(service.store), "100", PlayerSettings(quiet_from=0, quiet_to=23)
    )
    assert (await notifier.run_once()).sitreps == 0
    await save_settings(BotStore.of(service.store), "100", PlayerSettings())
    assert (await notifier.run_once()).sitreps == 0
    assert len(sender.to("100")) == 1


async def test_discord_sender_against_a_fake_discord():
    import discord

    from bot.dm.delivery import discord_sender
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fake:
        alice = fake.add_user("alice")
        bob = fake.add_user("bob")
        client = discord.Client(intents=discord.Intents.default())
        await fake.start_client(client)
        send = discord_sender(client)
        await send(str(alice.id), "hello", [("map.png", PNG_MAGIC + b"rest")])
        dm = await fake.wait_for_dm(alice, timeout=2)
        assert dm.content == "hello" and dm.file("map.png").data == PNG_MAGIC + b"rest"
        fake.close_dms(bob)
        with pytest.raises(DmClosed):
            await send(str(bob.id), "hello", [])
        assert fake.dms(bob) == []
        await fake.stop_client(client)


async def test_game_start_goes_out_even_in_quiet_hours(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    try:
        game = await service.create_game(name="Lobby", max_nations=2, width=40, height=40, seed=5)
        await save_settings(
            BotStore.of(service.store), "100", PlayerSettings(quiet_from=0, quiet_to=23)
        )
        await service.join(game, name="Red", colour="#c0392b", player="100")
        await service.join(game, name="Blue", colour="#2e86c1", player="200")  # full: starts
        sender = FakeSender()
        report = await Notifier(service, sender, render=False, clock=Clock()).run_once()
        assert report.held_quiet > 0  # the joins wait for the morning
        (red,) = sender.to("100")
        assert "The game has started" in red and "joined" not in red
        # blue's own joining came with the start: its welcome first, then the start
        welcome, start = sender.to("200")
        assert "Welcome to Lobby, Blue!" in welcome and "It has started" in welcome
        assert "The game has started" in start
    finally:
        await service.close()


async def test_release_delivers_held_events_at_once(env):
    service, game, notifier, sender, clock = env
    await save_settings(
        BotStore.of(service.store), "100", PlayerSettings(quiet_from=11, quiet_to=14)
    )
    await service.advance(game, 32)
    assert (await notifier.run_once()).held_quiet == 1
    await save_settings(
        BotStore.of(service.store), "100", PlayerSettings()
    )  # the player drops quiet hours
    assert await notifier.release("100") == 1
    assert (await notifier.run_once()).delivered == 1 and len(sender.to("100")) == 1


async def test_run_forever_survives_a_failing_pass_and_cancels_cleanly(env, monkeypatch):
    import asyncio

    service, game, notifier, sender, _ = env
    real = service.store.pending_events
    calls = {"n": 0}

    async def pending_events(**kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("database is locked")
        return await real(**kwargs)

    monkeypatch.setattr(service.store, "pending_events", pending_events)
    service.subscribe(notifier.wake)  # commits wake the notifier up before its interval
    task = asyncio.create_task(notifier.run_forever(interval=30.0))
    while calls["n"] < 1:
        await asyncio.sleep(0.01)
    await service.advance(game, 32)
    for _ in range(300):
        if len(sender.sent) == 2:
            break
        await asyncio.sleep(0.01)
    assert len(sender.sent) == 2 and calls["n"] == 2 and not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


# --- many idle games: what a pass costs, pruning, restarts -----------------------------------------


class StoreCalls:
    """Counts what reaches the store: its methods called (by name, through `proxy`) and the
    jobs handed to its database thread (`trips`, whoever asked)."""

    def __init__(self, store, monkeypatch) -> None:
        from collections import Counter

        self.calls: Counter[str] = Counter()
        self.trips = 0
        for name in ("read", "write"):
            real = getattr(store.db, name)

            async def counted(*args, _real=real, **kwargs):
                self.trips += 1
                return await _real(*args, **kwargs)

            monkeypatch.setattr(store.db, name, counted)
        self.proxy = self.proxy_of(store)

    def proxy_of(self, target):
        """`target` with each method call counted by name (the games store, the bot's)."""
        calls = self.calls

        class Proxy:
            def __getattr__(self, name):
                value = getattr(target, name)
                if callable(value):

                    def call(*args, **kwargs):
                        calls[name] += 1
                        return value(*args, **kwargs)

                    return call
                return value

        return Proxy()

    def reset(self) -> None:
        self.calls.clear()
        self.trips = 0


async def test_a_pass_over_idle_games_costs_no_store_round_trip_per_game(tmp_path, monkeypatch):
    service = await GameService.open(str(tmp_path / "idle.db"), synchronous="NORMAL")
    try:
        games = []
        for i in range(12):
            world, _ = build_world(WORLD)
            for nation, user in USERS.items():
                world.nations[nation].player = f"{user}{i}"
            games.append(await service.create_game(name=f"Idle {i}", world=world, now=T0))
        sender = FakeSender()
        notifier = Notifier(service, sender, render=False, clock=Clock())
        counted = StoreCalls(service.store, monkeypatch)
        notifier.store = counted.proxy
        notifier.bot = counted.proxy_of(BotStore.of(service.store))
        await notifier.run_once()  # the first look: every game's sitrep day is recorded
        assert counted.calls["members"] == 12
        summaries: list[int] = []
        summary = service.summary

        async def asked(game_id: int):
            summaries.append(game_id)
            return await summary(game_id)

        service.summary = asked  # type: ignore[method-assign]
        await notifier.run_once()  # (the games' next ticks are noted at this look)
        for _ in range(3):
            counted.reset()
            summaries.clear()
            assert await notifier.run_once() == DeliveryReport()
            # the pending rows of all games (one query) and the running games (one query)
            assert counted.trips <= 2, counted.calls
            # nothing happened in any game since the last pass: none is asked anything
            # (`GameService.watch`), not even its members' version
            assert set(counted.calls) <= {"pending_events"}, counted.calls
            assert summaries == []  # no game moved on: none is asked for its day
        # one game has something to tell: only that one is looked at, the others cost nothing
        await service.advance(games[3], 32)
        counted.reset()
        report = await notifier.run_once()
        assert report.dms_sent == 2 and {u for u, _, _ in sender.sent} == {"1003", "2003"}
        assert counted.calls["members"] == 1
        # a new game day in one game: its sitreps, nobody else's
        await service.store.mark_delivered([r.id for r in await pending(service)])
        await service.advance(games[5], 96 - 32)  # the others stay on day 1 ...
        await service.advance(games[5], 32)
        await service.store.mark_delivered([r.id for r in await pending(service)])
        sender.sent.clear()
        counted.reset()
        report = await notifier.run_once()
        assert report.sitreps == 2 and {u for u, _, _ in sender.sent} == {"1005", "2005"}
        assert counted.calls["sitreps"] == 1 and counted.calls["members"] == 1
        counted.reset()
        assert (await notifier.run_once()).sitreps == 0 and counted.trips <= 2
    finally:
        await service.close()


async def test_a_new_game_day_brings_sitreps_with_nothing_to_wake_the_notifier(env):
    import asyncio

    service, game, notifier, sender, _ = env
    # nobody subscribed the notifier to the service: only its own passes find the new day
    task = asyncio.create_task(notifier.run_forever(interval=0.01, settle=0))
    try:
        for _ in range(100):
            await asyncio.sleep(0.01)
            if (game, "red") in notifier._sitrep_days:  # the first look was taken
                break
        await service.advance(game, 96)  # day 2

        def sitreps(user: str) -> list[str]:
            return [t for t in sender.to(user) if "Situation report" in t]

        for _ in range(300):
            if sitreps("100") and sitreps("200"):
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)  # more passes: still one a day
        assert len(sitreps("100")) == 1 and len(sitreps("200")) == 1
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_new_player_gets_the_next_days_sitrep(env):
    """A member added in the middle of a day (green, the AI's, handed to a person): the game is
    looked at again at once, so the new player's count starts that day, not the next."""
    service, game, notifier, sender, _ = env
    await notifier.run_once()  # day 1: red and blue counted
    await service.substitute(game, "green", "300")
    await service.store.mark_delivered([r.id for r in await pending(service)])
    await notifier.run_once()  # no new day, but new members: green is counted from day 1
    await service.advance(game, 96)
    await service.store.mark_delivered([r.id for r in await pending(service)])
    report = await notifier.run_once()
    assert report.sitreps == 3 and "Situation report" in sender.to("300")[0]


async def test_pending_and_held_rows_are_delivered_after_a_restart(tmp_path):
    import asyncio

    path = str(tmp_path / "restart.db")
    service = await GameService.open(path, synchronous="NORMAL")
    world, _ = build_world(WORLD)
    for nation, user in USERS.items():
        world.nations[nation].player = user
    game = await service.create_game(name="Restart", world=world, now=T0)
    await save_settings(
        BotStore.of(service.store), "100", PlayerSettings(quiet_from=11, quiet_to=14)
    )
    sender = FakeSender()
    sender.errors["200"] = [RateLimited(retry_after=1.0)]
    await service.advance(game, 32)
    report = await Notifier(service, sender, render=False, clock=Clock()).run_once()
    assert report.held_quiet == 1 and report.failed == 1 and sender.sent == []
    await service.advance(game, 32)  # more rows that no notifier has seen
    waiting = await service.store.query("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
    await service.close()

    service = await GameService.open(path, synchronous="NORMAL")  # a new process
    try:
        assert (
            await service.store.query("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
            == waiting
        )
        sender = FakeSender()
        after_quiet = Clock(T0 + 2 * 3600)  # red's quiet hours are over
        notifier = Notifier(service, sender, render=False, clock=after_quiet)
        task = asyncio.create_task(notifier.run_forever(interval=0.01, settle=0))  # no wake
        try:
            for _ in range(300):
                left = await service.store.query(
                    "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"
                )
                if left == [(0,)]:
                    break
                await asyncio.sleep(0.01)
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        assert left == [(0,)]
        red, blue = sender.to("100"), sender.to("200")
        assert red and blue and "Build skipped" in red[0] and "built" in blue[0]
    finally:
        await service.close()


async def test_prune_deletes_rows_delivered_or_given_up_before_the_retention(env):
    service, game, notifier, _, clock = env
    await service.advance(game, 96 * 2)
    rows = await pending(service)
    assert len(rows) >= 9
    ids = [r.id for r in rows]
    week = 7 * 86400
    old, recent, held, failed = ids[0:2], ids[2:4], ids[4:5], ids[5:6]
    given_up, given_up_lately = ids[6:7], ids[7:8]
    untouched = ids[8:]

    async def written(at: float, row_ids: list[int]) -> None:
        await service.store.db.write(
            lambda c: (
                c.executemany(
                    "UPDATE outbox SET created_at = ? WHERE id = ?", [(at, i) for i in row_ids]
                ).rowcount
            )
        )

    await written(T0 - 10 * week, ids)  # every row written long ago, but
    await written(T0 - week + 60, given_up_lately)  # this one a little less than a week ago
    await service.store.mark_delivered(old, now=T0 - week - 1)
    await service.store.mark_delivered(recent, now=T0 - week + 60)
    await service.store.hold(held, T0 - 1)  # held long ago, still not delivered
    await service.store.mark_failed(failed, "rate limited")
    for _ in range(notifier.max_attempts):
        await service.store.mark_failed(given_up + given_up_lately, "503")
    notifier.retention = week
    assert await notifier.prune() == len(old) + len(given_up)
    left = {r[0] for r in await service.store.query("SELECT id FROM outbox")}
    assert left == set(ids) - set(old) - set(given_up)
    assert {r.id for r in await pending(service)} == set(held + failed + untouched)
    clock.t = T0 + 120  # a little later the recent ones are a week old too
    assert await notifier.prune(batch=1) == len(recent) + len(given_up_lately)  # a row at a time
    left = {r[0] for r in await service.store.query("SELECT id FROM outbox")}
    assert left == set(held + failed + untouched)  # rows still to send are never deleted
    notifier.retention = None  # kept for ever
    await service.store.mark_delivered(untouched, now=T0 - 10 * week)
    assert await notifier.prune() == 0


async def test_run_forever_prunes_now_and_then(env):
    import asyncio

    service, game, notifier, _, clock = env
    await service.advance(game, 32)
    rows = await pending(service)
    await service.store.mark_delivered([r.id for r in rows], now=T0 - 8 * 86400)
    notifier.prune_every = 3600
    task = asyncio.create_task(notifier.run_forever(interval=0.01, settle=0))
    try:
        for _ in range(300):
            if await service.store.query("SELECT COUNT(*) FROM outbox") == [(0,)]:
                break
            await asyncio.sleep(0.01)
        assert await service.store.query("SELECT COUNT(*) FROM outbox") == [(0,)]
        # new rows delivered long ago are pruned only at the next prune time (an hour later)
        await service.advance(game, 32)
        await asyncio.sleep(0.05)
        rows = await service.store.query("SELECT id FROM outbox")
        assert rows
        await service.store.mark_delivered([r[0] for r in rows], now=T0 - 8 * 86400)
        await asyncio.sleep(0.05)
        assert len(await service.store.query("SELECT id FROM outbox")) == len(rows)
        clock.t = T0 + 3601
        for _ in range(300):
            if await service.store.query("SELECT COUNT(*) FROM outbox") == [(0,)]:
                break
            await asyncio.sleep(0.01)
        assert await service.store.query("SELECT COUNT(*) FROM outbox") == [(0,)]
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_the_notifier_end_to_end_on_either_backend(store_url):
    """A game on SQLite or on PostgreSQL, through the service, the notifier and a fake sender:
    each DM sent once (also by a restarted process), players' settings respected (muted, no
    sitrep, quiet hours), the DM status recorded, a sitrep once per game day, and /news kept."""
    service = await GameService.open(store_url, synchronous="NORMAL", clock=lambda: T0)
    world, _ = build_world(WORLD)
    for nation, user in USERS.items():
        world.nations[nation].player = user
    game = await service.create_game(name="Both", world=world, now=T0)
    clock, sender = Clock(), FakeSender()
    notifier = Notifier(service, sender, clock=clock, render=False)
    bot = BotStore.of(service.store)
    await save_settings(bot, "200", PlayerSettings(muted=["builds"], sitrep=False))
    assert (await notifier.run_once()).sitreps == 0  # day 1: the count starts
    await service.advance(game, 32)  # red's build skipped, blue's built (muted)
    report = await notifier.run_once()
    assert report.skipped_muted > 0 and sender.to("200") == []
    (red,) = sender.to("100")
    assert "Build skipped" in red and "Both" in red
    assert (await dm(service, "100")).status == "ok"
    assert [r.text for r in await bot.news(game, "100", 5)] == [red]
    assert await notifier.run_once() == DeliveryReport()  # nothing twice
    # quiet hours: red's next skip is held, then told once the window ends
    await save_settings(bot, "100", PlayerSettings(quiet_from=11, quiet_to=14))
    await service.submit(game, "red", cmd.SetBuild(city=(2, 1), unit="engineer"))
    await service.submit(game, "red", cmd.SetBuild(city=(2, 1), unit="infantry"))
    await service.advance(game, 32)
    assert (await notifier.run_once()).held_quiet >= 1 and len(sender.to("100")) == 1
    clock.t = T0 + 2 * 3600
    assert (await notifier.run_once()).delivered >= 1
    assert len(sender.to("100")) == 2 and "Build skipped" in sender.to("100")[1]
    # day 2: one sitrep, for red only (blue said no)
    await service.advance(game, 32)
    await service.store.mark_delivered([r.id for r in await pending(service, clock.t)])
    report = await notifier.run_once()
    assert report.sitreps == 1 and report.dms_sent == 1
    assert "Situation report" in sender.to("100")[-1] and sender.to("200") == []
    days = await bot.sitreps(game)  # the day told (or passed over), per nation
    assert set(days) == {"red", "blue"} and days["red"] == days["blue"] > 0
    assert (await notifier.run_once()).sitreps == 0  # once a day
    sent = list(sender.sent)
    await service.close()
    # another process (or this one restarted) on the same database sends nothing again
    service = await GameService.open(store_url, synchronous="NORMAL")
    try:
        again = Notifier(service, sender, clock=clock, render=False)
        assert await again.run_once() == DeliveryReport()
        assert sender.sent == sent
        assert await BotStore.of(service.store).sitreps(game) == days
        assert await BotStore.of(service.store).get_player_settings("200") != {}
    finally:
        await service.close()


class Crash(BaseException):
    """The process dies (not an error the notifier would catch and record)."""


async def test_dms_of_a_notifier_that_died_after_sending_are_not_shown_twice(tmp_path):
    """Two processes on one store (issue 16). The first sends its DMs and dies before it marks
    the rows delivered; once its claim runs out, the second takes the rows over and sends the
    same DMs under the same idempotency keys, which Discord (here the sender) does not show
    again. Rows written meanwhile go out as a DM of their own."""
    path = str(tmp_path / "shared.db")
    clock = Clock()
    first = await GameService.open(path, synchronous="NORMAL", owner="p1", clock=clock)
    second = await GameService.open(path, synchronous="NORMAL", owner="p2", clock=clock)
    try:
        world, _ = build_world(WORLD)
        for nation, user in USERS.items():
            world.nations[nation].player = user
        game = await first.create_game(name="Notify", world=world, now=T0)
        await first.advance(game, 32)
        discord = FakeSender()  # what players see, whichever process sends
        dying = Notifier(first, discord, render=False, clock=clock, claim_seconds=60)

        mark = dying.store.mark_delivered

        async def dies(ids, **kwargs) -> None:  # dies right after its DMs went out
            if discord.sent:
                raise Crash
            await mark(ids, **kwargs)

        dying.store.mark_delivered = dies
        with pytest.raises(Crash):
            await dying.run_once()
        seen = list(discord.sent)
        assert seen  # a DM went out before the process died
        survivor = Notifier(second, discord, render=False, clock=clock, claim_seconds=60)
        report = await survivor.run_once()
        assert report.dms_sent == 0 and discord.sent == seen  # still claimed by the dead one
        clock.t += 61
        await first.release_leases()  # (the dead process's game passes on)
        await second.advance(game, 32)  # new events while the first one's rows wait
        report = await survivor.run_once()
        assert discord.deduplicated >= 1  # the DM sent again, under the same key
        assert await second.store.pending_events(now=clock.t) == []  # all told
        texts = [t for _, t, _ in discord.sent]
        assert len(texts) == len(set(texts))  # nobody saw a message twice
        assert texts[: len(seen)] == [t for _, t, _ in seen]
        assert len(texts) > len(seen)  # the new events came as DMs of their own
    finally:
        await first.close()
        await second.close()


async def test_a_notifier_paused_past_its_claim_sends_nothing_more(env):
    service, game, notifier, sender, clock = env
    await service.advance(game, 32)
    real_send = notifier.send
    calls = 0

    async def slow(user, content, files, *, nonce=None):  # paused after the first DM
        nonlocal calls
        calls += 1
        await real_send(user, content, files, nonce=nonce)
        clock.t += notifier.claim_seconds  # past the claim: another process has the rows

    notifier.send = slow
    report = await notifier.run_once()
    assert calls == 1 and len(sender.sent) == 1
    assert report.claims_lost > 0
    # the rows not sent are pending still, for whoever claims them next
    assert {r.nation for r in await pending(service, clock.t)} >= {"blue"} - {sender.sent[0][0]}
    rest = await Notifier(service, sender, render=False, clock=clock).run_once()
    assert rest.dms_sent == 1 and len({u for u, _, _ in sender.sent}) == 2


async def test_a_pass_over_many_games_writes_once_not_once_a_dm(tmp_path, monkeypatch):
    """What a pass leaves to write (the reports kept for /news, the rows told) is written at its
    end in one transaction each, however many players it told (issue 16: the store's commits
    are most of a busy bot's CPU)."""
    service = await GameService.open(str(tmp_path / "busy.db"), synchronous="NORMAL")
    try:
        games = []
        for i in range(6):
            world, _ = build_world(WORLD)
            for nation, user in USERS.items():
                world.nations[nation].player = f"{user}{i}"
            games.append(await service.create_game(name=f"Busy {i}", world=world, now=T0))
            await service.advance(games[-1], 32)
        sender = FakeSender()
        notifier = Notifier(service, sender, render=False, clock=Clock())
        counted = StoreCalls(service.store, monkeypatch)
        notifier.store = counted.proxy
        notifier.bot = counted.proxy_of(BotStore.of(service.store))
        report = await notifier.run_once(sitreps=False)
        assert report.dms_sent == 12  # two players in each of six games
        assert await pending(service) == []
        assert counted.calls["mark_delivered"] == 1 and counted.calls["add_reports"] == 1
        assert counted.calls["add_news"] == 0
        # the twelve players' settings and DM status are read in one query each
        assert counted.calls["players_settings"] == 1 and counted.calls["dm_statuses"] == 1
        assert counted.calls["get_player_settings"] == counted.calls["get_dm_status"] == 0
        # every player's report is kept for /news all the same
        for i, game in enumerate(games):
            for user in USERS.values():
                news = await BotStore.of(service.store).news(game, f"{user}{i}", 10)
                assert news and "Busy" in news[0].text
    finally:
        await service.close()


async def test_a_pass_cancelled_after_a_dm_still_marks_what_was_sent(env):
    import asyncio

    service, game, notifier, sender, _ = env
    await service.advance(game, 32)
    real_send = notifier.send
    pass_task: asyncio.Task | None = None

    async def stopped_at_the_second(user, content, files, *, nonce=None):
        if sender.sent:  # the bot stops while the pass goes on, before this DM goes out
            assert pass_task is not None
            pass_task.cancel()
            await asyncio.sleep(0)
        await real_send(user, content, files, nonce=nonce)

    notifier.send = stopped_at_the_second
    pass_task = asyncio.create_task(notifier.run_once())
    with pytest.raises(asyncio.CancelledError):
        await pass_task
    assert len(sender.sent) == 1
    told = next(n for n, u in USERS.items() if u == sender.sent[0][0])
    other = next(n for n in USERS if n != told)
    # the DM that went out is marked; the other player's rows wait for the next pass
    left = {r.nation for r in await pending(service)}
    assert told not in left and other in left
    notifier.send = real_send
    assert (await notifier.run_once()).dms_sent == 1
    assert sender.deduplicated == 0 and len({u for u, _, _ in sender.sent}) == 2


async def test_a_player_in_two_games_whose_dms_close_is_tried_once_a_pass(tmp_path):
    """The recipients' DM status is read once at the start of a pass; a DM in the pass that
    finds the player's DMs closed is not tried again for their other game in the same pass."""
    service = await GameService.open(str(tmp_path / "two.db"), synchronous="NORMAL")
    try:
        games = []
        for i in range(2):
            world, _ = build_world(WORLD)
            for nation, user in USERS.items():
                world.nations[nation].player = user  # the same two players in both games
            games.append(await service.create_game(name=f"Twice {i}", world=world, now=T0))
            await service.advance(games[-1], 32)
        sender = FakeSender()
        sender.closed.add("100")
        notifier = Notifier(service, sender, render=False, clock=Clock())
        report = await notifier.run_once(sitreps=False)
        assert [u for u, _, _ in sender.sent] == ["200", "200"]  # blue hears of both games
        assert sender.attempts == 3  # red's DMs were tried once, not once a game
        assert (await dm(service, "100")).status == "closed"
        assert report.closed > 0 and {r.nation for r in await pending(service)} == set()
    finally:
        await service.close()


async def test_a_backlog_is_told_pass_after_pass_without_waiting(env):
    """After a restart the outbox may hold more rows than a pass takes: a full pass is followed
    by the next at once, not after the interval."""
    import asyncio

    service, game, notifier, sender, _ = env
    await service.advance(game, 96)  # a game day of events for three nations
    backlog = len(await pending(service))
    notifier.batch_limit = 2
    assert backlog > 3 * notifier.batch_limit
    task = asyncio.create_task(notifier.run_forever(interval=60.0))
    try:
        for _ in range(300):
            if not await pending(service):
                break
            await asyncio.sleep(0.01)
        assert await pending(service) == []  # all told within seconds, not minutes
        assert {u for u, _, _ in sender.sent} == set(USERS.values())
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_failed_dms_wait_and_its_key_survive_a_restart_on_either_backend(store_url):
    """A 429's retry_after is kept in the outbox (SQLite or PostgreSQL): a restarted process
    does not try the DM sooner, then sends it under the key of the first attempt."""
    service = await GameService.open(store_url, synchronous="NORMAL")
    world, _ = build_world(WORLD)
    for nation, user in USERS.items():
        world.nations[nation].player = user
    game = await service.create_game(name="Wait", world=world, now=T0)
    clock, sender = Clock(), FakeSender()
    sender.errors["100"] = [RateLimited(retry_after=45.0)]
    keys: list[str | None] = []
    real = sender.__call__

    async def send(user, content, files, *, nonce=None, menus=()):
        if user == "100":
            keys.append(nonce)
        await real(user, content, files, nonce=nonce, menus=menus)

    await service.advance(game, 32)
    assert (await Notifier(service, send, clock=clock, render=False).run_once()).failed == 1
    await service.close()
    service = await GameService.open(store_url, synchronous="NORMAL")
    try:
        again = Notifier(service, send, clock=clock, render=False)
        clock.t = T0 + 40
        assert (await again.run_once()).delivered == 0 and sender.to("100") == []
        clock.t = T0 + 46
        assert (await again.run_once()).delivered == 1 and len(sender.to("100")) == 1
        assert len(keys) == 2 and keys[0] == keys[1]
    finally:
        await service.close()


async def test_other_nations_fights_are_muted_until_unmuted(tmp_path):
    """Issue 29: a fight between two other nations that red sees is not DMed to red by
    default (`others`, muted at first); green, a party to it, is told; after `/notify
    unmute:others` red is told too."""
    spec = {
        **WORLD,
        "relations": [["blue", "green", "war"]],
        "units": [
            *list(WORLD["units"]),  # type: ignore[call-overload]
            {"id": 20, "owner": "blue", "type": "infantry", "at": "5,3", "mobility": 6},
            {"id": 21, "owner": "green", "type": "infantry", "at": "5,2"},
            {"id": 22, "owner": "blue", "type": "infantry", "at": "6,2", "mobility": 6},
        ],
    }
    service = await GameService.open(str(tmp_path / "o.db"), synchronous="NORMAL", clock=lambda: T0)
    try:
        world, _ = build_world(spec)
        for nation, user in {**USERS, "green": "300"}.items():
            world.nations[nation].player = user
        game = await service.create_game(name="Others", world=world, now=T0)
        sender = FakeSender()
        notifier = Notifier(service, sender, clock=Clock())
        await notifier.run_once()
        sender.sent.clear()
        result = await service.submit(game, "blue", cmd.Attack(units=[20], target=(5, 2)))
        assert any(e.kind == "Attacked" and "red" in e.to for e in result.events)
        report = await notifier.run_once()
        # green, attacked, is told; blue, whose order it was, had the reply
        assert "Blue's infantry 20 attacked your infantry 21" in "\n".join(sender.to("300"))
        assert not any("Green" in m for m in sender.to("100")), sender.to("100")
        assert report.skipped_muted >= 1
        bot = BotStore.of(service.store)
        await save_settings(bot, "100", PlayerSettings(muted=[]))
        result2 = await service.submit(game, "blue", cmd.Attack(units=[22], target=(5, 2)))
        await notifier.run_once()
        assert any("Blue's infantry 22 attacked Green's" in m for m in sender.to("100")), (
            sender.to("100"),
            result2.events,
        )
    finally:
        await service.close()


async def test_two_passes_at_once_send_each_dm_once(env):
    """Issue 29: the sandbox ran a pass after each command beside its background loop, and a
    pass begun while another was sending took the same rows (claimed by the same process)
    again: DMs arrived twice. Passes of one notifier now wait for each other."""
    import asyncio

    service, game, notifier, sender, _ = env
    await service.advance(game, 32)
    started, go = asyncio.Event(), asyncio.Event()
    record = FakeSender.__call__

    async def slow(self, user, content, files, *, nonce=None, menus=()):
        started.set()
        await go.wait()  # the first DM is still going out while the second pass begins
        await record(self, user, content, files, nonce=nonce, menus=menus)

    sender.__class__ = type("SlowSender", (FakeSender,), {"__call__": slow})
    first = asyncio.create_task(notifier.run_once())
    await started.wait()
    second = asyncio.create_task(notifier.run_once())
    await asyncio.sleep(0)  # (the second pass gets as far as it can)
    go.set()
    await asyncio.gather(first, second)
    assert sender.deduplicated == 0  # no DM was sent again, not even under the same key
    per_user = {u: len(sender.to(u)) for u in USERS.values()}
    assert per_user == {"100": 1, "200": 1}, per_user
