"""The AI and two-part ICBMs (ruleset total-war): its tech centre builds the parts once at war,
it launches a ready pair at an enemy city, never when the hit would bring the ecological
collapse, never as a caretaker, and it sends no unit to stop in a wasteland."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.strategic import commands as cmd
from engine.strategic.ai import PROFILES, Memory, decide
from engine.strategic.ai.state import Plan
from engine.strategic.clock import advance
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.view import view_for
from engine.strategic.world import World

MAP = """
~~~~~~~~~~~~~~~~
~A.....C.....D.~
~..............~
~~~~~~~~~~~~~~~~
"""


def world_of(units: list[dict[str, Any]], **nations: dict[str, Any]) -> World:
    world, _ = build_world(
        {
            "ruleset": "total-war",
            "map": MAP,
            "nations": {"red": {"tech": 12, "cp": 600}, "blue": {}, **nations},
            "relations": [["red", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "tech"},
                "C": {"owner": "blue"},
                "D": {"owner": "blue"},
            },
            "units": units,
        }
    )
    for nation in world.nations:
        world.known_of(nation)[:] = np.asarray(world.terrain, dtype=np.uint8) + 1
    world.city_memory["red"] = {sq: [c.owner, c.designation] for sq, c in world.cities.items()}
    world.sight_index.settle()
    return world


PAIR = [
    {"id": 1, "owner": "red", "type": "missile_base", "at": "A"},
    {"id": 2, "owner": "red", "type": "explosive_warhead", "at": "A"},
]


def orders(world: World, style: str = "normal") -> list[cmd.Command]:
    return decide(view_for(world, "red"), Memory(), style).commands


ENGINEER = {"id": 9, "owner": "red", "type": "engineer", "at": "A"}  # it has its founder


def test_the_tech_centre_builds_a_missile_base_then_a_warhead_at_war() -> None:
    world = world_of([ENGINEER])
    builds = [c for c in orders(world) if isinstance(c, cmd.SetBuild)]
    assert builds == [cmd.SetBuild(city=(1, 1), unit="missile_base")]
    world = world_of([ENGINEER, PAIR[0]])
    builds = [c for c in orders(world) if isinstance(c, cmd.SetBuild)]
    assert builds == [cmd.SetBuild(city=(1, 1), unit="explosive_warhead")]


def test_a_ready_pair_is_launched_at_an_enemy_city_and_the_engine_accepts_it() -> None:
    world = world_of(PAIR)
    assert not [c for c in orders(world) if isinstance(c, cmd.Launch)]  # built this hour
    advance(world, world.rules.ticks_per_hour)
    launches = [c for c in orders(world) if isinstance(c, cmd.Launch)]
    assert launches == [cmd.Launch(unit=1, target=(7, 1))]
    world.rng.state = 0
    events = apply(world, "red", launches[0])
    assert [e for e in events if e.kind == "IcbmLaunched"]
    assert 1 not in world.units and 2 not in world.units


def test_no_launch_that_would_bring_the_collapse_nor_by_a_caretaker() -> None:
    world = world_of(PAIR)
    advance(world, world.rules.ticks_per_hour)
    waste = world.rules.wastelands
    assert waste is not None
    world.ecology = waste.collapse_at - waste.ecology_per_wasteland  # one more: the collapse
    decision = decide(view_for(world, "red"), Memory())
    assert not [c for c in decision.commands if isinstance(c, cmd.Launch)]
    assert any("ecological collapse" in n for n in decision.notes)
    world.ecology = 0
    assert not [c for c in orders(world, "caretaker") if isinstance(c, cmd.Launch)]


def test_no_unit_is_sent_to_stop_in_a_wasteland() -> None:
    world = world_of(PAIR + [{"id": 3, "owner": "red", "type": "infantry", "at": "6,1"}])
    advance(world, world.rules.ticks_per_hour)
    world.rng.state = 0
    apply(world, "red", cmd.Launch(unit=1, target=(7, 1)))
    wasteland = world.grid.index(7, 1)
    assert wasteland in world.wastelands
    view = view_for(world, "red")
    plan = Plan(view, Memory(), PROFILES["normal"], world.rules)
    infantry = view.unit(3)
    assert infantry is not None
    assert not plan.move(infantry, wasteland)
    assert plan.move(infantry, world.grid.index(8, 1))  # beyond it: across is fine


def test_spare_points_restore_a_recovering_city_up_to_its_old_level() -> None:
    world = world_of([], red={"tech": 12, "cp": 456})
    city = world.cities[world.grid.index(1, 1)]
    city.output, city.output_cap = 10, 60
    invest = [c for c in orders(world) if isinstance(c, cmd.Invest)]
    assert invest == [cmd.Invest(city=(1, 1), points=200)]  # 456 - the 256 it keeps
    apply(world, "red", invest[0])
    assert city.output == 35
    city.output = 60  # back to what it produced: nothing more to restore
    assert not [c for c in orders(world) if isinstance(c, cmd.Invest)]
