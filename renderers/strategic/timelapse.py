"""A whole game as an animated GIF, from a nation's view or the full view, drawn from the
frames the game kind replays from its history (`engine.strategic.replay.views_over_time`:
the first snapshot and the log, which the service hands out), with markers for what that
nation was told between frames. Nothing here reads the store."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PIL import Image

from engine.strategic import events as ev
from engine.strategic.replay import views_over_time
from engine.strategic.view import View
from engine.strategic.world import World
from renderers.encoding import encode_gif
from renderers.strategic.mapimage import render_map
from renderers.strategic.markers import markers_from


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
