"""Which processes write to a store now: each holds a row of its own in the store's
`processes` table (its name, what it is, host, pid, since when) and beats it, every
`HEARTBEAT_SECONDS`, while it runs (issue 27, findings 5 and 7).

- A bot process claims its row before it logs in to Discord (bot/client.py `run`), under its
  `SI_INSTANCE`, or as the one bot without a name. A claim is refused while another process
  is heard from under the same name (two processes of one name would take games from each
  other for ever); a bot without `SI_INSTANCE` runs every game without leases, so it must be
  alone on its store, and no named one may start beside it either.
- `si db copy` claims both stores as alone (engine/host/copy.py): it refuses a store a bot
  writes to, single process included, and no bot starts on either while it copies.
- A process is heard from while its last beat is younger than `STALE_SECONDS`. One that died
  stops being heard from: its row is taken over then, and at once on the machine it ran on
  when its pid is gone (a restart by systemd need not wait).
- A process that finds its row taken over (it was paused, or cut off from the store, for
  longer than `STALE_SECONDS`) has been replaced: `Writer.keep` tells its owner, which stops.

The rows are claimed and checked in one transaction, in the store (`GameStore.claim_process`);
the rule of who stops whom is here (`refusal`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.host.database import StoreUnusable
from engine.host.rows import ProcessRow
from engine.host.storage import GameStore

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0  # how often a process beats its row
STALE_SECONDS = 60.0  # a row not beaten for this long is a process that died (or froze)

BOT, COPY = "bot", "copy"
COPY_NAME = "si db copy"


class StoreInUse(StoreUnusable):
    """Another process writes to the store, and this one may not beside it (`holder`)."""

    def __init__(self, message: str, holder: ProcessRow) -> None:
        super().__init__(message)
        self.holder = holder


def this_host() -> str:
    return socket.gethostname()


def pid_alive(pid: int) -> bool:
    """Whether a process of this pid runs on this machine."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as another user
        return True
    return True


@dataclass(frozen=True)
class Liveness:
    """How a claim judges another process's row: heard from within `stale` seconds of `now`,
    and, on this machine, its pid still running (and not this process's own: a container
    restarted under the same pid)."""

    now: float
    stale: float = STALE_SECONDS
    host: str = ""
    pid: int = 0
    alive: Callable[[int], bool] = pid_alive

    def heard(self, row: ProcessRow) -> bool:
        if row.beat <= self.now - self.stale:
            return False
        if self.host and row.host == self.host:
            return row.pid != self.pid and self.alive(row.pid)
        return True


def refusal(mine: ProcessRow, live: Liveness) -> Callable[[list[ProcessRow]], ProcessRow | None]:
    """The rule of a claim: the first process heard from that `mine` may not run beside (the
    same name; or either of the two must be alone on the store), or None."""

    def stops(rows: list[ProcessRow]) -> ProcessRow | None:
        for row in sorted(rows, key=lambda r: r.since):
            if row.token == mine.token or not live.heard(row):
                continue
            if row.name == mine.name or row.alone or mine.alone:
                return row
        return None

    return stops


def describe(row: ProcessRow, now: float) -> str:
    """Who a process is, for an operator: its name, pid and host, since when, last heard."""
    if row.role == COPY:
        who = "si db copy"
    elif row.name:
        who = f"the bot process {row.name!r}"
    else:
        who = "a bot process without SI_INSTANCE"
    since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(row.since))
    heard = max(0.0, now - row.beat)
    return (
        f"{who} (pid {row.pid} on host {row.host}, running since {since}, last heard from"
        f" {heard:.0f} s ago)"
    )


def _advice(mine: ProcessRow, holder: ProcessRow) -> str:
    later = (
        f"a process that died is forgotten {STALE_SECONDS:.0f} s after it was last heard"
        " from (at once on its own machine)"
    )
    if holder.role == COPY:
        return f"wait until the copy has finished, then start again ({later})"
    if mine.role == COPY:
        return f"stop every bot process on it (systemctl stop ...) and copy again ({later})"
    if holder.name == mine.name and mine.name:
        return (
            "stop that one first, or give this process a name of its own (SI_INSTANCE, si bot"
            f" --instance; docs/DEPLOY.md); {later}"
        )
    if holder.name == mine.name:
        return f"stop that one first (one bot without SI_INSTANCE runs every game); {later}"
    if holder.alone:
        return (
            "a bot without SI_INSTANCE runs every game by itself: stop it first, or give every"
            f" process its own SI_INSTANCE (docs/DEPLOY.md); {later}"
        )
    return (
        "a bot without SI_INSTANCE must be alone on its store: give this one an SI_INSTANCE of"
        f" its own (several processes: docs/DEPLOY.md), or stop the others; {later}"
    )


class Writer:
    """This process's row in a store's `processes` table: claimed, beaten, released."""

    def __init__(self, store: GameStore, row: ProcessRow, clock: Callable[[], float]) -> None:
        self.store = store
        self.row = row
        self.clock = clock
        self.lost = False

    @classmethod
    async def claim(
        cls,
        store: GameStore,
        name: str | None,
        *,
        role: str = BOT,
        alone: bool | None = None,
        what: str = "this store",
        clock: Callable[[], float] = time.time,
        stale: float = STALE_SECONDS,
        host: str | None = None,
        pid: int | None = None,
        alive: Callable[[int], bool] = pid_alive,
    ) -> Writer:
        """Claim the store for this process (`name`: its SI_INSTANCE; None: the one bot
        without, which must be alone, as must a copy), or raise `StoreInUse` naming the
        process heard from that stops it. `host` and `pid` are this process's (tests set
        them)."""
        now = clock()
        mine = ProcessRow(
            name=name or "",
            role=role,
            alone=(not name) if alone is None else alone,
            host=this_host() if host is None else host,
            pid=os.getpid() if pid is None else pid,
            since=now,
            beat=now,
            token=secrets.token_hex(8),
        )
        live = Liveness(now, stale, mine.host, mine.pid, alive)
        holder = await store.claim_process(mine, refusal(mine, live))
        if holder is not None:
            raise StoreInUse(
                f"{what} is in use by {describe(holder, now)}: {_advice(mine, holder)}", holder
            )
        return cls(store, mine, clock)

    async def beat(self) -> bool:
        """Beat this process's row; False (and `lost`) if another process has taken it over."""
        if self.lost:
            return False
        if not await self.store.beat_process(self.row.name, self.row.token, self.clock()):
            self.lost = True
        return not self.lost

    async def keep(
        self, on_lost: Callable[[str], object], *, every: float = HEARTBEAT_SECONDS
    ) -> None:
        """Beat every `every` seconds until cancelled; a failed beat (the store unreachable) is
        logged and tried again. If the row was taken over, `on_lost(message)` is called once
        and the loop ends."""
        while True:
            await asyncio.sleep(every)
            try:
                kept = await self.beat()
            except Exception as exc:  # noqa: BLE001 - the store may come back: tried again
                log.warning("the heartbeat of this process failed (%s); trying again", exc)
                continue
            if not kept:
                on_lost(
                    f"another process has taken over the name {self.row.name!r} on the store"
                    f" (this one was not heard from for {STALE_SECONDS:.0f} s): stopping"
                )
                return

    async def release(self) -> None:
        """Remove this process's row (a clean stop): another may start at once."""
        if self.lost:
            return
        try:
            await self.store.release_process(self.row.name, self.row.token)
        except Exception:  # noqa: BLE001 - it goes stale instead
            log.warning(
                "could not remove this process's row from the store; it is forgotten %.0f s"
                " after its last heartbeat",
                STALE_SECONDS,
                exc_info=True,
            )
