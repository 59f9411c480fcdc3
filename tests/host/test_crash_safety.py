"""Kill a process with SIGKILL in the middle of commands and ticks; every acknowledged request
must be in the store and the recovered world must be exactly the acknowledged one. On SQLite
(the file the killed process wrote) and on PostgreSQL (the server rolls back the killed
client's open transaction)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.host.service import GameService
from engine.host.storage import open_store
from engine.interface.entries import entry_from_json
from engine.interface.kind import kind as kind_named

ROOT = Path(__file__).resolve().parents[2]


def run_and_kill(
    db: str, seed: int, acks_before_kill: int, kind: str = ""
) -> tuple[int, list[tuple[int, str]]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.crash_child", str(db), str(seed), kind],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acks: list[tuple[int, str]] = []
    game = None
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("GAME"):
            game = int(line.split()[1])
        elif line.startswith("ACK"):
            _, seq, digest = line.split()
            acks.append((int(seq), digest))
            if len(acks) >= acks_before_kill:
                break
    os.kill(proc.pid, signal.SIGKILL)  # mid-request: the child is already working on the next one
    proc.wait()
    assert game is not None, "the child never created its game"
    return game, acks


CASES = [
    ("strategic-initiative", 1, 25),
    ("strategic-initiative", 2, 60),
    ("strategic-initiative", 3, 140),
    ("supply-lines", 4, 40),
    ("supply-lines", 5, 120),
]


@pytest.mark.parametrize("kind,seed,kill_after", CASES)
def test_sigkill_loses_nothing_acknowledged(store_url, kind, seed, kill_after):
    db = store_url
    game, acks = run_and_kill(db, seed, kill_after, kind)
    assert len(acks) >= kill_after
    plugin = kind_named(kind)

    async def check() -> None:
        store = await open_store(db)
        last = await store.last_seq(game)
        acked_seq, acked_hash = acks[-1]
        assert last >= acked_seq, "an acknowledged request is missing from the log"
        # replay the whole log from the first snapshot: every acknowledged state is reproduced
        snap = await store.first_snapshot(game)
        first = None
        if snap is not None and snap[0] == 0:
            first = plugin.load(snap[1])
        await store.close()

        svc = await GameService.open(db)
        recovered = await svc.live_world(game)
        if last == acked_seq:
            assert plugin.hash(recovered) == acked_hash
        # the recovered world equals a replay of its whole log (consistency)
        assert first is not None, "no first snapshot to replay from"
        entries = await svc.store.log_after(game, 0)
        by_seq = dict(acks)
        for seq, entry in entries:
            plugin.apply(first, entry_from_json(entry))
            if seq in by_seq:
                assert plugin.hash(first) == by_seq[seq], (
                    f"state after seq {seq} differs from what was acknowledged"
                )
        assert plugin.hash(first) == plugin.hash(recovered)
        await svc.close()

    asyncio.run(check())
