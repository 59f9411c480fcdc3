"""The event loop's CPU time by task, without a profiler's distortion: every step of a task
(one `send` into its coroutine, up to its next suspension) is timed with the thread's CPU clock
and counted under the task's name; a task started from inside a task counts under its
parent's (the ticker's games advanced side by side count as the ticker's). What the loop does
outside any task's step (callbacks, futures set from other threads, the selector) is the
loop thread's CPU minus the steps' sum.

Usage: `meter = TaskCpu(); meter.install(asyncio.get_running_loop())` before the tasks are
created; `meter.reset()` at the start of the stretch measured; `meter.cpu` maps a name to CPU
seconds."""

from __future__ import annotations

import asyncio
import collections.abc
import re
import time
from collections import defaultdict
from typing import Any

_NUMBERED = re.compile(r"^Task-\d+$")  # asyncio's default task names


class _Metered(collections.abc.Coroutine):
    """A coroutine whose steps are timed (asyncio's Task drives it through send/throw)."""

    __slots__ = ("_coro", "_meter", "_parent", "task")

    def __init__(self, coro: Any, meter: TaskCpu, parent: str | None) -> None:
        self._coro = coro
        self._meter = meter
        self._parent = parent
        self.task: asyncio.Task | None = None

    def bucket(self) -> str:
        if self._parent is not None:
            return self._parent
        name = self.task.get_name() if self.task is not None else "?"
        return "unnamed" if _NUMBERED.match(name) else name

    def send(self, value: Any) -> Any:
        began = time.thread_time()
        try:
            return self._coro.send(value)
        finally:
            self._meter.cpu[self.bucket()] += time.thread_time() - began

    def throw(self, *args: Any) -> Any:
        began = time.thread_time()
        try:
            return self._coro.throw(*args)
        finally:
            self._meter.cpu[self.bucket()] += time.thread_time() - began

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Any:  # pragma: no cover - a Task drives it by send/throw
        return self._coro.__await__()


class TaskCpu:
    def __init__(self) -> None:
        self.cpu: defaultdict[str, float] = defaultdict(float)

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task:
            current = asyncio.current_task(loop)
            inner = current.get_coro() if current is not None else None
            # started by a metered task: counted as its; else (the main task, a callback) by
            # its own name
            parent = inner.bucket() if isinstance(inner, _Metered) else None
            metered = _Metered(coro, self, parent)
            task = asyncio.Task(metered, loop=loop, **kwargs)
            metered.task = task
            return task

        loop.set_task_factory(factory)

    def reset(self) -> None:
        self.cpu.clear()
