"""The star map as scenarios: what moving costs (the seed's distance table), the cheapest way
between places and what an engine's range reaches, the rule that no planet or asteroid system
lies next to a planet (a C tile put between), scouting, and the minerals a tile yields."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.caldera import hexes
from engine.caldera import tiles as tiles_mod
from engine.caldera.starmap import (
    MapError,
    StarMap,
    cheapest,
    costs_from,
    entering_cost,
    minerals,
    new_map,
    place_tile,
    reachable,
    scout,
    tile_minerals,
    unexplored,
)
from engine.caldera.tiles import Face, Kind, PlanetType, Size
from tests.games.caldera.engine.seed_map import DISTANCES, MINERALS, seed_rules

RULES = seed_rules()
TILES = tiles_mod.load()

ASTEROID = Face(kind=Kind.ASTEROIDS, asteroids=[Size.SMALL])
PLANET = Face(kind=Kind.PLANET, planet=PlanetType.COLD)
EMPTY = Face(kind=Kind.EMPTY)
HALF = Face(kind=Kind.HALF_NEBULA)
FULL = Face(kind=Kind.FULL_NEBULA)


def north_line(face: Face, layers: int = 7) -> StarMap:
    """Earth and a straight line of the same tile going north."""
    m = new_map()
    for n in range(1, layers + 1):
        place_tile(m, f"0,{-n}", face, zone=1)
    return m


def scripted(**cards: list[str]) -> Callable[[str], str]:
    """A deck draw that hands out the given cards of each set in order."""
    piles = {k: list(v) for k, v in cards.items()}

    def draw(tile_set: str) -> str:
        return piles[tile_set].pop(0)

    return draw


# --- moving ---------------------------------------------------------------------------------


def test_going_straight_out_from_earth_costs_the_seeds_from_earth_column() -> None:
    m = north_line(ASTEROID)
    costs = costs_from(m, RULES, "0,0")
    assert [costs[f"0,{-n}"] for n in range(1, 8)] == [1, 3, 6, 10, 15, 21, 28]
    assert [row[2] for row in DISTANCES] == [1, 3, 6, 10, 15, 21, 28]


@pytest.mark.parametrize(
    ("face", "column"),
    [(ASTEROID, 1), (HALF, 3), (FULL, 4), (EMPTY, 3)],
    ids=["plain", "half nebula", "full nebula", "empty to empty"],
)
def test_entering_a_tile_from_the_one_next_to_it_costs_its_layers_column(
    face: Face, column: int
) -> None:
    m = north_line(face)
    for row in DISTANCES[1:]:  # from layer 2 on (layer 1 is entered from Earth)
        n = row[0]
        assert entering_cost(m, RULES, f"0,{-(n - 1)}", f"0,{-n}") == row[column], n


def test_an_empty_tile_entered_from_earth_or_an_asteroid_is_plain_space() -> None:
    m = north_line(EMPTY, 1)
    assert entering_cost(m, RULES, "0,0", "0,-1") == 1
    place_tile(m, "1,-2", ASTEROID, zone=1)
    place_tile(m, "0,-2", EMPTY, zone=1)
    assert entering_cost(m, RULES, "1,-2", "0,-2") == 2  # from an asteroid: plain
    assert entering_cost(m, RULES, "0,-1", "0,-2") == 4  # from an empty tile: doubled


def test_asteroids_inside_a_nebula_cost_as_the_nebula() -> None:
    m = new_map()
    place_tile(m, "0,-1", TILES.card("a-small-hn").face(), zone=1)
    place_tile(m, "1,-1", TILES.card("a-huge-fn").face(), zone=1)
    assert entering_cost(m, RULES, "0,0", "0,-1") == 2
    assert entering_cost(m, RULES, "0,0", "1,-1") == 4


def test_beyond_the_tables_last_layer_costs_grow_by_the_layer() -> None:
    m = north_line(ASTEROID, 9)
    assert entering_cost(m, RULES, "0,-7", "0,-8") == 8
    assert costs_from(m, RULES, "0,0")["0,-9"] == 45  # 1 + 2 + ... + 9
    m = north_line(FULL, 9)
    assert entering_cost(m, RULES, "0,-8", "0,-9") == 36


def test_going_home_to_earth_costs_as_a_first_layer_tile() -> None:
    m = north_line(HALF, 1)
    assert entering_cost(m, RULES, "0,-1", "0,0") == 1


def test_the_cheapest_way_goes_round_a_full_nebula() -> None:
    m = new_map()
    place_tile(m, "0,-1", FULL, zone=1)  # through it: 4 + 2 = 6
    place_tile(m, "1,-1", ASTEROID, zone=1)  # round it: 1 + 2 + 2 = 5
    place_tile(m, "1,-2", ASTEROID, zone=1)
    place_tile(m, "0,-2", ASTEROID, zone=1)
    assert cheapest(m, RULES, "0,0", "0,-2") == 5
    # an engine of 4 reaches the nebula but not the tile beyond it
    reach = reachable(m, RULES, "0,0", 4)
    assert reach["0,-1"] == 4
    assert "0,-2" not in reach
    assert "0,-2" in reachable(m, RULES, "0,0", 5)


def test_unexplored_space_is_entered_at_its_layers_cost_but_never_crossed() -> None:
    m = new_map()
    place_tile(m, "0,-1", ASTEROID, zone=1)
    assert "0,-2" in unexplored(m)
    reach = reachable(m, RULES, "0,0", 100)
    assert reach["0,-2"] == 1 + 2  # Earth -> 0,-1 -> unexplored 0,-2
    assert reach["1,0"] == 1  # Earth's unexplored neighbours
    assert "0,-3" not in reach  # beyond unexplored space: unknown, out of reach
    assert set(reach) == {"0,-1", *unexplored(m)}


def test_an_engine_reaches_only_what_its_range_pays_for_in_the_seeds_order() -> None:
    m = new_map()
    assert reachable(m, RULES, "0,0", 0) == {}
    assert list(reachable(m, RULES, "0,0", 1)) == ["0,-1", "1,-1", "1,0", "0,1", "-1,1", "-1,0"]


def test_a_place_off_the_map_cannot_be_entered() -> None:
    m = new_map()
    assert entering_cost(m, RULES, "0,-1", "0,-2") is None  # not next to the map
    assert entering_cost(m, RULES, "0,0", "0,-2") is None  # not next to Earth
    assert cheapest(m, RULES, "0,0", "3,0") is None


# --- placing and scouting -------------------------------------------------------------------


def test_a_scouted_tile_lies_where_the_ship_scouted() -> None:
    m = new_map()
    done = scout(m, RULES, "0,-1", "B", scripted(B=["b-arid"]), TILES, zone=1, turn=3, by="ann")
    tile = m.tiles["0,-1"]
    assert (done.at, done.between, done.placed) == ("0,-1", None, ["0,-1"])
    assert (tile.kind, tile.planet, tile.zone, tile.turn, tile.scouted_by) == (
        "planet",
        "arid",
        1,
        3,
        "ann",
    )
    assert tile.card == "b-arid"


def test_asteroids_drawn_next_to_a_planet_go_one_step_further_with_a_c_tile_between() -> None:
    m = new_map()
    place_tile(m, "0,-1", PLANET, zone=1)
    draw = scripted(A=["a-small"], C=["c-half-nebula"])
    done = scout(m, RULES, "0,-2", "A", draw, TILES, zone=2)
    assert m.tiles["0,-2"].kind == Kind.HALF_NEBULA  # the C tile, where the ship scouted
    assert m.tiles["0,-3"].kind == Kind.ASTEROIDS  # straight on from the planet
    assert (done.at, done.between, done.placed) == ("0,-3", "c-half-nebula", ["0,-2", "0,-3"])
    assert m.tiles["0,-3"].zone == 2


def test_a_planet_drawn_next_to_asteroids_is_kept_apart_too() -> None:
    m = new_map()
    place_tile(m, "1,-1", ASTEROID, zone=1)
    done = scout(m, RULES, "1,0", "B", scripted(B=["b-cold"], C=["c-empty"]), TILES, zone=1)
    assert m.tiles["1,0"].kind == Kind.EMPTY
    assert done.at == "1,1"  # straight on from the asteroids at 1,-1
    assert m.tiles["1,1"].planet == "cold"


def test_when_straight_on_is_taken_the_tile_goes_to_the_first_free_place_clockwise() -> None:
    m = new_map()
    place_tile(m, "0,-1", PLANET, zone=1)
    place_tile(m, "0,-3", EMPTY, zone=1)  # straight on from the planet, through 0,-2
    done = scout(m, RULES, "0,-2", "A", scripted(A=["a-huge"], C=["c-empty"]), TILES, zone=1)
    # 0,-2's neighbours north, then clockwise: 0,-3 (taken), 1,-3 (free, two from the planet)
    assert done.at == "1,-3"
    assert m.tiles["1,-3"].asteroids == ["huge"]


def test_with_no_room_beyond_the_drawn_tile_is_left_for_the_discard() -> None:
    m = new_map()
    place_tile(m, "0,-1", PLANET, zone=1)
    for k in ("0,-3", "1,-3", "1,-2", "-1,-1", "-1,-2"):  # every other place round 0,-2
        place_tile(m, k, EMPTY, zone=1)
    done = scout(
        m, RULES, "0,-2", "B", scripted(B=["b-vulcan"], C=["c-full-nebula"]), TILES, zone=1
    )
    assert done.at is None and done.unplaced == "b-vulcan"
    assert m.tiles["0,-2"].kind == Kind.FULL_NEBULA
    assert not any(t.planet == "vulcan" for t in m.tiles.values())


def test_a_place_is_scouted_once_and_only_next_to_the_map() -> None:
    m = new_map()
    with pytest.raises(MapError, match="already scouted"):
        scout(m, RULES, "0,0", "C", scripted(C=["c-empty"]), TILES, zone=1)
    with pytest.raises(MapError, match="not next to the known map"):
        scout(m, RULES, "0,-3", "C", scripted(C=["c-empty"]), TILES, zone=1)
    place_tile(m, "0,-1", PLANET, zone=1)
    with pytest.raises(MapError, match="may not lie next to the planet at 0,-1"):
        place_tile(m, "1,-1", PLANET, zone=1)
    with pytest.raises(MapError, match="already holds a tile"):
        place_tile(m, "0,-1", EMPTY, zone=1)


def test_no_planet_or_asteroid_system_ever_lies_next_to_a_planet() -> None:
    rng = random.Random(32)
    m = new_map()
    decks = {s: TILES.deck(s) for s in "ABC"}
    for _ in range(120):
        place = unexplored(m)[rng.randrange(len(unexplored(m)))]
        scout(m, RULES, place, rng.choice("AABBC"), lambda s: rng.choice(decks[s]), TILES, zone=1)
    planets = [k for k, t in m.tiles.items() if t.kind == Kind.PLANET]
    assert len(planets) > 5
    for k in planets:
        for n in hexes.neighbours(hexes.parse(k)):
            near = m.tiles.get(hexes.key(n))
            assert near is None or near.kind not in (Kind.PLANET, Kind.ASTEROIDS), (k, n)


# --- mining ---------------------------------------------------------------------------------


def test_minerals_are_the_zones_row_times_the_players() -> None:
    small = TILES.card("a-small").face()
    belt = TILES.card("a-belt").face()
    planet = TILES.card("b-earthlike").face()
    assert minerals(small, 1, RULES, players=3) == 30
    assert minerals(belt, 2, RULES, players=2) == (20 + 40 + 80) * 2
    assert minerals(planet, 11, RULES, players=1) == 50000
    assert minerals(planet, 12, RULES, players=1) == 50000  # past the table: its last zone
    assert minerals(HALF, 5, RULES, players=4) == 0
    assert minerals(EMPTY, 5, RULES, players=4) == 0


def test_earth_yields_a_planets_minerals_of_zone_one() -> None:
    m = new_map()
    assert tile_minerals(m.tiles["0,0"], RULES, players=2) == 160


def test_a_tile_yields_the_minerals_of_the_zone_it_was_placed_in() -> None:
    m = new_map()
    place_tile(m, "0,-1", Face(kind=Kind.ASTEROIDS, asteroids=[Size.HUGE, Size.SMALL]), zone=4)
    assert tile_minerals(m.tiles["0,-1"], RULES, players=1) == 300 + 80


# --- the tables -----------------------------------------------------------------------------


def test_the_standard_ruleset_holds_the_seeds_distance_and_minerals_tables() -> None:
    assert [
        (d.layer, d.step, d.from_earth, d.half_nebula, d.full_nebula) for d in RULES.distances
    ] == DISTANCES
    assert [(m.zone, m.small, m.average, m.huge, m.planet) for m in RULES.minerals] == MINERALS


def test_a_map_stored_as_json_comes_back_the_same() -> None:
    m = new_map()
    scout(m, RULES, "0,-1", "A", scripted(A=["a-small-hn"]), TILES, zone=1, turn=2, by="ann")
    scout(m, RULES, "1,0", "B", scripted(B=["b-vulcan"]), TILES, zone=2, turn=2, by="js")
    back = StarMap.model_validate_json(m.model_dump_json())
    assert back == m
    assert back.tiles["0,-1"].nebula == Kind.HALF_NEBULA
    assert StarMap().tiles == new_map().tiles  # a new map: Earth alone
