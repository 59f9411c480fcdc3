"""Supply Lines' board drawn in the drawing pool's workers (`renderers.pool`), so that drawing
never holds the event loop: a View and a `TurnMoved` pickle as they are."""

from __future__ import annotations

from typing import Any

from engine.supplylines.events import TurnMoved
from engine.supplylines.view import View
from renderers import pool as drawing
from renderers.pool import DrawPool
from renderers.supplylines.board import draw_board
from renderers.supplylines.style import BASE


def draw_board_job(view: View, options: dict[str, Any]) -> bytes:
    """`draw_board(view, **options)`, for a drawing worker (`renderers.pool.DrawPool.run`:
    the view and a `TurnMoved` pickle as they are)."""
    return draw_board(view, **options)


async def draw_board_in_pool(
    view: View,
    *,
    title: str,
    turn_report: TurnMoved | None = None,
    size: int = BASE,
    pool: DrawPool | None = None,
) -> bytes:
    """`draw_board` in a worker of the drawing pool (`pool`, else the default one), so that
    drawing never holds the event loop."""
    chosen = pool if pool is not None else drawing.default_pool()
    options = {"title": title, "turn_report": turn_report, "size": size}
    data: bytes = await chosen.run(draw_board_job, view, options)
    return data
