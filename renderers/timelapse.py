"""A whole game as an animated GIF, from a nation's view or the full view, rebuilt from the
stored history (the first snapshot and the command log), with markers for what that nation
was told between frames."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterable
from typing import Any

from PIL import Image

from engine.host.entries import Advance, entry_from_json
from engine.host.store import Store
from engine.strategic import events as ev
from engine.strategic.clock import advance
from engine.strategic.replay import apply_entry
from engine.strategic.view import full_view, view_for
from engine.strategic.world import World
from renderers.mapimage import render_map
from renderers.markers import markers_from

MAX_BYTES = 8 * 1024 * 1024  # under Discord's 10 MiB attachment limit


def frames(
    world: World,
    entries: Iterable[dict[str, Any]],
    *,
    nation: str | None = None,
    every_ticks: int | None = None,
    cell: int | None = None,
    title: str = "",
) -> list[Image.Image]:
    """Replay the entries on `world` (changed in place) and draw a frame every `every_ticks`
    (default: 6 game hours), and one of the final state."""
    every = every_ticks or 6 * world.ticks_per_hour
    c = cell or max(2, min(8, 640 // max(world.width, world.height)))
    out: list[Image.Image] = []
    told: list[ev.Event] = []

    def snap() -> None:
        if not world.started:
            return
        if nation is None:
            view = full_view(world)
            marks = []
        elif nation in world.nations:
            view = view_for(world, nation)
            marks = markers_from(told, nation, world.width, world.height)
        else:
            return
        out.append(render_map(view, title=title, markers=marks, cell=c, legend=False))
        told.clear()

    last = None
    for stored in entries:
        entry = entry_from_json(stored)
        if isinstance(entry, Advance):
            for _ in range(entry.ticks):
                told.extend(advance(world, 1))
                if world.tick % every == 0:
                    snap()
                    last = world.tick
        else:
            told.extend(apply_entry(world, entry))
    if last != world.tick:
        snap()
    return out


def encode_gif(images: list[Image.Image], *, frame_ms: int = 400, limit: int = MAX_BYTES) -> bytes:
    """An animated GIF of the frames (the last one held longer), thinned until under `limit`."""
    if not images:
        raise ValueError("no frames to animate")
    chosen = images
    while True:
        buf = io.BytesIO()
        durations = [frame_ms] * (len(chosen) - 1) + [frame_ms * 6]
        chosen[0].save(
            buf,
            format="GIF",
            save_all=True,
            append_images=chosen[1:],
            duration=durations,
            loop=0,
        )
        data = buf.getvalue()
        if len(data) <= limit or len(chosen) <= 2:
            return data
        chosen = chosen[::2] if chosen[-1] is chosen[::2][-1] else [*chosen[::2], chosen[-1]]


async def timelapse(
    store: Store,
    game_id: int,
    *,
    nation: str | None = None,
    every_ticks: int | None = None,
    title: str = "",
) -> bytes:
    """The stored game as a GIF (from `nation`'s view, or everything when None)."""
    first = await store.first_snapshot(game_id)
    if first is None:
        raise ValueError(f"game {game_id} has no stored history")
    seq, world_json, _ = first
    entries = [entry for _, entry in await store.log_after(game_id, seq)]

    def build() -> bytes:  # replaying and drawing take seconds: off the event loop
        world = World.from_dict(json.loads(world_json))
        images = frames(world, entries, nation=nation, every_ticks=every_ticks, title=title)
        return encode_gif(images)

    return await asyncio.to_thread(build)
