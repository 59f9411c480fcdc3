"""The drawing pool (renderers/pool.py): pictures drawn in worker processes are the same bytes as
pictures drawn here; a picture that fails raises in the caller and the pool goes on; a worker
that dies is replaced; shutting down stops the processes; without processes it draws in threads.

One pool of one worker is shared by the module (starting a process costs about a second)."""

from __future__ import annotations

import asyncio
import os
import pickle
import time
from pathlib import Path

import numpy as np
import pytest

from engine.strategic.view import View, view_for
from renderers import pool as drawing
from renderers.encoding import png_bytes
from renderers.strategic.drawing import Parcel, draw_crop, draw_map
from renderers.strategic.mapimage import render_crop, render_map
from renderers.strategic.markers import Marker
from tests.games.strategic.renderers.test_renderers import war_world


@pytest.fixture(scope="module")
def pool():
    shared = drawing.DrawPool(1)
    yield shared
    shared.shutdown()


@pytest.fixture(scope="module")
def view():
    return view_for(war_world(), "red")


def _die_once(flag: str) -> str:
    """Kills the worker it runs in the first time (no flag file yet), then answers."""
    path = Path(flag)
    if not path.exists():
        path.write_text("died")
        os._exit(3)
    return "answered"


def _slow(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def _fonts_loaded() -> int:
    """How many font sizes the worker it runs in has loaded."""
    from renderers import style

    return style.font.cache_info().currsize


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "zombie"


async def test_the_pool_draws_the_same_bytes_as_drawing_here(pool, view) -> None:
    markers = [Marker(view.units[0].sq, "attack"), Marker(view.units[-1].sq, "blast", 1)]
    here_map = png_bytes(render_map(view, title="same", markers=markers))
    here_crop = png_bytes(render_crop(view, view.units[0].sq, 3, title="same"))
    there_map, there_crop = await asyncio.gather(
        draw_map(view, title="same", markers=markers, pool=pool),
        draw_crop(view, view.units[0].sq, 3, title="same", pool=pool),
    )
    assert pool.kind == "processes" and len(pool.pids()) == 1
    assert there_map == here_map
    assert there_crop == here_crop


async def test_a_worker_is_warmed_up_by_the_games_that_drew_in_it(pool) -> None:
    """Importing a game's drawing registers its warm-up: a new worker has loaded the map's
    fonts (and rules) before its first picture."""
    await pool.aclose()
    assert await pool.run(_fonts_loaded) >= 6
    assert pool.kind == "processes"


def test_a_view_travels_as_a_parcel_and_arrives_whole(view) -> None:
    copy = pickle.loads(pickle.dumps(Parcel(view)))
    assert type(copy) is type(view)
    for name in ("nation", "tick", "clock", "status", "nations", "cities", "units", "pending"):
        assert getattr(copy, name) == getattr(view, name), name
    assert np.array_equal(copy.terrain, view.terrain) and copy.terrain.dtype == view.terrain.dtype
    assert np.array_equal(copy.visible, view.visible) and copy.visible.dtype == view.visible.dtype


async def test_a_view_goes_to_a_worker_process_as_a_parcel(pool, view, monkeypatch) -> None:
    packed: list[int] = []
    reduce = Parcel.__reduce__

    def counted(self: Parcel):
        packed.append(self.view.tick)
        return reduce(self)

    monkeypatch.setattr(Parcel, "__reduce__", counted)
    assert await draw_map(view, title="p", pool=pool) == png_bytes(render_map(view, title="p"))
    assert pool.kind == "processes" and packed == [view.tick]


async def test_a_picture_that_fails_raises_in_the_caller_and_the_pool_goes_on(
    pool: drawing.DrawPool, view: View
) -> None:
    with pytest.raises(AttributeError):
        await draw_map(view, markers=[object()], pool=pool)  # type: ignore[list-item]
    assert await draw_map(view, title="after", pool=pool) == png_bytes(
        render_map(view, title="after")
    )


async def test_a_worker_that_dies_is_replaced(pool, view, tmp_path) -> None:
    before = pool.pids()
    assert await pool.run(_die_once, str(tmp_path / "flag")) == "answered"
    assert (tmp_path / "flag").exists()
    assert pool.kind == "processes" and pool.pids() != before
    assert await draw_map(view, pool=pool) == png_bytes(render_map(view))


async def test_shutting_down_stops_the_workers_and_the_next_picture_starts_them(pool, view) -> None:
    await pool.start()
    pids = pool.pids()
    assert pids and all(_alive(pid) for pid in pids)
    await pool.aclose()
    assert pool.kind == "idle" and pool.pids() == []
    assert not any(_alive(pid) for pid in pids)
    assert await draw_map(view, pool=pool) == png_bytes(render_map(view))
    assert pool.kind == "processes"


async def test_pictures_still_waiting_at_shutdown_fail_cleanly(pool, view) -> None:
    """The notifier catches Exception around a picture: a shutdown must not look like the
    notifier itself being cancelled."""
    await pool.start()
    jobs = [asyncio.ensure_future(pool.run(_slow, 0.5))]
    jobs += [asyncio.ensure_future(draw_map(view, pool=pool)) for _ in range(4)]
    await asyncio.sleep(0.1)
    await pool.aclose()
    results = await asyncio.gather(*jobs, return_exceptions=True)
    assert results[0] == "slept"  # started before the shutdown: finished
    assert all(isinstance(r, bytes | drawing.PoolClosed) for r in results[1:]), results
    assert any(isinstance(r, drawing.PoolClosed) for r in results)
    assert isinstance(drawing.PoolClosed("x"), Exception)


async def test_without_processes_the_pool_draws_in_threads(monkeypatch, view, caplog) -> None:
    def refuse(*args, **kwargs):
        raise OSError("no semaphores here")

    monkeypatch.setattr(drawing, "ProcessPoolExecutor", refuse)
    threads = drawing.DrawPool(2)
    try:
        assert await draw_map(view, title="t", pool=threads) == png_bytes(
            render_map(view, title="t")
        )
        assert threads.kind == "threads" and threads.pids() == []
        assert "no process pool" in caplog.text
    finally:
        await threads.aclose()
    assert drawing.DrawPool(0).workers == 0  # SI_DRAW_WORKERS=0: threads only, by choice


def test_the_default_size_leaves_a_core_to_the_event_loop(monkeypatch) -> None:
    monkeypatch.delenv("SI_DRAW_WORKERS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert drawing.default_workers() == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert drawing.default_workers() == 4
    monkeypatch.setenv("SI_DRAW_WORKERS", "3")
    assert drawing.default_workers() == 3
    monkeypatch.setenv("SI_DRAW_WORKERS", "0")
    assert drawing.default_workers() == 0
