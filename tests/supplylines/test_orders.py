"""Supply Lines' orders: written as the seed writes them, refused with a reason that says what
is wrong, and checked against the game before they are kept."""

from __future__ import annotations

import pytest

from engine.errors import CommandError
from engine.supplylines.orders import Build, Concede, Hold, Move, OrderList, parse
from tests.supplylines.scenario import build_state

GAME = {
    "roads": "H1-C1 C1-C2 C2-H2 H1-M1 C1-R1",
    "owners": {"a": "H1 C1 M1 R1", "b": "H2 C2"},
    "units": ["a 2 infantry @ C1", "a 1 tank @ C1", "a 1 infantry @ H1 marks 3", "b 1 tank @ C2"],
}


@pytest.fixture
def state():
    return build_state(GAME)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Build 1 Tank@M1", Build(count=1, unit="tank", at="M1")),
        ("build 2 infantry @ h1", Build(count=2, unit="infantry", at="H1")),
        ("Build Tank@M1", Build(count=1, unit="tank", at="M1")),
        ("Build 3 Tanks @M1", Build(count=3, unit="tank", at="M1")),
        ("Hold@R1", Hold(at="R1")),
        ("hold C1", Hold(at="C1")),
        ("C1 > C2", Move(src="C1", dst="C2")),
        ("c1>c2", Move(src="C1", dst="C2")),
        ("C1 -> C2", Move(src="C1", dst="C2")),
        (
            "3 Infantry + 1 Tank @ C1 > C2",
            Move(src="C1", dst="C2", units={"infantry": 3, "tank": 1}),
        ),
        ("1 inf, 1 tank @ C1 > C2", Move(src="C1", dst="C2", units={"infantry": 1, "tank": 1})),
        ("Concede", Concede()),
        ("Conceede", Concede()),
    ],
)
def test_orders_read_as_the_seed_writes_them(state, text, order) -> None:
    assert parse(text, state) == order
    assert parse(parse(text, state).text(), state) == order  # shown back as it is read


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "write an order"),
        ("attack C2", "orders look like"),
        ("Build Tank", "the number, the unit and the base"),
        ("Build 1 Plane@M1", "there is no unit 'Plane'"),
        ("Build 0 Tank@M1", "between 1 and 99"),
        ("Hold@Z9", "no structure Z9"),
        ("Hold", "Hold@R2"),
        ("C1 > C1", "goes nowhere"),
        ("C1 > X", "'X' is not a structure"),
        ("three infantry @ C1 > C2", "the number and the type"),
    ],
)
def test_unreadable_orders_say_what_is_wrong(state, text, says) -> None:
    with pytest.raises(CommandError) as err:
        parse(text, state)
    assert says in str(err.value)


@pytest.mark.parametrize(
    ("orders", "says"),
    [
        (["Build 1 Tank@C2"], "you do not hold C2"),
        (["Build 1 Infantry@C1"], "C1 is a city: units are built in"),
        (["Build 1 Infantry@M1"], "not enough PopCap"),
        (["C2 > H2"], "you have no units at C2"),
        (["C1 > H2"], "H2 is not next to C1"),
        (["H1 > C1"], "cannot move"),
        (["3 Infantry @ C1 > C2"], "you have 2 infantry free to move at C1"),
        (["2 Infantry @ C1 > C2", "1 Infantry @ C1 > R1"], "you have 0 infantry free"),
        (["C1 > C2", "1 Tank @ C1 > R1"], "already has a move order"),
        (["C1 > C2", "Hold@C1"], "already has a move order"),
        (["Hold@C1", "C1 > C2"], "have a hold order"),
        (["Hold@C2"], "you have no units at C2"),
        (["Concede", "Concede"], "already conceded"),
    ],
)
def test_orders_that_cannot_be_carried_out_are_refused(state, orders, says) -> None:
    listed = OrderList(state, "a")
    with pytest.raises(CommandError) as err:
        for text in orders:
            listed.add(parse(text, state))
    assert says in str(err.value)
    assert len(listed.orders) == len(orders) - 1  # the refused one is not kept


def test_a_full_popcap_refuses_builds_and_says_how_much_is_left(state) -> None:
    # a: H1 and C1 give 2; its units use 5 (2 infantry, a tank, 1 infantry)
    listed = OrderList(state, "a")
    with pytest.raises(CommandError) as err:
        listed.add(parse("Build 1 Infantry@H1", state))
    assert "you have 0 left this turn (PopCap 2" in str(err.value)


def test_orders_of_a_player_out_of_the_game_are_refused(state) -> None:
    state.players["b"].out = True
    with pytest.raises(CommandError, match="out of the game"):
        OrderList(state, "b").add(parse("Hold@C2", state))
