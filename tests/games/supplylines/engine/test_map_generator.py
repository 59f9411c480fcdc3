"""The generator of random Supply Lines maps (engine/supplylines/mapgen.py): for 2-6 players
and many seeds, a map is valid, connected, the same for the same seed, and fair: every home
city sees the same map (the same cities, refineries and bases at the same number of roads),
is as far from the home before it as from the home after it, and each kind of structure comes
in a number the players share alike. Its roads do not cross in the picture."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.supplylines.board import Board, MapError
from engine.supplylines.mapgen import MAX_PLAYERS, MIN_PLAYERS, SIZES, generate
from engine.supplylines.rules import load as load_rules
from tests.scaled import examples

RULES = load_rules()
PLAYERS = range(MIN_PLAYERS, MAX_PLAYERS + 1)

Point = tuple[float, float]


def rings(board: Board, seat: int) -> list[tuple[int, str]]:
    """The other structures (not homes) as seen from a home city: (roads away, type)."""
    home = board.home_of(seat)
    lengths = nx.single_source_shortest_path_length(board.graph, home)
    return sorted(
        (n, board.kind_of(label, RULES))
        for label, n in lengths.items()
        if board.kind_of(label, RULES) != "home"
    )


def crossing(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Two segments with no end in common cross (or touch)."""
    if {p, q} & {r, s}:
        return False

    def side(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    if side(p, q, r) == side(p, q, s) == 0:  # on one line: crossing when they overlap
        axis = 0 if p[0] != q[0] else 1
        lo, hi = sorted((p[axis], q[axis]))
        return max(r[axis], s[axis]) >= lo and min(r[axis], s[axis]) <= hi
    return side(p, q, r) * side(p, q, s) <= 0 and side(r, s, p) * side(r, s, q) <= 0


def assert_fair_map(board: Board, players: int) -> None:
    assert board.check(RULES) is board
    assert board.seats == players
    assert nx.is_connected(board.graph)
    # labels: H1..Hn with seat n; the others numbered from 1 up, with no gap
    assert {label: s.seat for label, s in board.structures.items() if s.seat is not None} == {
        f"H{n}": n for n in range(1, players + 1)
    }
    by_letter = Counter(label[0] for label in board.structures)
    for letter, count in by_letter.items():
        assert {f"{letter}{n}" for n in range(1, count + 1)} <= set(board.structures)
    # each kind of structure in a number the players share alike, and some of each
    for letter in "CRM":
        assert by_letter[letter] >= players
        assert by_letter[letter] % players == 0, (letter, by_letter)
    # every home sees the same map
    first = rings(board, 1)
    for seat in range(2, players + 1):
        assert rings(board, seat) == first, seat
    # every home is as far from the home after it as from the one before it
    gaps = set()
    for seat in range(1, players + 1):
        lengths = nx.single_source_shortest_path_length(board.graph, board.home_of(seat))
        after = board.home_of(seat % players + 1)
        before = board.home_of((seat - 2) % players + 1)
        assert lengths[after] == lengths[before]
        gaps.add(lengths[after])
    assert len(gaps) == 1 and gaps.pop() >= 3
    # each home has a base beside it
    for seat in range(1, players + 1):
        home = board.home_of(seat)
        assert any(board.kind_of(n, RULES) == "base" for n in board.neighbours(home))


def assert_roads_do_not_cross(board: Board) -> None:
    at = {label: (s.x, s.y) for label, s in board.structures.items()}
    roads = [(at[a], at[b]) for a, b in board.roads]
    for i, (p, q) in enumerate(roads):
        for r, s in roads[i + 1 :]:
            assert not crossing(p, q, r, s), (p, q, r, s)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("players", PLAYERS)
def test_maps_are_fair_for_many_seeds(players: int, size: str) -> None:
    for seed in range(8):
        board = generate(players, seed, size=size)
        assert_fair_map(board, players)


@settings(max_examples=examples(50), deadline=None)
@given(
    players=st.integers(MIN_PLAYERS, MAX_PLAYERS),
    seed=st.integers(-(2**63), 2**63),
    size=st.sampled_from(list(SIZES)),
)
def test_any_seed_gives_a_fair_map_whose_roads_do_not_cross(
    players: int, seed: int, size: str
) -> None:
    board = generate(players, seed, size=size)
    assert_fair_map(board, players)
    assert_roads_do_not_cross(board)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_same_seed_gives_the_same_map(players: int) -> None:
    for seed in (0, 1, 99, 2**40):
        one, two = generate(players, seed), generate(players, seed)
        assert one.model_dump() == two.model_dump()
        assert one.roads == two.roads and list(one.structures) == list(two.structures)


@pytest.mark.parametrize("players", PLAYERS)
def test_different_seeds_give_different_maps(players: int) -> None:
    maps = {generate(players, seed).model_dump_json() for seed in range(20)}
    assert len(maps) >= 19


def test_sizes_differ() -> None:
    def mean_structures(size: str) -> float:
        return sum(len(generate(4, seed, size=size).structures) for seed in range(8)) / 8

    assert mean_structures("small") < mean_structures("normal") < mean_structures("large")


def test_the_global_random_stream_is_left_alone() -> None:
    random.seed(5)
    state = random.getstate()
    generate(4, 123)
    assert random.getstate() == state


def test_a_map_travels_in_a_game_state() -> None:
    board = generate(5, 42)
    again = Board.model_validate_json(board.model_dump_json())
    assert again.model_dump() == board.model_dump()
    assert again.name == "random-5-42" and "5 players" in again.title
    assert generate(3, 42, size="large").name == "random-3-42-large"


@pytest.mark.parametrize("players", [0, 1, 7])
def test_players_out_of_range_are_refused(players: int) -> None:
    with pytest.raises(MapError, match="2 to 6 players"):
        generate(players, 1)


def test_an_unknown_size_is_refused() -> None:
    with pytest.raises(MapError, match="unknown map size"):
        generate(3, 1, size="huge")
