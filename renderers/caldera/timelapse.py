"""The end-of-campaign timelapse: the campaign replayed from its first state and its log, the
star map after each turn with that turn's battles, and the map at the end, as an animated GIF.

What it shows is what the channel was shown after each turn: Caldera's star map is shared (the
known tiles, every ship's place, the NPCs and their bases), and its fog is unexplored space,
the places no tile has been placed at yet, drawn grey and hatched round the known map. It
shows nothing of what is a captain's own (hands, credits, ships' parts, orders). The frames
are drawn from the moderators' full view all the same; the campaign is over when it is posted.

Every frame is laid out as the last one (the whole map the campaign explored), so a place
stays where it is while the map grows round Earth; frames are 600 pixels wide, as the other
games' timelapses are, and thinned by the encoder if the campaign would not fit an upload."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from PIL import Image

from engine.caldera.replay import turns_over_time
from engine.caldera.state import State
from engine.caldera.view import full_view
from renderers.caldera.game import star_map_of
from renderers.caldera.picture import render_star_map
from renderers.caldera.view import StarMapView

WIDTH = 600  # a frame's width (its height follows the map)
FRAME_MS = 900
MOST_FRAMES = 150  # drawn (2 minutes 15 seconds of GIF): a longer campaign's turns are thinned
ENDS = {
    "won": "The captains won",
    "lost": "The captains lost",
    "time": "The campaign's time ran out",
    "moderator": "A moderator ended it",
}


def frames(
    first: State, entries: Iterable[dict[str, Any]], *, title: str = ""
) -> list[StarMapView]:
    """The pictures of the campaign replayed on `first` (changed in place): the star map
    after each turn with its battles, then at the end; each laid out as the last."""
    shown: list[StarMapView] = []
    for report, state in turns_over_time(first, entries):
        view = full_view(state)
        if report is not None:
            battles = [str(b["at"]) for b in report.battles]
            subtitle = (
                f"After turn {report.turn} · zone {view.zone} · zone counter {view.zone_counter}"
            )
        else:
            battles = []
            how = ENDS.get(state.result or "", "The end") if state.ended else "As it stands"
            subtitle = f"{how} · {state.turn} turns · zone {view.zone}"
        shown.append(star_map_of(view, title=title, battles=battles, subtitle=subtitle))
    last = shown[-1]
    extent = tuple(t.place for t in last.tiles) + tuple(last.unexplored())
    return [replace(picture, extent=extent) for picture in shown]


def timelapse(
    first: State, entries: Iterable[dict[str, Any]], *, title: str = "", most: int = MOST_FRAMES
) -> bytes:
    """The campaign replayed from its first state (changed in place) as a GIF: a frame per
    turn and one at the end (a campaign of more turns than `most`: every second turn, or
    third..., and the last). Replaying and drawing take a while: run it off the event loop."""
    from renderers.encoding import encode_gif

    shown = thinned(frames(first, entries, title=title), most)
    images = [render_star_map(p, width=WIDTH) for p in shown]
    return encode_gif(_same_size(images), frame_ms=FRAME_MS)


def thinned(shown: list[StarMapView], most: int) -> list[StarMapView]:
    """At most `most` of the pictures (at least the last turn and the end), evenly spaced:
    a campaign of hundreds of short turns is not drawn whole only to be thinned by the
    encoder (each frame drawn is kept in memory until it is encoded)."""
    if len(shown) <= most:
        return shown
    *turns, end = shown
    step = -(-len(turns) // max(1, most - 1))
    kept = turns[::-1][::step][::-1]  # (counted back from the last turn, which stays)
    return [*kept, end]


def _same_size(images: list[Image.Image]) -> list[Image.Image]:
    """The frames as tall as the tallest (the legend grows with the NPCs met), each padded
    below with its own background."""
    height = max(i.height for i in images)
    out = []
    for image in images:
        if image.height == height:
            out.append(image)
            continue
        background = image.getpixel((0, image.height - 1))
        padded = Image.new(image.mode, (image.width, height), background)
        if image.mode == "P":
            padded.putpalette(image.getpalette() or [])
        padded.paste(image, (0, 0))
        out.append(padded)
    return out
