"""Defects a review of the fog and movement work found (session 5), each as the scenario that
showed it: walks that re-plan, ICBMs and cargo, attacks that end differently than ordered,
and what a bump or a shot-down attacker may reveal."""

from __future__ import annotations

from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.view import view_for
from tests.games.strategic.worlds import transport_by_a_hidden_submarine


def test_a_walk_that_meets_hidden_water_goes_round_it_and_does_not_swing_back(monkeypatch):
    """Red knows nothing of the map; a water wall at x=15 (y 4-16) stands between its
    infantry and the goal. Planning again as it meets the water, the infantry must remember
    what it found on the way (it once went back and forth in front of the wall until its
    mobility was spent)."""
    rows = ["".join("~" if x == 15 and 4 <= y <= 16 else "." for x in range(30)) for y in range(21)]
    world, _ = build_world(
        {
            "ruleset": "standard",
            "map": "\n".join(rows),
            "nations": {"red": {"cp": 500}},
            "units": [{"id": 1, "owner": "red", "type": "infantry", "at": "5,10", "mobility": 60}],
        }
    )
    trail: list[int] = []
    move = world.move_unit

    def recording(unit, sq):
        if unit.id == 1:
            trail.append(sq)
        move(unit, sq)

    monkeypatch.setattr(world, "move_unit", recording)
    events = apply(world, "red", cmd.Move(units=[1], to=(16, 10)))
    unit = world.units[1]
    assert world.grid.label(unit.sq) == "16,10"
    assert len(trail) == len(set(trail)), "the infantry walked a square twice"
    assert not any(isinstance(e, ev.MoveBlocked) for e in events)


def icbm_on_a_port(launch: bool = True):
    world, letters = build_world(
        {
            "ruleset": "classic",
            "map": "~~~~~~~~~~~~~~~~~~~~~~~~\n~A..........~~~~C~~~~~~~\n~...........~~~~~~~~~~~~\n~~~~~~~~~~~~~~~~~~~~~~~~",
            "nations": {"red": {"tech": 14, "cp": 100}, "blue": {"tech": 14}},
            "relations": [["red", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "tech"},
                "C": {"owner": "blue", "designation": "port"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "icbm_2", "at": "A"},
                {"id": 2, "owner": "blue", "type": "transport", "at": "C"},
                {"id": 3, "owner": "blue", "type": "infantry", "at": "C", "carried_by": 2},
                {"id": 4, "owner": "blue", "type": "carrier", "at": "C"},
                {"id": 5, "owner": "blue", "type": "fighter", "at": "C", "carried_by": 4},
            ],
        }
    )
    return world, letters["C"]


def test_an_icbm_kills_what_the_ships_in_a_port_carry():
    world, port = icbm_on_a_port()
    events = apply(world, "red", cmd.Launch(unit=1, target=world.grid.xy(port)))
    assert [u.id for u in world.units.values() if u.owner == "blue"] == []
    blue_news = [e for e in events if isinstance(e, ev.IcbmLaunched) and "blue" in e.to]
    assert blue_news and blue_news[0].destroyed == 4
    assert any(isinstance(e, ev.NationEliminated) and e.nation == "blue" for e in events)


def test_bumping_into_a_hidden_submarine_does_not_show_what_it_carries():
    world = transport_by_a_hidden_submarine(
        {"id": 3, "owner": "blue", "type": "icbm_1", "at": "5,2", "carried_by": 2}
    )
    events = apply(world, "red", cmd.Move(units=[1], to=(8, 2)))
    assert any(isinstance(e, ev.MoveBlocked) for e in events)
    seen = {u.id for u in view_for(world, "red").units if u.owner == "blue"}
    assert seen == {2}  # the submarine it bumped into, not the ICBM inside


def ghost_in_a_city(cp: int):
    world, letters = build_world(
        {
            "ruleset": "standard",
            "map": "............\n...B........\n............\n~~~~~~~~~~~~",
            "nations": {"red": {"cp": cp}, "blue": {}},
            "relations": [["red", "blue", "war"]],
            "cities": {"B": {"owner": "blue", "designation": "fort"}},
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "7,1", "mobility": 9},
                {"id": 2, "owner": "blue", "type": "infantry", "at": "B"},
            ],
        }
    )
    # red saw blue's infantry in its fort; it has gone since, unseen
    world.remember("red", world.units[2])
    world.remove_unit(world.units[2])
    return world, letters["B"]


def test_an_attack_on_units_gone_from_a_city_takes_it_at_the_price_of_a_capture():
    world, city = ghost_in_a_city(cp=500)
    costs = world.rules.command_points.costs
    events = apply(world, "red", cmd.Attack(units=[1], target=(3, 1)))
    assert any(isinstance(e, ev.CityCaptured) for e in events)
    assert world.cities[city].owner == "red"
    assert 500 - world.nations["red"].cp == costs.capture


def test_without_the_points_to_take_it_the_attack_on_an_emptied_city_is_called_off():
    world, city = ghost_in_a_city(cp=0)
    costs = world.rules.command_points.costs
    world.nations["red"].cp = costs.attack  # enough for the attack ordered, not the capture
    events = apply(world, "red", cmd.Attack(units=[1], target=(3, 1)))
    cancelled = [e for e in events if isinstance(e, ev.OrderCancelled)]
    assert cancelled and "command points" in cancelled[0].reason
    assert world.cities[city].owner == "blue"
    assert world.nations["red"].cp == 0


def test_an_attacker_shot_down_before_it_fires_does_not_reveal_a_hidden_defender():
    world, _ = build_world(
        {
            "ruleset": "standard",
            "map": "............\n...P........\n~~~~~~~~~~~~\n~~~~~~~~~~~~\n~~~~~~~~~~~~",
            "nations": {"red": {"cp": 500}, "blue": {}},
            "relations": [["red", "blue", "war"]],
            "cities": {"P": {"owner": "blue", "designation": "port"}},
            "units": [
                {
                    "id": 1,
                    "owner": "red",
                    "type": "battleship",
                    "at": "7,3",
                    "hp": 1,
                    "mobility": 20,
                },
                {"id": 2, "owner": "blue", "type": "transport", "at": "P"},
                {"id": 3, "owner": "blue", "type": "submarine", "at": "P"},
            ],
        }
    )
    world.remember("red", world.units[2])  # red attacks the transport it remembers there
    world.remove_unit(world.units[2])
    events = apply(world, "red", cmd.Attack(units=[1], target=(3, 1)))
    assert 1 not in world.units  # the port's cannons sank it
    told_red = [e for e in events if "red" in e.to]
    assert not any(isinstance(e, ev.SubSighted | ev.Attacked) for e in told_red), told_red
    assert 3 not in {u.id for u in view_for(world, "red").units}


def test_an_attack_on_a_remembered_city_devastated_since_is_called_off_not_a_crash():
    world, letters = build_world(
        {
            "ruleset": "standard",
            "map": "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n~A.........................C.~\n~.........................D..~\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
            "nations": {
                "red": {"tech": 14, "cp": 500},
                "blue": {"tech": 14, "cp": 500},
                "green": {"tech": 14, "cp": 500},
            },
            "relations": [["red", "blue", "war"], ["green", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "fort"},
                "C": {"owner": "blue", "designation": "fort"},
                "D": {"owner": "green", "designation": "tech"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "23,1", "mobility": 9},
                {"id": 2, "owner": "green", "type": "icbm_1", "at": "D"},
            ],
            "explored": ["red"],
        }
    )
    city = letters["C"]
    world.city_memory.setdefault("red", {})[city] = ["blue", "fort"]  # red saw it once
    apply(world, "green", cmd.Launch(unit=2, target=(27, 1)))
    assert city not in world.cities and world.city_memory["red"][city] == ["blue", "fort"]
    events = apply(world, "red", cmd.Attack(units=[1], target=(27, 1)))
    assert not any(isinstance(e, ev.CityCaptured) for e in events)  # and nothing raised
    assert world.units[1].sq != city  # nobody stands on the waste
