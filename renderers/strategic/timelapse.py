"""A whole game as an animated GIF, from a nation's view or the full view, drawn from the
frames the game kind replays from its history (`engine.strategic.replay.views_over_time`:
the first snapshot and the log, which the service hands out), with markers for what that
nation was told between frames. Nothing here reads the store."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from PIL import Image

from engine.strategic import events as ev
from engine.strategic.replay import views_over_time
from engine.strategic.view import View
from engine.strategic.world import World
from renderers.strategic.mapimage import render_map
from renderers.strategic.markers import markers_from

MAX_BYTES = 8 * 1024 * 1024  # under Discord's 10 MiB attachment limit


def frames(
    shown: Iterable[tuple[View, list[ev.Event]]], *, cell: int | None = None, title: str = ""
) -> list[Image.Image]:
    """A picture of each (view, events told since the last one)."""
    out: list[Image.Image] = []
    for view, told in shown:
        c = cell or max(2, min(8, 640 // max(view.width, view.height)))
        marks = markers_from(told, view.nation, view.width, view.height) if told else []
        out.append(render_map(view, title=title, markers=marks, cell=c, legend=False))
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


def timelapse(
    first: World,
    entries: Iterable[dict[str, Any]],
    *,
    nation: str | None = None,
    every_ticks: int | None = None,
    title: str = "",
) -> bytes:
    """The game replayed from its first state (changed in place) as a GIF, from `nation`'s
    view or everything when None. Replaying and drawing take seconds: run it off the event
    loop."""
    shown = views_over_time(first, entries, nation=nation, every_ticks=every_ticks)
    return encode_gif(frames(shown, title=title))
