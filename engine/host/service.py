"""The one way to act on a game. The Discord cogs, the sandbox, the AI and the scenario runner's
service mode all call this.

For every request: take the game's lock, validate and apply it on the in-memory world through
the pure core, append it to the log (with its events in the outbox, and now and then a snapshot)
in one transaction, COMMIT, and only then answer and tell subscribers. If anything fails after
the world was touched, the in-memory world is thrown away and rebuilt from the store (latest
snapshot + log replay), so memory never runs ahead of what was acknowledged.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel

from engine.errors import CommandError, GameError
from engine.host.changes import Watch, Watches
from engine.host.realtime import RealClock
from engine.host.rows import GameRow, LeaseHeld, LeaseLost, LogWrite
from engine.host.storage import GameStore, open_store
from engine.interface import entries as en
from engine.interface.entries import AI_PLAYER
from engine.interface.events import Event
from engine.interface.kind import DEFAULT_KIND, GameKind, State
from engine.interface.kind import kind as _kind
from engine.interface.summary import GameSummary
from engine.loops import BACKGROUND, in_thread

log = logging.getLogger(__name__)

ADOPT_PER_PASS = 16  # games of dead processes taken over at one `keep_leases`
COPY_SECONDS = 1.0  # how long a copy of another process's game is read before it is read again
RELAY_POLL = 0.05  # seconds between looks at a relayed order's answer

REAL_TIME = 3600.0  # real seconds per game hour at normal speed
# a snapshot is taken once the log since the last one holds this many bytes of entries (as
# stored): a reload replays at most about this much, whatever its entries are
SNAPSHOT_BYTES = 256 * 1024
# a replay in its worker thread lets the interpreter go this often (seconds), so the event loop
# waiting for it gets it at once
YIELD_EVERY = 0.001

T = TypeVar("T")
Subscriber = Callable[[int, list[Event]], Awaitable[None] | None]
# where a game played in turns stands: (turn number, phase), as `GameSummary.turn` says
Moment = tuple[int, str]


class MovedOn(GameError):
    """A command decided for one turn and phase of a game (an AI seat's decision) reached it
    after the game had moved on: it was dropped, not carried out."""


@dataclass
class CommandResult:
    game_id: int
    seq: int
    tick: int
    events: list[Event]

    def for_nation(self, nation: str) -> list[Event]:
        return [e for e in self.events if nation in e.to]


@dataclass(frozen=True)
class Step:
    """One log entry to apply and commit, with what changes beside the world when it commits:
    the game's status (worked out from the world after it), its clock, and its members
    ((added (nation, user) pairs), (removed nations))."""

    entry: en.Entry
    status_after: Callable[[State], str | None] | None = None
    clock: dict[str, Any] | None = None
    members: tuple[list[tuple[str, str]], list[str]] | None = None


@dataclass(frozen=True)
class Applied:
    step: Step
    events: list[Event]
    tick: int  # the world's tick after the step


@dataclass
class LiveGame:
    row: GameRow
    world: Any  # the kind's state (`State`)
    seq: int
    snapshot_seq: int
    snapshot_tick: int
    kind: GameKind
    token: int | None = None  # this process's fencing token for the game (None: no leases)
    # the size of the log since the snapshot (its entries' stored JSON, in bytes): a reload
    # replays it, so a snapshot is taken once it passes `GameService.snapshot_bytes`
    log_bytes: int = 0
    # until when the lease surely runs (as last taken or renewed, by this process's clock):
    # past it, the game may be another process's, and this copy is not read or written again
    lease_until: float = math.inf
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _clock: tuple[GameRow, RealClock] | None = field(default=None, repr=False)
    _summary: tuple[int, GameSummary] | None = field(default=None, repr=False)

    def summary(self) -> GameSummary:
        """The public summary, worked out again only after a commit (call under the lock: then
        the world is the committed one of `seq`; the notifier asks every game each pass)."""
        cached = self._summary
        if cached is None or cached[0] != self.seq:
            cached = self._summary = (self.seq, self.kind.summary(self.world))
        return cached[1]

    @property
    def clock(self) -> RealClock:
        """The game's clock (`games.clock`) as a typed value, read again when the row changed
        (rows are replaced, never changed in place; the ticker asks every game each pass)."""
        cached = self._clock
        if cached is None or cached[0] is not self.row:
            clock = RealClock.of_row(self.row, self.kind.ticks_per_hour(self.world))
            cached = self._clock = (self.row, clock)
        return cached[1]


class GameService:
    def __init__(
        self,
        store: GameStore,
        *,
        snapshot_every: int = 64,
        advance_batch: int = 16,
        command_snapshot_every: int = 1000,
        snapshot_bytes: int = SNAPSHOT_BYTES,
        ticks_in_thread: bool = True,
        owner: str | None = None,
        lease_seconds: float = 60.0,
        clock: Callable[[], float] = time.time,
        serves: Callable[[GameRow], bool] | None = None,
        relay_wait: float = 2.5,
    ) -> None:
        self.store = store
        # Several processes on one store: each game is run by one of them at a time, the
        # holder of its lease (`owner`); every write is fenced with the lease's token, so a
        # process that lost the game (paused past the lease, cut off) writes nothing. None: one
        # process alone, no leases.
        self.owner = owner
        self.lease_seconds = lease_seconds
        self.clock = clock
        # which games this process serves (the bot: those of its shards' servers); its loops
        # (ticker, AI, DMs, status boards) ask `games(mine=True)`. None: every game.
        self.serves = serves
        # games of other processes' servers this one runs because their process died (their
        # lease ran out): handed back when that process asks (`keep_leases`)
        self._adopted: set[int] = set()
        # copies of games other processes run, read here: game -> (when read, copy)
        self._copies: dict[int, tuple[float, LiveGame]] = {}
        # orders for a game another process runs are relayed to it through the store; the
        # answer is waited for this long, twice at most once taken (the bot defers its answer
        # to a DM order in a sharded setup: Discord allows 15 minutes then)
        self.relay_wait = relay_wait
        # Time runs in one worker thread (`_apply`): a busy world's ticks take tens of
        # milliseconds of Python, and the event loop must go on serving the other games.
        self._ticks = ThreadPoolExecutor(1, "ticks") if ticks_in_thread else None
        # Loading a game (parsing its snapshot, replaying its log) runs in a thread too, its
        # own: a reload after a restart or an eviction never holds the event loop, and neither
        # waits behind the other games' ticks nor holds them up
        self._loads = ThreadPoolExecutor(1, "loads") if ticks_in_thread else None
        # and the background loops' long reads (nations' views for the DMs) in a third
        self._reads = ThreadPoolExecutor(1, "reads") if ticks_in_thread else None
        self.snapshot_every = snapshot_every
        self.command_snapshot_every = command_snapshot_every
        # the log a reload replays is bounded by its size too, not only by its entries' count
        # (a few large commands replay as long as many small ones)
        self.snapshot_bytes = snapshot_bytes
        self.advance_batch = advance_batch
        self._games: dict[int, LiveGame] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        self._background_loads = asyncio.Semaphore(1)
        self._subscribers: list[Subscriber] = []
        self._watches = Watches()

    @classmethod
    async def open(cls, path_or_url: str, **kwargs: Any) -> GameService:
        """A service on the store a URL names (`engine.host.storage.open_store`):
        `sqlite:///path` or a plain path (SQLite; `synchronous` FULL, NORMAL or EXTRA), or
        `postgresql://...`."""
        synchronous = kwargs.pop("synchronous", "FULL")
        return cls(await open_store(path_or_url, synchronous=synchronous), **kwargs)

    async def close(self) -> None:
        if self._ticks is not None:
            await asyncio.to_thread(self._ticks.shutdown, True)
        if self._loads is not None:
            await asyncio.to_thread(self._loads.shutdown, True)
        if self._reads is not None:
            await asyncio.to_thread(self._reads.shutdown, True)
        await self.store.close()

    def subscribe(self, callback: Subscriber) -> None:
        """`callback(game_id, events)` runs after each commit (for live notification; the
        durable copy of every event is the store's outbox)."""
        self._subscribers.append(callback)

    def watch(self) -> Watch:
        """A new watch of the games that change in memory from now on (`engine/host/changes.py`):
        a commit, a row change, a load or an eviction notes the game in it."""
        return self._watches.new()

    # --- creating and loading games ---------------------------------------------------------------

    async def create_game(
        self,
        *,
        name: str,
        kind: str = DEFAULT_KIND,
        speed: float = REAL_TIME,
        guild_id: str | None = None,
        channel_id: str | None = None,
        created_by: str | None = None,
        world: Any | None = None,
        now: float | None = None,
        **options: Any,
    ) -> int:
        """Create a game in the lobby. Its kind makes its first state from `options` (the
        kind's own creation options: `GameKind.setup`, e.g. `ruleset`, `seed`, the map's size),
        or `world` is taken as given (e.g. from a scenario)."""
        if speed <= 0:
            raise GameError("speed is real seconds per game hour and must be positive")
        try:
            plugin = _kind(kind)
        except KeyError as exc:
            raise GameError(str(exc.args[0])) from None
        if world is None:
            # a big map takes a few hundred ms: off the event loop
            world = await asyncio.to_thread(plugin.setup, options)
        assert world is not None
        started = world.started
        clock = RealClock(
            ticks_per_hour=plugin.ticks_per_hour(world),
            speed=float(speed),
            anchor_real=(time.time() if now is None else now) if started else None,
            anchor_tick=world.tick,
        ).to_dict()
        return await self.store.create_game(
            members=plugin.players(world),  # a world given with its players (scenarios, tests)
            status="running" if started else "lobby",
            name=name,
            kind=plugin.name,
            ruleset=plugin.ruleset_of(world),
            settings=plugin.settings_of(world),
            clock=clock,
            world_json=plugin.dump(world),
            world_hash=plugin.hash(world),
            guild_id=guild_id,
            channel_id=channel_id,
            created_by=created_by,
        )

    async def _live(self, game_id: int) -> LiveGame:
        game = self._games.get(game_id)
        if game is not None and game.lease_until <= self.clock():
            # not renewed in time (this process was paused, or cut off from the store): the
            # game may have moved on elsewhere; read it again (and take it again, if free)
            self.evict(game_id)
            game = None
        if game is not None:
            return game
        if BACKGROUND.get():
            # the ticker, the AI or the DMs after a restart: one of their loads at a time,
            # waited for before this game's loading lock, so a player's command finds the
            # loads' thread free but for that one load, also for this same game
            async with self._background_loads:
                return await self._load_once(game_id)
        return await self._load_once(game_id)

    async def _load_once(self, game_id: int) -> LiveGame:
        """The game in memory, loaded by this caller or by another one meanwhile."""
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            game = self._games.get(game_id)
            if game is None:
                game = await self._load(game_id)
                self._games[game_id] = game
                self._watches.changed(game_id)
        return game

    async def _load(self, game_id: int) -> LiveGame:
        token = None
        if self.owner is not None:  # take the game first: then read what its last holder wrote
            row = await self.store.game(game_id)
            if row is None:
                raise GameError(f"there is no game {game_id}")
            mine = self.serves is None or self.serves(row)
            if not mine and game_id not in self._adopted:
                # another process's server's game: this one runs it only once taken over
                # (`adopt_orphans`); until then its process runs it, or nobody does for now
                lease = await self.store.lease(game_id)
                raise LeaseHeld(
                    game_id, lease.owner if lease else "", lease.expires if lease else 0
                )
            now = self.clock()
            try:
                token = await self.store.acquire_lease(
                    game_id, self.owner, now=now, ttl=self.lease_seconds
                )
            except LeaseHeld:
                if mine:
                    # its server is this process's: the process that took it over while this
                    # one was down hands it back at its next `keep_leases`
                    await self.store.want_lease(game_id, self.owner)
                raise
            game = await self._build(game_id, token)
            game.lease_until = now + self.lease_seconds
            return game
        return await self._build(game_id, token)

    async def _copy(self, game_id: int) -> LiveGame:
        """A copy of a game another process runs, read from the store (never written: it has
        no lease), for reading it here; kept for `COPY_SECONDS`."""
        now = time.monotonic()
        kept = self._copies.get(game_id)
        if kept is not None and now - kept[0] < COPY_SECONDS:
            return kept[1]
        copy = await self._build(game_id, None)
        self._copies[game_id] = (now, copy)
        if len(self._copies) > 256:  # (a DM now and then: a few at a time)
            self._copies = {g: c for g, c in self._copies.items() if now - c[0] < COPY_SECONDS}
        return copy

    async def _readable(self, game_id: int) -> tuple[LiveGame, bool]:
        """The game to read: (the live game, True), or (a copy, False) while another process
        runs it (a player's DM to this process about a game of another's server)."""
        game = self._games.get(game_id)
        if game is not None and game.lease_until > self.clock():
            return game, True
        if self.owner is not None and self.serves is not None and game_id not in self._adopted:
            row = await self.store.game(game_id)
            if row is not None and not self.serves(row):  # another's: read, never take it
                return await self._copy(game_id), False
        try:
            return await self._live(game_id), True
        except LeaseHeld:
            return await self._copy(game_id), False

    async def _build(self, game_id: int, token: int | None) -> LiveGame:
        found = await self.store.load(game_id)
        if found is None:
            raise GameError(f"there is no game {game_id}")
        row, (snap_seq, world_json, _), entries = found
        plugin = _kind(row.kind)

        def rebuild() -> tuple[Any, int, int, int]:
            """The snapshot parsed and the log after it replayed (and measured)."""
            world = plugin.load(world_json)
            snap_tick = world.tick
            seq, size = snap_seq, 0
            turn = time.perf_counter() + YIELD_EVERY
            for entry_seq, entry in entries:
                try:
                    plugin.apply(world, en.entry_from_json(entry))
                except CommandError as exc:
                    # accepted under the rules of its day, refused by today's (a deploy
                    # changed them): left out, so the game loads and plays on; a command is
                    # checked whole before it changes anything, so nothing of it was applied
                    log.warning("game %s: entry %s left out on replay: %s", game_id, entry_seq, exc)
                seq = entry_seq
                size += _stored_size(entry)
                if time.perf_counter() >= turn:
                    # the event loop's turn now, not at the end of the switch interval (5 ms,
                    # each time the loop wants the interpreter back)
                    time.sleep(0)
                    turn = time.perf_counter() + YIELD_EVERY
            return world, snap_tick, seq, size

        # Parsing a big world and replaying a long log take seconds of Python: in a worker
        # thread (the loads', beside the ticks'), so a restart or an eviction never holds the
        # event loop (its other games, and the players' commands, go on; this game's callers
        # wait for its loading lock)
        world, snap_tick, seq, size = await self._off_loop(rebuild, pool=self._loads)
        return LiveGame(
            row=row,
            world=world,
            seq=seq,
            snapshot_seq=snap_seq,
            snapshot_tick=snap_tick,
            kind=plugin,
            token=token,
            log_bytes=size,
        )

    def evict(self, game_id: int) -> None:
        """Forget the in-memory world; the next request rebuilds it from the store."""
        self._games.pop(game_id, None)
        self._watches.changed(game_id)

    def _fence(self, game: LiveGame) -> tuple[str, int] | None:
        return (self.owner, game.token) if self.owner is not None and game.token else None

    async def renew_leases(self) -> set[int]:
        """Extend the leases of the games this process runs (call well within the lease, e.g.
        every third of it); the games whose lease was lost meanwhile are forgotten here (their
        next request loads them again, or says who runs them). Returns those games."""
        if self.owner is None:
            return set()
        tokens = {gid: g.token for gid, g in self._games.items() if g.token is not None}
        now = self.clock()
        lost = await self.store.renew_leases(self.owner, tokens, now=now, ttl=self.lease_seconds)
        for game_id, token in tokens.items():
            game = self._games.get(game_id)
            if game_id not in lost and game is not None and game.token == token:
                game.lease_until = now + self.lease_seconds
        for game_id in lost:
            self._adopted.discard(game_id)
            if (
                self._games.get(game_id) is not None
                and self._games[game_id].token == tokens[game_id]
            ):
                self.evict(game_id)
        return lost

    async def keep_leases(self) -> None:
        """What a process of several does every third of a lease: renew its leases, hand back
        the games it took over whose own process asks for them, and take over the games whose
        process died (their lease ran out a lease's length ago: time for a restart to come
        first). Relayed orders an hour old are deleted."""
        await self.renew_leases()
        await self.hand_back()
        await self.ask_back()
        await self.adopt_orphans()
        await self.store.relay_prune(self.clock() - 3600)

    async def hand_back(self) -> set[int]:
        """Give up the games this process took over (`adopt_orphans`) that the process serving
        their server asks for back; returns them."""
        if self.owner is None or not self._adopted:
            return set()
        wanted = await self.store.wanted_leases(self.owner) & self._adopted
        for game_id in wanted:
            self._adopted.discard(game_id)  # first: a read meanwhile does not take it again
            await self._give_up(game_id)
        if wanted:
            log.info("handed games %s back to the processes serving their servers", sorted(wanted))
        return wanted

    async def ask_back(self) -> set[int]:
        """Ask for the games of this process's servers that another process runs (it took them
        over while this one was down); returns them."""
        if self.owner is None or self.serves is None:
            return set()
        elsewhere = await self._leases_elsewhere()
        if not elsewhere:
            return set()
        serves = self.serves
        asked = {row.id for row in await self.store.games() if row.id in elsewhere and serves(row)}
        for game_id in asked:
            await self.store.want_lease(game_id, self.owner)
        return asked

    async def _leases_elsewhere(self) -> dict[int, str]:
        """Games another process runs now: game -> its process."""
        if self.owner is None:
            return {}
        return {
            lease.game_id: lease.owner
            for lease in await self.store.live_leases(self.clock())
            if lease.owner != self.owner
        }

    async def adopt_orphans(self) -> set[int]:
        """Take over the games whose lease ran out more than a lease's length ago (their
        process died, and did not come back): this process runs them (ticks, AI, DMs) until
        the process of their server asks for them back. Returns the games taken."""
        if self.owner is None or self.serves is None:
            return set()  # one process alone runs every game anyway
        now = self.clock()
        taken: set[int] = set()
        for lease in await self.store.expired_leases(now - self.lease_seconds):
            if len(taken) >= ADOPT_PER_PASS:  # the rest at the next pass: renewals first
                break
            if lease.game_id in self._games:
                continue
            row = await self.store.game(lease.game_id)
            if row is None:
                continue
            theirs = not self.serves(row)
            if theirs:
                self._adopted.add(lease.game_id)
            try:
                await self._live(lease.game_id)
            except GameError as exc:  # (LeaseHeld: another survivor was quicker)
                self._adopted.discard(lease.game_id)
                if not isinstance(exc, LeaseHeld):
                    log.exception("taking over game %s failed", lease.game_id)
                continue
            taken.add(lease.game_id)
        if taken:
            log.warning(
                "took over games %s: their process stopped renewing their leases", sorted(taken)
            )
        return taken

    async def _give_up(self, game_id: int) -> None:
        game = self._games.get(game_id)
        if game is None or game.token is None or self.owner is None:
            return
        async with game.lock:
            await self.store.release_lease(game_id, self.owner, game.token, now=self.clock())
        self.evict(game_id)

    async def release_leases(self) -> None:
        """Give up every game this process runs (a clean shutdown): another process may take
        them over at once instead of after the lease."""
        if self.owner is None:
            return
        for game_id in list(self._games):
            await self._give_up(game_id)
        self._adopted.clear()

    # --- reading ---------------------------------------------------------------------------------------

    # Players, moderators and reports read a game through a nation's view or the public
    # summary; the live world itself is for tools that say so (the CLI, the sandbox's
    # cheats, tests), never for anything a player reads.

    async def summary(self, game_id: int) -> GameSummary:
        """What anyone may know of the game: nations' names, colours and seats, its size, rules
        and time."""
        game, live = await self._readable(game_id)
        if not live:
            return game.summary()
        async with game.lock:
            if self._games.get(game_id) is not game:  # evicted while we waited
                return await self.summary(game_id)
            return game.summary()

    async def view(self, game_id: int, nation: str) -> Any:
        """Everything the nation may know now (the fog filter: the kind's `view_for`)."""

        def read(game: LiveGame) -> Any:
            try:
                return game.kind.view_for(game.world, nation)
            except KeyError:
                raise GameError(f"there is no nation {nation!r} in game {game_id}") from None

        # the background's views (the notifier's reports: a whole server's at a game day's
        # turn) are read in a thread of their own, beside the loop; a player's, on the loop
        pool = self._reads if BACKGROUND.get() else None
        return await self._read(game_id, read, pool=pool)

    async def lobby_view(self, game_id: int) -> Any:
        """What anyone may know of a lobby to choose where to start (the kind's `lobby_view`)."""
        return await self._read(game_id, lambda game: game.kind.lobby_view(game.world))

    async def full_view(self, game_id: int) -> Any:
        """Everything as it is: for moderators and the end-of-game timelapse only."""
        return await self._read(game_id, lambda game: game.kind.full_view(game.world))

    async def _read(
        self,
        game_id: int,
        read: Callable[[LiveGame], T],
        *,
        pool: ThreadPoolExecutor | None = None,
    ) -> T:
        """Read the live world under the game's lock: never in the middle of a change (a tick
        runs in a worker thread meanwhile). `pool`: a long read (a whole nation's view) runs
        in that pool's thread, the event loop free meanwhile (still under the lock)."""
        game, live = await self._readable(game_id)
        if not live:
            return read(game) if pool is None else await in_thread(pool, read, game)
        async with game.lock:
            if self._games.get(game_id) is not game:  # evicted while we waited
                return await self._read(game_id, read, pool=pool)
            return read(game) if pool is None else await in_thread(pool, read, game)

    async def history(self, game_id: int) -> tuple[Any, list[dict[str, Any]]]:
        """The game's first state and every log entry since, to replay it whole (the
        end-of-game timelapse): a fresh state of the kind's, not the live one."""
        game, _ = await self._readable(game_id)
        first = await self.store.first_snapshot(game_id)
        if first is None:
            raise GameError(f"game {game_id} has no stored history")
        seq, world_json, _ = first
        entries = [entry for _, entry in await self.store.log_after(game_id, seq)]
        return await asyncio.to_thread(game.kind.load, world_json), entries

    async def members(self, game_id: int) -> dict[str, str]:
        """Who plays which nation: nation -> Discord user id."""
        return await self.store.members(game_id)

    async def live_world(self, game_id: int) -> Any:
        """The live, mutable world, for tools (the CLI, the sandbox, tests). Never mutate it,
        and never show a player anything read from it: use `view` or `summary`."""
        return (await self._readable(game_id))[0].world

    async def game(self, game_id: int) -> GameRow:
        return (await self._readable(game_id))[0].row

    async def find_game(self, game_id: int) -> GameRow | None:
        """A game's row as stored, or None when there is no such game (nothing is loaded)."""
        return await self.store.game(game_id)

    async def memberships(self, user_id: str) -> list[tuple[int, str]]:
        """(game, nation) of every game the user plays in."""
        return await self.store.memberships(user_id)

    async def games(
        self,
        *,
        status: list[str] | None = None,
        guild_id: str | None = None,
        channel_id: str | None = None,
        mine: bool = False,
    ) -> list[GameRow]:
        """Games by status, server and channel; `mine`: only those this process serves
        (`serves`, and those it took over from a process that died)."""
        rows = await self.store.games(status=status, guild_id=guild_id, channel_id=channel_id)
        if mine and self.serves is not None:
            serves = self.serves
            elsewhere = await self._leases_elsewhere()  # (being handed back: not yet)
            rows = [
                row
                for row in rows
                if (serves(row) or row.id in self._adopted) and row.id not in elsewhere
            ]
        return rows

    # --- the one write path ------------------------------------------------------------------------------

    async def _run(
        self,
        game_id: int,
        first: Step | Callable[[LiveGame], Step | None],
        then: Callable[[LiveGame], Step | None] | None = None,
    ) -> CommandResult:
        """Apply `first` (and `then(game)`, if that gives a step) to the live world and commit
        them in one transaction; answer only after COMMIT. `first` may be worked out from the
        game under its lock (`first(game)`; None: nothing to do, nothing committed).

        If the caller is cancelled, the answer is the truth too: a cancellation that lands
        before the transaction was handed to the store changes nothing; one that lands later
        waits until the store has committed or rolled back, brings memory in line with it
        (`on_commit`), and is then re-raised."""
        game = await self._live(game_id)
        async with game.lock:
            if self._games.get(game_id) is not game:  # evicted while we waited
                return await self._run(game_id, first, then)
            applied: list[Applied] = []
            step: Step | None = first(game) if callable(first) else first
            if step is None:
                return CommandResult(game_id=game_id, seq=game.seq, tick=game.world.tick, events=[])
            if isinstance(step.entry, en.LobbyEntry) and game.row.status == "ended":
                raise GameError("the game is over")  # final: no lobby or moderator action
            try:
                while step is not None:
                    events = await self._apply(game, step.entry)
                    applied.append(Applied(step, events, game.world.tick))
                    step = then(game) if then is not None and len(applied) == 1 else None
            except (CommandError, GameError):
                if applied:  # a later step was refused after the first changed the world
                    self.evict(game_id)
                raise  # validated before any change: the world is untouched
            except BaseException:
                self.evict(game_id)
                raise
            seq = await self._commit_or_forget(game, applied)
        events = [e for a in applied for e in a.events]
        result = CommandResult(game_id=game_id, seq=seq, tick=game.world.tick, events=events)
        await self._notify(game_id, events)
        return result

    async def _commit_or_forget(
        self, game: LiveGame, applied: list[Applied], *, pool: ThreadPoolExecutor | None = None
    ) -> int:
        """Commit the applied steps (under the game's lock); memory follows the commit. If the
        commit fails (or the caller is cancelled) before it happened, the changed world is
        forgotten: the next request loads the game as the store has it."""
        committed = False

        def settle(row: GameRow | None, seqs: list[int], snapshot: bool) -> None:
            nonlocal committed
            committed = True
            game.seq = seqs[-1]
            if snapshot:
                game.snapshot_seq = seqs[-1]
                game.snapshot_tick = game.world.tick
            if row is not None:
                game.row = row
            self._watches.changed(game.row.id)

        try:
            return await self._commit(game, applied, settle, pool=pool)
        except BaseException:
            if not committed:
                self.evict(game.row.id)
            raise

    async def _apply(self, game: LiveGame, entry: en.Entry) -> list[Event]:
        """Apply an entry to the live world (under the game's lock). Time moves on in the
        ticks' worker thread, where the event loop keeps its turn every switch interval
        (`sys.getswitchinterval`, 5 ms): other games' commands and replies go on meanwhile, and
        this game's readers wait for its lock. A cancelled caller waits for the thread to finish
        (it cannot be stopped) before the world, changed by then, is dropped."""
        if not isinstance(entry, en.Advance):
            return game.kind.apply(game.world, entry)
        return await self._off_loop(game.kind.apply, game.world, entry)

    async def _off_loop(
        self, fn: Callable[..., T], *args: Any, pool: ThreadPoolExecutor | None = None
    ) -> T:
        """`fn(*args)` in the ticks' worker thread, or `pool`'s (on the loop when there is
        none)."""
        pool = self._ticks if pool is None else pool
        if pool is None:
            return fn(*args)
        return await in_thread(pool, fn, *args)

    async def _commit(
        self,
        game: LiveGame,
        applied: list[Applied],
        settle: Callable[[GameRow | None, list[int], bool], None],
        *,
        pool: ThreadPoolExecutor | None = None,
    ) -> int:
        """Write the applied steps out in one transaction. `pool`: the stored form of the
        entries and events is made in its thread (an AI's decision), not on the loop."""
        world = game.world
        steps = [a.step for a in applied]
        seqs = [game.seq + 1 + i for i in range(len(steps))]
        # Snapshots are taken with time (advance entries), where nobody waits on a reply;
        # players' commands only snapshot when a long run of them has no tick in between.
        since = seqs[-1] - game.snapshot_seq
        entries = [s.entry.to_json() for s in steps]
        # the log since the snapshot, in bytes, with these entries (see
        # `snapshot_bytes`), so that a reload's replay is bounded too
        size = game.log_bytes + sum(_stored_size(e) for e in entries)
        kinds = {s.entry.kind for s in steps}
        if kinds == {"command"}:
            due = since >= self.command_snapshot_every or size >= self.snapshot_bytes
        else:
            due = (
                since >= self.snapshot_every
                or size >= self.snapshot_bytes
                or game.kind.snapshot_due(world, world.tick - game.snapshot_tick)
                or "lobby" in kinds
            )

        def prepare() -> tuple[tuple[str, str] | None, list[LogWrite]]:
            snapshot = None
            if due:
                world_json = game.kind.dump(world)
                snapshot = (world_json, hashlib.sha256(world_json.encode()).hexdigest())
            writes = [
                LogWrite(
                    seq,
                    a.tick,
                    entry,
                    [(nation, e.model_dump(mode="json")) for e in a.events for nation in e.to],
                )
                for seq, a, entry in zip(seqs, applied, entries, strict=True)
            ]
            return snapshot, writes

        # a tick's many events and a snapshot of a big world take a while to write out: that
        # is done in the ticks' thread too; a player's command is written out here at once
        if pool is not None:
            snapshot, writes = await in_thread(pool, prepare)
        elif due or "advance" in kinds:
            snapshot, writes = await self._off_loop(prepare)
        else:
            snapshot, writes = prepare()
        status = None
        if any(s.status_after is not None for s in steps):
            status = next(
                (st for s in reversed(steps) if s.status_after and (st := s.status_after(world))),
                None,
            )
        clock = next((s.clock for s in reversed(steps) if s.clock is not None), None)
        members = None
        if any(s.members is not None for s in steps):
            added = [p for s in steps if s.members for p in s.members[0]]
            removed = [n for s in steps if s.members for n in s.members[1]]
            members = (added, removed)
        await self.store.append_many(
            game.row.id,
            writes,
            snapshot=snapshot,
            status=status,
            clock=clock,
            members=members,
            on_commit=partial(self._committed, game, settle, seqs, snapshot is not None, size),
            fence=self._fence(game),
        )
        return seqs[-1]

    @staticmethod
    def _committed(
        game: LiveGame,
        settle: Callable[[GameRow | None, list[int], bool], None],
        seqs: list[int],
        snapshot: bool,
        size: int,
        row: GameRow | None,
    ) -> None:
        """Memory follows a commit: the log's size since the snapshot, then `settle`."""
        game.log_bytes = 0 if snapshot else size
        settle(row, seqs, snapshot)

    async def _notify(self, game_id: int, events: list[Event]) -> None:
        if not events:
            return
        for callback in self._subscribers:
            try:
                outcome = callback(game_id, events)
                if asyncio.iscoroutine(outcome):
                    await outcome
            except Exception:  # a subscriber never breaks the game
                log.exception("event subscriber failed for game %s", game_id)

    # --- players' commands -----------------------------------------------------------------------------

    async def submit(
        self, game_id: int, nation: str, command: BaseModel, *, moment: Moment | None = None
    ) -> CommandResult:
        """Validate and apply a nation's command; returns after it is committed. It is judged
        at the game's clock: the ticks due by now come first (a deadline the ticker has not
        reached yet is passed before the command). `moment`: the turn and phase the command
        was decided for (`decision_view`); if the game is no longer there, the command is
        dropped (`MovedOn`) and nothing changes."""
        entry = en.CommandEntry(nation=nation, command=command.model_dump(mode="json"))
        try:
            return await self._submit(game_id, entry, moment)
        except LeaseHeld:
            row = await self.game(game_id)
            if self.serves is None or self.serves(row):
                raise  # its own game, being handed back to it: a moment
            # a game of another process's server (a player's DM came here): that process runs
            # the order and answers, through the store
            return await self._relay(game_id, nation, entry.command)

    async def _submit(
        self, game_id: int, entry: en.CommandEntry, moment: Moment | None = None
    ) -> CommandResult:
        row = await self.game(game_id)
        _refuse_unless_running(row)
        if row.status == "running":
            await self._to_clock(game_id)

        def step(game: LiveGame) -> Step:  # (under the game's lock)
            _refuse_unless_running(game.row)  # (the ticks due may have ended it)
            if moment is not None and _moment(game.summary()) != moment:
                raise MovedOn("the game moved on since this was decided: it was not carried out")
            # a command may end the game (a turn-based kind resolving its last turn)
            return Step(entry, status_after=_ended)

        return await self._run(game_id, step)

    async def submit_all(
        self,
        game_id: int,
        nation: str,
        commands: list[BaseModel],
        *,
        moment: Moment | None = None,
        pool: ThreadPoolExecutor | None = None,
    ) -> list[CommandResult | CommandError | GameError]:
        """A decision's commands in one go (an AI seat's): each judged as `submit` judges it,
        in order (a refused one changes nothing and is answered with its error; the others go
        on), applied in `pool`'s thread rather than on the event loop, and the accepted ones
        committed in one transaction. `moment`: as `submit`'s, checked once for all of them
        (`MovedOn`: none was carried out)."""
        row = await self.game(game_id)
        _refuse_unless_running(row)
        if row.status == "running":
            await self._to_clock(game_id)
        entries = [
            en.CommandEntry(nation=nation, command=c.model_dump(mode="json")) for c in commands
        ]
        game = await self._live(game_id)
        async with game.lock:
            if self._games.get(game_id) is not game:  # evicted while we waited
                return await self.submit_all(game_id, nation, commands, moment=moment, pool=pool)
            _refuse_unless_running(game.row)
            if moment is not None and _moment(game.summary()) != moment:
                raise MovedOn("the game moved on since this was decided: it was not carried out")

            def apply_all() -> list[Applied | CommandError | GameError]:
                out: list[Applied | CommandError | GameError] = []
                for entry in entries:
                    try:
                        events = game.kind.apply(game.world, entry)
                    except (CommandError, GameError) as exc:  # checked whole: nothing changed
                        out.append(exc)
                    else:
                        out.append(
                            Applied(Step(entry, status_after=_ended), events, game.world.tick)
                        )
                return out

            try:
                outcomes = apply_all() if pool is None else await in_thread(pool, apply_all)
            except BaseException:
                self.evict(game_id)
                raise
            applied = [o for o in outcomes if isinstance(o, Applied)]
            if not applied:
                return [o for o in outcomes if not isinstance(o, Applied)]
            first = game.seq + 1
            await self._commit_or_forget(game, applied, pool=pool)
        answers: list[CommandResult | CommandError | GameError] = []
        seq = first
        for outcome in outcomes:
            if isinstance(outcome, Applied):
                answers.append(CommandResult(game_id, seq, outcome.tick, outcome.events))
                seq += 1
            else:
                answers.append(outcome)
        await self._notify(game_id, [e for a in applied for e in a.events])
        return answers

    async def _to_clock(self, game_id: int) -> None:
        """Bring a game to its clock before a command is judged: after downtime, or between
        two passes of the ticker, the ticks due by now are done first (in the ticks' thread,
        committed in batches, like the ticker's). Costs a look at memory when none is due."""
        now = self.clock()
        at = self.next_tick_at(game_id)
        if at is None or at <= now:
            await self.catch_up(game_id, now)

    async def decision_view(
        self, game_id: int, nation: str, *, pool: ThreadPoolExecutor | None = None
    ) -> tuple[Any, Moment | None]:
        """A nation's view at the game's clock, with the moment it shows (turn and phase;
        None for a game in continuous time), read together: what an AI seat decides from, and
        ties its commands to (`submit(moment=...)`). `pool`: read in its thread (the AI's),
        not on the event loop."""
        row = await self.game(game_id)
        if row.status == "running":
            await self._to_clock(game_id)

        def read(game: LiveGame) -> tuple[Any, Moment | None]:
            try:
                view = game.kind.view_for(game.world, nation)
            except KeyError:
                raise GameError(f"there is no nation {nation!r} in game {game_id}") from None
            return view, _moment(game.summary())

        return await self._read(game_id, read, pool=pool)

    async def _relay(self, game_id: int, nation: str, command: dict[str, Any]) -> CommandResult:
        """Leave the order for the process that runs the game (`serve_relayed`) and wait for
        its answer. Not taken in time: withdrawn, so never carried out later. Taken but not
        answered in time: the player is told to look, as it may have been carried out."""
        store = self.store
        request = secrets.randbits(62) + 1
        deadline = time.monotonic() + self.relay_wait
        try:
            await store.relay_put(
                request, game_id, {"nation": nation, "command": command}, now=self.clock()
            )
            while True:
                taken_by, answer = await store.relay_state(request)
                if answer is not None:
                    return self._relayed_answer(game_id, answer)
                if time.monotonic() >= deadline:
                    if taken_by is None and await store.relay_cancel(request, now=self.clock()):
                        raise GameError(
                            "the game's host did not answer in time, so your order was not"
                            " carried out: try again in a minute, or give it in the game's channel"
                        )
                    if time.monotonic() >= deadline + self.relay_wait:
                        raise GameError(
                            "your order reached the game but its answer did not come back in"
                            " time: look at /status to see whether it was carried out"
                        )
                await asyncio.sleep(RELAY_POLL)
        except asyncio.CancelledError:
            # nobody waits for the answer any more: withdraw the order if it was not taken yet,
            # so that it is not carried out later without anyone told
            await asyncio.shield(store.relay_cancel(request, now=self.clock()))
            raise
        finally:
            self._copies.pop(game_id, None)  # what the player reads next shows their order

    def _relayed_answer(self, game_id: int, answer: dict[str, Any]) -> CommandResult:
        if "refused" in answer:
            error = CommandError if answer.get("as") == "command" else GameError
            raise error(str(answer["refused"]))
        if "done" not in answer:  # (withdrawn: never carried out)
            raise GameError("your order was withdrawn before it was carried out")
        done = answer["done"]
        kind = _kind(str(done["kind"]))
        return CommandResult(
            game_id=game_id,
            seq=int(done["seq"]),
            tick=int(done["tick"]),
            events=[kind.parse_event(e) for e in done["events"]],
        )

    async def serve_relayed(self) -> int:
        """Carry out the orders other processes relayed for the games this one runs (see
        `submit`), each once, and answer them; returns how many."""
        if self.owner is None:
            return 0
        held = [gid for gid, g in self._games.items() if g.token is not None]
        if not held:
            return 0
        taken = await self.store.relay_take(self.owner, held, now=self.clock())
        by_game: dict[int, list[tuple[int, dict[str, Any]]]] = {}
        for request_id, game_id, request in taken:
            by_game.setdefault(game_id, []).append((request_id, request))
        # the games side by side (one waiting for its tick does not hold the others' orders
        # up), each game's orders in the order they were given
        await asyncio.gather(*(self._serve_game(g, requests) for g, requests in by_game.items()))
        return len(taken)

    async def _serve_game(self, game_id: int, requests: list[tuple[int, dict[str, Any]]]) -> None:
        for request_id, request in requests:
            answer: dict[str, Any]
            try:
                game = await self._live(game_id)
                entry = en.CommandEntry(nation=str(request["nation"]), command=request["command"])
                result = await self._submit(game_id, entry)
                answer = {
                    "done": {
                        "kind": game.kind.name,
                        "seq": result.seq,
                        "tick": result.tick,
                        "events": [e.model_dump(mode="json") for e in result.events],
                    }
                }
            except CommandError as exc:
                answer = {"refused": str(exc), "as": "command"}
            except GameError as exc:
                answer = {"refused": str(exc), "as": "game"}
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a relayed order for game %s failed", game_id)
                answer = {"refused": "something went wrong on our side and it has been logged"}
            await self.store.relay_answer(request_id, answer, now=self.clock())

    # --- lobby -------------------------------------------------------------------------------------------

    async def join(
        self,
        game_id: int,
        *,
        name: str,
        colour: str,
        player: str | None,
        nation_id: str | None = None,
        founding: dict[str, Any] | None = None,
    ) -> str:
        """A nation joins (`founding`: what else its player chose, the kind's own; None: nothing,
        and the entry is stored as before)."""
        game = await self._live(game_id)
        if game.row.status == "ended":
            raise GameError("the game is over")
        name = name.strip()
        if not 1 <= len(name) <= 32:
            raise GameError("a nation's name is 1 to 32 characters")
        nid = nation_id or game.kind.nation_id_for(game.world, name)
        entry = en.Join(nation=nid, name=name, colour=colour, player=player, founding=founding)
        added = [(nid, player)] if player and player != AI_PLAYER else []

        def start_when_full(game: LiveGame) -> Step | None:  # full: start at once, atomically
            if game.row.status == "lobby" and game.kind.full(game.world):
                return self._start_step(game, time.time())
            return None

        await self._run(game_id, Step(entry, members=(added, [])), start_when_full)
        return nid

    async def leave(self, game_id: int, nation: str) -> None:
        await self._run(
            game_id,
            Step(en.Leave(nation=nation), members=([], [nation])),
        )

    async def resign(self, game_id: int, nation: str) -> None:
        await self._run(game_id, Step(en.Resign(nation=nation), status_after=_ended))

    async def start(self, game_id: int, *, now: float | None = None) -> None:
        game = await self._live(game_id)
        await self._run(game_id, self._start_step(game, time.time() if now is None else now))

    @staticmethod
    def _start_step(game: LiveGame, now: float) -> Step:
        started = game.clock.changed(paused=False).anchored(now, game.world.tick)
        clock = dict(game.row.clock, **started.to_dict())
        return Step(en.Start(), status_after=lambda w: "running", clock=clock)

    async def substitute(self, game_id: int, nation: str, player: str | None) -> None:
        """Hand a nation to another player (None: nobody plays it, e.g. the AI)."""
        await self._run(
            game_id,
            Step(
                en.Substitute(nation=nation, player=player),
                members=([(nation, player)] if player else [], [] if player else [nation]),
            ),
        )

    async def end(self, game_id: int) -> list[Event]:
        """End a running game now (a moderator's decision): standings as they are."""
        result = await self._run(game_id, Step(en.End(), status_after=lambda w: "ended"))
        return result.events

    async def update_settings(self, game_id: int, **changes: Any) -> GameRow:
        """Merge bot-side settings of a game (e.g. the pinned status message's id)."""
        game = await self._live(game_id)
        async with game.lock:
            settings = dict(game.row.settings, **changes)
            return await self._update_row(game, settings=settings)

    async def _update_row(self, game: LiveGame, **changes: Any) -> GameRow:
        """Change the game's row in the store (under the game's lock); memory follows on
        commit, even if the caller is cancelled meanwhile."""

        def settle(row: GameRow | None) -> None:
            if row is not None:
                game.row = row
                self._watches.changed(row.id)

        try:
            row = await self.store.update_game(
                game.row.id, **changes, on_commit=settle, fence=self._fence(game)
            )
        except LeaseLost:
            self.evict(game.row.id)
            raise
        if row is None:
            raise GameError(f"there is no game {game.row.id}")
        return row

    # --- time ---------------------------------------------------------------------------------------------

    async def advance(self, game_id: int, ticks: int) -> list[Event]:
        """Advance a game by `ticks`, in committed batches, yielding between batches."""
        if ticks < 0:
            raise GameError("time only moves forward")
        out: list[Event] = []
        while ticks > 0:
            game = await self._live(game_id)
            if game.world.ended or not game.world.started:
                break
            n = min(ticks, self.advance_batch)
            result = await self._run(
                game_id,
                Step(
                    en.Advance(ticks=n),
                    status_after=lambda w: "ended" if w.ended else None,
                ),
            )
            out.extend(result.events)
            ticks -= n
            await asyncio.sleep(0)
        return out

    async def due_ticks(self, game_id: int, now: float | None = None) -> int:
        """How many ticks the game is behind its clock (0 when paused or not running)."""
        game = await self._live(game_id)
        now = time.time() if now is None else now
        world = game.world
        return game.clock.due_ticks(now, tick=world.tick, end_tick=world.end_tick)

    def next_tick_at(self, game_id: int) -> float | None:
        """The real time at which a game in memory has its next tick due (`inf`: none will
        be, paused, ended or not running); None when the game is not in memory (ask
        `due_ticks`, which loads it). Reads memory only: the ticker's pass skips games that are
        not due without a task or a store round trip each."""
        game = self._games.get(game_id)
        if game is None:
            return None
        world = game.world
        return game.clock.next_tick_at(world.tick, end_tick=world.end_tick)

    def games_in_memory(self) -> int:
        """How many games this process holds in memory now."""
        return len(self._games)

    def seq_in_memory(self, game_id: int) -> int | None:
        """How many log entries a game in memory has applied (None: not in memory): any
        command or tick raises it. Reads memory only."""
        game = self._games.get(game_id)
        return None if game is None else game.seq

    def kind_in_memory(self, game_id: int) -> str | None:
        """The kind of a game in memory (None: not in memory). Reads memory only: a
        subscriber learns which game's events it was given."""
        game = self._games.get(game_id)
        return None if game is None else game.kind.name

    def tick_in_memory(self, game_id: int) -> int | None:
        """The tick of a game in memory (None: not in memory). Reads memory only: the
        notifier's daily look passes over the games whose day cannot have changed."""
        game = self._games.get(game_id)
        return None if game is None else game.world.tick

    async def catch_up(
        self, game_id: int, now: float | None = None, *, max_ticks: int | None = None
    ) -> int:
        """Advance a running game to where its clock says it should be; returns ticks done.
        Each batch is worked out under the game's lock from the clock and the tick as they are
        then, so two catch-ups at once (the ticker's and a moderator's pause) never go past the
        clock."""
        now = time.time() if now is None else now
        done = 0
        while max_ticks is None or done < max_ticks:
            left = None if max_ticks is None else max_ticks - done
            batch = [0]  # the ticks the step takes, set under the lock
            await self._run(game_id, partial(self._catch_up_step, now, left, batch))
            if not batch[0]:
                break
            done += batch[0]
            await asyncio.sleep(0)
        return done

    def _catch_up_step(
        self, now: float, left: int | None, batch: list[int], game: LiveGame
    ) -> Step | None:
        """The next batch of ticks a game is due (under its lock), or None."""
        world = game.world
        if world.ended or not world.started:
            return None
        n = min(
            game.clock.due_ticks(now, tick=world.tick, end_tick=world.end_tick), self.advance_batch
        )
        if left is not None:
            n = min(n, left)
        if n <= 0:
            return None
        batch[0] = n
        return Step(en.Advance(ticks=n), status_after=lambda w: "ended" if w.ended else None)

    async def _set_clock(
        self,
        game_id: int,
        now: float | None,
        *,
        speed: float | None = None,
        paused: bool | None = None,
    ) -> None:
        """Change the speed or pause flag; a running game's clock is re-anchored at its tick
        (callers catch it up first)."""
        game = await self._live(game_id)
        async with game.lock:
            if game.row.status == "ended":
                raise GameError("the game is over")  # its clock stopped for good
            now = time.time() if now is None else now
            clock = game.clock.changed(speed=speed, paused=paused)
            if game.row.status == "running":
                clock = clock.anchored(now, game.world.tick)
            await self._update_row(game, clock=dict(game.row.clock, **clock.to_dict()))

    async def set_speed(self, game_id: int, speed: float, *, now: float | None = None) -> None:
        if speed <= 0:
            raise GameError("speed is real seconds per game hour and must be positive")
        await self.catch_up(game_id, now)
        await self._set_clock(game_id, now, speed=float(speed))

    async def pause(self, game_id: int, *, now: float | None = None) -> None:
        await self.catch_up(game_id, now)
        await self._set_clock(game_id, now, paused=True)

    async def resume(self, game_id: int, *, now: float | None = None) -> None:
        await self._set_clock(game_id, now, paused=False)

    async def delete_game(self, game_id: int) -> None:
        game = await self._live(game_id)
        async with game.lock:
            await self.store.delete_game(
                game_id, on_commit=lambda _: self.evict(game_id), fence=self._fence(game)
            )


def _refuse_unless_running(row: GameRow) -> None:
    if row.status != "running" and row.status != "paused":
        raise CommandError(
            "the game is not running" if row.status != "lobby" else "the game has not started yet"
        )


def _moment(summary: GameSummary) -> Moment | None:
    turn = summary.turn
    return None if turn is None else (turn.number, turn.phase)


def _stored_size(entry: dict[str, Any]) -> int:
    """A log entry's size as the store keeps it (its compact JSON; close enough for text that
    is not ASCII)."""
    return len(json.dumps(entry, separators=(",", ":"), sort_keys=True))


def _ended(world: Any) -> str | None:
    """The row's status after an entry that may end the game."""
    return "ended" if world.ended else None
