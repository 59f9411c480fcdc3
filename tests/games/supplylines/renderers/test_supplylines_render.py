"""Pictures of a Supply Lines game (renderers/supplylines/), checked by decoding the PNGs as a
player would look at them: structures in their owners' colours, units and orders that show,
the last turn's conflicts, captures and losses, the same bytes for the same game, and fast."""

from __future__ import annotations

import dataclasses
import io
import pickle

import numpy as np
import pytest
from PIL import Image

from engine.supplylines import turns
from engine.supplylines.board import load_map
from engine.supplylines.events import TurnMoved
from engine.supplylines.rules import load as load_rules
from engine.supplylines.state import State
from engine.supplylines.view import View, full_view, public, view_for
from renderers import pool as drawing
from renderers import style
from renderers import supplylines as sl
from tests.games.supplylines.engine.scenario import build_state, played_duel

RED, BLUE, YELLOW = "#ff2d5a", "#7887ff", "#ffff00"
COLOURS = {"a": RED, "b": BLUE, "c": YELLOW}
ROAD = sl.ROAD


def rgb(colour: str) -> tuple[int, int, int]:
    return style.parse_colour(colour)


def new_game(name: str = "duel") -> State:
    """A started game on a hand-made map: players a, b (, c) in their home cities."""
    board = load_map(name, load_rules())
    state = State(board=board, owners={label: None for label in board.structures})
    for seat in range(1, board.seats + 1):
        pid = "abc"[seat - 1]
        turns.join(state, pid, f"Player {pid.upper()}", COLOURS[pid], None)
    turns.start(state)
    return state


def play(state: State, orders: dict[str, list[str]]) -> TurnMoved:
    """One turn with these orders (the rest hold); supply questions take the default."""
    events = []
    for player, lines in orders.items():
        for line in lines:
            turns.add_order(state, player, line)
    for player in state.active():
        events += turns.submit(state, player)
    if state.phase == "supply":
        events += turns.advance(state, state.choice_ticks)
    moved = [e for e in events if isinstance(e, TurnMoved)]
    assert moved, events
    return moved[0]


def decode(data: bytes) -> np.ndarray:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return np.asarray(image.convert("RGB"))


def pixel(arr: np.ndarray, xy: tuple[int, int]) -> tuple[int, int, int]:
    x, y = xy
    r, g, b = arr[y, x]
    return (int(r), int(g), int(b))


def count(arr: np.ndarray, colour: tuple[int, int, int], box=None) -> int:
    if box is not None:
        x0, y0, x1, y1 = (int(v) for v in box)
        arr = arr[max(0, y0) : y1, max(0, x0) : x1]
    return int((arr == np.array(colour, dtype=arr.dtype)).all(axis=2).sum())


def around(place: sl.Place, k: float = 3.0) -> tuple[float, float, float, float]:
    return (
        place.x - k * place.r,
        place.y - k * place.r,
        place.x + k * place.r,
        place.y + k * place.r,
    )


def board_area(view: View) -> tuple[float, float, float, float]:
    """The part of the picture with the structures and their badges (not the legend)."""
    places = sl.places(view).values()
    r = max(p.r for p in places)
    return (0, min(p.y for p in places) - 2 * r, 900, max(p.y for p in places) + 3 * r)


def draw(view: View, **options) -> np.ndarray:
    return decode(sl.draw_board(view, title=options.pop("title", "Supply Lines"), **options))


# --- the picture ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [900, 600])
def test_a_valid_png_of_the_size_asked(size: int) -> None:
    data = sl.draw_board(view_for(new_game(), "a"), title="Duel", size=size)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.size == (size, size)
    assert image.mode == "P"  # a palette PNG: small, and every colour exact


@pytest.mark.parametrize("name", ["duel", "triangle"])
def test_each_structure_shows_its_owners_colour(name: str) -> None:
    state = new_game(name)
    state.owners["C1"] = "b"  # one more, captured far from home
    view = view_for(state, "a")
    arr = draw(view)
    places = sl.places(view)
    assert set(places) == set(state.board.structures)
    for label, place in places.items():
        owner = state.owners[label]
        want = rgb(COLOURS[owner]) if owner else style.NEUTRAL
        assert pixel(arr, place.fill_point) == want, label


def test_structures_keep_apart_and_on_the_board() -> None:
    for name in ("duel", "triangle"):
        view = full_view(new_game(name))
        places = list(sl.places(view).values())
        for i, a in enumerate(places):
            assert a.x - a.reach > 0 and a.x + a.reach < 900
            for b in places[i + 1 :]:
                assert np.hypot(a.x - b.x, a.y - b.y) > a.reach + b.reach, (a.label, b.label)


def test_the_kinds_of_structures_have_different_shapes() -> None:
    view = full_view(new_game())
    shapes = {p.label[0]: p.shape for p in sl.places(view).values()}
    assert len({shapes["C"], shapes["H"], shapes["R"], shapes["M"]}) == 4


def test_a_capture_changes_the_colour_of_the_structure() -> None:
    state = new_game()
    before = draw(view_for(state, "a"))
    state.owners["C3"] = "a"
    after = draw(view_for(state, "a"))
    c3 = sl.places(view_for(state, "a"))["C3"]
    assert pixel(before, c3.fill_point) == style.NEUTRAL
    assert pixel(after, c3.fill_point) == rgb(RED)


def test_units_that_move_show_where_they_are() -> None:
    state = new_game()
    state.owners["R1"] = "a"
    view = view_for(state, "a")
    places = sl.places(view)
    before = draw(view)
    (unit,) = state.units_at("H1")
    unit.at = "R1"
    after = draw(view_for(state, "a"))
    assert not np.array_equal(before, after)
    # a badge in the player's colour now by R1, none by H1 (its fill is the same red)
    red = rgb(RED)
    r1, h1 = places["R1"], places["H1"]
    assert count(after, red, around(r1)) > count(before, red, around(r1)) + 100
    assert count(after, red, around(h1)) < count(before, red, around(h1)) - 100


def test_units_are_counted_by_type() -> None:
    state = new_game()
    state.owners["C1"] = "a"
    one = draw(view_for(state, "a"))
    state.add_unit("tank", "a", "C1")
    state.add_unit("infantry", "a", "C1")
    two = draw(view_for(state, "a"))
    c1 = sl.places(view_for(state, "a"))["C1"]
    red = rgb(RED)
    # two badges ("1i", "1T") where there was none
    assert count(two, red, around(c1)) > count(one, red, around(c1)) + 150


def test_marked_and_immobile_units_look_different() -> None:
    state = new_game()
    (unit,) = state.units_at("H1")
    h1 = sl.places(view_for(state, "a"))["H1"]
    pictures = {}
    for marks in (0, 1, 3):
        unit.marks = marks
        pictures[marks] = draw(view_for(state, "a"))
    assert not np.array_equal(pictures[0], pictures[1])  # pips
    # immobile: a dark badge with a red border, red pips
    box = around(h1)
    assert count(pictures[3], sl.IMMOBILE, box) > 50
    assert count(pictures[1], sl.IMMOBILE, box) == 0
    assert count(pictures[0], sl.IMMOBILE, box) == 0


def test_supply_lines_are_drawn_in_the_players_colour() -> None:
    state = new_game()
    view = view_for(state, "a")
    places = sl.places(view)
    mid = ((places["H1"].x + places["R1"].x) / 2, (places["H1"].y + places["R1"].y) / 2)
    at = (round(mid[0]), round(mid[1]))
    assert pixel(draw(view), at) == ROAD
    state.owners["R1"] = "a"  # H1 and R1: one network, its roads a supply line
    assert pixel(draw(view_for(state, "a")), at) == rgb(RED)


# --- orders -----------------------------------------------------------------------------------------


def _road_band(view: View, a: str, b: str) -> tuple[float, float, float, float]:
    """A box round the first half of the road a-b (the arrow's shaft, before its label)."""
    p, q = sl.places(view)[a], sl.places(view)[b]
    x0, y0 = p.x + (q.x - p.x) * 0.3, p.y + (q.y - p.y) * 0.3
    x1, y1 = p.x + (q.x - p.x) * 0.45, p.y + (q.y - p.y) * 0.45
    pad = p.r
    return (min(x0, x1) - pad, min(y0, y1) - pad, max(x0, x1) + pad, max(y0, y1) + pad)


def test_the_viewers_orders_appear_as_arrows() -> None:
    state = new_game()
    without = draw(view_for(state, "a"))
    turns.add_order(state, "a", "H1 > C1")
    view = view_for(state, "a")
    with_order = draw(view)
    band = _road_band(view, "H1", "C1")
    red = rgb(RED)
    assert count(with_order, red, band) > count(without, red, band) + 100
    x0, y0, x1, y1 = (int(v) for v in band)
    assert not np.array_equal(without[y0:y1, x0:x1], with_order[y0:y1, x0:x1])


def test_a_player_sees_only_their_orders_and_a_moderator_everyones() -> None:
    state = new_game()
    turns.add_order(state, "a", "H1 > C1")
    turns.add_order(state, "b", "H2 > C4")
    mine, moderator = view_for(state, "a"), full_view(state)
    assert moderator.nation is None
    a_band, b_band = _road_band(mine, "H1", "C1"), _road_band(mine, "H2", "C4")
    blue = rgb(BLUE)
    player_picture, moderator_picture = draw(mine), draw(moderator)
    assert count(player_picture, blue, b_band) < 50
    assert count(moderator_picture, blue, b_band) > 100
    assert count(moderator_picture, rgb(RED), a_band) > 100


def test_the_public_board_shows_nobodys_orders() -> None:
    """The picture posted in a game's channel after a turn: drawn from `public(full_view)`,
    it shows no player's orders for the next turn, though players (an AI at once) may have
    given some by the time it is drawn; it is the board as it would be with no orders."""
    state = new_game()
    before = draw(public(full_view(state)))
    turns.add_order(state, "a", "H1 > C1")
    turns.add_order(state, "b", "H2 > C4")
    shown = public(full_view(state))
    assert shown.orders == {} and shown.nation is None and shown.questions == []
    assert np.array_equal(draw(shown), before)
    assert not np.array_equal(draw(full_view(state)), before)


def test_counted_moves_and_builds_are_drawn_and_bad_orders_ignored() -> None:
    state = new_game()
    state.owners["C2"] = "a"  # PopCap for a second infantry; C1 stays neutral (a grey road)
    state.add_unit("infantry", "a", "H1")
    base = view_for(state, "a")
    orders = ["1 Infantry @ H1 > C1", "Build 1 Infantry @ M1", "this is not an order", "Z9 > C1"]
    view = dataclasses.replace(base, orders={"a": orders})
    assert not np.array_equal(draw(base), draw(view))
    band = _road_band(view, "H1", "C1")
    assert count(draw(view), rgb(RED), band) > count(draw(base), rgb(RED), band) + 100


# --- the last turn ----------------------------------------------------------------------------------


def _conflict_game() -> tuple[State, TurnMoved]:
    """Turn 1: a to C1, b to C4. Turn 2: both to R3 (a tie: both bumped back)."""
    state = new_game()
    play(state, {"a": ["H1 > C1"], "b": ["H2 > C4"]})
    moved = play(state, {"a": ["C1 > R3"], "b": ["C4 > R3"]})
    assert moved.conflicts and moved.conflicts[0]["place"] == "R3"
    return state, moved


def test_a_conflict_shows_a_burst_and_the_moves_bumped_back() -> None:
    state, moved = _conflict_game()
    view = view_for(state, "a")
    plain = draw(view)
    reported = draw(view, turn_report=moved)
    r3 = sl.places(view)["R3"]
    board = board_area(view)  # the legend below shows a burst too
    assert count(plain, sl.CONFLICT, board) == 0
    assert count(reported, sl.CONFLICT, around(r3, 1.5)) > 100  # the burst
    assert count(reported, sl.CONFLICT, board) > count(reported, sl.CONFLICT, around(r3, 1.5))


def test_a_capture_is_ringed_and_units_lost_are_shown() -> None:
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1", "b": "H2 C2"},
            "units": ["a 1 tank @ C1", "b 1 infantry @ C2 marks 3"],
        }
    )
    state.started = True
    for p in state.players.values():
        p.colour = COLOURS[p.id]
    turns.add_order(state, "a", "C1 > C2")
    events = turns.resolve_orders_phase(state)
    moved = next(e for e in events if isinstance(e, TurnMoved))
    assert moved.captured and moved.destroyed  # the immobile infantry could not retreat
    view = view_for(state, "a")
    c2 = sl.places(view)["C2"]
    board = board_area(view)
    plain, reported = draw(view), draw(view, turn_report=moved)
    assert pixel(reported, c2.fill_point) == rgb(RED)  # a holds C2 now
    assert count(plain, sl.CAPTURE, board) == 0
    assert count(reported, sl.CAPTURE, around(c2, 2)) > 100
    assert count(reported, sl.LOST, around(c2, 4)) > 100  # "x1i"
    assert count(plain, sl.LOST, board) == 0


def test_a_head_on_conflict_is_marked_on_the_road() -> None:
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1", "b": "H2 C2"},
            "units": ["a 1 infantry @ C1", "b 1 infantry @ C2"],
        }
    )
    state.started = True
    turns.add_order(state, "a", "C1 > C2")
    turns.add_order(state, "b", "C2 > C1")
    moved = next(e for e in turns.resolve_orders_phase(state) if isinstance(e, TurnMoved))
    assert moved.conflicts[0]["place"] in ("C1-C2", "C2-C1")
    view = full_view(state)
    places = sl.places(view)
    c1, c2 = places["C1"], places["C2"]
    mid = ((c1.x + c2.x) / 2, (c1.y + c2.y) / 2)
    box = (mid[0] - 20, mid[1] - 20, mid[0] + 20, mid[1] + 20)
    assert count(draw(view), sl.CONFLICT, box) == 0
    assert count(draw(view, turn_report=moved), sl.CONFLICT, box) > 100


# --- views, determinism, speed, the pool ------------------------------------------------------------


def test_a_moderator_and_a_player_both_get_a_picture() -> None:
    state, moved = _conflict_game()
    for view in (full_view(state), view_for(state, "a"), view_for(state, "b")):
        for report in (None, moved):
            arr = draw(view, turn_report=report)
            assert arr.shape == (900, 900, 3)
    assert sl.draw_board(full_view(state), title="x") != sl.draw_board(
        view_for(state, "a"), title="x"
    )  # the header says whose view it is


def test_the_same_game_gives_the_same_bytes() -> None:
    state, moved = _conflict_game()
    turns_copy = State.model_validate(state.model_dump())
    one = sl.draw_board(view_for(state, "a"), title="Duel", turn_report=moved)
    sl.draw_board(full_view(state), title="something else", size=700)  # warm other caches
    two = sl.draw_board(view_for(turns_copy, "a"), title="Duel", turn_report=moved)
    again = TurnMoved.model_validate(moved.model_dump())
    three = sl.draw_board(view_for(state, "a"), title="Duel", turn_report=again)
    assert one == two == three


def test_a_game_with_a_supply_question_marks_it() -> None:
    state = new_game()
    state.owners["C1"] = "a"
    state.add_unit("infantry", "a", "C1")  # two infantry, one line (H1): a choice
    for p in state.active():
        turns.submit(state, p)
    assert state.phase == "supply" and state.asked == ["a"]
    asked, other = view_for(state, "a"), view_for(state, "b")
    assert asked.questions and not other.questions
    assert count(draw(asked), sl.QUESTION) > count(draw(other), sl.QUESTION) + 100


def test_a_view_and_an_event_travel_to_a_worker_and_draw_the_same() -> None:
    state, moved = _conflict_game()
    view = view_for(state, "a")
    options = {"title": "Duel", "turn_report": moved, "size": 900}
    sent_view, sent_options = pickle.loads(pickle.dumps((view, options)))
    assert sl.draw_board_job(sent_view, sent_options) == sl.draw_board(
        view, title="Duel", turn_report=moved
    )


async def test_the_drawing_pool_draws_it() -> None:
    state, moved = _conflict_game()
    view = view_for(state, "a")
    threads = drawing.DrawPool(0)
    try:
        data = await sl.draw_board_in_pool(view, title="Duel", turn_report=moved, pool=threads)
    finally:
        threads.shutdown()
    assert data == sl.draw_board(view, title="Duel", turn_report=moved)


def test_a_whole_game_replays_as_an_animated_gif() -> None:
    """The end-of-game timelapse: the board after each turn (from the game's first state and
    its log), as the bot posts it in the game's channel."""
    from PIL import Image as PILImage

    from renderers.supplylines.timelapse import timelapse

    first, log = played_duel()
    gif = timelapse(first, log, title="Replay")
    picture = PILImage.open(io.BytesIO(gif))
    frames = getattr(picture, "n_frames", 1)
    assert picture.format == "GIF" and frames == 3  # two turns and the end


# --- issue 29: players told apart, short of supply where it is, the board at 550 pixels --------


def test_players_who_choose_red_and_orange_are_told_apart_in_every_picture() -> None:
    from engine.interface.colours import PALETTE
    from renderers.colour import distance
    from renderers.supplylines.game import APART, player_colours

    board = load_map("four", load_rules())
    state = State(board=board, owners={label: None for label in board.structures})
    # the joiners' defaults keep 25 apart (tests/renderers/test_palette.py); players who choose
    # their colours may still choose near ones: red and orange are 24 apart
    first = [PALETTE[name] for name in ("red", "blue", "yellow", "orange")]
    assert distance(rgb(first[0]), rgb(first[3])) < APART
    for seat, colour in enumerate(first, 1):
        turns.join(state, f"p{seat}", f"P{seat}", colour, None)
    turns.start(state)
    colours = player_colours(view_for(state, "p1"))
    assert colours["p1"] == rgb(first[0]) and colours["p2"] == rgb(first[1])  # kept
    drawn = list(colours.values())
    assert all(distance(a, b) >= APART for i, a in enumerate(drawn) for b in drawn[i + 1 :])
    assert player_colours(view_for(state, "p4")) == colours == player_colours(full_view(state))
    # Dee's home city is drawn in the colour told apart, not in orange
    home = sl.places(view_for(state, "p4"))[board.home_of(4)]
    arr = draw(view_for(state, "p4"))
    assert count(arr, colours["p4"], around(home, 1)) > 50
    assert count(arr, rgb(first[3]), around(home, 1)) == 0


def test_short_of_supply_is_shown_only_where_a_unit_is_short() -> None:
    from engine.supplylines.view import state_of
    from renderers.supplylines.game import supply_of

    # one line (H1) for three infantry in three structures: two are short by the default
    # choice (the newest), so the "!" is at their structures, not at the first one's
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1 C2", "b": "H2"},
            "units": ["a 1 infantry @ H1", "a 1 infantry @ C1", "a 1 infantry @ C2"],
        }
    )
    view = full_view(state)
    short = supply_of(state_of(view), view).short
    assert short == {("a", "C1"), ("a", "C2")}


def test_badge_blocks_round_crowded_structures_never_cover_each_other() -> None:
    from renderers.supplylines.badges import Block, place_blocks
    from renderers.supplylines.layout import lay_out

    # every structure of the four-player map with a block of three rows of three badges (a
    # contested city with its neighbours all full): wider than the room next to each
    view = view_for(new_game("triangle"), "a")
    layout = lay_out(view, 900)
    block = Block(rows=[], widths=[], w=150.0, h=78.0)
    corners = place_blocks(layout, dict.fromkeys(layout.places, block), [], [])
    boxes = [(x, y, x + block.w, y + block.h) for x, y in corners.values()]
    overlaps = [
        (a, b)
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
    ]
    assert overlaps == []
