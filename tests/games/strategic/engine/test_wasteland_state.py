"""Total-war's state (wastelands, the ecological meter, when ICBM parts last moved, a recovering
city's output) survives a snapshot and a reload exactly, and other rulesets' snapshots carry
none of it."""

from __future__ import annotations

from engine.strategic import commands as cmd
from engine.strategic.clock import advance
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.world import World

MAP = """
~~~~~~~~~~~~~~
~A.B...C.....~
~............~
~~~~~~~~~~~~~~
"""


def test_a_reload_keeps_wastelands_the_meter_and_parts_exactly() -> None:
    world, letters = build_world(
        {
            "ruleset": "total-war",
            "map": MAP,
            "nations": {"red": {"tech": 12, "cp": 300}, "blue": {}},
            "cities": {
                "A": {"owner": "red", "designation": "tech"},
                "B": {"owner": "red", "designation": "fort"},
                "C": {"owner": "blue"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "missile_base", "at": "A"},
                {"id": 2, "owner": "red", "type": "explosive_warhead", "at": "A"},
                {"id": 3, "owner": "red", "type": "missile_base", "at": "B"},
            ],
        }
    )
    advance(world, world.rules.ticks_per_hour)
    apply(world, "red", cmd.Launch(unit=1, target=(7, 1)))
    apply(world, "red", cmd.Move(units=[3], to=(2, 1)))
    world.cities[letters["B"]].output = 30
    data = world.to_dict()
    assert data["ecology"] == 10 and "wastelands" in data and "part_moved" in data
    again = World.from_dict(data)
    assert again.hash() == world.hash()
    assert again.wastelands == world.wastelands and again.ecology == 10
    assert again.part_moved == {3: world.tick}
    assert again.cities[letters["B"]].output == 30
    # and it plays on the same: the wasteland returns on both, at the same tick
    advance(world, 3 * world.rules.ticks_per_day)
    advance(again, 3 * again.rules.ticks_per_day)
    assert again.hash() == world.hash() and not world.wastelands


def test_other_rulesets_snapshots_hold_none_of_it() -> None:
    world, _ = build_world({"map": MAP, "nations": {"red": {}}, "cities": {"A": {"owner": "red"}}})
    advance(world, 4)
    data = world.to_dict()
    assert not {"wastelands", "ecology", "part_moved"} & set(data)
    assert all(len(row) <= 9 for row in data["cities"])


def test_a_wasteland_is_in_the_views_of_its_former_owner_and_who_sees_it_only() -> None:
    from engine.strategic.view import view_for

    world, letters = build_world(
        {
            "ruleset": "total-war",
            "map": MAP,
            "nations": {"red": {"tech": 12}, "blue": {}, "green": {}},
            "cities": {
                "A": {"owner": "red", "designation": "tech"},
                "B": {"owner": "green", "designation": "fort"},
                "C": {"owner": "blue"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "missile_base", "at": "A"},
                {"id": 2, "owner": "red", "type": "explosive_warhead", "at": "A"},
                {"id": 3, "owner": "red", "type": "zeppelin", "at": "9,2"},  # sees C
            ],
        }
    )
    advance(world, world.rules.ticks_per_hour)
    apply(world, "red", cmd.Launch(unit=1, target=(7, 1)))
    sq = letters["C"]
    assert sq in world.wastelands
    assert sq in view_for(world, "blue").wastelands  # its own former city
    assert sq in view_for(world, "red").wastelands  # its zeppelin sees it
    green = view_for(world, "green")  # sees 1 square round its fort: not the wasteland
    assert sq not in green.wastelands and not green.visible[sq]
    assert green.ecology == 10 and green.collapse_at == 60  # the meter is public
