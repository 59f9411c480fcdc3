"""Copying every game from one store to another (`si db copy FROM TO`: SQLite to PostgreSQL
and back), then proving the copy replays as the original did.

What is copied, per game, with the same game id, seqs and outbox row ids (`GameDump`): the
game's row (name, kind, ruleset, status, server and channel, creator, creation time, settings,
clock), its whole log, its snapshots (the first world and the newest), its members, and its
outbox rows as they are (delivered, attempts, last error, held until): a DM already sent is
not sent again from the new store, a pending one still is. Each game is written in one
transaction, so a copy that fails half-way leaves whole games in the target, never part of
one. New games on the target get ids after the copied ones.

What is not: leases. A copy is taken with the bot stopped; a lease names a process of the
source store, and the first process to load a game from the new store takes a fresh one. A
source game leased until later than now means a process may still be writing it: the copy
refuses to start (`live_leases=True` copies anyway).

A live source is refused, a single bot process without leases included: every bot process
holds a row in its store's `processes` table and beats it (engine/host/writers.py), and
`hold_stores` claims both stores for the copy, as a process that must be alone on them. So it
refuses while a bot is heard from on either store (saying which, where and since when), and no
bot starts on either until the copy is done.

The bot's own tables (players' settings, DM status, sitreps, confirmations, /news: bot/store.py)
are the bot's, which the engine knows nothing of: `si db copy` (bot/cli.py) copies them after
the games, only the rows of the games copied here (`CopyReport.game_ids`) and the players' own,
with `BotStore.export_rows`/`import_rows`, and verifies them too.

Verification (`verify`): the source's games, read again at the end, must be exactly the games
copied (a writer the claim could not see, such as an older program, made or deleted none
meanwhile); each copied game is read back from the target and must be the same rows as read
from the source, and on both sides its replay must give the same world hash both ways: newest
snapshot + the log after it (how the service loads a game), and first world + the whole log
(how its history is replayed).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError
from engine.host.rows import GameDump, GameExists
from engine.host.storage import GameStore
from engine.host.writers import COPY, COPY_NAME, StoreInUse, Writer
from engine.interface import entries as en
from engine.interface.kind import kind as _kind


class CopyRefused(GameError):
    """The copy did not start: nothing was written to the target."""


@dataclass
class CopyReport:
    games: int = 0
    log_entries: int = 0
    snapshots: int = 0
    outbox_rows: int = 0
    outbox_pending: int = 0  # of which not delivered yet (held ones included)
    members: int = 0
    copy_seconds: float = 0.0
    game_ids: list[int] = field(default_factory=list)

    def add(self, dump: GameDump) -> None:
        self.games += 1
        self.game_ids.append(dump.id)
        self.log_entries += len(dump.log)
        self.snapshots += len(dump.snapshots)
        self.outbox_rows += len(dump.outbox)
        self.outbox_pending += sum(1 for r in dump.outbox if r[6] is None)
        self.members += len(dump.members)


async def hold_stores(source: GameStore, target: GameStore) -> list[Writer]:
    """Claim both stores for the copy (engine/host/writers.py), alone: `CopyRefused` (with the
    process heard from: who, where, since when) if a bot or another copy is on either, and
    nothing claimed. `release_stores` after the copy."""
    held: list[Writer] = []
    try:
        for store, which in ((source, "the source store"), (target, "the target store")):
            held.append(await Writer.claim(store, COPY_NAME, role=COPY, alone=True, what=which))
    except StoreInUse as exc:
        await release_stores(held)
        raise CopyRefused(f"{exc}; nothing copied") from exc
    return held


async def release_stores(held: list[Writer]) -> None:
    for writer in held:
        await writer.release()


async def copy_stores(
    source: GameStore,
    target: GameStore,
    *,
    live_leases: bool = False,
    now: float | None = None,
    progress: Callable[[GameDump], None] | None = None,
) -> CopyReport:
    """Copy every game of `source` into `target` (one transaction per game, in id order).
    Refuses before writing anything (`CopyRefused`) when the target has a game of a copied
    id already, or (unless `live_leases`) a source game is leased to a process until after
    `now`. Does not verify: call `verify` after."""
    now = time.time() if now is None else now
    rows = await source.games()
    taken = [row.id for row in rows if await target.game(row.id) is not None]
    if taken:
        raise CopyRefused(
            f"the target has games with the ids of {len(taken)} source games already"
            f" ({', '.join(map(str, taken[:10]))}{', ...' if len(taken) > 10 else ''}):"
            " nothing copied (copy into a new, empty store)"
        )
    if not live_leases:
        for row in rows:
            lease = await source.lease(row.id)
            if lease is not None and lease.expires > now:
                raise CopyRefused(
                    f"game {row.id} is leased to the process {lease.owner!r} for"
                    f" {lease.expires - now:.0f} s more: stop the bot before copying (or wait"
                    " for the lease to end); nothing copied"
                )
    report = CopyReport()
    began = time.perf_counter()
    for row in rows:
        dump = await source.export_game(row.id)
        if dump is None:  # deleted meanwhile
            continue
        try:
            await target.import_game(dump)
        except GameExists as exc:
            raise CopyRefused(f"{exc} (after {report.games} games copied)") from exc
        report.add(dump)
        if progress is not None:
            progress(dump)
    report.copy_seconds = time.perf_counter() - began
    return report


async def replay_hashes(store: GameStore, game_id: int) -> tuple[str, str, int]:
    """A stored game's world hash replayed two ways: (newest snapshot + the log after it,
    first world + the whole log, the last seq)."""
    found = await store.load(game_id)
    first = await store.first_snapshot(game_id)
    if found is None or first is None:
        raise GameError(f"game {game_id} has no stored world")
    row, (_, newest_json, _), after = found
    first_seq, first_json, _ = first
    whole = await store.log_after(game_id, first_seq)
    plugin = _kind(row.kind)

    def replay(world_json: str, entries: list[tuple[int, dict[str, Any]]]) -> str:
        world = plugin.load(world_json)
        for _, entry in entries:
            plugin.apply(world, en.entry_from_json(entry))
        return plugin.hash(world)

    newest = await asyncio.to_thread(replay, newest_json, after)
    from_first = await asyncio.to_thread(replay, first_json, whole)
    return newest, from_first, whole[-1][0] if whole else first_seq


async def verify(source: GameStore, target: GameStore, game_ids: list[int]) -> list[str]:
    """What differs between the two stores' copies of these games (empty: nothing): the
    source's games now against those copied, their rows, and their replays' hashes (see the
    module's text)."""
    problems = []
    copied = set(game_ids)
    now_there = {row.id for row in await source.games()}
    for game_id in sorted(now_there - copied):
        problems.append(
            f"game {game_id}: in the source at the end of the copy, not in the target (made"
            " during the copy?)"
            if await target.game(game_id) is None
            else f"game {game_id}: in the source at the end of the copy, not copied (the"
            " target has another game of that id)"
        )
    for game_id in game_ids:
        mine, theirs = await source.export_game(game_id), await target.export_game(game_id)
        if mine is None:
            problems.append(f"game {game_id}: deleted from the source during the copy")
            continue
        if theirs is None:
            problems.append(f"game {game_id}: missing from the target")
            continue
        if mine != theirs:
            differ = [
                part
                for part in ("game", "log", "snapshots", "outbox", "members")
                if getattr(mine, part) != getattr(theirs, part)
            ]
            problems.append(f"game {game_id}: rows differ ({', '.join(differ)})")
        src_newest, src_first, _ = await replay_hashes(source, game_id)
        dst_newest, dst_first, _ = await replay_hashes(target, game_id)
        if src_newest != src_first:
            problems.append(
                f"game {game_id}: in the source, the newest snapshot + log replays to"
                f" {src_newest[:16]} but the first world + log to {src_first[:16]}"
            )
        if (dst_newest, dst_first) != (src_newest, src_first):
            problems.append(
                f"game {game_id}: replays to {dst_newest[:16]} (newest snapshot + log) and"
                f" {dst_first[:16]} (first world + log) in the target, {src_newest[:16]} and"
                f" {src_first[:16]} in the source"
            )
    return problems
