"""Properties of Supply Lines' adjudication over generated turns on the hand-made maps: units
are conserved (each ends somewhere, or is destroyed or disbanded for a stated reason), the
outcome does not depend on the order in which players gave their orders, and a turn resolved
twice from the same state is the same turn."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import CommandError
from engine.supplylines import adjudicator
from engine.supplylines.board import available, load_map
from engine.supplylines.orders import Build, Move, OrderList
from engine.supplylines.rules import load as load_rules
from engine.supplylines.state import NEUTRAL, Player, State
from tests.scaled import examples

RULES = load_rules()
MAPS = {name: load_map(name, RULES) for name in available()}


def generated(seed: int) -> tuple[State, dict[str, list]]:
    """A game in the middle: structures owned at random, units in them, and each player's
    orders (moves of all or some units, builds), every order checked as the bot checks it."""
    rng = random.Random(seed)
    board = MAPS[rng.choice(sorted(MAPS))]
    players = [Player(id=f"p{s}", name=f"P{s}", seat=s) for s in range(1, board.seats + 1)]
    owners: dict[str, str | None] = {}
    for label in board.labels():
        owners[label] = rng.choice([p.id for p in players] + [None])
    for p in players:
        owners[board.home_of(p.seat)] = p.id
    state = State(board=board, owners=owners, players={p.id: p for p in players})
    for label, owner in owners.items():
        if rng.random() < 0.5:
            who = owner if owner is not None else (NEUTRAL if rng.random() < 0.3 else None)
            if who is None:
                continue
            for _ in range(rng.randint(1, 3)):
                state.add_unit(
                    rng.choice(["infantry", "tank"]), who, label, marks=rng.randint(0, 3)
                )
    state.turn = rng.randint(0, 5)
    for u in state.units.values():
        u.built = rng.randint(0, state.turn)
    orders: dict[str, list] = {}
    for p in players:
        listed = OrderList(state, p.id)
        for label in state.structures_of(p.id):
            mine = [u for u in state.units_at(label) if u.owner == p.id]
            if mine and rng.random() < 0.6:
                dst = rng.choice(board.neighbours(label))
                units = None
                if rng.random() < 0.5:
                    u = rng.choice(mine)
                    units = {u.type: 1}
                with contextlib.suppress(CommandError):
                    listed.add(Move(src=label, dst=dst, units=units))
            if RULES.structures[state.kind(label)].builds and rng.random() < 0.8:
                for unit in ("tank", "infantry"):
                    with contextlib.suppress(CommandError):
                        listed.add(Build(count=1, unit=unit, at=label))
        orders[p.id] = listed.orders
    return state, orders


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_units_are_conserved_and_each_loss_has_a_reason(seed: int) -> None:
    state, orders = generated(seed)
    before = set(state.units)
    rules = state.rules
    # the PopCap as the turn starts (ownership changes only at the captures, after the builds)
    cap = {p: state.popcap(p) for p in state.active()}
    used = {p: state.popcap_used(p) for p in state.active()}
    report = adjudicator.resolve(state, orders)
    after = set(state.units)
    destroyed = {u.id for u in report.destroyed}
    disbanded = {u.id for u in report.disbanded}
    built = {u.id for u in report.built}
    assert not destroyed & disbanded and not built & before
    assert after == (before | built) - destroyed - disbanded
    # a destroyed unit lost a conflict that names it
    assert destroyed == {uid for c in report.conflicts for uid in c.destroyed}
    # after the conflicts one player's units per structure, in a structure of their own
    places: dict[str, set[str]] = {}
    for u in state.units.values():
        places.setdefault(u.at, set()).add(u.owner)
    for label, owners in places.items():
        assert len(owners) == 1, (label, owners)
        (owner,) = owners
        if owner != NEUTRAL:
            assert state.owners[label] == owner
    # stage 1 disbands down to the PopCap, and the builds stay within it
    for p in cap:
        after_builds = (
            used[p]
            - sum(rules.units[u.type].popcap for u in report.disbanded if u.owner == p)
            + sum(rules.units[u.type].popcap for u in report.built if u.owner == p)
        )
        assert after_builds <= max(cap[p], 0)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.randoms(use_true_random=False))
def test_the_outcome_does_not_depend_on_who_gave_orders_first(seed: int, rnd) -> None:
    state, orders = generated(seed)
    shuffled = list(orders.items())
    rnd.shuffle(shuffled)
    other = state.model_copy(deep=True)
    adjudicator.resolve(state, orders)
    adjudicator.resolve(other, dict(shuffled))
    assert state.model_dump_json() == other.model_dump_json()


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_a_turn_resolved_twice_is_the_same_turn(seed: int) -> None:
    state, orders = generated(seed)
    again = State.model_validate_json(state.model_dump_json())
    first = adjudicator.resolve(state, orders)
    second = adjudicator.resolve(again, orders)
    assert state.model_dump_json() == again.model_dump_json()
    assert first == second


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_player_knows_before_the_turn_which_units_its_popcap_disbands(seed: int) -> None:
    """What a view tells each player over their PopCap (`disbanding`) is exactly what the
    turn's first stage disbands, whatever the orders."""
    from engine.supplylines.view import full_view

    state, orders = generated(seed)
    state.started = True
    told = {p: list(v.disbanding) for p, v in full_view(state).players.items()}
    report = adjudicator.resolve_orders(state.model_copy(deep=True), orders)
    for player in state.players:
        gone = [u.id for u in report.disbanded if u.owner == player]
        assert told[player] == gone
        assert bool(gone) == (state.popcap_used(player) > state.popcap(player))
