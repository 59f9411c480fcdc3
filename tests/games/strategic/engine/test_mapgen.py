"""Map generation: fair home islands, neutral land to fight over, determinism, claiming slots.

Fairness is measured, not assumed: for several nation counts and map sizes (down to 32 nations
on 32x32) every slot must have the same home cities, home islands of equal size, its neutral
cities near home, and its nearest neighbour at about the same distance as everyone else's.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.strategic import mapgen
from engine.strategic.rules import load
from engine.strategic.systems.economy import default_build
from engine.strategic.world import LAND, World
from tests.scaled import examples

RULES = load("standard")
NEAR_HOME_RADIUS = 6
MIN_DISTANCE_RATIO = 0.75  # measured on CASES: 0.91-1.00 (0.70 is the worst seen for any n, size)
ISLAND_SPREAD = 0.25  # home islands within +-25% of each other (measured: all exactly equal)

# (nations, side, seed)
CASES = [
    (2, 32, 1),
    (2, 32, 2),
    (2, 60, 3),
    (4, 64, 1),
    (4, 64, 2),
    (8, 128, 1),
    (8, 128, 5),
    (32, 256, 1),
    (32, 64, 1),
    (32, 64, 2),
    (32, 32, 1),
    (32, 32, 3),
    (12, 40, 4),
]
IDS = [f"{n}on{side}-seed{seed}" for n, side, seed in CASES]


@cache
def world_for(nations: int, side: int, seed: int, height: int | None = None) -> World:
    return mapgen.generate(RULES, nations=nations, width=side, height=height or side, seed=seed)


def component(world: World, start: int) -> set[int]:
    """The 8-connected land squares containing `start` (wrapping on the torus)."""
    seen = {start}
    stack = [start]
    while stack:
        sq = stack.pop()
        for nb in world.grid.neighbours(sq):
            if nb not in seen and world.terrain[nb] == LAND:
                seen.add(nb)
                stack.append(nb)
    return seen


def nearest_rival_distances(world: World) -> list[int]:
    """For each slot: torus distance from its first home city to the nearest other slot's."""
    firsts = [squares[0] for squares in world.slots]
    return [
        min(world.grid.distance(a, b) for j, b in enumerate(firsts) if j != i)
        for i, a in enumerate(firsts)
    ]


def water_fraction(world: World) -> float:
    return 1 - sum(world.terrain) / world.grid.size


def check_invariants(world: World, nations: int, *, ratio: float = MIN_DISTANCE_RATIO) -> None:
    """Everything a generated map promises; shared by the table-driven and property tests."""
    rules = world.rules
    grid = world.grid
    homes_per_slot = len(rules.start.cities)
    near_count = rules.start.neutral_cities_near_home

    # slots
    assert len(world.slots) == nations
    assert world.slot_owner == [None] * nations
    home_squares = [sq for squares in world.slots for sq in squares]
    assert all(len(squares) == homes_per_slot for squares in world.slots)
    assert len(set(home_squares)) == len(home_squares)

    # cities: on land, neutral, at least 2 apart (no city on a neighbour square of another)
    for sq, city in world.cities.items():
        assert city.sq == sq
        assert world.terrain[sq] == LAND
        assert city.owner is None
        assert city.designation == rules.capture.new_designation
        assert city.build is None
        assert not any(nb in world.cities for nb in grid.neighbours(sq)), grid.label(sq)
    assert all(sq in world.cities for sq in home_squares)

    # home islands: one per slot, equal sizes
    islands = [component(world, squares[0]) for squares in world.slots]
    for squares, island in zip(world.slots, islands, strict=True):
        assert all(sq in island for sq in squares)
    seen: set[int] = set()
    for island in islands:
        assert not island & seen, "two slots share a home island"
        seen |= island
    sizes = [len(island) for island in islands]
    assert max(sizes) <= (1 + ISLAND_SPREAD) * min(sizes) and min(sizes) >= (
        1 - ISLAND_SPREAD
    ) * max(sizes)
    assert min(sizes) >= 9

    # the first home city is inland whenever the island has room for it beyond a 3x3 block
    if min(sizes) > 9:
        assert all(not world.is_coastal(squares[0]) for squares in world.slots)

    # neutral cities near home: on the home island, coastal, close to the first home city
    homes = set(home_squares)
    for squares, island in zip(world.slots, islands, strict=True):
        near = [sq for sq in island if sq in world.cities and sq not in homes]
        assert len(near) == near_count
        for sq in near:
            assert world.is_coastal(sq)
            assert grid.distance(sq, squares[0]) <= NEAR_HOME_RADIUS

    # fairness of distances
    if nations > 1:
        distances = nearest_rival_distances(world)
        assert min(distances) / max(distances) >= ratio, distances

    # land and water
    water = water_fraction(world)
    assert mapgen.WATER_BAND[0] <= water <= mapgen.WATER_BAND[1], water


# --- the fairness table --------------------------------------------------------------------------


@pytest.mark.parametrize(("nations", "side", "seed"), CASES, ids=IDS)
def test_generated_map_is_fair(nations: int, side: int, seed: int) -> None:
    world = world_for(nations, side, seed)
    assert (world.width, world.height) == (side, side)
    check_invariants(world, nations)


@pytest.mark.parametrize(("nations", "side", "seed"), CASES, ids=IDS)
def test_neutral_land_beyond_the_homes(nations: int, side: int, seed: int) -> None:
    world = world_for(nations, side, seed)
    home_land = set()
    for squares in world.slots:
        home_land |= component(world, squares[0])
    beyond = [sq for sq, c in world.cities.items() if c.owner is None and sq not in home_land]
    other_land = sum(world.terrain) - len(home_land)
    assert other_land > 0
    # some even on the most crowded maps (as many as the water band leaves room for) ...
    assert len(beyond) >= max(1, min(nations // 4, other_land // 3))
    # ... and on roomy ones 5-7% of the neutral land is cities: many per nation
    assert len(beyond) >= 0.045 * other_land
    if side * side // nations >= 1000:
        assert other_land >= 2 * len(home_land)
        assert len(beyond) >= 5 * nations


def test_home_cities_inland_on_full_size_islands() -> None:
    world = world_for(8, 128, 1)
    for squares in world.slots:
        assert len(component(world, squares[0])) == mapgen.HOME_MAX
        assert all(not world.is_coastal(sq) for sq in squares)
        assert world.grid.distance(squares[0], squares[1]) >= 2


def test_home_islands_scale_down_on_crowded_maps() -> None:
    roomy = len(component(world_for(4, 64, 1), world_for(4, 64, 1).slots[0][0]))
    crowded = len(component(world_for(32, 64, 1), world_for(32, 64, 1).slots[0][0]))
    tight = len(component(world_for(32, 32, 1), world_for(32, 32, 1).slots[0][0]))
    assert roomy == mapgen.HOME_MAX
    assert tight == mapgen.HOME_MIN
    assert tight <= crowded < roomy


def test_rectangular_map() -> None:
    world = mapgen.generate(RULES, nations=6, width=96, height=48, seed=9)
    assert (world.width, world.height) == (96, 48)
    check_invariants(world, 6)


def test_classic_ruleset() -> None:
    world = mapgen.generate("classic", nations=4, width=64, height=64, seed=1)
    assert world.rules.name == "classic"
    check_invariants(world, 4)


@settings(
    max_examples=examples(8),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    nations=st.integers(min_value=2, max_value=32),
    side=st.integers(min_value=32, max_value=160),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_any_supported_combination(nations: int, side: int, seed: int) -> None:
    world = mapgen.generate(RULES, nations=nations, width=side, height=side, seed=seed)
    check_invariants(world, nations, ratio=0.65)


# --- sizes and refusals ------------------------------------------------------------------------


def test_default_size() -> None:
    assert mapgen.default_size(2) == (60, 60)
    assert mapgen.default_size(4) == (80, 80)
    assert mapgen.default_size(8) == (116, 116)
    assert mapgen.default_size(32) == (256, 256)
    sides = [mapgen.default_size(n)[0] for n in range(1, 40)]
    assert sides == sorted(sides)
    assert all(32 <= s <= 256 and s % 2 == 0 for s in sides)
    with pytest.raises(ValueError):
        mapgen.default_size(0)


def test_default_sizes_generate() -> None:
    for nations in (3, 6):
        width, height = mapgen.default_size(nations)
        check_invariants(
            mapgen.generate(RULES, nations=nations, width=width, height=height, seed=2), nations
        )


@pytest.mark.parametrize(
    ("nations", "width", "height", "words"),
    [
        (32, 20, 20, "do not fit"),
        (0, 64, 64, "at least one"),
        (2, 8, 64, "width"),
        (2, 64, 4000, "height"),
    ],
)
def test_impossible_maps_are_refused(nations: int, width: int, height: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        mapgen.generate(RULES, nations=nations, width=width, height=height, seed=1)


# --- determinism ---------------------------------------------------------------------------------


def test_same_arguments_same_world() -> None:
    a = mapgen.generate(RULES, nations=8, width=100, height=100, seed=42)
    b = mapgen.generate("standard", nations=8, width=100, height=100, seed=42)
    assert a.hash() == b.hash()
    assert a.terrain == b.terrain and a.slots == b.slots
    assert a.rng.state == 42  # the generator draws from its own stream, not the world's dice


def test_different_seeds_different_worlds() -> None:
    hashes = {
        mapgen.generate(RULES, nations=4, width=64, height=64, seed=s).hash() for s in range(4)
    }
    assert len(hashes) == 4


def test_length_days_passes_through() -> None:
    world = mapgen.generate(RULES, nations=2, width=32, height=32, seed=1, length_days=3)
    assert world.length_days == 3


def test_round_trip_keeps_slots() -> None:
    world = world_for(4, 64, 1)
    again = World.from_dict(world.to_dict())
    assert again.slots == world.slots and again.slot_owner == world.slot_owner
    assert again.hash() == world.hash()


# --- claiming slots ---------------------------------------------------------------------------


def fresh(nations: int = 4) -> World:
    world = mapgen.generate(RULES, nations=nations, width=64, height=64, seed=7)
    world.add_nation("red", "Red", "#f00")
    world.add_nation("blue", "Blue", "#00f")
    return world


def test_claim_slot_gives_cities_and_units() -> None:
    world = fresh()
    mapgen.claim_slot(world, 2, "red")
    nation = world.nations["red"]
    squares = world.slots[2]
    assert world.slot_owner == [None, None, "red", None]
    for sq, designation in zip(squares, RULES.start.cities, strict=True):
        city = world.cities[sq]
        assert city.owner == "red"
        assert city.designation == designation
        assert city.build == default_build(world, designation, nation.tech)
        assert city.build is not None
    assert len(world.cities_of("red")) == len(RULES.start.cities)

    cap = RULES.mobility.cap_multiple
    units = world.units_of("red")
    assert len(units) == sum(RULES.start.units.values()) + sum(RULES.start.second_units.values())
    for where, wanted in ((squares[0], RULES.start.units), (squares[1], RULES.start.second_units)):
        here = [u for u in units if u.sq == where]
        assert {t: sum(u.type == t for u in here) for t in wanted} == wanted
        assert len(here) == sum(wanted.values())
        for unit in here:
            ut = RULES.unit[unit.type]
            assert unit.mobility == ut.mobility * cap
            assert unit.hp == ut.hp
    # the other slots stay neutral
    for slot in (0, 1, 3):
        assert all(world.cities[sq].owner is None for sq in world.slots[slot])


def test_claim_slot_refusals() -> None:
    world = fresh()
    mapgen.claim_slot(world, 0, "red")
    with pytest.raises(ValueError, match="taken"):
        mapgen.claim_slot(world, 0, "blue")
    with pytest.raises(ValueError, match="already holds"):
        mapgen.claim_slot(world, 1, "red")
    with pytest.raises(ValueError, match="no slot"):
        mapgen.claim_slot(world, 4, "blue")
    with pytest.raises(ValueError, match="no slot"):
        mapgen.claim_slot(world, -1, "blue")
    with pytest.raises(ValueError, match="unknown nation"):
        mapgen.claim_slot(world, 1, "green")
    units_before = len(world.units)
    mapgen.claim_slot(world, 1, "blue")
    assert world.slot_owner[:2] == ["red", "blue"]
    assert len(world.units) == 2 * units_before


def test_claim_refuses_a_captured_home_city() -> None:
    world = fresh()
    world.cities[world.slots[3][1]].owner = "red"
    with pytest.raises(ValueError, match="no longer neutral"):
        mapgen.claim_slot(world, 3, "blue")
    assert world.slot_owner[3] is None and not world.units_of("blue")


def test_release_unclaimed_leaves_neutral_home_cities() -> None:
    world = fresh()
    mapgen.claim_slot(world, 1, "blue")
    before = world.hash()
    mapgen.release_unclaimed(world)
    assert world.hash() == before  # nothing to do: unclaimed home cities already are neutral
    for slot, squares in enumerate(world.slots):
        for sq in squares:
            city = world.cities[sq]
            if slot == 1:
                assert city.owner == "blue" and city.build is not None
            else:
                assert city.owner is None
                assert city.designation == RULES.capture.new_designation
                assert city.build is None
    # a stray build on an unclaimed home city is cleared
    world.cities[world.slots[0][0]].build = "infantry"
    mapgen.release_unclaimed(world)
    assert world.cities[world.slots[0][0]].build is None
    assert world.hash() == before


def test_slots_are_claimed_spread_out() -> None:
    """Slots are numbered in farthest-point order: each next slot is as far as possible from
    the slots before it, so a half-full game is still spread over the whole map."""
    world = world_for(8, 128, 1)
    firsts = [squares[0] for squares in world.slots]
    grid = world.grid

    def gap(sq: int, earlier: list[int]) -> int:
        return min(grid.distance(sq, e) for e in earlier)

    for k in range(1, len(firsts)):
        assert gap(firsts[k], firsts[:k]) == max(gap(sq, firsts[:k]) for sq in firsts[k:])
