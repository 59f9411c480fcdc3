"""The hex map's places: neighbours north first then clockwise, layers, and the seed's order
(closest to Earth, then north, then clockwise) that battles, scouting and NPC turns follow."""

from __future__ import annotations

import pytest

from engine.caldera import hexes


def test_earths_neighbours_start_straight_north_and_go_clockwise() -> None:
    assert [hexes.key(h) for h in hexes.neighbours(hexes.EARTH)] == [
        "0,-1",  # north
        "1,-1",  # north-east
        "1,0",  # south-east
        "0,1",  # south
        "-1,1",  # south-west
        "-1,0",  # north-west
    ]


def test_a_layer_is_a_ring_of_six_n_places_at_that_distance_from_earth() -> None:
    for n in range(1, 6):
        ring = hexes.ring(n)
        assert len(ring) == len(set(ring)) == 6 * n
        assert {hexes.layer(h) for h in ring} == {n}
        assert ring[0] == (0, -n)  # straight north of Earth
        assert [hexes.ring_index(h) for h in ring] == list(range(6 * n))
        # each next place of the ring is next to the one before
        assert all(
            hexes.distance(a, b) == 1 for a, b in zip(ring, ring[1:] + ring[:1], strict=True)
        )


def test_battles_are_taken_closest_to_earth_first_then_north_then_clockwise() -> None:
    battles = ["0,2", "-1,0", "2,-2", "1,-1", "0,-2", "-2,1", "0,0"]
    assert hexes.sorted_places(battles) == [
        "0,0",  # Earth
        "1,-1",  # layer 1, north-east
        "-1,0",  # layer 1, north-west (last of the ring)
        "0,-2",  # layer 2, straight north
        "2,-2",  # layer 2, north-east corner
        "0,2",  # layer 2, south
        "-2,1",  # layer 2, west side, going back north
    ]


def test_the_spiral_walks_every_place_once_in_the_seeds_order() -> None:
    places = list(hexes.spiral(3))
    assert len(places) == 1 + 6 + 12 + 18
    assert places == sorted(places, key=hexes.order)


def test_distance_between_two_places() -> None:
    assert hexes.distance((0, -2), (1, -1)) == 2
    assert hexes.distance((2, -1), (-2, 1)) == 4
    assert hexes.layer((3, -1)) == 3


@pytest.mark.parametrize("text", ["1", "a,b", "1,2,3", ""])
def test_a_place_that_is_not_two_numbers_is_refused_by_name(text: str) -> None:
    with pytest.raises(ValueError, match="q,r"):
        hexes.parse(text)


def test_a_place_reads_with_spaces() -> None:
    assert hexes.parse(" 2, -1") == (2, -1)
    assert hexes.key((2, -1)) == "2,-1"
