"""Small worlds for tests, built with the scenario format."""

from __future__ import annotations

from typing import Any

from engine.strategic.scenario import build_world
from engine.strategic.world import World

STRIP: dict[str, Any] = {  # a scenario spec, as build_world takes it
    "ruleset": "standard",
    "seed": 11,
    "map": """
        ~~~~~~~~~~~~~~~~~~~~~~~~
        ~A.........~~.......B..~
        ~..........~~..........~
        ~..C.......~~......D...~
        ~~~~~~~~~~~~~~~~~~~~~~~~
        ~~~~~~~~~~~~~~~~~~~~~~~~
    """,
    "nations": {"red": {"player": "100"}, "blue": {"player": "200"}},
    "cities": {
        "A": {"owner": "red", "designation": "fort", "build": "infantry"},
        "C": {"owner": "red", "designation": "port", "build": "transport"},
        "B": {"owner": "blue", "designation": "fort", "build": "infantry"},
        "D": {"owner": "blue", "designation": "tech", "build": "engineer"},
    },
    "units": [
        {"id": 1, "owner": "red", "type": "infantry", "at": "1,1", "mobility": 6},
        {"id": 2, "owner": "red", "type": "infantry", "at": "1,1", "mobility": 6},
        {"id": 3, "owner": "red", "type": "transport", "at": "3,4"},
        {"id": 4, "owner": "blue", "type": "infantry", "at": "20,1", "mobility": 6},
        {"id": 5, "owner": "blue", "type": "engineer", "at": "19,3", "mobility": 9},
    ],
}


def strip_world(**overrides) -> World:
    world, _ = build_world({**STRIP, **overrides})
    return world


def transport_by_a_hidden_submarine(*cargo: dict[str, Any]) -> World:
    """Red's transport 1 at 2,2 on a strait whose way east blue's submarine 2, unseen, blocks at
    5,2 (with `cargo`, units given as in a scenario, aboard)."""
    world, _ = build_world(
        {
            "ruleset": "standard",
            "map": "\n".join(["." * 16, "." * 16, "~" * 16, "." * 16, "." * 16]),
            "nations": {"red": {"cp": 500}, "blue": {}},
            "explored": ["red"],
            "units": [
                {"id": 1, "owner": "red", "type": "transport", "at": "2,2"},
                {"id": 2, "owner": "blue", "type": "submarine", "at": "5,2"},
                *cargo,
            ],
        }
    )
    return world
