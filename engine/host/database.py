"""One SQLite connection on its own thread, used by whole units of work.

Every call hands the thread one synchronous function of the connection. A write is a
transaction: BEGIN IMMEDIATE, the function's statements, then COMMIT (or ROLLBACK on any
error), all inside that one function on the database thread. So no other coroutine's SQL can
ever run in the middle of a transaction (the thread runs one job at a time, in order), and a
transaction costs one round trip to the thread, not one per statement.

Cancellation: once handed to the thread, a job always runs to its end. A caller cancelled while
it waits for a write does not stop waiting: it waits until the transaction has committed or
rolled back, runs its `on_commit` bookkeeping if it committed, and only then re-raises its own
CancelledError. So a caller never mistakes a committed write for a failed one, and memory kept
beside the store can always be brought in line with it. Reads can be abandoned freely.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
Job = Callable[[sqlite3.Connection], Any]
# run on a new connection, in order: a statement, or a function of the connection (a check
# that may refuse the file before any statement changes it)
Pragma = str | Callable[[sqlite3.Connection], None]

_STOP = object()


class DatabaseClosed(RuntimeError):
    """The database was closed: nothing more can be read or written."""


class StoreUnusable(RuntimeError):
    """A store that cannot be used as configured (a damaged, read-only or newer file, a
    PostgreSQL server that cannot be reached or refuses the role): its message is one line
    saying what is wrong and what to do, for an operator reading the start-up's output."""


class Database:
    """A SQLite connection owned by one worker thread."""

    def __init__(self, path: str, pragmas: list[Pragma]) -> None:
        self.path = path
        self._pragmas = pragmas
        self._jobs: SimpleQueue[tuple[asyncio.Future | None, Any]] = SimpleQueue()
        self._conn: sqlite3.Connection | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._work, name=f"sqlite:{path}", daemon=True)

    @classmethod
    async def open(cls, path: str, pragmas: list[Pragma]) -> Database:
        db = cls(path, pragmas)
        db._thread.start()
        try:
            await finish(db._submit(db._connect))
        except BaseException:
            db._closed = True
            db._jobs.put((None, _STOP))
            raise
        return db

    def _connect(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            for pragma in self._pragmas:
                if isinstance(pragma, str):
                    conn.execute(pragma)
                else:
                    pragma(conn)
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    # --- the worker thread --------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            future, job = self._jobs.get()
            if job is _STOP:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
                if future is not None:
                    _post(future, _set_result, None)
                return
            try:
                result = job()
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting coroutine
                if future is not None:
                    _post(future, _set_exception, exc)
            else:
                if future is not None:
                    _post(future, _set_result, result)

    def _submit(self, job: Callable[[], T]) -> asyncio.Future[T]:
        if self._closed:
            raise DatabaseClosed("the database is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((future, job))
        return future

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise DatabaseClosed("the database is closed")
        return self._conn

    # --- reads and transactions -----------------------------------------------------------------------

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the database thread (reads: no transaction is opened; a
        caller cancelled meanwhile simply does not get the answer)."""
        future = self._submit(lambda: _no_cursor(fn(self._connection())))
        return await future

    async def write(
        self,
        fn: Callable[[sqlite3.Connection], T],
        *,
        on_commit: Callable[[T], None] | None = None,
    ) -> T:
        """Run `fn(connection)` as one transaction on the database thread and return its
        result after COMMIT. Any error rolls the whole transaction back and is raised here.

        If the caller is cancelled while the transaction runs, it still waits for the outcome;
        `on_commit(result)` runs (on the event loop) as soon as the transaction has committed,
        then the cancellation is re-raised."""
        future = self._submit(lambda: _transaction(self._connection(), fn))
        cancelled = await _wait_through(future)
        error = future.exception()
        if error is None and on_commit is not None:
            on_commit(future.result())
        if cancelled is not None:
            raise cancelled
        if error is not None:
            raise error
        return future.result()

    async def close(self) -> None:
        """Finish the jobs already handed over, then close the connection and the thread."""
        if self._closed:
            return
        self._closed = True
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._jobs.put((future, _STOP))
        await finish(future)
        await asyncio.to_thread(self._thread.join, 5.0)


def _transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    if conn.in_transaction:  # never expected: a transaction is always closed below
        log.error("a transaction was left open on %s; rolling it back", conn)
        conn.execute("ROLLBACK")
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = _no_cursor(fn(conn))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a failed COMMIT (busy, I/O) leaves it open too
            conn.execute("ROLLBACK")
        raise
    return result


def _no_cursor(result: T) -> T:
    """Refuse a job's cursor as its result (on the database thread, before any COMMIT): a
    cursor that reaches the event loop's thread is freed there, and freeing it resets its
    statement, which the connection's statement cache may have handed to the job running on
    this thread meanwhile (SQLite then fails that job with "bad parameter or other API
    misuse"). Jobs return rows, counts or nothing."""
    if isinstance(result, sqlite3.Cursor):
        result.close()
        raise TypeError("a database job returned a cursor: return its rows or rowcount instead")
    return result


async def _wait_through(future: asyncio.Future) -> asyncio.CancelledError | None:
    """Wait until `future` is done even if the current task is cancelled meanwhile (perhaps
    several times); returns the cancellation to re-raise once the caller has settled."""
    cancelled: asyncio.CancelledError | None = None
    while not future.done():
        try:
            await asyncio.wait((future,))
        except asyncio.CancelledError as exc:
            cancelled = exc
    return cancelled


async def finish(future: asyncio.Future[T]) -> T:
    """The result of a job already handed to the thread, waiting for it through
    cancellation (then re-raised)."""
    cancelled = await _wait_through(future)
    if cancelled is not None:
        raise cancelled
    return future.result()


def _post(future: asyncio.Future, setter: Callable[..., None], value: Any) -> None:
    with contextlib.suppress(RuntimeError):  # a closed event loop: nobody waits any more
        future.get_loop().call_soon_threadsafe(setter, future, value)


def _set_result(future: asyncio.Future, value: Any) -> None:
    if not future.done():
        future.set_result(value)


def _set_exception(future: asyncio.Future, exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)
