"""What a player sees on the default picture: the part of the board that matters, readable at
Discord's 550 pixels (their cities on it, far smaller than the board, round the torus's edge),
the event pictures centred on what happened, hit points, supply, standing orders, stacks by
type, a header with labelled numbers and the game clock, a legend of what is drawn."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
from PIL import Image

from engine.strategic.mapgen import claim_slot, generate
from engine.strategic.scenario import build_world
from engine.strategic.view import UnitView, view_for
from renderers.strategic import style
from renderers.strategic.mapimage import (
    FOCUS_WIDTH,
    clock_label,
    render_focus,
    render_map,
    square_box,
)
from renderers.strategic.markers import Marker
from renderers.strategic.region import _window, focus_region
from renderers.strategic.units import stack_lines
from tests.games.strategic.renderers.test_renderers import box_of, decode, has_colour
from tests.games.strategic.worlds import STRIP


def mid_world(size: int = 80):
    world = generate("standard", nations=4, width=size, height=size, seed=5)
    for slot in range(4):
        world.add_nation(f"n{slot}", f"N{slot}", "#ff2d5a")
        claim_slot(world, slot, f"n{slot}")
    world.started = True
    return world


def strip(units: list[dict]):
    spec = copy.deepcopy(STRIP)
    spec["units"] = [*spec["units"], *units]
    world, _ = build_world(spec)
    return world


def test_the_default_picture_shows_the_nations_cities_at_550_pixels_far_smaller_than_the_board():
    world = mid_world()
    view = view_for(world, "n0")
    cities = view.own_cities()
    assert cities
    image = render_focus(view, title="focus")
    region = image.info["region"]
    assert len(region.cols) * len(region.rows) <= world.width * world.height // 16
    for city in cities:
        assert square_box(image, view, city.sq) is not None
    # at Discord's size, without shrinking, and a square is big enough to read (the whole
    # board at that width would give 6 px squares)
    assert image.width <= FOCUS_WIDTH + 10 and region.cell >= 16
    full = render_map(view)
    assert full.width > 2 * image.width
    # the city squares are drawn in the nation's own colour on the focused picture
    arr = decode(image)
    own = style.parse_colour(view.nations["n0"].colour)
    assert has_colour(arr, box_of(image, view, cities[0].sq), own)


def test_the_window_wraps_round_the_torus_and_a_nation_with_nothing_gets_what_it_knows():
    # two cities either side of the edge: one window across it, not the whole width
    cols = _window([78, 1], 80, 3, 30)
    assert cols == [75, 76, 77, 78, 79, 0, 1, 2, 3, 4, 5]  # 3 round them, 11 at least
    assert _window([5, 40, 41, 42], 80, 2, 20) == list(range(36, 47))  # the bigger group
    world = mid_world()
    view = view_for(world, "n0")
    nothing = dataclasses.replace(view, units=[u for u in view.units if u.seen != "own"], cities={})
    cols, rows = focus_region(nothing)
    known = np.flatnonzero(view.terrain)
    assert known.size and all(sq % 80 in cols and sq // 80 in rows for sq in known.tolist())
    blind = dataclasses.replace(nothing, terrain=np.zeros_like(view.terrain))
    assert focus_region(blind) == (list(range(80)), list(range(80)))


def test_an_event_picture_is_centred_on_the_event_with_the_nations_things_near_it():
    world = mid_world()
    view = view_for(world, "n0")
    home = view.own_cities()[0].sq
    far = (home + 40 * 80 + 40) % (80 * 80)  # across the board from home
    image = render_focus(view, markers=[Marker(far, "capture")])
    assert square_box(image, view, far) is not None
    assert square_box(image, view, home) is None
    assert image.info["legend"].count("capture") == 1
    # with a marker at home, home's things near it are on it too
    near = render_focus(view, markers=[Marker(home, "attack")])
    assert square_box(near, view, home) is not None
    assert all(
        square_box(near, view, u.sq) is not None
        for u in view.own_units()
        if max(abs(u.sq % 80 - home % 80), abs(u.sq // 80 - home // 80)) <= 4
    )


def test_the_legend_lists_only_the_markers_drawn() -> None:
    world = strip([])
    view = view_for(world, "red")
    shown = render_focus(view, markers=[Marker(world.grid.index(2, 2), "attack")])
    assert "attack" in shown.info["legend"] and "capture" not in shown.info["legend"]
    plain = render_focus(view)
    assert not {"attack", "capture", "interception", "blast", "unit lost"} & set(
        plain.info["legend"]
    )
    # the legend explains coast as what it is (ships do not enter it: only ports and bases)
    assert "coast: land by water" in plain.info["legend"]


def test_an_out_of_supply_unit_gets_its_badge() -> None:
    world = strip([{"id": 6, "owner": "red", "type": "infantry", "at": "10,2"}])
    view = view_for(world, "red")
    far, home = view.unit(6), view.unit(1)
    assert far is not None and far.supplied is False  # 7 squares from the nearest red city
    assert home is not None and home.supplied is True
    seen_by_blue = view_for(world, "blue").unit(6)  # never the other side's to know
    assert seen_by_blue is None or seen_by_blue.supplied is None
    image = render_focus(view)
    box = box_of(image, view, far.sq)
    assert "out of supply" in image.info["legend"]
    supplied = dataclasses.replace(
        view, units=[dataclasses.replace(u, supplied=True) if u.id == 6 else u for u in view.units]
    )
    plain = render_focus(supplied)
    assert "out of supply" not in plain.info["legend"]
    got, want = decode(image), decode(plain)
    left, top, right, bottom = box
    differs = np.abs(got[top:bottom, left:right].astype(int) - want[top:bottom, left:right]).max(
        axis=2
    )
    assert differs.any()  # the badge: black with a white "!"
    assert has_colour(got, box, style.OUTLINE) and has_colour(got, box, style.NO_SUPPLY)


def test_a_damaged_unit_shows_its_hit_points_as_a_bar() -> None:
    world = strip([{"id": 6, "owner": "red", "type": "infantry", "at": "6,2"}])
    world.units[6].hp = 2  # of 5
    view = view_for(world, "red")
    image = render_focus(view)
    assert "hit points left" in image.info["legend"]
    world.units[6].hp = 5
    healthy = render_focus(view_for(world, "red"))
    assert "hit points left" not in healthy.info["legend"]
    left, top, right, bottom = box_of(image, view, world.grid.index(6, 2))
    got, want = decode(image), decode(healthy)
    differs = (got[top:bottom, left:right] != want[top:bottom, left:right]).any(axis=2)
    rows = np.flatnonzero(differs.any(axis=1))
    # a thin bar: a few rows, black with a white part of 2/5 of its width
    assert rows.size and rows.max() - rows.min() <= 3
    bar = got[top + rows.min() : top + rows.max() + 1, left:right].reshape(-1, 3).tolist()
    white = sum(1 for p in bar if tuple(p) == style.HP_BAR)
    black = sum(1 for p in bar if tuple(p) == style.OUTLINE)
    assert 0 < white < black


def test_a_standing_order_is_an_arrow_from_the_unit_to_its_target() -> None:
    world = strip([{"id": 6, "owner": "red", "type": "infantry", "at": "4,2"}])
    world.units[6].order = world.grid.index(8, 2)
    view = view_for(world, "red")
    image = render_focus(view)
    assert "standing order" in image.info["legend"]
    arr = decode(image)
    line = style.ORDER_LINE
    for x in (5, 6, 7):  # the squares between unit and target are crossed by the line
        assert has_colour(arr, box_of(image, view, world.grid.index(x, 2)), line)
    assert not has_colour(arr, box_of(image, view, world.grid.index(6, 1)), line)
    world.units[6].order = None
    still = render_focus(view_for(world, "red"))
    assert not has_colour(decode(still), box_of(still, view, world.grid.index(6, 2)), line)


def test_stacks_are_labelled_by_type_when_their_units_do_not_fit() -> None:
    def unit(uid: int, kind: str) -> UnitView:
        return UnitView(uid, kind, "red", 0, 5, "own", 0)

    stack = [unit(i, "infantry") for i in range(1, 5)] + [unit(7, "tank"), unit(8, "tank")]
    assert [label for _, label in stack_lines(stack, 2)] == ["inf 4", "tank 2"]
    assert [label for _, label in stack_lines(stack, 1)] == ["inf 4, tank 2"]
    assert [label for _, label in stack_lines(stack[:2], 3)] == ["inf #1", "inf #2"]
    # drawn on a zoomed square: the picture carries the stack sign in its legend
    world = strip(
        [{"id": 10 + i, "owner": "red", "type": "infantry", "at": "6,2"} for i in range(6)]
    )
    from renderers.strategic.mapimage import render_crop

    crop = render_crop(view_for(world, "red"), world.grid.index(6, 2), 2)
    assert "inf 4: 4 infantry" in crop.info["legend"]


def test_the_header_labels_its_numbers_and_says_the_clock_as_a_snapshot_title_does() -> None:
    from renderers.strategic.mapimage import _header_lines

    assert clock_label("day 11 00:00") == "end of day 10"
    assert clock_label("day 3 14:00") == "day 3 14:00"
    assert clock_label("day 1 00:00") == "day 1 00:00"
    world = strip([])
    world.started = True
    view = view_for(world, "red")
    text = " ".join(_header_lines(view, "T", FOCUS_WIDTH, 14))
    assert f"command points {view.status.cp} (+{view.status.cp_regen} an hour)" in text
    assert "tick" not in text and view.clock in text
    assert all(
        style.font(14).getlength(line) <= FOCUS_WIDTH
        for line in _header_lines(view, "T", FOCUS_WIDTH, 14)[1:]
    )


def test_a_full_picture_is_still_the_whole_board() -> None:
    world = mid_world(48)
    view = view_for(world, "n1")
    image = render_map(view)
    region = image.info["region"]
    assert region.cols == list(range(48)) and region.rows == list(range(48))
    assert isinstance(image, Image.Image)
