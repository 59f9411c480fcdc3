"""Caldera's star map picture from a view, drawn in the drawing pool: the picture is read from
the view by `renderers.caldera.game` (the known tiles, the fog of unexplored space round them,
every fleet by owner, the NPCs' bases and this turn's battles); the map, ships and NPCs are
shared in Caldera, so every captain's picture is the same."""

from __future__ import annotations

from renderers.caldera import StarMapView
from renderers.caldera.game import npc_colours, star_map_of

__all__ = ["draw_in_pool", "npc_colours", "star_map_of"]


async def draw_in_pool(picture: StarMapView) -> bytes:
    """The picture as PNG, drawn in the drawing pool (never on the event loop)."""
    from renderers.caldera.drawing import draw_star_map_in_pool

    return await draw_star_map_in_pool(picture)
