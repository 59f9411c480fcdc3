"""Pictures of a Supply Lines game (`engine.supplylines`)."""

from renderers.supplylines.board import (
    BASE,
    CAPTURE,
    CONFLICT,
    IMMOBILE,
    LOST,
    QUESTION,
    ROAD,
    Place,
    draw_board,
    draw_board_in_pool,
    draw_board_job,
    places,
    render_board,
    timelapse,
)

__all__ = [
    "BASE",
    "CAPTURE",
    "CONFLICT",
    "IMMOBILE",
    "LOST",
    "QUESTION",
    "ROAD",
    "Place",
    "draw_board",
    "draw_board_in_pool",
    "draw_board_job",
    "places",
    "render_board",
    "timelapse",
]
