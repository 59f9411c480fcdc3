"""Events to DMs. The store's outbox holds every event for every recipient nation, written in
the same transaction as the change; the notifier reads the pending rows, groups them per game
and nation, and DMs each nation's player one digest per pass, worded by the game's teller
(`bot.dm.tellers`, from the game's side), with a picture when something big happened. In games
that have one, it also sends each player a daily situation report.

Who gets what: a row is for one nation and goes to the user who plays that nation
(`store.members`), nobody else; nations without a player (AI) have their rows marked delivered.

Players' settings (`PlayerSettings`, stored per user): muted categories are marked delivered
without a DM; in quiet hours rows are held until the window ends (game start and end still go
out, and a reminder whose deadline comes before the window ends: `Teller.expires`); sitreps
and pictures can be turned off.

Several processes on one store: a pass claims the rows it takes (`OutboxClaim`, for
`claim_seconds`; on PostgreSQL `FOR UPDATE SKIP LOCKED`), only of the games its process serves,
so no two notifiers take the same rows. Each message goes with an idempotency key made of the
rows' claim (Discord's `enforce_nonce`): when a process dies between sending a DM and marking it
delivered, the rows are taken over once the claim runs out and sent again as the same DM under
the same key, which Discord does not show twice. A notifier paused past its claim sends no more
of those rows.

Failures: closed DMs are recorded (`BotStore.set_dm_status`, for `/status`; the player is told
once, privately, at their next command: `bot.dm.closed`) and the user is tried again at most
once an hour. Rate limits (a 429, 40003: opening DMs too fast) and other errors (5xx, network)
count an attempt, and the rows wait before the next (`mark_failed(retry_at=...)`, kept in the
outbox, so a restart keeps the wait): never less than Discord's `retry_after`, and a back-off
doubling from `retry_base` (2 s) to `retry_cap` (5 minutes), so an outage of Discord of minutes
or hours loses no DM. A row is given up after `max_attempts`, by default as many as the
back-off needs to span `retry_horizon` (6 hours, `SI_DM_RETRY_HOURS`); its report stays in
/news.

Pictures are drawn in worker processes (`renderers.pool`); the view they are drawn from is
taken on the event loop (it is a copy, so the game may go on meanwhile). A day's sitrep
pictures are handed to the pool a batch at a time (`workers`), then sent one after another.

Cost with many idle games: a pass reads the pending rows of every game in one query and lists
the running games in another (kept by the store until a game changes); only the games with
pending rows are looked at further, and for sitreps only the games whose tick reached their next
game day (or whose members changed) since the last look (the tick is read from memory).
Cost on a busy bot: a pass reads its recipients' settings and DM status in one query each and
writes its reports for /news and its marks at its end, one transaction each, however many
players it told; after a commit wakes it, it waits `settle` (1 s) so that a second of commits
is told in one pass. Members are kept in memory by the store. So a pass over 1,000 idle
games is two store round trips. Delivered rows are deleted after `retention` seconds, and rows
given up on (`max_attempts`) once written `retention` seconds ago (pending and held rows never
are), checked every `prune_every` seconds by `run_forever`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.dm import closed as closed_dms
from bot.dm import tellers
from bot.dm.delivery import DeliveryFailed, DmClosed, DmSender, Menu, RateLimited
from bot.store import BotStore, DmStatus, NewsReport
from engine.host.realtime import RealClock
from engine.host.rows import GameRow, OutboxClaim, OutboxRow
from engine.interface.events import Event
from engine.interface.summary import GameSummary
from engine.loops import every, guarded

log = logging.getLogger(__name__)

CLOSED_RETRY = 3600.0  # seconds between attempts to DM a user whose DMs are closed
CLAIM_MARGIN = 5.0  # seconds before a claim runs out when no more is sent of it
DAY = 86400


def _default_muted() -> tuple[str, ...]:
    from bot.dm.text import DEFAULT_MUTED

    return DEFAULT_MUTED


class PlayerSettings(BaseModel):
    """A player's notification settings (all games). Quiet hours are whole hours of the
    player's local time (`utc_offset` minutes east of UTC); the window may wrap midnight
    (22 -> 7). Equal `quiet_from` and `quiet_to` mean no quiet hours."""

    model_config = ConfigDict(extra="ignore")

    quiet_from: int | None = Field(default=None, ge=0, le=23)
    quiet_to: int | None = Field(default=None, ge=0, le=23)
    utc_offset: int = Field(default=0, ge=-14 * 60, le=14 * 60)
    muted: list[str] = Field(default_factory=lambda: list(_default_muted()))
    sitrep: bool = True
    pictures: bool = True
    # how a game's maps colour the nations: each in its own colour, or by its relation to the
    # player (you, allies, friends, neutral, war); the player's /map and DM pictures alike
    map_colours: Literal["nation", "relation"] = "nation"

    @field_validator("muted")
    @classmethod
    def _known_categories(cls, value: list[str]) -> list[str]:
        from bot.dm.text import CATEGORIES

        unknown = [c for c in value if c not in CATEGORIES]
        if unknown:
            raise ValueError(
                f"unknown categories {', '.join(unknown)}; choose from {', '.join(CATEGORIES)}"
            )
        return [c for c in CATEGORIES if c in value]  # canonical order, no repeats

    @model_validator(mode="after")
    def _both_ends(self) -> PlayerSettings:
        if (self.quiet_from is None) != (self.quiet_to is None):
            raise ValueError("quiet hours need both a start and an end hour")
        return self

    def quiet_until(self, now: float) -> float | None:
        """If `now` is in the quiet window, when it ends (a UTC timestamp); else None."""
        start, end = self.quiet_from, self.quiet_to
        if start is None or end is None or start == end:
            return None
        local = now + self.utc_offset * 60
        hour = int(local // 3600) % 24
        quiet = start <= hour < end if start < end else (hour >= start or hour < end)
        if not quiet:
            return None
        until = local - local % DAY + end * 3600
        if until <= local:
            until += DAY
        return until - self.utc_offset * 60


def parse_settings(data: dict[str, Any] | None) -> PlayerSettings:
    """Stored settings, forgiving: what no longer validates (a category since renamed) is
    dropped rather than failing the player's notifications."""
    data = dict(data or {})
    try:
        return PlayerSettings.model_validate(data)
    except ValidationError:
        from bot.dm.text import CATEGORIES

        data["muted"] = [c for c in data.get("muted") or [] if c in CATEGORIES]
        try:
            return PlayerSettings.model_validate(data)
        except ValidationError:
            log.warning("ignoring invalid notification settings %r", data)
            return PlayerSettings()


async def load_settings(store: BotStore, user_id: str) -> PlayerSettings:
    return parse_settings(await store.get_player_settings(user_id))


async def save_settings(store: BotStore, user_id: str, settings: PlayerSettings) -> None:
    await store.set_player_settings(user_id, settings.model_dump(mode="json"))


@dataclass
class DeliveryReport:
    delivered: int = 0  # rows told (or with nothing worth a DM) and marked delivered
    skipped_muted: int = 0  # rows of muted categories, marked delivered unsent
    skipped_outdated: int = 0  # reminders no longer true (the orders given since), unsent
    held_quiet: int = 0  # rows held until the player's quiet hours end
    failed: int = 0  # rows whose DM failed (rate limit, Discord errors): retried
    closed: int = 0  # rows for users whose DMs are closed (failed now, or held for the hour)
    no_player: int = 0  # rows for nations nobody plays (AI), marked delivered
    answered: int = 0  # rows the recipient's own command made (its reply told them), unsent
    dms_sent: int = 0  # messages sent (events and sitreps)
    pictures: int = 0  # map pictures sent
    sitreps: int = 0  # situation reports sent
    claims_lost: int = 0  # rows left unsent: their claim ran out first (another takes them)

    def __iadd__(self, other: DeliveryReport) -> DeliveryReport:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        return self


@dataclass
class _Writes:
    """What the groups of a pass leave to write at its end (`Notifier._write`), and what it
    read of its recipients at its start: their settings and DM status, in one query each (a
    user told once this pass is read again: their status may have changed)."""

    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    statuses: dict[str, DmStatus] = field(default_factory=dict)
    users: set[str] = field(default_factory=set)  # whose settings and status were read
    news: list[NewsReport] = field(default_factory=list)
    delivered: list[int] = field(default_factory=list)
    # (rows, error, not to be tried again before: None, as soon as they are held no more)
    failed: list[tuple[list[int], str, float | None]] = field(default_factory=list)
    held: list[tuple[list[int], float]] = field(default_factory=list)

    def fail(self, ids: list[int], error: str, retry_at: float | None = None) -> None:
        if ids:
            self.failed.append((ids, error, retry_at))

    def hold(self, ids: list[int], until: float) -> None:
        if ids:
            self.held.append((ids, until))


@dataclass(frozen=True)
class Failure:
    """Why a DM did not go out (`Notifier._send`): the user's DMs are closed, or Discord's
    trouble (a rate limit with its `retry_after`, an error)."""

    text: str
    closed: bool = False
    retry_after: float | None = None


LOST = Failure("lost")  # `_send`: the rows' claim ran out before the message went out


def attempts_within(horizon: float, base: float, cap: float) -> int:
    """How many attempts a back-off of `base`, twice that, ... up to `cap` seconds between
    them takes to span `horizon` seconds (at least 2)."""
    attempts, spent, wait = 1, 0.0, base
    while spent < horizon:
        spent += wait
        attempts += 1
        wait = min(cap, wait * 2)
    return max(2, attempts)


class Notifier:
    def __init__(
        self,
        service,
        send: DmSender,
        *,
        render: bool = True,
        clock: Callable[[], float] = time.time,
        batch_limit: int = 500,
        max_attempts: int | None = None,
        retry_horizon: float = 6 * 3600.0,
        retry_base: float = 2.0,
        retry_cap: float = 300.0,
        workers: int | None = None,
        retention: float | None = 7 * DAY,
        prune_every: float = 3600.0,
        claim_seconds: float = 60.0,
    ) -> None:
        self.service = service
        self.store = service.store  # the outbox
        self.bot = BotStore.of(service.store)  # players' settings, DM status, sitreps
        self.send = send
        self.render = render
        self.clock = clock
        self.batch_limit = batch_limit
        # a failed DM waits retry_base, twice that, ... up to retry_cap between attempts
        self.retry_base = retry_base
        self.retry_cap = max(retry_cap, retry_base)
        self.max_attempts = (
            max_attempts
            if max_attempts is not None
            else attempts_within(retry_horizon, retry_base, self.retry_cap)
        )
        self.retention = retention  # seconds delivered (or given up) rows are kept (None: for ever)
        self.prune_every = prune_every
        # the rows of a pass are claimed (`OutboxClaim`) by this process for `claim_seconds`:
        # several notifiers on one store never take the same rows, and one that was paused
        # past its claim sends nothing more of them (another has taken them over)
        self.claimer = service.owner or "local"
        self.claim_seconds = claim_seconds
        self._sitrep_days: dict[tuple[int, str], int] = {}
        # game -> (game day, members version) when its sitreps were last looked at
        self._looked: dict[int, tuple[int, int]] = {}
        # game -> (the first tick of its next day, its members' version) at its last look:
        # while its tick (in memory) is before that and its members are the same, its day and
        # who is told are as they were (`_sitreps`)
        self._day_ends: dict[int, tuple[int, int]] = {}
        self._running: set[int] = set()
        # the games changed in memory since the last full pass (`GameService.watch`), and
        # every game's member writes then: a game in neither, looked at before, is as it was
        self._watch = service.watch()
        self._member_writes = -1
        self._wake = asyncio.Event()
        # one pass at a time: a pass claims rows for this process, and a second pass begun
        # meanwhile (the sandbox's after a command, beside its background loop) would take the
        # same rows again, claimed by the same owner, and send them twice (issue 29)
        self._pass = asyncio.Lock()
        self._behind = False  # the last pass took a full batch: more rows are waiting
        self._retry_now: set[str] = set()  # users to try although their DMs were closed
        # sitrep pictures handed to the drawing pool at once (a game's 8 nations measured best)
        self._workers = workers or 8

    # --- running ------------------------------------------------------------------------------

    def backoff(self, attempts: int) -> float:
        """Seconds to wait after the failed attempt of rows tried `attempts` times before."""
        return min(self.retry_cap, self.retry_base * 2 ** min(attempts, 30))

    def wake(self, *_: Any) -> None:
        """Run the next pass soon (e.g. `service.subscribe(notifier.wake)`)."""
        self._wake.set()

    async def run_forever(self, interval: float = 2.0, *, settle: float | None = None) -> None:
        """Deliver every `interval` seconds (sooner after `wake`), forever, and prune delivered
        rows every `prune_every` seconds; an error in a pass is logged and the next pass goes
        on. Cancel the task to stop.

        After a wake-up the pass waits `settle` seconds for more (by default half the interval,
        at most 1 s: 1 s with the bot's 2 s interval): on a busy bot every commit
        wakes the notifier, and a second's commits told in one pass cost one claim, one read of
        the recipients and two writes (a DM comes at most that much later). A pass that took a
        full batch (`batch_limit`: a backlog, e.g. after a restart) is followed at once by the
        next."""
        next_prune = self.clock()
        next_look = time.monotonic()
        if settle is None:
            settle = min(1.0, interval / 2)

        async def one_pass() -> None:
            nonlocal next_prune, next_look
            # a pass woken by a commit tells its events; the sitreps' look at every running
            # game waits for a pass at least `interval` after the last one (a day's sitrep goes
            # out at most `interval` later; several wake-ups a second cost no look each)
            look = time.monotonic() >= next_look
            if look:
                next_look = time.monotonic() + interval
            await guarded(partial(self.run_once, sitreps=look), "notifier pass", log)
            if self.retention is not None and self.clock() >= next_prune:
                next_prune = self.clock() + self.prune_every
                await guarded(self.prune, "pruning the outbox", log)

        def wait() -> float:
            return 0.0 if self._behind else interval

        await every(
            wait, one_pass, name="notifier pass", wake=self._wake, settle=settle, logger=log
        )

    async def prune(self, *, batch: int = 5000) -> int:
        """Delete the outbox rows delivered more than `retention` seconds ago, and those given
        up on (`max_attempts` failed attempts) written more than `retention` seconds ago,
        `batch` rows a transaction (other work goes on between them); returns how many."""
        if self.retention is None:
            return 0
        before = self.clock() - self.retention
        total = 0
        while True:
            deleted = await self.store.prune_outbox(
                before, batch=batch, max_attempts=self.max_attempts
            )
            total += deleted
            if deleted < batch:
                break
            await asyncio.sleep(0)
        if total:
            log.info("pruned %d outbox rows delivered or given up before %.0f", total, before)
        return total

    async def release(self, user_id: str) -> int:
        """Deliver a user's held events on the next pass, quiet hours or closed-DM back-off
        notwithstanding (after the player changed the settings or opened the DMs)."""
        self._retry_now.add(str(user_id))
        released = await self.store.release_held(user_id)
        self.wake()
        return released

    async def deliver_now(self, game_id: int) -> DeliveryReport:
        """One pass for one game only."""
        return await self.run_once(game_id=game_id)

    async def run_once(self, *, game_id: int | None = None, sitreps: bool = True) -> DeliveryReport:
        """Tell the pending events (of one game only: `game_id`), then, with `sitreps`, send
        the day's sitreps of the games whose day changed. Passes of one notifier run one after
        the other, never at once."""
        async with self._pass:
            return await self._run_once(game_id=game_id, sitreps=sitreps)

    async def _run_once(self, *, game_id: int | None, sitreps: bool) -> DeliveryReport:
        report = DeliveryReport()
        now = self.clock()
        # several processes: each tells the players of the games it serves
        games = None if game_id is None else frozenset([game_id])
        if self.service.serves is not None:
            mine = frozenset(g.id for g in await self.service.games(mine=True))
            games = mine if games is None else games & mine
        rows = await self.store.pending_events(
            limit=self.batch_limit,
            max_attempts=self.max_attempts,
            now=now,
            claim=OutboxClaim(self.claimer, self.claim_seconds, games),
        )
        self._behind = len(rows) >= self.batch_limit
        # one DM (digest) per game, nation and claim: rows taken over from a claimer that
        # died are told as the same DM as before, under the same idempotency key
        groups: dict[tuple[int, str, int | None], list[OutboxRow]] = {}
        for row in rows:
            groups.setdefault((row.game_id, row.nation, row.group), []).append(row)
        members: dict[int, dict[str, str]] = {}
        for gid, _, _ in groups:
            if gid not in members:
                members[gid] = await self.store.members(gid)
        # what the groups leave to write is written at the end of the pass, a transaction
        # each (reports for /news, then rows delivered), not a few per group: a DM sent and not
        # yet marked when the process dies is sent again under the same key (not shown twice)
        writes = _Writes()
        users = {m for gid, nation, _ in groups if (m := members[gid].get(nation)) is not None}
        if users:
            writes.settings = await self.bot.players_settings(users)
            writes.statuses = await self.bot.dm_statuses(users)
            writes.users = users
        try:
            for (gid, nation, _), group in groups.items():
                try:
                    await self._deliver(
                        gid, nation, members[gid].get(nation), group, now, report, writes
                    )
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.exception("delivering game %s nation %s failed", gid, nation)
                    writes.fail([r.id for r in group], f"notifier: {exc!r}")
                    report.failed += len(group)
        finally:  # also when the pass is cancelled: what was sent is marked
            await self._write(writes, now)
        try:
            if sitreps:
                await self._sitreps(now, report, game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sitreps failed")
        return report

    # --- events -------------------------------------------------------------------------------

    async def _deliver(
        self,
        game_id: int,
        nation: str,
        user: str | None,
        rows: list[OutboxRow],
        now: float,
        report: DeliveryReport,
        writes: _Writes,
    ) -> None:
        if user is None:  # nobody (or the AI) plays it
            writes.delivered.extend(r.id for r in rows)
            report.no_player += len(rows)
            return
        game = await self.service.game(game_id)
        teller = tellers.teller(game.kind)
        items: list[tuple[OutboxRow, Event]] = []
        unreadable: list[int] = []
        for row in rows:
            try:
                event = teller.parse(row.event)
            except ValidationError:
                log.warning("unreadable event in outbox row %s: %r", row.id, row.event)
                unreadable.append(row.id)
                continue
            if nation not in event.to:  # never tell a nation what it may not know
                unreadable.append(row.id)
                continue
            items.append((row, event))
        writes.delivered.extend(unreadable)

        if user in writes.users:
            settings = parse_settings(writes.settings.get(user))
        else:
            settings = await load_settings(self.bot, user)
        muted = [r.id for r, e in items if teller.category(e, nation) in settings.muted]
        if muted:
            writes.delivered.extend(muted)
            report.skipped_muted += len(muted)
            skip = set(muted)
            items = [(r, e) for r, e in items if r.id not in skip]
        if not items:
            return
        if any(teller.expires(e) is not None for _, e in items):
            # a reminder held back (quiet hours, closed DMs) may no longer hold: ask the view
            view = await self.service.view(game_id, nation)
            outdated = [r.id for r, e in items if teller.outdated(e, view)]
            if outdated:
                writes.delivered.extend(outdated)
                report.skipped_outdated += len(outdated)
                gone = set(outdated)
                items = [(r, e) for r, e in items if r.id not in gone]
            if not items:
                return

        if user in writes.users:
            status = writes.statuses.get(user)
        else:
            status = await self.bot.get_dm_status(user)
        writes.users.discard(user)  # (a DM may change it: read it again the next time)
        if _closed_recently(status, now) and user not in self._retry_now:
            assert status is not None
            writes.hold([r.id for r, _ in items], status.checked + CLOSED_RETRY)
            report.closed += len(items)
            return

        quiet_end = settings.quiet_until(now)
        if quiet_end is not None:
            due = await self._due_in_quiet(game, teller, items, quiet_end)
            later = [r.id for r, e in items if e.kind not in teller.urgent and r.id not in due]
            if later:
                writes.hold(later, quiet_end)
                report.held_quiet += len(later)
            items = [(r, e) for r, e in items if e.kind in teller.urgent or r.id in due]
            if not items:
                return

        await self._send_events(
            game, teller, nation, user, items, settings, status, now, report, writes
        )

    async def _due_in_quiet(
        self,
        game: GameRow,
        teller: tellers.Teller,
        items: list[tuple[OutboxRow, Event]],
        quiet_end: float,
    ) -> set[int]:
        """The rows of events worth nothing by the end of the player's quiet hours (a reminder
        of a deadline that comes before they end): sent now rather than held past it
        (docs/MESSAGES.md). While the game's clock stands still no deadline comes: they wait."""
        expiring = [(r, tick) for r, e in items if (tick := teller.expires(e)) is not None]
        if not expiring:
            return set()
        summary = await self.service.summary(game.id)
        clock = RealClock.of_row(game, summary.ticks_per_hour)
        due = set()
        for row, tick in expiring:
            when = clock.real_time_of(tick)
            if when is not None and when <= quiet_end:
                due.add(row.id)
        return due

    async def _send_events(
        self,
        game: GameRow,
        teller: tellers.Teller,
        nation: str,
        user: str,
        items: list[tuple[OutboxRow, Event]],
        settings: PlayerSettings,
        status: DmStatus | None,
        now: float,
        report: DeliveryReport,
        writes: _Writes,
    ) -> None:
        from bot.dm.text import DISCORD_LIMIT

        game_id = game.id
        ids = [r.id for r, _ in items]
        events = [e for _, e in items]
        summary = await self.service.summary(game_id)
        names = {n.id: n.shown for n in summary.nations.values()}  # with a leader, if any
        # the game's name in the header: a player may be in several games; and when it was in
        # the player's own time (Discord shows the timestamp in their zone)
        last = max(e.tick for e in events)
        real_clock = RealClock.of_row(game, summary.ticks_per_hour)

        def when(tick: int) -> str:
            real = real_clock.real_time_of(tick)
            return "" if real is None else f" (<t:{int(real)}:R>)"

        clock = teller.header(game, summary, last, when)
        # the nation's own joining is told by a welcome (its start and first orders) instead
        joined = [e for e in events if teller.joined_self(e, nation)]
        told = [e for e in events if not teller.joined_self(e, nation)]
        # what the nation's own commands made, their replies told already (`digest` keeps the
        # big news, which comes with a picture; /news keeps it all)
        # (not when the AI looks after the nation: its orders had no reply the player read)
        caretaken = nation in (game.settings.get("ai") or {})
        answered = set() if caretaken else {id(e) for r, e in items if r.own}
        report.answered += len(answered)
        messages = teller.digest(
            told, nation, names, clock=clock, limit=DISCORD_LIMIT, answered=answered
        )
        if joined:
            messages.insert(0, await teller.welcome(self.service, game, summary, nation, joined[0]))
        # kept for /news first (also what the DM leaves out), even if the DM is not delivered
        kept = self._news(game_id, teller, user, items, nation, names, clock, joined, messages)
        if kept is not None:
            writes.news.append(kept)
        if not messages:  # nothing worth a DM
            writes.delivered.extend(ids)
            report.delivered += len(ids)
            return
        files: list[tuple[str, bytes]] = []
        if self.render and settings.pictures and any(teller.is_big(e, nation) for e in events):
            # the picture's header says the nation and the clock (as the picture's own clock)
            title = game.name
            png = await teller.picture(
                await self.service.view(game_id, nation),
                title,
                events,
                colours=settings.map_colours,
            )
            if png is not None:
                files = [("map.png", png)]
        key = idempotency_key("dm", game_id, nation, items[0][0].group or items[0][0].id)
        until = min((r.claimed_until for r, _ in items if r.claimed_until), default=None)
        menus = teller.menus(events, nation, game_id, game=game)
        outcome = await self._send(
            user, messages, files, status, now, report, nonce=key, claimed_until=until, menus=menus
        )
        self._retry_now.discard(user)
        if outcome is LOST:  # the claim ran out (paused): the rows are another's now
            report.claims_lost += len(ids)
            return
        if outcome is None:
            writes.delivered.extend(ids)
            report.delivered += len(ids)
            if files:
                report.pictures += 1
            return
        if outcome.closed:
            writes.fail(ids, outcome.text[:500])
            writes.hold(ids, now + CLOSED_RETRY)
            report.closed += len(ids)
            return
        # Discord's trouble, not the player's: the rows wait (Discord's retry_after at least)
        tried = max(r.attempts for r, _ in items)
        wait = max(self.backoff(tried), outcome.retry_after or 0.0)
        writes.fail(ids, outcome.text[:500], now + wait)
        report.failed += len(ids)

    def _news(
        self,
        game_id: int,
        teller: tellers.Teller,
        user: str,
        items: list[tuple[OutboxRow, Event]],
        nation: str,
        names: dict[str, str],
        clock: str,
        joined: list[Event],
        messages: list[str],
    ) -> NewsReport | None:
        """The report to keep for the player's /news: the events composed for the first time
        (a row whose DM failed before is composed again, but it was kept then)."""
        from bot.news import PART

        fresh = [(r, e) for r, e in items if r.attempts == 0]
        if not fresh:
            return None
        texts = teller.digest(
            [e for _, e in fresh if not teller.joined_self(e, nation)],
            nation,
            names,
            clock=clock,
            limit=PART,
        )
        if joined and any(teller.joined_self(e, nation) for _, e in fresh):
            texts.insert(0, messages[0][:PART])
        return NewsReport(game_id, user, texts, fresh[0][0].id, self.clock())

    async def _write(self, writes: _Writes, now: float) -> None:
        """A pass's writes: the reports kept for /news first (a row whose DM failed is not
        composed for /news again), then the rows failed, held and delivered; one transaction
        each."""
        from bot.news import KEPT

        if writes.news:
            await self.bot.add_reports(writes.news, keep=KEPT)
        for ids, error, retry_at in writes.failed:
            await self.store.mark_failed(ids, error, retry_at=retry_at)
        for ids, until in writes.held:
            await self.store.hold(ids, until)
        if writes.delivered:
            await self.store.mark_delivered(writes.delivered, now=now)

    async def _send(
        self,
        user: str,
        messages: list[str],
        files: list[tuple[str, bytes]],
        status: DmStatus | None,
        now: float,
        report: DeliveryReport,
        *,
        nonce: str,
        claimed_until: float | None = None,
        menus: Sequence[Menu] = (),
    ) -> Failure | None:
        """Send the messages (files with the first); None when all went out, else why not
        (a `Failure`: "closed: ...", "rate limited: ...", "failed: ...", or `LOST`: the claim
        of the rows ran out before a message went out), with the user's DM status kept.
        Message i goes with the idempotency key `nonce` + i."""
        margin = min(CLAIM_MARGIN, self.claim_seconds / 4)
        try:
            for i, text in enumerate(messages):
                if claimed_until is not None and self.clock() > claimed_until - margin:
                    return LOST
                extra = {"menus": menus} if menus and i == len(messages) - 1 else {}
                await self.send(
                    user, text, files if i == 0 else [], nonce=f"{nonce}{i:02d}", **extra
                )
                report.dms_sent += 1
        except DmClosed as exc:
            log.info("DMs to user %s are closed: %s", user, exc)
            await self.bot.set_dm_status(user, "closed", str(exc) or "DMs closed", now=now)
            closed_dms.changed(user)  # told at their next command (`bot.dm.closed`)
            return Failure(f"closed: {exc}", closed=True)
        except RateLimited as exc:
            log.info("rate limited DMing user %s (retry after %.1fs)", user, exc.retry_after)
            return Failure(f"rate limited: {exc}", retry_after=exc.retry_after)
        except DeliveryFailed as exc:
            log.warning("DM to user %s failed: %s", user, exc)
            await self.bot.set_dm_status(user, "failing", str(exc) or "failed", now=now)
            return Failure(f"failed: {exc}")
        if status is None or status.status != "ok":
            await self.bot.set_dm_status(user, "ok", None, now=now)
        return None

    # --- daily situation reports --------------------------------------------------------------

    async def _sitreps(self, now: float, report: DeliveryReport, only: int | None) -> None:
        """Each running game whose game day (or members) changed since it was last looked at;
        the others cost a look at the world in memory, no store round trip."""
        games = await self.service.games(status=["running"], mine=True)
        changed: set[int] | None = None
        if only is None:
            # nothing happened in a game since the last pass (no commit, no load) and no
            # member changed anywhere: its tick and members are as they were at its last look
            changed = self._watch.take()
            writes = self.store.member_writes
            if writes != self._member_writes:
                self._member_writes = writes
                changed = None
            running = {g.id for g in games}
            if running != self._running:  # forget the games that ended or were deleted
                self._running = running
                self._looked = {g: m for g, m in self._looked.items() if g in running}
                self._sitrep_days = {k: d for k, d in self._sitrep_days.items() if k[0] in running}
                self._day_ends = {g: d for g, d in self._day_ends.items() if g in running}
        by_kind: dict[str, tellers.Teller] = {}  # a teller looked up once a kind, not a game
        for game in games:
            if only is not None and game.id != only:
                continue
            teller = by_kind.get(game.kind)
            if teller is None:
                teller = by_kind[game.kind] = tellers.teller(game.kind)
            if not teller.sitreps:
                continue  # its turns' results come with pictures instead
            if changed is not None and game.id not in changed and game.id in self._day_ends:
                continue
            try:
                # a game in memory whose tick has not reached its next day since the last look,
                # with the same members, has nothing new (no summary, no lock): a game day is
                # a real day at real-time speed, and the look costs two dict reads a game
                members = self.store.members_version(game.id)
                tick = self.service.tick_in_memory(game.id)
                known = self._day_ends.get(game.id)
                if (
                    tick is not None
                    and known is not None
                    and tick < known[0]
                    and known[1] == members
                ):
                    continue
                summary = await self.service.summary(game.id)
                mark = (summary.day, members)
                if self._looked.get(game.id) != mark:
                    await self._game_sitreps(game, teller, summary, summary.day, now, report)
                    self._looked[game.id] = mark
                self._day_ends[game.id] = ((summary.day + 1) * summary.ticks_per_day, members)
            except asyncio.CancelledError:
                self._day_ends.pop(game.id, None)  # looked at again next pass
                raise
            except Exception:
                self._day_ends.pop(game.id, None)  # tried again next pass
                log.exception("sitreps for game %s failed", game.id)

    async def _game_sitreps(
        self,
        game: GameRow,
        teller: tellers.Teller,
        summary: GameSummary,
        day: int,
        now: float,
        report: DeliveryReport,
    ) -> None:
        if not summary.started or summary.ended:
            return
        members = await self.store.members(game.id)
        todo = []
        for nation, user in sorted(members.items()):
            known = self._sitrep_days.get((game.id, nation))
            if known is None or day > known:
                todo.append((nation, user))
        if not todo:
            return
        stored = await self.bot.sitreps(game.id)
        days: dict[str, int] = {}  # what the nations' sitrep days become
        new_day: list[tuple[str, str]] = []
        for nation, user in todo:
            last = stored.get(nation)
            if last is None:  # first look: start counting from today
                days[nation] = day
            elif day <= last:
                days[nation] = last
            else:  # a new day: it is sent now or skipped, never held
                days[nation] = day
                new_day.append((nation, user))
        await self.bot.set_sitreps(game.id, {n: d for n, d in days.items() if stored.get(n) != d})
        for nation, d in days.items():
            self._sitrep_days[(game.id, nation)] = d

        due: list[tuple[str, Any, str, str, PlayerSettings, DmStatus | None]] = []
        for nation, user in new_day:
            n = summary.nations.get(nation)
            if n is None or n.out:
                continue
            settings = await load_settings(self.bot, user)
            if not settings.sitrep or settings.quiet_until(now) is not None:
                continue
            status = await self.bot.get_dm_status(user)
            if _closed_recently(status, now):
                continue
            view = await self.service.view(game.id, nation)
            title = game.name  # the header adds the nation and the view's own clock
            due.append((user, view, teller.sitrep(game.name, view), title, settings, status))

        # the views were taken above, in one go; the pictures of a batch are drawn in the
        # drawing pool's processes, then sent one after another (the store is used by one at a
        # time)
        batch = self._workers
        for start in range(0, len(due), batch):
            chunk = due[start : start + batch]
            pictures = await asyncio.gather(
                *(
                    teller.picture(view, title, [], colours=settings.map_colours)
                    if self.render and settings.pictures
                    else _nothing()
                    for _, view, _, title, settings, _ in chunk
                )
            )
            for (user, _, text, _, _, status), png in zip(chunk, pictures, strict=True):
                files = [("sitrep.png", png)] if png is not None else []
                key = idempotency_key("sitrep", game.id, user, day)
                if await self._send(user, [text], files, status, now, report, nonce=key) is None:
                    report.sitreps += 1
                    if files:
                        report.pictures += 1


async def _nothing() -> None:
    return None


def idempotency_key(*parts: object) -> str:
    """A message's idempotency key (Discord: at most 25 characters; two more are added)."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:22]


def _closed_recently(status: DmStatus | None, now: float) -> bool:
    return status is not None and status.status == "closed" and now - status.checked < CLOSED_RETRY
