"""Torus geometry and the supply dilation agree with a brute-force definition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.strategic.systems.supply import dilate
from engine.strategic.world.geometry import Grid, parse_coord
from tests.scaled import examples


def brute_distance(grid: Grid, a: int, b: int) -> int:
    (ax, ay), (bx, by) = grid.xy(a), grid.xy(b)
    dx = min((ax - bx) % grid.width, (bx - ax) % grid.width)
    dy = min((ay - by) % grid.height, (by - ay) % grid.height)
    return max(dx, dy)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(3, 40), st.integers(3, 40), st.data())
def test_distance_wraps_both_edges_and_is_symmetric(w, h, data):
    grid = Grid(w, h)
    a = data.draw(st.integers(0, grid.size - 1))
    b = data.draw(st.integers(0, grid.size - 1))
    assert grid.distance(a, b) == grid.distance(b, a) == brute_distance(grid, a, b)
    assert all(grid.distance(a, n) <= 1 for n in grid.neighbours(a))
    r = data.draw(st.integers(0, 6))
    assert sorted(grid.within(a, r)) == sorted(
        i for i in range(grid.size) if brute_distance(grid, a, i) <= r
    )


def test_corner_neighbours_wrap():
    grid = Grid(10, 8)
    assert sorted(grid.label(n) for n in grid.neighbours(grid.index(0, 0))) == sorted(
        ["9,7", "0,7", "1,7", "9,0", "1,0", "9,1", "0,1", "1,1"]
    )
    assert grid.distance(grid.index(0, 0), grid.index(9, 7)) == 1


def test_parse_coord():
    assert parse_coord("12,7") == (12, 7)
    assert parse_coord(" 3 4 ") == (3, 4)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(4, 30), st.integers(4, 30), st.integers(0, 8), st.data())
def test_dilation_matches_the_definition(w, h, r, data):
    grid = Grid(w, h)
    sources = data.draw(st.lists(st.integers(0, grid.size - 1), max_size=6))
    mask = np.zeros(grid.size, dtype=bool)
    mask[sources] = True
    got = dilate(mask.reshape(h, w), r).reshape(-1)
    want = [any(brute_distance(grid, s, i) <= r for s in sources) for i in range(grid.size)]
    assert got.tolist() == want


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(3, 40), st.integers(3, 40), st.integers(0, 8), st.data())
def test_windows_counted_at_once_equal_the_squares_within_reach(w, h, r, data):
    """`count_windows` (a table of windows on small maps, worked out on large ones) counts,
    for every square, the listed squares within `r` of it: `Grid.within`, each square once;
    `add_windows` adds the same counts to a grid."""
    from engine.strategic.world.windows import add_windows, count_windows, window

    grid = Grid(w, h)
    squares = data.draw(st.lists(st.integers(0, grid.size - 1), min_size=1, max_size=8))
    want = np.zeros(grid.size, dtype=np.int32)
    for sq in squares:
        want[grid.within(sq, r)] += 1
        assert sorted(window((h, w), sq, r).tolist()) == sorted(grid.within(sq, r))
    got = count_windows((h, w), squares, r)
    assert got.dtype == np.int32 and got.reshape(-1).tolist() == want.tolist()
    added = np.ones((h, w), dtype=np.int32)
    add_windows(added, squares, r)
    assert added.reshape(-1).tolist() == (want + 1).tolist()


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 40), st.sampled_from(["standard", "classic"]))
def test_sight_index_built_in_bulk_equals_one_unit_at_a_time(seed, ruleset):
    """Loading a world stamps all units at once; the grids must equal stamping them singly."""
    from engine.strategic.world import World
    from engine.strategic.world.rng import Rng

    world = World(ruleset, 17, 13, seed=seed)
    world.add_nation("red", "Red", "#f00")
    world.add_nation("blue", "Blue", "#00f")
    rng = Rng(seed)
    types = [u.name for u in world.rules.units if not u.structure]
    for _ in range(rng.randint(0, 25)):
        world.add_unit(
            rng.choice(types), rng.choice(["red", "blue"]), rng.randint(0, world.grid.size - 1)
        )
    loaded = World.from_dict(world.to_dict())
    for nation in ("red", "blue"):
        for sub in (False, True):
            table_a = world.sight_index.sub_counts if sub else world.sight_index.counts
            table_b = loaded.sight_index.sub_counts if sub else loaded.sight_index.counts
            a = table_a.get(nation)
            b = table_b.get(nation)
            a = a if a is not None else np.zeros((13, 17), dtype=np.int32)
            b = b if b is not None else np.zeros((13, 17), dtype=np.int32)
            assert (a == b).all()


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(3, 12), st.integers(3, 12), st.integers(0, 2**32 - 1), st.data())
def test_indexes_built_at_load_equal_those_kept_one_source_at_a_time(w, h, seed, data):
    """A world loaded builds its sight index (units, cities, satellites, radar) and its supply
    index at once (engine/strategic/world/windows.py); on small maps too, where windows wrap
    and take whole rows or columns, both equal the indexes the world kept as it went."""
    from engine.strategic.world import City, World

    ruleset = data.draw(st.sampled_from(["standard", "classic"]))
    world = World(ruleset, w, h, seed=seed)
    nations = ["red", "blue", "green"][: data.draw(st.integers(1, 3))]
    for n in nations:
        world.add_nation(n, n.title(), "#808080")
        world.nations[n].tech = data.draw(st.sampled_from([0.0, 6.0, 20.0]))
    designations = [c.name for c in world.rules.cities]
    for sq in data.draw(st.lists(st.integers(0, w * h - 1), max_size=4, unique=True)):
        owner = data.draw(st.sampled_from([*nations, None]))
        world.cities[sq] = City(sq, owner, data.draw(st.sampled_from(designations)))
    world.map_changed()
    world.cities_changed()
    world.started = True
    types = [u.name for u in world.rules.units if not u.structure]
    for _ in range(data.draw(st.integers(0, 12))):
        unit = world.add_unit(
            data.draw(st.sampled_from(types)),
            data.draw(st.sampled_from(nations)),
            data.draw(st.integers(0, w * h - 1)),
        )
        if data.draw(st.booleans()):
            unit.ammo = 0
            world.unit_changed(unit)
    for _ in range(data.draw(st.integers(0, 2))):
        world.satellites.append(
            (data.draw(st.sampled_from(nations)), data.draw(st.integers(0, w * h - 1)))
        )
    world.cities_changed()
    world.sight_index.settle()
    loaded = World.from_dict(world.to_dict())
    kept, built = world.sight_index, loaded.sight_index
    assert built.stamped == kept.stamped
    assert set(built.static_keys) == set(kept.static_keys)
    none = np.zeros((h, w), dtype=np.int32)  # (a grid never stamped, or stamped and emptied)
    for sub in (False, True):
        was, now = (index.sub_counts if sub else index.counts for index in (kept, built))
        for n in {*was, *now}:
            grid = now.get(n, none)
            assert grid.dtype == np.int32 and np.array_equal(was.get(n, none), grid)
    assert loaded.supply_index.stamped == world.supply_index.stamped
    supplied_was, supplied_now = world.supply_index.counts, loaded.supply_index.counts
    for key in {*supplied_was, *supplied_now}:
        grid = supplied_now.get(key, none)
        assert grid.dtype == np.int32 and np.array_equal(supplied_was.get(key, none), grid)
    assert loaded.hash() == world.hash()


def supplied_by_definition(world, nation: str, unit_class) -> np.ndarray:
    """Squares within the supply radius of a source, straight from the rules: a city of the
    nation's team that supplies the class, or the nation's own supplier with ammunition."""
    from engine.strategic.rules.models import UnitClass

    rules = world.rules
    sea = unit_class == UnitClass.SEA
    team = world.team(nation)
    sources = [
        c.sq
        for c in world.cities.values()
        if c.owner in team
        and (
            rules.city[c.designation].supplies_sea
            if sea
            else rules.city[c.designation].supplies_land
        )
    ] + [
        u.sq
        for u in world.units.values()
        if u.owner == nation
        and u.ammo >= 1
        and (rules.unit[u.type].supplies_sea if sea else rules.unit[u.type].supplies_land)
    ]
    out = np.zeros(world.grid.size, dtype=bool)
    for sq in range(world.grid.size):
        out[sq] = any(world.grid.distance(sq, s) <= rules.supply.radius for s in sources)
    return out


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["standard", "classic"]), st.data())
def test_supply_kept_up_as_suppliers_move_spend_and_die_equals_the_definition(seed, ruleset, data):
    """The supply grids follow supplier units as they move, run out of ammunition, are
    refilled and die (kept incrementally, engine/strategic/world/supplyindex.py), and always equal the rule."""
    from engine.strategic.rules.models import UnitClass
    from engine.strategic.systems.movement import MoveContext
    from engine.strategic.systems.supply import SupplyMap
    from engine.strategic.world import LAND, WATER, City, World

    w, h = data.draw(st.integers(8, 24)), data.draw(st.integers(8, 24))
    world = World(ruleset, w, h, seed=seed)
    for sq in range(w * h):
        world.terrain[sq] = LAND if data.draw(st.booleans()) else WATER
    for n in ("red", "blue"):
        world.add_nation(n, n.title(), "#808080")
    world.started = True
    for sq in data.draw(st.lists(st.integers(0, w * h - 1), max_size=3, unique=True)):
        world.cities[sq] = City(sq, data.draw(st.sampled_from(["red", "blue"])), "port")
    world.map_changed()
    suppliers = ["engineer", "transport", "supply_ship"]
    for _ in range(data.draw(st.integers(1, 6))):
        world.add_unit(
            data.draw(st.sampled_from(suppliers)),
            data.draw(st.sampled_from(["red", "blue"])),
            data.draw(st.integers(0, w * h - 1)),
        )
    for _ in range(data.draw(st.integers(1, 12))):
        if not world.units:
            break
        unit = world.units[data.draw(st.sampled_from(sorted(world.units)))]
        action = data.draw(st.sampled_from(["move", "move", "spend", "refill", "die"]))
        if action == "move":
            world.move_unit(unit, data.draw(st.integers(0, w * h - 1)))
        elif action == "spend":
            unit.ammo = 0
            world.unit_changed(unit)
        elif action == "refill":
            unit.ammo = world.rules.unit[unit.type].ammo or 1
            world.unit_changed(unit)
        else:
            world.remove_unit(unit)
        for nation in ("red", "blue"):
            for cls in (UnitClass.LAND, UnitClass.SEA):
                want = supplied_by_definition(world, nation, cls)
                squares = [data.draw(st.integers(0, w * h - 1)) for _ in range(3)]
                fresh = SupplyMap(world, nation)
                # square by square (as a step's cost asks), then the whole grid (as planning)
                assert [fresh.square_supplied(cls, sq) for sq in squares] == [
                    bool(want[sq]) for sq in squares
                ]
                assert np.array_equal(MoveContext(world, nation).supply.grid(cls), want)


def test_supply_and_city_sight_follow_every_city_order() -> None:
    """The cached supply grids and the cities' sight after a city order equal those worked out
    afresh: a designation change (by /designate or by a build the designation follows)
    invalidates them, and a build that keeps the designation needs not."""
    from engine.strategic import commands as cmd
    from engine.strategic.orders import apply
    from engine.strategic.rules import UnitClass
    from engine.strategic.systems.supply import SupplyMap
    from engine.strategic.world.sightindex import SightIndex
    from tests.games.strategic.worlds import strip_world

    world = strip_world()
    world.nations["red"].cp = 100
    orders = [
        cmd.Designate(city=(1, 1), designation="port"),  # the fort becomes a port
        cmd.SetBuild(city=(1, 1), unit="patrol_boat"),  # a port's build: it stays a port
        cmd.SetBuild(city=(1, 1), unit="infantry"),  # a fort's build: the city is a fort again
        cmd.Designate(city=(1, 1), designation="tech"),
        cmd.SetBuild(city=(3, 3), unit="supply_ship"),
        cmd.SetBuild(city=(3, 3), unit="zeppelin"),  # the port becomes a tech centre
    ]
    for order in orders:
        for cls in (UnitClass.LAND, UnitClass.SEA):  # cached before the order
            SupplyMap(world, "red").grid(cls)
        apply(world, "red", order)
        cached = {cls: SupplyMap(world, "red").grid(cls).copy() for cls in UnitClass}
        world.supply_cache.clear()
        assert all(
            np.array_equal(cached[cls], SupplyMap(world, "red").grid(cls)) for cls in UnitClass
        ), order
        fresh = SightIndex(world)
        fresh.settle_static()
        assert all(
            np.array_equal(world.sight_index.counts[n], fresh.counts[n]) for n in fresh.counts
        )
