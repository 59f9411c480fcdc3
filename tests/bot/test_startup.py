"""Start-up that explains itself (issue 27, finding 12): the store is opened and checked before
the Discord login, and each bad configuration is one line saying what is wrong and what to do
(no traceback, a non-zero exit status); a file the program refuses is left as it was; every
interval has a lower bound.

`run(settings)` is called as `si bot` calls it, with Discord's login replaced by a failure of
the test: none of these cases may get that far."""

from __future__ import annotations

import asyncio
import ctypes
import hashlib
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from pydantic import SecretStr, ValidationError

from bot import client
from bot.cli import main
from bot.config import Settings
from engine.host.sqlite import SCHEMA_VERSION
from engine.host.storage import open_store
from tests import pg
from tests.games.counter.registration import registered

ROOT = Path(__file__).resolve().parents[2]


def settings(**values) -> Settings:
    # _env_file is BaseSettings' own argument, which mypy does not see (it reads the fields)
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token=SecretStr("fake-token"), SI_DRAW_WORKERS=0, **values
    )


@pytest.fixture
def no_login(monkeypatch):
    """Discord's login fails the test: a bad store must be found before it."""

    async def start(self, *args, **kwargs):
        raise AssertionError("the bot logged in to Discord before its store was checked")

    monkeypatch.setattr(client.StrategicBot, "start", start)


async def refused(given: Settings, caplog) -> str:
    """Run the bot; it must stop with status 2 and one line of error, no traceback."""
    caplog.set_level(logging.INFO)
    status = await asyncio.to_thread(client.run, given)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert status == 2, caplog.text
    assert len(errors) == 1, caplog.text
    assert errors[0].exc_info is None and "\n" not in errors[0].getMessage()
    message = errors[0].getMessage()
    assert "Discord" not in message
    return message


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


async def test_a_corrupt_database_file_is_one_line(tmp_path, caplog, no_login) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(os.urandom(16384))
    before = digest(tmp_path)
    message = await refused(settings(SI_DATABASE=str(path)), caplog)
    assert message.startswith(f"the database {path} is damaged or not a SQLite database")
    assert "restore it from a backup" in message
    assert digest(tmp_path) == before


async def test_a_newer_schema_is_refused_and_the_file_left_as_it_was(
    tmp_path, caplog, no_login
) -> None:
    path = tmp_path / "games.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = digest(tmp_path)
    message = await refused(settings(SI_DATABASE=str(path)), caplog)
    assert message.startswith(
        f"the database {path} has schema version {SCHEMA_VERSION + 1}, newer than this"
        f" program's ({SCHEMA_VERSION}): a newer version of the bot has used it"
    )
    assert digest(tmp_path) == before  # not switched to WAL (no -wal file), not migrated
    assert path.read_bytes()[18:20] == b"\x01\x01"  # the header's rollback-journal mode


async def test_a_game_without_a_bot_side_stops_the_bot_before_its_store(
    tmp_path, caplog, no_login
) -> None:
    """A registered game the bot has no side for (no commands, no DM words): `si bot` says
    which, and stops before it opens the store or logs in."""
    path = tmp_path / "games.db"
    with registered(bot=None):
        message = await refused(settings(SI_DATABASE=str(path)), caplog)
    assert message == "game 'counter': the game 'counter' has no bot side: the bot cannot host it"
    assert not path.exists()


async def test_a_game_with_its_bot_side_is_hosted(tmp_path, caplog, monkeypatch) -> None:
    """The same game with its side (the one registry line, complete): the bot goes on to its
    store and to Discord."""
    tried: list[bool] = []

    async def start(self, *args, **kwargs):
        tried.append(True)
        raise OSError("no route to discord.com")

    monkeypatch.setattr(client.StrategicBot, "start", start)
    caplog.set_level(logging.INFO)
    path = tmp_path / "games.db"
    with registered():
        status = await asyncio.to_thread(client.run, settings(SI_DATABASE=str(path)))
    assert status == 1 and tried, caplog.text
    assert "bot side" not in caplog.text and path.exists()


async def test_a_too_long_path_is_one_line_and_not_discord(tmp_path, caplog, no_login) -> None:
    path = tmp_path / ("x" * 300) / "games.db"
    message = await refused(settings(SI_DATABASE=str(path)), caplog)
    assert message.startswith("the path of the database is too long for this system")


def _drop_root_powers() -> None:
    """In the child, before exec: root without the powers that pass file permissions by."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_a_read_only_database_file_is_one_line_from_si_bot(tmp_path, journal) -> None:
    """As `si bot` runs, in a process of its own (as root: without the powers that write a
    read-only file anyway)."""
    path = tmp_path / "games.db"
    asyncio.run(_migrated(path))
    conn = sqlite3.connect(path)
    assert conn.execute(f"PRAGMA journal_mode={journal}").fetchone() == (journal,)
    conn.close()
    path.chmod(0o444)
    before = digest(tmp_path)
    env = {**os.environ, "DISCORD_TOKEN": "fake-token", "SI_DATABASE": str(path)}
    env.pop("SI_DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "bot"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_drop_root_powers if os.geteuid() == 0 else None,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"the database {path} is read-only for this user" in lines[0]
    assert "give the bot's user write access" in lines[0]
    assert digest(tmp_path) == before


async def _migrated(path: Path) -> None:
    store = await open_store(path)
    await store.close()


@pytest.fixture
async def pg_database(pg_server: pg.Server):
    made: list[str] = []

    async def make() -> str:
        made.append(await pg_server.new_database())
        return made[-1]

    yield make
    for url in made:
        await pg_server.drop_database(url)


async def test_a_newer_postgresql_schema_is_refused(pg_database, caplog, no_login) -> None:
    url = await pg_database()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION + 50)
        message = await refused(settings(SI_DATABASE_URL=url), caplog)
        assert "newer than this program's" in message and "nothing was changed" in message
        assert await conn.fetchval("SELECT MAX(version) FROM schema_version") == (
            SCHEMA_VERSION + 50
        )
    finally:
        await conn.close()


async def test_a_bad_postgresql_role_is_one_line(
    pg_server: pg.Server, pg_database, caplog, no_login
) -> None:
    url = await pg_database()
    wrong = url.replace("postgres@", "nosuchrole@")
    message = await refused(settings(SI_DATABASE_URL=wrong), caplog)
    assert message.startswith("PostgreSQL at postgresql://nosuchrole@/")
    assert 'refused the role (role "nosuchrole" does not exist): check the user' in message
    # a role that may log in, but not make the bot's tables
    admin = await asyncpg.connect(pg_server.url("postgres"))
    try:
        await admin.execute("DROP ROLE IF EXISTS weak")
        await admin.execute("CREATE ROLE weak LOGIN")
        await admin.execute("CREATE DATABASE weak_db")
    finally:
        await admin.close()
    weak = pg_server.url("weak_db").replace("postgres@", "weak@")
    caplog.clear()
    try:
        message = await refused(settings(SI_DATABASE_URL=weak), caplog)
        assert "may not make or change the bot's tables (permission denied" in message
    finally:
        await pg_server.drop_database(pg_server.url("weak_db"))


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://si@127.0.0.1:1/si", "cannot connect to PostgreSQL at postgresql://si@127"),
        (
            "postgresql://si:secret@/si?host=/tmp/" + "x" * 150,
            "the socket folder's path is too long",
        ),
    ],
    ids=["server-down", "socket-path-too-long"],
)
async def test_a_postgresql_server_that_cannot_be_reached_is_not_discord(
    url, said, caplog, no_login
) -> None:
    message = await refused(settings(SI_DATABASE_URL=url), caplog)
    assert said in message
    assert "secret" not in message


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("SI_TICK_SECONDS", "0", "SI_TICK_SECONDS must be at least 0.05 s"),
        ("SI_LEASE_SECONDS", "0", "SI_LEASE_SECONDS must be at least 1 s"),
        ("SI_NOTIFY_SECONDS", "-1", "SI_NOTIFY_SECONDS must be at least 0.05 s"),
        ("SI_STATUS_SECONDS", "0", "SI_STATUS_SECONDS must be at least 0.1 s"),
        ("SI_OUTBOX_RETENTION_DAYS", "0", "SI_OUTBOX_RETENTION_DAYS must be more than 0 days"),
        ("SI_DM_RETRY_HOURS", "0", "SI_DM_RETRY_HOURS must be more than 0 hours"),
        ("SI_TICK_SECONDS", "nan", "SI_TICK_SECONDS must be a finite number"),
        ("SI_TICK_SECONDS", "soon", "SI_TICK_SECONDS: Input should be a valid number"),
    ],
)
def test_every_interval_has_a_lower_bound(variable, value, said, monkeypatch, capsys) -> None:
    from bot.config import settings_problem

    with pytest.raises(ValidationError) as bad:
        Settings.model_validate({variable: value})
    assert settings_problem(bad.value).startswith(f"bad settings (environment or .env): {said}")
    # and from the environment, as `si bot` reads it: one line, status 2
    monkeypatch.setenv(variable, value)
    assert main(["bot"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"si bot: bad settings (environment or .env): {said}")
    assert len(err.strip().splitlines()) == 1


def test_the_least_intervals_are_accepted() -> None:
    least = Settings.model_validate(
        {
            "SI_TICK_SECONDS": "0.05",
            "SI_NOTIFY_SECONDS": "0.05",
            "SI_STATUS_SECONDS": "0.1",
            "SI_LEASE_SECONDS": "1",
            "SI_OUTBOX_RETENTION_DAYS": "",
        }
    )
    assert (least.tick_seconds, least.lease_seconds, least.outbox_retention_days) == (
        0.05,
        1.0,
        None,
    )


async def test_a_good_store_is_opened_claimed_and_then_discord_is_tried(
    tmp_path, caplog, monkeypatch
) -> None:
    """The store opened first, and only then the login; the store is closed and its process
    row released however the login ends."""
    seen: list[list[str]] = []

    async def start(self, *args, **kwargs):
        rows = await self.service.store.processes()
        seen.append([p.name for p in rows])
        raise OSError("no route to discord.com")

    monkeypatch.setattr(client.StrategicBot, "start", start)
    caplog.set_level(logging.INFO)
    path = tmp_path / "games.db"
    status = await asyncio.to_thread(client.run, settings(SI_DATABASE=str(path)))
    assert status == 1
    assert seen == [[""]]  # the bot without SI_INSTANCE held the store while it logged in
    assert "cannot reach Discord: no route to discord.com" in caplog.text
    again = await open_store(path)
    try:
        assert await again.processes() == []
    finally:
        await again.close()
