"""A nation's picture for a scenario's render step (`engine.strategic.scenario.Painter`): the
whole map, or a crop around a square, with markers for the events it was told."""

from __future__ import annotations

from engine.strategic import events as ev
from engine.strategic.view import View
from renderers.encoding import png_bytes
from renderers.strategic.mapimage import render_crop, render_map
from renderers.strategic.markers import markers_from


def paint(view: View, told: list[ev.Event], centre: int | None, radius: int, title: str) -> bytes:
    markers = markers_from(told, view.nation, view.width, view.height)
    if centre is not None:
        image = render_crop(view, centre, radius, title=title, markers=markers)
    else:
        image = render_map(view, title=title, markers=markers)
    return png_bytes(image)
