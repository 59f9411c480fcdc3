"""The AI's tactics on small hand-made maps: each test sets up a situation a player would
recognise and checks what the AI orders, and that the engine accepts it."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.strategic import commands as cmd
from engine.strategic.ai import Memory, decide
from engine.strategic.ai.brain import EVERY_HOURS
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.view import view_for
from engine.strategic.world import World


def world_of(spec: dict[str, Any], *, known_by: tuple[str, ...] = ()) -> World:
    world, _ = build_world({"ruleset": "standard", **spec})
    for nation in known_by:  # as if it had explored the whole map
        world.known_of(nation)[:] = np.asarray(world.terrain, dtype=np.uint8) + 1
    world.sight_index.settle()
    return world


def orders(world: World, nation: str, style: str = "normal", memory: Memory | None = None):
    return decide(view_for(world, nation), memory or Memory(), style).commands


OPEN_LAND = "\n".join(
    ["~~~~~~~~~~~~~~~~", "~..............~", "~.A............~"]
    + ["~..............~"] * 4
    + ["~~~~~~~~~~~~~~~~"]
)


def home_with_engineer(at: str) -> dict[str, Any]:
    """Open land, a fort at 2,2 with its garrison, an engineer with the mobility to found."""
    return {
        "map": OPEN_LAND,
        "nations": {"red": {"cp": 600}},
        "cities": {"A": {"owner": "red", "designation": "fort"}},
        "units": [
            {"id": 1, "owner": "red", "type": "engineer", "at": at, "mobility": 9},
            {"id": 2, "owner": "red", "type": "infantry", "at": "A"},
        ],
    }


def test_an_engineer_founds_a_city_on_open_land_near_home() -> None:
    spec = home_with_engineer("6,3")
    world = world_of(spec, known_by=("red",))
    found = [c for c in orders(world, "red") if isinstance(c, cmd.BuildCity)]
    assert found == [cmd.BuildCity(unit=1)]
    assert [e.kind for e in apply(world, "red", found[0])] == ["CityFounded", "PointsSpent"]
    assert world.cities[world.grid.index(6, 3)].owner == "red"
    # the naive expander never founds cities
    naive = world_of(spec, known_by=("red",))
    assert not [c for c in orders(naive, "red", "expand") if isinstance(c, cmd.BuildCity)]


def test_an_engineer_walks_to_open_land_first_when_it_stands_too_close_to_a_city() -> None:
    world = world_of(home_with_engineer("3,2"), known_by=("red",))
    mine = orders(world, "red")
    assert not [c for c in mine if isinstance(c, cmd.BuildCity)]
    (move,) = [c for c in mine if isinstance(c, cmd.Move) and c.units == [1]]
    x, y = move.to
    assert max(abs(x - 2), abs(y - 2)) >= 3  # nothing within two squares of a city
    apply(world, "red", move)


SIEGE = "\n".join(["~~~~~~~~~~~~", "~A........~~", "~.......B..~", "~..........~", "~~~~~~~~~~~~"])


def siege(attackers: int) -> World:
    around = ["7,1", "7,2", "7,3", "8,3"]
    units = [
        {"id": 10 + i, "owner": "red", "type": "infantry", "at": around[i]}
        for i in range(attackers)
    ]
    return world_of(
        {
            "map": SIEGE,
            "nations": {"red": {"cp": 100}, "blue": {}},
            "relations": [["red", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "fort"},
                "B": {"owner": "blue", "designation": "fort"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "A"},
                {"id": 2, "owner": "blue", "type": "infantry", "at": "B"},
                *units,
            ],
        },
        known_by=("red", "blue"),
    )


def test_units_around_a_garrisoned_city_attack_it_together_in_one_command() -> None:
    world = siege(4)
    attacks = [c for c in orders(world, "red") if isinstance(c, cmd.Attack)]
    assert len(attacks) == 1
    assert attacks[0].target == (8, 2) and sorted(attacks[0].units) == [10, 11, 12, 13]
    events = apply(world, "red", attacks[0])
    assert sum(1 for e in events if e.kind == "Attacked") >= 1


def test_too_few_units_wait_instead_of_wasting_themselves_on_a_fort() -> None:
    world = siege(2)
    assert not [c for c in orders(world, "red") if isinstance(c, cmd.Attack)]


BEACH = "\n".join(["~~~~~~~~~~~~", "~A...~~~~N.~", "~....~~~~..~", "~~~~~~~~~~~~"])


def test_a_transport_takes_idle_units_off_a_beach_and_sails_for_an_overseas_city() -> None:
    world = world_of(
        {
            "map": BEACH,
            "nations": {"red": {"cp": 100}},
            "cities": {"A": {"owner": "red", "designation": "fort"}},
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "A"},
                {"id": 2, "owner": "red", "type": "infantry", "at": "4,1"},
                {"id": 3, "owner": "red", "type": "transport", "at": "5,1"},
                {"id": 4, "owner": "red", "type": "zeppelin", "at": "8,2"},  # sees the city
            ],
        },
        known_by=("red",),
    )
    memory = Memory()
    mine = orders(world, "red", memory=memory)
    board = [c for c in mine if isinstance(c, cmd.Move) and c.units == [2]]
    assert board == [cmd.Move(units=[2], to=(5, 1))]
    for c in mine:
        apply(world, "red", c)
    assert world.units[2].carried_by == 3
    world.tick += EVERY_HOURS["normal"] * world.ticks_per_hour  # its next decision
    sail = [
        c for c in orders(world, "red", memory=memory) if isinstance(c, cmd.Move) and c.units == [3]
    ]
    assert len(sail) == 1
    x, y = sail[0].to
    assert max(abs(x - 9), abs(y - 1)) <= 2  # a landing next to the neutral city
    apply(world, "red", sail[0])


def ahead_or_behind(red_cities: int, blue_cities: int) -> World:
    row_red = "".join("ACEG"[:red_cities]).ljust(8, ".")
    row_blue = "".join("BDFH"[:blue_cities]).ljust(8, ".")
    spec = {
        "map": "\n".join(
            ["~" * 12, "~." + row_red + ".~", "~" * 12, "~." + row_blue + ".~", "~" * 12]
        ),
        "nations": {"red": {"cp": 100}, "blue": {}},
        "cities": {
            **{c: {"owner": "red", "designation": "fort"} for c in "ACEG"[:red_cities]},
            **{c: {"owner": "blue", "designation": "fort"} for c in "BDFH"[:blue_cities]},
        },
        "units": [{"id": 1, "owner": "red", "type": "zeppelin", "at": "5,3"}],  # sees blue
        "start_tick": 5 * 96,
    }
    return world_of(spec, known_by=("red",))


def relations(commands: list[cmd.Command]) -> list[cmd.SetRelation]:
    return [c for c in commands if isinstance(c, cmd.SetRelation)]


def test_an_ai_behind_prepares_war_on_the_weakest_and_declares_within_half_a_day() -> None:
    world = ahead_or_behind(2, 4)
    memory = Memory()
    assert relations(orders(world, "red", memory=memory)) == []
    assert memory.target == "blue"
    world.tick += world.rules.ticks_per_day // 2
    assert relations(orders(world, "red", memory=memory)) == [
        cmd.SetRelation(other="blue", level="war")
    ]


def test_an_ai_ahead_of_everyone_it_knows_keeps_the_peace() -> None:
    world = ahead_or_behind(4, 2)
    memory = Memory()
    for _ in range(3):
        assert relations(orders(world, "red", memory=memory)) == []
        world.tick += world.rules.ticks_per_day // 2


def test_an_easy_ai_gives_orders_only_every_third_hour_and_founds_no_city() -> None:
    world = world_of(home_with_engineer("6,3"), known_by=("red",))
    acted = []
    memory = Memory()
    for hour in range(6):
        world.tick = hour * world.ticks_per_hour
        mine = orders(world, "red", "easy", memory)
        acted.append(bool(mine))
        assert not [c for c in mine if isinstance(c, cmd.BuildCity)]
    assert acted == [True, False, False, True, False, False]


def test_a_normal_ai_gives_orders_every_second_hour_and_rests_between() -> None:
    world = world_of(home_with_engineer("6,3"), known_by=("red",))
    acted = []
    memory = Memory()
    for hour in range(5):
        world.tick = hour * world.ticks_per_hour
        acted.append(bool(orders(world, "red", "normal", memory)))
    assert acted == [True, False, True, False, True]
    # a decision missed (the game ran on meanwhile) is made at the next chance
    world.tick = 9 * world.ticks_per_hour
    assert orders(world, "red", "normal", memory)


FRONT = "\n".join(["~~~~~~~~~~~~~~", "~A..........B~", "~............~", "~~~~~~~~~~~~~~"])


def front(relation: str = "war") -> World:
    """Red's fort at 1,1 (its garrison whole: two near an enemy city; building infantry) and Blue's city at 12,1 on
    the same island, in sight of Red's infantry at 11,2."""
    return world_of(
        {
            "map": FRONT,
            "nations": {"red": {"cp": 600}, "blue": {}},
            "relations": [["red", "blue", relation]],
            "cities": {
                "A": {"owner": "red", "designation": "fort", "build": "infantry"},
                "B": {"owner": "blue", "designation": "fort"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "A"},
                {"id": 4, "owner": "red", "type": "infantry", "at": "A"},
                {"id": 2, "owner": "blue", "type": "infantry", "at": "B"},
                {"id": 3, "owner": "red", "type": "infantry", "at": "11,2", "mobility": 0},
            ],
        },
        known_by=("red",),
    )


def test_at_war_a_city_sends_what_it_builds_to_the_front() -> None:
    world = front()
    mine = orders(world, "red")
    (waypoint,) = [c for c in mine if isinstance(c, cmd.SetWaypoint)]
    assert waypoint.city == (1, 1)
    assert waypoint.to is not None and max(abs(waypoint.to[0] - 12), abs(waypoint.to[1] - 1)) == 1
    for command in mine:
        apply(world, "red", command)
    assert world.cities[world.grid.index(1, 1)].waypoint == world.grid.index(*waypoint.to)
    # decided again: the waypoint stands (no order spent on it twice)
    assert not [c for c in orders(world, "red") if isinstance(c, cmd.SetWaypoint)]
    # at peace, nothing is sent; and the caretaker, who starts nothing, never sends
    assert not [c for c in orders(front("neutral"), "red") if isinstance(c, cmd.SetWaypoint)]
    assert not [c for c in orders(front(), "red", "caretaker") if isinstance(c, cmd.SetWaypoint)]
