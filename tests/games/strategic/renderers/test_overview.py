"""Issue 29's pictures: nations in their own colours with their relation as a ring, the whole
board made for 550 pixels (territory, front lines, dots, names), the unit-lost mark readable on
dark water, the legend's coast true to the rules."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np

from engine.strategic.scenario import build_world
from engine.strategic.view import view_for
from renderers.strategic import style
from renderers.strategic.mapimage import (
    FOCUS_WIDTH,
    OVERVIEW_CELL,
    render_map,
    render_overview,
    render_window,
)
from renderers.strategic.markers import Marker
from tests.games.strategic.renderers.test_focus import mid_world
from tests.games.strategic.renderers.test_renderers import box_of, decode, has_colour, pixels
from tests.games.strategic.worlds import STRIP

WAR = style.RELATION_COLOURS["war"]


def two_nations(level: str):
    """The strip: red's infantry landed at 21,1 next to blue's fort at 20,1, `level` between."""
    spec = copy.deepcopy(STRIP)
    spec["nations"] = {
        "red": {"player": "100", "colour": "#ff2d5a"},
        "blue": {"player": "200", "colour": "#7887ff"},
    }
    spec["relations"] = [["red", "blue", level]]
    spec["map"] = spec["map"].rstrip() + "\n" + "~" * 24 + "\n"  # room for the names
    spec["map"] += ("~" * 24 + "\n") * 5
    spec["units"] = [*spec["units"], {"id": 6, "owner": "red", "type": "infantry", "at": "21,1"}]
    world, _ = build_world(spec)
    return world


def test_the_whole_board_overview_is_read_at_550_pixels() -> None:
    world = mid_world()
    view = view_for(world, "n0")
    image = render_overview(view, title="overview")
    region = image.info["region"]
    assert image.width <= FOCUS_WIDTH
    assert len(region.cols) == view.width and len(region.rows) == view.height
    assert 5 <= region.cell < OVERVIEW_CELL
    arr = decode(image)
    own = style.parse_colour(view.nations["n0"].colour)
    for city in view.own_cities():  # every city square in the nation's own colour
        assert has_colour(arr, box_of(image, view, city.sq), own)
    # units as dots of at least 4 pixels across, not 2-3 pixel specks (one off its city)
    first = view.own_units()[0]
    off = next(
        s for s in (first.sq + 2, first.sq - 2, first.sq + 2 * view.width) if s not in view.cities
    )
    lone = dataclasses.replace(first, sq=off)
    view = dataclasses.replace(
        view, units=[lone, *view.units[1:]] if view.units[0] is first else [*view.units, lone]
    )
    image = render_overview(view, title="overview")
    arr = decode(image)
    left, top, right, bottom = box_of(image, view, lone.sq)
    near = (left - 2, top - 2, right + 2, bottom + 2)
    assert (np.abs(pixels(arr, near).astype(int) - own).max(axis=1) == 0).sum() >= 4
    # the nation's name over its cities, 13 pixels high, inside the map, no two names touching
    labels = image.info["labels"]
    assert "N0 (you)" in [text for text, _ in labels]
    left, top = image.info["origin"]
    for _, (x0, y0, x1, y1) in labels:
        assert left <= x0 and x1 <= left + region.width_px and y1 - y0 >= 13
    boxes = [box for _, box in labels]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    assert "edge: owner's land" in image.info["legend"]


def test_a_front_line_runs_where_red_meets_a_nation_at_war_with_it() -> None:
    for level, front in (("war", True), ("neutral", False)):
        world = two_nations(level)
        view = view_for(world, "red")
        image = render_overview(view, width=200)  # the strip's 24 columns at overview size
        region = image.info["region"]
        assert region.cell < OVERVIEW_CELL
        arr = decode(image)
        # the edge between red's infantry at 21,1 and blue's ground east of it, at 22,1
        left, top, right, bottom = box_of(image, view, world.grid.index(21, 1))
        edge = (right - 1, top, right + 2, bottom)
        assert has_colour(arr, edge, WAR) is front, level
        assert ("front line (war)" in image.info["legend"]) is front


def test_other_nations_keep_their_colour_and_wear_their_relation_as_a_ring() -> None:
    world = two_nations("war")
    square = world.grid.index(21, 1)
    red = style.parse_colour(world.nations["red"].colour)
    # blue's map: red's infantry in red's own colour, inside a ring of war
    blue_view = view_for(world, "blue")
    image = render_map(blue_view)
    arr = decode(image)
    box = box_of(image, blue_view, square)
    assert has_colour(arr, box, red) and has_colour(arr, box, WAR)
    # red's own map: the same unit in the same colour, and no ring round its own things
    red_view = view_for(world, "red")
    image = render_map(red_view)
    arr = decode(image)
    box = box_of(image, red_view, square)
    assert has_colour(arr, box, red) and not has_colour(arr, box, WAR)
    # a neutral's ring is the neutral colour
    world = two_nations("neutral")
    image = render_map(view_for(world, "blue"))
    arr = decode(image)
    box = box_of(image, view_for(world, "blue"), square)
    assert has_colour(arr, box, style.RELATION_COLOURS["neutral"]) and not has_colour(arr, box, WAR)


def test_a_unit_lost_at_sea_reads_on_dark_water() -> None:
    world = two_nations("war")
    view = view_for(world, "red")
    sea = world.grid.index(6, 5)  # never seen by red: the darkest water there is
    image = render_map(view, markers=[Marker(sea, "lost")])
    arr = decode(image)
    left, top, right, bottom = box_of(image, view, sea)
    c = right - left
    ring = (left - c, top - c, right + c, bottom + c)
    # the dark red ring on a white halo: both there, round the square
    assert has_colour(arr, ring, style.MARKER_COLOURS["lost"])
    assert has_colour(arr, ring, style.MARKER_HALO)
    assert "unit lost" in image.info["legend"]


def test_the_legend_says_what_coast_is_and_zoom_windows_fit_discord() -> None:
    world = mid_world()
    view = view_for(world, "n0")
    assert view.home is not None
    widths = []
    for radius in (3, 8, 17, 32):
        image = render_window(view, view.home, radius)
        widths.append(image.width)
        region = image.info["region"]
        assert len(region.cols) == 2 * radius + 1
        # ships stay on water: the coast is land by water, not where ships go
        assert "coast: land by water" in image.info["legend"]
        assert not any("ships reach" in label for label in image.info["legend"])
    assert max(widths) <= FOCUS_WIDTH
