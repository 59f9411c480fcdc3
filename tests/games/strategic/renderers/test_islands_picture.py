"""The picture of the free starting islands (`/game islands`): 550 px wide, the free islands'
land and nothing else of the map (no taken island, no neutral land)."""

from __future__ import annotations

import io

from PIL import Image

from engine.strategic import lobby
from engine.strategic.islands import free_islands
from engine.strategic.mapgen import generate
from renderers.strategic import style
from renderers.strategic.islands import render_islands


def land_pixels(data: bytes) -> int:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return dict((c, n) for n, c in image.getcolors(1 << 20) or []).get(style.LAND, 0)


def test_the_picture_shows_the_free_islands_only() -> None:
    world = generate("standard", nations=3, width=40, height=40, seed=5)
    everything = sum(1 for t in world.terrain if t == 1)
    free = free_islands(world)
    assert [i.number for i in free.free] == [1, 2, 3]
    whole = render_islands(free, "Free starting islands")
    assert Image.open(io.BytesIO(whole)).width == 550
    cell = (550 - 2 * 28) / 40
    home_land = sum(len(i.land) for i in free.free)
    assert home_land < everything  # there is neutral land, which is not drawn
    assert abs(land_pixels(whole) - home_land * cell * cell) < home_land * 2 * cell

    lobby.join(world, "red", "Red", "#ff2d5a", None, {"island": 2})
    left = free_islands(world)
    assert [i.number for i in left.free] == [1, 3]
    taken = len(free.free[1].land)
    drawn = land_pixels(render_islands(left, "Free starting islands"))
    assert abs(drawn - (home_land - taken) * cell * cell) < home_land * 2 * cell


def test_a_started_game_offers_no_island() -> None:
    world = generate("standard", nations=2, width=32, height=32, seed=5)
    lobby.join(world, "red", "Red", "#ff2d5a", None)
    lobby.start(world)
    assert free_islands(world).free == ()
