"""Supply Lines' orders: written as the seed writes them, refused with a reason that says what
is wrong, and checked against the game before they are kept."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import CommandError
from engine.supplylines import adjudicator, turns
from engine.supplylines.board import available, load_map
from engine.supplylines.kind import KIND
from engine.supplylines.orders import Build, Concede, Hold, Move, OrderList, Orders, limit, parse
from engine.supplylines.rules import load as load_rules
from engine.supplylines.state import Player, State
from tests.games.supplylines.engine.scenario import build_state
from tests.scaled import examples

MAPS = {name: load_map(name, load_rules()) for name in available()}

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
        # the usual Diplomacy notation (issue 29): "-" for a move, A/F prefixes ignored, "H"
        ("A C1 - C2", Move(src="C1", dst="C2")),
        ("F C1 - C2", Move(src="C1", dst="C2")),
        ("C1-C2", Move(src="C1", dst="C2")),
        ("a c1 -> c2", Move(src="C1", dst="C2")),
        ("2 Infantry @ C1 - C2", Move(src="C1", dst="C2", units={"infantry": 2})),
        ("A C1 H", Hold(at="C1")),
        ("C1 Hold", Hold(at="C1")),
        ("Build Tank M1", Build(count=1, unit="tank", at="M1")),
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
        ("A C1 S A H1 - C2", "Supply Lines has no support orders"),
        ("F C1 C A H1 - C2", "Supply Lines has no convoy orders"),
        ("A Z9 - C2", "no structure Z9"),
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


def test_builds_ordered_this_turn_count_against_the_popcap() -> None:
    # a holds H1, C1, C2 (PopCap 3) with one infantry: 2 left, one build of 2 takes them all
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1 C2", "b": "H2"},
            "units": ["a 1 infantry @ H1"],
        }
    )
    listed = OrderList(state, "a")
    listed.add(parse("Build 1 Infantry@H1", state))
    listed.add(parse("Build 1 Infantry@H1", state))
    with pytest.raises(CommandError) as err:
        listed.add(parse("Build 1 Infantry@H1", state))
    assert "you have 0 left this turn" in str(err.value)
    listed = OrderList(state, "a")
    listed.add(parse("Build 1 Infantry@H1", state))
    with pytest.raises(CommandError):
        listed.add(parse("Build 1 Tank@H1", state))  # a tank takes 2: 1 is left


def test_orders_of_a_player_out_of_the_game_are_refused(state) -> None:
    state.players["b"].out = True
    with pytest.raises(CommandError, match="out of the game"):
        OrderList(state, "b").add(parse("Hold@C2", state))


# --- bounded orders (issue 27, finding 1) ----------------------------------------------------------


def duel_started() -> State:
    state = KIND.setup({"map": "duel", "seed": 1})
    turns.join(state, "a", "Ann", "#c0392b", "100")
    turns.join(state, "b", "Bob", "#2980b9", "200")
    turns.start(state)
    return state


def test_one_player_cannot_queue_orders_without_end() -> None:
    # Ann starts with one infantry in H1 (her one structure, her PopCap full): one order for
    # the unit, one for the structure, a concession; a fourth is refused, saying why
    state = duel_started()
    for _ in range(3):
        turns.add_order(state, "a", "Hold@H1")
    for _ in range(50):
        with pytest.raises(CommandError) as err:
            turns.add_order(state, "a", "Hold@H1")
    assert "you have given 3 orders this turn, as many as the rules could use" in str(err.value)
    assert "take one back to give another" in str(err.value)
    assert len(state.orders["a"]) == 3
    turns.clear_orders(state, "a", 1)  # one taken back: one more may be given
    turns.add_order(state, "a", "1 Infantry @ H1 > C1")
    assert [o.text() for o in state.orders["a"]] == ["Hold@H1", "Hold@H1", "1 Infantry @ H1 > C1"]


def test_the_cap_refuses_no_order_the_rules_could_use() -> None:
    # every unit moving on its own, a hold in every structure held, a build for every PopCap
    # left, and a concession: all kept; then nothing more
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2 H1-M1 C1-R1 C2-C3 C3-C4 C4-C5",
            "owners": {"a": "H1 C1 C2 C3 C4 C5 M1 R1", "b": "H2"},
            "units": ["a 2 infantry @ C1", "a 1 tank @ C1", "a 1 infantry @ C2", "b 1 tank @ H2"],
        }
    )
    most, why = limit(state, "a")
    assert most == 4 + 8 + 1 + 1, why  # 4 units, 8 structures, PopCap 6 of which 5 used
    listed = OrderList(state, "a")
    for text in [
        "1 Infantry @ C1 > C2",
        "1 Infantry @ C1 > R1",
        "1 Tank @ C1 > H1",
        "Hold@C1",
        "Hold@C2",
        "1 Infantry @ C2 > C3",
        "Build 1 Infantry@H1",
        "Concede",
    ]:
        listed.add(parse(text, state))  # none refused
    for _ in range(most - 8):
        listed.add(parse("Hold@C1", state))  # useless, but within what the rules could use
    with pytest.raises(CommandError, match="you have given 14 orders this turn"):
        listed.add(parse("Hold@C1", state))


def test_an_order_is_checked_without_reading_the_orders_before_it_again() -> None:
    # the orders kept are indexed: adding one reads none of them (an add costs the same with
    # 1 order kept as with 100)
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1", "b": "H2"},
            "units": ["a 200 infantry @ C1", "b 1 infantry @ H2"],
        }
    )
    state.started = True
    for _ in range(100):
        turns.add_order(state, "a", "1 Infantry @ C1 > C2")

    class Unread(Orders):
        def __iter__(self):
            raise AssertionError("the orders kept were read again")

    kept = Unread()
    for order in state.orders["a"]:
        kept.add(order)
    state.orders["a"] = kept
    turns.add_order(state, "a", "1 Infantry @ C1 > H1")
    turns.add_order(state, "a", "Hold@C1")
    assert len(state.orders["a"]) == 102 and state.orders["a"] is kept
    with pytest.raises(CommandError, match="you have 99 infantry free to move at C1"):
        turns.add_order(state, "a", "100 Infantry @ C1 > H1")


def test_orders_given_before_a_restart_are_indexed_again() -> None:
    # a state read back from its JSON keeps plain lists: the next order is checked against
    # them all the same
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1", "b": "H2"},
            "units": ["a 2 infantry @ C1", "b 1 infantry @ H2"],
        }
    )
    state.started = True
    turns.add_order(state, "a", "C1 > C2")
    again = KIND.load(KIND.dump(state))
    with pytest.raises(CommandError, match="already has a move order"):
        turns.add_order(again, "a", "1 Infantry @ C1 > H1")
    assert KIND.hash(again) == KIND.hash(state)


# --- builds after the PopCap check (issue 27, finding 13) --------------------------------------


def test_a_build_counts_the_popcap_after_the_units_stage_1_disbands() -> None:
    # a holds H1 and C1 (PopCap 2); its tank (2) and infantry (1) need 3: stage 1 disbands
    # the tank (the most marks), which leaves 1 for a build, as the adjudicator builds it
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1", "b": "H2"},
            "units": ["a 1 tank @ C1 marks 1", "a 1 infantry @ H1", "b 1 infantry @ H2"],
        }
    )
    assert adjudicator.disbanding(state, "a") == [1]
    listed = OrderList(state, "a")
    listed.add(parse("Build 1 Infantry@H1", state))
    with pytest.raises(CommandError) as err:
        listed.add(parse("Build 1 Infantry@H1", state))
    assert "you have 0 left this turn (PopCap 2" in str(err.value)
    assert "your units use 1 once the 1 unit over it are disbanded" in str(err.value)
    report = adjudicator.resolve_orders(state, {"a": listed.orders})
    assert [(u.type, u.at) for u in report.built] == [("infantry", "H1")] and not report.skipped


def _position(seed: int) -> State:
    """A board in the middle of a game, players often over their PopCap (cities lost)."""
    rng = random.Random(seed)
    board = MAPS[rng.choice(sorted(MAPS))]
    players = [Player(id=f"p{s}", name=f"P{s}", seat=s) for s in range(1, board.seats + 1)]
    owners: dict[str, str | None] = {
        label: rng.choice([p.id for p in players] + [None, None]) for label in board.labels()
    }
    for p in players:
        owners[board.home_of(p.seat)] = p.id
    state = State(board=board, owners=owners, players={p.id: p for p in players})
    for label, owner in owners.items():
        if owner is not None and rng.random() < 0.6:
            for _ in range(rng.randint(1, 3)):
                state.add_unit(
                    rng.choice(["infantry", "tank"]), owner, label, marks=rng.randint(0, 3)
                )
    return state


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=2**32))
def test_the_order_check_accepts_a_build_iff_the_adjudicator_builds_it(
    seed: int, pick: int
) -> None:
    state = _position(seed)
    rng = random.Random(pick)
    player = rng.choice(state.active())
    mine = state.structures_of(player)
    listed = OrderList(state, player)
    for _ in range(6):
        build = Build(
            count=rng.randint(1, 3), unit=rng.choice(["infantry", "tank"]), at=rng.choice(mine)
        )
        try:
            listed.add(build)
            accepted = True
        except CommandError:
            accepted = False
        trial = state.model_copy(deep=True)
        given = [o for o in listed.orders if o is not build] + [build]
        report = adjudicator.resolve_orders(trial, {player: given})
        built_in_full = not any(o is build for _, o, _ in report.skipped)
        assert accepted == built_in_full, (build, report.skipped)
