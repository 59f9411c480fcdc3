"""Replies and reports that tell the truth (issue 29, item 6): what a capture cost the unit,
why a move was blocked (only what the nation may know), and when a war declared with notice
lets the nation attack."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.games.strategic import notices
from engine.errors import CommandError
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from tests.games.strategic.worlds import transport_by_a_hidden_submarine

NAMES = {"red": "Red", "blue": "Blue"}


def told(events: Sequence[ev.Event], nation: str = "red") -> list[str]:
    return [t for e in events if (t := notices.describe(e, nation, NAMES))]


def test_a_capture_says_the_hp_the_unit_lost_taking_the_city():
    world, letters = build_world(
        {
            "ruleset": "standard",
            "map": "~~~~~~~~~~\n~A....N..~\n~........~\n~~~~~~~~~~",
            "nations": {"red": {}},
            "cities": {"A": {"owner": "red", "designation": "fort"}},
            "units": [{"id": 1, "owner": "red", "type": "infantry", "at": "5,1", "mobility": 6}],
        }
    )
    before = world.units[1].hp
    loss = world.rules.capture.hp_loss
    lines = told(apply(world, "red", cmd.Attack(units=[1], target=(6, 1))))
    assert world.units[1].hp == before - loss
    assert any(
        "You captured 6,1" in line
        and f"unit 1 lost {loss} hp taking it ({before - loss} hp left)" in line
        for line in lines
    ), lines


def test_a_move_blocked_by_a_hidden_submarine_says_a_unit_is_there():
    world = transport_by_a_hidden_submarine()
    events = apply(world, "red", cmd.Move(units=[1], to=(8, 2)))
    blocked = [e for e in events if isinstance(e, ev.MoveBlocked)]
    assert blocked and blocked[0].cause == "unit"
    assert "blocked at 5,2** (another nation's unit is there)" in " ".join(told(blocked))


def test_a_block_the_nation_cannot_see_gives_no_cause():
    block = ev.MoveBlocked(tick=0, to=["red"], nation="red", unit=1, square="1,1", blocked_at="2,1")
    assert told([block]) == ["Your unit 1 stopped at 1,1: **blocked at 2,1**"]


def test_attacking_before_a_war_given_with_notice_starts_says_when_it_starts():
    world, _ = build_world(
        {
            "ruleset": "standard",
            "map": "~~~~~~~~~~\n~A......B~\n~........~\n~~~~~~~~~~",
            "nations": {"red": {"cp": 500}, "blue": {}},
            "relations": [["red", "blue", "non_aggression"]],
            "cities": {
                "A": {"owner": "red", "designation": "fort"},
                "B": {"owner": "blue", "designation": "fort"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "4,1", "mobility": 6},
                {"id": 2, "owner": "blue", "type": "infantry", "at": "5,1"},
            ],
        }
    )
    (declared,) = apply(world, "red", cmd.SetRelation(other="blue", level="war"))
    assert isinstance(declared, ev.RelationChanged) and declared.due_tick
    with pytest.raises(CommandError) as refused:
        apply(world, "red", cmd.Attack(units=[1], target=(5, 1)))
    assert str(refused.value) == (
        f"your war on Blue starts at {world.rules.clock(declared.due_tick)}; attack then"
    )
    assert "declare war first" not in str(refused.value)


def test_the_cause_of_a_block_is_what_the_nation_sees_on_the_square():
    from engine.strategic.systems.movement import MoveContext, block_cause

    world, letters = build_world(
        {
            "ruleset": "standard",
            "map": "~~~~~~~~~~~~~~~~~~~~\n~...B..............~\n~~~~~~~~~~~~~~~~~~~~",
            "nations": {"red": {}, "blue": {}},
            "cities": {"B": {"owner": "blue", "designation": "port"}},
            "units": [
                {"id": 1, "owner": "red", "type": "destroyer", "at": "3,0"},
                {"id": 2, "owner": "red", "type": "destroyer", "at": "4,0"},
                {"id": 3, "owner": "red", "type": "infantry", "at": "3,1"},
            ],
        }
    )
    ctx = MoveContext(world, "red")
    rules = world.rules
    ship, infantry = world.units[1], world.units[3]
    sq = world.grid.index
    cause = lambda unit, x, y: block_cause(  # noqa: E731
        world, ctx, unit, rules.unit[unit.type], sq(x, y), foreign=False
    )
    assert cause(ship, 4, 0) == "ship"  # its own destroyer fills the sea square
    assert cause(ship, 3, 1) == "terrain"  # land
    assert cause(infantry, 4, 1) == "city"  # Blue's port
    assert cause(ship, 15, 0) == ""  # a square red does not see: no cause given
    assert block_cause(world, ctx, ship, rules.unit["destroyer"], sq(15, 0), foreign=True) == "unit"


def _losing_a_city(infantry: int):
    return build_world(
        {
            "ruleset": "standard",
            "map": "~~~~~~~~~~~~\n~A...C..B..~\n~..........~\n~~~~~~~~~~~~",
            "nations": {"red": {}, "blue": {"cp": 500}},
            "relations": [["red", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "fort", "build": "infantry"},
                "C": {"owner": "red", "designation": "fort", "build": "infantry"},
                "B": {"owner": "blue", "designation": "fort"},
            },
            "units": [
                *(
                    {"id": 10 + i, "owner": "red", "type": "infantry", "at": "1,2"}
                    for i in range(infantry)
                ),
                {"id": 1, "owner": "blue", "type": "infantry", "at": "6,1", "mobility": 6},
            ],
        }
    )


def test_losing_a_city_warns_when_the_builds_under_way_will_be_skipped_for_power():
    from engine.strategic.systems.economy import power, power_limit

    rules = _losing_a_city(0)[0].rules
    cost = rules.unit["infantry"].cost_hours
    per_city = rules.power.limit_per_city
    # enough infantry that a new one fits two cities' limit but not one's
    n = next(
        n
        for n in range(1, 200)
        if per_city < power(_losing_a_city(n)[0], "red", cost) <= 2 * per_city
    )
    world, _ = _losing_a_city(n)
    assert power_limit(world, "red") == 2 * per_city
    events = apply(world, "blue", cmd.Attack(units=[1], target=(5, 1)))
    (dropped,) = [e for e in events if isinstance(e, ev.PowerLimitDropped)]
    assert dropped.to == ["red"] and dropped.cities == ["1,1"]
    line = notices.describe(dropped, "red", NAMES)
    assert line is not None and line.startswith(f"**Your power limit dropped to {per_city}**")
    assert "the build at 1,1 will be skipped for lack of power" in line
    # and it comes among the losses, after the city lost
    [message] = notices.digest(events, "red", NAMES)
    assert message.splitlines()[1:3] == [
        "**Blue captured your city 5,1**",
        line,
    ]
    # a nation with room to spare under the lower limit is not warned
    world, _ = _losing_a_city(0)
    events = apply(world, "blue", cmd.Attack(units=[1], target=(5, 1)))
    assert not any(isinstance(e, ev.PowerLimitDropped) for e in events)
