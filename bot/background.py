"""Stopping background tasks: cancelled once, given a few seconds, never waited on forever."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

log = logging.getLogger(__name__)

STOP_TIMEOUT = 5.0


async def stop_tasks(tasks: Iterable[asyncio.Task], timeout: float = STOP_TIMEOUT) -> list[str]:
    """Cancel the tasks and wait until they end, at most `timeout` seconds; returns the names
    of those still running then (logged: a task that outlives its cancel is a bug)."""
    pending = [t for t in tasks if not t.done()]
    for task in pending:
        task.cancel()
    if not pending:
        return []
    done, still = await asyncio.wait(pending, timeout=timeout)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.error("task %s failed while stopping", task.get_name(), exc_info=task.exception())
    names = sorted(t.get_name() for t in still)
    if names:
        log.error("tasks still running %.0fs after their cancel: %s", timeout, ", ".join(names))
    return names
