"""The AI in ruleset total-war (seed 002's battles in rounds): it sends the units effective
against a square's defenders first, and keeps out of battles its units are weak in."""

from __future__ import annotations

from typing import Any

from engine.strategic import commands as cmd
from engine.strategic.ai import Memory, decide
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.view import view_for

MAP = "\n".join(["~~~~~~~~~~~~", "~A........B~", "~..........~", "~~~~~~~~~~~~"])


def spec(ruleset: str, blue: str, red: list[tuple[int, str, str]]) -> dict[str, Any]:
    return {
        "ruleset": ruleset,
        "map": MAP,
        "nations": {"red": {"cp": 600}, "blue": {}},
        "relations": [["red", "blue", "war"]],
        "cities": {"A": {"owner": "red", "designation": "fort"}, "B": {"owner": "blue"}},
        "units": [
            *({"id": i, "owner": "red", "type": t, "at": at, "mobility": 3} for i, t, at in red),
            {"id": 9, "owner": "blue", "type": blue, "at": "5,1"},
        ],
    }


def attacks(ruleset: str, blue: str, red: list[tuple[int, str, str]]) -> list[cmd.Attack]:
    world, _ = build_world(spec(ruleset, blue, red))
    world.sight_index.settle()
    commands = decide(view_for(world, "red"), Memory(), "normal").commands
    found = [c for c in commands if isinstance(c, cmd.Attack) and c.target == (5, 1)]
    for c in found:
        apply(world, "red", c)  # the engine takes it
    return found


def test_the_unit_effective_against_the_defender_attacks_first() -> None:
    red = [(2, "infantry", "4,1"), (3, "tank", "4,2")]
    (battle,) = attacks("total-war", "infantry", red)
    assert battle.units == [3, 2]  # the tank is effective against infantry: it picks first
    (standard,) = attacks("standard", "infantry", red)
    assert standard.units == [2, 3]


def test_a_unit_weak_against_every_defender_stays_out_of_the_battle() -> None:
    red = [(2, "infantry", "4,1")]
    assert attacks("total-war", "tank", red) == []  # infantry is weak against tanks
    assert [c.units for c in attacks("standard", "tank", red)] == [[2]]


def test_a_fort_builds_the_newest_generation_the_tech_allows() -> None:
    world, _ = build_world(
        {
            "ruleset": "total-war",
            "map": MAP,
            "nations": {"red": {"tech": 12}},
            "cities": {"A": {"owner": "red", "designation": "fort", "build": None}},
        }
    )
    world.sight_index.settle()
    commands = decide(view_for(world, "red"), Memory(), "normal").commands
    builds = [c.unit for c in commands if isinstance(c, cmd.SetBuild)]
    assert builds and set(builds) <= {"mech_infantry", "battle_tank"}
