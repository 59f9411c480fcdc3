"""Choosing units as a player thinks of them (bot/games/strategic/selectors.py): ids, ranges of one's own
units, `all at 12,7`, `tanks at 12,7`, `idle tanks`...; what is skipped and why; the replies
that say so; suggestions as one types."""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.context import Caller, UserError
from bot.desk import Desk
from bot.games.strategic import selectors
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from engine.host.service import GameService
from engine.strategic.scenario import build_world
from engine.strategic.view import UnitView, View, view_for
from engine.strategic.world import World
from tests.games.strategic.worlds import STRIP
from tests.scaled import examples

RED = Caller(user_id="100", name="red", guild_id=None, channel_id=None)

# red's units are scattered among blue's ids, as in a real game
UNITS = [
    {"id": 1, "owner": "red", "type": "infantry", "at": "1,1", "mobility": 6},
    {"id": 2, "owner": "blue", "type": "infantry", "at": "20,1", "mobility": 6},
    {"id": 3, "owner": "red", "type": "infantry", "at": "1,1", "mobility": 6},
    {"id": 4, "owner": "blue", "type": "engineer", "at": "19,3", "mobility": 9},
    {"id": 5, "owner": "red", "type": "tank", "at": "1,1", "mobility": 9},
    {"id": 6, "owner": "red", "type": "transport", "at": "3,4", "mobility": 18},
    {"id": 7, "owner": "red", "type": "infantry", "at": "3,4", "carried_by": 6},
    {"id": 8, "owner": "red", "type": "tank", "at": "5,2", "mobility": 0},
    {"id": 9, "owner": "blue", "type": "tank", "at": "6,2", "mobility": 9},
    {"id": 10, "owner": "red", "type": "satellite", "at": "1,1"},
    {"id": 11, "owner": "red", "type": "fighter", "at": "1,1", "mobility": 18},
]
OWN = {1, 3, 5, 6, 7, 8, 10, 11}


def world() -> World:
    made, _ = build_world({**STRIP, "units": UNITS})
    return made


def red_view(w: World | None = None) -> View:
    return view_for(w or world(), "red")


def with_orders(view: View, orders: dict[int, int]) -> View:
    """The view with some own units on standing orders (unit id -> goal square)."""
    return replace(
        view,
        units=[replace(u, order=orders[u.id]) if u.id in orders else u for u in view.units],
    )


def pick(text: str, view: View | None = None) -> selectors.Selection:
    view = view or red_view()
    return selectors.resolve(text, view, selectors.rules_of(view))


def test_plain_ids_are_taken_as_typed_each_once() -> None:
    assert pick("5").chosen == (5,)
    assert pick("5 1 3").chosen == (5, 1, 3)
    assert pick("5,1;#3 5").chosen == (5, 1, 3)
    assert pick("5 1").note() == ""  # plain ids of one's own: the reply is as it always was


def test_a_range_means_ones_own_units_in_it_and_counts_the_rest() -> None:
    chosen = pick("1-6")
    assert chosen.chosen == (1, 3, 5, 6)
    assert chosen.note() == "Ordered 4 units (1, 3, 5, 6); skipped 2 ids that are not yours."
    assert pick("6-1").chosen == (1, 3, 5, 6)
    with pytest.raises(UserError, match=r"^You have no units with ids 12-20\.$"):
        pick("12-20")


def test_an_id_that_is_not_yours_is_skipped_in_the_same_words_whatever_it_is() -> None:
    view = red_view()
    seen = view.unit(9)
    assert seen is not None and seen.seen == "now"  # blue's tank, in sight
    ghost = UnitView(12, "tank", "blue", 40, None, "memory", 0)  # remembered
    view = replace(view, units=[*view.units, ghost])
    for other in (9, 2, 12, 999):  # seen, unseen, remembered, never existed
        chosen = pick(f"1 {other}", view)
        assert chosen.chosen == (1,)
        assert chosen.skipped == ((other, "not one of your units"),)
        assert chosen.note() == f"Ordered 1 unit (1); skipped {other} (not one of your units)."
        with pytest.raises(UserError, match=rf"^You have no unit {other}\.$"):
            pick(str(other), view).ids()


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("all at 1,1", (1, 3, 5, 10, 11)),
        ("at 1,1", (1, 3, 5, 10, 11)),
        ("ALL AT (1, 1)", (1, 3, 5, 10, 11)),
        ("all on 1 1", (1, 3, 5, 10, 11)),
        ("tanks at 1,1", (5,)),
        ("tank at 1,1", (5,)),
        ("inf at 1,1", (1, 3)),
        ("infantry at 3,4", (7,)),
        ("tanks and infantry at 1,1", (1, 3, 5)),
        ("all tanks", (5, 8)),
        ("tanks", (5, 8)),
        ("ships", (6,)),
        ("trn", (6,)),
        ("aircraft", (11,)),
        ("fighters", (11,)),
        ("land at 1,1", (1, 3, 5)),
        ("ready tanks", (5,)),  # tank 8 has no mobility left
        ("aboard 6", (7,)),
        ("in 6", (7,)),
        ("tanks in 1,1", (5,)),  # "in x,y" is a square, "in 6" a carrier (found by review)
        ("spy satellites", (10,)),
        ("3 8 tanks at 1,1", (3, 8, 5)),
        ("tanks at 1,1 infantry at 3,4", (5, 7)),
        ("tank 8", (8,)),  # a type before an id is only the unit's label
        ("unit 8", (8,)),
        ("all", tuple(sorted(OWN))),
    ],
)
def test_selectors_choose_ones_own_units(text: str, ids: tuple[int, ...]) -> None:
    chosen = pick(text)
    assert chosen.chosen == ids
    assert chosen.skipped == () and chosen.not_yours == 0


def test_idle_and_moving_read_the_standing_orders() -> None:
    view = with_orders(red_view(), {8: 30, 1: 30})
    assert pick("idle tanks", view).chosen == (5,)
    assert pick("idle at 1,1", view).chosen == (3, 5, 10, 11)
    assert pick("moving", view).chosen == (1, 8)
    with pytest.raises(UserError, match=r"^You have no idle tanks at 5,2\.$"):
        pick("idle tanks at 5,2", view)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tanks at 3,4", r"^You have no tanks at 3,4\.$"),
        ("at 2,2", r"^You have no units at 2,2\.$"),
        ("damaged", r"^You have no damaged units\.$"),
        ("submarines", r"^You have no submarines\.$"),
        ("aboard 5", r"^You have no units aboard 5\.$"),
        ("tnaks", r"^'tnaks' is not a unit id or a kind of unit: try `12`"),
        ("all at 99,1", r"off the map"),
        ("tanks at", r"^Give a square after 'at'"),
        ("", r"^Give at least one unit"),
        ("1 ! 3", r"^'!' is not a unit id"),
    ],
)
def test_a_selector_that_chooses_nothing_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        pick(text)


def test_what_cannot_do_the_order_is_skipped_with_its_reason() -> None:
    view = red_view()
    rules = selectors.rules_of(view)
    goal = 2 * view.width + 8  # 8,2
    moving = selectors.for_move(pick("all at 3,4", view), view, rules, goal)
    assert moving.chosen == (6,)
    assert moving.note() == (
        "Ordered 1 unit (6); skipped 7 (aboard transport 6, it moves with it)."
    )
    moving = selectors.for_move(pick("all at 1,1", view), view, rules, view.width + 1)
    assert moving.chosen == ()
    at_home = selectors.for_move(pick("10 1", view), view, rules, goal)
    assert at_home.skipped == ((10, "a Spy Satellite is launched, it does not move"),)
    with pytest.raises(UserError, match=r"^Nothing was ordered: skipped 1, 3, 5 and 11 "):
        moving.ids()
    board = selectors.for_board(pick("1 6 7 8", view), view, rules, 6)
    assert board.chosen == ()
    assert dict(board.skipped) == {
        1: "not at 3,4, where 6 is",
        6: "the carrier itself",
        7: "already aboard transport 6",
        8: "not at 3,4, where 6 is",
    }
    view = with_orders(view, {8: 30})
    cancel = selectors.for_cancel(pick("tanks", view), view)
    assert cancel.chosen == (8,) and cancel.tail() == "; skipped 5 (no standing order)"


def test_too_many_units_for_one_order_is_an_error() -> None:
    many = selectors.Selection(tuple(range(1, 70)), plain=False)
    with pytest.raises(UserError, match=r"^That is 69 units; one order takes at most 64"):
        many.ids()


FRAGMENTS = st.sampled_from(
    ["all", "at", "1,1", "3,4", "at 1,1", "tanks", "tank", "inf", "1-9", "#4", "9", "2", "12",
     "idle", "moving", "and", ",", "-", "aboard 6", "aboard", "ships", "999999999999", "(",
     "units", "unit", "icbm 1", "on 0 0", "x", "ready", "1 - 3", "at -1,1"]
)  # fmt: skip


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=60), st.lists(FRAGMENTS, max_size=8).map(" ".join)))
def test_whatever_is_typed_only_ones_own_units_are_chosen(text: str) -> None:
    view = VIEW
    rules = selectors.rules_of(view)
    try:
        chosen = selectors.resolve(text, view, rules)
    except UserError:
        return
    assert set(chosen.chosen) <= OWN
    assert all(uid not in OWN and why == "not one of your units" for uid, why in chosen.skipped)
    for narrowed in (
        selectors.for_move(chosen, view, rules, 0),
        selectors.for_attack(chosen, view, rules, 6 + 2 * view.width),
        selectors.for_board(chosen, view, rules, 6),
        selectors.for_cancel(chosen, view),
    ):
        assert set(narrowed.chosen) <= set(chosen.chosen)
        with contextlib.suppress(UserError):
            narrowed.ids()


VIEW = red_view()


def test_what_is_chosen_never_depends_on_other_nations_units() -> None:
    plain = red_view()
    emptied = world()
    for uid in (2, 4, 9):  # every one of blue's units gone, seen or not
        emptied.remove_unit(emptied.units[uid])
    other = red_view(emptied)
    assert plain.unit(9) is not None and other.unit(9) is None
    for text in ("1-6", "2 1", "all", "all at 1,1", "tanks", "1 4 9 999", "1-20"):
        assert pick(text, plain) == pick(text, other)


def test_suggestions_complete_ids_and_selectors_of_ones_own_units() -> None:
    view = red_view()
    rules = selectors.rules_of(view)
    first = selectors.suggest("", view, rules)
    assert first[0] == ("all at 1,1 (5 units: 1, 3, 5, 10, 11)", "all at 1,1")
    assert ("tanks at 1,1 (1 unit: 5)", "tanks at 1,1") in first
    assert ("all tanks (2 units: 5, 8)", "all tanks") in first
    for typed in ("", "t", "ta", "all", "3 ", "3 ta", "1", "idle", "5 ships", "zz", "at 1,1"):
        for label, value in selectors.suggest(typed, view, rules):
            assert len(label) <= 100 and len(value) <= 100
            assert set(selectors.resolve(value, view, rules).chosen) <= OWN, (typed, value)
    assert [v for _, v in selectors.suggest("3 ta", view, rules)] == [
        "3 tanks at 1,1",
        "3 tanks at 5,2",
        "3 tanks",
    ]
    assert [v for _, v in selectors.suggest("1", view, rules)] == ["1", "10", "11"]
    whole = selectors.suggest("tanks at 1,1", view, rules)
    assert whole[0] == ("tanks at 1,1 (1 unit: 5)", "tanks at 1,1")


# --- the replies ---------------------------------------------------------------------------------


@pytest.fixture
async def game(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"))
    game = await service.create_game(name="t", world=world())
    yield service, game, Desk(service)
    await service.close()


async def test_a_move_reply_names_the_units_skipped_and_why(game) -> None:
    service, gid, desk = game
    before = (await service.live_world(gid)).hash()
    with pytest.raises(UserError, match=r"^You have no unit 9\.$"):
        await desk.part(Playing).move(RED, "9", "3,1")
    with pytest.raises(UserError, match=r"^You have no unit 999\.$"):
        await desk.part(Playing).move(RED, "999", "3,1")
    assert (await service.live_world(gid)).hash() == before  # refused: nothing changed
    reply = (await desk.part(Playing).move(RED, "1 3 9", "3,1")).text
    assert reply.splitlines()[:3] == [
        "Ordered 2 units (1, 3); skipped 9 (not one of your units).",
        "Unit 1 moved 2 squares to 3,1.",
        "Unit 3 moved 2 squares to 3,1.",
    ]
    w = await service.live_world(gid)
    assert w.grid.label(w.units[9].sq) == "6,2"  # blue's tank stayed where it was


async def test_a_range_moves_ones_own_units_only(game) -> None:
    service, gid, desk = game
    reply = (await desk.part(Playing).move(RED, "1-4", "1,2")).text
    assert reply.splitlines()[0] == "Ordered 2 units (1, 3); skipped 2 ids that are not yours."
    w = await service.live_world(gid)
    assert [w.grid.label(w.units[u].sq) for u in (1, 3)] == ["1,2", "1,2"]
    assert w.grid.label(w.units[2].sq) == "20,1" and w.grid.label(w.units[4].sq) == "19,3"


async def test_a_transport_and_its_cargo_the_cargo_goes_with_it(game) -> None:
    service, gid, desk = game
    reply = (await desk.part(Playing).move(RED, "all at 3,4", "8,4")).text
    lines = reply.splitlines()
    assert lines[0] == "Ordered 1 unit (6); skipped 7 (aboard transport 6, it moves with it)."
    assert lines[1].startswith("Unit 6 moved 5 squares to 8,4")
    w = await service.live_world(gid)
    assert w.grid.label(w.units[7].sq) == "8,4" and w.units[7].carried_by == 6


async def test_a_stack_at_home_moves_without_what_cannot(game) -> None:
    service, gid, desk = game
    reply = (await desk.part(Playing).move(RED, "all at 1,1 11", "2,2")).text
    lines = reply.splitlines()
    assert lines[0] == (
        "Ordered 4 units (1, 3, 5, 11); skipped 10 (a Spy Satellite is launched, it does not move)."
    )
    assert "Unit 5 moved 1 square to 2,2." in lines


async def test_cancel_names_what_had_no_order(game) -> None:
    service, gid, desk = game
    await desk.part(Playing).move(RED, "1", "10,1")  # goes on: a standing order
    reply = await desk.part(Playing).cancel(RED, "all at 1,1 1")
    assert reply.text == (
        "Standing orders cancelled for unit 1; skipped 3, 5, 10 and 11 (no standing order)."
    )
    w = await service.live_world(gid)
    assert w.units[1].order is None
    with pytest.raises(UserError, match=r"^Nothing was ordered: skipped 5 and 8 \(no standing"):
        await desk.part(Playing).cancel(RED, "tanks")


async def test_units_lists_by_square_with_filters_and_mobility_out_of_its_most(game) -> None:
    service, gid, desk = game
    text = (await desk.part(Intel).units(RED, group="square")).full_text
    lines = text.splitlines()
    assert lines[0] == "**Your units (8) - page 1/1**"
    assert lines[1] == "**1,1** - 5 units"
    assert lines[2] == "`   1` Infantry - 5/5 hp - mob 6/6 - ammo 1"
    tank = next(line for line in lines if line.startswith("`   5`"))
    assert " - mob 9/9" in tank
    ready = (await desk.part(Intel).units(RED, kind="tank", ready=True)).full_text.splitlines()
    assert ready[0] == "**Your units of type Tank with mobility left (1) - page 1/1**"
    assert ready[1].startswith("`   5` Tank at 1,1")
    spent = (await desk.part(Intel).units(RED, ready=False)).full_text
    assert "`   8` Tank at 5,2" in spent and "`   5`" not in spent
    await desk.part(Playing).move(RED, "1", "10,1")
    moving = (await desk.part(Intel).units(RED, orders="with")).full_text.splitlines()
    assert moving[1].startswith("`   1` Infantry at 7,1") and moving[1].endswith("-> 10,1")
    idle_here = (
        await desk.part(Intel).units(RED, orders="without", at="1,1")
    ).full_text.splitlines()
    listed = idle_here[1:-1]  # between the title and the footer
    assert [re.findall(r"`\s*(\d+)`", line)[0] for line in listed] == ["3", "5", "10", "11"]
    none = await desk.part(Intel).units(RED, kind="tank", at="3,4")
    assert none.text == "You have no units of type Tank at 3,4."
