"""A* finds paths exactly as cheap as a plain Dijkstra search over the same moves."""

from __future__ import annotations

import heapq
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.strategic.systems import movement
from engine.strategic.systems.movement import (
    MoveContext,
    can_enter,
    find_path,
    may_enter,
    path_cost,
    step_cost,
)
from engine.strategic.world import LAND, WATER, City, World
from tests.scaled import examples


def dijkstra_cost(world: World, ctx: MoveContext, unit, goal: int) -> int | None:
    ut = world.rules.unit[unit.type]
    best = {unit.sq: 0}
    heap = [(0, unit.sq)]
    while heap:
        g, sq = heapq.heappop(heap)
        if sq == goal:
            return g
        if g > best[sq]:
            continue
        ng = g + step_cost(world, ctx, ut, sq)
        for nb in world.grid.neighbours(sq):
            if ng < best.get(nb, 1 << 30) and may_enter(world, ctx, unit, ut, nb):
                best[nb] = ng
                heapq.heappush(heap, (ng, nb))
    return None


@settings(max_examples=examples(250), deadline=None)
@given(
    st.integers(6, 30),
    st.integers(6, 30),
    st.data(),
    st.sampled_from(["infantry", "destroyer", "engineer", "fighter"]),
    st.sampled_from(["standard", "classic"]),
)
def test_astar_is_as_cheap_as_dijkstra(w, h, data, unit_type, ruleset):
    _check_against_dijkstra(w, h, data, unit_type, ruleset)


@settings(max_examples=examples(80), deadline=None)
@given(
    st.integers(6, 14),
    st.integers(6, 14),
    st.data(),
    st.sampled_from(["infantry", "destroyer", "engineer"]),
    st.integers(1, 30),
)
def test_a_search_that_floods_the_map_finds_the_same(w, h, data, unit_type, after):
    """A long search asks whether its goal is reachable at all, by one flood of the map
    (on big maps, after thousands of squares): the same paths, and None exactly when no path
    exists. Here it asks after a few squares, so small maps try it."""
    with mock.patch.object(movement, "_FLOOD_AFTER", after):
        _check_against_dijkstra(w, h, data, unit_type, "standard")


def _check_against_dijkstra(w, h, data, unit_type, ruleset):
    world = World(ruleset, w, h, seed=1)
    world.started = True
    world.add_nation("red", "Red", "#f00")
    land = data.draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    for i, is_land in enumerate(land):
        world.terrain[i] = LAND if is_land else WATER
    cities = data.draw(st.lists(st.integers(0, w * h - 1), max_size=3, unique=True))
    for sq in cities:
        world.terrain[sq] = LAND
        world.cities[sq] = City(
            sq=sq, owner="red", designation=data.draw(st.sampled_from(["fort", "port"]))
        )
    start = data.draw(st.integers(0, w * h - 1))
    goal = data.draw(st.integers(0, w * h - 1))
    unit = world.add_unit(unit_type, "red", start, mobility=0)
    ctx = MoveContext(world, "red")
    ut = world.rules.unit[unit_type]
    if not can_enter(world, ctx, unit, ut, start) or start == goal:
        return
    want = dijkstra_cost(world, ctx, unit, goal)
    path = find_path(world, ctx, unit, goal)
    if want is None:
        assert path is None
    else:
        assert path is not None and path[-1] == goal
        assert all(
            world.grid.distance(a, b) == 1 for a, b in zip([start, *path], path, strict=False)
        )
        assert path_cost(world, ctx, unit, path) == want
