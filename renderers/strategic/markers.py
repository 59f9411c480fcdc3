"""What happened since the last picture, as markers on the map: attacks, captures,
interceptions, blasts, units lost. Built from a nation's own events only (its `to` list), so a
marker never shows more than the nation was told."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.strategic import events as ev
from engine.strategic.world.geometry import parse_coord


@dataclass(frozen=True, slots=True)
class Marker:
    sq: int
    kind: str  # a key of style.MARKER_COLOURS
    radius: int = 0  # squares (blasts)


def _sq(label: str | None, width: int, height: int) -> int | None:
    if not label:
        return None
    try:
        x, y = parse_coord(label)
    except ValueError:
        return None
    if not (0 <= x < width and 0 <= y < height):
        return None
    return y * width + x


def markers_from(events: Iterable[ev.Event], nation: str, width: int, height: int) -> list[Marker]:
    """Markers for the events this nation was told of (others are ignored)."""
    out: dict[tuple[int, str], Marker] = {}

    def add(label: str | None, kind: str, radius: int = 0) -> None:
        sq = _sq(label, width, height)
        if sq is not None:
            key = (sq, kind)
            if key not in out or out[key].radius < radius:
                out[key] = Marker(sq, kind, radius)

    for e in events:
        if nation not in e.to:
            continue
        if isinstance(e, ev.Attacked | ev.Bombed | ev.Interdicted):
            add(e.square, "attack")
        elif isinstance(e, ev.CityCaptured):
            add(e.city, "capture")
        elif isinstance(e, ev.Intercepted):
            add(e.square, "interception")
        elif isinstance(e, ev.IcbmLaunched):
            add(e.square, "blast", e.radius)
        elif isinstance(e, ev.UnitDestroyed) and e.nation == nation:
            add(e.square, "lost")
    return list(out.values())
