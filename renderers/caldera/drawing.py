"""Caldera's star map drawn in the drawing pool's workers (`renderers.pool`), so that drawing
never holds the event loop: a `StarMapView` is plain frozen dataclasses and pickles as it is."""

from __future__ import annotations

from renderers import pool as drawing
from renderers.caldera.picture import draw_star_map
from renderers.caldera.style import WIDTH
from renderers.caldera.view import StarMapView
from renderers.pool import DrawPool


def draw_star_map_job(view: StarMapView, width: int) -> bytes:
    """`draw_star_map(view, width=width)`, for a drawing worker."""
    return draw_star_map(view, width=width)


async def draw_star_map_in_pool(
    view: StarMapView, *, width: int = WIDTH, pool: DrawPool | None = None
) -> bytes:
    """`draw_star_map` in a worker of the drawing pool (`pool`, else the default one)."""
    chosen = pool if pool is not None else drawing.default_pool()
    data: bytes = await chosen.run(draw_star_map_job, view, width)
    return data
