"""Combat statistics and invariants over many attacks."""

from __future__ import annotations

import statistics
from typing import Any

from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world

DUEL: dict[str, Any] = {  # a scenario spec, as build_world takes it
    "ruleset": "classic",
    "map": "~~~~~~\n~~~~~~\n~~~~~~",
    "nations": {"red": {}, "blue": {}},
    "relations": [["red", "blue", "war"]],
    "units": [
        {"id": 1, "owner": "red", "type": "destroyer", "at": "2,1", "mobility": 24},
        {"id": 2, "owner": "blue", "type": "battleship", "at": "3,1", "ammo": 0},
    ],
}


def test_a_thousand_attacks_stay_between_half_and_full_attack():
    damages = []
    for seed in range(1000):
        world, _ = build_world({**DUEL, "seed": seed})
        events = apply(world, "red", cmd.Attack(units=[1], target=(3, 1)))
        hit = next(e for e in events if isinstance(e, ev.Attacked))
        damages.append(hit.damage)
        assert world.units[2].hp == 40 - hit.damage
    assert min(damages) == 3 and max(damages) == 5  # destroyer attack 5: from 2.5 (3) to 5
    assert abs(statistics.mean(damages) - 4.0) < 0.15
    assert {3, 4, 5} == set(damages)


def test_counter_attacks_cost_ammo_but_not_mobility():
    spec = {**DUEL, "units": [dict(DUEL["units"][0]), {**DUEL["units"][1], "ammo": 4}]}
    world, _ = build_world({**spec, "seed": 1})
    apply(world, "red", cmd.Attack(units=[1], target=(3, 1)))
    battleship = world.units[2]
    assert battleship.ammo == 3  # out of supply: no refill
    assert battleship.mobility == 6  # a new unit's mobility, untouched
    assert world.units[1].hp < 14  # it fired back
