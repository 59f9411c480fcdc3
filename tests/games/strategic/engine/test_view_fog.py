"""The fog of war as a property: on random worlds with random histories, a nation's view holds
exactly what its sight allows, and changing anything it cannot see leaves its view unchanged
(no hidden unit, city owner or build, and no other nation's tech or points leaks)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.strategic.clock import advance
from engine.strategic.view import view_for
from engine.strategic.world import LAND, WATER, City, World
from tests.scaled import examples

NATIONS = ["a", "b", "c", "d"]


@lru_cache(maxsize=4096)
def sampled(items: tuple) -> st.SearchStrategy:
    """`st.sampled_from(list(items))`, made once for each tuple of items: Hypothesis checks a
    new strategy and works out its label at its first draw, which costs more than the draw (a
    world drew from a few hundred new ones: a quarter of the property's time). The same
    strategy (of a list, as before: its label, and so the search, is the same), so the same
    examples. (The property's own draws are left as they were: CI's fixed examples are
    derived from the test function's source.)"""
    return st.sampled_from(list(items))


_units: dict[str, st.SearchStrategy] = {}  # ruleset -> sampled_from its mobile unit types


@st.composite
def worlds(draw) -> World:
    ruleset = draw(sampled(("standard", "classic")))
    w = draw(st.integers(8, 14))
    h = draw(st.integers(6, 10))
    size = w * h
    land_bits = draw(st.binary(min_size=size, max_size=size))
    terrain = bytearray(LAND if b & 1 else WATER for b in land_bits)
    world = World(ruleset, w, h, seed=draw(st.integers(0, 2**32)), terrain=terrain)
    rules = world.rules
    nations = NATIONS[: draw(st.integers(2, 4))]
    for n in nations:
        world.add_nation(n, n.upper(), "#808080")
    levels = rules.diplomacy.levels
    for n in nations:
        for o in nations:
            if n != o:
                world.set_relation(n, o, draw(sampled(tuple(levels))))
    land = [sq for sq in range(size) if terrain[sq] == LAND]
    designations = [c.name for c in rules.cities]
    owners = sampled((*nations, None))
    if land:
        for sq in draw(st.lists(sampled(tuple(land)), max_size=6, unique=True)):
            world.cities[sq] = City(
                sq, draw(owners), draw(sampled(tuple(designations))), name=f"c{sq}"
            )
        world.map_changed()
    mobile = [u for u in rules.units if u.unit_class.value in ("land", "sea", "air")]
    for _ in range(draw(st.integers(0, 14))):
        if ruleset not in _units:
            _units[ruleset] = st.sampled_from(mobile)
        ut = draw(_units[ruleset])
        allowed = (
            land
            if ut.unit_class.value == "land"
            else [sq for sq in range(size) if terrain[sq] == WATER]
            if ut.unit_class.value == "sea"
            else list(range(size))
        )
        if allowed:
            world.add_unit(ut.name, draw(sampled(tuple(nations))), draw(sampled(tuple(allowed))))
    world.started = True
    world.sight_index.settle()
    # a history: units wander (sight moves, memories form), time passes, reveals, satellites
    for _ in range(draw(st.integers(0, 10))):
        step = draw(sampled(("move", "move", "move", "tick", "reveal", "satellite")))
        ids = sorted(world.units)
        if step == "move" and ids:
            world.move_unit(world.units[draw(sampled(tuple(ids)))], draw(st.integers(0, size - 1)))
        elif step == "tick":
            advance(world, draw(st.integers(1, 6)))
        elif step == "reveal" and ids:
            world.reveal(draw(sampled(tuple(nations))), world.units[draw(sampled(tuple(ids)))])
        elif step == "satellite":
            world.satellites.append((draw(sampled(tuple(nations))), draw(st.integers(0, size - 1))))
            world.cities_changed()
        world.sight_index.settle()
    return world


def sources(world: World, nations: set[str]) -> list[tuple[int, int, int]]:
    """(square, sight radius, sub-sight radius) of every sight source of these nations, worked
    out from the rules directly (not from the sight index)."""
    out = []
    sat = max((u.satellite_sight or 0 for u in world.rules.units), default=0)
    for u in world.units.values():
        if u.owner in nations:
            ut = world.rules.unit[u.type]
            r = ut.sight if ut.sight is not None else world.radar_radius(u.owner)
            out.append((u.sq, r, ut.sees_subs))
    for c in world.cities.values():
        if c.owner in nations:
            ct = world.rules.city[c.designation]
            out.append((c.sq, ct.sight_at(world.nations[c.owner].tech), 0))
    for owner, sq in world.satellites:
        if owner in nations:
            out.append((sq, sat, 0))
    return out


def covered(world: World, srcs, sq: int, *, sub: bool) -> bool:
    """Whether a source reaches the square (read from `coverage` of every square, worked out
    once for these sources on this map)."""
    key = (id(srcs), sub, world.width, world.height)
    known = _covers.get(key)
    if known is None or known[0] != srcs:  # (other sources under a reused id)
        if len(_covers) > 16:
            _covers.clear()
        known = _covers[key] = (list(srcs), coverage(world, srcs, sub=sub))
    return known[1][sq]


_covers: dict[tuple, tuple[list, list[bool]]] = {}


def coverage(world: World, srcs, *, sub: bool) -> list[bool]:
    """For every square, whether a source reaches it (Chebyshev distance, wrapping, straight
    from the sources' radii), all squares at once."""
    w, h = world.width, world.height
    xs, ys = np.arange(w * h) % w, np.arange(w * h) // w
    out = np.zeros(w * h, dtype=bool)
    for s, r, sr in srcs:
        if not (sr > 0 if sub else r >= 0):
            continue
        dx, dy = np.abs(xs - s % w), np.abs(ys - s // w)
        out |= np.maximum(np.minimum(dx, w - dx), np.minimum(dy, h - dy)) <= (sr if sub else r)
    return out.tolist()


def informants(world: World, nation: str) -> set[str]:
    """Nations whose sightings reach this one: those passing theirs on to it, with what their
    own allies show them."""
    out: set[str] = set()
    for n in world.nations:
        if nation in world.sight_sharers(n):
            out |= world.team(n)
    return out


@pytest.mark.slow
@settings(
    max_examples=examples(1000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(world=worlds(), data=st.data())
def test_view_holds_exactly_what_sight_allows_and_nothing_hidden_leaks(world: World, data) -> None:
    me = "a"
    view = view_for(world, me)
    before = view.to_dict()
    team = set(world.team(me))
    seers = team | informants(world, me)
    team_srcs = sources(world, team)
    seer_srcs = sources(world, seers)
    told = {me} | {n for n in world.nations if me in world.sight_sharers(n)}  # reveals reach these
    stealthy = {u.name for u in world.rules.units if u.stealth}

    def seen_now(u) -> bool:
        if u.owner in team:
            return True
        if any(world.reveals.get((n, u.id), -1) >= world.tick for n in told):
            return True
        if u.carried_by is not None:
            return False
        return covered(world, seer_srcs, u.sq, sub=u.type in stealthy)

    # sound and complete: every unit shown now is seen; every seen unit is shown
    shown = {u.id: u for u in view.units}
    for u in world.units.values():
        if u.owner == me:
            assert shown[u.id].seen == "own" and shown[u.id].mobility == u.mobility
        elif seen_now(u):
            assert u.id in shown and shown[u.id].seen == "now" and shown[u.id].sq == u.sq
        else:
            assert u.id not in shown or shown[u.id].seen == "memory"
    for uv in view.units:
        if uv.seen == "memory":
            entry = world.sightings[me][uv.id]
            assert (entry[1], entry[2], entry[3]) == (uv.sq, uv.type, uv.owner)
        if uv.owner != me:
            assert uv.mobility is None and uv.order is None and uv.fuel is None
    # squares in sight: exactly the team's coverage
    for sq in range(world.grid.size):
        assert bool(view.visible[sq]) == covered(world, team_srcs, sq, sub=False)
        if view.visible[sq]:
            assert view.terrain[sq] == world.terrain[sq] + 1
    for sq, cv in view.cities.items():
        if cv.seen == "now":
            assert view.visible[sq] and world.cities[sq].owner == cv.owner
        if cv.owner != me:
            assert cv.build is None and cv.progress is None and cv.next_build is None

    # non-interference: change what the nation cannot see; its view stays the same
    outsiders = sorted(set(world.nations) - seers)
    hidden_squares = [
        sq for sq in range(world.grid.size) if not covered(world, seer_srcs, sq, sub=False)
    ]
    for u in sorted(world.units.values(), key=lambda u: u.id):
        if u.owner not in outsiders or seen_now(u) or any((n, u.id) in world.reveals for n in told):
            continue
        if u.id not in world.units:
            continue
        action = data.draw(st.sampled_from(["keep", "remove", "move"]))
        if action == "remove":
            world.remove_unit(u)
        elif action == "move" and hidden_squares:
            world.move_unit(u, data.draw(st.sampled_from(hidden_squares)))
    if outsiders and hidden_squares:
        for _ in range(data.draw(st.integers(0, 2))):
            world.add_unit(
                "infantry",
                data.draw(st.sampled_from(outsiders)),
                data.draw(st.sampled_from(hidden_squares)),
            )
    for sq, city in world.cities.items():
        if not view.visible[sq] and (city.owner is None or city.owner in outsiders):
            old = city.owner
            city.owner = data.draw(st.sampled_from([None, *outsiders]))
            city.designation = data.draw(st.sampled_from([c.name for c in world.rules.cities]))
            city.build = data.draw(st.sampled_from([None, "infantry", "tank"]))
            world.cities_changed(old, city.owner)
    for n in outsiders:
        world.nations[n].tech = data.draw(st.floats(0, 20))
        world.nations[n].cp = data.draw(st.integers(0, 500))
    world.sight_index.settle()
    assert view_for(world, me).to_dict() == before
