"""The star map's picture as a player sees it: a fleet in its owner's colour on its tile,
unexplored space unlike empty space, a battle's star, an NPC base's ring, a planet's colour;
the same view gives the same bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.caldera.starmap import new_map, place_tile
from engine.caldera.tiles import Face, Kind, PlanetType
from renderers import style
from renderers.caldera import (
    MapBase,
    MapFleet,
    StarMapView,
    draw_star_map,
    fleet_boxes,
    layout_of,
    render_star_map,
    tiles_of,
)
from renderers.caldera import style as cs

ANN = "#e6194b"
BOB = "#4363d8"
PIRATES = "#f58231"


def small_view() -> StarMapView:
    m = new_map()
    place_tile(m, "0,-1", Face(kind=Kind.EMPTY), zone=1)
    place_tile(m, "1,-1", Face(kind=Kind.HALF_NEBULA), zone=1)
    place_tile(m, "0,1", Face(kind=Kind.PLANET, planet=PlanetType.COLD), zone=2)
    return StarMapView(
        tiles=tiles_of(m),
        fleets=(
            MapFleet("0,0", "Ann", ANN, 3),
            MapFleet("0,1", "Bob", BOB, 2),
            MapFleet("0,1", "Roger's Pirates", PIRATES, 5),
            MapFleet("-1,0", "Ann", ANN, 1),  # moved into unexplored space
        ),
        battles=("0,1",),
        bases=(MapBase("0,1", "RP", PIRATES),),
        title="Caldera",
        subtitle="Turn 2",
    )


def rgb(colour: str) -> tuple[int, int, int]:
    return style.parse_colour(colour)


def colours_near(img: Image.Image, x: float, y: float, d: int = 2) -> set[tuple[int, int, int]]:
    px = img.load()
    assert px is not None
    return {
        px[round(x) + i, round(y) + j]  # type: ignore[misc]
        for i in range(-d, d + 1)
        for j in range(-d, d + 1)
    }


def test_each_fleet_is_a_badge_in_its_owners_colour_on_its_tile() -> None:
    view = small_view()
    img = render_star_map(view).convert("RGB")
    layout = layout_of(view)
    by_place: dict[str, list[MapFleet]] = {}
    for f in view.fleets:
        by_place.setdefault(f.place, []).append(f)
    for place, fleets in by_place.items():
        fleets = sorted(fleets, key=lambda f: f.owner)
        for f, box in zip(fleets, fleet_boxes(layout, place, fleets), strict=True):
            # inside the badge, left of its number: the owner's colour
            assert img.getpixel((box[0] + 4, (box[1] + box[3]) // 2)) == rgb(f.colour), f
            # and the badge is on its tile
            cx, cy = layout.centres[place]
            assert abs((box[0] + box[2]) / 2 - cx) < layout.radius
            assert cy < box[3] < cy + layout.radius


def test_unexplored_space_is_grey_and_hatched_unlike_empty_space() -> None:
    view = small_view()
    img = render_star_map(view).convert("RGB")
    layout = layout_of(view)
    r = layout.radius
    assert "0,-2" in view.unexplored()
    fx, fy = layout.centres["0,-2"]
    fog = colours_near(img, fx - 0.45 * r, fy + 0.2 * r, 4)
    assert fog == {cs.FOG, cs.FOG_HATCH}  # hatched: both greys
    ex, ey = layout.centres["0,-1"]
    empty = colours_near(img, ex + 0.4 * r, ey + 0.25 * r, 4)
    assert empty == {cs.SPACE}
    # and both unlike the picture's background, off the map
    assert img.getpixel((2, layout.legend_top - 4)) == style.BACKGROUND
    assert style.BACKGROUND not in fog | empty


def test_a_battle_a_base_and_a_planet_are_marked_on_their_tile() -> None:
    view = small_view()
    img = render_star_map(view).convert("RGB")
    layout = layout_of(view)
    r = layout.radius
    cx, cy = layout.centres["0,1"]
    assert cs.BATTLE in colours_near(img, cx + 0.52 * r, cy - 0.48 * r, 1)
    assert rgb(PIRATES) in colours_near(img, cx + 0.4 * r - 2, cy, 2)  # the base's ring
    assert cs.PLANETS["cold"] in colours_near(img, cx - 0.15 * r, cy + 0.15 * r, 1)
    # a nebula is its own colour; Earth is not empty space
    nx, ny = layout.centres["1,-1"]
    assert colours_near(img, nx - 0.4 * r, ny + 0.1 * r, 3) == {cs.HALF_NEBULA}
    x0, y0 = layout.centres["0,0"]
    assert cs.EARTH in colours_near(img, x0 + 0.1 * r, y0 + 0.15 * r, 1)


def test_the_picture_is_900_pixels_wide_and_the_same_view_gives_the_same_bytes() -> None:
    view = small_view()
    data = draw_star_map(view)
    assert data == draw_star_map(view)
    img = Image.open(io.BytesIO(data))
    assert img.mode == "P" and img.width == cs.WIDTH
    layout = layout_of(view)
    for x, y in layout.centres.values():
        assert layout.radius <= x <= img.width - layout.radius
        assert 0 < y < layout.legend_top


def test_a_larger_map_keeps_every_place_inside_the_picture() -> None:
    m = new_map()
    for q, r in ((0, -1), (0, -2), (0, -3), (0, -4), (0, -5), (4, 0), (-5, 5)):
        place_tile(m, f"{q},{r}", Face(kind=Kind.EMPTY), zone=1)
    view = StarMapView(tiles=tiles_of(m))
    img = render_star_map(view)
    layout = layout_of(view)
    for x, y in layout.centres.values():
        assert layout.radius * 0.99 <= x <= img.width - layout.radius * 0.99
        assert y - layout.radius * 0.86 > 70 and y + layout.radius * 0.86 < layout.legend_top


def test_drawn_550_wide_the_map_header_and_legend_keep_their_proportions() -> None:
    view = small_view()
    big, small = layout_of(view), layout_of(view, 550)
    img = render_star_map(view, width=550)
    assert img.width == 550
    assert small.height == pytest.approx(big.height * 550 / 900, abs=8)
    for x, y in small.centres.values():
        assert small.radius <= x <= 550 - small.radius
        assert small.header < y - 0.86 * small.radius
    # the fleet's badge is still its owner's colour
    fleets = [f for f in view.fleets if f.place == "0,0"]
    box = fleet_boxes(small, "0,0", fleets)[0]
    assert img.convert("RGB").getpixel((box[0] + 3, (box[1] + box[3]) // 2)) == rgb(ANN)
