"""Map pictures, checked by decoding the PNGs: fog hides what it must, owners' colours show,
coordinates sit over their columns, markers appear for the nation's own events only. Pictures
are palette PNGs: the project's colours exact, text anti-aliased in `LEVELS` steps."""

from __future__ import annotations

import asyncio
import copy
import io

import numpy as np
from PIL import GifImagePlugin, Image, ImageDraw

from engine.strategic import commands as cmd
from engine.strategic.clock import advance
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.view import View, view_for
from renderers.encoding import png_bytes
from renderers.strategic import style
from renderers.strategic.mapimage import render_crop, render_map, square_box
from renderers.strategic.markers import markers_from
from tests.games.strategic.worlds import STRIP


def war_world():
    spec = copy.deepcopy(STRIP)
    spec["nations"] = {
        "red": {"player": "100", "colour": "#e6194b"},
        "blue": {"player": "200", "colour": "#4363d8"},
    }
    spec["relations"] = [["red", "blue", "war"]]
    # a red infantry landed next to blue's fort at 20,1; blue's engineer at 19,3 is out of sight
    spec["units"] = [
        *spec["units"],
        {"id": 6, "owner": "red", "type": "infantry", "at": "21,1"},
    ]
    world, _ = build_world(spec)
    return world


def box_of(image: Image.Image, view: View, sq: int) -> tuple[int, int, int, int]:
    """`square_box` of a square the tests expect the picture to show."""
    box = square_box(image, view, sq)
    assert box is not None, f"square {sq} is not on the picture"
    return box


def colours_in(image: Image.Image, most: int) -> set[tuple[int, ...]]:
    """The RGB colours of a picture that has at most `most` of them."""
    counted = image.convert("RGB").getcolors(most)
    assert counted is not None, f"more than {most} colours"
    return {c for _, c in counted if isinstance(c, tuple)}  # in RGB every colour is a tuple


def decode(image: Image.Image) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png_bytes(image))).convert("RGB"))


def pixels(arr: np.ndarray, box) -> np.ndarray:
    left, top, right, bottom = box
    return arr[top:bottom, left:right].reshape(-1, 3)


def has_colour(arr: np.ndarray, box, colour, tolerance: int = 0) -> bool:
    px = pixels(arr, box).astype(int)
    return bool((np.abs(px - np.array(colour)).max(axis=1) <= tolerance).any())


def test_a_hidden_unit_square_shows_no_unit_and_the_owner_sees_it() -> None:
    world = war_world()
    engineer = world.units[5]
    red_view = view_for(world, "red")
    assert red_view.unit(5) is None  # out of red's sight
    red = render_map(red_view)
    arr = decode(red)
    box = box_of(red, red_view, engineer.sq)
    blue_colour = style.parse_colour(world.nations["blue"].colour)
    war = style.RELATION_COLOURS["war"]
    assert not has_colour(arr, box, blue_colour, tolerance=10)
    assert not has_colour(arr, box, war, tolerance=10)
    # the square is drawn as fog only: never-seen or remembered terrain, nothing else
    allowed = {style.NEVER_SEEN, style.dim(style.LAND), style.dim(style.COAST)}
    lines = {style.grid_line(c) for c in allowed}  # grid lines
    allowed |= lines | {style.grid_line(c) for c in lines}  # and their crossings
    assert {tuple(p) for p in pixels(arr, box).tolist()} <= allowed

    blue_view = view_for(world, "blue")
    blue = render_map(blue_view)  # on its own map, the nation's things are in its own colour
    assert has_colour(decode(blue), box_of(blue, blue_view, engineer.sq), blue_colour)
    blue = render_map(blue_view, colours="relation")  # or "you", coloured by relation
    you = style.RELATION_COLOURS["you"]
    assert has_colour(decode(blue), box_of(blue, blue_view, engineer.sq), you)


def test_a_visible_enemy_city_shows_its_owners_colour() -> None:
    world = war_world()
    fort = world.grid.index(20, 1)
    view = view_for(world, "red")
    assert view.cities[fort].owner == "blue" and view.cities[fort].seen == "now"
    image = render_map(view)
    arr = decode(image)
    left, top, right, bottom = box_of(image, view, fort)
    assert right - left == 20
    # the city's fill is its owner's colour (the unit sits lower right), inside a ring in the
    # colour of red's relation to blue: war
    assert tuple(arr[bottom - 7, left + 6]) == style.parse_colour(world.nations["blue"].colour)
    assert tuple(arr[top + 10, left + 3]) == style.RELATION_COLOURS["war"]
    assert tuple(arr[top + 10, left + 1]) == style.OUTLINE  # black each side of the ring
    assert tuple(arr[top + 10, left + 4]) == style.OUTLINE
    # coloured by relation: red is at war with blue
    by_relation = render_map(view, colours="relation")
    left, top, right, bottom = box_of(by_relation, view, fort)
    corner = decode(by_relation)[bottom - 4, left + 3]
    assert tuple(corner) == style.RELATION_COLOURS["war"]
    # blue's other city at 19,3 is out of sight and never seen: no blue there
    tech = world.grid.index(19, 3)
    assert tech not in view.cities
    assert not has_colour(
        arr, box_of(image, view, tech), style.parse_colour(world.nations["blue"].colour), 10
    )


def test_remembered_squares_are_dimmed_and_keep_the_last_known_picture() -> None:
    world = war_world()
    fort = world.grid.index(20, 1)
    apply(world, "red", cmd.Move(units=[6], to=(22, 2)))
    assert world.units[6].sq == world.grid.index(22, 2)
    # blue's infantry (id 4) sat in the fort: now out of sight, it is a ghost where last seen
    view = view_for(world, "red")
    assert not view.visible[fort]
    assert view.cities[fort].seen == "memory" and view.cities[fort].owner == "blue"
    ghost = view.unit(4)
    assert ghost is not None and ghost.seen == "memory" and ghost.sq == fort
    image = render_map(view)
    arr = decode(image)
    left, top, right, bottom = box_of(image, view, fort)
    blue = style.parse_colour(world.nations["blue"].colour)
    assert tuple(arr[bottom - 7, left + 6]) == style.dim(blue, 0.7)
    by_relation = render_map(view, colours="relation")
    left, top, right, bottom = box_of(by_relation, view, fort)
    war = style.RELATION_COLOURS["war"]
    assert tuple(decode(by_relation)[bottom - 4, left + 3]) == style.dim(war, 0.7)
    # a land square next to the fort that red saw: dimmed land, not never-seen
    near = world.grid.index(20, 2)
    box = box_of(image, view, near)
    assert tuple(arr[box[1] + 5, box[0] + 5]) == style.dim(style.LAND)
    # a square red never saw stays dark
    far = world.grid.index(22, 5)
    box = box_of(image, view, far)
    assert tuple(arr[box[1] + 5, box[0] + 5]) == style.NEVER_SEEN


def test_coordinates_sit_over_their_columns_and_beside_their_rows() -> None:
    world = war_world()
    view = view_for(world, "red")
    image = render_map(view)
    arr = decode(image)
    c = image.info["region"].cell
    left, top = image.info["origin"]
    font = style.font(14)

    def band(x: int) -> np.ndarray:
        return arr[top - 20 : top, left + x * c : left + (x + 1) * c]

    def expected(text: str) -> np.ndarray:
        patch = Image.new("RGB", (c, 20), style.BACKGROUND)
        ImageDraw.Draw(patch).text((c / 2, 17), text, font=font, fill=style.TEXT_DIM, anchor="mb")
        return np.asarray(patch)

    labelled = [x for x in range(view.width) if (band(x) != style.BACKGROUND).any()]
    assert labelled == list(range(0, view.width, 2))
    # the same glyphs in the same place as Pillow draws them in full colour: anti-aliased in
    # LEVELS steps, so no pixel is further from it than half a step of the text's contrast
    half_step = max(t - b for t, b in zip(style.TEXT_DIM, style.BACKGROUND, strict=True)) / 14
    for x in (0, 12, 22):
        got, want = band(x).astype(int), expected(str(x)).astype(int)
        assert np.abs(got - want).max() <= half_step + 1
        assert (
            (got != style.BACKGROUND).any(axis=2) <= (want != style.BACKGROUND).any(axis=2)
        ).all()
        shades = {tuple(p) for p in got.reshape(-1, 3).tolist()}
        assert len(shades) >= 4  # background, ink and steps between: still anti-aliased
    # rows: each row's number is level with the row
    for y in range(view.height):
        row = arr[top + y * c : top + (y + 1) * c, : left - 2]
        assert (row != style.BACKGROUND).any()


def test_markers_show_the_nations_own_events_only() -> None:
    world = war_world()
    world.add_unit("fighter", "red", world.grid.index(13, 1))
    world.add_unit("infantry", "blue", world.grid.index(14, 1))
    fighter = max(u.id for u in world.units_of("red"))
    events = apply(world, "red", cmd.Attack(units=[fighter], target=(14, 1)))
    assert any(e.kind == "Attacked" for e in events)
    view = view_for(world, "red")
    markers = markers_from(events, "red", world.width, world.height)
    assert [(m.sq, m.kind) for m in markers] == [(world.grid.index(14, 1), "attack")]
    image = render_map(view, markers=markers)
    arr = decode(image)
    box = box_of(image, view, world.grid.index(14, 1))
    c = box[2] - box[0]
    ring = (box[0] - c, box[1] - c, box[2] + c, box[3] + c)
    assert has_colour(arr, ring, style.MARKER_COLOURS["attack"])
    # a nation not told of an event gets no marker for it
    assert markers_from(events, "nobody", world.width, world.height) == []


def test_a_zoomed_crop_is_larger_and_wraps_round_the_map_edge() -> None:
    world = war_world()
    view = view_for(world, "red")
    corner = world.grid.index(0, 0)
    crop = render_crop(view, corner, 2)
    region = crop.info["region"]
    assert region.cols == [22, 23, 0, 1, 2] and region.rows == [4, 5, 0, 1, 2]
    assert region.cell > render_map(view).info["region"].cell
    # red's two infantry stand in the fort at 1,1: red pixels in that square
    arr = decode(crop)
    red = style.parse_colour(world.nations["red"].colour)
    assert has_colour(arr, box_of(crop, view, world.grid.index(1, 1)), red)


def test_big_map_pictures_stay_small() -> None:
    from engine.strategic.mapgen import claim_slot, generate

    world = generate("standard", nations=8, width=256, height=256, seed=5)
    for slot in range(8):
        world.add_nation(f"n{slot}", f"N{slot}", "#e6194b")
        claim_slot(world, slot, f"n{slot}")
    world.started = True
    advance(world, 4)
    data = png_bytes(render_map(view_for(world, "n0")))
    assert len(data) < 2 * 1024 * 1024
    image = Image.open(io.BytesIO(data))
    assert 1000 <= image.width <= 2000


async def test_timelapse_replays_the_stored_game_and_si_render_writes_pictures(tmp_path) -> None:
    from bot.cli import main
    from engine.host.service import GameService
    from renderers.strategic.timelapse import timelapse

    db = tmp_path / "game.db"
    service = await GameService.open(str(db), synchronous="NORMAL")
    try:
        game = await service.create_game(name="T", max_nations=2, width=32, height=32, seed=4)
        for name, colour in (("Red", "#e6194b"), ("Blue", "#4363d8")):
            await service.join(game, name=name, colour=colour, player=None)
        world = await service.live_world(game)
        per_day = world.rules.ticks_per_day
        await service.advance(game, per_day)
        first, entries = await service.history(game)
        everything = timelapse(first, entries, every_ticks=per_day // 4)
        first, entries = await service.history(game)
        red = timelapse(first, entries, nation="red", every_ticks=per_day // 4)
    finally:
        await service.close()
    for data in (everything, red):
        gif = Image.open(io.BytesIO(data))
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.format == "GIF" and gif.n_frames == 4  # every 6 hours of one day

    # red's frames are fogged: far fewer bright (in sight) pixels than the full view's
    def lit(data: bytes) -> int:
        gif = Image.open(io.BytesIO(data))
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        gif.seek(gif.n_frames - 1)
        arr = np.asarray(gif.convert("RGB")).astype(int)
        return int((np.abs(arr - np.array(style.WATER)).max(axis=2) <= 12).sum())

    assert lit(red) < lit(everything) / 2

    out = tmp_path / "red.png"

    def si(*args: str) -> int:  # the CLI runs its own event loop: give it a thread
        return main(["render", str(db), str(game), *args])

    assert await asyncio.to_thread(si, "--nation", "Red", "-o", str(out)) == 0
    assert Image.open(out).format == "PNG"
    crop = tmp_path / "crop.png"
    assert await asyncio.to_thread(si, "--at", "3,4", "--radius", "2", "-o", str(crop)) == 0
    assert Image.open(crop).size[0] < Image.open(out).size[0]
    assert await asyncio.to_thread(si, "--nation", "nobody") == 2


# --- palette pictures ------------------------------------------------------------------------


def _expected_terrain(view) -> np.ndarray:
    """Each square's colour as the style says: never seen, or water, land, waste or coast (known
    land next to known water, diagonals too, round the torus), dimmed when not in sight now."""
    h, w = view.height, view.width
    terrain = view.terrain.reshape(h, w)
    water = terrain == 1
    near = np.zeros_like(water)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                near |= np.roll(np.roll(water, dy, axis=0), dx, axis=1)
    names = np.array([style.NEVER_SEEN, style.WATER, style.LAND, style.WASTE, style.COAST])
    code = terrain.astype(int).copy()
    code[(terrain == 2) & near] = 4
    colours = names[code]
    seen = view.visible.reshape(h, w)
    dimmed = np.array([style.dim(tuple(c)) for c in colours.reshape(-1, 3).tolist()])
    dimmed = dimmed.reshape(h, w, 3)
    dimmed[code == 0] = style.NEVER_SEEN
    return np.where(seen[:, :, None], colours, dimmed)


def test_every_empty_square_is_its_terrain_colour_exactly_with_grid_lines() -> None:
    world = war_world()
    view = view_for(world, "red")
    image = render_map(view)
    assert image.mode == "P"
    arr = decode(image)
    want = _expected_terrain(view)
    busy = set(view.cities) | {u.sq for u in view.units}
    checked = 0
    for sq in range(view.width * view.height):
        if sq in busy:
            continue
        x, y = sq % view.width, sq // view.width
        r, g, b = (int(v) for v in want[y, x])
        colour = (r, g, b)
        left, top, right, bottom = box_of(image, view, sq)
        square = arr[top:bottom, left:right].astype(int)
        # labels of the edges stay outside the map; inside: fill, grid line, crossing
        assert tuple(square[5, 5]) == colour
        assert tuple(square[0, 5]) == style.grid_line(colour) == tuple(square[5, 0])
        assert tuple(square[0, 0]) == style.grid_line(style.grid_line(colour))
        assert {tuple(p) for p in square[1:, 1:].reshape(-1, 3).tolist()} == {colour}
        checked += 1
    assert checked > 100


def test_the_projects_colours_are_exact_in_the_palette_png() -> None:
    world = war_world()
    view = view_for(world, "red")
    from renderers.strategic.markers import Marker

    markers = [
        Marker(world.grid.index(5 + 2 * i, 2), kind) for i, kind in enumerate(style.MARKER_COLOURS)
    ]
    data = png_bytes(render_map(view, title="colours", markers=markers, colours="nation"))
    decoded = Image.open(io.BytesIO(data))
    assert decoded.format == "PNG" and decoded.mode == "P"
    palette = decoded.getpalette()
    assert palette is not None and len(palette) // 3 <= 256
    shown = colours_in(decoded, 256)
    red = style.parse_colour(world.nations["red"].colour)
    blue = style.parse_colour(world.nations["blue"].colour)
    expected = {
        style.BACKGROUND,
        style.TEXT,
        style.TEXT_DIM,
        style.NEVER_SEEN,
        style.WATER,
        style.LAND,
        style.COAST,
        style.dim(style.LAND),
        style.grid_line(style.LAND),
        style.NEUTRAL,
        style.OUTLINE,
        red,
        blue,
        *style.MARKER_COLOURS.values(),
    }
    assert expected <= shown, expected - shown
    # the legend's swatches: every pixel inside a nation's swatch is its colour, exactly (blue's
    # inside the ring of its relation to red)
    arr = np.asarray(decoded.convert("RGB"))
    for colour, least in ((red, 12 * 12), (blue, 6 * 6), (style.NEUTRAL, 12 * 12)):
        inside = np.all(arr == colour, axis=2)
        assert inside.sum() >= least


def test_thirty_two_nations_keep_their_colours_exact() -> None:
    """The palette has room for every nation's colour and its remembered shade first; the
    steps of anti-aliased text take what is left (the nearest colour once it is full)."""
    import dataclasses

    from engine.interface.colours import PALETTE as NATION_COLOURS
    from engine.strategic.view import NationView
    from renderers.palette import Palette
    from renderers.strategic.canvas import palette_for

    world = war_world()
    view = view_for(world, "red")
    colours = list(NATION_COLOURS.values())
    many = {"red": view.nations["red"]}
    for i in range(31):
        colour = (
            colours[i % len(colours)] if i < len(colours) else f"#{(i * 2654435) % 0xFFFFFF:06x}"
        )
        many[f"n{i}"] = NationView(f"n{i}", f"Nation {i}", colour, None, False, "war", "war")
    crowded = dataclasses.replace(view, nations=many)
    pal = palette_for(crowded)
    assert len(pal) <= 256
    image = render_map(crowded, title="crowded", colours="nation")
    arr = decode(image)
    found = colours_in(Image.fromarray(arr), 256 * 256)
    for n in many.values():
        assert style.parse_colour(n.colour) in found  # its swatch in the legend
    palette = image.getpalette()
    assert palette is not None and len(palette) // 3 <= 256

    # a full palette: exact colours stay exact, blends fall back to the nearest colour
    full = Palette([(i, i, i) for i in range(256)])
    assert full.add((10, 10, 10)) == 10 and len(full) == 256
    assert full.blend(0, 255, 3) == full.add((109, 109, 109)) == 109


def test_text_steps_run_from_the_colour_under_it_to_the_ink() -> None:
    from renderers.palette import LEVELS, Palette

    pal = Palette([style.BACKGROUND, style.TEXT])
    ramp = pal.ramp(0, 1)
    assert ramp[0] == 0 and ramp[LEVELS] == 1 and len(set(ramp)) == LEVELS + 1
    reds = [pal.colours[i][0] for i in ramp]
    assert reds == sorted(reds)


def test_a_thick_outline_is_what_pillow_draws() -> None:
    from renderers.strategic.units import _thick_outline

    shapes = [
        [(10.0, 12.5), (25.0, 12.5), (17.5, 27.0)],
        [(40.4, 10.0), (52.1, 22.3), (40.4, 34.6), (28.7, 22.3)],
        [(63.5, 40.0), (75.5, 52.0), (51.5, 52.0)],
    ]
    for width in (2, 3):
        for points in shapes:
            want = Image.new("L", (90, 70), 7)
            ImageDraw.Draw(want).polygon(points, outline=200, width=width)
            got = Image.new("L", (90, 70), 7)
            _thick_outline(got, points, 200, width)
            assert np.array_equal(np.asarray(got), np.asarray(want))


def test_text_over_other_colours_and_cut_by_the_edge_matches_pillow() -> None:
    """Text drawn over what is there (unit counts, zoomed labels) blends with each pixel under
    it, within half a step of Pillow's full-colour text, also where the picture's edge cuts it."""
    from renderers.palette import LEVELS
    from renderers.strategic.canvas import MapCanvas as _Canvas
    from renderers.strategic.canvas import palette_for

    world = war_world()
    pal = palette_for(view_for(world, "red"))
    stripes = [style.WATER, style.LAND, style.COAST, style.parse_colour("#4363d8")]
    size = (120, 40)
    rgb = Image.new("RGB", size)
    index = Image.new("L", size)
    for i, colour in enumerate(stripes):  # vertical stripes: the text crosses four colours
        ImageDraw.Draw(rgb).rectangle((i * 30, 0, i * 30 + 29, 39), fill=colour)
        ImageDraw.Draw(index).rectangle((i * 30, 0, i * 30 + 29, 39), fill=pal.add(colour))
    canvas = _Canvas(index, pal)
    font = style.font(14)
    for xy, text in (((5, 12), "inf 1234"), ((95, -6), "cut"), ((-9, 28), "edge")):
        canvas.text_over(xy, text, 14, (255, 255, 255), None, 2, (0, 0, 0))
        ImageDraw.Draw(rgb).text(
            xy, text, font=font, fill=(255, 255, 255), stroke_width=2, stroke_fill=(0, 0, 0)
        )
    got = np.asarray(canvas.finish().convert("RGB")).astype(int)
    want = np.asarray(rgb).astype(int)
    assert np.abs(got - want).max() <= 255 / LEVELS / 2 + 2
    assert (np.abs(got - want).max(axis=2) > 0).any()  # it did blend in steps


def test_cities_of_the_same_look_are_alike_and_leave_the_grid_round_them() -> None:
    """A city drawn again (the same owner and letter: drawn once a picture, then pasted) is the
    first one pixel for pixel, and its square's grid lines stay the terrain's."""
    spec = copy.deepcopy(STRIP)
    spec["cities"]["C"] = {"owner": "red", "designation": "fort", "build": "infantry"}
    spec["units"] = [u for u in spec["units"] if u["at"] != "1,1"]  # nothing on A
    view = view_for(build_world(spec)[0], "red")
    picture = render_map(view, title="t")
    got = decode(picture)
    without = copy.deepcopy(spec)
    without["map"] = spec["map"].replace("C", ".")
    del without["cities"]["C"]
    bare = decode(render_map(view_for(build_world(without)[0], "red"), title="t"))
    squares = []
    for x, y in ((1, 1), (3, 3)):  # A, drawn first; C, the same look
        left, top, right, bottom = box_of(picture, view, y * view.width + x)
        squares.append(got[top + 1 : bottom - 1, left + 1 : right - 1])  # the city's part
    first, again = squares
    assert len({tuple(p) for p in first.reshape(-1, 3).tolist()}) >= 3  # fill, outline, "F"
    assert np.array_equal(first, again)
    assert np.array_equal(got[top, left:right], bare[top, left:right])  # C's grid lines
    assert np.array_equal(got[top:bottom, left], bare[top:bottom, left])
